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
 * then checks the sequences of trecip against what the library computes for HIGH_PRECISION
 * (pt_te_div754_f32 / _f16 of 1 by x, tile_elem.c RECHP_F): 0 differences expected.
 * Measured: tsqrt, trsqrt 0 (f32 and f16); trecip 6288756 f32 (|x| in [2^126, 2^128), where
 * 1 / x is subnormal) and 734 f16.
 * With the argument `div` (`div quick`: a sample of the sweeps), the division family instead
 * (docs/spec-notes.md section 33): the library's pt_te_div754_f16 against DivIEEE754HalfImpl on
 * every pair of f16; pt_te_div754_f32 against DivIEEE754FloatImpl, pt_te_divcomp_f32 against
 * DivDiffCompensationFloatImpl and (every 16th pair) pt_te_fmodhp_f32 / pt_te_remhp_f32
 * against TFmodRemHP, all below, on: six dividends by every divisor with one of nine exponent
 * fields (0, 1, 2, 64, 127, 190, 253, 254, 255; every mantissa, both signs) and those by the
 * six, every pair of exponent fields with 256 random mantissa / sign pairs (four of them 0 and
 * all-ones mantissas), 2^27 quotients in [2^-152, 2^-124], 2^28 random bit pairs. Counts
 * where each sequence differs from the DEFAULT result and prints the first few; and the f32
 * tdiv sequence against rounding to nearest with ties toward zero. Measured (21 min): every
 * model 0 differences from its sequence on every pair (2231369728 f32, 4294967296 f16,
 * 139460608 tfmod / trem); the tdiv sequence equals ties toward zero on all.
 *   cc -O2 -std=c11 -Isrc -Iinclude -Ibuild/include scripts/exhaustive_hp.c build/libptosim.a -lm -o /tmp/hp && /tmp/hp [div [quick]] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "isa/tile_elem.h"

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

/* DivDiffCompensationFloatImpl, one lane (Div754.hpp lines 50-98): the raw quotient kept
 * where it is +-0, +-inf or NaN (the bits with the sign set >= 0xff800000, unsigned);
 * dividends whose exponent field minus 127 is below -64 scaled with the divisor by
 * 2^max(-64 - e, 0); the residuals fused. */
static float divcomp_f32(float a, float b) {
  float z = a / b, raw = z;
  int special = z == 0.0f || (bits(z) | 0x80000000u) >= 0xff800000u;
  int32_t e = (int32_t)((bits(a) & 0x7f800000u) >> 23) - 127;
  int need = e < -64;
  int32_t se = -64 - e > 0 ? -64 - e : 0;
  float scale = need ? of((uint32_t)(se + 127) << 23) : 1.0f;
  float a2 = a * scale, b2 = b * scale;
  float y = b2 * -1.0f, r = fmaf(z, y, a2);
  float zp = of(bits(z) - 1), zn = of(bits(z) + 1);
  float rp = fmaf(zp, y, a2), rn = fmaf(zn, y, a2);
  r = fabsf(r), rp = fabsf(rp), rn = fabsf(rn);
  int c = r < rp;
  r = c ? r : rp;
  z = c ? z : zp;
  c = rn < r;
  z = c ? zn : z;
  return special ? raw : z;
}

/* TFmodRemHP, one f32 lane (TFmodRemHp.hpp lines 136-174, SolveScaleIter 90-99, SolveScale
 * 47-87, SolveExceptionScenarios 101-133); rm: 1 ROUND_F (trem), 0 ROUND_Z (tfmod). */
static const uint32_t list1[11] = {0x4b800000, 0x4b800000, 0x57800000, 0x63800000, 0x6f800000, 0x7b800000,
                                   0x7b800000, 0x7b800000, 0x7b800000, 0x7b800000, 0x7b800000};
static const uint32_t list2[11] = {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000,
                                   0x4b800000, 0x57800000, 0x63800000, 0x6f800000, 0x7b800000};
