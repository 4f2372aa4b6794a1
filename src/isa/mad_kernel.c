/* Micro-kernels of pto.mad* (operand formats in mad_kernel.h).
 *
 * Each variant keeps an mr x nr block of C in registers and, for k = 0, 1, ..., K - 1,
 * broadcasts a(i, k) and applies c(i, j) = fma(a(i, k), b[k][j], c(i, j)) to the whole row:
 * vectorized across n, never across k, so every element sees exactly the reference FMA
 * chain. The x86-64 variants are compiled for their ISA with target attributes and chosen at
 * run time with __builtin_cpu_supports; elsewhere only the portable fmaf() variant exists. */
#include "isa/mad_kernel.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/dtype.h"

/* gcc only: clang 14 lacks some __builtin_cpu_supports features (the clang-built fuzzer then
 * uses the bit-identical portable kernels). */
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#define PT_MAD_X86 1
#include <immintrin.h>
#else
#define PT_MAD_X86 0
#endif

/* Steps of the chain inside the k block starting at k0. */
static inline int64_t block_len(int64_t K, int64_t k0, int64_t cw) { return K - k0 < cw ? K - k0 : cw; }

/* Index of c(i, j); a vector of 8 or 16 columns starting at j (a multiple of its width) is contiguous there. */
static inline int64_t c_at(const pt_mad_tile *t, int i, int j) { return i * t->crow + (j / 16) * t->cblk + j % 16; }

/* ---- portable: fmaf --------------------------------------------------------------------- */

#define P_MR 4
#define P_NR 16

static inline void tile_portable_body(const pt_mad_tile *t, bool sat) {
  float acc[P_MR][P_NR], qnan;
  uint32_t qbits = PT_MAD_QNAN;
  memcpy(&qnan, &qbits, 4);
  for (int i = 0; i < P_MR; i++)
    for (int j = 0; j < P_NR; j++) acc[i][j] = t->seed ? t->seed[j] : t->c[c_at(t, i, j)];
  const float *a = t->a, *b = t->b;
  for (int64_t k0 = 0; k0 < t->k; k0 += t->cw, a += t->kblk)
    for (int64_t s = 0, kk = block_len(t->k, k0, t->cw); s < kk; s++, b += P_NR)
      for (int i = 0; i < P_MR; i++)
        for (int j = 0; j < P_NR; j++) {
          acc[i][j] = fmaf(a[i * t->cw + s], b[j], acc[i][j]);
          if (sat) acc[i][j] = fminf(fmaxf(acc[i][j], -FLT_MAX), FLT_MAX);
        }
  for (int i = 0; i < P_MR; i++)
    for (int j = 0; j < P_NR; j++) t->c[c_at(t, i, j)] = isnan(acc[i][j]) ? qnan : acc[i][j];
}

static void tile_portable(const pt_mad_tile *t) { tile_portable_body(t, false); }
static void tile_portable_sat(const pt_mad_tile *t) { tile_portable_body(t, true); }

static void pack_portable(const float *src, int64_t cw, int64_t kblk, int64_t K, int64_t w, float *dst) {
  for (int64_t k0 = 0; k0 < K; k0 += cw, src += kblk)
    for (int64_t s = 0, kk = block_len(K, k0, cw); s < kk; s++, dst += P_NR)
      for (int64_t j = 0; j < P_NR; j++) dst[j] = j < w ? src[j * cw + s] : 0.0f;
}

static void f16_portable(const uint8_t *src, float *dst, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint16_t h;
    memcpy(&h, src + 2 * i, 2);
    dst[i] = pt_f16_to_f32(h);
  }
}

#if PT_MAD_X86

/* The SIMD tile shared by the x86 variants: an mr x nr block of accumulators in W-lane
 * vectors (VT), each k step one broadcast of a(i, k) and nr / W FMAs per row. The variant
 * supplies its load / store / broadcast / FMA intrinsics, CLAMP (saturation to +-FLT_MAX)
 * and FIX (NaN -> PT_MAD_QNAN). Defines NAME (IEEE) and NAME##_sat. */
