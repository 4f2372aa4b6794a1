/* Element types and exact conversions between them (see dtype.h).
 *
 * Every f32 -> narrower conversion goes through one integer rounding step: the f32 magnitude is
 * an integer significand times a power of two, the target format fixes the quantum (the spacing
 * of representable values) for the binade of the input, and round_sig() divides by that quantum
 * with the requested rounding. The result is then encoded per format. No floating-point
 * arithmetic is involved, so the results do not depend on the FP environment.
 *
 * Format facts:
 *   f16     IEEE binary16: 5 exponent bits (bias 15), 10 mantissa bits, inf, NaN, subnormals.
 *   bf16    upper half of binary32: 8 exponent bits (bias 127), 7 mantissa bits.
 *   E4M3FN  OCP FP8: bias 7, 3 mantissa bits, no inf, S.1111.111 is NaN, max 448, subnormals.
 *   E5M2    OCP FP8: bias 15, 2 mantissa bits, IEEE-like (inf S.11111.00, NaN), max 57344.
 *   E8M0    OCP MX scale E8M0FNU: value 2^(e-127), e = 0..254, 0xFF NaN; no sign, no zero.
 *   HIF8    Ascend HiFloat8 (arXiv 2409.16626): sign, a prefix-coded "dot" field giving the
 *           exponent width D, a sign-magnitude exponent whose top magnitude bit is implicit,
 *           and the remaining bits as mantissa:
 *             dot 11   D=4  exponent +-[8,15]  1 mantissa bit
 *             dot 10   D=3  exponent +-[4,7]   2 mantissa bits
 *             dot 01   D=2  exponent +-[2,3]   3 mantissa bits
 *             dot 001  D=1  exponent +-1       3 mantissa bits
 *             dot 0001 D=0  exponent 0         3 mantissa bits
 *             dot 0000 denormal: 3 bits M, value 2^(M-23) (M = 1..7); M = 0 is zero (S=0)
 *                      or NaN (S=1)
 *           The exponent field is [exp sign][low D-1 magnitude bits]. 0x6F / 0xEF (dot 11,
 *           exponent +15, mantissa 1) are +-inf, so the largest finite value is 2^15 = 32768;
 *           the smallest normal is 2^-15, the smallest denormal 2^-22. There is no -0.
 *
 * Rounding ties (PT_RND_RINT) go to the candidate whose integer significand at the input's
 * quantum is even. For HIF8 denormals and E8M0 (no stored mantissa bits) this means a tie
 * between 2^k and 2^(k+1) goes to 2^(k+1) (the implicit bit of 2^k is the odd LSB), and a tie
 * between 0 and the smallest HIF8 denormal goes to 0. */
#include "core/dtype.h"

#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Type table                                                                                  */

const pt_dtype_info pt_dtype_table[PTOSIM_DT_COUNT] = {
    [PTOSIM_DT_NONE] = {"none", 0, false, false},     [PTOSIM_DT_I8] = {"i8", 8, false, true},
    [PTOSIM_DT_U8] = {"ui8", 8, false, false},        [PTOSIM_DT_I16] = {"i16", 16, false, true},
    [PTOSIM_DT_U16] = {"ui16", 16, false, false},     [PTOSIM_DT_I32] = {"i32", 32, false, true},
    [PTOSIM_DT_U32] = {"ui32", 32, false, false},     [PTOSIM_DT_I64] = {"i64", 64, false, true},
    [PTOSIM_DT_U64] = {"ui64", 64, false, false},     [PTOSIM_DT_F16] = {"f16", 16, true, false},
    [PTOSIM_DT_BF16] = {"bf16", 16, true, false},     [PTOSIM_DT_F32] = {"f32", 32, true, false},
    [PTOSIM_DT_F8E4M3] = {"f8E4M3FN", 8, true, false}, [PTOSIM_DT_F8E5M2] = {"f8E5M2", 8, true, false},
    [PTOSIM_DT_HIF8] = {"hif8", 8, true, false},      [PTOSIM_DT_F8E8M0] = {"f8E8M0FNU", 8, true, false},
    [PTOSIM_DT_I4] = {"i4", 4, false, true},          [PTOSIM_DT_F64] = {"f64", 64, true, false},
    [PTOSIM_DT_F4E1M2X2] = {"f4E1M2x2", 8, false, false}, [PTOSIM_DT_F4E2M1X2] = {"f4E2M1x2", 8, false, false},
    [PTOSIM_DT_HIF8X2] = {"hif8x2", 16, false, false}, [PTOSIM_DT_BF16X2] = {"bf16x2", 32, false, false},
    [PTOSIM_DT_F16V2] = {"vector<2xf16>", 32, false, false}, [PTOSIM_DT_BF16V2] = {"vector<2xbf16>", 32, false, false},
};


