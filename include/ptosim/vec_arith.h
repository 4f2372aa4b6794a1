/* ptosim — parameter blocks of the register-to-register vector compute ops of the A5 vector
 * core (vpto docs/isa/micro-isa/06 unary, 07 binary, 08 vector-scalar, 11 compare/select).
 *
 * Register operands are pointers to ptosim_vreg / ptosim_vmask values (see vreg.h); a result
 * may alias a source. `dtype` is the element type of the op's registers: it fixes the lane
 * width E (bytes) and the lane count 256 / E. Lane i is active when bit i * E of the
 * governing mask is set; inactive lanes of a vector result are 0 and inactive lanes of a
 * predicate result are 0 (zeroing predication, docs/spec-notes.md section 10).
 *
 * mask_bits is the granularity of the mask operands' type !pto.mask<bN>: 8, 16 or 32, which
 * must be the element width (32 for 64-bit elements); 0 when the caller has no mask type
 * (C API use) and nothing is checked. */
#ifndef PTOSIM_VEC_ARITH_H
#define PTOSIM_VEC_ARITH_H

#include "ptosim/types.h"
#include "ptosim/vreg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.vabs vneg vnot vexp vln vsqrt vrsqrt vrec vrelu vmov vbcnt vcls: dst = f(src). */
typedef struct ptosim_vunary_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vunary_params;

/* pto.vadd vsub vmul vdiv vmax vmin vand vor vxor vshl vshr: dst = src0 op src1;
 * pto.vsel: dst = mask ? src0 : src1 on every lane. */
typedef struct ptosim_vbinary_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vbinary_params;

/* pto.vadds vsubs vmuls vmaxs vmins vands vors vxors vlrelu: dst = src op scalar, the scalar
 * of the element type (integers: any signedness of the same width); pto.vshls / vshrs: the
 * scalar is the i16 shift count. */
typedef struct ptosim_vscalar_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  ptosim_scalar scalar;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vscalar_params;

/* pto.vaddc / vsubc (carry_in NULL) and pto.vaddcs / vsubcs: 32-bit lanes,
 * dst = src0 + src1 + cin (add) or src0 - src1 - (1 - cin) (sub); carry = carry out of bit
 * 31 (add) or "no borrow" (sub). cin is carry_in's lane bit, else 0 (add) / 1 (sub). */
typedef struct ptosim_vcarry_params {
  ptosim_vreg *dst;
  ptosim_vmask *carry;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  const ptosim_vmask *carry_in;
  const ptosim_vmask *mask;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vcarry_params;

/* Compare predicates of vcmp / vcmps ("eq" ... "ge"); floats compare as IEEE (NaN: only ne
 * holds), integers by the signedness of dtype. */
typedef enum ptosim_vcmp_mode {
  PTOSIM_VCMP_EQ = 0, PTOSIM_VCMP_NE, PTOSIM_VCMP_LT, PTOSIM_VCMP_LE, PTOSIM_VCMP_GT, PTOSIM_VCMP_GE,
  PTOSIM_VCMP_COUNT
} ptosim_vcmp_mode;

/* pto.vcmp: dst lane i = seed[i] && (src0[i] mode src1[i]). */
typedef struct ptosim_vcmp_params {
  ptosim_vmask *dst;
  const ptosim_vreg *src0;
  const ptosim_vreg *src1;
  const ptosim_vmask *seed;
  ptosim_vcmp_mode mode;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vcmp_params;

/* pto.vcmps: dst lane i = seed[i] && (src[i] mode scalar). */
typedef struct ptosim_vcmps_params {
  ptosim_vmask *dst;
  const ptosim_vreg *src;
  ptosim_scalar scalar;
  const ptosim_vmask *seed;
  ptosim_vcmp_mode mode;
  ptosim_dtype dtype;
  unsigned mask_bits;
} ptosim_vcmps_params;

/* pto.vselr / vselrv2: dst lane i = src lane idx[i]; idx lanes are unsigned integers of the
 * width of dtype, each below the lane count. */
typedef struct ptosim_vselr_params {
  ptosim_vreg *dst;
  const ptosim_vreg *src;
  const ptosim_vreg *idx;
  ptosim_dtype dtype;
} ptosim_vselr_params;

#ifdef __cplusplus
}
#endif
#endif
