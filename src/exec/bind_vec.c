/* Binders of the A5 vector-core ops (vpto micro-isa chapters 03-11; operand order and
 * attributes from PTOAS VPTOOps.td assemblyFormat), one per params struct of
 * include/ptosim/vec_*.h. Registers, predicates and alignment states are pointers into the
 * core's wide arena (pt_bind_vreg / pt_bind_out); element types come from the static types.
 * Enumerations are spelled as string operands ("NORM", "gt", "PAT_ALL") or attributes
 * ({dist = "NORM"}); their spellings are the tables of src/isa/vec_names.h. */
#include <string.h>

#include "asm/asm.h"
#include "core/dtype.h"
#include "exec/bind_vec.h"
#include "exec/lower.h"
#include "isa/vec_names.h"

/* ---- syntax helpers ------------------------------------------------------------------ */

static unsigned noperands(const pa_op *op) {
  unsigned n = 0;
  for (uint32_t k = 0; k < op->nitems; k++) n += (unsigned)pt_is_operand(&op->items[k]);
  return n;
}

/* Values the op defines (`%a, %b = ...`, `%r:2 = ...`). */
static unsigned nresults(const pa_op *op) {
  unsigned n = 0;
  for (uint32_t r = 0; r < op->nresults; r++) n += op->results[r].count;
  return n;
}

static int arity(pt_bind *b, const pa_op *op, unsigned lo, unsigned hi) {
  unsigned n = noperands(op);
  if (n >= lo && n <= hi) return 0;
  return pt_bind_error(b, NULL, "bind.arity", "check the op's operand list in VPTOOps.td",
                       "expects %u%s operands, got %u", lo, hi > lo ? " or more" : "", n);
}

/* The k-th string operand ("NORM"). */
static const pa_item *string_arg(const pa_op *op, unsigned k) {
  for (uint32_t i = 0; i < op->nitems; i++)
    if (op->items[i].kind == PA_IT_STRING && k-- == 0) return &op->items[i];
  return NULL;
}

/* The index of spelling `it` (a string or a word) in names[0, n); `dflt` when it is absent;
 * else a bind.keyword error naming `what`. */
static int pick(pt_bind *b, const pa_item *it, const char *const *names, int n, int dflt, const char *what) {
  if (!it) return dflt;
  if (it->kind == PA_IT_STRING || it->kind == PA_IT_WORD)
    for (int i = 0; i < n; i++)
      if (names[i] && pa_str_is(it->name, names[i])) return i;
  pt_bind_error(b, it, "bind.keyword", "see the op's page in docs/isa/micro-isa for the spellings", "unknown %s '%.*s'",
                what, (int)it->text.n, it->text.s);
  return dflt;
}

#define NAMES(a) (a), (int)(sizeof(a) / sizeof((a)[0]))

/* `%ptr[%offset]`: the pointer operand and its subscript. */
static ptosim_ptr indexed(pt_bind *b, const pa_item *it, int64_t *offset) {
  if (!it || it->kind != PA_IT_VALUE || it->nargs != 1) {
    pt_bind_error(b, it, "bind.syntax", "write %ptr[%offset]", "expected a subscripted pointer");
    return ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_NONE, 0);
  }
  pa_item base = *it;
  base.nargs = 0;
  base.args = NULL;
  ptosim_ptr p = pt_bind_ptr(b, &base);
  *offset = pt_bind_int(b, &it->args[0]);
  return p;
}

static const pa_item *arg(const pa_op *op, unsigned i) { return pt_operand_item(op, i); }

/* ---- loads and stores (03, 04) ---------------------------------------------------------- */

/* %v [, %base'] = pto.vlds %p[%off] {dist = "D"} */
int bind_ptosim_vlds_params(pt_bind *b, const pa_op *op, ptosim_vlds_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->src = indexed(b, arg(op, 0), &p->offset);
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dtype = t.dt;
  p->dist = (ptosim_vld_dist)pick(b, pa_op_attr(op, "dist"), NAMES(pt_vld_dist_names), PTOSIM_VLD_NORM, "vlds dist");
  if (nresults(op) > 1) p->updated_base = pt_bind_out_ptr(b, 1);
  return 0;
}

