/* Binders of the A5 gathers / scatters (vpto micro-isa 03) and DSA/SFU ops (13); operand
 * order from PTOAS VPTOOps.td assemblyFormat. Registers and predicates are pointers into the
 * core's wide arena; element types and mask granularities come from the static types. */
#include "exec/bind_vec_sfu.h"

#include "asm/asm.h"
#include "exec/lower.h"

static unsigned noperands(const pa_op *op) {
  unsigned n = 0;
  for (uint32_t k = 0; k < op->nitems; k++) n += (unsigned)pt_is_operand(&op->items[k]);
  return n;
}

static int arity(pt_bind *b, const pa_op *op, unsigned want) {
  unsigned n = noperands(op);
  if (n == want) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "check the op's operand list in VPTOOps.td", "expects %u operands, got %u",
                       want, n);
}

static const pa_item *arg(const pa_op *op, unsigned i) { return pt_operand_item(op, i); }

/* ---- gathers and scatters (03) --------------------------------------------------------- */

/* %r = pto.vgather2 / vgather2_bc / vgatherb %base, %offsets, %mask */
int bind_ptosim_vgather_params(pt_bind *b, const pa_op *op, ptosim_vgather_params *p) {
  if (arity(b, op, 3)) return -1;
  p->base = pt_bind_ptr(b, arg(op, 0));
  p->offsets = pt_bind_vreg(b, arg(op, 1), &p->offset_type);
  p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* pto.vscatter %value, %base, %offsets, %mask */
int bind_ptosim_vscatter_params(pt_bind *b, const pa_op *op, ptosim_vscatter_params *p) {
  if (arity(b, op, 4)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), NULL);
  p->base = pt_bind_ptr(b, arg(op, 1));
  p->offsets = pt_bind_vreg(b, arg(op, 2), &p->offset_type);
  p->mask = pt_bind_mask(b, arg(op, 3), &p->mask_bits);
  return 0;
}

/* ---- DSA/SFU (13) ----------------------------------------------------------------------- */

/* %r = pto.vaxpy %src0, %src1, %alpha, %mask */
int bind_ptosim_vaxpy_params(pt_bind *b, const pa_op *op, ptosim_vaxpy_params *p) {
  if (arity(b, op, 4)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  p->alpha = pt_bind_scalar(b, arg(op, 2));
  p->mask = pt_bind_mask(b, arg(op, 3), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vmula %acc, %lhs, %rhs, %mask */
int bind_ptosim_vmula_params(pt_bind *b, const pa_op *op, ptosim_vmula_params *p) {
  if (arity(b, op, 4)) return -1;
  p->acc = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->src0 = pt_bind_vreg(b, arg(op, 1), NULL);
  p->src1 = pt_bind_vreg(b, arg(op, 2), NULL);
  p->mask = pt_bind_mask(b, arg(op, 3), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %low, %high = pto.vmull %lhs, %rhs, %mask */
int bind_ptosim_vmull_params(pt_bind *b, const pa_op *op, ptosim_vmull_params *p) {
  if (arity(b, op, 3)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->low = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  p->high = pt_bind_out(b, 1, PT_VK_VREG, NULL);
  return 0;
}
