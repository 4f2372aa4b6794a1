/* FIXPIPE conversion pipeline (see fixpipe_quant.h).
 *
 * Readings chosen where the spec (vpto docs/isa/micro-isa/16-cube-matmul.md) is silent:
 * - Parameter words: vector pre_quant rows hold one 64-bit word per channel (128 B = 16
 *   channels); the scale is the 19-bit M1 field [31:13], the offset the signed 9-bit field
 *   [45:37] (s9 per the Ascend C SetDeqScale page), the sign control bit 46 (pto-isa
 *   include/pto/cpu/common.hpp quantize_element and the golden of
 *   test/vpto/cases/micro-op/cv-mixed/fixpipe-quant-ub-cv). A scalar payload is one f32 used
 *   whole, with offset 0 (PTOAS VPTOExpandWrapperOps.cpp materializeAccStoreScalarPayload
 *   writes only the f32 bits); its sign control follows the destination type (i8 / i4
 *   signed, u8 unsigned), as pto-isa SET_QUANT_SCALAR_IMPL does.
 * - Vector pre_relu rows (64 B = 16 channels) hold one f32 alpha per channel whatever the
 *   element type of the fb pointer (golden of fixpipe-relu-scalar-vector-f16-cv).
 * - Offsets are added after scaling and before narrowing (spec); integer narrowing rounds to
 *   nearest even (pto-isa CPU model: std::nearbyint) after relu and clip, then clamps.
 * - hif8 results round half away from zero (HiFloat8, arXiv 2409.16626); other floats to
 *   nearest even. The qf162* f16 pre-stage saturates (|x| > 65504 -> 65504, NaN -> 0).
 * - normal_relu is y > 0 ? y : 0 (NaN -> 0, as the pto-isa CPU model's ReLU); scalar and
 *   vector relu are y >= 0 ? y : alpha * y (NaN stays NaN); clip replaces y > clip only. */
#include "isa/fixpipe_quant.h"

#include <string.h>

