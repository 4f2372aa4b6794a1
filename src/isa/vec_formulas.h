/* Element formulas shared by the register-level vector ops (vec_binary.c, vec_unary.c) and
 * the vector tile ops (tile_elem.c): F(K, x[, y]) on compute-type values of lane kind K
 * (src/isa/vec_lanes.h). Integers wrap; floats are computed in f32 and rounded by the caller. */
#ifndef PT_VEC_FORMULAS_H
#define PT_VEC_FORMULAS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "isa/exp_f32.h"
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
#define EXP_F(K, x) pt_exp_f32(x) /* correctly rounded (exp_f32.c) */
#define LN_F(K, x) logf(x)
/* max(a + b, 0): float sums round once (to f16 from the f32 sum; the ReLU commutes with it) */
#define ADDRELU_F(K, x, y) ((x) + (y) > 0.0f ? (x) + (y) : 0.0f)

/* ---- e^x for f32: the fast step of pt_exp_f32 (exp_f32.c) and of texp's rows ----------
 * The algorithm (ours; the math is the textbook table-driven one, e.g. Muller, "Elementary
 * Functions", ch. 6 and 11, Tang 1989), all in double, with N = 16:
 *  1. k = nearest integer to x * N / ln2: adding 1.5 * 2^52 to x * (N / ln2) rounds it to an
 *     integer kept in the low mantissa bits of t (t's bits end in 2^51 + k); kd = t - 1.5 * 2^52.
 *     The constant N / ln2 is rounded to double, and without a fused multiply-add the product
 *     is rounded too: for |x| <= 88.72 (|k| <= 2048) either error is below 2048 * 2^-53 =
 *     2^-42, so |x * N / ln2 - k| <= 1/2 + 2^-41 and r of step 2 has |r| < ln2 / 32 + 2^-45 < 0.02167.
 *  2. r = x - kd * C, C = ln2 / N rounded to double (|C - ln2 / N| <= 2^-58). kd * C is
 *     rounded once (|kd * C| < 2^7: error <= 2^-47) or not at all (fused), the subtraction is
 *     exact (Sterbenz: x and kd * C are within a factor 2 when k != 0) or rounds the fused
 *     result (<= 2^-59); with |kd| * 2^-58 <= 2^-47 from C, r is within 2^-46 of
 *     x - k ln2 / N: a relative error below 2^-45.9 in e^r.
 *  3. p = sum_{i=0..5} r^i / i! (Taylor, Horner form, PT_EXP_POLY). Lagrange's remainder
 *     |r|^6 / 6! * e^|r|, relative to e^r, is below 2^-42.64 for |r| < 0.02167; the
 *     coefficients' rounding and the Horner steps (the last two partial sums lie in
 *     [0.97, 1.03]) add less than 2^-51.
 *  4. k = N m + j, 0 <= j < N: 2^(k / N) = 2^m * 2^(j / N). The table (tlo, thi) holds the bits
 *     of 2^(j / N) rounded to double (relative error <= 2^-53) minus j << 48, so that adding
 *     t << 48 (whose top bits are (2^51 + k) << 48 mod 2^64 = m << 52 + j << 48) gives the
 *     bits of s = 2^m * 2^(j / N) exactly: s is normal for |x| <= 88.72 (|m| <= 128).
 *  5. y = s * p, rounded once (2^-53).
 * So y = e^x (1 + e), |e| < 2^-42.64 + 2^-45.8 < 2^-42.4, i.e. within 2^10.6 units of y's
 * last place (2^-52 of its binade, whose top is < 2 y). The f32 rounding of y is then the
 * correctly rounded e^x unless the 29 bits of y below the f32 mantissa are within
 * PT_EXP_NEAR = 2^12 of the halfway point 2^28 (2^-17 f32 ulp): about 1 input in 2^16.
 * pt_exp_f32x8 sets *y to (float)y of eight lanes *xp and *slow (-1 / 0 per lane) where that
 * is not proven: x outside [-87.33, 88.72] (results subnormal or near overflow), NaN, or y
 * near a halfway point; the caller then uses pt_exp_f32(x). x < -104 gives +0 exactly (e^x <
 * 2^-150). Written on GNU C vector types (gcc, clang) so that it compiles to whatever vector
 * unit the target has (pointers: no vector arguments in the ABI); scripts/exhaustive_tile_elem.c
 * checks every f32 input. */
