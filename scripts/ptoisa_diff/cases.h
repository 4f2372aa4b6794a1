/* The cases of scripts/ptoisa_diff, shared by ptoisa_side.cpp (pto-isa's CPU simulator) and
 * ptosim_side.c (ptosim's C API): the op table (X-macro), the tile geometry of each call
 * form and the deterministic input generator, so that both sides run the same op on the same
 * bytes. C11 and C++20. */
#ifndef PD_CASES_H
#define PD_CASES_H

#include <stdint.h>
#include <string.h>

/* Element types: X(id, C++ type of pto-isa's CPU simulator, ptosim dtype suffix, bytes,
 * is_float, is_signed). bf16 is absent: pto-isa's CPU simulator makes bfloat16_t an alias of
 * _Float16 unless <stdfloat> provides std::bfloat16_t under C++23 (include/pto/common/
 * type.hpp:452-463), which neither clang-19 with libstdc++ 12 nor g++ 12 of this host does, so
 * no flag makes it a real bf16 here. */
#define PD_DTYPES(X)                 \
  X(F32, float, F32, 4, 1, 1)        \
  X(F16, half, F16, 2, 1, 1)         \
  X(I32, int32_t, I32, 4, 0, 1)      \
  X(I16, int16_t, I16, 2, 0, 1)      \
  X(I8, int8_t, I8, 1, 0, 1)         \
  X(U8, uint8_t, U8, 1, 0, 0)        \
  X(U16, uint16_t, U16, 2, 0, 0)     \
  X(U32, uint32_t, U32, 4, 0, 0)     \
  X(I64, int64_t, I64, 8, 0, 1)
enum pd_dt {
#define PD_X(id, cty, ps, bytes, fl, sg) PD_##id,
  PD_DTYPES(PD_X)
#undef PD_X
};
static const struct pd_dtinfo {
  const char *name;
  int bytes, is_float, is_signed;
} pd_dtinfo[] = {
#define PD_X(id, cty, ps, bytes, fl, sg) {#id, bytes, fl, sg},
    PD_DTYPES(PD_X)
#undef PD_X
};

/* Call forms (d = dst, a = src0, b = src1, c = src2, s = scalar, t = scratch tile, m = predicate
 * tile):
 *   BIN   OP(d, a, b) (tfusedmuladd*, tmuladddst: d also read)     BINT  OP(d, a, b, t)
 *   SCL   OP(d, a, s) (taxpy: d also read)    SCLT  OP(d, a, s, t)     RSCL  OP(d, s, a)
 *   TERN  OP(d, a, b, c)          SCLC  OP(d, a, s, b)          UN    OP(d, a)
 *   CVT   TCVT(d, a, RoundMode[, SaturationMode]) (pd_low / pd_sat of param)
 *   CMP   TCMP(m, a, b, CmpMode)  CMPS  TCMPS(m, a, s, CmpMode)  (CmpMode: pd_low of param)
 *   SEL   TSEL(d, m, a, b, t)     SELS  TSELS(d, m, a, t, s)
 *   EXPS  TEXPANDS(d, s)
 *   ROWRED OP(dcol, a, t): dcol a rows x 1 column-major tile
 *   COLRED OP(drow, a):    drow a 1 x cols row-major tile
 *   ROWBC  TROWEXPAND(d, acol)   COLBC  TCOLEXPAND(d, arow)
 *   ROWEXP OP(d, a, bcol)        COLEXP OP(d, a, brow)
 *   TCI    TCI<D, T, descending>(drow, s)    TTRI   TTRI<D, upper>(d, diagonal)
 *          (descending / upper: bit 0 of param; diagonal: pd_tri_diag(param))
 * The valid region of d is the compared region; every other byte of d's tile must keep its
 * sentinel. */
enum pd_kind { PD_BIN, PD_BINT, PD_SCL, PD_SCLT, PD_RSCL, PD_TERN, PD_SCLC, PD_UN, PD_CVT, PD_CMP, PD_CMPS, PD_SEL,
               PD_SELS, PD_EXPS, PD_ROWRED, PD_COLRED, PD_ROWBC, PD_COLBC, PD_ROWEXP, PD_COLEXP, PD_TCI, PD_TTRI };
/* The kinds whose dst is a predicate tile (compared bit by bit) / that read one. */
static inline int pd_pred_dst(enum pd_kind k) { return k == PD_CMP || k == PD_CMPS; }
static inline int pd_pred_src(enum pd_kind k) { return k == PD_SEL || k == PD_SELS; }

/* Input profiles: ANY random values with specials mixed in (1 in 8: NaN, +-inf, +-0,
 * subnormals, +-max / min finite; integers MIN, MAX, 0, -1, 1); FIN the same without NaN and
 * inf; NARROW magnitudes in [0.5, 2) and no specials (products of 64 values stay finite);
 * SHIFT integers in [0, width) as src1 (shift counts; src0 is ANY); WIDE the same in
 * [0, 2 * width) (16-bit types only: the CPU simulator shifts them as int, so counts up to 31
 * are defined C++20 there; 32-bit counts >= 32 are undefined behaviour, not run); NZ ANY with
 * no integer 0 and no MIN in src1 (integer division: a host trap in the CPU simulator);
 * POS positive finite. */