/* %lo, %hi [, %base'] = pto.vldsx2 %p[%off], "D" */
int bind_ptosim_vldsx2_params(pt_bind *b, const pa_op *op, ptosim_vldsx2_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->src = indexed(b, arg(op, 0), &p->offset);
  pt_slot_type t;
  p->low = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->high = pt_bind_out(b, 1, PT_VK_VREG, NULL);
  p->dtype = t.dt;
  p->dist = (ptosim_vldx2_dist)pick(b, string_arg(op, 0), NAMES(pt_vldx2_dist_names), 0, "vldsx2 dist");
  if (nresults(op) > 2) p->updated_base = pt_bind_out_ptr(b, 2);
  return 0;
}

/* pto.vsts %v, %p[%off], %mask {dist = "D"} [-> base'] (dist defaults to NORM at the
 * register's lane width) */
int bind_ptosim_vsts_params(pt_bind *b, const pa_op *op, ptosim_vsts_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->dst = indexed(b, arg(op, 1), &p->offset);
  p->mask = pt_bind_mask(b, arg(op, 2), NULL);
  unsigned es = pt_dtype_bits(p->dtype) / 8;
  int norm = es == 1 ? PTOSIM_VST_NORM_B8 : es == 2 ? PTOSIM_VST_NORM_B16 : PTOSIM_VST_NORM_B32;
  p->dist = (ptosim_vst_dist)pick(b, pa_op_attr(op, "dist"), NAMES(pt_vst_dist_names), norm, "vsts dist");
  if (pa_op_attr(op, "dist") && pa_str_is(pa_op_attr(op, "dist")->name, "NORM")) p->dist = (ptosim_vst_dist)norm;
  if (nresults(op) > 0) p->updated_base = pt_bind_out_ptr(b, 0);
  return 0;
}

/* pto.vstsx2 %lo, %hi, %p[%off], "D", %mask */
int bind_ptosim_vstsx2_params(pt_bind *b, const pa_op *op, ptosim_vstsx2_params *p) {
  if (arity(b, op, 4, 4)) return -1;
  p->low = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->high = pt_bind_vreg(b, arg(op, 1), NULL);
  p->dst = indexed(b, arg(op, 2), &p->offset);
  p->mask = pt_bind_mask(b, arg(op, 3), NULL);
  p->dist = (ptosim_vstx2_dist)pick(b, string_arg(op, 0), NAMES(pt_vstx2_dist_names), 0, "vstsx2 dist");
  return 0;
}

/* %v [, %src'] = pto.vsldb %src, %block_stride, %repeat_stride, %mask */
int bind_ptosim_vsldb_params(pt_bind *b, const pa_op *op, ptosim_vsldb_params *p) {
  if (arity(b, op, 4, 4)) return -1;
  p->src = pt_bind_ptr(b, arg(op, 0));
  p->block_stride = pt_bind_int(b, arg(op, 1));
  p->repeat_stride = pt_bind_int(b, arg(op, 2));
  p->mask = pt_bind_mask(b, arg(op, 3), NULL);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  if (nresults(op) > 1) p->updated_base = pt_bind_out_ptr(b, 1);
  return 0;
}

/* pto.vsstb %v, %dst, %block_stride, %repeat_stride, %mask [-> base'] */
int bind_ptosim_vsstb_params(pt_bind *b, const pa_op *op, ptosim_vsstb_params *p) {
  if (arity(b, op, 5, 5)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), NULL);
  p->dst = pt_bind_ptr(b, arg(op, 1));
  p->block_stride = pt_bind_int(b, arg(op, 2));
  p->repeat_stride = pt_bind_int(b, arg(op, 3));
  p->mask = pt_bind_mask(b, arg(op, 4), NULL);
  if (nresults(op) > 0) p->updated_base = pt_bind_out_ptr(b, 0);
  return 0;
}

