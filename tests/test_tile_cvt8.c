/* pto.tcvt's A5 8-bit float pairs (src/isa/tile_cvt.c): f32 -> f8E4M3FN / f8E5M2 rounded to
 * nearest, ties to the even code; f32 / f16 -> hif8 rounded to nearest, ties away from zero;
 * whatever rmode and sat_mode say (a5 TCvt.hpp cast32to8 and castData pass ROUND_R /
 * ROUND_A and RS_DISABLE themselves); and the 8-bit floats back to f32, exact. The
 * reference: the e4m3 / e5m2 values from their bit formulas (OCP FP8), hif8's from the core
 * decoder (pt_f8_to_f32, tested in test_dtype.c), and rounding by a search for the nearest
 * code; the whole UB is compared, so bytes outside the valid region must stay. Values stay
 * within the formats' finite ranges (overflow without saturation is not settled by pto-isa's
 * hardware test). And bf16 <-> fp4 pairs (f4E1M2x2 / f4E2M1x2: a byte of two codes per
 * element, so the fp4 side has half the valid columns, rounded up): to fp4 with every rmode
 * (nearest-code reference, saturating, NaN -> 0), valid rows zeroed across the tile and an odd
 * last column's byte left 0; from fp4 every code, exact. A2/A3 has none of these pairs
 * (tcvt.dtype). */
#include <stdio.h>

#include "tile_ub_env.h"

static unsigned long long seed = 0xC0DE8F8ull;

/* The value of 8-bit float code c of type t (NaN for the NaN codes). */
static double f8_value(ptosim_dtype t, int c) {
  double sgn = c & 0x80 ? -1.0 : 1.0;
  int mag = c & 0x7F;
  if (t == PTOSIM_DT_F8E4M3) { /* 1.4.3, bias 7, no inf, S.1111.111 NaN */
    int e = mag >> 3, m = mag & 7;
    if (mag == 0x7F) return NAN;
    return sgn * (e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6));
  }
  if (t == PTOSIM_DT_F8E5M2) { /* 1.5.2, bias 15, IEEE inf / NaN */
    int e = mag >> 2, m = mag & 3;
    if (e == 31) return m ? NAN : sgn * INFINITY;
    return sgn * (e ? ldexp(1.0 + m / 4.0, e - 15) : ldexp(m / 4.0, -14));
  }
  return pt_f8_to_f32(t, (uint8_t)c);
}

/* x (finite, within t's finite range) rounded to the nearest code of t: ties to the even code
 * (e4m3 / e5m2) or away from zero (hif8). Zero keeps x's sign (hif8 has one zero, 0x00: its
 * 0x80 is NaN). */
static int f8_round(ptosim_dtype t, double x) {
  int best = -1;
  double bd = INFINITY;
  for (int c = 0; c < 256; c++) {
    double v = f8_value(t, c);
    bool zero_sign = t != PTOSIM_DT_HIF8 && v == 0 && (c & 0x80) != (signbit(x) ? 0x80 : 0);
    if (isnan(v) || isinf(v) || zero_sign) continue;
    double d = fabs(v - x);
    bool tie = d == bd && best >= 0;
    bool better = t == PTOSIM_DT_HIF8 ? fabs(v) > fabs(f8_value(t, best)) : (c & 1) == 0;
    if (d < bd || (tie && better)) bd = d, best = c;
  }
  return best;
}

/* Largest finite magnitude of t. */
static double f8_max(ptosim_dtype t) {
  double m = 0;
  for (int c = 0; c < 128; c++)
    if (isfinite(f8_value(t, c)) && f8_value(t, c) > m) m = f8_value(t, c);
  return m;
}

/* A source value for a conversion to t: a code's value, the midpoint of two neighbouring
 * codes (a tie), or a random value within the range. */
static double src_value(ptosim_dtype t) {
  uint64_t r = pt_rand_u64(&seed);
  double mx = f8_max(t), v;
  do {
    int c = (int)(r >> 8 & 0x7E);
    double a = f8_value(t, c), b = f8_value(t, c + 1);
    v = r % 3 == 0 ? a : r % 3 == 1 ? (a + b) / 2 : ldexp((double)(r >> 20 & 0xFFFF) / 65536.0, (int)(r >> 40 & 15) - 8);
    r = pt_rand_u64(&seed);
  } while (!(fabs(v) <= mx));
  return r & 1 ? -v : v;
}

static void test_to_f8(ptosim_dtype s, ptosim_dtype d, ptosim_round_mode rm, ptosim_tsat_mode sat) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_tile a = ub_tile(s, 0x100, 3, 64, 3, 61, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile o = ub_tile(d, 0x2000, 3, 64, 3, 61, PTOSIM_BL_ROW_MAJOR);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 61; c++) put(s, at(&e, &a, r, c), src_value(d)); /* f16: the value rounded to f16 */
  env_load(&e); /* the UB before the op; the image becomes the expected one */
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 61; c++) *at(&e, &o, r, c) = (uint8_t)f8_round(d, get(s, at(&e, &a, r, c)));
  ptosim_telem_params p = {.src0 = a, .dst = o, .rmode = rm, .sat = sat};
  char what[96];
  snprintf(what, sizeof what, "tcvt %s -> %s rmode %d sat %d", pt_dtype_name(s), pt_dtype_name(d), (int)rm, (int)sat);
  finish(&e, ptosim_tcvt(e.c, &p), what);
}

