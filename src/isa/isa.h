/* Shared header of the op bodies (src/isa/<family>.c): executor prototypes generated
 * from the op table, and the core services the bodies use. */
#ifndef PT_ISA_H
#define PT_ISA_H

#include "core/diag.h"
#include "core/dtype.h"
#include "core/layout.h"
#include "core/machine.h"
#include "core/mem.h"
#include "core/optable.h"
#include "ptosim/ptosim.h"

#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, text, cost, flags, formula) \
  ptosim_status exec(pt_ctx *x, const params_t *p);
#include "isa/ops.def"
#undef PTOSIM_OP

/* Run the body of op x->op on params (checked by ptosim_exec), nothing recorded. */
ptosim_status pt_exec_body(pt_ctx *x, const void *params);
/* The same recording the op's event into *ev, handed on success to the machine's listener
 * (which must be set). */
ptosim_status pt_exec_recorded(pt_ctx *x, const void *params, pt_event *ev);

#endif
