/* Element formulas shared by the register-level vector ops (vec_binary.c, vec_unary.c) and
 * the vector tile ops (tile_elem.c): F(K, x[, y]) on compute-type values of lane kind K
 * (src/isa/vec_lanes.h). Integers wrap; floats are computed in f32 and rounded by the caller. */
#ifndef PT_VEC_FORMULAS_H
#define PT_VEC_FORMULAS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "isa/vec_lanes.h"

#define ADD_I(K, x, y) PT_VL_WRAP(K, x, +, y)
#define SUB_I(K, x, y) PT_VL_WRAP(K, x, -, y)
#define MUL_I(K, x, y) PT_VL_WRAP(K, x, *, y)
#define ADD_F(K, x, y) ((x) + (y))
#define SUB_F(K, x, y) ((x) - (y))
#define MUL_F(K, x, y) ((x) * (y))
#define DIV_F(K, x, y) ((x) / (y))
#define MAX_I(K, x, y) ((x) > (y) ? (x) : (y))
#define MIN_I(K, x, y) ((x) < (y) ? (x) : (y))
#define AND_B(K, x, y) ((pt_vl_c_##K)((x) & (y)))
#define OR_B(K, x, y) ((pt_vl_c_##K)((x) | (y)))
#define XOR_B(K, x, y) ((pt_vl_c_##K)((x) ^ (y)))
#define NOT_B(K, x) ((pt_vl_c_##K)~(x))
#define NEG_I(K, x) PT_VL_WRAP(K, 0, -, x)
#define ABS_I(K, x) ((x) < 0 ? PT_VL_WRAP(K, 0, -, x) : (x))
#define EXP_F(K, x) expf(x)
#define LN_F(K, x) logf(x)
/* max(a + b, 0): float sums round once (to f16 from the f32 sum; the ReLU commutes with it) */
#define ADDRELU_F(K, x, y) ((x) + (y) > 0.0f ? (x) + (y) : 0.0f)

/* ---- e^x for f32 without libm: the fast path of texp ------------------------------------
 * The algorithm (ours; the math is the textbook one, e.g. Muller, "Elementary Functions",
 * ch. 11, and Cody & Waite 1980 for the two-constant reduction), all in double:
 *  1. k = nearest integer to x / ln2: adding 1.5 * 2^52 rounds x * (1/ln2) to an integer
 *     kept in the low mantissa bits of t; kd = t - 1.5 * 2^52.
 *  2. r = (x - kd * LN2_HI) - kd * LN2_LO, |r| <= ln2 / 2 (+2^-40). LN2_HI has 44 significant
 *     bits and its last at 2^-45, so for |k| <= 129 (|x| < 90) kd * LN2_HI is exact, and so is
 *     x - kd * LN2_HI (a multiple of 2^-45 below 1/2 when k != 0; x itself when k = 0);
 *     LN2_LO = ln2 - LN2_HI to 2^-98. The reduction error is below 2^-52 |r| + 2^-90.
 *  3. p = sum_{i=0..9} r^i / i! (Taylor, Horner form). Lagrange's remainder
 *     |r|^10 / 10! * e^|r|, relative to e^r, is below 2^-36.07 for |r| <= ln2 / 2; the
 *     rounding of the ten double steps adds less than 2^-48 (every partial sum lies in
 *     [0.7, 1.5]).
 *  4. y = p * 2^k by adding k to y's exponent bits (t << 52 is k * 2^52 mod 2^64).
 * So y = e^x (1 + e), |e| < 2^-36, i.e. within 2^17 units of y's last place (2^-52 of its
 * binade, whose top is < 2 y). The f32 rounding of y is then the correctly rounded e^x
 * unless the 29 bits of y below the f32 mantissa are within PT_EXP_NEAR of the halfway
 * point 2^28. PT_EXP_NEAR = 2^21 (2^-8 f32 ulp) leaves the exact value at least
 * 2^-8 - 2^-12 ulp from a halfway point, so any expf with an error below 0.5037 ulp
 * (glibc's: 0.502) rounds it the same way; about 1 input in 128 falls back.
 * pt_exp_f32x8 sets *y to (float)y of eight lanes *xp and *slow (-1 / 0 per lane) where that
 * is not proven: x outside [-87.33, 88.72] (results subnormal or near overflow), NaN, or y
 * near a halfway point; the caller then uses expf(x). x < -104 gives +0 exactly (e^x <
 * 2^-150). Written on GNU C vector types (gcc, clang) so that it compiles to whatever vector
 * unit the target has (pointers: no vector arguments in the ABI); scripts/exhaustive_tile_elem.c checks every f32 input. */
typedef float pt_v8f __attribute__((vector_size(32)));
typedef int32_t pt_v8i __attribute__((vector_size(32)));
typedef double pt_v8d __attribute__((vector_size(64)));
typedef uint64_t pt_v8u __attribute__((vector_size(64))); /* bits: wrapping adds and shifts */
#define PT_EXP_NEAR 0x200000
static inline __attribute__((always_inline)) void pt_exp_f32x8(const pt_v8f *xp, pt_v8f *y, pt_v8i *slow) {
  pt_v8f x = *xp;
  const double shift = 0x1.8p52, inv_ln2 = 0x1.71547652b82fep0;
  const double ln2_hi = 0x1.62e42fefa38p-1, ln2_lo = 0x1.ef35793c7673p-45;
  pt_v8d xd = __builtin_convertvector(x, pt_v8d), t = xd * inv_ln2 + shift, kd = t - shift;
  pt_v8d r = (xd - kd * ln2_hi) - kd * ln2_lo;
  pt_v8d p = r * (1.0 / 362880) + 1.0 / 40320;
  p = p * r + 1.0 / 5040;
  p = p * r + 1.0 / 720;
  p = p * r + 1.0 / 120;
  p = p * r + 1.0 / 24;
  p = p * r + 1.0 / 6;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  pt_v8u yb = (pt_v8u)p + ((pt_v8u)t << 52);                           /* p * 2^k */
  pt_v8i low = __builtin_convertvector((yb + (PT_EXP_NEAR - 0x10000000)) & 0x1FFFFFFF, pt_v8i); /* bits - 2^28 + NEAR, mod 2^29 */
  pt_v8i near = low < 2 * PT_EXP_NEAR; /* -1 where near a halfway point (32-bit compares) */
  pt_v8i zero = x < -104.0f, in = (x >= -87.33f) & (x <= 88.72f);
  *slow = ~zero & (~in | near);
  *y = (pt_v8f)((pt_v8i)__builtin_convertvector((pt_v8d)yb, pt_v8f) & ~zero);
}

#endif
