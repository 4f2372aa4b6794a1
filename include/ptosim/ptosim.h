/* ptosim — a byte-exact CPU model of the PTO ISA (Ascend NPUs).
 *
 * The machine: `blocks` clusters, each one cube core (AIC: L1, L0A, L0B, L0C, BT, FB)
 * and two vector cores (AIV0 / AIV1, each with its own UB), sharing global memory (GM).
 * GM is made of host buffers the caller registers with ptosim_gm_map.
 *
 * Every op of the op table is callable as ptosim_<op>(core, &params); the parameter
 * structs are in ptosim/ops.h. A call returns PTOSIM_OK or an error status; the
 * diagnostic (rule id, message, hint) is then in ptosim_last_diag(machine). */
#ifndef PTOSIM_PTOSIM_H
#define PTOSIM_PTOSIM_H

#include <stddef.h>
#include <stdint.h>

#include "ptosim/ops.h"
#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PTOSIM_VERSION "0.1.0"

typedef struct ptosim_machine ptosim_machine;
typedef struct ptosim_core ptosim_core;

typedef enum ptosim_core_kind { PTOSIM_AIC = 0, PTOSIM_AIV0 = 1, PTOSIM_AIV1 = 2 } ptosim_core_kind;

/* Opcodes, one per row of the op table: implemented ops, ops of the specification not
 * implemented yet (ptosim_op_status), and ops the lowering handles itself. */
typedef enum ptosim_opcode {
#define PTOSIM_OP(id, spelling, family, pipe, unit, params, exec, text, cost, flags, formula) PTOSIM_OP_##id,
#define PTOSIM_TODO(id, spelling, family, pipe, unit, formula) PTOSIM_OP_##id,
#define PTOSIM_IR(id, spelling, family, formula) PTOSIM_OP_##id,
#include "ptosim/ops.def"
#undef PTOSIM_OP
#undef PTOSIM_TODO
#undef PTOSIM_IR
  PTOSIM_OP_COUNT
} ptosim_opcode;

/* Create a machine of `blocks` clusters for a target profile; NULL on bad arguments or
 * out of memory. Local memories start zeroed (and are tracked as never written).
 *
 * Ownership and order: the caller owns the machine and frees it with
 * ptosim_machine_free, after everything attached to it (a monitor from
 * ptosim_monitor_attach must be freed with ptosim_monitor_free first) and after its last
 * use of ptosim_last_diag's result. Host buffers registered with ptosim_gm_map stay the
 * caller's; free them after the machine. Every entry point taking a machine, core or
 * pointer refuses NULL (PTOSIM_E_USAGE, or the documented neutral value) rather than
 * crash. */
ptosim_machine *ptosim_machine_new(ptosim_target target, int blocks);
/* Free the machine (NULL is ignored). Free its monitor first. */
void ptosim_machine_free(ptosim_machine *m);
/* Target of the machine; PTOSIM_TARGET_COUNT for NULL. */
ptosim_target ptosim_machine_target(const ptosim_machine *m);

/* One core of one cluster; NULL if out of range. The core belongs to the machine. */
ptosim_core *ptosim_core_of(ptosim_machine *m, int block, ptosim_core_kind kind);

/* Register `bytes` bytes of host memory as a GM buffer. The buffer must outlive the
 * machine's use of it (the machine does not copy or free it). *gm_addr receives its GM
 * base address (4 KiB aligned; distinct buffers never touch, so an access that runs off
 * one buffer is a bounds fault). Refused (PTOSIM_E_USAGE, rule api.args): NULL
 * arguments, host bytes that overlap a buffer already mapped (map the bytes once and
 * pass the one GM address to every parameter that shares them: two GM ranges for the
 * same bytes would hide their races from the checkers), and a size that does not fit in
 * the GM address space left (GM addresses stay below 2^63). */
ptosim_status ptosim_gm_map(ptosim_machine *m, void *host, size_t bytes, uint64_t *gm_addr);
/* Give the GM buffer mapped at gm_addr a name for diagnostics (bounds faults say
 * "buffer [a, b) (NAME)"), e.g. "%arg0 from a.npy"; the string is copied.
 * PTOSIM_E_USAGE if gm_addr is not the base of a mapped buffer or an argument is NULL. */
ptosim_status ptosim_gm_set_name(ptosim_machine *m, uint64_t gm_addr, const char *name);
/* 1 if an op (or ptosim_mem_write) wrote any byte of the GM buffer mapped at gm_addr
 * since it was mapped, 0 if not, -1 if gm_addr is not the base of a mapped buffer. */
int ptosim_gm_written(const ptosim_machine *m, uint64_t gm_addr);

