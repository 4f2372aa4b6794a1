/* The hook of an op scheduler above the machine: the eager schedule of the monitor
 * (src/check/eager.c, ptosim_monitor_opts.schedule = PTOSIM_SCHEDULE_EAGER) installs its
 * operations in machine.sched / machine.sched_ops; ptosim_exec and the interpreter call
 * them through these wrappers, so no lower layer calls the checkers by name. */
#ifndef PT_SCHED_H
#define PT_SCHED_H

#include "core/machine.h"

typedef struct pt_sched pt_sched;
typedef struct pt_sched_ops {
  /* Issue op x->op (checked by ptosim_exec) with `params`, a struct of plain data. */
  ptosim_status (*exec)(pt_sched *s, pt_ctx *x, const void *params);
  /* Core c issues nothing more until the next drain. */
  void (*core_done)(pt_sched *s, const ptosim_core *c);
  /* Run every op still queued and land every write still in flight. */
  ptosim_status (*drain)(pt_sched *s);
} pt_sched_ops;

static inline ptosim_status pt_sched_issue(ptosim_machine *m, pt_ctx *x, const void *params) {
  return m->sched_ops->exec(m->sched, x, params);
}
static inline void pt_sched_finish_core(ptosim_machine *m, const ptosim_core *c) {
  if (m->sched) m->sched_ops->core_done(m->sched, c);
}
static inline ptosim_status pt_sched_flush(ptosim_machine *m) {
  return m->sched ? m->sched_ops->drain(m->sched) : PTOSIM_OK;
}

#endif