static const struct {
  const char *s;
  ptosim_dtype t;
} k_dt_alias[] = {
    {"i8", PTOSIM_DT_I8},         {"si8", PTOSIM_DT_I8},          {"ui8", PTOSIM_DT_U8},
    {"u8", PTOSIM_DT_U8},         {"b8", PTOSIM_DT_U8},           {"i16", PTOSIM_DT_I16},
    {"si16", PTOSIM_DT_I16},      {"ui16", PTOSIM_DT_U16},        {"u16", PTOSIM_DT_U16},
    {"b16", PTOSIM_DT_U16},       {"i32", PTOSIM_DT_I32},         {"si32", PTOSIM_DT_I32},
    {"ui32", PTOSIM_DT_U32},      {"u32", PTOSIM_DT_U32},         {"b32", PTOSIM_DT_U32},
    {"i64", PTOSIM_DT_I64},       {"si64", PTOSIM_DT_I64},        {"ui64", PTOSIM_DT_U64},
    {"u64", PTOSIM_DT_U64},       {"f16", PTOSIM_DT_F16},         {"bf16", PTOSIM_DT_BF16},
    {"f32", PTOSIM_DT_F32},       {"f8E4M3FN", PTOSIM_DT_F8E4M3}, {"f8E5M2", PTOSIM_DT_F8E5M2},
    {"hif8", PTOSIM_DT_HIF8},     {"!pto.hif8", PTOSIM_DT_HIF8},  {"pto.hif8", PTOSIM_DT_HIF8},  {"f8E8M0FNU", PTOSIM_DT_F8E8M0},
    {"!pto.f8E8M0", PTOSIM_DT_F8E8M0}, {"pto.f8E8M0", PTOSIM_DT_F8E8M0}, /* PTOTypeDefs.td's MX scale type */
    {"i4", PTOSIM_DT_I4},         {"si4", PTOSIM_DT_I4},          {"f64", PTOSIM_DT_F64},
    /* the !pto packed pairs: bare, as the CLI writes them, and as the type's dialect name */
    {"f4E1M2x2", PTOSIM_DT_F4E1M2X2}, {"!pto.f4E1M2x2", PTOSIM_DT_F4E1M2X2}, {"pto.f4E1M2x2", PTOSIM_DT_F4E1M2X2},
    {"f4E2M1x2", PTOSIM_DT_F4E2M1X2}, {"!pto.f4E2M1x2", PTOSIM_DT_F4E2M1X2}, {"pto.f4E2M1x2", PTOSIM_DT_F4E2M1X2},
    {"hif8x2", PTOSIM_DT_HIF8X2},     {"!pto.hif8x2", PTOSIM_DT_HIF8X2},     {"pto.hif8x2", PTOSIM_DT_HIF8X2},
    {"bf16x2", PTOSIM_DT_BF16X2},     {"!pto.bf16x2", PTOSIM_DT_BF16X2},     {"pto.bf16x2", PTOSIM_DT_BF16X2},
    {"vector<2xf16>", PTOSIM_DT_F16V2}, {"vector<2xbf16>", PTOSIM_DT_BF16V2},
};

