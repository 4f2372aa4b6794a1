/* Binders of the A5 vector reductions (micro-isa 10) and data rearrangement (micro-isa 12;
 * operand order from PTOAS VPTOOps.td assemblyFormat, vperm / vslide / vshift from pto-isa
 * docs/isa/vector/ops/data-rearrangement). Element types come from the static types of the
 * source and the declared result; "LOWER" / "HIGHER" parts are string operands. */
#include "asm/asm.h"
#include "exec/bind_vec_reduce.h"
#include "exec/lower.h"

/* The op has exactly n operands (else a bind.arity error). */
static int operands(pt_bind *b, const pa_op *op, unsigned n) {
  unsigned have = 0;
  for (uint32_t k = 0; k < op->nitems; k++) have += (unsigned)pt_is_operand(&op->items[k]);
  if (have == n) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "check the op's operand list in VPTOOps.td", "expects %u operands, got %u",
                       n, have);
}

/* The "LOWER" / "HIGHER" string operand. */
static ptosim_pred_half part(pt_bind *b, const pa_op *op) {
  for (uint32_t i = 0; i < op->nitems; i++) {
    const pa_item *it = &op->items[i];
    if (it->kind != PA_IT_STRING) continue;
    if (pa_str_is(it->name, "LOWER")) return PTOSIM_PART_LOWER;
    if (pa_str_is(it->name, "HIGHER")) return PTOSIM_PART_HIGHER;
    pt_bind_error(b, it, "bind.keyword", "write \"LOWER\" or \"HIGHER\"", "unknown part '%.*s'", (int)it->text.n, it->text.s);
    return PTOSIM_PART_LOWER;
  }
  pt_bind_error(b, NULL, "bind.syntax", "write the part: \"LOWER\" or \"HIGHER\"", "missing part");
  return PTOSIM_PART_LOWER;
}

static const pa_item *arg(const pa_op *op, unsigned i) { return pt_operand_item(op, i); }

/* %r = pto.vcadd %v, %mask; %r, %p = pto.vcbmax %v, %mask */
int bind_ptosim_vreduce_params(pt_bind *b, const pa_op *op, ptosim_vreduce_params *p) {
  if (operands(b, op, 2)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->mask = pt_bind_mask(b, arg(op, 1), &p->mask_bits);
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dst_type = t.dt;
  unsigned results = 0;
  for (uint32_t r = 0; r < op->nresults; r++) results += op->results[r].count;
  if (results > 1) p->pred = pt_bind_out(b, 1, PT_VK_MASK, NULL);
  return 0;
}

/* %lo, %hi = pto.vintlv / vdintlv %a, %b; %r = pto.vintlvv2 / vdintlvv2 %a, %b, "PART" */
int bind_ptosim_vintlv_params(pt_bind *b, const pa_op *op, ptosim_vintlv_params *p) {
  if (operands(b, op, 2)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  p->low = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  if (pa_str_is(op->name, "pto.vintlvv2") || pa_str_is(op->name, "pto.vdintlvv2")) p->part = part(b, op);
  else p->high = pt_bind_out(b, 1, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vpack %v, "PART" */
int bind_ptosim_vpack_params(pt_bind *b, const pa_op *op, ptosim_vpack_params *p) {
  if (operands(b, op, 1)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->src_type);
  p->part = part(b, op);
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dst_type = t.dt;
  return 0;
}

/* %r = pto.vsunpack / vzunpack %v, %part */
int bind_ptosim_vunpack_params(pt_bind *b, const pa_op *op, ptosim_vunpack_params *p) {
  if (operands(b, op, 2)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->src_type);
  p->part = pt_bind_int(b, arg(op, 1));
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dst_type = t.dt;
  return 0;
}

/* %r = pto.vslide %src0, %src1, %amt; %r = pto.vshift %src, %amt */
int bind_ptosim_vslide_params(pt_bind *b, const pa_op *op, ptosim_vslide_params *p) {
  int two = pa_str_is(op->name, "pto.vslide");
  if (operands(b, op, two ? 3 : 2)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  if (two) p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  p->amount = pt_bind_int(b, arg(op, two ? 2 : 1));
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}
