/* Constant-operand checks of `ptosim check`.
 *
 * After lowering, the machine ops whose operands are all known without running the
 * program (literals, arith.constant values and what pure arith / castptr / addptr ops
 * compute from them, each defined once) are executed, in program order, on a scratch
 * machine of the module's target in verify-only mode, so that every constraint the
 * executors check (field ranges, alignment, local-memory bounds, dtype pairs of the
 * target) is reported with the op's location before any run. GM pointers need not be
 * known: in verify-only mode GM accesses land in a scratch buffer (see ptosim_machine).
 *
 * What is left out, so that check never reports what a run would not:
 *  - ops with an operand computed at run time (block index, loop variable, loaded value);
 *  - synchronization ops (their effect is state across pipes and cores) and tile ops
 *    (their tiles are objects made at run time; their static rules are checked while
 *    binding);
 *  - a diagnostic raised after the op read memory contents or a special register (the
 *    scratch machine does not hold the values a run would), except the accessor's own
 *    mem.* rules, which depend only on addresses.
 * An op in a branch or loop is checked once, whether or not a run would reach it. */
#include <stdlib.h>
#include <string.h>

#include "exec/lower.h"
#include "isa/isa.h"

/* Slots a pure instruction reads; returns how many (0..3). */
static int pure_inputs(const pt_ins *in, int32_t out[3]) {
  switch ((pt_code)in->code) {
  case PT_C_CONST: return 0;
  case PT_C_MOV:
  case PT_C_CAST:
  case PT_C_NEGF:
  case PT_C_CASTPTR:
  case PT_C_PTRTOINT: out[0] = in->a; return 1;
  case PT_C_SELECT: out[2] = in->c; /* fall through */
  case PT_C_BIN:
  case PT_C_CMPI:
  case PT_C_CMPF:
  case PT_C_ADDPTR:
    out[0] = in->a;
    out[1] = in->b;
    return in->code == PT_C_SELECT ? 3 : 2;
  default: return -1;
  }
}

/* The slot an instruction writes, or -1. */
static int32_t written_slot(const pt_ins *in) {
  switch ((pt_code)in->code) {
  case PT_C_FOR_NEXT: return in->a;
  case PT_C_NOP:
  case PT_C_JMP:
  case PT_C_JZ:
  case PT_C_SECTION:
  case PT_C_STORE:
  case PT_C_RETURN: return -1;
  default: return in->dst;
  }
}

typedef struct scan {
  const ptosim_program *p;
  pt_val *vals;
  uint8_t *known;
} scan;

/* An operand is usable when its value is known or it is a GM pointer (whose accesses a
 * verify-only machine does not resolve). The stand-in address is 4 GiB: aligned for every
 * rule, and not 0, which ops read as "no buffer given" (an A2/A3 pipe's gm_slot). */
static int usable(scan *s, int32_t slot) {
  if (slot < 0 || s->known[slot]) return 1;
  pt_slot_type t = s->p->slots[slot];
  if (t.kind != PT_VK_PTR || t.space != PTOSIM_GM) return 0;
  s->vals[slot].p = ptosim_ptr_make(PTOSIM_GM, t.dt, UINT64_C(1) << 32);
  return 1;
}

static void check_op(pt_lower *L, scan *s, ptosim_machine *m, const pt_ins *in) {
  ptosim_opcode opc = (ptosim_opcode)in->opc;
  int kind = pt_op_core_kind(opc);
  if (kind < 0 || in->obj >= 0 || !strcmp(ptosim_op_family(opc), "SYNC")) return;
  for (int32_t k = 0; k < in->op_count; k++) {
    int32_t slot = s->p->operands[in->op_first + k].slot;
    if (!usable(s, slot) || (slot >= 0 && pt_wide_size(s->p->slots[slot].kind))) return; /* registers: run time */
  }
  pt_bind b = {.lowering = 0, .prog = (ptosim_program *)s->p, .first = in->op_first, .count = in->op_count,
               .slots = s->vals, .res_slot = in->dst, .res_obj = -1};
  unsigned char params[PT_PARAMS_MAX];
  memset(params, 0, sizeof params);
  if (pt_bind_op(&b, opc, in->src, params)) return;
  m->state_read = 0;
  ptosim_loc loc = {s->p->ast->file, (int)in->src->loc.line, (int)in->src->loc.col};
  ptosim_status st = ptosim_exec(ptosim_core_of(m, 0, (ptosim_core_kind)kind), opc, params, &loc);
  if (st != PTOSIM_E_VERIFY && st != PTOSIM_E_FAULT) return;
  const ptosim_diag *d = ptosim_last_diag(m);
  if (m->state_read && strncmp(d->rule, "mem.", 4)) return;
  pt_lower_errorf(L, in->src->loc, d->rule, d->hint[0] ? d->hint : NULL, "%s: %s", d->op, d->msg);
}

void pt_static_check(pt_lower *L) {
  const ptosim_program *p = pt_lower_program(L);
  scan s = {p, calloc((size_t)p->nslots + 1, sizeof *s.vals), calloc((size_t)p->nslots + 1, 1)};
  uint8_t *ndef = calloc((size_t)p->nslots + 1, 1);
  ptosim_machine *m = ptosim_machine_new(p->target, 1);
  if (!s.vals || !s.known || !ndef || !m) goto done;
  m->verify_only = 1;
  for (int32_t i = 0; i < p->ncode; i++) {
    int32_t w = written_slot(&p->code[i]);
    if (w >= 0 && ndef[w] < 2) ndef[w]++;
  }
  for (int32_t i = 0; i < p->ncode; i++) {
    const pt_ins *in = &p->code[i];
    if (in->code == PT_C_PTO) {
      check_op(L, &s, m, in);
      continue;
    }
    if (in->code == PT_C_FOR_NEXT && s.known[in->c] && s.vals[in->c].i <= 0) { /* would never end */
      pt_lower_errorf(L, in->src->loc, "run.for_step", "scf.for steps must be positive", "scf.for step %lld is not positive",
                      (long long)s.vals[in->c].i);
      continue;
    }
    int32_t inputs[3];
    int n = pure_inputs(in, inputs);
    if (n < 0 || in->dst < 0 || ndef[in->dst] != 1) continue;
    int all = 1;
    for (int k = 0; k < n; k++) all &= s.known[inputs[k]];
    if (all && pt_eval_pure(p, in, s.vals) > 0) s.known[in->dst] = 1;
  }
done:
  ptosim_machine_free(m);
  free(ndef);
  free(s.vals);
  free(s.known);
}