ptosim_dtype pt_dtype_parse(const char *s, unsigned len) {
  if (!s) return PTOSIM_DT_NONE;
  for (size_t i = 0; i < sizeof k_dt_alias / sizeof k_dt_alias[0]; i++) {
    const char *a = k_dt_alias[i].s;
    if (strlen(a) == len && memcmp(a, s, len) == 0) return k_dt_alias[i].t;
  }
  return PTOSIM_DT_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* Bit helpers                                                                                 */

static inline uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

#define F32_QNAN 0x7FC00000u

/* ------------------------------------------------------------------------------------------ */
/* Rounding core                                                                               */

/* Decomposition of a finite f32 magnitude: value = sig * 2^k, e = exponent of the binade
 * (e = -127 stands for every f32 subnormal; callers only compare it against emin >= -127). */
typedef struct f32_parts {
  uint32_t sig;
  int k;
  int e;
} f32_parts;

static inline f32_parts f32_split(uint32_t mag) {
  f32_parts p;
  uint32_t E = mag >> 23;
  if (E) {
    p.sig = (mag & 0x7FFFFFu) | 0x800000u;
    p.k = (int)E - 150;
    p.e = (int)E - 127;
  } else {
    p.sig = mag;
    p.k = -149;
    p.e = -127;
  }
  return p;
}

/* Round sig * 2^-shift to an integer with mode r (neg: the value's sign). shift >= 1. */
static inline uint32_t round_sig(uint32_t sig, int shift, bool neg, pt_round r) {
  uint32_t n, rem, half;
  if (shift <= 0) return sig << (shift < -7 ? 7 : -shift); /* not reached for the formats here */
  if (shift > 25) {
    /* sig < 2^24 <= half: the whole significand is below one half of the quantum. */
    n = 0;
    rem = sig;
    half = 0x2000000u; /* any value > sig */
  } else {
    n = sig >> shift;
    rem = sig & ((1u << shift) - 1u);
    half = 1u << (shift - 1);
  }
  if (rem == 0) return n;
  switch (r) {
    case PT_RND_AWAY: return n + (rem >= half);
    case PT_RND_FLOOR: return n + (neg ? 1u : 0u);
    case PT_RND_CEIL: return n + (neg ? 0u : 1u);
    case PT_RND_TRUNC: return n;
    case PT_RND_ODD: return n | 1u;
    case PT_RND_RINT:
    default: return n + (rem > half || (rem == half && (n & 1u)));
  }
}

/* Does an overflowing result go to infinity (true) or to the largest finite value? */
static inline bool overflow_to_inf(pt_round r, bool neg) {
  switch (r) {
    case PT_RND_TRUNC:
    case PT_RND_ODD: return false;
    case PT_RND_FLOOR: return neg;
    case PT_RND_CEIL: return !neg;
    default: return true;
  }
}

/* IEEE-like binary format (f16, bf16, E4M3FN, E5M2). */
typedef struct ieee_fmt {
  int m;            /* stored mantissa bits */
  int emin;         /* exponent of the smallest normal binade */
  int emax;         /* exponent of the largest finite binade */
  uint32_t maxcode; /* magnitude encoding of the largest finite value */
  uint32_t infcode; /* magnitude encoding of inf; 0 when the format has none */
  uint32_t nancode; /* magnitude encoding of the canonical NaN */
  uint32_t signbit;
} ieee_fmt;

static const ieee_fmt k_f16 = {10, -14, 15, 0x7BFFu, 0x7C00u, 0x7E00u, 0x8000u};
static const ieee_fmt k_bf16 = {7, -126, 127, 0x7F7Fu, 0x7F80u, 0x7FC0u, 0x8000u};
static const ieee_fmt k_e4m3 = {3, -6, 8, 0x7Eu, 0u, 0x7Fu, 0x80u};
static const ieee_fmt k_e5m2 = {2, -14, 15, 0x7Bu, 0x7Cu, 0x7Eu, 0x80u};

static uint32_t ieee_overflow(const ieee_fmt *f, uint32_t sign, bool neg, pt_round r, pt_sat s) {
  if (s != PT_SAT_OFF || !overflow_to_inf(r, neg)) return sign | f->maxcode;
  return sign | (f->infcode ? f->infcode : f->nancode);
}

/* Convert x; the caller has handled NaN. */
static uint32_t ieee_from_f32(const ieee_fmt *f, float x, pt_round r, pt_sat s) {
  uint32_t b = f32_bits(x);
  bool neg = (b >> 31) != 0;
  uint32_t sign = neg ? f->signbit : 0u;
  uint32_t mag = b & 0x7FFFFFFFu;
  if (mag == 0x7F800000u) {
    if (s != PT_SAT_OFF) return sign | f->maxcode;
    return sign | (f->infcode ? f->infcode : f->nancode);
  }
  f32_parts p = f32_split(mag);
  if (p.e > f->emax) return ieee_overflow(f, sign, neg, r, s);
  int eb = p.e < f->emin ? f->emin : p.e; /* binade whose quantum applies */
  uint32_t n = round_sig(p.sig, eb - f->m - p.k, neg, r);
  /* n in [0, 2^m] below emin (subnormal, n = 2^m is the smallest normal) or in [2^m, 2^(m+1)]
   * otherwise (n = 2^(m+1) carries into the next binade). */
  uint32_t code = ((uint32_t)(eb - f->emin) << f->m) + n;
  if (code > f->maxcode) return ieee_overflow(f, sign, neg, r, s);
  return sign | code;
}

/* ------------------------------------------------------------------------------------------ */
/* f16 / bf16                                                                                  */

uint16_t pt_f32_to_f16(float x, pt_round r, pt_sat s) {
  uint32_t b = f32_bits(x);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) {
    if (s == PT_SAT_ON) return 0;
    /* quiet NaN, sign and top payload bits kept */
    return (uint16_t)(((b >> 16) & 0x8000u) | 0x7E00u | ((b >> 13) & 0x3FFu));
  }
  return (uint16_t)ieee_from_f32(&k_f16, x, r, s);
}

