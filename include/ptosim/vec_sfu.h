/* ptosim — parameter blocks of the A5 vector gathers and scatters (vpto docs/isa/micro-isa/
 * 03-vector-load-store.md, executed by src/isa/vec_gather.c) and of the DSA/SFU ops
 * (13-dsa-sfu-ops.md, src/isa/vec_sfu.c). Memory is UB only. Evidence and decisions:
 * docs/spec-notes.md section 13.
 *
 * Gathers and scatters (units):
 * - The offsets register is read as UNSIGNED lanes of its element width W (2 or 4 bytes;
 *   pto-isa a5 casts the index register to vector_u16 / vector_u32), so there are 256 / W
 *   lanes and lane i is active when mask bit i * W is set. A negative i32 offset is a huge
 *   unsigned one and lands outside UB (rule mem.bounds).
 * - vgather2 / vgather2_bc / vscatter: lane i addresses UB[base + off[i] * E, + E) where E
 *   is the byte size of the pointer's element type (E <= W; a narrower element sits in the
 *   low bytes of its lane, the rest of the lane is 0). The base must be E-aligned, which
 *   makes every lane address E-aligned.
 * - vgatherb: block b < 8 of the result (32 B) = UB[base + off_u32[b], + 32); base and every
 *   active off[b] 32-byte aligned; block b is active when mask bit 4 * b is set (b32 lanes).
 * - Inactive lanes / blocks issue no access (they may point anywhere) and read as 0.
 * - vscatter: lanes are stored in ascending lane order, so when indices alias the highest
 *   active lane wins (the spec leaves the winner implementation-defined). */
#ifndef PTOSIM_VEC_SFU_H
#define PTOSIM_VEC_SFU_H

#include <stdint.h>

#include "ptosim/types.h"
#include "ptosim/vec_conv.h"
#include "ptosim/vreg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.vgather2 / vgather2_bc / vgatherb: dst = the lanes (blocks) of UB the offsets name. */
typedef struct ptosim_vgather_params {
  ptosim_vreg *dst;
  ptosim_ptr base;             /* ub; its dtype gives E */
  const ptosim_vreg *offsets;
  ptosim_dtype offset_type;    /* i16/u16 or i32/u32 (vgatherb: 32-bit only) */
  const ptosim_vmask *mask;
  unsigned mask_bits;          /* granularity of the mask's type, 0 when unknown (C API) */
} ptosim_vgather_params;

/* pto.vscatter: UB[base + off[i] * E, + E) = low E bytes of src lane i, active lanes. */
typedef struct ptosim_vscatter_params {
  const ptosim_vreg *src;
  ptosim_ptr base;             /* ub; its dtype gives E */
  const ptosim_vreg *offsets;
  ptosim_dtype offset_type;    /* i16/u16 or i32/u32 */
  const ptosim_vmask *mask;
  unsigned mask_bits;
} ptosim_vscatter_params;

/* DSA/SFU vreg -> vreg ops (13-dsa-sfu-ops.md). Zeroing predication: inactive lanes of every
 * result are 0 (vec_arith.h). pto.vprelu takes ptosim_vbinary_params (src0 = input, src1 =
 * the per-lane slope): dst = src0 >= 0 ? src0 : src0 * src1, f16 / f32. */

/* pto.vaxpy: dst = alpha * src0 + src1 (f16 / f32; two roundings, as the corpus golden). */
typedef struct ptosim_vaxpy_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  ptosim_scalar alpha;         /* of the element type */
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vaxpy_params;

/* pto.vmula: dst = acc + src0 * src1; pto.vmadd (same struct): dst = acc * src0 + src1
 * (f16 / bf16 / f32). Floats (f16, f32) fused, one rounding of the exact
 * result to f32 (f16: then to f16); 16- and 32-bit integers wrap. */