enum pd_gen { PD_GEN_ANY, PD_GEN_FIN, PD_GEN_NARROW, PD_GEN_SHIFT, PD_GEN_WIDE, PD_GEN_NZ, PD_GEN_POS };
static inline int pd_is_shift(enum pd_gen g) { return g == PD_GEN_SHIFT || g == PD_GEN_WIDE; }

/* param: bits 0-7 the kind's own (TCVT RoundMode, TCMP / TCMPS CmpMode, TCI / TTRI PD_TRI),
 * then PD_SAT(m) TCVT's saturation (0 absent, 1 ON, 2 OFF: ptosim_tsat_mode; pto-isa's
 * SaturationMode is m - 1), PD_HP the HIGH_PRECISION algorithm (ptosim's flag; the pto-isa side
 * spells it in the OP column, e.g. TDIV<DivAlgorithm::HIGH_PRECISION>), PD_SC(v) the scalar
 * (pd_scalar: 0 random, 1 negative, 2 zero, 3 NaN / integer MIN). */
#define PD_SAT(m) ((m) << 8)
#define PD_HP (1 << 10)
#define PD_SC(v) ((v) << 11)
static inline int pd_low(int p) { return p & 0xFF; }
static inline int pd_sat(int p) { return p >> 8 & 3; }
static inline int pd_hp(int p) { return p >> 10 & 1; }
static inline int pd_sc(int p) { return p >> 11 & 3; }

/* Dtype sets: S(X, op, OP, kind, gen, dst, src, param). */
#define PD_SET_F(S, X, op, OP, k, g) S(X, op, OP, k, g, F32, F32, 0) S(X, op, OP, k, g, F16, F16, 0)
#define PD_SET_I(S, X, op, OP, k, g) S(X, op, OP, k, g, I32, I32, 0) S(X, op, OP, k, g, I16, I16, 0)
#define PD_SET_FI(S, X, op, OP, k, g) PD_SET_F(S, X, op, OP, k, g) PD_SET_I(S, X, op, OP, k, g)
#define PD_SET_IU(S, X, op, OP, k, g) \
  PD_SET_I(S, X, op, OP, k, g) S(X, op, OP, k, g, U32, U32, 0) S(X, op, OP, k, g, U16, U16, 0)
#define PD_ONE(X, op, OP, k, g, d, s, p) X(op, OP, k, g, d, s, p)
/* The same with the four scalars of pd_scalar / with the HIGH_PRECISION flag. */
#define PD_SCALARS(X, op, OP, k, g, d, s, p)                                                   \
  X(op, OP, k, g, d, s, (p) | PD_SC(0)) X(op, OP, k, g, d, s, (p) | PD_SC(1))                   \
  X(op, OP, k, g, d, s, (p) | PD_SC(2)) X(op, OP, k, g, d, s, (p) | PD_SC(3))
#define PD_HIGH(X, op, OP, k, g, d, s, p) X(op, OP, k, g, d, s, (p) | PD_HP)

/* param of TCI / TTRI: bit 0 descending / upper, the diagonal above it (offset by 64). */
#define PD_TRI(upper, diag) ((upper) | ((diag) + 64) << 1)
static inline int pd_tri_diag(int param) { return (param >> 1) - 64; }
#define PD_TCI_CASES(X, d) X(tci, TCI, PD_TCI, PD_GEN_ANY, d, d, 0) X(tci, TCI, PD_TCI, PD_GEN_ANY, d, d, 1)
#define PD_TTRI_CASES(X, d)                                                                 \
  X(ttri, TTRI, PD_TTRI, PD_GEN_ANY, d, d, PD_TRI(0, 3)) X(ttri, TTRI, PD_TTRI, PD_GEN_ANY, d, d, PD_TRI(0, -2)) \
  X(ttri, TTRI, PD_TTRI, PD_GEN_ANY, d, d, PD_TRI(1, 0)) X(ttri, TTRI, PD_TTRI, PD_GEN_ANY, d, d, PD_TRI(1, 5))

/* The cases, in the brief's order: X(op, OP, kind, gen, dst dtype, src dtype, param).
 * param: the RoundMode of TCVT (pto-isa / ptosim numbering: 1 RINT 2 ROUND 3 FLOOR 4 CEIL
 * 5 TRUNC 6 ODD); TCI / TTRI: PD_TRI. */
#define PD_CVT_MODES(X, d, s)                                                                      \
  X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 1) X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 2)             \
  X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 3) X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 4)             \
  X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 5) X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 6)
/* tcvt with an explicit saturation mode, RINT (cpu/TCvt.hpp TCVT_IMPL takes both modes). */
#define PD_CVT_SAT(X, d, s) X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 1 | PD_SAT(1)) X(tcvt, TCVT, PD_CVT, PD_GEN_ANY, d, s, 1 | PD_SAT(2))
/* The six comparisons (CmpMode EQ NE LT LE GT GE) of TCMP / TCMPS on src type s; dst a u8
 * predicate tile. */
#define PD_CMP_MODES(X, op, OP, k, s)                                                          \
  X(op, OP, k, PD_GEN_ANY, U8, s, 0) X(op, OP, k, PD_GEN_ANY, U8, s, 1) X(op, OP, k, PD_GEN_ANY, U8, s, 2) \
  X(op, OP, k, PD_GEN_ANY, U8, s, 3) X(op, OP, k, PD_GEN_ANY, U8, s, 4) X(op, OP, k, PD_GEN_ANY, U8, s, 5)
