/* Shared between the vector compute families (vec_binary.c, vec_scalar.c, vec_cmp.c,
 * vec_unary.c, ub_vec.c): the binary and unary loop tables, which the vector-scalar forms
 * reuse on a register holding the broadcast scalar. */
#ifndef PT_VEC_ARITH_H
#define PT_VEC_ARITH_H

#include "isa/vec_lanes.h"

extern const pt_vl_fn pt_vadd_loops[PTOSIM_DT_COUNT], pt_vsub_loops[PTOSIM_DT_COUNT],
    pt_vmul_loops[PTOSIM_DT_COUNT], pt_vmax_loops[PTOSIM_DT_COUNT], pt_vmin_loops[PTOSIM_DT_COUNT],
    pt_vand_loops[PTOSIM_DT_COUNT], pt_vor_loops[PTOSIM_DT_COUNT], pt_vxor_loops[PTOSIM_DT_COUNT],
    pt_vshl_loops[PTOSIM_DT_COUNT], pt_vshr_loops[PTOSIM_DT_COUNT], pt_vdiv_loops[PTOSIM_DT_COUNT];
/* The unary loop tables (vec_unary.c), which the A2/A3 UB ops (ub_vec.c) reuse too. */
extern const pt_vl_fn pt_vabs_loops[PTOSIM_DT_COUNT], pt_vneg_loops[PTOSIM_DT_COUNT], pt_vnot_loops[PTOSIM_DT_COUNT],
    pt_vexp_loops[PTOSIM_DT_COUNT], pt_vln_loops[PTOSIM_DT_COUNT], pt_vsqrt_loops[PTOSIM_DT_COUNT],
    pt_vrsqrt_loops[PTOSIM_DT_COUNT], pt_vrec_loops[PTOSIM_DT_COUNT], pt_vrelu_loops[PTOSIM_DT_COUNT],
    pt_vmov_loops[PTOSIM_DT_COUNT], pt_vbcnt_loops[PTOSIM_DT_COUNT], pt_vcls_loops[PTOSIM_DT_COUNT];

/* Run a binary op: checks (vec_lanes.h pt_vl_check), then the loop of p->dtype. */
ptosim_status pt_vbinary_run(pt_ctx *x, const pt_vl_fn *loops, const ptosim_vbinary_params *p);

/* A scalar of type st fits lanes of type dt: the same type, or for integers any integer
 * type of the same width (signless i<w> is spelled as the signed type). */
static inline int pt_vl_scalar_fits(ptosim_dtype dt, ptosim_dtype st) {
  return st == dt || (!pt_dtype_is_float(dt) && !pt_dtype_is_float(st) && pt_dtype_size(st) == pt_dtype_size(dt));
}

/* Fill every lane (e bytes) of r with the low e bytes of bits. */
static inline void pt_vl_broadcast(ptosim_vreg *r, uint64_t bits, unsigned e) {
  for (unsigned i = 0; i < PTOSIM_VREG_BYTES; i += e) memcpy(r->b + i, &bits, e);
}

#endif
