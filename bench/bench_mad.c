/* pto.mad throughput against a plain C triple loop and, when available, single-threaded
 * OpenBLAS sgemm on the same m x n x k, all measured in this run. Shapes: 64 x 64 x 64 and the
 * largest balanced tile the L0A / L0B / L0C of each target hold (A5: L0A 64 KiB, L0C 256 KiB
 * -> f16 256 x 256 x 128, f32 256 x 256 x 64; A2/A3: L0C 128 KiB -> f16 128 x 128 x 256,
 * f32 128 x 128 x 128). The mad time is the whole op: checks, operand decoding and packing,
 * arithmetic and L0C writeback. Targets: >= 20x the triple loop, >= 0.5x OpenBLAS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_gemm.h"
#include "isa/mad_kernel.h"
#include "ptosim/ptosim.h"


#define MIN_SECONDS 0.3

typedef struct shape {
  ptosim_target tgt;
  ptosim_dtype t;
  int m, n, k;
} shape;

typedef struct run_arg {
  ptosim_core *aic;
  ptosim_mad_params p;
} run_arg;

static unsigned long long rng = 12345;

static void run_mad(void *arg) {
  run_arg *r = arg;
  if (ptosim_mad(r->aic, &r->p) != PTOSIM_OK) abort();
}

/* The plain C triple loop: i-j-k with a scalar accumulator. */
static void run_naive(void *arg) {
  pt_gemm *g = arg;
  int m = g->m, n = g->n, k = g->k;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float acc = 0.0f;
      for (int l = 0; l < k; l++) acc += g->a[i * k + l] * g->b[l * n + j];
      g->c[i * n + j] = acc;
    }
}

static void bench_shape(const shape *s) {
  ptosim_machine *m = ptosim_machine_new(s->tgt, 1);
  run_arg r = {.aic = ptosim_core_of(m, 0, PTOSIM_AIC)};
  pt_gemm_fill(r.aic, PTOSIM_L0A, s->t, ptosim_space_capacity(m, PTOSIM_L0A), &rng);
  pt_gemm_fill(r.aic, PTOSIM_L0B, s->t, ptosim_space_capacity(m, PTOSIM_L0B), &rng);
  r.p.lhs = ptosim_ptr_make(PTOSIM_L0A, s->t, 0);
  r.p.rhs = ptosim_ptr_make(PTOSIM_L0B, s->t, 0);
  r.p.dst = ptosim_ptr_make(PTOSIM_L0C, PTOSIM_DT_F32, 0);
  r.p.m = s->m;
  r.p.n = s->n;
  r.p.k = s->k;
  pt_gemm g;
  pt_gemm_init(&g, s->m, s->n, s->k, &rng);

  double gflop = 2e-9 * s->m * s->n * s->k;
  double naive = gflop / pt_bench_best(run_naive, &g, MIN_SECONDS);
  char name[96];
  snprintf(name, sizeof name, "mad %s %s %dx%dx%d [%s]", s->tgt == PTOSIM_TARGET_A5 ? "a5" : "a2a3", pt_dtype_name(s->t),
           s->m, s->n, s->k, pt_mad_kernel_get()->name);
  double mad = gflop / pt_bench_best(run_mad, &r, MIN_SECONDS);
  pt_bench_report(name, mad, "GFLOP/s", naive, "naive loop", 20.0);
#ifdef PTOSIM_HAVE_OPENBLAS
  double blas = gflop / pt_bench_best(pt_gemm_blas, &g, MIN_SECONDS);
  pt_bench_report(name, mad, "GFLOP/s", blas, "OpenBLAS sgemm", 0.5);
#endif
  /* Other kernel variants, for information (a host without AVX-512 runs the AVX2 one). */
  for (int isa = PT_MAD_ISA_PORTABLE; isa < PT_MAD_ISA_BEST; isa++) {
    if (isa == (int)pt_mad_kernel_get()->isa || !pt_mad_kernel_select((pt_mad_isa)isa)) continue;
    double v = gflop / pt_bench_best(run_mad, &r, MIN_SECONDS / 3);
    printf("  variant %-10s %10.3f GFLOP/s (%.2fx naive)\n", pt_mad_kernel_get()->name, v, v / naive);
    pt_mad_kernel_select(PT_MAD_ISA_BEST);
  }
  pt_gemm_free(&g);
  ptosim_machine_free(m);
}

int main(void) {
  pt_gemm_setup();
  static const shape shapes[] = {
      {PTOSIM_TARGET_A5, PTOSIM_DT_F16, 64, 64, 64},     {PTOSIM_TARGET_A5, PTOSIM_DT_F32, 64, 64, 64},
      {PTOSIM_TARGET_A5, PTOSIM_DT_F16, 256, 256, 128},  {PTOSIM_TARGET_A5, PTOSIM_DT_F32, 256, 256, 64},
      {PTOSIM_TARGET_A2A3, PTOSIM_DT_F16, 128, 128, 256}, {PTOSIM_TARGET_A2A3, PTOSIM_DT_F32, 128, 128, 128},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) bench_shape(&shapes[i]);
  return 0;
}