/* Copy bytes into / out of a local memory of a core (space must exist on that core:
 * UB on AIV cores, L1/L0A/L0B/L0C/BT/FB/MX on the AIC). Bounds are checked. A NULL core,
 * or a NULL host pointer with n > 0, is PTOSIM_E_USAGE. */
ptosim_status ptosim_mem_write(ptosim_core *c, ptosim_space space, uint64_t addr, const void *src, size_t n);
ptosim_status ptosim_mem_read(ptosim_core *c, ptosim_space space, uint64_t addr, void *dst, size_t n);

/* Capacity in bytes of a memory space on the machine's target (0 if it does not exist
 * or m is NULL). */
uint64_t ptosim_space_capacity(const ptosim_machine *m, ptosim_space space);

/* Build a typed pointer. */
static inline ptosim_ptr ptosim_ptr_make(ptosim_space space, ptosim_dtype dtype, uint64_t addr) {
  ptosim_ptr p;
  p.addr = addr;
  p.space = space;
  p.dtype = dtype;
  return p;
}

/* Execute one op on a core. `params` points to the struct the op table names. `loc`
 * may be NULL; it is copied into diagnostics. */
ptosim_status ptosim_exec(ptosim_core *c, ptosim_opcode op, const void *params, const ptosim_loc *loc);

/* Typed wrappers: ptosim_mte_gm_ub(core, &params), ... */
#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, text, cost, flags, formula) \
  static inline ptosim_status ptosim_##id(ptosim_core *c, const params_t *p) {    \
    return ptosim_exec(c, PTOSIM_OP_##id, p, NULL);                                \
  }
#include "ptosim/ops.def"
#undef PTOSIM_OP

/* Op metadata from the table. */
const char *ptosim_op_spelling(ptosim_opcode op);
const char *ptosim_op_family(ptosim_opcode op);
const char *ptosim_op_pipe(ptosim_opcode op);
ptosim_pipe ptosim_op_pipe_id(ptosim_opcode op);
/* "PIPE_S" ... "PIPE_FIX", "PIPE_ALL" (the spelling in .pto text); "PIPE_?" out of range. */
const char *ptosim_pipe_name(ptosim_pipe p);
const char *ptosim_op_formula(ptosim_opcode op);
/* What ptosim does with an op of the table. */
typedef enum ptosim_op_status {
  PTOSIM_OPS_IMPLEMENTED, /* runs from .pto text and from the C API */
  PTOSIM_OPS_CAPI_ONLY,   /* runs from the C API; no text form */
  PTOSIM_OPS_NOT_YET,     /* named by the specification, not implemented yet */
  PTOSIM_OPS_UNKNOWN      /* not an opcode */
} ptosim_op_status;
ptosim_op_status ptosim_op_status_of(ptosim_opcode op);
/* "implemented", "C-API-only", "not-yet" (as `ptosim ops` prints them). */
const char *ptosim_op_status_name(ptosim_op_status s);
/* Non-zero when the op runs (from text or from the C API). */
int ptosim_op_implemented(ptosim_opcode op);
/* Look up an op by spelling ("pto.mad"); returns PTOSIM_OP_COUNT when unknown. */
ptosim_opcode ptosim_op_lookup(const char *spelling);

/* The diagnostic of the last failed call on this machine (status PTOSIM_OK if none). The
 * machine owns it; it stays valid until the next call on the machine or its free. For
 * a NULL machine: a static diagnostic with status PTOSIM_E_USAGE. */
const ptosim_diag *ptosim_last_diag(const ptosim_machine *m);
/* Format a diagnostic as "file:line:col: error: msg [rule]\n  hint: ..." into buf
 * (snprintf-like; 0 for a NULL diagnostic). */
size_t ptosim_diag_format(const ptosim_diag *d, char *buf, size_t size);

/* Number of ops executed so far on the machine (0 for NULL). */
uint64_t ptosim_ops_executed(const ptosim_machine *m);

/* Run limits. A run stops with PTOSIM_E_FAULT (rule run.max_steps) once its loops have taken
 * max_steps back-edges in all (0: no limit; default PTOSIM_DEFAULT_MAX_STEPS), so a loop that
 * never ends is reported, never a hang. `progress` (may be NULL) is called with the ops
 * executed so far every 2^22 back-edges, from the running thread. */
#define PTOSIM_DEFAULT_MAX_STEPS 1000000000ull
void ptosim_machine_set_limits(ptosim_machine *m, uint64_t max_steps, void (*progress)(void *user, uint64_t ops_executed),
                               void *user);
/* Ask a running program to stop at its next loop back-edge (PTOSIM_E_FAULT, rule
 * run.interrupted, naming where each core was). Async-signal-safe: callable from a signal
 * handler or another thread. */
void ptosim_machine_interrupt(ptosim_machine *m);

#ifdef __cplusplus
}
#endif
#endif
