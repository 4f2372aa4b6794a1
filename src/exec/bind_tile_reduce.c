/* Binders of the tile reduce and expand ops (see bind.h for the two-mode contract). Syntax:
 * PTOAS include/PTO/IR/PTOOps.td and lib/PTO/IR/PTO.cpp, destination-passing style
 *   pto.trowsum ins(%src [, %tmp] : Ts [, Tt]) outs(%dst : Td)
 *   pto.tcolsum ins(%src [, %tmp {isBinary = true}] : ...) outs(%dst : Td) [{isBinary = ...}]
 *   pto.trowexpandmul ins(%src0, %src1 [, %tmp] : ...) outs(%dst : Td)
 * Whether an op takes a tmp tile is checked by its executor (rule <op>.tmp). */
#include "asm/asm.h"
#include "exec/bind_tile.h"
#include "exec/bind_tile_reduce.h"
#include "exec/lower.h"

static int arity(pt_bind *b, const pa_op *op, unsigned lo, unsigned hi) {
  unsigned ni = pt_bind_tile_io_count(op, "ins"), no = pt_bind_tile_io_count(op, "outs");
  if (ni >= lo && ni <= hi && no == 1) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "see the op's ins(...) outs(...) operands in PTOOps.td",
                       "expects ins(%u to %u operands) outs(1), got ins(%u) outs(%u)", lo, hi, ni, no);
}

/* Boolean attribute `key` in the {...} after an ins operand or after the op (false if absent). */
static bool bool_attr(const pa_op *op, const char *key) {
  const pa_item *c = pa_op_clause(op, "ins"), *v = NULL;
  for (uint32_t i = 0; c && c->kind == PA_IT_CALL && i < c->nargs && !v; i++)
    if (c->args[i].attrs) v = pa_dict_get(c->args[i].attrs, key);
  for (uint32_t k = 0; k < op->nitems && !v; k++)
    if (op->items[k].kind == PA_IT_DICT) v = pa_dict_get(&op->items[k], key);
  return v && pa_item_is_word(v, "true");
}

/* ins(%src [, %tmp]) outs(%dst) */
int bind_ptosim_treduce_params(pt_bind *b, const pa_op *op, ptosim_treduce_params *p) {
  if (arity(b, op, 1, 2)) return -1;
  p->src = pt_bind_tile(b, pt_bind_tile_io(b, op, "ins", 0));
  p->has_tmp = pt_bind_tile_io_count(op, "ins") == 2;
  if (p->has_tmp) p->tmp = pt_bind_tile(b, pt_bind_tile_io(b, op, "ins", 1));
  p->dst = pt_bind_tile(b, pt_bind_tile_io(b, op, "outs", 0));
  p->binary = bool_attr(op, "isBinary");
  return 0;
}

/* trowexpand / tcolexpand ins(%src0) outs(%dst); the binary forms ins(%src0, %src1 [, %tmp]) outs(%dst) */
int bind_ptosim_texpand_params(pt_bind *b, const pa_op *op, ptosim_texpand_params *p) {
  int unary = b->opc == PTOSIM_OP_trowexpand || b->opc == PTOSIM_OP_tcolexpand;
  if (unary ? arity(b, op, 1, 1) : arity(b, op, 2, 3)) return -1;
  unsigned ni = pt_bind_tile_io_count(op, "ins");
  p->src0 = pt_bind_tile(b, pt_bind_tile_io(b, op, "ins", 0));
  if (ni >= 2) p->src1 = pt_bind_tile(b, pt_bind_tile_io(b, op, "ins", 1));
  p->has_tmp = ni == 3;
  if (p->has_tmp) p->tmp = pt_bind_tile(b, pt_bind_tile_io(b, op, "ins", 2));
  p->dst = pt_bind_tile(b, pt_bind_tile_io(b, op, "outs", 0));
  return 0;
}
