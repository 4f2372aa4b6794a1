/* Lane-loop helpers shared by every vector family (src/isa/vec_*.c).
 *
 * A register holds 256 / E lanes of E bytes (vreg.h). Each element type is a "kind" K:
 *   i8 u8 i16 u16 i32 u32 i64 u64   integers, computed in their own C type
 *   f32                             computed in float
 *   f16 bf16                        loaded to float exactly, computed in float, stored with one
 *                                   round-to-nearest-even (for + - * / sqrt the same as rounding
 *                                   the exact result once: f32 has >= 2p + 2 bits)
 * Per kind: pt_vl_c_K (compute type), pt_vl_u_K (unsigned type of the lane width),
 * PT_VL_E_K (lane bytes), PT_VL_S_K (1 if signed), PT_VL_DT_K (ptosim_dtype),
 * pt_vl_ld_K / pt_vl_st_K (lane i of a register). Float stores write every NaN as the
 * positive quiet NaN of the type (0x7FC00000 / 0x7E00 / 0x7FC0) so results do not depend on
 * the host's NaN propagation.
 *
 * An op is a typed loop per kind, generated from one expression by PT_VL_MAP1 / PT_VL_MAP2,
 * and a table indexed by ptosim_dtype (PT_VL_ENTRY) whose NULL entries are the illegal element
 * types: the executor looks the loop up ONCE per op, never per element.
 *
 * Inactive-lane policy: the zeroing predication of the A5 vector ISA. A lane whose mask bit
 * i * E is clear produces 0 in a vector result (and 0 in a predicate result); the other bits
 * of a lane's E mask bits are ignored. Loops compute every lane into a local register, zero
 * the inactive lanes, and copy it out at the end, so a result may alias a source. */
#ifndef PT_VEC_LANES_H
#define PT_VEC_LANES_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "isa/isa.h"
#include "ptosim/vreg.h"

/* ---- masks ----------------------------------------------------------------------------- */

/* Lane i (of e-byte lanes) is active in m: bit i * e. */
static inline unsigned pt_vl_active(const ptosim_vmask *m, unsigned i, unsigned e) {
  unsigned bit = i * e;
  return (unsigned)(m->b[bit >> 3] >> (bit & 7)) & 1u;
}

/* Set lane i (of e-byte lanes) of a predicate that starts all-zero: bit i * e = v. */
static inline void pt_vl_set(ptosim_vmask *m, unsigned i, unsigned e, unsigned v) {
  unsigned bit = i * e;
  m->b[bit >> 3] = (uint8_t)(m->b[bit >> 3] | (v & 1u) << (bit & 7));
}

/* ---- kinds ----------------------------------------------------------------------------- */

#define PT_VL_INT_KIND(K, T, U, S, DT)                                                     \
  typedef T pt_vl_c_##K;                                                                   \
  typedef U pt_vl_u_##K;                                                                   \
  enum { PT_VL_E_##K = sizeof(T), PT_VL_S_##K = S, PT_VL_DT_##K = DT };                    \
  static inline T pt_vl_ld_##K(const ptosim_vreg *r, unsigned i) {                         \
    T v;                                                                                   \
    memcpy(&v, r->b + i * sizeof(T), sizeof(T));                                          \
    return v;                                                                              \
  }                                                                                        \
  static inline void pt_vl_st_##K(ptosim_vreg *r, unsigned i, T v) {                       \
    memcpy(r->b + i * sizeof(T), &v, sizeof(T));                                          \
  }

PT_VL_INT_KIND(i8, int8_t, uint8_t, 1, PTOSIM_DT_I8)
PT_VL_INT_KIND(u8, uint8_t, uint8_t, 0, PTOSIM_DT_U8)
PT_VL_INT_KIND(i16, int16_t, uint16_t, 1, PTOSIM_DT_I16)
PT_VL_INT_KIND(u16, uint16_t, uint16_t, 0, PTOSIM_DT_U16)
PT_VL_INT_KIND(i32, int32_t, uint32_t, 1, PTOSIM_DT_I32)
PT_VL_INT_KIND(u32, uint32_t, uint32_t, 0, PTOSIM_DT_U32)
PT_VL_INT_KIND(i64, int64_t, uint64_t, 1, PTOSIM_DT_I64)
PT_VL_INT_KIND(u64, uint64_t, uint64_t, 0, PTOSIM_DT_U64)