#define PD_CMP_SET(X, op, OP, k)                                                               \
  PD_CMP_MODES(X, op, OP, k, F32) PD_CMP_MODES(X, op, OP, k, F16) PD_CMP_MODES(X, op, OP, k, I32)            \
  PD_CMP_MODES(X, op, OP, k, I16) PD_CMP_MODES(X, op, OP, k, U16) PD_CMP_MODES(X, op, OP, k, U32)            \
  PD_CMP_MODES(X, op, OP, k, I8) PD_CMP_MODES(X, op, OP, k, U8)
#define PD_CASES(X)                                                            \
  /* elementwise tile-tile */                                                  \
  PD_SET_FI(PD_ONE, X, tadd, TADD, PD_BIN, PD_GEN_ANY)                         \
  PD_SET_FI(PD_ONE, X, tsub, TSUB, PD_BIN, PD_GEN_ANY)                         \
  PD_SET_FI(PD_ONE, X, tmul, TMUL, PD_BIN, PD_GEN_ANY)                         \
  PD_SET_F(PD_ONE, X, tdiv, TDIV, PD_BIN, PD_GEN_ANY)                          \
  PD_SET_FI(PD_ONE, X, tmax, TMAX, PD_BIN, PD_GEN_ANY)                         \
  PD_SET_FI(PD_ONE, X, tmin, TMIN, PD_BIN, PD_GEN_ANY)                         \
  PD_SET_F(PD_ONE, X, trem, TREM, PD_BINT, PD_GEN_ANY)                         \
  PD_SET_F(PD_ONE, X, tfmod, TFMOD, PD_BIN, PD_GEN_ANY)                        \
  PD_SET_IU(PD_ONE, X, tand, TAND, PD_BIN, PD_GEN_ANY)                         \
  PD_SET_IU(PD_ONE, X, tor, TOR, PD_BIN, PD_GEN_ANY)                           \
  PD_SET_IU(PD_ONE, X, txor, TXOR, PD_BINT, PD_GEN_ANY)                        \
  PD_SET_IU(PD_ONE, X, tshl, TSHL, PD_BIN, PD_GEN_SHIFT)                       \
  PD_SET_IU(PD_ONE, X, tshr, TSHR, PD_BIN, PD_GEN_SHIFT)                       \
  /* tile-scalar */                                                            \
  PD_SET_FI(PD_SCALARS, X, tadds, TADDS, PD_SCL, PD_GEN_ANY)                       \
  PD_SET_FI(PD_SCALARS, X, tsubs, TSUBS, PD_SCL, PD_GEN_ANY)                       \
  PD_SET_FI(PD_SCALARS, X, tmuls, TMULS, PD_SCL, PD_GEN_ANY)                       \
  PD_SET_F(PD_SCALARS, X, tdivs, TDIVS, PD_SCL, PD_GEN_ANY)                        \
  PD_SET_FI(PD_SCALARS, X, tmaxs, TMAXS, PD_SCL, PD_GEN_ANY)                       \
  PD_SET_FI(PD_SCALARS, X, tmins, TMINS, PD_SCL, PD_GEN_ANY)                       \
  PD_SET_F(PD_SCALARS, X, trems, TREMS, PD_SCLT, PD_GEN_ANY)                       \
  PD_SET_F(PD_SCALARS, X, tfmods, TFMODS, PD_SCL, PD_GEN_ANY)                      \
  PD_SET_IU(PD_SCALARS, X, tands, TANDS, PD_SCL, PD_GEN_ANY)                       \
  PD_SET_IU(PD_SCALARS, X, tors, TORS, PD_SCL, PD_GEN_ANY)                         \
  PD_SET_IU(PD_SCALARS, X, txors, TXORS, PD_SCLT, PD_GEN_ANY)                      \
  PD_SET_IU(PD_ONE, X, tshls, TSHLS, PD_SCL, PD_GEN_SHIFT)                     \
  PD_SET_IU(PD_ONE, X, tshrs, TSHRS, PD_SCL, PD_GEN_SHIFT)                     \
  PD_SET_F(PD_SCALARS, X, tlrelu, TLRELU, PD_SCL, PD_GEN_ANY)                      \
  /* unary */                                                                  \
  PD_SET_FI(PD_ONE, X, tabs, TABS, PD_UN, PD_GEN_ANY)                          \
  PD_SET_FI(PD_ONE, X, tneg, TNEG, PD_UN, PD_GEN_ANY)                          \
  PD_SET_IU(PD_ONE, X, tnot, TNOT, PD_UN, PD_GEN_ANY)                          \
  PD_SET_F(PD_ONE, X, texp, TEXP, PD_UN, PD_GEN_ANY)                           \
  PD_SET_F(PD_ONE, X, tlog, TLOG, PD_UN, PD_GEN_ANY)                           \
  PD_SET_F(PD_ONE, X, tsqrt, TSQRT, PD_UN, PD_GEN_ANY)                         \
  PD_SET_F(PD_ONE, X, trsqrt, TRSQRT, PD_UN, PD_GEN_ANY)                       \
  PD_SET_F(PD_ONE, X, trecip, TRECIP, PD_UN, PD_GEN_ANY)                       \
  PD_SET_FI(PD_ONE, X, trelu, TRELU, PD_UN, PD_GEN_ANY)                        \
  /* tcvt: every rounding mode of the CPU simulator (cpu/TCvt.hpp applyRoundingToIntegral) */ \
  PD_CVT_MODES(X, F16, F32) PD_CVT_MODES(X, F32, F16) PD_CVT_MODES(X, I32, F32)               \
  PD_CVT_MODES(X, I16, F32) PD_CVT_MODES(X, I32, F16) PD_CVT_MODES(X, I16, F16)               \
  PD_CVT_MODES(X, I8, F16) PD_CVT_MODES(X, U8, F16) PD_CVT_MODES(X, F32, I32)                 \
  PD_CVT_MODES(X, F16, I32) PD_CVT_MODES(X, F16, I16) PD_CVT_MODES(X, F32, I16)               \
  PD_CVT_MODES(X, I16, I32)                                                    \
  /* reductions */                                                             \
  PD_SET_FI(PD_ONE, X, trowsum, TROWSUM, PD_ROWRED, PD_GEN_FIN)                \
  PD_SET_FI(PD_ONE, X, trowmax, TROWMAX, PD_ROWRED, PD_GEN_FIN)                \
  PD_SET_FI(PD_ONE, X, trowmin, TROWMIN, PD_ROWRED, PD_GEN_FIN)                \
  PD_SET_FI(PD_ONE, X, trowprod, TROWPROD, PD_ROWRED, PD_GEN_NARROW)           \
  PD_SET_F(PD_ONE, X, tcolsum, TCOLSUM, PD_COLRED, PD_GEN_FIN) /* CPU sim: f16 f32 */                \
  PD_SET_F(PD_ONE, X, tcolmax, TCOLMAX, PD_COLRED, PD_GEN_FIN) /* and i8 u8 */ \
  X(tcolmax, TCOLMAX, PD_COLRED, PD_GEN_FIN, I8, I8, 0) X(tcolmax, TCOLMAX, PD_COLRED, PD_GEN_FIN, U8, U8, 0)                \
  PD_SET_FI(PD_ONE, X, tcolmin, TCOLMIN, PD_COLRED, PD_GEN_FIN)                \
  PD_SET_FI(PD_ONE, X, tcolprod, TCOLPROD, PD_COLRED, PD_GEN_NARROW)           \
  /* expands */                                                                \
  PD_SET_FI(PD_ONE, X, trowexpand, TROWEXPAND, PD_ROWBC, PD_GEN_ANY)           \
  PD_SET_FI(PD_ONE, X, tcolexpand, TCOLEXPAND, PD_COLBC, PD_GEN_ANY)           \
  PD_SET_FI(PD_ONE, X, trowexpandadd, TROWEXPANDADD, PD_ROWEXP, PD_GEN_ANY)    \
  PD_SET_FI(PD_ONE, X, trowexpandsub, TROWEXPANDSUB, PD_ROWEXP, PD_GEN_ANY)    \
  PD_SET_FI(PD_ONE, X, trowexpandmul, TROWEXPANDMUL, PD_ROWEXP, PD_GEN_ANY)    \
  PD_SET_F(PD_ONE, X, trowexpanddiv, TROWEXPANDDIV, PD_ROWEXP, PD_GEN_ANY)     \
  PD_SET_FI(PD_ONE, X, trowexpandmax, TROWEXPANDMAX, PD_ROWEXP, PD_GEN_ANY)    \
  PD_SET_FI(PD_ONE, X, trowexpandmin, TROWEXPANDMIN, PD_ROWEXP, PD_GEN_ANY)    \
  PD_SET_FI(PD_ONE, X, tcolexpandadd, TCOLEXPANDADD, PD_COLEXP, PD_GEN_ANY)    \
  PD_SET_FI(PD_ONE, X, tcolexpandsub, TCOLEXPANDSUB, PD_COLEXP, PD_GEN_ANY)    \
  PD_SET_FI(PD_ONE, X, tcolexpandmul, TCOLEXPANDMUL, PD_COLEXP, PD_GEN_ANY)    \
  PD_SET_F(PD_ONE, X, tcolexpanddiv, TCOLEXPANDDIV, PD_COLEXP, PD_GEN_ANY)     \
  PD_SET_FI(PD_ONE, X, tcolexpandmax, TCOLEXPANDMAX, PD_COLEXP, PD_GEN_ANY)    \
  PD_SET_FI(PD_ONE, X, tcolexpandmin, TCOLEXPANDMIN, PD_COLEXP, PD_GEN_ANY)    \
  /* the rest */                                                               \
  PD_SET_FI(PD_SCALARS, X, texpands, TEXPANDS, PD_EXPS, PD_GEN_ANY)                \
  PD_SET_F(PD_SCALARS, X, taxpy, TAXPY, PD_SCL, PD_GEN_ANY)                        \
  PD_SET_F(PD_ONE, X, tprelu, TPRELU, PD_BINT, PD_GEN_ANY)                     \
  PD_TCI_CASES(X, I32) PD_TCI_CASES(X, U32) PD_TCI_CASES(X, I16) PD_TCI_CASES(X, U16) \
  PD_TTRI_CASES(X, F32) PD_TTRI_CASES(X, F16) PD_TTRI_CASES(X, I32) PD_TTRI_CASES(X, I16) \
  /* tcvt with sat_mode ON / OFF: every pair of ptosim's tables but bf16 (src/isa/tile_cvt.c k_pairs) */ \
  PD_CVT_SAT(X, F16, F32) PD_CVT_SAT(X, F32, F32) PD_CVT_SAT(X, I16, F32) PD_CVT_SAT(X, I32, F32)          \
  PD_CVT_SAT(X, I64, F32) PD_CVT_SAT(X, F32, F16) PD_CVT_SAT(X, I32, F16) PD_CVT_SAT(X, I16, F16)          \
  PD_CVT_SAT(X, I8, F16) PD_CVT_SAT(X, U8, F16) PD_CVT_SAT(X, F16, I16) PD_CVT_SAT(X, F32, I16)            \
  PD_CVT_SAT(X, U8, I16) PD_CVT_SAT(X, U32, I16) PD_CVT_SAT(X, I32, I16) PD_CVT_SAT(X, F32, I32)           \
  PD_CVT_SAT(X, I16, I32) PD_CVT_SAT(X, U16, I32) PD_CVT_SAT(X, I64, I32) PD_CVT_SAT(X, U8, I32)           \
  PD_CVT_SAT(X, F16, I32) PD_CVT_SAT(X, F32, I64) PD_CVT_SAT(X, I32, I64) PD_CVT_SAT(X, F16, U8)           \
  PD_CVT_SAT(X, U16, U8) PD_CVT_SAT(X, F16, I8) PD_CVT_SAT(X, I16, I8) PD_CVT_SAT(X, I32, I8)              \
  PD_CVT_SAT(X, U8, U32) PD_CVT_SAT(X, U16, U32) PD_CVT_SAT(X, I16, U32)                                   \
  /* carries and fused forms (d also read by the fused ones) */                \
  PD_SET_FI(PD_ONE, X, taddc, TADDC, PD_TERN, PD_GEN_ANY)                      \
  PD_SET_FI(PD_ONE, X, tsubc, TSUBC, PD_TERN, PD_GEN_ANY)                      \
  PD_SET_FI(PD_ONE, X, taddsc, TADDSC, PD_SCLC, PD_GEN_ANY)                    \
  PD_SET_FI(PD_ONE, X, tsubsc, TSUBSC, PD_SCLC, PD_GEN_ANY)                    \
  PD_SET_FI(PD_ONE, X, tsubrelu, TSUBRELU, PD_BIN, PD_GEN_ANY)                 \
  PD_SET_FI(PD_ONE, X, tfusedmuladd, TFUSEDMULADD, PD_BIN, PD_GEN_ANY)         \
  PD_SET_FI(PD_ONE, X, tfusedmuladdrelu, TFUSEDMULADDRELU, PD_BIN, PD_GEN_ANY) \
  PD_SET_FI(PD_ONE, X, tmuladddst, TMULADDDST, PD_BIN, PD_GEN_ANY)             \
  /* tpow / tpows (integer exponents of every sign; the CPU simulator's i32 power wraps by \
     signed overflow, undefined in C++ but two's complement with clang -O2 on x86) */ \
  PD_SET_F(PD_ONE, X, tpow, TPOW, PD_BINT, PD_GEN_ANY)                         \
  PD_SET_IU(PD_ONE, X, tpow, TPOW, PD_BINT, PD_GEN_ANY)                        \
  PD_SET_F(PD_SCALARS, X, tpows, TPOWS, PD_SCLT, PD_GEN_ANY)                   \
  PD_SET_IU(PD_SCALARS, X, tpows, TPOWS, PD_SCLT, PD_GEN_ANY)                  \
  /* HIGH_PRECISION (the CPU simulator takes the template argument and ignores it) */ \
  PD_SET_F(PD_HIGH, X, tdiv, TDIV<DivAlgorithm::HIGH_PRECISION>, PD_BIN, PD_GEN_ANY)            \
  PD_SET_F(PD_HIGH, X, tdivs, TDIVS<DivAlgorithm::HIGH_PRECISION>, PD_SCL, PD_GEN_ANY)          \
  PD_SET_F(PD_HIGH, X, texp, TEXP<ExpAlgorithm::HIGH_PRECISION>, PD_UN, PD_GEN_ANY)             \
  PD_SET_F(PD_HIGH, X, tlog, TLOG<LogAlgorithm::HIGH_PRECISION>, PD_UN, PD_GEN_ANY)             \
  PD_SET_F(PD_HIGH, X, tsqrt, TSQRT<SqrtAlgorithm::HIGH_PRECISION>, PD_UN, PD_GEN_ANY)          \
  PD_SET_F(PD_HIGH, X, trsqrt, TRSQRT<RsqrtAlgorithm::HIGH_PRECISION>, PD_UN, PD_GEN_ANY)       \
  PD_SET_F(PD_HIGH, X, trecip, TRECIP<RecipAlgorithm::HIGH_PRECISION>, PD_UN, PD_GEN_ANY)       \
  PD_SET_F(PD_HIGH, X, tfmod, TFMOD<FmodAlgorithm::HIGH_PRECISION>, PD_BIN, PD_GEN_ANY)         \
  PD_SET_F(PD_HIGH, X, trem, TREM<RemAlgorithm::HIGH_PRECISION>, PD_BINT, PD_GEN_ANY)           \
  PD_SET_F(PD_HIGH, X, tpow, TPOW<PowAlgorithm::HIGH_PRECISION>, PD_BINT, PD_GEN_ANY)           \
  PD_SET_F(PD_HIGH, X, tpows, TPOWS<PowAlgorithm::HIGH_PRECISION>, PD_SCLT, PD_GEN_ANY)         \
  /* integer division (src1 / scalar never 0 or a trapping MIN / -1), the scalar first, wide shifts */ \
  PD_SET_IU(PD_ONE, X, tdiv, TDIV, PD_BIN, PD_GEN_NZ)                          \
  PD_SET_IU(PD_ONE, X, tdivs, TDIVS, PD_SCL, PD_GEN_NZ)                        \
  PD_SET_I(PD_ONE, X, trem, TREM, PD_BINT, PD_GEN_NZ)                          \
  PD_SET_I(PD_ONE, X, tfmod, TFMOD, PD_BIN, PD_GEN_NZ)                         \
  PD_SET_F(PD_SCALARS, X, tdivs, TDIVS, PD_RSCL, PD_GEN_ANY)                   \
  X(tshl, TSHL, PD_BIN, PD_GEN_WIDE, I16, I16, 0) X(tshl, TSHL, PD_BIN, PD_GEN_WIDE, U16, U16, 0)          \
  X(tshr, TSHR, PD_BIN, PD_GEN_WIDE, I16, I16, 0) X(tshr, TSHR, PD_BIN, PD_GEN_WIDE, U16, U16, 0)          \
  X(tshls, TSHLS, PD_SCL, PD_GEN_WIDE, I16, I16, 0) X(tshls, TSHLS, PD_SCL, PD_GEN_WIDE, U16, U16, 0)      \
  X(tshrs, TSHRS, PD_SCL, PD_GEN_WIDE, I16, I16, 0) X(tshrs, TSHRS, PD_SCL, PD_GEN_WIDE, U16, U16, 0)      \
  /* predicate tiles: compares write one, selects read one */                  \
  PD_CMP_SET(X, tcmp, TCMP, PD_CMP) PD_CMP_SET(X, tcmps, TCMPS, PD_CMPS)        \
  PD_SET_FI(PD_ONE, X, tsel, TSEL, PD_SEL, PD_GEN_ANY) X(tsel, TSEL, PD_SEL, PD_GEN_ANY, I8, I8, 0)        \
  PD_SET_FI(PD_SCALARS, X, tsels, TSELS, PD_SELS, PD_GEN_ANY)

