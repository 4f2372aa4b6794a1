/* Binders of the A5 gathers / scatters (vpto micro-isa 03) and DSA/SFU ops (13); operand
 * order from PTOAS VPTOOps.td assemblyFormat. Registers and predicates are pointers into the
 * core's wide arena; element types and mask granularities come from the static types. */
#include "exec/bind_vec_sfu.h"

#include "asm/asm.h"
#include "exec/lower.h"
#include "isa/vec_names.h"

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

/* The index of the k-th string operand ("EVEN") in names[0, n), or -1 after a bind.keyword
 * error naming `what`. */
static int word_arg(pt_bind *b, const pa_op *op, unsigned k, const char *const *names, int n, const char *what) {
  const pa_item *it = NULL;
  for (uint32_t i = 0; i < op->nitems && !it; i++)
    if (op->items[i].kind == PA_IT_STRING && k-- == 0) it = &op->items[i];
  for (int i = 0; it && i < n; i++)
    if (names[i] && pa_str_is(it->name, names[i])) return i;
  pt_bind_error(b, it, "bind.keyword", "see the op's page in docs/isa/micro-isa for the spellings", "missing or unknown %s",
                what);
  return -1;
}

/* %r = pto.vexpdif %input, %max, %mask, "EVEN" | "ODD" */
int bind_ptosim_vexpdif_params(pt_bind *b, const pa_op *op, ptosim_vexpdif_params *p) {
  static const char *const parts[] = {"EVEN", "ODD"};
  int part = word_arg(b, op, 0, parts, 2, "part");
  if (arity(b, op, 3) || part < 0) return -1;
  p->part = (unsigned)part;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->max = pt_bind_vreg(b, arg(op, 1), NULL);
  p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vmulscvt %input, %scalar, %mask, "A", "EVEN" */
int bind_ptosim_vmulscvt_params(pt_bind *b, const pa_op *op, ptosim_vmulscvt_params *p) {
  int rnd = word_arg(b, op, 0, pt_vrnd_names, PT_VRND_NAMES, "rounding"), part = word_arg(b, op, 1, pt_vpart_names, 3, "part");
  if (arity(b, op, 3) || rnd < 0 || part < 0) return -1;
  p->rnd = (ptosim_vrnd)rnd, p->part = (ptosim_vpart)part;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->src_type);
  p->scalar = pt_bind_scalar(b, arg(op, 1));
  p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dst_type = t.dt;
  return 0;
}

/* %r = pto.vaddreluconv / vmulconv %lhs, %rhs [, %mask]: VPTOOps.td has no mask; the
 * pto-isa pages and the TileLang DSL lowering add one. */
int bind_ptosim_vfusedcvt_params(pt_bind *b, const pa_op *op, ptosim_vfusedcvt_params *p) {
  if (noperands(op) != 2 && arity(b, op, 3)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->src_type);
  p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  if (noperands(op) == 3) p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dst_type = t.dt;
  return 0;
}

/* %r = pto.chistv2 / dhistv2 %acc, %source, %mask, %bin */
int bind_ptosim_vhist_params(pt_bind *b, const pa_op *op, ptosim_vhist_params *p) {
  if (arity(b, op, 4)) return -1;
  p->acc = pt_bind_vreg(b, arg(op, 0), &p->acc_type);
  p->src = pt_bind_vreg(b, arg(op, 1), &p->src_type);
  p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->bin = pt_bind_int(b, arg(op, 3));
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* pto.vbitsort %dest, %src, %indices, %repeat_times */
int bind_ptosim_vbitsort_params(pt_bind *b, const pa_op *op, ptosim_vbitsort_params *p) {
  if (arity(b, op, 4)) return -1;
  p->dst = pt_bind_ptr(b, arg(op, 0));
  p->src = pt_bind_ptr(b, arg(op, 1));
  p->idx = pt_bind_ptr(b, arg(op, 2));
  p->repeat = (uint64_t)pt_bind_int(b, arg(op, 3));
  return 0;
}

/* pto.vmrgsort4 %dest, %src0, %src1, %src2, %src3, %count, %config */
int bind_ptosim_vmrgsort4_params(pt_bind *b, const pa_op *op, ptosim_vmrgsort4_params *p) {
  if (arity(b, op, 7)) return -1;
  p->dst = pt_bind_ptr(b, arg(op, 0));
  for (unsigned i = 0; i < 4; i++) p->src[i] = pt_bind_ptr(b, arg(op, 1 + i));
  p->count = (uint64_t)pt_bind_int(b, arg(op, 5));
  p->config = (uint64_t)pt_bind_int(b, arg(op, 6));
  return 0;
}

/* %l0, %l1, %l2, %l3 = pto.get_vms4_sr */
int bind_ptosim_vms4_sr_params(pt_bind *b, const pa_op *op, ptosim_vms4_sr_params *p) {
  if (arity(b, op, 0)) return -1;
  for (unsigned i = 0; i < 4; i++) p->list[i] = pt_bind_out_int(b, i);
  return 0;
}