/* %m [, %base'] = pto.plds / pldi %p[%off], "D" (offset in bytes; pldi: in alignment units) */
int bind_ptosim_plds_params(pt_bind *b, const pa_op *op, ptosim_plds_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->src = indexed(b, arg(op, 0), &p->offset);
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  p->dist = (ptosim_pld_dist)pick(b, string_arg(op, 0), NAMES(pt_pld_dist_names), PTOSIM_PLD_NORM, "plds dist");
  if (nresults(op) > 1) p->updated_base = pt_bind_out_ptr(b, 1);
  return 0;
}

/* [%base' =] pto.psts / psti %m, %p[%off], "D" (offset in bytes; psti: in alignment units) */
int bind_ptosim_psts_params(pt_bind *b, const pa_op *op, ptosim_psts_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->src = pt_bind_mask(b, arg(op, 0), NULL);
  p->dst = indexed(b, arg(op, 1), &p->offset);
  p->dist = (ptosim_pst_dist)pick(b, string_arg(op, 0), NAMES(pt_pst_dist_names), PTOSIM_PST_NORM, "psts dist");
  if (nresults(op) > 0) p->updated_base = pt_bind_out_ptr(b, 0);
  return 0;
}

/* %a = pto.init_align */
int bind_ptosim_init_align_params(pt_bind *b, const pa_op *op, ptosim_init_align_params *p) {
  if (arity(b, op, 0, 0)) return -1;
  p->dst = pt_bind_out(b, 0, PT_VK_ALIGN, NULL);
  return 0;
}

/* %a = pto.vldas %src */
int bind_ptosim_vldas_params(pt_bind *b, const pa_op *op, ptosim_vldas_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->src = pt_bind_ptr(b, arg(op, 0));
  p->dst = pt_bind_out(b, 0, PT_VK_ALIGN, NULL);
  return 0;
}

/* %v, %a' [, %base'] = pto.vldus %src, %a [, %increment] */
int bind_ptosim_vldus_params(pt_bind *b, const pa_op *op, ptosim_vldus_params *p) {
  if (arity(b, op, 2, 3)) return -1;
  p->src = pt_bind_ptr(b, arg(op, 0));
  p->align_in = pt_bind_align(b, arg(op, 1));
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  p->align_out = pt_bind_out(b, 1, PT_VK_ALIGN, NULL);
  if (noperands(op) > 2) {
    p->increment = pt_bind_int(b, arg(op, 2));
    p->updated_base = pt_bind_out_ptr(b, 2);
  }
  return 0;
}

/* %a' = pto.vstus %a, %offset, %v, %base */
int bind_ptosim_vstus_params(pt_bind *b, const pa_op *op, ptosim_vstus_params *p) {
  if (arity(b, op, 4, 4)) return -1;
  p->align_in = pt_bind_align(b, arg(op, 0));
  p->offset = pt_bind_int(b, arg(op, 1));
  p->src = pt_bind_vreg(b, arg(op, 2), &p->dtype);
  p->base = pt_bind_ptr(b, arg(op, 3));
  p->align_out = pt_bind_out(b, 0, PT_VK_ALIGN, NULL);
  if (nresults(op) > 1) p->updated_base = pt_bind_out_ptr(b, 1);
  return 0;
}

/* [%dst' =] pto.vstas %a, %dst, %offset */
int bind_ptosim_vstas_params(pt_bind *b, const pa_op *op, ptosim_vstas_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->align = pt_bind_align(b, arg(op, 0));
  p->dst = pt_bind_ptr(b, arg(op, 1));
  p->offset = pt_bind_int(b, arg(op, 2));
  if (nresults(op) > 0) p->updated_base = pt_bind_out_ptr(b, 0);
  return 0;
}

