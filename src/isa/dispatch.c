/* Dispatch, generated from the op table: each implemented row's executor, called through
 * one signature. The op metadata is in src/core/optable.c. */
#include <stddef.h>
#include <string.h>

#include "core/optable.h"
#include "core/sched.h"
#include "isa/isa.h"
#include "isa/park.h"

typedef ptosim_status (*pt_exec_fn)(pt_ctx *, const void *);

#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, text, cost, flags, formula) \
  static ptosim_status call_##id(pt_ctx *x, const void *p) { return exec(x, (const params_t *)p); }
#include "isa/ops.def"
#undef PTOSIM_OP

/* Executors by opcode; NULL for rows without one (not yet implemented, lowered). */
static const pt_exec_fn executors[PTOSIM_OP_COUNT] = {
#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, text, cost, flags, formula) \
  [PTOSIM_OP_##id] = call_##id,
#include "isa/ops.def"
#undef PTOSIM_OP
};

ptosim_status ptosim_exec(ptosim_core *c, ptosim_opcode op, const void *params, const ptosim_loc *loc) {
  if (!c) return PTOSIM_E_USAGE;
  pt_ctx x = {.m = c->m, .core = c, .op = op};
  if (loc) x.loc = *loc;
  if ((unsigned)op >= PTOSIM_OP_COUNT || !params)
    return pt_fail(&x, PTOSIM_E_USAGE, "api.args", "pass a valid opcode and parameter block",
                   "bad opcode %d or null parameters", (int)op);
  if (!executors[op])
    return pt_fail(&x, PTOSIM_E_VERIFY, "op.unsupported", "see `ptosim ops --status not-yet`",
                   "not supported yet: %s", ptosim_op_spelling(op));
  int kind = pt_op_core_kind(op);
  if (kind >= 0 && (kind == PTOSIM_AIC) != (c->kind == PTOSIM_AIC))
    return pt_fail(&x, PTOSIM_E_VERIFY, "op.unit",
                   kind == PTOSIM_AIC ? "issue it from the cube core (section.cube)" : "issue it from a vector core (section.vector)",
                   "runs on the %s core, not the %s core", kind == PTOSIM_AIC ? "cube" : "vector", kind == PTOSIM_AIC ? "vector" : "cube");
  c->m->ops_executed++;
  ptosim_status st;
  if (c->park && pt_park_hold(&x, params, &st)) return st; /* its pipe waits for a set (park.h) */
  return pt_park_after(c, pt_exec_issue(&x, params));
}

ptosim_status pt_exec_issue(pt_ctx *x, const void *params) {
  if (x->m->sched) return pt_sched_issue(x->m, x, params);
  if (!x->m->listener) return executors[x->op](x, params);
  pt_event ev;
  return pt_exec_recorded(x, params, &ev);
}

ptosim_status pt_exec_body(pt_ctx *x, const void *params) { return executors[x->op](x, params); }

ptosim_status pt_exec_recorded(pt_ctx *x, const void *params, pt_event *ev) {
  memset(ev, 0, offsetof(pt_event, ranges)); /* the ranges are filled up to nranges */
  ev->op = x->op;
  ev->core = x->core;
  ev->loc = x->loc;
  ev->pipe = ptosim_op_pipe_id(x->op);
  x->ev = ev;
  ptosim_status st = executors[x->op](x, params);
  x->ev = NULL;
  if (st == PTOSIM_OK) x->m->listener(x->m->listener_user, ev);
  return st;
}