/* ---- geometry ---------------------------------------------------------------------- */

/* Static tiles: PD_ROWS rows of 256 bytes of the widest element type of the case
 * (16 x 64 f32, 16 x 128 f16, 16 x 256 i8, 16 x 32 i64). Two shapes each: 0 = a valid region
 * smaller than the tile (13 x 45 / 11 x 100 / 11 x 200 / 11 x 23: 4-, 2-, 1-, 8-byte), 1 = the
 * full tile. */
enum { PD_ROWS = 16, PD_ROW_BYTES = 256, PD_SHAPES = 2 };
/* Predicate tiles (tcmp / tcmps dst, tsel / tsels mask): PD_ROWS rows of PD_PRED_BYTES bytes,
 * one bit per element of the 256-byte source rows of any type (at most 256 elements). */
enum { PD_PRED_BYTES = 32 };
/* UB byte offsets of the operands (the same on both sides): each tile is at most 4 KiB. */
enum { PD_A_ADDR = 0, PD_C_ADDR = 4096, PD_B_ADDR = 8192, PD_M_ADDR = 12288, PD_T_ADDR = 16384, PD_D_ADDR = 24576,
       PD_UB_BYTES = 32768 };

static inline int pd_cols(int widest_bytes) { return PD_ROW_BYTES / widest_bytes; }
static inline void pd_valid(int shape, int widest_bytes, int *vr, int *vc) {
  static const int partial_cols[9] = {0, 200, 100, 0, 45, 0, 0, 0, 23};
  *vr = shape ? PD_ROWS : widest_bytes == 4 ? 13 : 11;
  *vc = shape ? pd_cols(widest_bytes) : partial_cols[widest_bytes];
}

