/* ptosim — parameter blocks of the A5 vector reductions (vpto docs/isa/micro-isa/10) and
 * in-register data rearrangement (micro-isa 12, pto-isa docs/isa/vector/ops/data-rearrangement).
 *
 * Register operands point to ptosim_vreg / ptosim_vmask values (vreg.h); a result may alias
 * a source. Lane i of a T-typed register is active when bit i * sizeof(T) of the governing
 * mask is set. The semantics settled against the corpus goldens and pto-isa's A5 code are in
 * docs/spec-notes.md section 15; in short:
 *   - vcadd / vcgadd / vcpadd sum with an adjacent-pair tree (level by level, every partial
 *     sum rounded to T); inactive lanes add 0;
 *   - the eight group results of vcgadd / vcgmax / vcgmin land in lanes 0..7;
 *   - vcpadd is the pair sum dst[i] = src[2i] + src[2i+1], i < N/2 (upper half 0).
 *
 * Ops that take the syntax of other families reuse their params: vsqz / vusqz take
 * ptosim_vunary_params (src, mask), vperm takes ptosim_vselr_params (src, idx). */
#ifndef PTOSIM_VEC_REDUCE_H
#define PTOSIM_VEC_REDUCE_H

#include "ptosim/types.h"
#include "ptosim/vec_conv.h"
#include "ptosim/vreg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.vcadd vcmax vcmin vcgadd vcgmax vcgmin vcpadd vcbmax vcbmin: dst = reduce(src, mask).
 * dtype is the source element type; dst_type the declared result element type (vcadd of
 * 8- / 16-bit integers widens to 16 / 32 bits), PTOSIM_DT_NONE to take the op's own.
 * pred is the predicate result of vcbmax / vcbmin (NULL for the others). mask_bits: as in
 * vec_arith.h (0: unchecked). */
typedef struct ptosim_vreduce_params {
  ptosim_vreg *dst;
  ptosim_vmask *pred;
  const ptosim_vreg *src;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  ptosim_dtype dst_type;
  unsigned mask_bits;
} ptosim_vreduce_params;

/* pto.vintlv / vdintlv: (low, high) = the interleave / deinterleave of src0, src1;
 * pto.vintlvv2 / vdintlvv2: the one half `part` selects is written to low (high unused). */
typedef struct ptosim_vintlv_params {
  ptosim_vreg *low;
  ptosim_vreg *high;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  ptosim_pred_half part;
  ptosim_dtype dtype;
} ptosim_vintlv_params;

/* pto.vpack: each src lane truncated to half width into the `part` half of dst, the other
 * half 0 (i32 / u32 -> u16, i16 / u16 -> u8). dst_type NONE: the unsigned half-width type. */
typedef struct ptosim_vpack_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  ptosim_pred_half part;
  ptosim_dtype src_type;
  ptosim_dtype dst_type;
} ptosim_vpack_params;

/* pto.vsunpack / vzunpack: dst[i] = extend(src[part * N/2 + i]), i < N/2 (N source lanes,
 * part 0 or 1), sign- or zero-extended to twice the width. dst_type NONE: the double-width
 * type of src_type's signedness. */
typedef struct ptosim_vunpack_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  int64_t part;
  ptosim_dtype src_type;
  ptosim_dtype dst_type;
} ptosim_vunpack_params;

/* pto.vslide: dst[i] = (src1 ++ src0)[N - amount + i]: src0 moved up by amount lanes, the
 * vacated low lanes taken from the top of src1; pto.vshift: the same with src1 = 0 (src1
 * NULL). 0 <= amount <= N. */
typedef struct ptosim_vslide_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  int64_t amount;
  ptosim_dtype dtype;
} ptosim_vslide_params;

#ifdef __cplusplus
}
#endif
#endif
