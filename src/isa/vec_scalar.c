/* Vector-scalar ops (vpto docs/isa/micro-isa/08-vec-scalar-ops.md; vsubs / vands / vors /
 * vxors from pto-isa docs/isa/vector/ops/vec-scalar-ops/): dst[i] = src[i] op scalar on the
 * active lanes, 0 on the others. Each runs the loop of its binary op (vec_binary.c) on a
 * register holding the broadcast scalar, so the two forms share one formula. vaddcs / vsubcs
 * are the carry chains of vec_binary.c. */
#include "isa/vec_arith.h"

/* vlrelu: x >= 0 ? x : scalar * x (f16, f32); a NaN lane stays NaN, -0 stays -0. */
#define LRELU_F(K, x, y) ((x) >= 0.0f ? (x) : (y) * (x))
PT_VL_F16F32(PT_VL_MAP2, vlrelu, LRELU_F)
static const pt_vl_fn vlrelu_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vlrelu, _)};

/* The scalar must fit the lanes (pt_vl_scalar_fits). */
static ptosim_status scalar_run(pt_ctx *x, const pt_vl_fn *loops, const ptosim_vscalar_params *p) {
  unsigned e = pt_vl_esize(p->dtype);
  PT_VERIFY(x, pt_vl_scalar_fits(p->dtype, p->scalar.dtype) || !pt_vl_pick(loops, p->dtype), "vec.scalar_type",
            "give the scalar the vector's element type", "scalar of type %s on %s lanes",
            pt_dtype_name(p->scalar.dtype), pt_dtype_name(p->dtype));
  PT_VERIFY(x, e <= 4 || x->m->target != PTOSIM_TARGET_A5, "vec.dtype", "use 8- to 32-bit elements",
            "the vector-scalar forms have no %s form", pt_dtype_name(p->dtype));
  ptosim_vreg s;
  if (e) pt_vl_broadcast(&s, p->scalar.bits, e);
  ptosim_vbinary_params b = {p->dst, p->src, &s, p->mask, p->dtype, p->mask_bits};
  return pt_vbinary_run(x, loops, &b);
}

/* vshls / vshrs: the scalar is the i16 shift count, read as unsigned 16 bits; it is clamped
 * to the lane width before the broadcast (every count >= the width shifts all bits out). */
static ptosim_status shift_run(pt_ctx *x, const pt_vl_fn *loops, const ptosim_vscalar_params *p) {
  PT_VERIFY(x, p->scalar.dtype == PTOSIM_DT_I16 || p->scalar.dtype == PTOSIM_DT_U16, "vec.scalar_type",
            "pass the shift count as an i16 scalar", "shift count of type %s", pt_dtype_name(p->scalar.dtype));
  unsigned e = pt_vl_esize(p->dtype);
  uint64_t count = p->scalar.bits & 0xFFFFu;
  ptosim_vscalar_params q = *p;
  q.scalar.dtype = p->dtype;
  q.scalar.bits = count < e * 8u ? count : e * 8u;
  return scalar_run(x, loops, &q);
}

#define SCALAR_EXEC(op, run, loops) \
  ptosim_status pt_exec_##op(pt_ctx *x, const ptosim_vscalar_params *p) { return run(x, loops, p); }

SCALAR_EXEC(vadds, scalar_run, pt_vadd_loops)
SCALAR_EXEC(vsubs, scalar_run, pt_vsub_loops)
SCALAR_EXEC(vmuls, scalar_run, pt_vmul_loops)
SCALAR_EXEC(vmaxs, scalar_run, pt_vmax_loops)
SCALAR_EXEC(vmins, scalar_run, pt_vmin_loops)
SCALAR_EXEC(vands, scalar_run, pt_vand_loops)
SCALAR_EXEC(vors, scalar_run, pt_vor_loops)
SCALAR_EXEC(vxors, scalar_run, pt_vxor_loops)
SCALAR_EXEC(vlrelu, scalar_run, vlrelu_loops)
SCALAR_EXEC(vshls, shift_run, pt_vshl_loops)
SCALAR_EXEC(vshrs, shift_run, pt_vshr_loops)
