/* pto.tmatmul throughput against single-threaded OpenBLAS sgemm (when available) on the same
 * m x n x k, measured in this run. The tile op time is the whole op: tile checks, operand
 * decoding and packing, arithmetic and the L0C writeback. Shapes: 64^3 and the largest
 * tiles the A5 L0A / L0B / L0C hold (f16 128 x 128 x 256, f32 128 x 128 x 128 and 256 x 256 x
 * 64). Target: >= 0.5x OpenBLAS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

#ifdef PTOSIM_HAVE_OPENBLAS
#include <cblas.h>
#endif

#define MIN_SECONDS 0.3

typedef struct shape {
  ptosim_dtype t;
  int m, n, k;
} shape;

typedef struct run_arg {
  const shape *s;
  ptosim_core *aic;
  ptosim_tmatmul_params p;
  float *a, *b, *c; /* row-major logical matrices for the baseline */
} run_arg;

static unsigned long long rng = 4242;

/* A random normal value in +-[0.5, 2): no subnormals, no overflow in any sum. */
static float value(void) {
  unsigned long long r = pt_rand_u64(&rng);
  float v = 0.5f + (float)(r >> 40) / (float)(1ull << 24) * 1.5f;
  return r & 1 ? -v : v;
}

static void run_tmatmul(void *arg) {
  run_arg *r = arg;
  if (ptosim_tmatmul(r->aic, &r->p) != PTOSIM_OK) abort();
}

#ifdef PTOSIM_HAVE_OPENBLAS
static void run_blas(void *arg) {
  run_arg *r = arg;
  const shape *s = r->s;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s->m, s->n, s->k, 1.0f, r->a, s->k, r->b, s->n, 0.0f, r->c,
              s->n);
}
#endif

/* Fill a space with random values of type t (the layout does not matter for timing). */
static void fill(ptosim_core *c, ptosim_space space, ptosim_dtype t, uint64_t bytes) {
  uint8_t *img = malloc(bytes);
  unsigned es = pt_dtype_size(t);
  for (uint64_t i = 0; i + es <= bytes; i += es) pt_store_from_f32(t, img + i, value(), PT_RND_RINT, PT_SAT_OFF);
  if (ptosim_mem_write(c, space, 0, img, bytes) != PTOSIM_OK) abort();
  free(img);
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
  run_arg r = {.s = s, .aic = ptosim_core_of(m, 0, PTOSIM_AIC)};
  fill(r.aic, PTOSIM_L0A, s->t, ptosim_space_capacity(m, PTOSIM_L0A));
  fill(r.aic, PTOSIM_L0B, s->t, ptosim_space_capacity(m, PTOSIM_L0B));
  r.p.lhs = tile(PTOSIM_L0A, s->t, s->m, s->k, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512);
  r.p.rhs = tile(PTOSIM_L0B, s->t, s->k, s->n, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_COL_MAJOR, 512);
  r.p.dst = tile(PTOSIM_L0C, PTOSIM_DT_F32, s->m, s->n, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024);
  r.a = malloc(sizeof(float) * (size_t)(s->m * s->k));
  r.b = malloc(sizeof(float) * (size_t)(s->k * s->n));
  r.c = malloc(sizeof(float) * (size_t)(s->m * s->n));
  for (int i = 0; i < s->m * s->k; i++) r.a[i] = value();
  for (int i = 0; i < s->k * s->n; i++) r.b[i] = value();

  double gflop = 2e-9 * s->m * s->n * s->k;
  char name[96];
  snprintf(name, sizeof name, "tmatmul a5 %s %dx%dx%d", pt_dtype_name(s->t), s->m, s->n, s->k);
  double tm = gflop / pt_bench_best(run_tmatmul, &r, MIN_SECONDS);
#ifdef PTOSIM_HAVE_OPENBLAS
  double blas = gflop / pt_bench_best(run_blas, &r, MIN_SECONDS);
  pt_bench_report(name, tm, "GFLOP/s", blas, "OpenBLAS sgemm", 0.5);
#else
  printf("%-44s %10.3f GFLOP/s\n", name, tm);
#endif
  free(r.a);
  free(r.b);
  free(r.c);
  ptosim_machine_free(m);
}

int main(void) {
#ifdef PTOSIM_HAVE_OPENBLAS
  openblas_set_num_threads(1);
#else
  printf("OpenBLAS not found: no baseline, GFLOP/s only\n");
#endif
  static const shape shapes[] = {
      {PTOSIM_DT_F32, 64, 64, 64},   {PTOSIM_DT_F16, 64, 64, 64},    {PTOSIM_DT_F32, 128, 128, 128},
      {PTOSIM_DT_F32, 256, 256, 64}, {PTOSIM_DT_F16, 128, 128, 256},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) bench_shape(&shapes[i]);
  return 0;
}