typedef struct ptosim_vmula_params {
  ptosim_vreg *dst;
  const ptosim_vreg *acc;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vmula_params;

/* pto.vmull: (low, high) = the low and high 32 bits of the 64-bit product src0 * src1 of
 * i32 (signed) or u32 (unsigned) lanes. */
typedef struct ptosim_vmull_params {
  ptosim_vreg *low;
  ptosim_vreg *high;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vmull_params;

/* pto.vexpdif: dst = exp(src - max) in f32 (the difference rounded to f32 first, then exp
 * rounded once). f32 sources: 64 lanes, dst[i] from lane i (part has no effect). f16
 * sources: 128 lanes, dst[j] from source lane 2j + part (EVEN = 0, ODD = 1), j < 64; a
 * result lane is active when the b16 mask bit of its source lane is set. */
typedef struct ptosim_vexpdif_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  const ptosim_vreg *max;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;          /* of src and max: f16 or f32 */
  unsigned mask_bits;
  unsigned part;               /* 0 EVEN, 1 ODD */
} ptosim_vexpdif_params;

/* pto.chistv2 / pto.dhistv2: 128 u16 bins of a 256-bin histogram of the active u8 lanes of
 * src (b8 mask); bin selects the half: result lane i counts value v_i = 128 * bin + i.
 *   dhistv2: dst[i] = acc[i] + #{active lanes j : src[j] == v_i}
 *   chistv2: dst[i] = acc[i] + #{active lanes j : src[j] <= v_i} (cumulative over all values,
 *            so bin 1 includes every value below 128)
 * Counts wrap modulo 2^16. */
typedef struct ptosim_vhist_params {
  ptosim_vreg *dst;
  const ptosim_vreg *acc;      /* 16-bit lanes */
  const ptosim_vreg *src;      /* 8-bit lanes, read unsigned */
  const ptosim_vmask *mask;
  int64_t bin;                 /* 0: values 0..127, 1: values 128..255 */
  ptosim_dtype acc_type;       /* i16 / u16 (0 when unknown) */
  ptosim_dtype src_type;       /* i8 / u8 (0 when unknown) */
  unsigned mask_bits;
} ptosim_vhist_params;

/* pto.vmulscvt: p = src * scalar rounded to f32 (nearest even), then converted to f16 with
 * rounding rnd into the even (part EVEN: f16 lane 2i) or odd (ODD: 2i + 1) half of each
 * 32-bit lane, the other half 0; overflow gives +-inf (no saturation); lane i is active
 * when b32 mask lane i is set, an inactive lane's 32 bits are 0 (as vcvt). */
typedef struct ptosim_vmulscvt_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;      /* f32 */
  ptosim_scalar scalar;        /* f32 */
  const ptosim_vmask *mask;
  ptosim_dtype src_type;
  ptosim_dtype dst_type;       /* f16 */
  ptosim_vrnd rnd;
  ptosim_vpart part;           /* EVEN or ODD */
  unsigned mask_bits;
} ptosim_vmulscvt_params;

/* pto.vaddreluconv / pto.vmulconv: fused add + ReLU (vmulconv: multiply) and a narrowing
 * conversion to half the lane width, placed as vcvt part EVEN places it: the result of
 * source lane i fills the low half of the lane's bytes (destination lane 2i), the high half
 * is 0, and an inactive source lane's bytes are all 0 (docs/spec-notes.md section 22).
 *   vaddreluconv f32 -> f16  max(a + b, 0) in f32, to f16 nearest even, saturating
 *                f16 -> i8   max(a + b, 0) rounded to f16, to i8 nearest even, saturating
 *                i16 -> i8   a + b wrapped to 16 bits, clamped to [0, 127]
 *   vmulconv     f16 -> i8 / u8  a * b rounded to f16, to i8 / u8 nearest even, saturating
 *                (no ReLU; NaN -> 0)
 * A NaN sum of vaddreluconv becomes 0. mask NULL: every lane active (the mask-less form of
 * VPTOOps.td); otherwise its granularity is the source lane width. */
typedef struct ptosim_vfusedcvt_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  const ptosim_vmask *mask;    /* NULL: all lanes */
  ptosim_dtype src_type;
  ptosim_dtype dst_type;
  unsigned mask_bits;
} ptosim_vfusedcvt_params;

/* UB sort helpers (13-dsa-sfu-ops.md, VBS32 / VMS4). A proposal record is 8 bytes: the score
 * in the low 4 bytes (f16: its low 2 bytes, the upper 2 written 0), the u32 index in the
 * high 4. Order: descending score in IEEE totalOrder (+NaN first, -NaN last, +0 before -0),
 * ties keep their input order (vbitsort: lower position first; vmrgsort4: lower list
 * first, then list order). Evidence: docs/spec-notes.md section 16. */

/* pto.vbitsort: for r < repeat: sort the 32 scores src[32r, 32r + 32) (f16 / f32) with the
 * 32 u32 indices idx[32r, ...) into 32 records at dst + 256 r. dst, src, idx 32 B aligned. */
typedef struct ptosim_vbitsort_params {
  ptosim_ptr dst;
  ptosim_ptr src;              /* its dtype: the score type */
  ptosim_ptr idx;
  uint64_t repeat;             /* 0..255; 0 writes nothing */
} ptosim_vbitsort_params;

/* pto.vmrgsort4: merge up to 4 descending record lists into dst.
 *   count  list i holds count[16i + 15 : 16i] records;
 *   config [7:0] repeat (groups of 4 lists, each next group right after the previous one's
 *          records, dst advancing by the group's total), [11:8] which lists take part,
 *          [12] exhausted suspension: stop when a taking-part list runs out (repeat 1).
 * VMS4_SR then holds the records taken from each list (16 bits each, list 0 lowest). All
 * pointers 8 B aligned, one element type (f16 / f32). */
typedef struct ptosim_vmrgsort4_params {
  ptosim_ptr dst;
  ptosim_ptr src[4];
  uint64_t count;
  uint64_t config;
} ptosim_vmrgsort4_params;

/* pto.get_vms4_sr: list[i] = VMS4_SR[16i + 15 : 16i] (i16 results, unsigned counts). */
typedef struct ptosim_vms4_sr_params {
  int64_t *list[4];
} ptosim_vms4_sr_params;

#ifdef __cplusplus
}
#endif
#endif
