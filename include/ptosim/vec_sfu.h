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

/* pto.vmula: dst = acc + src0 * src1; floats (f16, f32) fused, one rounding of the exact
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

#ifdef __cplusplus
}
#endif
#endif