#define PT_MAD_SIMD_TILE(NAME, TARGET, VT, W, MR, NR, LOAD, STORE, SET1, FMA, CLAMP, FIX)                  \
  __attribute__((target(TARGET), always_inline)) static inline void NAME##_body(const pt_mad_tile *t,     \
                                                                                bool sat) {               \
    VT acc[MR][NR / W];                                                                                   \
    for (int i = 0; i < MR; i++)                                                                          \
      for (int v = 0; v < NR / W; v++) acc[i][v] = LOAD(t->seed ? t->seed + W * v : t->c + c_at(t, i, W * v)); \
    const float *a = t->a, *b = t->b;                                                                     \
    for (int64_t k0 = 0; k0 < t->k; k0 += t->cw, a += t->kblk)                                            \
      for (int64_t s = 0, kk = block_len(t->k, k0, t->cw); s < kk; s++, b += NR) {                        \
        VT bv[NR / W];                                                                                    \
        for (int v = 0; v < NR / W; v++) bv[v] = LOAD(b + W * v);                                         \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++) {                                            \
          VT ai = SET1(a[i * t->cw + s]);                                                                 \
          for (int v = 0; v < NR / W; v++) {                                                              \
            acc[i][v] = FMA(ai, bv[v], acc[i][v]);                                                        \
            if (sat) acc[i][v] = CLAMP(acc[i][v]);                                                        \
          }                                                                                               \
        }                                                                                                 \
      }                                                                                                   \
    for (int i = 0; i < MR; i++)                                                                          \
      for (int v = 0; v < NR / W; v++) STORE(t->c + c_at(t, i, W * v), FIX(acc[i][v]));                  \
  }                                                                                                       \
  __attribute__((target(TARGET))) static void NAME(const pt_mad_tile *t) { NAME##_body(t, false); }       \
  __attribute__((target(TARGET))) static void NAME##_sat(const pt_mad_tile *t) { NAME##_body(t, true); }

/* ---- AVX2 + FMA: 4 x 16 (8 ymm accumulators, 2 B vectors, 1 broadcast) ------------------- */

#define X2_MR 4
#define X2_NR 16
#define X2_NV (X2_NR / 8)

__attribute__((target("avx2"))) static inline __m256 clamp_avx2(__m256 v) {
  return _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(-FLT_MAX)), _mm256_set1_ps(FLT_MAX));
}
__attribute__((target("avx2"))) static inline __m256 fix_nan_avx2(__m256 v) {
  __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32((int)PT_MAD_QNAN));
  return _mm256_blendv_ps(v, qnan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}

PT_MAD_SIMD_TILE(tile_avx2, "avx2,fma", __m256, 8, X2_MR, X2_NR, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps,
                 _mm256_fmadd_ps, clamp_avx2, fix_nan_avx2)

/* Columns j of the panel sit cw floats apart in the source: gather 8 per instruction. */
__attribute__((target("avx2"))) static void pack_avx2(const float *src, int64_t cw, int64_t kblk, int64_t K,
                                                      int64_t w, float *dst) {
  __m256i idx[X2_NV], mask[X2_NV];
  for (int v = 0; v < X2_NV; v++) {
    __m256i j = _mm256_add_epi32(_mm256_set1_epi32(8 * v), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    idx[v] = _mm256_mullo_epi32(j, _mm256_set1_epi32((int)cw));
    mask[v] = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)w), j);
  }
  for (int64_t k0 = 0; k0 < K; k0 += cw, src += kblk)
    for (int64_t s = 0, kk = block_len(K, k0, cw); s < kk; s++, dst += X2_NR)
      for (int v = 0; v < X2_NV; v++)
        _mm256_storeu_ps(dst + 8 * v, _mm256_mask_i32gather_ps(_mm256_setzero_ps(), src + s, idx[v],
                                                               _mm256_castsi256_ps(mask[v]), 4));
}

/* ---- AVX-512F: 8 x 32 (16 zmm accumulators, 2 B vectors, 1 broadcast) -------------------- */

#define X5_MR 8
#define X5_NR 32
#define X5_NV (X5_NR / 16)

