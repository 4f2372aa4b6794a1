/* Internal interface between the lowering pass (lower.c), the binders (bind.c) and the
 * interpreter (run.c). */
#ifndef PT_LOWER_H
#define PT_LOWER_H

#include "exec/bind.h"
#include "exec/prog.h"

typedef struct pt_lower pt_lower;

/* Resolve an SSA value item to its slot; reports an error and returns -1 if undefined. */
int32_t pt_lower_resolve(pt_lower *L, const pa_item *it);
/* An operand item is an SSA value or a literal (not a clause, word or attribute). */
int pt_is_operand(const pa_item *it);
/* The i-th operand item of the op, skipping clause words; NULL if there are fewer. */
const pa_item *pt_operand_item(const pa_op *op, unsigned i);
/* Every op name of the PTO dialects (op_names.c). */
extern const char *const pt_pto_op_names[];
extern const int pt_pto_op_count;
/* Report an error at loc (rule id, hint, message). */
void pt_lower_error(pt_lower *L, pa_loc loc, const char *rule, const char *hint, const char *msg);

struct pt_bind {
  int lowering;
  pt_lower *L;               /* lowering only */
  ptosim_program *prog;
  int32_t first, count, pos; /* operands of this op in prog->operands */
  const pt_val *slots;       /* execution only */
  const pa_op *op;
  int failed;
};

/* Bind op text to a params struct of op `opc` (lowering or execution, see bind.h).
 * Returns 0 on success. params must point to a zeroed struct of the op's params type. */
int pt_bind_op(pt_bind *b, ptosim_opcode opc, const pa_op *op, void *params);
/* Size of the params struct of op `opc`. */
size_t pt_params_size(ptosim_opcode opc);

#endif
