/* pto.tmatmul throughput against single-threaded OpenBLAS sgemm (when available) on the same
 * m x n x k, measured in this run. The tile op time is the whole op: tile checks, operand
 * decoding and packing, arithmetic and the L0C writeback. Shapes: 64^3 and the largest
 * tiles the A5 L0A / L0B / L0C hold (f16 128 x 128 x 256, f32 128 x 128 x 128 and 256 x 256 x
 * 64). Then an end-to-end tile GEMM 256 x 256 x 256 from GM to GM through the C API, f16 and
 * f32 operands: per k step of one L0A / L0B tile (64 KiB: kt = 128 f16, 64 f32), TLOAD of the
 * A and B panels (ND -> L1 NZ), TMOV to L0A (NZ) and L0B (ZN), TMATMUL (.acc after the first
 * step); then TSTORE of the L0C tile (FIXPIPE nz2nd, f32). Targets: >= 0.5x OpenBLAS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- end-to-end tile GEMM ------------------------------------------------------------------ */

#define E2E 256

typedef struct e2e {
  ptosim_core *aic;
  ptosim_dtype t;
  int kt;
  uint64_t ga, gb, gc;
} e2e;

/* A rows x cols window of an E2E-column row-major GM matrix of type t at ga. */
static ptosim_gm_view view(ptosim_dtype t, uint64_t ga, int rows, int cols) {
  ptosim_gm_view v = {.addr = ga, .dtype = t, .layout = PTOSIM_GL_ND};
  for (int d = 0; d < 5; d++) v.shape[d] = 1, v.stride[d] = (int64_t)E2E * E2E;
  v.shape[3] = rows, v.shape[4] = cols, v.stride[3] = E2E, v.stride[4] = 1;
  return v;
}

static void run_e2e(void *arg) {
  e2e *g = arg;
  unsigned es = pt_dtype_size(g->t);
  ptosim_tile a1 = tile(PTOSIM_L1, g->t, E2E, g->kt, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512);
  ptosim_tile b1 = tile(PTOSIM_L1, g->t, g->kt, E2E, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512);
  b1.addr = 256 * 1024;
  ptosim_tile a0 = tile(PTOSIM_L0A, g->t, E2E, g->kt, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512);
  ptosim_tile b0 = tile(PTOSIM_L0B, g->t, g->kt, E2E, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_COL_MAJOR, 512);
  ptosim_tile c0 = tile(PTOSIM_L0C, PTOSIM_DT_F32, E2E, E2E, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024);
  for (int k = 0; k < E2E; k += g->kt) {
    ptosim_tload_params la = {view(g->t, g->ga + (uint64_t)k * es, E2E, g->kt), a1};
    ptosim_tload_params lb = {view(g->t, g->gb + (uint64_t)k * E2E * es, g->kt, E2E), b1};
    ptosim_tmov_params ma = {.src = a1, .dst = a0}, mb = {.src = b1, .dst = b0};
    ptosim_tmatmul_params mm = {.lhs = a0, .rhs = b0, .dst = c0, .acc_in = c0};
    if (ptosim_tload(g->aic, &la) || ptosim_tload(g->aic, &lb) || ptosim_tmov(g->aic, &ma) ||
        ptosim_tmov(g->aic, &mb) || (k ? ptosim_tmatmul_acc(g->aic, &mm) : ptosim_tmatmul(g->aic, &mm)))
      abort();
  }
  ptosim_tstore_params st = {.src = c0, .dst = view(PTOSIM_DT_F32, g->gc, E2E, E2E)};
  if (ptosim_tstore(g->aic, &st) != PTOSIM_OK) abort();
}

static void bench_e2e(ptosim_dtype t) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  unsigned es = pt_dtype_size(t);
  size_t in = (size_t)E2E * E2E * es, out = (size_t)E2E * E2E * 4;
  uint8_t *a = malloc(in), *b = malloc(in), *c = malloc(out);
  if (!a || !b || !c) abort();
  for (size_t i = 0; i < in; i += es) {
    pt_store_from_f32(t, a + i, pt_gemm_value(&rng), PT_RND_RINT, PT_SAT_OFF);
    pt_store_from_f32(t, b + i, pt_gemm_value(&rng), PT_RND_RINT, PT_SAT_OFF);
  }
  memset(c, 0, out);
  e2e g = {.aic = ptosim_core_of(m, 0, PTOSIM_AIC), .t = t, .kt = 64 * 1024 / (E2E * (int)es)};
  if (ptosim_gm_map(m, a, in, &g.ga) || ptosim_gm_map(m, b, in, &g.gb) || ptosim_gm_map(m, c, out, &g.gc)) abort();
  pt_gemm ref;
  pt_gemm_init(&ref, E2E, E2E, E2E, &rng);
  double gflop = 2e-9 * E2E * E2E * E2E;
  char name[96];
  snprintf(name, sizeof name, "tile gemm e2e a5 %s %dx%dx%d", pt_dtype_name(t), E2E, E2E, E2E);
  double tm = gflop / pt_bench_best(run_e2e, &g, MIN_SECONDS);
#ifdef PTOSIM_HAVE_OPENBLAS
  pt_bench_report(name, tm, "GFLOP/s", gflop / pt_bench_best(pt_gemm_blas, &ref, MIN_SECONDS), "OpenBLAS sgemm", 0.5);
#else
  printf("%-44s %10.3f GFLOP/s\n", name, tm);
#endif
  pt_gemm_free(&ref);
  free(a), free(b), free(c);
  ptosim_machine_free(m);
}

int main(void) {
  pt_gemm_setup();
  static const shape shapes[] = {
      {PTOSIM_DT_F32, 64, 64, 64},   {PTOSIM_DT_F16, 64, 64, 64},    {PTOSIM_DT_F32, 128, 128, 128},
      {PTOSIM_DT_F32, 256, 256, 64}, {PTOSIM_DT_F16, 128, 128, 256},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) bench_shape(&shapes[i]);
  bench_e2e(PTOSIM_DT_F16);
  bench_e2e(PTOSIM_DT_F32);
  return 0;
}
