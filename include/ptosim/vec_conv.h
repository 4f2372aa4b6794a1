/* ptosim — parameter blocks of the A5 vector-core predicate, materialization and conversion
 * ops (vpto docs/isa/micro-isa/05-materialization-predicate.md, 09-conversion-ops.md;
 * src/isa/vec_pred.c, src/isa/vec_conv.c).
 *
 * Register operands are pointers into the caller's register storage; a result may alias a
 * source. Every op here is register-only: it reads and writes no memory. Lanes, masks and
 * granularities are as in ptosim/vreg.h: a _b8 / _b16 / _b32 predicate op works on lanes of
 * 1 / 2 / 4 predicate bits (one per byte of a 8 / 16 / 32-bit vector lane), lane i of a
 * T-typed register is active when mask bit i * sizeof(T) is set. */
#ifndef PTOSIM_VEC_CONV_H
#define PTOSIM_VEC_CONV_H

#include <stdint.h>

#include "ptosim/ops.h" /* ptosim_scalar */
#include "ptosim/types.h"
#include "ptosim/vreg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- predicate generation (pset_b*, pge_b*) ---------------------------------------------
 * Pattern tokens with their hardware encodings (PTOAS VPTOLLVMEmitter.cpp:728 parsePredicatePatternImmediate).
 * Over the L lanes of the op's granularity: ALL every lane, ALLF none, VLn lanes [0, n),
 * H lanes [0, L/2), Q lanes [0, L/4), M3 lanes with i % 3 == 0, M4 lanes with i % 4 == 0
 * (docs/spec-notes.md section 11). */
typedef enum ptosim_pred_pattern {
  PTOSIM_PAT_ALL = 0,
  PTOSIM_PAT_VL1 = 1,
  PTOSIM_PAT_VL2 = 2,
  PTOSIM_PAT_VL3 = 3,
  PTOSIM_PAT_VL4 = 4,
  PTOSIM_PAT_VL8 = 5,
  PTOSIM_PAT_VL16 = 6,
  PTOSIM_PAT_VL32 = 7,
  PTOSIM_PAT_VL64 = 8,
  PTOSIM_PAT_VL128 = 9,
  PTOSIM_PAT_M3 = 10,
  PTOSIM_PAT_M4 = 11,
  PTOSIM_PAT_H = 12,
  PTOSIM_PAT_Q = 13,
  PTOSIM_PAT_ALLF = 15
} ptosim_pred_pattern;

typedef struct ptosim_pset_params {
  ptosim_vmask *dst;
  ptosim_pred_pattern pattern;
} ptosim_pset_params;

/* plt_b*: lanes [0, min(count, L)) active; *count_out = count < L ? 0 : count - L.
 * count is the i32 operand read as unsigned 32 bits (the CCE uint32_t & post-update form);
 * count_out receives the i32 result (sign-extended). */
typedef struct ptosim_plt_params {
  ptosim_vmask *dst;
  int64_t count;
  int64_t *count_out;
} ptosim_plt_params;

/* pltm_b*: lane i of L = 256 / g lanes active when loop * L + i < bound; loop is the i16
 * operand read as unsigned 16 bits, bound the i32 operand read as unsigned 32 bits (as
 * plt_b* reads its count). No carry-out. */
typedef struct ptosim_pltm_params {
  ptosim_vmask *dst;
  int64_t loop;
  int64_t bound;
} ptosim_pltm_params;

/* ---- predicate logic --------------------------------------------------------------------
 * pand / por / pxor: dst = (src0 op src1) & mask, bit by bit over all 256 bits (the governing
 * mask zeroes what it does not select). psel: dst = (src0 & mask) | (src1 & ~mask), mask being
 * the selector. */
typedef struct ptosim_pbin_params {
  ptosim_vmask *dst;
  const ptosim_vmask *src0;
  const ptosim_vmask *src1;
  const ptosim_vmask *mask;
} ptosim_pbin_params;

/* pnot: dst = ~src & mask. */
typedef struct ptosim_pnot_params {
  ptosim_vmask *dst;
  const ptosim_vmask *src;
  const ptosim_vmask *mask;
} ptosim_pnot_params;

/* ppack / punpack half selector. */
typedef enum ptosim_pred_half { PTOSIM_PART_LOWER = 0, PTOSIM_PART_HIGHER = 1 } ptosim_pred_half;

/* ppack: bit j of the selected 128-bit half = src bit 2j, the other half 0.
 * punpack: dst bit 2i = src bit i of the selected half, dst bit 2i+1 = 0 (i < 128).
 * pbitcast: dst = src (part ignored). */
typedef struct ptosim_ppart_params {
  ptosim_vmask *dst;
  const ptosim_vmask *src;
  ptosim_pred_half part;
} ptosim_ppart_params;

/* pintlv_b*: the lanes of src0 and src1 alternate (src0 lane i -> lane 2i, src1 lane i ->
 * lane 2i + 1 of a 2L-lane sequence); low gets lanes [0, L), high [L, 2L).
 * pdintlv_b*: over the 2L-lane sequence src0 then src1, low gets the even lanes and high
 * the odd ones. A lane moves with all its 1 / 2 / 4 bits. */
