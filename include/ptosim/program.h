/* ptosim — loading and running .pto programs. */
#ifndef PTOSIM_PROGRAM_H
#define PTOSIM_PROGRAM_H

#include <stdio.h>

#include "ptosim/ptosim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptosim_program ptosim_program;

/* Parse and verify a .pto buffer and lower its entry function (NULL: the function marked
 * `attributes {pto.kernel}`, else the only public function) for `target` (-1: the
 * module's pto.target_arch / pto.device-spec, else a2a3 as in PTOAS; it places tiles without an address
 * and is what ptosim_program_target returns). Diagnostics (all of them,
 * `file:line:col: error: ... [rule]` with source line, caret and hint) go to `diag`
 * (may be NULL). Returns NULL on any error; *nerrors (may be NULL) receives the error
 * count. `file` may be NULL ("<input>"); `text` may be NULL only when len is 0; a target
 * other than -1 or a ptosim_target is refused (rule api.args). The program keeps its own
 * copy of what it needs: text may be freed after the call. The caller owns the program
 * and frees it with ptosim_program_free (NULL is ignored), in any order with machines. */
ptosim_program *ptosim_program_load(const char *file, const char *text, size_t len, const char *entry, int target, FILE *diag,
                                    int *nerrors);
void ptosim_program_free(ptosim_program *p);

/* Parse and verify every function of a .pto buffer (`ptosim check`) for `target` (-1:
 * the module's pto.target_arch, else a2a3), including the constraints of every machine op
 * whose operands are known without running (constants). Returns the error count;
 * *nunsupported (may be NULL) receives how many of them are "not supported yet" (rule
 * op.unsupported: ops that parse but have no executor yet). */
int ptosim_program_check(const char *file, const char *text, size_t len, int target, FILE *diag, int *nunsupported);
/* 1 if op `op` can be written in .pto text (it has a binder), 0 if it runs from the C API
 * only. */
int ptosim_op_in_text(ptosim_opcode op);

/* The target the program was lowered for: the `target` given to ptosim_program_load, else
 * the one the module (or all its nested modules) name by pto.target_arch / pto.device-spec,
 * else PTOSIM_TARGET_A2A3 (PTOSIM_TARGET_COUNT for NULL). */
ptosim_target ptosim_program_target(const ptosim_program *p);

/* Entry function parameters. The accessors refuse a NULL program or an index outside
 * [0, nparams): PTOSIM_PARAM_NONE, PTOSIM_DT_NONE, NULL. */
typedef enum ptosim_param_kind { PTOSIM_PARAM_PTR, PTOSIM_PARAM_INT, PTOSIM_PARAM_FLOAT, PTOSIM_PARAM_NONE } ptosim_param_kind;
int ptosim_program_nparams(const ptosim_program *p);
/* 1 if the program is a tile-level program without any synchronization op: its ops are
 * meant to run in program order (the compiler inserts the sync), so the race checker
 * treats them as ordered. */
int ptosim_program_in_order(const ptosim_program *p);
ptosim_param_kind ptosim_program_param_kind(const ptosim_program *p, int i);
/* Element type of pointer parameter i, or the scalar type of a scalar parameter. */
ptosim_dtype ptosim_program_param_dtype(const ptosim_program *p, int i);
/* Width in bits of scalar parameter i (1 for i1, 64 for index); 0 for a pointer. */
int ptosim_program_param_bits(const ptosim_program *p, int i);
/* Name without the '%' (in a static buffer: valid until the next call; not thread-safe). */
const char *ptosim_program_param_name(const ptosim_program *p, int i);

/* One argument value: a GM address (from ptosim_gm_map) for pointers, else a number. */
typedef union ptosim_arg {
  uint64_t gm_addr;
  int64_t i;
  double f;
} ptosim_arg;

/* Run the entry once per block of the machine (block index 0 .. blocks-1), each block on
 * its cube core and both vector sub-blocks as the program's sections and kernel kind say.
 * args holds one value per parameter (may be NULL when there are none). Returns
 * PTOSIM_OK or the status of the first fault; the diagnostic (with the op's
 * file:line:col) is in ptosim_last_diag(m). A NULL program, machine or argument array is
 * PTOSIM_E_USAGE. Deterministic. */
ptosim_status ptosim_program_run(const ptosim_program *p, ptosim_machine *m, const ptosim_arg *args);

/* ptosim_program_run (which uses one thread) with the blocks spread over `threads` host
 * threads (<= 0: as many as the host has cores), created for the call. The result is
 * bit for bit the one-thread result, memory, status and diagnostic alike: where the
 * block order is observable (a GM byte written by one block and read or written by
 * another, GM atomics included) or a block faults, the speculative parallel run is
 * undone and the blocks run one after the other (see docs/performance.md, "Parallel
 * blocks"). Runs with a monitor attached (checkers, cost model, trace, eager schedule)
 * use one thread. The machine and the program must not be used by another thread
 * meanwhile. */
ptosim_status ptosim_program_run_threads(const ptosim_program *p, ptosim_machine *m, const ptosim_arg *args,
                                         int threads);

#ifdef __cplusplus
}
#endif
#endif
