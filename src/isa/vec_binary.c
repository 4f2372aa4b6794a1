/* Binary vector ops (vpto docs/isa/micro-isa/07-binary-vector-ops.md): dst[i] = src0[i] op
 * src1[i] on the active lanes, 0 on the others (vec_lanes.h). Integers wrap; shift counts are
 * the unsigned value of the count lane and a count >= the lane width shifts every bit out;
 * vmax / vmin of a NaN is NaN and order -0 below +0 (docs/spec-notes.md section 10). */
#include "isa/vec_arith.h"
#include "isa/vec_formulas.h"

/* ---- element formulas: F(K, x, y) (the common ones: isa/vec_formulas.h) ------------------ */

#define MAX_F(K, x, y) pt_vl_fmax(x, y)
#define MIN_F(K, x, y) pt_vl_fmin(x, y)

/* Shift count c = unsigned value of the count lane; bits = lane width in bits. */
#define SHL_I(K, x, y)                                                                      \
  ((pt_vl_u_##K)(y) >= PT_VL_E_##K * 8u ? (pt_vl_c_##K)0                                    \
                                        : PT_VL_WRAP(K, x, <<, (pt_vl_u_##K)(y)))
/* Arithmetic for signed kinds (a count >= width leaves the sign in every bit), logical for
 * unsigned ones. */
#define SHR_I(K, x, y)                                                                      \
  ((pt_vl_u_##K)(y) >= PT_VL_E_##K * 8u                                                     \
       ? (pt_vl_c_##K)(PT_VL_S_##K ? (x) >> (PT_VL_E_##K * 8u - 1) : 0)                     \
       : (pt_vl_c_##K)((x) >> (pt_vl_u_##K)(y)))

/* vmul: 16- and 32-bit integers (not 8-bit) and the floats. */
#define VMUL_KINDS(M) \
  M(vmul, i16, MUL_I) M(vmul, u16, MUL_I) M(vmul, i32, MUL_I) M(vmul, u32, MUL_I) PT_VL_FLOATS(M, vmul, MUL_F)

/* Bitwise ops on float registers act on the lane bits (the u kind of the same width). */
#define PT_VL_FLOAT_BITS(op, F) [PTOSIM_DT_F16] = op##_u16, [PTOSIM_DT_BF16] = op##_u16, [PTOSIM_DT_F32] = op##_u32,
/* The register forms of vand / vor / vxor also take the 8-bit payload types (tonibohnlein/PTOAS
 * lib/PTO/IR/VPTO.cpp: they verify with allowLowPrecision; isPTOLowPrecisionType). */
#define PT_VL_FP8_BITS(op)                                                                          \
  [PTOSIM_DT_F8E4M3] = op##_u8, [PTOSIM_DT_F8E5M2] = op##_u8, [PTOSIM_DT_HIF8] = op##_u8, [PTOSIM_DT_F8E8M0] = op##_u8,

/* ---- loops and their dtype tables ------------------------------------------------------ */

PT_VL_INTS(PT_VL_MAP2, vadd, ADD_I) PT_VL_INTS64(PT_VL_MAP2, vadd, ADD_I) PT_VL_FLOATS(PT_VL_MAP2, vadd, ADD_F)
PT_VL_INTS(PT_VL_MAP2, vsub, SUB_I) PT_VL_INTS64(PT_VL_MAP2, vsub, SUB_I) PT_VL_FLOATS(PT_VL_MAP2, vsub, SUB_F)
VMUL_KINDS(PT_VL_MAP2)
PT_VL_F16F32(PT_VL_MAP2, vdiv, DIV_F)
PT_VL_INTS(PT_VL_MAP2, vmax, MAX_I) PT_VL_FLOATS(PT_VL_MAP2, vmax, MAX_F)
PT_VL_INTS(PT_VL_MAP2, vmin, MIN_I) PT_VL_FLOATS(PT_VL_MAP2, vmin, MIN_F)
PT_VL_INTS(PT_VL_MAP2, vand, AND_B)
PT_VL_INTS(PT_VL_MAP2, vor, OR_B)
PT_VL_INTS(PT_VL_MAP2, vxor, XOR_B)
PT_VL_INTS(PT_VL_MAP2, vshl, SHL_I)
PT_VL_INTS(PT_VL_MAP2, vshr, SHR_I)

const pt_vl_fn pt_vadd_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vadd, _) PT_VL_INTS64(PT_VL_ENTRY, vadd, _) PT_VL_FLOATS(PT_VL_ENTRY, vadd, _)};
const pt_vl_fn pt_vsub_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vsub, _) PT_VL_INTS64(PT_VL_ENTRY, vsub, _) PT_VL_FLOATS(PT_VL_ENTRY, vsub, _)};
const pt_vl_fn pt_vmul_loops[PTOSIM_DT_COUNT] = {VMUL_KINDS(PT_VL_ENTRY)};
const pt_vl_fn pt_vdiv_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vdiv, _)};
const pt_vl_fn pt_vmax_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vmax, _) PT_VL_FLOATS(PT_VL_ENTRY, vmax, _)};
const pt_vl_fn pt_vmin_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vmin, _) PT_VL_FLOATS(PT_VL_ENTRY, vmin, _)};
const pt_vl_fn pt_vand_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vand, _) PT_VL_FLOAT_BITS(vand, _)};
const pt_vl_fn pt_vor_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vor, _) PT_VL_FLOAT_BITS(vor, _)};
const pt_vl_fn pt_vxor_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vxor, _) PT_VL_FLOAT_BITS(vxor, _)};
const pt_vl_fn pt_vshl_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vshl, _)};
const pt_vl_fn pt_vshr_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vshr, _)};