typedef struct ptosim_ppair_params {
  ptosim_vmask *low;
  ptosim_vmask *high;
  const ptosim_vmask *src0;
  const ptosim_vmask *src1;
} ptosim_ppair_params;

/* ---- materialization -------------------------------------------------------------------- */

/* vbr: every lane = value (lane width = size of value.dtype: 1, 2 or 4 bytes; the low bytes
 * of value.bits). */
typedef struct ptosim_vbr_params {
  ptosim_vreg *dst;
  ptosim_scalar value;
} ptosim_vbr_params;

typedef enum ptosim_vdup_pos { PTOSIM_VDUP_LOWEST = 0, PTOSIM_VDUP_HIGHEST = 1 } ptosim_vdup_pos;

/* vdup: dst[i] = mask[i] ? v : 0 over the lanes of dtype, where v = value (src == NULL:
 * scalar form, value.dtype must be dtype's width) or src lane 0 (LOWEST) / lane N-1 (HIGHEST). */
typedef struct ptosim_vdup_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;      /* vector form, or NULL */
  ptosim_scalar value;         /* scalar form */
  const ptosim_vmask *mask;
  ptosim_dtype dtype;          /* element type of dst */
  ptosim_vdup_pos position;    /* vector form only */
} ptosim_vdup_params;

/* ---- conversion (09) -------------------------------------------------------------------- */

/* Rounding letters of vcvt / vtrc (PTOAS normalizeRoundModeToken; meanings from pto-isa
 * a5 TCvt.hpp tcvtDispatchByRound). NONE: the attribute is absent. */
typedef enum ptosim_vrnd {
  PTOSIM_VRND_NONE = 0,
  PTOSIM_VRND_R, /* nearest, ties to even */
  PTOSIM_VRND_A, /* nearest, ties away from zero (pto-isa tcvt.md CAST_ROUND) */
  PTOSIM_VRND_F, /* toward -inf */
  PTOSIM_VRND_C, /* toward +inf */
  PTOSIM_VRND_Z, /* toward zero */
  PTOSIM_VRND_O  /* to odd */
} ptosim_vrnd;

typedef enum ptosim_vsat { PTOSIM_VSAT_NONE = 0, PTOSIM_VSAT_SAT, PTOSIM_VSAT_NOSAT } ptosim_vsat;

/* Where a width-changing conversion puts / takes its lanes: EVEN / ODD for a 2:1 width ratio,
 * P0..P3 for 4:1. */
typedef enum ptosim_vpart {
  PTOSIM_VPART_NONE = 0,
  PTOSIM_VPART_EVEN,
  PTOSIM_VPART_ODD,
  PTOSIM_VPART_P0,
  PTOSIM_VPART_P1,
  PTOSIM_VPART_P2,
  PTOSIM_VPART_P3
} ptosim_vpart;

/* vcvt: with r = max(sizeof src, sizeof dst) / min(...) and k the part index (EVEN/P0 0,
 * ODD/P1 1, P2 2, P3 3):
 *   narrowing  dst lane r*i + k = convert(src lane i), the other dst lanes 0;
 *   widening   dst lane i = convert(src lane r*i + k);
 *   same width dst lane i = convert(src lane i).
 * A conversion is active when the mask bit of its source lane is set (granularity of the
 * source, b32 for 64-bit sources); inactive results are 0. Which of rnd / sat / part must be
 * given is fixed per type pair (PTOAS lookupVcvtContract). Integer results saturate with SAT
 * (or no sat attribute) and keep their low bytes with NOSAT; float results clamp to +-max and
 * NaN to 0 with SAT. When CTRL bit 60 is set, CTRL bit 59 (0: saturate) replaces the
 * attribute for the pairs pto-isa drives through CTRL (docs/spec-notes.md section 11). */
typedef struct ptosim_vcvt_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  const ptosim_vmask *mask;
  ptosim_dtype src_type;
  ptosim_dtype dst_type;
  ptosim_vrnd rnd;
  ptosim_vsat sat;
  ptosim_vpart part;
} ptosim_vcvt_params;

/* vtrc: dst[i] = mask[i] ? round_to_integral(src[i], rnd) : 0, same float type (f16, bf16,
 * f32); rnd is one of R A F C Z. */
typedef struct ptosim_vtrc_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  ptosim_vrnd rnd;
} ptosim_vtrc_params;

typedef enum ptosim_vci_order { PTOSIM_VCI_ASC = 0, PTOSIM_VCI_DESC = 1 } ptosim_vci_order;

/* vci: dst[i] = base + i (ASC) or base - i (DESC), every lane, in the type of base
 * (i8/i16/i32 and unsigned forms wrap; f16/f32 round to nearest even). */
typedef struct ptosim_vci_params {
  ptosim_vreg *dst;
  ptosim_scalar base;
  ptosim_vci_order order;
} ptosim_vci_params;

/* vbitcast: dst = src, all 256 bytes (only the element types change). */
typedef struct ptosim_vbitcast_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
} ptosim_vbitcast_params;

#ifdef __cplusplus
}
#endif
#endif
