/* The synchronization model shared by the race checker and the cost model.
 *
 * Agents are the pipes of the cores of a block: agent = core kind * 7 + pipe (21 per
 * block). Each agent has a vector clock (happens-before) and the time at which it is free
 * (cycles). One step per event:
 *  - every instruction is issued by the scalar pipe S in program order, costing `issue`
 *    cycles of S; an op on pipe P inherits what S knows (vc[P] |= vc[S]) and starts when
 *    both P is free and S has issued it; it lasts `dur` cycles;
 *  - set_flag / rls_buf / cross-core set publish the source pipe's clock and time in a
 *    signal; wait_flag / get_buf / cross-core wait join it into the waiting pipe;
 *  - barrier(PIPE_ALL) joins every pipe of the core, mem_bar VS_* joins V into S;
 *  - pto.syncall: an arrival drains the core and joins its knowledge into the round's (per
 *    block); a departure joins its own block's part into every pipe and records the round.
 * Blocks synchronize only through pto.syncall: an access of another block is ordered when
 * it happened before that block arrived at the newest round the agent has left. */
#ifndef PT_CLOCKS_H
#define PT_CLOCKS_H

#include <stdint.h>

#include "core/event.h"
#include "core/machine.h"

#define PT_NAGENT (3 * PTOSIM_PIPE_COUNT)

/* An access epoch: block, agent and that agent's clock when it accessed. */
typedef uint64_t pt_epoch;
static inline pt_epoch pt_epoch_make(int block, int agent, uint32_t clock) {
  return ((uint64_t)(uint32_t)block << 40) | ((uint64_t)agent << 32) | clock;
}
static inline int pt_epoch_block(pt_epoch e) { return (int)(e >> 40); }
static inline int pt_epoch_agent(pt_epoch e) { return (int)((e >> 32) & 0xFF); }

typedef struct pt_clocks pt_clocks;

/* What one step tells its caller. */
typedef struct pt_step {
  int agent;          /* the pipe that executed the op */
  pt_epoch epoch;     /* its epoch for the op's memory accesses */
  uint64_t start;     /* cycles */
  uint64_t end;
  uint64_t stall;     /* cycles a wait held its pipe beyond when it was issued */
  uint32_t flow_in;   /* wait: id of the signal it consumed (0 none) */
  uint32_t flow_out;  /* set: id of the signal it produced (0 none) */
} pt_step;

pt_clocks *pt_clocks_new(int blocks);
void pt_clocks_free(pt_clocks *k);
/* Advance over one event whose op lasts `dur` cycles on its pipe. */
void pt_clocks_step(pt_clocks *k, const pt_event *ev, uint64_t dur, uint64_t issue, pt_step *out);
/* Does the access at epoch e happen before everything `agent` of `block` does now? */
int pt_clocks_ordered(const pt_clocks *k, int block, int agent, pt_epoch e);
/* Latest time any agent of any block is busy until. */
uint64_t pt_clocks_makespan(const pt_clocks *k);
/* Time agent of block is free (for statistics). */
uint64_t pt_clocks_time(const pt_clocks *k, int block, int agent);

static inline int pt_agent_of(const ptosim_core *c, ptosim_pipe p) { return (int)c->kind * PTOSIM_PIPE_COUNT + (int)p; }

#endif
