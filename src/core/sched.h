/* The eager schedule (ptosim_monitor_opts.schedule = PTOSIM_SCHEDULE_EAGER), implemented
 * by the monitor in src/check/eager.c. ptosim_exec hands it every op of a machine whose
 * `sched` is set; the interpreter tells it when a core has returned and when a block is
 * over. */
#ifndef PT_SCHED_H
#define PT_SCHED_H

#include "core/machine.h"

typedef struct pt_sched pt_sched;
/* Issue op x->op (checked by ptosim_exec) with `params`, a struct of plain data. */
ptosim_status pt_sched_exec(pt_sched *s, pt_ctx *x, const void *params);
/* Core c issues nothing more until the next drain. */
void pt_sched_core_done(pt_sched *s, const ptosim_core *c);
/* Run every op still queued and land every write still in flight. */
ptosim_status pt_sched_drain(pt_sched *s);

#endif