/* %a', %base' = pto.pstu %a, %m, %base */
int bind_ptosim_pstu_params(pt_bind *b, const pa_op *op, ptosim_pstu_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->align_in = pt_bind_align(b, arg(op, 0));
  p->src = pt_bind_mask(b, arg(op, 1), NULL);
  p->base = pt_bind_ptr(b, arg(op, 2));
  p->align_out = pt_bind_out(b, 0, PT_VK_ALIGN, NULL);
  p->base_out = pt_bind_out_ptr(b, 1);
  return 0;
}

/* A required string operand: the index of its spelling in names (bind.syntax when absent). */
static int required(pt_bind *b, const pa_op *op, const char *const *names, int n, const char *what) {
  const pa_item *it = string_arg(op, 0);
  if (!it) pt_bind_error(b, NULL, "bind.syntax", "see the op's page in docs/isa/micro-isa", "missing %s", what);
  return pick(b, it, names, n, 0, what);
}

/* %a' = pto.vstur %a, %v, %base, "MODE" */
int bind_ptosim_vstur_params(pt_bind *b, const pa_op *op, ptosim_vstur_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->align_in = pt_bind_align(b, arg(op, 0));
  p->src = pt_bind_vreg(b, arg(op, 1), NULL);
  p->base = pt_bind_ptr(b, arg(op, 2));
  p->mode = (ptosim_vstur_mode)required(b, op, NAMES(pt_vstur_mode_names), "vstur mode");
  p->align_out = pt_bind_out(b, 0, PT_VK_ALIGN, NULL);
  return 0;
}

/* pto.vstar %a, %dst */
int bind_ptosim_vstar_params(pt_bind *b, const pa_op *op, ptosim_vstar_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->align = pt_bind_align(b, arg(op, 0));
  p->dst = pt_bind_ptr(b, arg(op, 1));
  return 0;
}

/* pto.sprclr "AR" */
int bind_ptosim_sprclr_params(pt_bind *b, const pa_op *op, ptosim_sprclr_params *p) {
  if (arity(b, op, 0, 0)) return -1;
  p->spr = (ptosim_spr)required(b, op, NAMES(pt_spr_names), "special register");
  return 0;
}

/* [%next =] pto.sprsti / sprsts "AR", %dst[%offset] */
int bind_ptosim_sprst_params(pt_bind *b, const pa_op *op, ptosim_sprst_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->spr = (ptosim_spr)required(b, op, NAMES(pt_spr_names), "special register");
  p->dst = indexed(b, arg(op, 0), &p->offset);
  if (nresults(op) > 0) p->updated_base = pt_bind_out_ptr(b, 0);
  return 0;
}

/* ---- arithmetic, compare, select (06, 07, 08, 11) ------------------------------------------ */