__attribute__((target("avx512f"))) static inline __m512 clamp_avx512(__m512 v) {
  return _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(-FLT_MAX)), _mm512_set1_ps(FLT_MAX));
}
__attribute__((target("avx512f"))) static inline __m512 fix_nan_avx512(__m512 v) {
  __m512 qnan = _mm512_castsi512_ps(_mm512_set1_epi32((int)PT_MAD_QNAN));
  return _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), qnan);
}

PT_MAD_SIMD_TILE(tile_avx512, "avx512f", __m512, 16, X5_MR, X5_NR, _mm512_loadu_ps, _mm512_storeu_ps,
                 _mm512_set1_ps, _mm512_fmadd_ps, clamp_avx512, fix_nan_avx512)

__attribute__((target("avx512f"))) static void pack_avx512(const float *src, int64_t cw, int64_t kblk, int64_t K,
                                                           int64_t w, float *dst) {
  __m512i idx[X5_NV];
  __mmask16 mask[X5_NV];
  for (int v = 0; v < X5_NV; v++) {
    __m512i j = _mm512_add_epi32(_mm512_set1_epi32(16 * v),
                                 _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    idx[v] = _mm512_mullo_epi32(j, _mm512_set1_epi32((int)cw));
    mask[v] = _mm512_cmpgt_epi32_mask(_mm512_set1_epi32((int)w), j);
  }
  for (int64_t k0 = 0; k0 < K; k0 += cw, src += kblk)
    for (int64_t s = 0, kk = block_len(K, k0, cw); s < kk; s++, dst += X5_NR)
      for (int v = 0; v < X5_NV; v++)
        _mm512_storeu_ps(dst + 16 * v, _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask[v], idx[v], src + s, 4));
}

/* VCVTPH2PS converts exactly, like pt_f16_to_f32 (NaN payloads aside). */
__attribute__((target("avx,f16c"))) static void f16_f16c(const uint8_t *src, float *dst, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(src + 2 * i))));
  f16_portable(src + 2 * i, dst + i, n - i);
}

__attribute__((target("avx512f"))) static void f16_avx512(const uint8_t *src, float *dst, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(dst + i, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(src + 2 * i))));
  f16_portable(src + 2 * i, dst + i, n - i);
}

#endif /* PT_MAD_X86 */

/* ---- selection ---------------------------------------------------------------------------- */

static const pt_mad_kernel kernels[] = {
    [PT_MAD_ISA_PORTABLE] = {PT_MAD_ISA_PORTABLE, "portable", P_MR, P_NR, tile_portable, tile_portable_sat,
                             pack_portable, f16_portable},
#if PT_MAD_X86
    [PT_MAD_ISA_AVX2] = {PT_MAD_ISA_AVX2, "avx2", X2_MR, X2_NR, tile_avx2, tile_avx2_sat, pack_avx2, f16_f16c},
    [PT_MAD_ISA_AVX512] = {PT_MAD_ISA_AVX512, "avx512", X5_MR, X5_NR, tile_avx512, tile_avx512_sat, pack_avx512,
                           f16_avx512},
#endif
};

static pt_mad_isa selected = PT_MAD_ISA_BEST;

static bool host_has(pt_mad_isa isa) {
#if PT_MAD_X86
  __builtin_cpu_init();
  if (isa == PT_MAD_ISA_AVX512) return __builtin_cpu_supports("avx512f");
  if (isa == PT_MAD_ISA_AVX2)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
#endif
  return isa == PT_MAD_ISA_PORTABLE;
}

const pt_mad_kernel *pt_mad_kernel_get(void) {
  if (selected != PT_MAD_ISA_BEST) return &kernels[selected];
  int isa = PT_MAD_ISA_AVX512;
  while (!host_has((pt_mad_isa)isa)) isa--;
  return &kernels[isa];
}

bool pt_mad_kernel_select(pt_mad_isa isa) {
  if (isa != PT_MAD_ISA_BEST && ((unsigned)isa > PT_MAD_ISA_BEST || !host_has(isa))) return false;
  selected = isa;
  return true;
}