typedef float pt_v8f __attribute__((vector_size(32)));
typedef int32_t pt_v8i __attribute__((vector_size(32)));
typedef double pt_v8d __attribute__((vector_size(64)));
typedef uint64_t pt_v8u __attribute__((vector_size(64))); /* bits: wrapping adds and shifts */
#define PT_EXP_NEAR 0x1000
/* The constants of the steps above (shared with the AVX-512 build in tile_elem.c):
 * 1.5 * 2^52, N / ln2 and ln2 / N rounded to double, 2^(j / 16) rounded to double for
 * j = 0..7 and 8..15, the range bounds. */
#define PT_EXP_SHIFT 0x1.8p52
#define PT_EXP_N_LN2 0x1.71547652b82fep4
#define PT_EXP_LN2_N 0x1.62e42fefa39efp-5
#define PT_EXP_TAB_LO 0x1p0, 0x1.0b5586cf9890fp0, 0x1.172b83c7d517bp0, 0x1.2387a6e756238p0, \
                      0x1.306fe0a31b715p0, 0x1.3dea64c123422p0, 0x1.4bfdad5362a27p0, 0x1.5ab07dd485429p0
#define PT_EXP_TAB_HI 0x1.6a09e667f3bcdp0, 0x1.7a11473eb0187p0, 0x1.8ace5422aa0dbp0, 0x1.9c49182a3f090p0, \
                      0x1.ae89f995ad3adp0, 0x1.c199bdd85529cp0, 0x1.d5818dcfba487p0, 0x1.ea4afa2a490dap0
/* Step 3: e^r to degree 5 (Horner). */
#define PT_EXP_POLY(r) (((((((r) * (1.0 / 120) + 1.0 / 24) * (r) + 1.0 / 6) * (r) + 0.5) * (r) + 1.0) * (r)) + 1.0)
#define PT_EXP_MIN (-87.33f) /* below: subnormal results */
#define PT_EXP_MAX 88.72f    /* above: near overflow */
#define PT_EXP_ZERO (-104.0f) /* below: +0 */
/* Entry j & 15 of the table (lo, hi) for each lane of bits u: gcc permutes two vector
 * registers (vpermt2q with AVX-512; indices are taken mod 16); clang has no variable
 * shuffle of generic vectors, so there it loads lane by lane. */
#if defined(__clang__)
#define PT_EXP_TAB(lo, hi, u)                                                                \
  __extension__({                                                                            \
    pt_v8u t_ = (u), r_;                                                                     \
    for (int i_ = 0; i_ < 8; i_++) r_[i_] = (t_[i_] & 8) ? (hi)[t_[i_] & 7] : (lo)[t_[i_] & 7]; \
    r_;                                                                                      \
  })
#else
#define PT_EXP_TAB(lo, hi, u) __builtin_shuffle(lo, hi, u)
#endif
static inline __attribute__((always_inline)) void pt_exp_f32x8(const pt_v8f *xp, pt_v8f *y, pt_v8i *slow) {
  pt_v8f x = *xp;
  const pt_v8d lo = {PT_EXP_TAB_LO}, hi = {PT_EXP_TAB_HI};
  const pt_v8u j = {0, 1, 2, 3, 4, 5, 6, 7}; /* the table's bits minus j << 48 */
  const pt_v8u tlo = (pt_v8u)lo - (j << 48), thi = (pt_v8u)hi - ((j + 8) << 48);
  pt_v8d xd = __builtin_convertvector(x, pt_v8d), t = xd * PT_EXP_N_LN2 + PT_EXP_SHIFT, kd = t - PT_EXP_SHIFT;
  pt_v8d r = xd - kd * PT_EXP_LN2_N;
  pt_v8d p = PT_EXP_POLY(r);
  pt_v8u s = PT_EXP_TAB(tlo, thi, (pt_v8u)t) + ((pt_v8u)t << 48); /* 2^m * 2^(j / 16) */
  pt_v8u yb = (pt_v8u)((pt_v8d)s * p);
  pt_v8i low = __builtin_convertvector((yb + (PT_EXP_NEAR - 0x10000000)) & 0x1FFFFFFF, pt_v8i); /* bits - 2^28 + NEAR, mod 2^29 */
  pt_v8i near = low < 2 * PT_EXP_NEAR; /* -1 where near a halfway point (32-bit compares) */
  pt_v8i zero = x < PT_EXP_ZERO, in = (x >= PT_EXP_MIN) & (x <= PT_EXP_MAX);
  *slow = ~zero & (~in | near);
  *y = (pt_v8f)((pt_v8i)__builtin_convertvector((pt_v8d)yb, pt_v8f) & ~zero);
}

#endif
