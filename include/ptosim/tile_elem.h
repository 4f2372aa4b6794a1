/* ptosim — parameter block of the elementwise vector tile ops (src/isa/tile_elem.c,
 * src/isa/tile_cvt.c): tile-tile, tile-scalar, unary, fused and conversion forms
 * (pto-isa docs/isa/tile/ops/elementwise-tile-tile/, tile-scalar-and-immediate/).
 *
 * Every op iterates over the valid region of dst (valid_rows x valid_cols); element (r, c)
 * of each operand is read at that operand's own address of (r, c), and nothing of dst
 * outside its valid region is written. Which fields an op reads is its row in
 * src/isa/ops.def; the others are ignored. docs/spec-notes.md section 14 has the readings. */
#ifndef PTOSIM_TILE_ELEM_H
#define PTOSIM_TILE_ELEM_H

#include <stdbool.h>
#include <stdint.h>

#include "ptosim/tile.h"
#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rounding of tcvt, in PTOAS RoundMode order (PTOAttrs.td). NONE and CAST_RINT round to
 * nearest even, ROUND to nearest away from zero, ODD to odd. */
typedef enum ptosim_round_mode {
  PTOSIM_RM_NONE = 0,
  PTOSIM_RM_RINT,
  PTOSIM_RM_ROUND,
  PTOSIM_RM_FLOOR,
  PTOSIM_RM_CEIL,
  PTOSIM_RM_TRUNC,
  PTOSIM_RM_ODD,
  PTOSIM_RM_CAST_RINT
} ptosim_round_mode;

/* Saturation of tcvt (PTOAS SaturationMode, attribute sat_mode). DEFAULT (attribute
 * omitted): OFF for the narrowing pairs f16 -> i8 / u8, f32 / f16 -> i16, i32 -> i16,
 * i64 -> i32, ON for every other pair (pto-isa a2a3 / a5 TCvt.hpp TCVT_IMPL). ON: integer
 * results clamp to their range (NaN -> 0). OFF: integer results keep the low bits of the
 * rounded value (clamped to 64 bits first). A2/A3 without a tmp tile honours OFF only for the
 * narrowing pairs. Float results follow IEEE, except A5's f32 -> f16 / bf16 (and integer ->
 * 16-bit float) with ON: +-inf and overflows give +-max finite, NaN gives 0
 * (docs/spec-notes.md section 14). */
typedef enum ptosim_tsat_mode { PTOSIM_TSAT_DEFAULT = 0, PTOSIM_TSAT_ON, PTOSIM_TSAT_OFF } ptosim_tsat_mode;

/* Comparison of tcmp / tcmps, in PTOAS CmpMode order (PTOAttrs.td; text `#pto<cmp lt>`).
 * Floats compare as IEEE: every mode but NE is false when an operand is NaN. */
typedef enum ptosim_tcmp_mode {
  PTOSIM_TCMP_EQ = 0,
  PTOSIM_TCMP_NE,
  PTOSIM_TCMP_LT,
  PTOSIM_TCMP_LE,
  PTOSIM_TCMP_GT,
  PTOSIM_TCMP_GE
} ptosim_tcmp_mode;

/* Predicate tiles (the dst of tcmp / tcmps, the mask of tsel / tsels): 8-bit integer vec
 * tiles, one bit per element: element (r, c) is bit c % 8 of byte r * cols + c / 8. */
typedef struct ptosim_telem_params {
  ptosim_tile dst;
  ptosim_tile src0;          /* first tile source (the only one of unary forms) */
  ptosim_tile src1;          /* second tile source of binary, ternary and *sc forms */
  ptosim_tile src2;          /* third tile source of taddc / tsubc */
  ptosim_tile tmp;           /* scratch tile of forms whose PTOAS spelling takes one: checked, never read */
  bool has_tmp;              /* tmp was given (optional for tcvt) */
  bool no_tmp;               /* txor, txors, trem, trems, tprelu written without tmp (PTOAS
                                materializes one; the result does not depend on it): tmp is
                                neither checked nor touched */
  ptosim_scalar scalar;      /* scalar operand of *s forms, texpands, tlrelu (slope), taxpy; converted
                                to the element type of src0 (texpands: of dst) before use */
  bool scalar_first;         /* tdivs: d = s / a instead of a / s */
  ptosim_round_mode rmode;   /* tcvt */
  ptosim_tsat_mode sat;      /* tcvt */
  ptosim_tile mask;          /* tsel / tsels: the predicate tile */
  ptosim_tcmp_mode cmp;      /* tcmp / tcmps */
  bool high_precision;       /* precisionType = high_precision (PTOAS pow / exp / log / sqrt / rsqrt /
                                recip / div / fmod / rem_precision) of tpow, tpows, texp, tlog, tsqrt,
                                trsqrt, trecip, tdiv, tdivs, tfmod, trem:
                                the a5 HIGH_PRECISION algorithm (floats only); a2a3 takes the
                                parameter and computes as DEFAULT. texp, tlog: the lanes whose
                                result / source is at most the type's largest subnormal get the
                                scaled formula; trecip: subnormal results are rounded twice;
                                tsqrt, trsqrt compute as DEFAULT (IEEE) (docs/spec-notes.md section 32).
                                tdiv, tdivs (div_precision): the a5 Div754.hpp sequences, subnormal
                                quotients rounded twice; tfmod (fmod_precision), trem
                                (rem_precision): see docs/spec-notes.md section 33 */
} ptosim_telem_params;

#ifdef __cplusplus
}
#endif
#endif
