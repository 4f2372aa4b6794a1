/* Pipes held by a wait_flag issued before its set_flag (src/isa/sync.c).
 *
 * On the chip a wait_flag(P, Q) blocks the queue of pipe Q only: the scalar unit goes on
 * issuing, and a set_flag(P, Q) issued later on P releases Q. ptosim runs in program
 * order, so such a wait parks pipe Q instead: the wait and every later op issued to Q are
 * queued (with a copy of their parameters and of the core's special registers as issued)
 * and run, in order, as soon as the set arrives. A park that nothing releases by the end
 * of the core's program, or a barrier of every pipe while a pipe is parked, is a
 * deadlock. */
#ifndef PT_PARK_H
#define PT_PARK_H

#include "core/machine.h"

/* Status of a wait_flag body that parked its pipe (not an error; ptosim_exec returns OK). */
#define PT_E_PARKED ((ptosim_status)65)

/* Called by ptosim_exec before an op runs: when the op's pipe is parked, queue it and
 * return 1 with *st its status (OK, or a deadlock for a barrier of every pipe). */
int pt_park_hold(pt_ctx *x, const void *params, ptosim_status *st);
/* Called by ptosim_exec after an op ran: run what its effects release; returns st, with
 * PT_E_PARKED made OK, or the error of a released op. */
ptosim_status pt_park_after(ptosim_core *c, ptosim_status st);
/* Run an op that is not held (src/isa/dispatch.c): the eager schedule, the recorded
 * event or the plain body. */
ptosim_status pt_exec_issue(pt_ctx *x, const void *params);
/* The core's program ended at `end`: a pipe still parked is a deadlock. */
ptosim_status pt_park_finish(ptosim_core *c, ptosim_loc end);

#endif