static void test_from_f8(ptosim_dtype s) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_tile a = ub_tile(s, 0x100, 5, 64, 5, 57, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile o = ub_tile(PTOSIM_DT_F32, 0x1000, 5, 64, 5, 57, PTOSIM_BL_ROW_MAJOR);
  for (int i = 0; i < 5 * 57; i++) {
    int code = i & 0xFF;
    while (isnan(f8_value(s, code))) code = (code - 4) & 0xFF; /* a nearby non-NaN code */
    *at(&e, &a, i / 57, i % 57) = (uint8_t)code;
  }
  env_load(&e); /* the UB before the op; the image becomes the expected one */
  for (int i = 0; i < 5 * 57; i++) {
    float v = (float)f8_value(s, *at(&e, &a, i / 57, i % 57));
    memcpy(at(&e, &o, i / 57, i % 57), &v, 4);
  }
  ptosim_telem_params p = {.src0 = a, .dst = o, .rmode = PTOSIM_RM_RINT};
  finish(&e, ptosim_tcvt(e.c, &p), pt_dtype_name(s));
}

/* ---- bf16 <-> fp4 pairs ---------------------------------------------------------------- */

/* Magnitude of fp4 code index m (0..7): e2m1 1.2.1 bias 1 (m = 1 the subnormal 0.5), e1m2
 * 1.1.2 bias 1 (codes below 4 subnormal: m / 4). */
static double f4_mag(ptosim_dtype t, int m) {
  if (t == PTOSIM_DT_F4E2M1X2) return m < 2 ? m / 2.0 : ldexp(1.0 + (m & 1) / 2.0, (m >> 1) - 1);
  return m < 4 ? m / 4.0 : 1.0 + (m - 4) / 4.0;
}

/* Code of x rounded with mode rm onto t's magnitudes, saturating at the largest; NaN -> 0. */
static int f4_round(ptosim_dtype t, double x, ptosim_round_mode rm) {
  if (isnan(x)) return 0;
  int neg = signbit(x) ? 8 : 0, lo = 0;
  double a = fabs(x);
  if (a >= f4_mag(t, 7)) return neg | 7;
  while (f4_mag(t, lo + 1) <= a) lo++; /* mag(lo) <= a < mag(lo + 1) */
  if (f4_mag(t, lo) == a) return neg | lo;
  double dl = a - f4_mag(t, lo), du = f4_mag(t, lo + 1) - a;
  int up;
  switch (rm) {
    case PTOSIM_RM_ROUND: up = du <= dl; break;
    case PTOSIM_RM_FLOOR: up = neg != 0; break;
    case PTOSIM_RM_CEIL: up = neg == 0; break;
    case PTOSIM_RM_TRUNC: up = 0; break;
    case PTOSIM_RM_ODD: up = (lo & 1) == 0; break;
    default: up = du < dl || (du == dl && (lo & 1)); break;
  }
  return neg | (lo + up);
}

/* bf16 [3, 64] valid [3, vc] -> fp4 pairs [3, 32] valid [3, ceil(vc / 2)]: every valid row
 * zeroed across its 32 bytes, then vc / 2 whole bytes (low nibble the even column). */
static void test_to_f4(ptosim_dtype t, ptosim_round_mode rm, int vc) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_tile a = ub_tile(PTOSIM_DT_BF16, 0x100, 3, 64, 3, vc, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile o = ub_tile(t, 0x1000, 4, 32, 3, (vc + 1) / 2, PTOSIM_BL_ROW_MAJOR);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < vc; c++) {
      uint64_t q = pt_rand_u64(&seed);
      int m = (int)(q % 8);
      double v = q >> 8 & 1 ? (f4_mag(t, m) + f4_mag(t, m + 1 < 8 ? m + 1 : 7)) / 2 /* ties */
                            : ldexp((double)(q >> 16 & 0xFFF), -10) * f4_mag(t, 7) / 3.5; /* to 1.17x max */
      v = (q >> 9 & 1) ? -v : v;
      if (q % 61 == 0) v = (q >> 10 & 1) ? NAN : INFINITY;
      put(PTOSIM_DT_BF16, at(&e, &a, r, c), v);
    }
  env_load(&e); /* the UB before the op; the image becomes the expected one */
  for (int r = 0; r < 3; r++) {
    memset(at(&e, &o, r, 0), 0, 32);
    for (int c = 0; c < vc / 2 * 2; c++)
      *at(&e, &o, r, c / 2) |= (uint8_t)(f4_round(t, get(PTOSIM_DT_BF16, at(&e, &a, r, c)), rm) << (4 * (c & 1)));
  }
  ptosim_telem_params p = {.src0 = a, .dst = o, .rmode = rm};
  char what[64];
  snprintf(what, sizeof what, "tcvt bf16 -> %s rmode %d vc %d", pt_dtype_name(t), (int)rm, vc);
  finish(&e, ptosim_tcvt(e.c, &p), what);
}