static float trc(float k, int rm) { return rm ? floorf(k) : truncf(k); }
static float sign_bit(float x) { return (float)(int32_t)((bits(x) >> 31) & 1); } /* GetSignBit: vshrs 31, vand 1, vcvt */
static void solve_scale(float *dst, float src, float scale1, float scale2, int iter, int rm) {
  float btmp, k;
  if (iter == 1) {
    int subm = src <= 1.1754944e-38f;
    btmp = subm ? src * scale1 : src;
    *dst = subm ? *dst * scale1 : *dst;
    k = trc(*dst / btmp, rm);
  } else {
    btmp = src * scale1;
    if (iter > 5) btmp = btmp * scale2;
    k = trc(*dst / btmp, rm);
  }
  if (iter != 1) btmp = btmp < 3.4028235e38f ? btmp : 3.4028235e38f; /* vmins */
  k = -k;
  *dst = fmaf(k, btmp, *dst); /* vmula */
  if (iter == 1) *dst = *dst + sign_bit(*dst) * btmp;
}
static float fmodrem_hp(float a, float b, int rm) {
  float dst = fabsf(a), src = fabsf(b), tmp, btmp;
  for (int it = 11; it >= 1; it--) solve_scale(&dst, src, of(list1[it - 1]), of(list2[it - 1]), it, rm);
  dst = dst * (sign_bit(a) * -2.0f + 1.0f);
  int subm = src <= 1.1754944e-38f;
  tmp = src * 0x1p24f, btmp = subm ? tmp : src, (void)btmp;
  tmp = dst * 0x1p-24f, dst = subm ? tmp : dst;
  if (b == INFINITY) dst = a;
  if (b == -INFINITY) dst = a;
  if ((a == INFINITY || a == -INFINITY) && (b == INFINITY || b == -INFINITY)) dst = of(0x7fc00000u);
  int a0 = a == 0.0f || a == -0.0f, b_not0 = b != 0.0f || b != -0.0f, b_num = !(b != b);
  if (a0 && b_not0 && b_num) dst = a;
  if (rm) {
    tmp = b * dst;
    if (tmp < 0.0f) dst = dst + b;
  }
  return dst;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd32(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

typedef struct dtally {
  const char *name;
  uint64_t n, bad, diff; /* pairs, model != sequence, sequence != a / b */
} dtally;

static void dcheck(dtally *t, float a, float b, float model, float seq, float def) {
  t->n++;
  if (!same(seq, def) && t->diff++ < 3)
    printf("%s %08x / %08x: sequence %a, a / b %a\n", t->name, (unsigned)bits(a), (unsigned)bits(b), seq, def);
  if (!same(model, seq) && t->bad++ < 4)
    printf("%s %08x / %08x: sequence %a, model %a\n", t->name, (unsigned)bits(a), (unsigned)bits(b), seq, model);
}

/* a / b rounded to nearest with ties toward zero: the double quotient (53 bits; a float
 * quotient is never within a double ulp of a float midpoint without being one) rounded. */
static float div_rtz_ties(float a, float b) {
  double q = (double)a / b;
  float z = (float)q;
  if (!isfinite(z) || z == 0.0f) return z;
  float lo = fabsf((float)q) > fabs(q) ? nextafterf(z, 0.0f) : z, hi = lo == z ? nextafterf(z, copysignf(INFINITY, z)) : z;
  return ((double)lo + hi) / 2 == q ? lo : z;
}

static void pair32(dtally *t, float a, float b) {
  dcheck(&t[0], a, b, pt_te_div754_f32(a, b), div754_f32(a, b), a / b);
  dcheck(&t[1], a, b, pt_te_divcomp_f32(a, b), divcomp_f32(a, b), a / b);
  dcheck(&t[5], a, b, div_rtz_ties(a, b), divcomp_f32(a, b), a / b);
  if (t[3].n >= t[0].n >> 4) return; /* the fmod model is slow: every 16th pair */
  float q = truncf(a / b), f = a - q * b, r = a - floorf(a / b) * b;
  dcheck(&t[3], a, b, pt_te_fmodhp_f32(a, b), fmodrem_hp(a, b, 0), f);
  dcheck(&t[4], a, b, pt_te_remhp_f32(a, b), fmodrem_hp(a, b, 1), b * r < 0.0f ? r + b : r);
}

static int run_div(int quick) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  dtally t[6] = {{"DivIEEE754FloatImpl", 0, 0, 0}, {"DivDiffCompensationFloatImpl", 0, 0, 0},
                 {"DivIEEE754HalfImpl", 0, 0, 0},  {"TFmodRemHP fmod", 0, 0, 0}, {"TFmodRemHP rem", 0, 0, 0},
                 {"DivDiffCompensation vs ties to zero", 0, 0, 0}};
  for (uint32_t u = 0; u <= 0xFFFFu; u += quick ? 97 : 1) /* every f16 pair */
    for (uint32_t v = 0; v <= 0xFFFFu; v++) {
      float a = of16(u), b = of16(v);
      dcheck(&t[2], a, b, pt_te_div754_f16(a, b), div754_f16(a, b), h16(a / b));
    }
  /* for these dividends every f32 divisor (both signs, every mantissa) of these exponent
   * fields, and the same dividends for these divisors */
  static const uint32_t fixed[] = {0x3fc00000u, 0x007fffffu, 0x00400001u, 0x00000001u, 0x1f800001u, 0x7f7fffffu};
  static const uint32_t exps[] = {0, 1, 2, 64, 127, 190, 253, 254, 255};
  for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
    for (size_t e = 0; e < sizeof exps / sizeof exps[0]; e++)
      for (uint32_t m = 0; m < 1u << 24; m += quick ? 997 : 1) {
        uint32_t u = (m >> 23) << 31 | exps[e] << 23 | (m & 0x7FFFFFu);
        pair32(t, of(fixed[k]), of(u)), pair32(t, of(u), of(fixed[k]));
      }
  for (uint32_t ea = 0; ea < 256; ea++) /* every pair of exponent fields */
    for (uint32_t eb = 0; eb < 256; eb++)
      for (int i = 0; i < 256; i++) {
        uint32_t ma = rnd32() & 0x807FFFFFu, mb = rnd32() & 0x807FFFFFu;
        if (i < 4) ma = (ma & 0x80000000u) | (i & 1 ? 0x7FFFFFu : 0), mb = (mb & 0x80000000u) | (i & 2 ? 0x7FFFFFu : 0);
        pair32(t, of(ma | ea << 23), of(mb | eb << 23));
      }
  for (int i = 0; i < 1 << 26; i++) { /* quotients from 2^-152 to 2^-124: b random, a = b 2^k (1 + small) */
    float b = of(rnd32() & 0xff7fffffu);
    double q = ldexp(1.0 + ((int32_t)rnd32() >> 4) * 0x1p-27, -(int)(rnd32() % 29) - 124);
    float a = (float)((double)b * q);
    pair32(t, a, b);
    pair32(t, of(bits(a) + (rnd32() % 5) - 2), b);
  }
  for (int i = 0; i < 1 << 28; i++) pair32(t, of(rnd32()), of(rnd32()));
  for (int i = 0; i < 6; i++)
    printf("%-29s %llu pairs: model differs from the sequence on %llu, the sequence from a / b on %llu\n", t[i].name,
           (unsigned long long)t[i].n, (unsigned long long)t[i].bad, (unsigned long long)t[i].diff);
  return t[0].bad || t[1].bad || t[2].bad || t[3].bad || t[4].bad;
}

typedef struct tally {
  const char *name;
  uint64_t bad;
} tally;

static void check(tally *t, uint32_t u, float got, float want) {
  if (!same(got, want) && t->bad++ < 4) printf("%s %08x: sequence %a, other %a\n", t->name, (unsigned)u, got, want);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "div")) return run_div(argc > 2); /* div quick: a sample of the sweeps */
  tally t[8] = {{"tsqrt f32", 0}, {"trsqrt f32", 0}, {"trecip f32", 0}, {"tsqrt f16", 0},
                {"trsqrt f16", 0}, {"trecip f16", 0}, {"trecip lib f32", 0}, {"trecip lib f16", 0}};
  for (uint64_t u = 0; u <= 0xFFFFFFFFu; u++) {
    float x = of((uint32_t)u), s = sqrt_hp_f32(x);
    check(&t[0], (uint32_t)u, s, sqrtf(x));
    check(&t[1], (uint32_t)u, div754_f32(1.0f, s), 1.0f / sqrtf(x));
    float q = div754_f32(1.0f, x);
    check(&t[2], (uint32_t)u, q, 1.0f / x);
    check(&t[6], (uint32_t)u, q, pt_te_div754_f32(1.0f, x));
  }
  for (uint32_t u = 0; u <= 0xFFFFu; u++) {
    float x = of16(u), s = sqrt_hp_f16(x);
    check(&t[3], u, s, h16(sqrtf(x)));
    check(&t[4], u, div754_f16(1.0f, s), h16(1.0f / h16(sqrtf(x))));
    check(&t[5], u, div754_f16(1.0f, x), h16(1.0f / x));
    check(&t[7], u, div754_f16(1.0f, x), pt_te_div754_f16(1.0f, x));
  }
  for (int i = 0; i < 6; i++) printf("%-11s HIGH_PRECISION differs from DEFAULT on %llu inputs\n", t[i].name, (unsigned long long)t[i].bad);
  for (int i = 6; i < 8; i++) printf("%-11s differs from the trecip sequence on %llu inputs\n", t[i].name, (unsigned long long)t[i].bad);
  return t[0].bad || t[1].bad || t[3].bad || t[4].bad || t[6].bad || t[7].bad;
}
