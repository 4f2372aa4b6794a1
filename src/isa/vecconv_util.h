/* Shared helpers of the predicate and conversion op bodies (src/isa/vec_pred.c,
 * src/isa/vec_conv.c): the A5-only gate, argument presence and predicate bit access
 * (bit j of a predicate is bit j % 8 of byte j / 8, ptosim/vreg.h). */
#ifndef PT_VECCONV_UTIL_H
#define PT_VECCONV_UTIL_H

#include "isa/isa.h"
#include "isa/vec_lanes.h"

/* Every register-level vector op: A5 only (rule vec.target), register operands present
 * (rule api.args; args_ok is the caller's conjunction of its pointers). */
static inline ptosim_status pt_vec_begin(pt_ctx *x, int args_ok) {
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, args_ok, "api.args", "pass every register operand", "null register operand");
  return PTOSIM_OK;
}

static inline unsigned pt_pbit(const ptosim_vmask *m, unsigned j) { return m->b[j >> 3] >> (j & 7) & 1u; }

/* Set bit j of a mask being built from zero. */
static inline void pt_pbit_or(ptosim_vmask *m, unsigned j, unsigned v) { m->b[j >> 3] |= (uint8_t)(v << (j & 7)); }

#endif