/* fp4 pairs [2, 32] valid [2, ceil(vc / 2)] -> bf16 [2, 64] valid [2, vc]: every code. */
static void test_from_f4(ptosim_dtype t, int vc) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_tile a = ub_tile(t, 0x100, 2, 32, 2, (vc + 1) / 2, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile o = ub_tile(PTOSIM_DT_BF16, 0x1000, 2, 64, 2, vc, PTOSIM_BL_ROW_MAJOR);
  env_load(&e); /* the source: the random bytes; the image becomes the expected UB */
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < vc; c++) {
      int code = *at(&e, &a, r, c / 2) >> (4 * (c & 1)) & 15;
      double v = f4_mag(t, code & 7);
      put(PTOSIM_DT_BF16, at(&e, &o, r, c), code & 8 ? -v : v);
    }
  ptosim_telem_params p = {.src0 = a, .dst = o, .rmode = PTOSIM_RM_RINT};
  finish(&e, ptosim_tcvt(e.c, &p), pt_dtype_name(t));
}

/* The pairs are A5's: A2/A3 refuses them; an fp4 valid shape that does not pair is tcvt.valid. */
static void test_a2a3_refuses(void) {
  static const ptosim_dtype pairs[][2] = {{PTOSIM_DT_F32, PTOSIM_DT_F8E4M3}, {PTOSIM_DT_F16, PTOSIM_DT_HIF8},
                                          {PTOSIM_DT_F8E5M2, PTOSIM_DT_F32}, {PTOSIM_DT_BF16, PTOSIM_DT_F4E2M1X2}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    env e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
    ptosim_telem_params p = {.src0 = ub_tile(pairs[i][0], 0, 2, 64, 2, 64, PTOSIM_BL_ROW_MAJOR),
                             .dst = ub_tile(pairs[i][1], 0x1000, 2, 64, 2, 64, PTOSIM_BL_ROW_MAJOR)};
    refuse(&e, ptosim_tcvt(e.c, &p), "tcvt.dtype");
  }
  /* fp4 pairs: the fp4 side holds ceil(vc / 2) bytes a row, no fewer, no more */
  for (int vb = 31; vb <= 33; vb += 2) {
    env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
    ptosim_telem_params p = {.src0 = ub_tile(PTOSIM_DT_BF16, 0, 2, 64, 2, 64, PTOSIM_BL_ROW_MAJOR),
                             .dst = ub_tile(PTOSIM_DT_F4E2M1X2, 0x1000, 2, 64, 2, vb, PTOSIM_BL_ROW_MAJOR)};
    refuse(&e, ptosim_tcvt(e.c, &p), "tcvt.valid");
  }
}

int main(void) {
  static const ptosim_round_mode modes[] = {PTOSIM_RM_RINT, PTOSIM_RM_ROUND, PTOSIM_RM_FLOOR, PTOSIM_RM_TRUNC};
  static const ptosim_dtype to[][2] = {{PTOSIM_DT_F32, PTOSIM_DT_F8E4M3}, {PTOSIM_DT_F32, PTOSIM_DT_F8E5M2},
                                       {PTOSIM_DT_F32, PTOSIM_DT_HIF8}, {PTOSIM_DT_F16, PTOSIM_DT_HIF8}};
  for (size_t i = 0; i < sizeof to / sizeof to[0]; i++)
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
      for (int sat = 0; sat < 3; sat++) test_to_f8(to[i][0], to[i][1], modes[m], (ptosim_tsat_mode)sat);
  test_from_f8(PTOSIM_DT_F8E4M3);
  test_from_f8(PTOSIM_DT_F8E5M2);
  test_from_f8(PTOSIM_DT_HIF8);
  static const ptosim_round_mode all[] = {PTOSIM_RM_RINT, PTOSIM_RM_ROUND, PTOSIM_RM_FLOOR, PTOSIM_RM_CEIL,
                                          PTOSIM_RM_TRUNC, PTOSIM_RM_ODD};
  static const ptosim_dtype f4[] = {PTOSIM_DT_F4E1M2X2, PTOSIM_DT_F4E2M1X2};
  for (int k = 0; k < 2; k++) {
    for (size_t m = 0; m < sizeof all / sizeof all[0]; m++) test_to_f4(f4[k], all[m], 64);
    test_to_f4(f4[k], PTOSIM_RM_RINT, 37); /* odd: the last column's byte stays 0 */
    test_from_f4(f4[k], 64);
    test_from_f4(f4[k], 37); /* odd: the last column from a low nibble */
  }
  test_a2a3_refuses();
  return pt_test_finish();
}