#define ROW(nm, a, d0, d1, k, nr, v, st) \
  {nm, PTOSIM_DT_##a, {PTOSIM_DT_##d0, PTOSIM_DT_##d1}, PT_FQ_##k, PT_FQ_##nr, v, st}
/* A _vec / _scalar pair of one family (st: stochastic rounding). */
#define PAIR(id, nm, a, d0, d1, k, nr, st) \
  [PTOSIM_QUANT_##id##_VEC] = ROW(nm "_vec", a, d0, d1, k, nr, true, st), \
  [PTOSIM_QUANT_##id##_SCALAR] = ROW(nm "_scalar", a, d0, d1, k, nr, false, st)

/* Source and destination families per mode: spec table "pre_quant mode families"; fp8 is
 * f8E4M3FN, the only fp8 FIXPIPE output of pto-isa include/pto/npu/a5/TStore.hpp. The hybrid
 * hif8 rounding is the stochastic CAST_HYBRID mode of the Ascend C RoundMode page. */
static const pt_fq_mode k_modes[PTOSIM_QUANT_COUNT] = {
    [PTOSIM_QUANT_NONE] = ROW("none", NONE, NONE, NONE, NONE, FLOAT, false, false),
    [PTOSIM_QUANT_F32_F16] = ROW("f32_f16", F32, F16, NONE, NONE, FLOAT, false, false),
    [PTOSIM_QUANT_F32_BF16] = ROW("f32_bf16", F32, BF16, NONE, NONE, FLOAT, false, false),
    PAIR(QF322HIF8_PRE, "qf322hif8_pre", F32, HIF8, NONE, SCALE, FLOAT, false),
    PAIR(QF322HIF8_PRE_HYBRID, "qf322hif8_pre_hybrid", F32, HIF8, NONE, SCALE, FLOAT, true),
    PAIR(DEQS32_INT, "deqs32_int", I32, I32, NONE, SCALE_OFS, S32, false),
    PAIR(REQ8, "req8", I32, I8, U8, SCALE_OFS, B8, false),
    PAIR(DEQF16, "deqf16", I32, F16, NONE, SCALE_OFS, FLOAT, false),
    PAIR(QF322FP8_PRE, "qf322fp8_pre", F32, F8E4M3, NONE, SCALE, FLOAT, false),
    PAIR(QF322F32_PRE, "qf322f32_pre", F32, F32, NONE, SCALE, FLOAT, false),
    PAIR(QF162B8_PRE, "qf162b8_pre", F32, I8, U8, F16_SCALE_OFS, B8, false),
    PAIR(QF162S4_PRE, "qf162s4_pre", F32, I4, NONE, F16_SCALE_OFS, S4, false),
    PAIR(REQ4, "req4", I32, I4, NONE, SCALE_OFS, B4, false),
    PAIR(QF322B8_PRE, "qf322b8_pre", F32, I8, U8, SCALE_OFS, B8, false),
    PAIR(QF322S4_PRE, "qf322s4_pre", F32, I4, NONE, SCALE_OFS, S4, false),
    PAIR(DEQS16, "deqs16", I32, I16, NONE, SCALE_OFS, S16, false),
    PAIR(QF162S16_PRE, "qf162s16_pre", I32, I16, NONE, F16_SCALE_OFS, S16, false),
    PAIR(QF322F16_PRE, "qf322f16_pre", F32, F16, NONE, SCALE, FLOAT, false),
    PAIR(QF322BF16_PRE, "qf322bf16_pre", F32, BF16, NONE, SCALE, FLOAT, false),
    PAIR(QS322BF16_PRE, "qs322bf16_pre", I32, BF16, NONE, SCALE_OFS, FLOAT, false),
};

const pt_fq_mode *pt_fq_mode_of(ptosim_quant_mode q) {
  return (unsigned)q < PTOSIM_QUANT_COUNT ? &k_modes[q] : NULL;
}

pt_fq_param pt_fq_decode(uint64_t word) {
  uint32_t m1 = (uint32_t)word & 0xFFFFE000u;
  int32_t ofs = (int32_t)((word >> 37) & 0x1FFu);
  pt_fq_param p;
  memcpy(&p.scale, &m1, sizeof p.scale);
  p.offset = (float)(ofs >= 0x100 ? ofs - 0x200 : ofs);
  p.sign = ((word >> 46) & 1u) != 0;
  return p;
}

static pt_fq_param param_of(const pt_fq_conv *cv, int64_t ch) {
  if (!cv->qvec) return cv->q;
  uint64_t w;
  memcpy(&w, cv->qvec + 8 * ch, sizeof w);
  return pt_fq_decode(w);
}

static float acc_f32(const pt_fq_conv *cv, const uint8_t *p) {
  if (cv->acc == PTOSIM_DT_I32) {
    int32_t v;
    memcpy(&v, p, sizeof v);
    return (float)v;
  }
  float f;
  memcpy(&f, p, sizeof f);
  return f;
}

static float alpha_of(const pt_fq_conv *cv, int64_t ch) {
  if (!cv->avec) return cv->alpha;
  float a;
  memcpy(&a, cv->avec + 4 * ch, sizeof a);
  return a;
}

static float quantize(pt_fq_kind kind, float x, const pt_fq_param *p) {
  switch (kind) {
    case PT_FQ_SCALE: return x * p->scale;
    case PT_FQ_SCALE_OFS: return x * p->scale + p->offset;
    case PT_FQ_F16_SCALE_OFS: return pt_f16_to_f32(pt_f32_to_f16(x, PT_RND_RINT, PT_SAT_ON)) * p->scale + p->offset;
    case PT_FQ_NONE:
    default: return x;
  }
}

static float relu(const pt_fq_conv *cv, float y, int64_t ch) {
  switch (cv->relu) {
    case PTOSIM_RELU_NORMAL: return y > 0.0f ? y : 0.0f;
    case PTOSIM_RELU_SCALAR:
    case PTOSIM_RELU_VECTOR: return y >= 0.0f ? y : alpha_of(cv, ch) * y;
    default: return y;
  }
}

static void int_range(pt_fq_narrow n, bool sign, int64_t *lo, int64_t *hi) {
  switch (n) {
    case PT_FQ_B8: *lo = sign ? -128 : 0, *hi = sign ? 127 : 255; return;
    case PT_FQ_B4: *lo = sign ? -8 : 0, *hi = sign ? 7 : 15; return;
    case PT_FQ_S4: *lo = -8, *hi = 7; return;
    case PT_FQ_S16: *lo = INT16_MIN, *hi = INT16_MAX; return;
    default: *lo = INT32_MIN, *hi = INT32_MAX; return;
  }
}

/* Final conversion of y into one destination element at out. f32 keeps inf / NaN under sat
 * (spec: "sat does not force f32 inf/nan into finite values"). */
static void put(const pt_fq_conv *cv, float y, bool sign, uint8_t *out) {
  if (pt_dtype_is_float(cv->dst)) {
    pt_store_from_f32(cv->dst, out, y, cv->dst == PTOSIM_DT_HIF8 ? PT_RND_AWAY : PT_RND_RINT,
                      cv->dst == PTOSIM_DT_F32 ? PT_SAT_OFF : cv->sat);
    return;
  }
  int64_t lo, hi;
  int_range(cv->mode->narrow, sign, &lo, &hi);
  int64_t v = pt_f32_to_int(y, PT_RND_RINT, lo, hi);
  if (cv->dst == PTOSIM_DT_I16) {
    int16_t s = (int16_t)v;
    memcpy(out, &s, 2);
  } else if (cv->dst == PTOSIM_DT_I32) {
    int32_t s = (int32_t)v;
    memcpy(out, &s, 4);
  } else { /* i8 / u8 bytes (two's complement), i4 nibble */
    *out = (uint8_t)((uint64_t)v & (cv->dst == PTOSIM_DT_I4 ? 0xFu : 0xFFu));
  }
}

/* The runs below walk their columns in segments of one fractal row: columns [k, k + seg). */
static inline int seg_len(int cnt, int k) { return cnt - k < 16 ? cnt - k : 16; }

static void run_generic(const pt_fq_conv *cv, const uint8_t *src, int64_t blk, int64_t ch, int cnt, uint8_t *out) {
  unsigned es = cv->dst == PTOSIM_DT_I4 ? 1 : pt_dtype_size(cv->dst);
  for (int k = 0; k < cnt; k += 16) {
    int seg = seg_len(cnt, k);
    const uint8_t *s = src + k / 16 * blk;
    for (int i = 0; i < seg; i++) {
      int64_t c = ch + k + i;
      pt_fq_param p = param_of(cv, c);
      float y = relu(cv, quantize(cv->mode->kind, acc_f32(cv, s + 4 * i), &p), c);
      if (cv->has_clip && y > cv->clip) y = cv->clip;
      put(cv, y, p.sign, out + (size_t)(k + i) * es);
    }
  }
}

/* i32 -> i32 without pre_quant: integer, except a negative value times a relu alpha. */
static void run_int(const pt_fq_conv *cv, const uint8_t *src, int64_t blk, int64_t ch, int cnt, uint8_t *out) {
  for (int k = 0; k < cnt; k += 16) {
    int seg = seg_len(cnt, k);
    const uint8_t *s = src + k / 16 * blk;
    for (int i = 0; i < seg; i++) {
      int32_t v;
      memcpy(&v, s + 4 * i, 4);
      if (v < 0 && cv->relu == PTOSIM_RELU_NORMAL) v = 0;
      if (v < 0 && (cv->relu == PTOSIM_RELU_SCALAR || cv->relu == PTOSIM_RELU_VECTOR))
        v = (int32_t)pt_f32_to_int(alpha_of(cv, ch + k + i) * (float)v, PT_RND_RINT, INT32_MIN, INT32_MAX);
      memcpy(out + 4 * (k + i), &v, 4);
    }
  }
}

/* Plain store of the accumulator type: one 64-byte fractal row at a time. */
static void run_copy(const pt_fq_conv *cv, const uint8_t *src, int64_t blk, int64_t ch, int cnt, uint8_t *out) {
  (void)cv, (void)ch;
  for (int k = 0; k < cnt; k += 16) {
    int seg = seg_len(cnt, k);
    if (seg == 16)
      memcpy(out + 4 * k, src + k / 16 * blk, 64);
    else
      memcpy(out + 4 * k, src + k / 16 * blk, (size_t)seg * 4);
  }
}

/* Portable f32 -> f16 of n lanes, written with masks instead of branches so that the
 * compiler vectorizes it. Normal results: rebias the exponent (-112 << 10 at bit 13) and
 * round at bit 13; results below 2^-14: adding 0.5f rounds |x| to a multiple of 2^-24 (the
 * ulp of 0.5), whose count is the f16 subnormal code. |x| >= 65520 rounds past 65504. ovf is
 * the overflow code, keep_nan all ones to keep a NaN (quieted, top payload bits), 0 for 0. */
static inline void f16_lanes(const uint8_t *restrict s, uint8_t *restrict o, int n, uint32_t ovf, uint32_t keep_nan) {
  for (int i = 0; i < n; i++) {
    uint32_t b, fb;
    float f;
    memcpy(&b, s + 4 * i, 4);
    uint32_t a = b & 0x7FFFFFFFu, sign = (b >> 16) & 0x8000u;
    int32_t ai = (int32_t)a; /* non-negative: signed compares vectorize without a bias */
    memcpy(&f, &a, 4);
    f += 0.5f;
    memcpy(&fb, &f, 4);
    uint32_t sub = fb - 0x3F000000u, nrm = (a - 0x37FFF001u + ((a >> 13) & 1u)) >> 13;
    uint32_t is_sub = 0u - (uint32_t)(ai < 0x38800000), is_ovf = 0u - (uint32_t)(ai >= 0x477FF000);
    uint32_t is_nan = 0u - (uint32_t)(ai > 0x7F800000);
    uint32_t h = sign | (ovf & is_ovf) | (~is_ovf & ((sub & is_sub) | (nrm & ~is_sub)));
    uint32_t nan = keep_nan & (sign | 0x7E00u | ((b >> 13) & 0x3FFu));
    uint16_t h16 = (uint16_t)((nan & is_nan) | (h & ~is_nan));
    memcpy(o + 2 * i, &h16, 2);
  }
}

static void f16_portable(const uint8_t *src, int64_t blk, uint8_t *out, int n, pt_sat sat) {
  const uint32_t ovf = sat == PT_SAT_OFF ? 0x7C00u : 0x7BFFu, keep_nan = sat == PT_SAT_ON ? 0u : ~0u;
  for (int k = 0; k < n; k += 16) {
    if (n - k >= 16)
      f16_lanes(src + k / 16 * blk, out + 2 * k, 16, ovf, keep_nan);
    else
      f16_lanes(src + k / 16 * blk, out + 2 * k, n - k, ovf, keep_nan);
  }
}

/* gcc only: clang 14 has no "f16c" for __builtin_cpu_supports (the clang-built fuzzer then
 * uses the bit-identical portable kernel). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <immintrin.h>
#define PT_FQ_X86 1

/* x86-64 vector kernels, picked at run time: one fractal row (16 lanes) per step. vcvtps2ph
 * with round-to-nearest-even gives the nosat result (overflow -> inf, NaN quieted with its
 * top payload bits). For sat the input is first clamped to [-65504, 65504] (min / max return
 * their second operand, the input, when it is NaN), and PT_SAT_ON clears NaN lanes. */
#define F16_CVT (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

__attribute__((target("avx2,f16c"))) static inline __m128i f16_8(const float *s, pt_sat sat) {
  __m256 x = _mm256_loadu_ps(s);
  if (sat == PT_SAT_ON) x = _mm256_and_ps(x, _mm256_cmp_ps(x, x, _CMP_ORD_Q));
  if (sat != PT_SAT_OFF) x = _mm256_max_ps(_mm256_set1_ps(-65504.0f), _mm256_min_ps(_mm256_set1_ps(65504.0f), x));
  return _mm256_cvtps_ph(x, F16_CVT);
}

/* AVX2 + F16C: two 8-lane conversions per fractal row. */
__attribute__((target("avx2,f16c"))) static void f16_avx2(const uint8_t *src, int64_t blk, uint8_t *out, int n, pt_sat sat) {
  int k = 0;
  for (; k + 16 <= n; k += 16) {
    const float *s = (const float *)(const void *)(src + k / 16 * blk);
    _mm256_storeu_si256((__m256i *)(void *)(out + 2 * k), _mm256_set_m128i(f16_8(s + 8, sat), f16_8(s, sat)));
  }
  if (k < n) f16_portable(src + k / 16 * blk, blk, out + 2 * k, n - k, sat);
}

/* AVX-512F: one 16-lane conversion per fractal row. */
__attribute__((target("avx512f,avx2,f16c"))) static void f16_avx512(const uint8_t *src, int64_t blk, uint8_t *out, int n,
                                                                      pt_sat sat) {
  const __m512 hi = _mm512_set1_ps(65504.0f), lo = _mm512_set1_ps(-65504.0f);
  int k = 0;
  for (; k + 16 <= n; k += 16) {
    __m512 x = _mm512_loadu_ps((const void *)(src + k / 16 * blk));
    if (sat == PT_SAT_ON) x = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, x, _CMP_ORD_Q), x);
    if (sat != PT_SAT_OFF) x = _mm512_max_ps(lo, _mm512_min_ps(hi, x));
    _mm256_storeu_si256((__m256i *)(void *)(out + 2 * k), _mm512_cvtps_ph(x, F16_CVT));
  }
  if (k < n) f16_portable(src + k / 16 * blk, blk, out + 2 * k, n - k, sat);
}
#endif

/* The fastest f32 -> f16 kernel of the host (simd), or the portable one. */
static pt_fq_f16_fn f16_kernel(bool simd) {
#ifdef PT_FQ_X86
  if (simd && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"))
    return __builtin_cpu_supports("avx512f") ? f16_avx512 : f16_avx2;
#endif
  (void)simd;
  return f16_portable;
}

bool pt_fq_f16(const uint8_t *src, int64_t blk, uint8_t *out, int n, pt_sat sat, bool simd) {
  pt_fq_f16_fn k = f16_kernel(simd);
  k(src, blk, out, n, sat);
  return k != f16_portable;
}

/* f32 -> f16 without pre_quant / relu / clip. */
static void run_f16(const pt_fq_conv *cv, const uint8_t *src, int64_t blk, int64_t ch, int cnt, uint8_t *out) {
  (void)ch;
  cv->f16(src, blk, out, cnt, cv->sat);
}

void pt_fq_select(pt_fq_conv *cv) {
  bool plain = cv->mode->kind == PT_FQ_NONE && !cv->has_clip &&
               (cv->relu == PTOSIM_RELU_NONE || cv->relu == PTOSIM_RELU_NO_RELU);
  if (plain && cv->dst == cv->acc)
    cv->run = run_copy;
  else if (plain && cv->acc == PTOSIM_DT_F32 && cv->dst == PTOSIM_DT_F16)
    cv->run = run_f16, cv->f16 = f16_kernel(true);
  else if (cv->acc == PTOSIM_DT_I32 && cv->mode->kind == PT_FQ_NONE)
    cv->run = run_int;
  else
    cv->run = run_generic;
}