/* One operand tile: static rows x cols, valid vr x vc, row- or column-major (storage offset
 * of (r, c): r * cols + c, or c * rows + r). */
typedef struct pd_geom {
  int rows, cols, vr, vc, col_major;
} pd_geom;
static inline int pd_off(const pd_geom *g, int r, int c) { return g->col_major ? c * g->rows + r : r * g->cols + c; }
static inline int pd_elems(const pd_geom *g) { return g->rows * g->cols; }

/* The tiles of a case at a shape: a (src0), b (src1, or the per-row / per-column operand),
 * c (src2 of taddc / tsubc), d (dst), m (the u8 predicate tile: tcmp / tcmps's dst, also in d,
 * tsel / tsels's mask). Tiles a kind does not use get the shape of a. */
typedef struct pd_shape {
  pd_geom a, b, c, d, m;
} pd_shape;
static inline pd_shape pd_shape_of(enum pd_kind k, int dbytes, int sbytes, int shape) {
  int w = dbytes > sbytes ? dbytes : sbytes, vr, vc;
  if (pd_pred_dst(k)) w = sbytes; /* dst holds bits */
  pd_valid(shape, w, &vr, &vc);
  pd_geom full = {PD_ROWS, pd_cols(w), vr, vc, 0};
  pd_geom col = {PD_ROWS, 1, vr, 1, 1};          /* one value per row: a DN column */
  pd_geom row = {1, pd_cols(w), 1, vc, 0};       /* one value per column: one row */
  /* Predicate tile: valid columns one byte per 8 columns of a's whole row (cpu/TCmps.hpp packs
   * Cols / 8 bytes per source row into that many valid columns), the mask of tsel / tsels
   * every byte (cpu/TSel.hpp moves to the next mask row after its valid columns). */
  pd_geom pred = {PD_ROWS, PD_PRED_BYTES, vr, pd_pred_dst(k) ? pd_cols(w) / 8 : PD_PRED_BYTES, 0};
  pd_shape s = {full, full, full, full, pred};
  switch (k) {
  case PD_ROWRED: s.d = col; break;
  case PD_COLRED:
  case PD_TCI: s.d = row; break; /* pto-isa's TCI takes a 1-row tile (cpu/TCI.hpp:32) */
  case PD_ROWBC: s.a = col; break;
  case PD_COLBC: s.a = row; break;
  case PD_ROWEXP: s.b = col; break;
  case PD_COLEXP: s.b = row; break;
  case PD_CMP:
  case PD_CMPS: s.d = pred; break;
  default: break;
  }
  return s;
}

