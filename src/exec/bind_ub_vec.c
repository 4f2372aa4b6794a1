/* Binders of the A2/A3 UB vector ops (operand order from tonibohnlein/PTOAS VPTOUbOps.td
 * assemblyFormat): pointers first, then the i64 operands in the order the op lists them.
 * Which of the unary shapes an op has is fixed by its name (syntax, never by values). */
#include <string.h>

#include "asm/asm.h"
#include "exec/bind_ub_vec.h"
#include "exec/lower.h"

static int arity(pt_bind *b, const pa_op *op, unsigned want) {
  unsigned n = 0;
  for (uint32_t k = 0; k < op->nitems; k++) n += (unsigned)pt_is_operand(&op->items[k]);
  if (n == want) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "check the op's operand list in VPTOUbOps.td", "expects %u operands, got %u",
                       want, n);
}

static const pa_item *arg(const pa_op *op, unsigned i) { return pt_operand_item(op, i); }

/* The name after "pto.ub." is one of names[0, n). */
static int named(const pa_op *op, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (op->name.n == 7 + strlen(names[i]) && !memcmp(op->name.s + 7, names[i], op->name.n - 7)) return 1;
  return 0;
}

/* pto.ub.vadd %dst, %src0, %src1, %repeat, %dst_bs, %src0_bs, %src1_bs, %dst_rs, %src0_rs, %src1_rs */
int bind_ptosim_ub_binary_params(pt_bind *b, const pa_op *op, ptosim_ub_binary_params *p) {
  if (arity(b, op, 10)) return -1;
  p->dst = pt_bind_ptr(b, arg(op, 0));
  p->src0 = pt_bind_ptr(b, arg(op, 1));
  p->src1 = pt_bind_ptr(b, arg(op, 2));
  int64_t *f[7] = {&p->repeat,           &p->dst_block_stride,  &p->src0_block_stride, &p->src1_block_stride,
                   &p->dst_repeat_stride, &p->src0_repeat_stride, &p->src1_repeat_stride};
  for (unsigned i = 0; i < 7; i++) *f[i] = pt_bind_int(b, arg(op, 3 + i));
  return 0;
}

/* pto.ub.vexp %dst, %src, %repeat, %dst_bs, %src_bs, %dst_rs, %src_rs;
 * pto.ub.vshl / vshr / vmuls / vadds / vmaxs / vmins %dst, %src, %scalar, <the same five>;
 * pto.ub.vdup %dst, %scalar, <the same five> */
int bind_ptosim_ub_unary_params(pt_bind *b, const pa_op *op, ptosim_ub_unary_params *p) {
  static const char *const scalar_ops[] = {"vshl", "vshr", "vmuls", "vadds", "vmaxs", "vmins"}, *const dup[] = {"vdup"};
  int is_dup = named(op, dup, 1), has_scalar = is_dup || named(op, scalar_ops, 6);
  unsigned i = 0;
  if (arity(b, op, 7u + (has_scalar && !is_dup))) return -1;
  p->dst = pt_bind_ptr(b, arg(op, i++));
  if (!is_dup) p->src = pt_bind_ptr(b, arg(op, i++));
  if (has_scalar) p->scalar = pt_bind_int(b, arg(op, i++));
  int64_t *f[5] = {&p->repeat, &p->dst_block_stride, &p->src_block_stride, &p->dst_repeat_stride, &p->src_repeat_stride};
  for (unsigned k = 0; k < 5; k++) *f[k] = pt_bind_int(b, arg(op, i++));
  return 0;
}

/* pto.ub.set_mask %mask0, %mask1; pto.ub.set_mask_count / set_mask_norm (no operands) */
int bind_ptosim_ub_mask_params(pt_bind *b, const pa_op *op, ptosim_ub_mask_params *p) {
  static const char *const set_mask[] = {"set_mask"};
  int has_masks = named(op, set_mask, 1);
  if (arity(b, op, has_masks ? 2 : 0)) return -1;
  if (!has_masks) return 0;
  p->mask0 = (uint64_t)pt_bind_int(b, arg(op, 0));
  p->mask1 = (uint64_t)pt_bind_int(b, arg(op, 1));
  return 0;
}
