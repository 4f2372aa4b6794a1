/* Binder of the elementwise vector tile ops (see bind.h for the two-mode contract). The
 * syntax of each op is its form in PTOAS include/PTO/IR/PTOOps.td (hw-native-sys; taddrelu
 * from tonibohnlein): `pto.tX ins(<operands> : <types>) outs(%dst : T)`, the operands one
 * of the signatures below; tcvt and tcmp-style attributes may sit in the ins(...) clause
 * (`ins(%src {rmode = #pto<round_mode ROUND>} : T)`, lib/PTO/IR/PTO.cpp TCvtOp::parse). */
#include <string.h>

#include "asm/asm.h"
#include "exec/bind_tile.h"
#include "exec/bind_tile_elem.h"
#include "exec/lower.h"

/* ins(...) operands in order: T a tile source (src0, src1, src2 in turn), t the scratch
 * tile, M the predicate tile of tsel / tsels, S the scalar; an operand followed by '?' is
 * optional (left out when ins(...) has one operand fewer). */
static const char *const k_sig[PTOSIM_OP_COUNT] = {
    [PTOSIM_OP_tadd] = "TT",     [PTOSIM_OP_tsub] = "TT",     [PTOSIM_OP_tmul] = "TT",     [PTOSIM_OP_tdiv] = "TT",
    [PTOSIM_OP_tmax] = "TT",     [PTOSIM_OP_tmin] = "TT",     [PTOSIM_OP_tand] = "TT",     [PTOSIM_OP_tor] = "TT",
    [PTOSIM_OP_txor] = "TTt?",   [PTOSIM_OP_tshl] = "TT",     [PTOSIM_OP_tshr] = "TT",     [PTOSIM_OP_tfmod] = "TT",
    [PTOSIM_OP_trem] = "TTt?",   [PTOSIM_OP_tprelu] = "TTt?", [PTOSIM_OP_taddrelu] = "TT", [PTOSIM_OP_taddc] = "TTT",
    [PTOSIM_OP_tsubc] = "TTT",   [PTOSIM_OP_tadds] = "TS",    [PTOSIM_OP_tsubs] = "TS",    [PTOSIM_OP_tmuls] = "TS",
    [PTOSIM_OP_tdivs] = "TS",    [PTOSIM_OP_tmaxs] = "TS",    [PTOSIM_OP_tmins] = "TS",    [PTOSIM_OP_tands] = "TS",
    [PTOSIM_OP_tors] = "TS",     [PTOSIM_OP_txors] = "TSt?",  [PTOSIM_OP_tshls] = "TS",    [PTOSIM_OP_tshrs] = "TS",
    [PTOSIM_OP_tfmods] = "TS",   [PTOSIM_OP_trems] = "TSt?",  [PTOSIM_OP_tlrelu] = "TS",   [PTOSIM_OP_taddsc] = "TST",
    [PTOSIM_OP_tsubsc] = "TST",  [PTOSIM_OP_taxpy] = "TS",    [PTOSIM_OP_tabs] = "T",      [PTOSIM_OP_tneg] = "T",
    [PTOSIM_OP_tnot] = "T",      [PTOSIM_OP_texp] = "T",      [PTOSIM_OP_tlog] = "T",      [PTOSIM_OP_tsqrt] = "T",
    [PTOSIM_OP_trsqrt] = "Tt?",  [PTOSIM_OP_trecip] = "T",    [PTOSIM_OP_trelu] = "T",     [PTOSIM_OP_texpands] = "S",
    [PTOSIM_OP_tcvt] = "Tt?",    [PTOSIM_OP_tcmp] = "TT",     [PTOSIM_OP_tcmps] = "TS",    [PTOSIM_OP_tsel] = "MTTt?",
    [PTOSIM_OP_tsels] = "MTt?S", [PTOSIM_OP_tpow] = "TTt?",   [PTOSIM_OP_tpows] = "TSt?",   [PTOSIM_OP_tadddeqrelu] = "TTSt",
};

static unsigned ins_count(const pa_op *op) {
  const pa_item *c = pa_op_clause(op, "ins");
  return c && c->kind == PA_IT_CALL ? c->nargs : 0;
}

/* tdivs ins(%s, %tile : f32, T): the scalar first (PTO.cpp TDivSOp::parse keeps the order). */
static int scalar_first(const pa_op *op) {
  const pa_item *c = pa_op_clause(op, "ins");
  return c && c->ntypes > 0 && c->types[0] && c->types[0]->kind != PA_TY_TILE_BUF;
}

/* The enum of the op's precisionType attribute (PTOAS PTOAttrs.td, PTOOps.td), or NULL when
 * the op takes none. */
static const char *precision_kind(ptosim_opcode opc) {
  switch (opc) {
    case PTOSIM_OP_tpow:
    case PTOSIM_OP_tpows: return "pow_precision";
    case PTOSIM_OP_texp: return "exp_precision";
    case PTOSIM_OP_tlog: return "log_precision";
    case PTOSIM_OP_tsqrt: return "sqrt_precision";
    case PTOSIM_OP_trsqrt: return "rsqrt_precision";
    case PTOSIM_OP_trecip: return "recip_precision";
    case PTOSIM_OP_tdiv:
    case PTOSIM_OP_tdivs:
    case PTOSIM_OP_trowexpanddiv:
    case PTOSIM_OP_tcolexpanddiv: return "div_precision";
    case PTOSIM_OP_tfmod: return "fmod_precision";
    case PTOSIM_OP_trem: return "rem_precision";
    default: return NULL;
  }
}