/* ---- inputs ------------------------------------------------------------------------ */

/* Operand ids of the generator: src0, src1, the scalar, dst's initial valid region (taxpy
 * reads it; other ops overwrite it). */
enum { PD_OPND_A, PD_OPND_B, PD_OPND_S, PD_OPND_D };
/* Bytes outside dst's valid region on both sides before the op. */
enum { PD_SENTINEL = 0x5A };

static inline uint64_t pd_mix(uint64_t x) { /* splitmix64 finalizer */
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Bits of a float of `bytes` bytes (f32 / f16): sign, exponent field, mantissa field. */
static inline uint64_t pd_fbits(int bytes, uint64_t sign, uint64_t exp, uint64_t man) {
  int mb = bytes == 4 ? 23 : 10, eb = bytes == 4 ? 8 : 5;
  return sign << (mb + eb) | exp << mb | (man & ((1ull << mb) - 1));
}

/* Element i of operand `opnd` of case `seed` under profile g, as raw bits of dtype dt. */
static inline uint64_t pd_input(enum pd_dt dt, enum pd_gen g, uint32_t seed, int opnd, int i) {
  const struct pd_dtinfo *t = &pd_dtinfo[dt];
  uint64_t h = pd_mix(((uint64_t)seed << 40) ^ ((uint64_t)opnd << 32) ^ (uint32_t)i);
  uint64_t r = pd_mix(h), bits = (uint64_t)t->bytes * 8, mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  int count = pd_is_shift(g) && opnd == PD_OPND_B;
  int special = (h & 7) == 0 && g != PD_GEN_NARROW && g != PD_GEN_POS && !count;
  if (!t->is_float) {
    uint64_t min = t->is_signed ? 1ull << (bits - 1) : 0, max = t->is_signed ? min - 1 : mask;
    if (count) return r % (g == PD_GEN_WIDE ? 2 * bits : bits);
    if (g == PD_GEN_NARROW) return (r % 5) & mask; /* 0..4: products wrap rarely */
    uint64_t v = r & mask;
    if (special) {
      const uint64_t sp[5] = {min, max, 0, mask, 1}; /* MIN, MAX, 0, -1 (unsigned: MAX), 1 */
      v = sp[(h >> 3) % 5] & mask;
    }
    /* A divisor: not 0, and no MIN / -1 (the host traps on them). */
    if (g == PD_GEN_NZ && opnd != PD_OPND_A && (v == 0 || v == mask || (t->is_signed && v == min))) v = 3;
    return v;
  }
  int eb = t->bytes == 4 ? 8 : 5, bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 1;
  uint64_t sign = g == PD_GEN_POS ? 0 : r >> 63;
  if (special) {
    int n = g == PD_GEN_FIN ? 7 : 10;
    switch ((h >> 3) % (uint64_t)n) {
    case 0: return pd_fbits(t->bytes, sign, 0, 0);                   /* +-0 */
    case 1: return pd_fbits(t->bytes, sign, 0, r >> 7 | 1);          /* subnormal */
    case 2: return pd_fbits(t->bytes, sign, 0, 1);                   /* +-min subnormal */
    case 3: return pd_fbits(t->bytes, sign, 1, 0);                   /* +-min normal */
    case 4: return pd_fbits(t->bytes, sign, (uint64_t)emax - 1, ~0ull); /* +-max finite */
    case 5: return pd_fbits(t->bytes, sign, (uint64_t)bias, 0);      /* +-1 */
    case 6: return pd_fbits(t->bytes, sign, (uint64_t)bias + 1, 1ull << (eb == 8 ? 22 : 9)); /* +-3 */
    case 7: return pd_fbits(t->bytes, sign, (uint64_t)emax, 0);      /* +-inf */
    case 8: return pd_fbits(t->bytes, 0, (uint64_t)emax, 1ull << (eb == 8 ? 22 : 9)); /* qNaN */
    default: return pd_fbits(t->bytes, 1, (uint64_t)emax, 1);        /* sNaN-pattern NaN, negative */
    }
  }
  /* Random magnitudes 2^-5 .. 2^5 (NARROW: [0.5, 2)), every mantissa bit random. */
  int e = g == PD_GEN_NARROW ? bias - 1 + (int)((r >> 40) & 1) : bias - 5 + (int)((r >> 40) % 11);
  return pd_fbits(t->bytes, sign, (uint64_t)e, r);
}

/* The scalar of a case, choice pd_sc(param): 0 a random positive finite value (integers: random
 * bits), 1 the same negative (integers: top bit set), 2 zero, 3 a quiet NaN (integers: MIN,
 * unsigned MAX). Shift counts: in [0, width) (WIDE: [width, 2 * width)); divisors (NZ): as
 * src1's. */
static inline uint64_t pd_scalar(enum pd_dt dt, enum pd_gen g, uint32_t seed, int choice) {
  const struct pd_dtinfo *t = &pd_dtinfo[dt];
  int bits = t->bytes * 8;
  uint64_t top = 1ull << (bits - 1), v;
  if (pd_is_shift(g)) return pd_input(dt, PD_GEN_SHIFT, seed, PD_OPND_B, 0) + (g == PD_GEN_WIDE ? (uint64_t)bits : 0);
  v = pd_input(dt, g == PD_GEN_NZ ? g : PD_GEN_POS, seed, g == PD_GEN_NZ ? PD_OPND_B : PD_OPND_S, 0);
  switch (choice) {
  case 1: return v | top;
  case 2: return 0;
  case 3: return t->is_float ? pd_fbits(t->bytes, 0, bits == 32 ? 0xFF : 0x1F, 1ull << (bits == 32 ? 22 : 9))
                 : t->is_signed ? top : (top << 1) - 1;
  default: return v;
  }
}

static inline void pd_store(void *base, int bytes, int idx, uint64_t v) {
  memcpy((char *)base + (size_t)idx * bytes, &v, (size_t)bytes); /* little-endian host */
}
static inline uint64_t pd_load(const void *base, int bytes, int idx) {
  uint64_t v = 0;
  memcpy(&v, (const char *)base + (size_t)idx * bytes, (size_t)bytes);
  return v;
}

/* Fill a source tile: every element of its storage (valid or not) from the generator. */
static inline void pd_fill_src(void *buf, const pd_geom *g, enum pd_dt dt, enum pd_gen gen, uint32_t seed, int opnd) {
  for (int i = 0; i < pd_elems(g); i++) pd_store(buf, pd_dtinfo[dt].bytes, i, pd_input(dt, gen, seed, opnd, i));
}
/* Fill dst: the sentinel everywhere, then its valid region from the generator. */
static inline void pd_fill_dst(void *buf, const pd_geom *g, enum pd_dt dt, enum pd_gen gen, uint32_t seed) {
  int es = pd_dtinfo[dt].bytes;
  memset(buf, PD_SENTINEL, (size_t)pd_elems(g) * es);
  for (int r = 0; r < g->vr; r++)
    for (int c = 0; c < g->vc; c++) pd_store(buf, es, pd_off(g, r, c), pd_input(dt, gen, seed, PD_OPND_D, pd_off(g, r, c)));
}

/* The predicate of element (r, c) of tsel / tsels's mask: a random bit. */
static inline int pd_mask_bit(uint32_t seed, int r, int c) { return (int)(pd_mix(((uint64_t)seed << 40) ^ 0x4D00000000ull ^ (uint64_t)(r * 256 + c)) & 1); }
/* Bit (r, c) of a predicate tile of PD_PRED_BYTES-byte rows, laid out as ptosim packs it
 * (docs/spec-notes.md section 19.1: element (r, c) is bit c % 8 of byte r * cols + c / 8) and as
 * the CPU simulator packs it in this tool's geometry: TCMP (cpu/TCmp.h TCmp) writes u32 words
 * (r, c / 32), bit c % 32, which on a little-endian host is the same byte and bit of a row of 8
 * words; TCMPS (cpu/TCmps.hpp TCmps) packs Cols / 8 bytes per source row into dst rows of as
 * many valid columns (pd_shape_of), byte j of row r at (r, j); TSELS (cpu/TSelS.hpp) reads the
 * mask at (r, c / 8). TSEL (cpu/TSel.hpp TSel_Impl) differs: it reads the bits as one stream
 * over the valid region, row after row (bit k = r * vc + c at byte k / 8 of a mask whose valid
 * columns are all its columns): stream = 1. */
static inline int pd_pred_off(int vc, int r, int c, int stream, int *bit) {
  int k = stream ? r * vc + c : r * PD_PRED_BYTES * 8 + c;
  *bit = k % 8;
  return k / 8;
}
static inline int pd_pred_bit(const void *tile, int vc, int r, int c, int stream) {
  int bit, off = pd_pred_off(vc, r, c, stream, &bit);
  return ((const uint8_t *)tile)[off] >> bit & 1;
}
/* Fill a mask tile: random bytes, then bit (r, c) of a's valid region (vr x vc) set to
 * pd_mask_bit in the layout above. */
static inline void pd_fill_mask(void *tile, int vr, int vc, uint32_t seed, int stream) {
  uint8_t *m = (uint8_t *)tile;
  for (int i = 0; i < PD_ROWS * PD_PRED_BYTES; i++) m[i] = (uint8_t)pd_mix(((uint64_t)seed << 40) ^ 0x4E00000000ull ^ (uint64_t)i);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      int bit, off = pd_pred_off(vc, r, c, stream, &bit);
      m[off] = (uint8_t)((m[off] & ~(1u << bit)) | (unsigned)pd_mask_bit(seed, r, c) << bit);
    }
}

/* The seed of case number n (its place in PD_CASES) at a shape. */
static inline uint32_t pd_seed(int n, int shape) { return (uint32_t)(n * PD_SHAPES + shape + 1); }

#endif
