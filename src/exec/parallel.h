/* Blocks of a program on several host threads (parallel.c), and the one-block runner of
 * the interpreter (run.c) it calls. */
#ifndef PT_PARALLEL_H
#define PT_PARALLEL_H

#include "exec/prog.h"
#include "ptosim/program.h"

/* Interpreter state of one block's cores: slots and objects of up to three cores. */
typedef struct pt_block_scratch {
  pt_val *slots;
  pt_obj *objs;
  uint8_t *wide; /* the wide arenas (registers, predicates, align states) of the 3 cores */
} pt_block_scratch;

/* 0, or -1 when out of memory (nothing to free then). */
int pt_block_scratch_init(pt_block_scratch *s, const ptosim_program *p);
void pt_block_scratch_free(pt_block_scratch *s);

/* Run block blk of the program on machine m (its cores must point at m: the machine or a
 * per-thread view of it) to the end or its first fault. */
ptosim_status pt_run_block(const ptosim_program *p, ptosim_machine *m, int blk, const ptosim_arg *args,
                           pt_block_scratch *scr);

/* Status of pt_run_parallel when the run must be (or was rolled back to be) made by the
 * sequential block loop; memory and cores are then as before the call. */
#define PT_RUN_SEQUENTIAL ((ptosim_status)65)

/* Run every block on up to `threads` host threads (<= 0: one per host core) with the
 * result of the sequential block order, or return PT_RUN_SEQUENTIAL. */
ptosim_status pt_run_parallel(const ptosim_program *p, ptosim_machine *m, const ptosim_arg *args, int threads);

/* Cores of the host (at least 1). */
int pt_host_cores(void);

#endif
