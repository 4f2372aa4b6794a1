/* e^x of an f32, correctly rounded (round to nearest even): the exp of vexp, vexpdif, texp,
 * the expdif forms and tpow (docs/spec-notes.md section 31).
 *
 * Two steps. The fast one is the double-precision algorithm of pt_exp_f32x8
 * (vec_formulas.h) on one element: y within 2^-42.4 of e^x, so its f32 rounding is the
 * correctly rounded value unless y lies near a halfway point (PT_EXP_NEAR), about 1 input
 * in 2^16. Those, and the results outside the normal f32 range, take the slow step: e^x in
 * double-double arithmetic (about 2^-100 relative) rounded once to f32. No f32 input has e^x
 * within 2^-58 of an f32 halfway point (scripts/exhaustive_tile_elem.c checks all 2^32
 * inputs against a long double reference and that distance), so the rounding is exact. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "isa/exp_f32.h"
#include "isa/vec_formulas.h"

static uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double double_of(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* The fast step: *y = e^x (relative error below 2^-42.4) for x in [PT_EXP_MIN, PT_EXP_MAX];
 * false when y's f32 rounding is not proven (within PT_EXP_NEAR of a halfway point). */
static bool exp_fast(float x, double *y) {
  static const double tab[16] = {PT_EXP_TAB_LO, PT_EXP_TAB_HI};
  double t = (double)x * PT_EXP_N_LN2 + PT_EXP_SHIFT, kd = t - PT_EXP_SHIFT, r = (double)x - kd * PT_EXP_LN2_N;
  double p = PT_EXP_POLY(r);
  uint64_t tb = bits_of(t), j = tb & 15;
  double s = double_of(bits_of(tab[j]) + ((tb - j) << 48)); /* 2^m 2^(j / 16), m = (k - j) / 16 */
  *y = s * p;
  return ((bits_of(*y) + (PT_EXP_NEAR - 0x10000000u)) & 0x1FFFFFFF) >= 2 * PT_EXP_NEAR;
}

/* ---- the slow step: double-double arithmetic (Dekker; fma for the exact products) ---- */
typedef struct {
  double hi, lo;
} dd;
static dd two_sum(double a, double b) {
  double s = a + b, bb = s - a;
  return (dd){s, (a - (s - bb)) + (b - bb)};
}
static dd dd_norm(double hi, double lo) { /* |hi| >= |lo| */
  double s = hi + lo;
  return (dd){s, lo - (s - hi)};
}
static dd dd_mul(dd a, dd b) {
  double p = a.hi * b.hi;
  return dd_norm(p, fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi));
}
static dd dd_add(dd a, dd b) {
  dd s = two_sum(a.hi, b.hi);
  return dd_norm(s.hi, s.lo + (a.lo + b.lo));
}

/* e^x for |x| <= 104 (x not NaN) as hi + lo scaled by 2^*k: k = nearest integer to x / ln2,
 * r = x - k ln2 (|r| <= 0.3466) in double-double with ln2 to 2^-108; e^r = 1 + r + r^2/2 +
 * r^3/6 + r^4/24 + tail, the tail (r^5/5! .. r^16/16!, in double: error below 2^-67) and the
 * five head steps in double-double; the remainder r^17/17! e^r is below 2^-73. */
static dd exp_dd(float x, int *k) {
  static const dd ln2 = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};
  static const dd c[5] = {{1, 0}, {1, 0}, {0.5, 0}, {0x1.5555555555555p-3, 0x1.5555555555555p-57},
                          {0x1.5555555555555p-5, 0x1.5555555555555p-59}}; /* 1 / n! */
  double kd = nearbyint((double)x * 0x1.71547652b82fep0);
  double p = kd * ln2.hi, pe = fma(kd, ln2.hi, -p); /* k ln2.hi = p + pe exactly */
  dd r = two_sum((double)x - p, -(pe + kd * ln2.lo));  /* x - p is exact (Sterbenz) */
  static const double inv_fact[12] = {1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800,
                                      1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0, 1.0 / 87178291200.0,
                                      1.0 / 1307674368000.0, 1.0 / 20922789888000.0}; /* 1 / n!, n = 5 .. 16 */
  double tail = 0;
  for (int n = 11; n >= 0; n--) tail = tail * r.hi + inv_fact[n];
  dd e = dd_add(c[4], (dd){tail * r.hi, 0});
  for (int n = 3; n >= 0; n--) e = dd_add(dd_mul(e, r), c[n]);
  *k = (int)kd;
  return e;
}

float pt_exp_f32(float x) {
  double y;
  if (x >= PT_EXP_MIN && x <= PT_EXP_MAX && exp_fast(x, &y)) return (float)y;
  if (isnan(x)) return x + x;
  if (x < PT_EXP_ZERO) return 0.0f;     /* e^x < 2^-150: +0 */
  if (x > 89.0f) return (float)INFINITY; /* e^89 > 2^128 */
  int k;
  dd e = exp_dd(x, &k);
  double hi = ldexp(e.hi, k), lo = ldexp(e.lo, k); /* exact: 2^-151 < e^x < 2^129 */
  float f = (float)hi;
  /* hi on an f32 halfway point exactly: lo's sign says the side (lo == 0 cannot happen) */
  double d = hi - (double)f;
  if (d != 0 && isfinite(f)) {
    float g = nextafterf(f, d > 0 ? INFINITY : -INFINITY);
    if (2 * d == (double)g - (double)f && (lo > 0) == (d > 0)) f = g;
  }
  return f;
}