float pt_f16_to_f32(uint16_t h) {
  uint32_t sign = ((uint32_t)h & 0x8000u) << 16;
  uint32_t em = (uint32_t)h & 0x7FFFu;
  /* normal (exponent 1..30): rebias 15 -> 127; one well-predicted compare */
  if (em - 0x0400u < 0x7800u) return bits_f32(sign | ((em << 13) + 0x38000000u));
  if (em >= 0x7C00u) return bits_f32(sign | 0x7F800000u | ((em & 0x3FFu) << 13)); /* inf, NaN */
  float f = (float)em * 0x1p-24f; /* subnormal or zero: m * 2^-24, exact */
  return bits_f32(f32_bits(f) | sign);
}

uint16_t pt_f32_to_bf16(float x, pt_round r, pt_sat s) {
  uint32_t b = f32_bits(x);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) {
    if (s == PT_SAT_ON) return 0;
    return (uint16_t)((b >> 16) | 0x0040u);
  }
  return (uint16_t)ieee_from_f32(&k_bf16, x, r, s);
}

float pt_bf16_to_f32(uint16_t v) { return bits_f32((uint32_t)v << 16); }

/* ------------------------------------------------------------------------------------------ */
/* 8-bit floats                                                                                */

static float e4m3_to_f32(uint8_t v) {
  uint32_t sign = ((uint32_t)v & 0x80u) << 24;
  uint32_t em = v & 0x7Fu;
  if (em == 0x7Fu) return bits_f32(sign | F32_QNAN);
  uint32_t E = em >> 3, m = em & 7u;
  if (E == 0) {
    float f = (float)m * 0x1p-9f;
    return bits_f32(f32_bits(f) | sign);
  }
  return bits_f32(sign | ((E + 120u) << 23) | (m << 20));
}

static float e5m2_to_f32(uint8_t v) {
  uint32_t sign = ((uint32_t)v & 0x80u) << 24;
  uint32_t E = (v >> 2) & 0x1Fu, m = v & 3u;
  if (E == 0x1F) return bits_f32(sign | (m ? F32_QNAN : 0x7F800000u));
  if (E == 0) {
    float f = (float)m * 0x1p-16f;
    return bits_f32(f32_bits(f) | sign);
  }
  return bits_f32(sign | ((E + 112u) << 23) | (m << 21));
}

static float e8m0_to_f32(uint8_t v) {
  if (v == 0xFF) return bits_f32(F32_QNAN);
  if (v == 0) return bits_f32(0x00400000u); /* 2^-127, an f32 subnormal */
  return bits_f32((uint32_t)v << 23);
}

/* Mantissa bits of HIF8 for a value in binade 2^e (e <= 15); 0 in the denormal range. */
static inline int hif8_mbits(int e) {
  int a = e < 0 ? -e : e;
  if (a <= 3) return 3;
  if (a <= 7) return 2;
  if (a <= 15) return 1;
  return 0;
}

