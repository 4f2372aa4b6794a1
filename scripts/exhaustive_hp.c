/* Whether the a5 HIGH_PRECISION sequences of tsqrt, trsqrt and trecip compute what ptosim's
 * DEFAULT computes (the IEEE results: sqrtf, 1 / sqrtf rounded per step, 1 / x) when every
 * vector instruction in them is ptosim's model of it (vsqrt, vdiv, vmul, vmuls correctly
 * rounded, f16 ones through f32 then rounded once; vmula / vmadd fused, one rounding:
 * docs/spec-notes.md section 13; integer ops on the bits). Not part of ctest (about six
 * minutes). Every f32 and every f16, step by step through pto-isa include/pto/npu/a5/custom/
 * TSqrtHp.hpp SqrtFloatImpl / SqrtPrecisionImpl (tsqrt), those then Div754.hpp
 * DivIEEE754FloatImpl / DivIEEE754HalfImpl of 1 by the root (trsqrt, TRsqrt.hpp), and
 * DivIEEE754*Impl of 1 by x (trecip = TDIVS(1, x), pto_instr.hpp TRECIP; TDivS.hpp DivSOpS);
 * NaN equal to any NaN. Prints the count of inputs whose bits differ and the first few,
 * then checks the sequences of trecip against the formula src/isa/tile_elem.c computes for
 * HIGH_PRECISION (RECHP_F): 0 differences expected. Measured: tsqrt, trsqrt 0 (f32 and
 * f16); trecip 6288756 f32 (|x| in [2^126, 2^128), where 1 / x is subnormal) and 734 f16.
 *   cc -O2 -std=c11 -Isrc -Iinclude scripts/exhaustive_hp.c build/libptosim.a -lm -o /tmp/hp && /tmp/hp */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"

