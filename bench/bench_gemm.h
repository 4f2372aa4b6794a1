/* The GEMM side shared by the matmul benchmarks (bench_mad, bench_tile_matmul): random
 * operands, the row-major float matrices of the baselines, and the baselines themselves
 * (single-threaded OpenBLAS sgemm when available). */
#ifndef PT_BENCH_GEMM_H
#define PT_BENCH_GEMM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

#ifdef PTOSIM_HAVE_OPENBLAS
#include <cblas.h>
#endif

/* Row-major a[m][k], b[k][n], c[m][n] for the baselines. */
typedef struct pt_gemm {
  int m, n, k;
  float *a, *b, *c;
} pt_gemm;

/* A random normal value in +-[0.5, 2): no subnormals, no overflow in any sum. */
static inline float pt_gemm_value(unsigned long long *rng) {
  unsigned long long r = pt_rand_u64(rng);
  float v = 0.5f + (float)(r >> 40) / (float)(1ull << 24) * 1.5f;
  return r & 1 ? -v : v;
}

/* Fill a space with random values of type t (the layout does not matter for timing). */
static inline void pt_gemm_fill(ptosim_core *c, ptosim_space space, ptosim_dtype t, uint64_t bytes,
                                unsigned long long *rng) {
  uint8_t *img = malloc(bytes);
  unsigned es = pt_dtype_size(t);
  for (uint64_t i = 0; i + es <= bytes; i += es) pt_store_from_f32(t, img + i, pt_gemm_value(rng), PT_RND_RINT, PT_SAT_OFF);
  if (!img || ptosim_mem_write(c, space, 0, img, bytes) != PTOSIM_OK) abort();
  free(img);
}

static inline void pt_gemm_init(pt_gemm *g, int m, int n, int k, unsigned long long *rng) {
  g->m = m, g->n = n, g->k = k;
  g->a = malloc(sizeof(float) * (size_t)(m * k));
  g->b = malloc(sizeof(float) * (size_t)(k * n));
  g->c = malloc(sizeof(float) * (size_t)(m * n));
  if (!g->a || !g->b || !g->c) abort();
  for (int i = 0; i < m * k; i++) g->a[i] = pt_gemm_value(rng);
  for (int i = 0; i < k * n; i++) g->b[i] = pt_gemm_value(rng);
}

static inline void pt_gemm_free(pt_gemm *g) {
  free(g->a);
  free(g->b);
  free(g->c);
}

#ifdef PTOSIM_HAVE_OPENBLAS
/* The baseline: c = a * b with single-threaded sgemm (arg: a pt_gemm). */
static inline void pt_gemm_blas(void *arg) {
  pt_gemm *g = arg;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->m, g->n, g->k, 1.0f, g->a, g->k, g->b, g->n, 0.0f, g->c, g->n);
}
#endif

/* Pin OpenBLAS to one thread, or say there is no sgemm baseline. */
static inline void pt_gemm_setup(void) {
#ifdef PTOSIM_HAVE_OPENBLAS
  openblas_set_num_threads(1);
  /* A CPU this OpenBLAS does not know gets a generic kernel (0.3.21 on Sapphire Rapids:
   * "Prescott", about a fifth of the AVX-512 speed): name it, OPENBLAS_CORETYPE overrides. */
  printf("OpenBLAS core: %s (set OPENBLAS_CORETYPE=SkylakeX or Haswell if it is not the host's)\n",
         openblas_get_corename());
#else
  printf("OpenBLAS not found: no sgemm baseline\n");
#endif
}

#endif
