/* The f32 engine of pto.mad*: micro-kernels that apply, for every output element, one
 * fused multiply-add per k step in k-ascending order, B panel packing, and the f16 -> f32
 * bulk conversion. Every variant gives the same bits: the FMA chain of an element is never
 * reordered, fmaf() rounds like the FMA instructions, and NaN results are stored as the one
 * quiet NaN 0x7FC00000 (payloads would otherwise depend on the instruction set). */
#ifndef PT_MAD_KERNEL_H
#define PT_MAD_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#define PT_MAD_QNAN 0x7FC00000u

/* One micro-tile of mr rows x nr columns:
 *   c(i, j) = fma-chain over k < K of a(i, k) * b[k * nr + j], seeded with seed[j] (every
 *             row) or, when seed is NULL, with the value c(i, j) holds
 *   a(i, k) = a[i * cw + (k / cw) * kblk + k % cw]   (rows of one 16-row fractal group)
 *   c(i, j) = c[i * crow + (j / 16) * cblk + j % 16] (L0C fractals, or a row-major scratch
 *                                                     tile with crow = nr, cblk = 16) */
typedef struct pt_mad_tile {
  int64_t k;
  const float *a;
  int64_t cw, kblk;
  const float *b;
  float *c;
  int64_t crow, cblk;
  const float *seed;
} pt_mad_tile;

typedef void pt_mad_tile_fn(const pt_mad_tile *t);

typedef enum pt_mad_isa {
  PT_MAD_ISA_PORTABLE = 0, /* fmaf() */
  PT_MAD_ISA_AVX2,         /* x86-64 AVX2 + FMA + F16C */
  PT_MAD_ISA_AVX512,       /* x86-64 AVX-512F */
  PT_MAD_ISA_BEST          /* the best the host supports */
} pt_mad_isa;

typedef struct pt_mad_kernel {
  pt_mad_isa isa;
  const char *name;
  int mr, nr;               /* micro-tile rows (divides 16) and columns (multiple of 16) */
  pt_mad_tile_fn *tile;     /* IEEE arithmetic */
  pt_mad_tile_fn *tile_sat; /* every step result clamped to [-FLT_MAX, FLT_MAX] */
  /* One B panel: dst[k * nr + j] = src[j * cw + (k / cw) * kblk + k % cw] for j < w,
   * 0 for w <= j < nr, k < K. */
  void (*pack)(const float *src, int64_t cw, int64_t kblk, int64_t K, int64_t w, float *dst);
  /* n little-endian binary16 values -> f32. */
  void (*f16)(const uint8_t *src, float *dst, int64_t n);
} pt_mad_kernel;

/* The kernel used by the mad ops: the one chosen with pt_mad_kernel_select, else the best
 * the host supports. */
const pt_mad_kernel *pt_mad_kernel_get(void);

/* Choose a variant for later ops (tests and benchmarks compare them); returns false and
 * keeps the current choice if the host lacks it. Not thread-safe: call it before ops run. */
bool pt_mad_kernel_select(pt_mad_isa isa);

#endif
