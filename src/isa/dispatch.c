/* Dispatch and metadata, generated from the op table. */
#include <string.h>

#include "core/sched.h"
#include "isa/isa.h"
#include "isa/park.h"

typedef ptosim_status (*pt_exec_fn)(pt_ctx *, const void *);
typedef enum { UNIT_AIC, UNIT_AIV, UNIT_ANY } pt_unit;

#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, formula) \
  static ptosim_status call_##id(pt_ctx *x, const void *p) { return exec(x, (const params_t *)p); }
#include "isa/ops.def"
#undef PTOSIM_OP

static const struct {
  const char *spelling, *family, *pipe, *formula;
  ptosim_pipe pipe_id;
  pt_unit unit;
  pt_exec_fn exec;
  size_t params_size;
} table[PTOSIM_OP_COUNT] = {
#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, formula) \
  {spelling, #family, #pipe, formula, PTOSIM_PIPE_##pipe, UNIT_##unit, call_##id, sizeof(params_t)},
#include "isa/ops.def"
#undef PTOSIM_OP
};

const char *ptosim_op_spelling(ptosim_opcode op) { return op < PTOSIM_OP_COUNT ? table[op].spelling : "?"; }
const char *ptosim_op_family(ptosim_opcode op) { return op < PTOSIM_OP_COUNT ? table[op].family : "?"; }
const char *ptosim_op_pipe(ptosim_opcode op) { return op < PTOSIM_OP_COUNT ? table[op].pipe : "?"; }
const char *ptosim_pipe_name(ptosim_pipe p) {
  static const char *const names[] = {"PIPE_S", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                      "PIPE_M", "PIPE_V",    "PIPE_FIX",  "PIPE_ALL"};
  return (unsigned)p <= PTOSIM_PIPE_ALL ? names[p] : "PIPE_?";
}

ptosim_pipe ptosim_op_pipe_id(ptosim_opcode op) { return op < PTOSIM_OP_COUNT ? table[op].pipe_id : PTOSIM_PIPE_S; }
const char *ptosim_op_formula(ptosim_opcode op) { return op < PTOSIM_OP_COUNT ? table[op].formula : "?"; }
int ptosim_op_implemented(ptosim_opcode op) { return op < PTOSIM_OP_COUNT && table[op].exec != NULL; }

size_t pt_op_params_size(ptosim_opcode op) { return op < PTOSIM_OP_COUNT ? table[op].params_size : 0; }

int pt_op_core_kind(ptosim_opcode op) {
  if (op >= PTOSIM_OP_COUNT || table[op].unit == UNIT_ANY) return -1;
  return table[op].unit == UNIT_AIC ? PTOSIM_AIC : PTOSIM_AIV0;
}

ptosim_opcode ptosim_op_lookup(const char *spelling) {
  for (int i = 0; i < PTOSIM_OP_COUNT; i++)
    if (!strcmp(table[i].spelling, spelling)) return (ptosim_opcode)i;
  return PTOSIM_OP_COUNT;
}

ptosim_status ptosim_exec(ptosim_core *c, ptosim_opcode op, const void *params, const ptosim_loc *loc) {
  if (!c) return PTOSIM_E_USAGE;
  pt_ctx x = {.m = c->m, .core = c, .op = op};
  if (loc) x.loc = *loc;
  if ((unsigned)op >= PTOSIM_OP_COUNT || !params)
    return pt_fail(&x, PTOSIM_E_USAGE, "api.args", "pass a valid opcode and parameter block",
                   "bad opcode %d or null parameters", (int)op);
  pt_unit u = table[op].unit;
  if ((u == UNIT_AIC && c->kind != PTOSIM_AIC) || (u == UNIT_AIV && c->kind == PTOSIM_AIC))
    return pt_fail(&x, PTOSIM_E_VERIFY, "op.unit",
                   u == UNIT_AIC ? "issue it from the cube core (section.cube)" : "issue it from a vector core (section.vector)",
                   "%s runs on the %s core", table[op].spelling, u == UNIT_AIC ? "cube" : "vector");
  c->m->ops_executed++;
  ptosim_status st;
  if (c->park && pt_park_hold(&x, params, &st)) return st; /* its pipe waits for a set (park.h) */
  return pt_park_after(c, pt_exec_issue(&x, params));
}

ptosim_status pt_exec_issue(pt_ctx *x, const void *params) {
  if (x->m->sched) return pt_sched_exec(x->m->sched, x, params);
  if (!x->m->listener) return pt_exec_body(x, params);
  pt_event ev;
  return pt_exec_recorded(x, params, &ev);
}

ptosim_status pt_exec_body(pt_ctx *x, const void *params) { return table[x->op].exec(x, params); }

ptosim_status pt_exec_recorded(pt_ctx *x, const void *params, pt_event *ev) {
  memset(ev, 0, sizeof *ev);
  ev->op = x->op;
  ev->core = x->core;
  ev->loc = x->loc;
  ev->pipe = table[x->op].pipe_id;
  x->ev = ev;
  ptosim_status st = table[x->op].exec(x, params);
  x->ev = NULL;
  if (st == PTOSIM_OK) x->m->listener(x->m->listener_user, ev);
  return st;
}
