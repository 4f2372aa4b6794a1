/* pto.tmatmul throughput against single-threaded OpenBLAS sgemm (when available) on the same
 * m x n x k, measured in this run. The tile op time is the whole op: tile checks, operand
 * decoding and packing, arithmetic and the L0C writeback. Shapes: 64^3 and the largest
 * tiles the A5 L0A / L0B / L0C hold (f16 128 x 128 x 256, f32 128 x 128 x 128 and 256 x 256 x
 * 64). Target: >= 0.5x OpenBLAS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "bench_gemm.h"


#define MIN_SECONDS 0.3

typedef struct shape {
  ptosim_dtype t;
  int m, n, k;
} shape;

typedef struct run_arg {
  ptosim_core *aic;
  ptosim_tmatmul_params p;
} run_arg;

static unsigned long long rng = 4242;

static void run_tmatmul(void *arg) {
  run_arg *r = arg;
  if (ptosim_tmatmul(r->aic, &r->p) != PTOSIM_OK) abort();
}

static ptosim_tile tile(ptosim_space sp, ptosim_dtype t, int rows, int cols, ptosim_blayout bl, ptosim_slayout sl,
                        int fractal) {
  ptosim_tile x = {.space = sp,
                   .dtype = t,
                   .rows = rows,
                   .cols = cols,
                   .valid_rows = rows,
                   .valid_cols = cols,
                   .blayout = bl,
                   .slayout = sl,
                   .fractal = fractal};
  return x;
}

static void bench_shape(const shape *s) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  run_arg r = {.aic = ptosim_core_of(m, 0, PTOSIM_AIC)};
  pt_gemm_fill(r.aic, PTOSIM_L0A, s->t, ptosim_space_capacity(m, PTOSIM_L0A), &rng);
  pt_gemm_fill(r.aic, PTOSIM_L0B, s->t, ptosim_space_capacity(m, PTOSIM_L0B), &rng);
  r.p.lhs = tile(PTOSIM_L0A, s->t, s->m, s->k, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512);
  r.p.rhs = tile(PTOSIM_L0B, s->t, s->k, s->n, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_COL_MAJOR, 512);
  r.p.dst = tile(PTOSIM_L0C, PTOSIM_DT_F32, s->m, s->n, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024);
  pt_gemm g;
  pt_gemm_init(&g, s->m, s->n, s->k, &rng);

  double gflop = 2e-9 * s->m * s->n * s->k;
  char name[96];
  snprintf(name, sizeof name, "tmatmul a5 %s %dx%dx%d", pt_dtype_name(s->t), s->m, s->n, s->k);
  double tm = gflop / pt_bench_best(run_tmatmul, &r, MIN_SECONDS);
#ifdef PTOSIM_HAVE_OPENBLAS
  double blas = gflop / pt_bench_best(pt_gemm_blas, &g, MIN_SECONDS);
  pt_bench_report(name, tm, "GFLOP/s", blas, "OpenBLAS sgemm", 0.5);
#else
  printf("%-44s %10.3f GFLOP/s\n", name, tm);
#endif
  pt_gemm_free(&g);
  ptosim_machine_free(m);
}

int main(void) {
  pt_gemm_setup();
  static const shape shapes[] = {
      {PTOSIM_DT_F32, 64, 64, 64},   {PTOSIM_DT_F16, 64, 64, 64},    {PTOSIM_DT_F32, 128, 128, 128},
      {PTOSIM_DT_F32, 256, 256, 64}, {PTOSIM_DT_F16, 128, 128, 256},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) bench_shape(&shapes[i]);
  return 0;
}
