/* ptosim — parameter blocks of the A2/A3 UB-to-UB vector ops `pto.ub.*` (tonibohnlein/PTOAS
 * include/PTO/IR/VPTOUbOps.td; executors in src/isa/ub_vec.c, readings in
 * docs/spec-notes.md section 12). a2a3 profile only.
 *
 * One op runs `repeat` repeats; repeat r reads and writes 8 blocks of 32 bytes per operand,
 * block b of an operand at
 *   addr + (r * repeat_stride + b * block_stride) * 32        (strides in 32-byte blocks)
 * and a block holds 32 / E elements of E bytes (E = 2 or 4): lane k = b * (32 / E) + j of the
 * repeat is element j of block b, k < 256 / E. Which lanes run is the core's vector mask
 * (pto.ub.set_mask): in normal mode lane k runs iff bit k of MASK1:MASK0 is set (MASK0 holds
 * lanes 0..63, MASK1 lanes 64..127; 32-bit elements use MASK0 only); in count mode
 * (pto.ub.set_mask_count) the op ignores `repeat` and runs the first MASK0 elements, lane k of
 * repeat r iff r * (256 / E) + k < MASK0. A lane that does not run is neither read nor
 * written. Every stride and the repeat are 0..255 (PTOAS packs each into 8 bits). */
#ifndef PTOSIM_UB_VEC_H
#define PTOSIM_UB_VEC_H

#include <stdint.h>

#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.ub.vadd vsub vmul vdiv vmax vmin vand vor vaddrelu: dst = src0 op src1. The element
 * type is the pointers' (all three the same). */
typedef struct ptosim_ub_binary_params {
  ptosim_ptr dst, src0, src1;
  int64_t repeat;
  int64_t dst_block_stride, src0_block_stride, src1_block_stride;    /* 32-byte blocks */
  int64_t dst_repeat_stride, src0_repeat_stride, src1_repeat_stride; /* 32-byte blocks */
} ptosim_ub_binary_params;

/* pto.ub.vnot vabs vrelu vexp vln vsqrt vrsqrt: dst = f(src) (`scalar` unused);
 * pto.ub.vshl vshr: dst = src << / >> scalar (the shift distance, >= 0; a distance >= the
 * element width shifts every bit out; vshr is logical, as PTOAS lowers it to VSHR.u*);
 * pto.ub.vmuls vadds vmaxs vmins: dst = src op s with s the low E bytes of `scalar` (the
 * element's bits: a float scalar is its bit pattern, as PTOAS passes it);
 * pto.ub.vdup: dst = s (src and its strides unused: no source is read). */
typedef struct ptosim_ub_unary_params {
  ptosim_ptr dst, src;
  int64_t scalar;
  int64_t repeat;
  int64_t dst_block_stride, src_block_stride;   /* 32-byte blocks */
  int64_t dst_repeat_stride, src_repeat_stride; /* 32-byte blocks */
} ptosim_ub_unary_params;

/* pto.ub.set_mask: MASK0 = mask0 (lanes 0..63; in count mode the element count),
 * MASK1 = mask1 (lanes 64..127). pto.ub.set_mask_count / set_mask_norm take no operand
 * (the fields are unused): they set / clear CTRL bit 56, the count mode. */
typedef struct ptosim_ub_mask_params {
  uint64_t mask0, mask1;
} ptosim_ub_mask_params;

/* CTRL bit that selects count mode for the pto.ub.* ops. */
#define PTOSIM_CTRL_MASK_COUNT_BIT 56

#ifdef __cplusplus
}
#endif

#endif