/* Float kinds: storage U (raw bits), compute float; to_f / from_f convert one lane. */
#define PT_VL_FLOAT_KIND(K, U, DT, QNAN, TO_F, FROM_F)                                     \
  typedef float pt_vl_c_##K;                                                               \
  typedef U pt_vl_u_##K;                                                                   \
  enum { PT_VL_E_##K = sizeof(U), PT_VL_S_##K = 1, PT_VL_DT_##K = DT };                    \
  static inline float pt_vl_ld_##K(const ptosim_vreg *r, unsigned i) {                     \
    U v;                                                                                   \
    memcpy(&v, r->b + i * sizeof(U), sizeof(U));                                          \
    return TO_F(v);                                                                        \
  }                                                                                        \
  static inline void pt_vl_st_##K(ptosim_vreg *r, unsigned i, float x) {                   \
    U v = isnan(x) ? (U)(QNAN) : FROM_F(x);                                                \
    memcpy(r->b + i * sizeof(U), &v, sizeof(U));                                          \
  }

static inline float pt_vl_f32_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t pt_vl_f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* c ? a : b for c in {0, 1}, in bit operations: a conditional expression lets the compiler
 * move float arithmetic that feeds only one arm into a branch, and under the default
 * -ftrapping-math it then cannot if-convert the loop (no vectorization). */
static inline uint32_t pt_vl_sel(uint32_t c, uint32_t a, uint32_t b) {
  uint32_t m = 0u - c;
  return (a & m) | (b & ~m);
}

/* Inline conversions of the lane loops, the f16 / bf16 paths of core/dtype.c written with
 * selects (pt_vl_sel) instead of branches so that the loops vectorize. NaN inputs of the f32 -> 16-bit
 * direction never arrive (the stores handle them first). f16 -> f32 is exact; f32 -> f16 /
 * bf16 round to nearest even: add half an ulp minus one, plus the kept lsb, and truncate. */
static inline float pt_vl_f16_to_f32(uint16_t h) {
  uint32_t sign = ((uint32_t)h & 0x8000u) << 16, em = (uint32_t)h & 0x7FFFu;
  uint32_t normal = (em << 13) + 0x38000000u;                   /* exponent rebiased 15 -> 127 */
  uint32_t special = (em << 13) | 0x7F800000u;                  /* inf, NaN */
  uint32_t sub = pt_vl_f32_bits((float)(int32_t)em * 0x1p-24f); /* zero, subnormal: m * 2^-24 */
  return pt_vl_f32_of(sign | pt_vl_sel(em >= 0x7C00u, special, pt_vl_sel(em >= 0x0400u, normal, sub)));
}
static inline uint16_t pt_vl_to_f16(float x) {
  uint32_t b = pt_vl_f32_bits(x), sign = b >> 16 & 0x8000u, a = b & 0x7FFFFFFFu;
  uint32_t r = a - 0x38000000u;                                 /* exponent rebiased 127 -> 15 */
  uint32_t normal = (r + 0xFFFu + (r >> 13 & 1u)) >> 13;
  /* below 2^-14: m = |x| * 2^24 rounded to an integer by float arithmetic (ties even); other
   * lanes compute it on 2^-14 to stay in range */
  float small = pt_vl_f32_of(pt_vl_sel(a < 0x38800000u, a, 0x38800000u));
  uint32_t sub = (uint32_t)(int32_t)(small * 0x1p24f + 0x1p23f - 0x1p23f);
  return (uint16_t)(sign | pt_vl_sel(a >= 0x477FF000u, 0x7C00u, pt_vl_sel(a >= 0x38800000u, normal, sub))); /* 65520: inf */
}
static inline float pt_vl_bf16_to_f32(uint16_t v) { return pt_vl_f32_of((uint32_t)v << 16); }
static inline uint16_t pt_vl_to_bf16(float x) {
  uint32_t b = pt_vl_f32_bits(x);
  return (uint16_t)((b + 0x7FFFu + (b >> 16 & 1u)) >> 16);
}