static float hif8_to_f32(uint8_t v) {
  uint32_t sign = ((uint32_t)v & 0x80u) << 24;
  unsigned p = v & 0x7Fu;
  if (p == 0) return v ? bits_f32(F32_QNAN) : 0.0f;
  if (p == 0x6F) return bits_f32(sign | 0x7F800000u);
  int e, m;
  unsigned frac;
  if (p < 0x08) { /* dot 0000: denormal 2^(M-23) */
    return bits_f32(sign | ((p + 104u) << 23));
  } else if (p < 0x10) { /* dot 0001 */
    e = 0;
    m = 3;
    frac = p & 7u;
  } else if (p < 0x20) { /* dot 001 */
    e = (p & 8u) ? -1 : 1;
    m = 3;
    frac = p & 7u;
  } else { /* dot 01 / 10 / 11: exponent width w = 2..4, mantissa 5 - w */
    int w = (int)(p >> 5) + 1;
    m = 5 - w;
    unsigned field = (p & 0x1Fu) >> m;
    unsigned low = field & ((1u << (w - 1)) - 1u);
    int mag = (int)((1u << (w - 1)) | low);
    e = (field >> (w - 1)) ? -mag : mag;
    frac = p & ((1u << m) - 1u);
  }
  return bits_f32(sign | ((uint32_t)(e + 127) << 23) | (frac << (23 - m)));
}

/* Encode a finite nonzero HIF8 magnitude 2^e * (1 + frac / 2^mbits(e)), -22 <= e <= 15. */
static uint8_t hif8_encode(int e, unsigned frac) {
  if (e < -15) return (uint8_t)(e + 23);
  if (e == 0) return (uint8_t)(0x08u | frac);
  unsigned es = e < 0 ? 1u : 0u;
  unsigned a = (unsigned)(e < 0 ? -e : e);
  if (a == 1) return (uint8_t)(0x10u | (es << 3) | frac);
  if (a <= 3) return (uint8_t)(0x20u | (es << 4) | ((a & 1u) << 3) | frac);
  if (a <= 7) return (uint8_t)(0x40u | (es << 4) | ((a & 3u) << 2) | frac);
  return (uint8_t)(0x60u | (es << 4) | ((a & 7u) << 1) | frac);
}

static uint8_t hif8_from_f32(float x, pt_round r, pt_sat s) {
  uint32_t b = f32_bits(x);
  bool neg = (b >> 31) != 0;
  uint8_t sign = neg ? 0x80u : 0u;
  uint32_t mag = b & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return s == PT_SAT_ON ? 0x00u : 0x80u;
  if (mag == 0x7F800000u) return (uint8_t)(sign | (s == PT_SAT_OFF ? 0x6Fu : 0x6Eu));
  f32_parts p = f32_split(mag);
  bool ovf = p.e > 15;
  int e = 0;
  unsigned frac = 0;
  if (!ovf) {
    int m = hif8_mbits(p.e);
    int eb = p.e < -22 ? -22 : p.e;
    uint32_t n = round_sig(p.sig, eb - m - p.k, neg, r);
    if (n == 0) return 0x00u; /* no negative zero */
    if (p.e < -22) {           /* n == 1: the smallest denormal */
      e = -22;
    } else if (n == (2u << m)) { /* carried into the next binade */
      e = p.e + 1;
    } else {
      e = p.e;
      frac = n - (1u << m);
    }
    ovf = e > 15 || (e == 15 && frac != 0);
  }
  if (ovf) {
    if (s != PT_SAT_OFF || !overflow_to_inf(r, neg)) return (uint8_t)(sign | 0x6Eu);
    return (uint8_t)(sign | 0x6Fu);
  }
  return (uint8_t)(sign | hif8_encode(e, frac));
}

static uint8_t e8m0_from_f32(float x, pt_round r, pt_sat s) {
  uint32_t b = f32_bits(x);
  uint32_t mag = b & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return s == PT_SAT_ON ? 0x00u : 0xFFu;
  if (mag == 0) return 0x00u; /* no zero: the smallest value 2^-127 */
  if (b >> 31) return s == PT_SAT_ON ? 0x00u : 0xFFu; /* no sign */
  if (mag == 0x7F800000u) return s == PT_SAT_OFF ? 0xFFu : 0xFEu;
  f32_parts p = f32_split(mag);
  int eb = p.e < -127 ? -127 : p.e; /* p.e >= -127 always */
  uint32_t n = round_sig(p.sig, eb - p.k, false, r);
  /* value n * 2^eb with n in {0, 1, 2}; 0 clamps to the smallest value */
  if (n == 0) return 0x00u;
  int e = eb + (int)n - 1;
  if (e > 127) return (s != PT_SAT_OFF || !overflow_to_inf(r, false)) ? 0xFEu : 0xFFu;
  return (uint8_t)(e + 127);
}

