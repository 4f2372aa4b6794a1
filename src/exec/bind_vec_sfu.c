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