static uint32_t bits(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static float of(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}
static int same(float a, float b) { return isnan(a) ? isnan(b) : bits(a) == bits(b); }
static uint16_t b16(float x) { return pt_f32_to_f16(x, PT_RND_RINT, PT_SAT_OFF); }
static float of16(uint32_t u) { return pt_f16_to_f32((uint16_t)u); }
static float h16(float x) { return of16(b16(x)); }

/* SqrtFloatImpl, one lane (TSqrtHp.hpp lines 62-91). */
static float sqrt_hp_f32(float x) {
  int small = x < 1.0f;
  float s = small ? x * 16777216.0f : x;        /* 2^24 */
  float r = 1.0f / sqrtf(s);                    /* vsqrt, vdiv */
  float e = fmaf(r * s, r * -1.0f, 1.0f);       /* vmula: 1 - (r s) r */
  r = fmaf(e, r * 0.5f, r);                     /* vmula: r + e r / 2 */
  float q = r * s;                              /* vmul: the root */
  float d = fmaf(q, q * -1.0f, s);              /* vmula: s - q q */
  float t = fmaf(r * 0.5f, d, q);               /* vmadd: (r / 2) d + q */
  t = small ? t * 0.000244140625f : t;          /* 2^-12 */
  uint32_t u = bits(s);
  return u == 0x7f800000u || (u | 0x80000000u) == 0x80000000u ? s : t; /* +inf, +-0: the source */
}

/* SqrtPrecisionImpl, one f16 lane (lines 29-34): below the largest subnormal scaled by 2^12,
 * the root scaled by 2^-6, every step rounded to f16. */
static float sqrt_hp_f16(float x) {
  int small = x < 0x1.ff8p-15f;
  float s = small ? h16(x * 4096.0f) : x;
  float t = h16(sqrtf(s));
  return small ? h16(t * 0x1p-6f) : t;
}

/* DivIEEE754FloatImpl, one lane (Div754.hpp lines 204-357, DivPrecisionImpl lines 112-139). */
static float div754_f32(float a, float b) {
  const float maxsub = of(0x7FFFFFu);
  float aa = fabsf(a), ba = fabsf(b);
  int valid = !(bits(aa) == 0x7f800000u || bits(ba) == 0x7f800000u || bits(aa) == 0 || bits(ba) == 0);
  int adj = 0, s0 = aa == maxsub, s1 = ba < maxsub; /* vcmp_eq for src0, vcmp_lt for src1 */
  float a_all = s0 ? a * 0x1p23f : a, b_all = s1 ? b * 0x1p23f : b;
  adj = (s0 ? -23 : 0) + (s1 ? 23 : 0);
  float an = valid ? of((bits(a_all) & 0x807FFFFFu) + 0x3F800000u) : a_all;
  float bn = valid ? of((bits(b_all) & 0x807FFFFFu) + 0x3F800000u) : b_all;
  float z = an / bn;
  if (valid) { /* the quotient of q, q - 1 ulp, q + 1 ulp with the smallest residual */
    float y = bn * -1.0f, zp = of(bits(z) - 1), zn = of(bits(z) + 1);
    float r = fabsf(fmaf(z, y, an)), rp = fabsf(fmaf(zp, y, an)), rn = fabsf(fmaf(zn, y, an));
    int c = r < rp;
    r = c ? r : rp, z = c ? z : zp;
    z = rn < r ? zn : z;
  }
  int norm = valid && fabsf(an) <= fabsf(bn);
  float d = z * of((uint32_t)(adj + 127) << 23);
  uint32_t sign = bits(d) & 0x80000000u;
  int32_t scale = (int32_t)((bits(a_all) & 0x7f800000u) >> 23) - (int32_t)((bits(b_all) & 0x7f800000u) >> 23) + 127;
  if (valid && scale == -23) d = of(sign + (norm ? 0u : 1u)), valid = 0;
  if (valid && scale < -23) d = of(sign), valid = 0;
  if (valid && scale == 255) scale--, d = d * 2.0f;
  if (valid && scale > 255) d = of(sign + 0x7f800000u), valid = 0;
  if (valid) d = d * (scale > 0 ? of((uint32_t)scale << 23) : of(0x400000u >> (scale < 0 ? -scale : scale)));
  return isnan(aa) || isnan(ba) ? of(0x7fc00000u) : d;
}

/* DivIEEE754HalfImpl, one f16 lane (lines 417-564): every f16 step rounded to f16. */
static float div754_f16(float a, float b) {
  const float maxsub = of16(0x3FF);
  float aa = fabsf(a), ba = fabsf(b);
  int valid = !(b16(aa) == 0x7C00 || b16(ba) == 0x7C00 || b16(aa) == 0 || b16(ba) == 0);
  int s0 = aa < maxsub, s1 = ba < maxsub;
  float a_all = s0 ? h16(a * 1024.0f) : a, b_all = s1 ? h16(b * 1024.0f) : b;
  int adj = (s0 ? -10 : 0) + (s1 ? 10 : 0);
  float an = valid ? of16((b16(a_all) & 0x83FFu) + 0x3C00u) : a_all;
  float bn = valid ? of16((b16(b_all) & 0x83FFu) + 0x3C00u) : b_all;
  int norm = valid && fabsf(an) <= fabsf(bn);
  float d = h16(h16(an / bn) * of16((uint32_t)(adj + 15) << 10));
  uint32_t sign = b16(d) & 0x8000u;
  int scale = (int)((b16(a_all) & 0x7C00u) >> 10) - (int)((b16(b_all) & 0x7C00u) >> 10) + 15;
  if (valid && scale == -9) d = of16(sign + (norm ? 0u : 1u)), valid = 0;
  if (valid && scale < -9) d = of16(sign), valid = 0;
  if (valid && scale == 31) scale--, d = h16(d * 2.0f);
  if (valid && scale > 31) d = of16(sign + 0x7C00u), valid = 0;
  if (valid) d = h16(d * (scale > 0 ? of16((uint32_t)scale << 10) : of16(0x200u >> (scale < 0 ? -scale : scale))));
  return isnan(aa) || isnan(ba) ? of16(0x7E00) : d;
}

/* RECHP_F of tile_elem.c: (1 / (x * 2^-127)) * 2^-127 where 1 / x is subnormal. */
static float rec_hp_f32(float x) { return fabsf(x) >= 0x1p126f ? (1.0f / (x * 0x1p-127f)) * 0x1p-127f : 1.0f / x; }
static float rec_hp_f16(float x) { return fabsf(x) >= 0x1p14f ? h16(h16(1.0f / (x * 0x1p-15f)) * 0x1p-15f) : h16(1.0f / x); }

typedef struct tally {
  const char *name;
  uint64_t bad;
} tally;

static void check(tally *t, uint32_t u, float got, float want) {
  if (!same(got, want) && t->bad++ < 4) printf("%s %08x: sequence %a, other %a\n", t->name, (unsigned)u, got, want);
}

int main(void) {
  tally t[8] = {{"tsqrt f32", 0}, {"trsqrt f32", 0}, {"trecip f32", 0}, {"tsqrt f16", 0},
                {"trsqrt f16", 0}, {"trecip f16", 0}, {"RECHP_F f32", 0}, {"RECHP_F f16", 0}};
  for (uint64_t u = 0; u <= 0xFFFFFFFFu; u++) {
    float x = of((uint32_t)u), s = sqrt_hp_f32(x);
    check(&t[0], (uint32_t)u, s, sqrtf(x));
    check(&t[1], (uint32_t)u, div754_f32(1.0f, s), 1.0f / sqrtf(x));
    float q = div754_f32(1.0f, x);
    check(&t[2], (uint32_t)u, q, 1.0f / x);
    check(&t[6], (uint32_t)u, q, rec_hp_f32(x));
  }
  for (uint32_t u = 0; u <= 0xFFFFu; u++) {
    float x = of16(u), s = sqrt_hp_f16(x);
    check(&t[3], u, s, h16(sqrtf(x)));
    check(&t[4], u, div754_f16(1.0f, s), h16(1.0f / h16(sqrtf(x))));
    check(&t[5], u, div754_f16(1.0f, x), h16(1.0f / x));
    check(&t[7], u, div754_f16(1.0f, x), rec_hp_f16(x));
  }
  for (int i = 0; i < 6; i++) printf("%-11s HIGH_PRECISION differs from DEFAULT on %llu inputs\n", t[i].name, (unsigned long long)t[i].bad);
  for (int i = 6; i < 8; i++) printf("%-11s differs from the trecip sequence on %llu inputs\n", t[i].name, (unsigned long long)t[i].bad);
  return t[0].bad || t[1].bad || t[3].bad || t[4].bad || t[6].bad || t[7].bad;
}