uint8_t pt_f32_to_f8(ptosim_dtype t, float x, pt_round r, pt_sat s) {
  switch (t) {
    case PTOSIM_DT_F8E4M3:
    case PTOSIM_DT_F8E5M2: {
      const ieee_fmt *f = t == PTOSIM_DT_F8E4M3 ? &k_e4m3 : &k_e5m2;
      uint32_t b = f32_bits(x);
      if ((b & 0x7FFFFFFFu) > 0x7F800000u) {
        if (s == PT_SAT_ON) return 0;
        return (uint8_t)(((b >> 24) & 0x80u) | f->nancode);
      }
      return (uint8_t)ieee_from_f32(f, x, r, s);
    }
    case PTOSIM_DT_HIF8: return hif8_from_f32(x, r, s);
    case PTOSIM_DT_F8E8M0: return e8m0_from_f32(x, r, s);
    default: return 0;
  }
}

float pt_f8_to_f32(ptosim_dtype t, uint8_t v) {
  switch (t) {
    case PTOSIM_DT_F8E4M3: return e4m3_to_f32(v);
    case PTOSIM_DT_F8E5M2: return e5m2_to_f32(v);
    case PTOSIM_DT_HIF8: return hif8_to_f32(v);
    case PTOSIM_DT_F8E8M0: return e8m0_to_f32(v);
    default: return bits_f32(F32_QNAN);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Integers                                                                                    */

/* Round finite x to an integral value (returned as its magnitude's integer part may exceed
 * 2^63: the caller clamps). Done on the f32 bits: |x| >= 2^23 is already integral. */
static double round_integral(float x, pt_round r) {
  uint32_t b = f32_bits(x);
  bool neg = (b >> 31) != 0;
  uint32_t mag = b & 0x7FFFFFFFu;
  if (mag >= 0x4B000000u) return (double)x; /* >= 2^23: integral */
  f32_parts p = f32_split(mag);
  /* quantum 1 = 2^0: shift = -k > 0 since |x| < 2^23 */
  uint32_t n = round_sig(p.sig, -p.k, neg, r);
  return neg ? -(double)n : (double)n;
}

int64_t pt_f32_to_int(float x, pt_round r, int64_t lo, int64_t hi) {
  if (x != x) return 0;
  double d = round_integral(x, r);
  int64_t v;
  if (d >= 0x1p63)
    v = INT64_MAX;
  else if (d < -0x1p63)
    v = INT64_MIN;
  else
    v = (int64_t)d;
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return v;
}

static uint64_t f32_to_u64(float x, pt_round r) {
  if (x != x) return 0;
  double d = round_integral(x, r);
  if (d <= 0) return 0;
  if (d >= 0x1p64) return UINT64_MAX;
  return (uint64_t)d;
}

int64_t pt_int_min(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_I4: return -8;
    case PTOSIM_DT_I8: return INT8_MIN;
    case PTOSIM_DT_I16: return INT16_MIN;
    case PTOSIM_DT_I32: return INT32_MIN;
    case PTOSIM_DT_I64: return INT64_MIN;
    default: return 0;
  }
}

int64_t pt_int_max(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_I4: return 7;
    case PTOSIM_DT_I8: return INT8_MAX;
    case PTOSIM_DT_U8: return UINT8_MAX;
    case PTOSIM_DT_I16: return INT16_MAX;
    case PTOSIM_DT_U16: return UINT16_MAX;
    case PTOSIM_DT_I32: return INT32_MAX;
    case PTOSIM_DT_U32: return UINT32_MAX;
    case PTOSIM_DT_I64: return INT64_MAX;
    case PTOSIM_DT_U64: return INT64_MAX; /* UINT64_MAX does not fit the return type */
    default: return 0;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Memory access                                                                               */

int64_t pt_load_int(ptosim_dtype t, const void *p) {
  const unsigned char *c = (const unsigned char *)p;
  if (t == PTOSIM_DT_I4) {
    int v = c[0] & 0xF;
    return v >= 8 ? v - 16 : v;
  }
  unsigned size = pt_dtype_size(t);
  uint64_t u = 0;
  for (unsigned i = 0; i < size && i < 8; i++) u |= (uint64_t)c[i] << (8 * i); /* little-endian */
  if (pt_dtype_is_signed_int(t) && size < 8 && (u >> (8 * size - 1)) & 1) u |= ~0ull << (8 * size);
  return (int64_t)u;
}

float pt_load_as_f32(ptosim_dtype t, const void *p) {
  const unsigned char *c = (const unsigned char *)p;
  switch (t) {
    case PTOSIM_DT_U64: return (float)(uint64_t)pt_load_int(t, p);
    case PTOSIM_DT_F16: {
      uint16_t v;
      memcpy(&v, c, 2);
      return pt_f16_to_f32(v);
    }
    case PTOSIM_DT_BF16: {
      uint16_t v;
      memcpy(&v, c, 2);
      return pt_bf16_to_f32(v);
    }
    case PTOSIM_DT_F32: {
      float v;
      memcpy(&v, c, 4);
      return v;
    }
    case PTOSIM_DT_F8E4M3:
    case PTOSIM_DT_F8E5M2:
    case PTOSIM_DT_HIF8:
    case PTOSIM_DT_F8E8M0: return pt_f8_to_f32(t, c[0]);
    case PTOSIM_DT_F64: {
      double v;
      memcpy(&v, c, 8);
      return (float)v;
    }
    case PTOSIM_DT_NONE:
    case PTOSIM_DT_COUNT: return 0.0f;
    default: return (float)pt_load_int(t, p); /* the integer types */
  }
}

void pt_store_from_f32(ptosim_dtype t, void *p, float x, pt_round r, pt_sat s) {
  unsigned char *c = (unsigned char *)p;
  switch (t) {
    case PTOSIM_DT_I8: {
      int8_t v = (int8_t)pt_f32_to_int(x, r, INT8_MIN, INT8_MAX);
      memcpy(c, &v, 1);
      return;
    }
    case PTOSIM_DT_U8: c[0] = (uint8_t)pt_f32_to_int(x, r, 0, UINT8_MAX); return;
    case PTOSIM_DT_I16: {
      int16_t v = (int16_t)pt_f32_to_int(x, r, INT16_MIN, INT16_MAX);
      memcpy(c, &v, 2);
      return;
    }
    case PTOSIM_DT_U16: {
      uint16_t v = (uint16_t)pt_f32_to_int(x, r, 0, UINT16_MAX);
      memcpy(c, &v, 2);
      return;
    }
    case PTOSIM_DT_I32: {
      int32_t v = (int32_t)pt_f32_to_int(x, r, INT32_MIN, INT32_MAX);
      memcpy(c, &v, 4);
      return;
    }
    case PTOSIM_DT_U32: {
      uint32_t v = (uint32_t)pt_f32_to_int(x, r, 0, UINT32_MAX);
      memcpy(c, &v, 4);
      return;
    }
    case PTOSIM_DT_I64: {
      int64_t v = pt_f32_to_int(x, r, INT64_MIN, INT64_MAX);
      memcpy(c, &v, 8);
      return;
    }
    case PTOSIM_DT_U64: {
      uint64_t v = f32_to_u64(x, r);
      memcpy(c, &v, 8);
      return;
    }
    case PTOSIM_DT_F16: {
      uint16_t v = pt_f32_to_f16(x, r, s);
      memcpy(c, &v, 2);
      return;
    }
    case PTOSIM_DT_BF16: {
      uint16_t v = pt_f32_to_bf16(x, r, s);
      memcpy(c, &v, 2);
      return;
    }
    case PTOSIM_DT_F32: {
      uint32_t b = f32_bits(x);
      uint32_t mag = b & 0x7FFFFFFFu;
      if (s != PT_SAT_OFF && mag == 0x7F800000u)
        b = (b & 0x80000000u) | 0x7F7FFFFFu;
      else if (s == PT_SAT_ON && mag > 0x7F800000u)
        b = 0;
      memcpy(c, &b, 4);
      return;
    }
    case PTOSIM_DT_F8E4M3:
    case PTOSIM_DT_F8E5M2:
    case PTOSIM_DT_HIF8:
    case PTOSIM_DT_F8E8M0: c[0] = pt_f32_to_f8(t, x, r, s); return;
    case PTOSIM_DT_F64: { /* exact */
      double v = x;
      memcpy(c, &v, 8);
      return;
    }
    case PTOSIM_DT_I4: {
      int64_t v = pt_f32_to_int(x, r, -8, 7);
      c[0] = (unsigned char)((c[0] & 0xF0u) | ((unsigned)v & 0x0Fu));
      return;
    }
    default: return;
  }
}