/* %r = pto.vabs %v, %mask */
int bind_ptosim_vunary_params(pt_bind *b, const pa_op *op, ptosim_vunary_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->mask = pt_bind_mask(b, arg(op, 1), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vadd %a, %b, %mask (pto.vsel %a, %b, %mask: lane-wise select) */
int bind_ptosim_vbinary_params(pt_bind *b, const pa_op *op, ptosim_vbinary_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vadds %v, %scalar, %mask */
int bind_ptosim_vscalar_params(pt_bind *b, const pa_op *op, ptosim_vscalar_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->scalar = pt_bind_scalar(b, arg(op, 1));
  p->mask = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r, %carry = pto.vaddc %a, %b, %mask; pto.vaddcs %a, %b, %carry_in, %mask */
int bind_ptosim_vcarry_params(pt_bind *b, const pa_op *op, ptosim_vcarry_params *p) {
  if (arity(b, op, 3, 4)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  unsigned n = noperands(op);
  if (n == 4) p->carry_in = pt_bind_mask(b, arg(op, 2), NULL);
  p->mask = pt_bind_mask(b, arg(op, n - 1), &p->mask_bits);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  p->carry = pt_bind_out(b, 1, PT_VK_MASK, NULL);
  return 0;
}

/* %m = pto.vcmp %a, %b, %seed, "mode" */
int bind_ptosim_vcmp_params(pt_bind *b, const pa_op *op, ptosim_vcmp_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->src0 = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->src1 = pt_bind_vreg(b, arg(op, 1), NULL);
  p->seed = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->mode = (ptosim_vcmp_mode)pick(b, string_arg(op, 0), NAMES(pt_vcmp_names), PTOSIM_VCMP_COUNT, "compare mode");
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  return 0;
}

/* %m = pto.vcmps %v, %scalar, %seed, "mode" */
int bind_ptosim_vcmps_params(pt_bind *b, const pa_op *op, ptosim_vcmps_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->scalar = pt_bind_scalar(b, arg(op, 1));
  p->seed = pt_bind_mask(b, arg(op, 2), &p->mask_bits);
  p->mode = (ptosim_vcmp_mode)pick(b, string_arg(op, 0), NAMES(pt_vcmp_names), PTOSIM_VCMP_COUNT, "compare mode");
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  return 0;
}

/* %r = pto.vselr %src, %idx */
int bind_ptosim_vselr_params(pt_bind *b, const pa_op *op, ptosim_vselr_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->idx = pt_bind_vreg(b, arg(op, 1), NULL);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* ---- predicates and materialization (04, 05) -------------------------------------------- */

/* %m = pto.pset_b32 "PAT" / pto.pge_b32 "PAT" */
int bind_ptosim_pset_params(pt_bind *b, const pa_op *op, ptosim_pset_params *p) {
  if (arity(b, op, 0, 0)) return -1;
  p->pattern = (ptosim_pred_pattern)pick(b, string_arg(op, 0), NAMES(pt_pattern_names), PTOSIM_PAT_ALL, "pattern");
  if (!string_arg(op, 0)) return pt_bind_error(b, NULL, "bind.syntax", "write the pattern: \"PAT_ALL\"", "missing pattern");
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  return 0;
}

/* %m = pto.pltm_b32 %loop, %bound */
int bind_ptosim_pltm_params(pt_bind *b, const pa_op *op, ptosim_pltm_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->loop = pt_bind_int(b, arg(op, 0));
  p->bound = pt_bind_int(b, arg(op, 1));
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  return 0;
}

/* %m, %rest = pto.plt_b32 %count */
int bind_ptosim_plt_params(pt_bind *b, const pa_op *op, ptosim_plt_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->count = pt_bind_int(b, arg(op, 0));
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  p->count_out = pt_bind_out_int(b, 1);
  return 0;
}

/* %m = pto.pand / por / pxor / psel %a, %b, %mask */
int bind_ptosim_pbin_params(pt_bind *b, const pa_op *op, ptosim_pbin_params *p) {
  if (arity(b, op, 3, 3)) return -1;
  p->src0 = pt_bind_mask(b, arg(op, 0), NULL);
  p->src1 = pt_bind_mask(b, arg(op, 1), NULL);
  p->mask = pt_bind_mask(b, arg(op, 2), NULL);
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  return 0;
}

/* %m = pto.pnot %a, %mask */
int bind_ptosim_pnot_params(pt_bind *b, const pa_op *op, ptosim_pnot_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->src = pt_bind_mask(b, arg(op, 0), NULL);
  p->mask = pt_bind_mask(b, arg(op, 1), NULL);
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  return 0;
}

/* %m = pto.ppack / punpack %a, "LOWER|HIGHER"; pto.pbitcast %a */
int bind_ptosim_ppart_params(pt_bind *b, const pa_op *op, ptosim_ppart_params *p) {
  static const char *const parts[] = {"LOWER", "HIGHER"};
  if (arity(b, op, 1, 2)) return -1;
  p->src = pt_bind_mask(b, arg(op, 0), NULL);
  p->part = (ptosim_pred_half)pick(b, string_arg(op, 0), NAMES(parts), PTOSIM_PART_LOWER, "part");
  p->dst = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  return 0;
}

/* %lo, %hi = pto.pintlv_b16 / pdintlv_b16 %a, %b */
int bind_ptosim_ppair_params(pt_bind *b, const pa_op *op, ptosim_ppair_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->src0 = pt_bind_mask(b, arg(op, 0), NULL);
  p->src1 = pt_bind_mask(b, arg(op, 1), NULL);
  p->low = pt_bind_out(b, 0, PT_VK_MASK, NULL);
  p->high = pt_bind_out(b, 1, PT_VK_MASK, NULL);
  return 0;
}

/* %r = pto.vbr %scalar */
int bind_ptosim_vbr_params(pt_bind *b, const pa_op *op, ptosim_vbr_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->value = pt_bind_scalar(b, arg(op, 0));
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vdup %scalar_or_vreg, %mask {position = "LOWEST|HIGHEST"} */
int bind_ptosim_vdup_params(pt_bind *b, const pa_op *op, ptosim_vdup_params *p) {
  static const char *const pos[] = {"LOWEST", "HIGHEST"};
  if (arity(b, op, 2, 2)) return -1;
  pt_slot_type in = pt_bind_type(b, arg(op, 0));
  int vector = b->lowering ? in.kind == PT_VK_VREG : b->prog->operands[b->first].t.kind == PT_VK_VREG;
  if (vector) p->src = pt_bind_vreg(b, arg(op, 0), NULL);
  else p->value = pt_bind_scalar(b, arg(op, 0));
  p->mask = pt_bind_mask(b, arg(op, 1), NULL);
  p->position = (ptosim_vdup_pos)pick(b, pa_op_attr(op, "position"), NAMES(pos), PTOSIM_VDUP_LOWEST, "position");
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dtype = t.dt;
  return 0;
}

/* ---- conversion (09) ------------------------------------------------------------------------- */

/* %r = pto.vcvt %v, %mask {rnd = "R", sat = "SAT", part = "EVEN"} */
int bind_ptosim_vcvt_params(pt_bind *b, const pa_op *op, ptosim_vcvt_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->src_type);
  p->mask = pt_bind_mask(b, arg(op, 1), NULL);
  p->rnd = (ptosim_vrnd)pick(b, pa_op_attr(op, "rnd"), NAMES(pt_vrnd_names), PTOSIM_VRND_NONE, "rounding mode");
  p->sat = (ptosim_vsat)pick(b, pa_op_attr(op, "sat"), NAMES(pt_vsat_names), PTOSIM_VSAT_NONE, "saturation mode");
  p->part = (ptosim_vpart)pick(b, pa_op_attr(op, "part"), NAMES(pt_vpart_names), PTOSIM_VPART_NONE, "part");
  pt_slot_type t;
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, &t);
  p->dst_type = t.dt;
  return 0;
}

/* %r = pto.vtrc %v, %mask, "R" */
int bind_ptosim_vtrc_params(pt_bind *b, const pa_op *op, ptosim_vtrc_params *p) {
  if (arity(b, op, 2, 2)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), &p->dtype);
  p->mask = pt_bind_mask(b, arg(op, 1), NULL);
  p->rnd = (ptosim_vrnd)pick(b, string_arg(op, 0), NAMES(pt_vrnd_names), PTOSIM_VRND_NONE, "rounding mode");
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vci %base {order = "ASC|DESC"} */
int bind_ptosim_vci_params(pt_bind *b, const pa_op *op, ptosim_vci_params *p) {
  static const char *const order[] = {"ASC", "DESC"};
  if (arity(b, op, 1, 1)) return -1;
  p->base = pt_bind_scalar(b, arg(op, 0));
  p->order = (ptosim_vci_order)pick(b, pa_op_attr(op, "order"), NAMES(order), PTOSIM_VCI_ASC, "order");
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}

/* %r = pto.vbitcast %v */
int bind_ptosim_vbitcast_params(pt_bind *b, const pa_op *op, ptosim_vbitcast_params *p) {
  if (arity(b, op, 1, 1)) return -1;
  p->src = pt_bind_vreg(b, arg(op, 0), NULL);
  p->dst = pt_bind_out(b, 0, PT_VK_VREG, NULL);
  return 0;
}