/* Whether attribute v names enum `kind`: #pto<KIND value> or #pto.KIND<value>. */
static bool names_kind(const pa_item *v, const char *kind) {
  size_t n = strlen(kind);
  if (v->nargs == 2) return pa_item_is_word(&v->args[0], kind);
  return v->name.n == 4 + n && !memcmp(v->name.s, "pto.", 4) && !memcmp(v->name.s + 4, kind, n);
}

/* {precisionType = #pto<KIND default|high_precision>}, KIND the op's own enum (the attribute
 * is typed, PTOOps.td); DEFAULT when absent. trsqrt and trowexpanddiv HIGH_PRECISION need their
 * tmp operand (PTO.cpp TRsqrtOp::verify, TRowExpandDivOp::verify). */
int pt_bind_precision(pt_bind *b, const pa_op *op, bool has_tmp, bool *hp) {
  static const char *const prec[] = {"default", "high_precision"};
  const char *kind = precision_kind(b->opc);
  *hp = false;
  if (!kind) return 0;
  int h = pt_tile_enum_attr(b, op, "precisionType", prec, 2, 0);
  if (h < 0) return -1;
  const pa_item *v = pt_tile_attr(op, "precisionType");
  if (v && !names_kind(v, kind))
    return pt_bind_error(b, v, "bind.keyword", "write the op's own enum (PTOAttrs.td)",
                         "precisionType '%.*s' is not a #pto<%s ...>", (int)v->text.n, v->text.s, kind);
  bool needs_tmp = b->opc == PTOSIM_OP_trsqrt || b->opc == PTOSIM_OP_trowexpanddiv;
  if (h == 1 && needs_tmp && !has_tmp)
    return pt_bind_error(b, v, "bind.arity", "add the tmp tile as the last ins(...) operand",
                         "precisionType high_precision needs the tmp operand");
  *hp = h == 1;
  return 0;
}

int bind_ptosim_telem_params(pt_bind *b, const pa_op *op, ptosim_telem_params *p) {
  const char *sig = (unsigned)b->opc < PTOSIM_OP_COUNT ? k_sig[b->opc] : NULL;
  if (!sig) return pt_bind_error(b, NULL, "bind.op", "report this: the op has no signature", "no ins(...) form");
  const char *opt = strchr(sig, '?');
  unsigned full = (unsigned)strlen(sig) - (opt != NULL), got = ins_count(op), want = full;
  const pa_item *outs = pa_op_clause(op, "outs");
  unsigned nouts = outs && outs->kind == PA_IT_CALL ? outs->nargs : 0;
  if (opt && got == full - 1) want--;
  p->no_tmp = want < full; /* txor & co. without tmp: PTOAS materializes one (PTOMaterializeImplicitTmp) */
  if (got != want || nouts != 1)
    return pt_bind_error(b, NULL, "bind.arity", "see the op's ins(...) outs(...) operands in PTOOps.td",
                         "expects ins(%u operands) outs(1), got ins(%u) outs(%u)", want, got, nouts);
  char order[8] = {0}; /* the signature without '?' and, when left out, the optional operand */
  for (unsigned i = 0, k = 0; sig[i]; i++)
    if (sig[i] != '?' && !(want < full && sig[i + 1] == '?')) order[k++] = sig[i];
  if (b->opc == PTOSIM_OP_tdivs && scalar_first(op)) {
    memcpy(order, "ST", 2);
    p->scalar_first = true;
  }
  ptosim_tile *srcs[] = {&p->src0, &p->src1, &p->src2};
  unsigned ns = 0;
  for (unsigned i = 0; i < want; i++) {
    const pa_item *it = pt_tile_io(b, op, "ins", i);
    if (order[i] == 'T') *srcs[ns++] = pt_bind_tile(b, it);
    else if (order[i] == 't') p->tmp = pt_bind_tile(b, it), p->has_tmp = true;
    else if (order[i] == 'M') p->mask = pt_bind_tile(b, it);
    else p->scalar = pt_bind_scalar(b, it);
  }
  p->dst = pt_bind_tile(b, pt_tile_io(b, op, "outs", 0));
  if (b->opc == PTOSIM_OP_tcmp || b->opc == PTOSIM_OP_tcmps) {
    static const char *const cmp[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    int m = pt_tile_enum_attr(b, op, "cmpMode", cmp, 6, PTOSIM_TCMP_EQ);
    p->cmp = (ptosim_tcmp_mode)m;
    return m < 0 ? -1 : 0;
  }
  if (b->opc != PTOSIM_OP_tcvt) return pt_bind_precision(b, op, p->has_tmp, &p->high_precision);
  static const char *const rmode[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD", "CAST_RINT"};
  static const char *const sat[] = {[PTOSIM_TSAT_ON] = "ON", [PTOSIM_TSAT_OFF] = "OFF"};
  int r = pt_tile_enum_attr(b, op, "rmode", rmode, 8, PTOSIM_RM_CAST_RINT);
  int s = pt_tile_enum_attr(b, op, "sat_mode", sat, 3, PTOSIM_TSAT_DEFAULT);
  if (r < 0 || s < 0) return -1;
  p->rmode = (ptosim_round_mode)r;
  p->sat = (ptosim_tsat_mode)s;
  return 0;
}