/* ---- executors ------------------------------------------------------------------------- */

ptosim_status pt_vbinary_run(pt_ctx *x, const pt_vl_fn *loops, const ptosim_vbinary_params *p) {
  pt_vl_args g = {.dst = p->dst, .a = p->src0, .b = p->src1, .mask = p->mask};
  return pt_vl_run(x, loops, p->dtype, &g, p->dst && p->src0 && p->src1 && p->mask, p->mask_bits);
}

#define BINARY_EXEC(op, loops) \
  ptosim_status pt_exec_##op(pt_ctx *x, const ptosim_vbinary_params *p) { return pt_vbinary_run(x, loops, p); }

BINARY_EXEC(vadd, pt_vadd_loops)
BINARY_EXEC(vsub, pt_vsub_loops)
BINARY_EXEC(vmul, pt_vmul_loops)
BINARY_EXEC(vdiv, pt_vdiv_loops)
BINARY_EXEC(vmax, pt_vmax_loops)
BINARY_EXEC(vmin, pt_vmin_loops)
static const pt_vl_fn vand_lowp_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vand, _) PT_VL_FLOAT_BITS(vand, _) PT_VL_FP8_BITS(vand)};
static const pt_vl_fn vor_lowp_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vor, _) PT_VL_FLOAT_BITS(vor, _) PT_VL_FP8_BITS(vor)};
static const pt_vl_fn vxor_lowp_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vxor, _) PT_VL_FLOAT_BITS(vxor, _) PT_VL_FP8_BITS(vxor)};

BINARY_EXEC(vand, vand_lowp_loops)
BINARY_EXEC(vor, vor_lowp_loops)
BINARY_EXEC(vxor, vxor_lowp_loops)
BINARY_EXEC(vshl, pt_vshl_loops)
BINARY_EXEC(vshr, pt_vshr_loops)

/* ---- carry chains (32-bit lanes; signed and unsigned share the bits) ------------------- */

/* Lane i: s = a + b' + cin over 33 bits with b' = b (add) or ~b (sub, so that
 * a - b - (1 - cin) = a + ~b + cin mod 2^32); dst = s mod 2^32, carry = s >> 32, which for
 * the subtraction is "no borrow" (a >= b + 1 - cin). */
static ptosim_status carry_run(pt_ctx *x, const ptosim_vcarry_params *p, int sub, int has_cin) {
  int ops = p->dst && p->carry && p->src0 && p->src1 && p->mask && (!has_cin || p->carry_in);
  PT_TRY(pt_vl_check(x, p->dtype, p->dtype == PTOSIM_DT_I32 || p->dtype == PTOSIM_DT_U32, ops, p->mask_bits));
  ptosim_vreg r;
  ptosim_vmask c;
  memset(&r, 0, sizeof r);
  memset(&c, 0, sizeof c);
  uint32_t flip = sub ? 0xFFFFFFFFu : 0;
  for (unsigned i = 0; i < PTOSIM_VREG_BYTES / 4; i++) {
    if (!pt_vl_active(p->mask, i, 4)) continue;
    uint64_t cin = has_cin ? pt_vl_active(p->carry_in, i, 4) : (uint64_t)sub;
    uint64_t s = (uint64_t)pt_vl_ld_u32(p->src0, i) + (pt_vl_ld_u32(p->src1, i) ^ flip) + cin;
    pt_vl_st_u32(&r, i, (uint32_t)s);
    pt_vl_set(&c, i, 4, (unsigned)(s >> 32));
  }
  *p->dst = r;
  *p->carry = c;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vaddc(pt_ctx *x, const ptosim_vcarry_params *p) { return carry_run(x, p, 0, 0); }
ptosim_status pt_exec_vsubc(pt_ctx *x, const ptosim_vcarry_params *p) { return carry_run(x, p, 1, 0); }
ptosim_status pt_exec_vaddcs(pt_ctx *x, const ptosim_vcarry_params *p) { return carry_run(x, p, 0, 1); }
ptosim_status pt_exec_vsubcs(pt_ctx *x, const ptosim_vcarry_params *p) { return carry_run(x, p, 1, 1); }