PT_VL_FLOAT_KIND(f32, uint32_t, PTOSIM_DT_F32, 0x7FC00000u, pt_vl_f32_of, pt_vl_f32_bits)
PT_VL_FLOAT_KIND(f16, uint16_t, PTOSIM_DT_F16, 0x7E00u, pt_vl_f16_to_f32, pt_vl_to_f16)
PT_VL_FLOAT_KIND(bf16, uint16_t, PTOSIM_DT_BF16, 0x7FC0u, pt_vl_bf16_to_f32, pt_vl_to_bf16)

/* IEEE maximum / minimum: NaN if either is NaN; -0 < +0. */
static inline float pt_vl_fmax(float a, float b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static inline float pt_vl_fmin(float a, float b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* ---- typed loops ----------------------------------------------------------------------- */

/* The operands of one op, shared by every loop shape. */
typedef struct pt_vl_args {
  ptosim_vreg *dst;          /* vector result (or NULL) */
  ptosim_vmask *pdst;        /* predicate result (or NULL) */
  const ptosim_vreg *a, *b;  /* sources */
  const ptosim_vmask *mask;  /* governing mask */
} pt_vl_args;

typedef void (*pt_vl_fn)(const pt_vl_args *g);

/* Mask bit k governs register byte k, so mask byte j covers register bytes [8j, 8j + 8); of
 * its bits, those at multiples of e are lane bits: 0xFF, 0x55, 0x11, 0x01 for e = 1, 2, 4, 8. */
static inline unsigned pt_vl_lane_bits(unsigned e) { return e == 1 ? 0xFFu : e == 2 ? 0x55u : e == 4 ? 0x11u : 0x01u; }

/* Zero the lanes (e bytes) of r that are inactive in m; 8 register bytes per mask byte, so a
 * full mask costs 32 compares. A partial byte keeps its word's active lanes through a byte
 * mask (lane k active: bytes [k, k + e) kept). */
static inline void pt_vl_zero_inactive(ptosim_vreg *r, const ptosim_vmask *m, unsigned e) {
  unsigned lanes = pt_vl_lane_bits(e);
  uint64_t lane = e >= 8 ? UINT64_MAX : (UINT64_C(1) << 8 * e) - 1;
  for (unsigned j = 0; j < PTOSIM_VREG_BYTES / 8; j++) {
    unsigned bits = m->b[j] & lanes;
    if (bits == lanes) continue;
    uint64_t keep = 0, w;
    for (unsigned k = 0; k < 8; k += e) keep |= bits >> k & 1 ? lane << 8 * k : 0;
    memcpy(&w, r->b + 8 * j, 8);
    w &= keep;
    memcpy(r->b + 8 * j, &w, 8);
  }
}

/* Loop op##_##K: dst = F(K, x) with x = a[i] (compute type) on the active lanes, 0 on the
 * others. Every lane is computed (no side effects) and the inactive ones zeroed after, which
 * keeps the compute loop free of branches. */
#define PT_VL_MAP1(op, K, F)                                                               \
  static void op##_##K(const pt_vl_args *g) {                                              \
    ptosim_vreg r;                                                                         \
    for (unsigned i = 0; i < PTOSIM_VREG_BYTES / PT_VL_E_##K; i++) {                       \
      pt_vl_c_##K x = pt_vl_ld_##K(g->a, i);                                               \
      pt_vl_st_##K(&r, i, F(K, x));                                                        \
    }                                                                                      \
    pt_vl_zero_inactive(&r, g->mask, PT_VL_E_##K);                                         \
    *g->dst = r;                                                                           \
  }

/* Loop op##_##K: dst = F(K, x, y) with x = a[i], y = b[i] on the active lanes, 0 elsewhere. */
#define PT_VL_MAP2(op, K, F)                                                               \
  static void op##_##K(const pt_vl_args *g) {                                              \
    ptosim_vreg r;                                                                         \
    for (unsigned i = 0; i < PTOSIM_VREG_BYTES / PT_VL_E_##K; i++) {                       \
      pt_vl_c_##K x = pt_vl_ld_##K(g->a, i), y = pt_vl_ld_##K(g->b, i);                    \
      pt_vl_st_##K(&r, i, F(K, x, y));                                                     \
    }                                                                                      \
    pt_vl_zero_inactive(&r, g->mask, PT_VL_E_##K);                                         \
    *g->dst = r;                                                                           \
  }

/* Table entry of a loop: [dtype of K] = op##_##K (for designated initializers). */
#define PT_VL_ENTRY(op, K, F) [PT_VL_DT_##K] = op##_##K,

/* Apply M(op, K, F) to each kind of a group. */
#define PT_VL_SINTS(M, op, F) M(op, i8, F) M(op, i16, F) M(op, i32, F)
#define PT_VL_UINTS(M, op, F) M(op, u8, F) M(op, u16, F) M(op, u32, F)
#define PT_VL_INTS(M, op, F) PT_VL_SINTS(M, op, F) PT_VL_UINTS(M, op, F)
#define PT_VL_INTS64(M, op, F) M(op, i64, F) M(op, u64, F)
#define PT_VL_F16F32(M, op, F) M(op, f16, F) M(op, f32, F)
#define PT_VL_FLOATS(M, op, F) M(op, f16, F) M(op, bf16, F) M(op, f32, F)

/* Integer x OP y wrapped to the lane width (no signed overflow in C). */
#define PT_VL_WRAP(K, x, OP, y) \
  ((pt_vl_c_##K)(pt_vl_u_##K)((uint64_t)(pt_vl_u_##K)(x) OP (uint64_t)(pt_vl_u_##K)(y)))

/* ---- checks ---------------------------------------------------------------------------- */

/* Lane bytes of a dtype that a vector register can hold (0: none). */
static inline unsigned pt_vl_esize(ptosim_dtype dt) { return pt_dtype_size(dt); }

/* The register-level vector ISA exists on A5 only (rule vec.target): every vector op's first
 * check. */
static inline ptosim_status pt_vl_a5(pt_ctx *x) {
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "vec.target", "the register-level vector ISA exists on A5 only: give the module attributes {pto.target_arch = \"a5\"} or run with --target a5 (without it a module is a2a3, as PTOAS compiles it)",
            "not available on target %s", x->m->prof->name);
  return PTOSIM_OK;
}

/* The A5 gate and the register operands present (rule vec.operand; operands_ok is the
 * caller's conjunction of its pointers): the first checks of an op without an element-type
 * table (predicates, conversions). */
static inline ptosim_status pt_vl_begin(pt_ctx *x, int operands_ok) {
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, operands_ok, "vec.operand", "pass every register operand of the op", "a register operand pointer is NULL");
  return PTOSIM_OK;
}

/* The checks every register-level vector op makes, then the V-pipe work (lanes of dt) for
 * the cost model: the A5 target (rule vec.target), the operands present (vec.operand), a
 * legal element type, i.e. a loop in the op's table (vec.dtype), and the mask type's
 * granularity mask_bits against the lane width (vec.mask_gran; 0 = untyped, unchecked). */
static inline ptosim_status pt_vl_check(pt_ctx *x, ptosim_dtype dt, int has_loop, int operands_ok,
                                        unsigned mask_bits) {
  unsigned e = pt_vl_esize(dt);
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, operands_ok, "vec.operand", "pass every register operand of the op",
            "a register operand pointer is NULL");
  PT_VERIFY(x, has_loop, "vec.dtype", "see the op's A5 type list in docs/isa/micro-isa",
            "element type %s is not legal for this op", pt_dtype_name(dt));
  PT_VERIFY(x, mask_bits == 0 || mask_bits == (e > 4 ? 32u : e * 8), "vec.mask_gran",
            "use !pto.mask<bN> with N the element width (b32 for 64-bit elements)",
            "mask granularity b%u does not match %u-bit elements", mask_bits, e * 8);
  pt_record_work(x, PTOSIM_VREG_BYTES / e, dt);
  return PTOSIM_OK;
}

/* Loop of dtype dt in a table of PTOSIM_DT_COUNT entries (NULL for an illegal type). */
static inline pt_vl_fn pt_vl_pick(const pt_vl_fn *table, ptosim_dtype dt) {
  return (unsigned)dt < PTOSIM_DT_COUNT ? table[dt] : NULL;
}

/* Check, then run the loop of dt from table on g. */
static inline ptosim_status pt_vl_run(pt_ctx *x, const pt_vl_fn *table, ptosim_dtype dt, const pt_vl_args *g,
                                      int operands_ok, unsigned mask_bits) {
  pt_vl_fn fn = pt_vl_pick(table, dt);
  PT_TRY(pt_vl_check(x, dt, fn != NULL, operands_ok, mask_bits));
  fn(g);
  return PTOSIM_OK;
}

#endif
