/* Internal interface between the lowering pass (lower.c), the binders (bind.c) and the
 * interpreter (run.c). */
#ifndef PT_LOWER_H
#define PT_LOWER_H

#include <string.h>

#include "exec/bind.h"
#include "exec/prog.h"

typedef struct pt_lower pt_lower;

/* Resolve an SSA value item to its slot; reports an error and returns -1 if undefined. */
int32_t pt_lower_resolve(pt_lower *L, const pa_item *it);
/* An operand item is an SSA value or a literal (not a clause, word or attribute). */
int pt_is_operand(const pa_item *it);
/* The i-th operand item of the op, skipping clause words; NULL if there are fewer. */
const pa_item *pt_operand_item(const pa_op *op, unsigned i);
/* Report an error at loc (rule id, hint, message). */
void pt_lower_error(pt_lower *L, pa_loc loc, const char *rule, const char *hint, const char *msg);

/* Helpers for the lowering of tile / view ops (tiles.c) and tile op results (bind_tile.c). */
ptosim_program *pt_lower_program(pt_lower *L);
int32_t pt_lower_emit(pt_lower *L, pt_ins in);
/* Slot of an operand item; a literal becomes a new constant slot. -1 after an error. */
int32_t pt_lower_operand(pt_lower *L, const pa_item *it);
/* Append an operand to prog->operands; -1 when out of memory. */
int pt_lower_add_operand(pt_lower *L, pt_operand o);
/* Define the op's results with these types (i64 where types run out); the first slot. */
int32_t pt_lower_define_results(pt_lower *L, const pa_op *op, const pt_slot_type *types, int n);
/* Result type i of the op (`-> T`, or the last trailing type for result 0). */
const pa_type *pt_lower_result_type(const pa_op *op, unsigned i);
/* "i32", "index", "!pto.vreg<64xf32>", ... into buf. */
const char *pt_slot_type_name(pt_slot_type t, char *buf, size_t n);
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
int pt_lower_errorf(pt_lower *L, pa_loc loc, const char *rule, const char *hint, const char *fmt, ...);
ptosim_space pt_space_of_aspace(pa_aspace a);
/* Element type of a scalar MLIR type (iN, uiN, fN, !pto.hif8 ...); NONE if ptosim has none. */
ptosim_dtype pt_elem_dtype(const pa_type *t);

/* Evaluate a pure scalar instruction (run.c): 1 when `in` is one (s[in->dst] written), 0
 * when it is not, -1 on an integer division by zero. */
int pt_eval_pure(const ptosim_program *p, const pt_ins *in, pt_val *s);
/* `ptosim check`: run the machine ops whose operands are all known at lowering time in a
 * verify-only machine and report what they violate (static_check.c). */
void pt_static_check(pt_lower *L);

struct pt_bind {
  int lowering;
  pt_lower *L;               /* lowering only */
  ptosim_program *prog;
  int32_t first, count, pos; /* operands of this op in prog->operands */
  pt_val *slots;             /* execution only */
  pt_obj *objs;              /* execution only: the core's tile / view objects */
  int32_t res_slot, res_obj; /* an op with a tile result (pt_bind_result_tile), else -1 */
  int32_t out_first;         /* lowering: first slot of the results pt_bind_out defined */
  int outs_defined;          /* lowering: out_first is set */
  const pa_op *op;
  ptosim_opcode opc;         /* the op's row: its variant flags (pt_op_flags) */
  const pt_val *probe;       /* plan probing (pt_plan_build): operand k's value is probe[k] */
  int derived;               /* probing: a field was derived from an operand value, not copied */
  int failed;
};

/* Bind op text to a params struct of op `opc` (lowering or execution, see bind.h).
 * Returns 0 on success. params must point to a zeroed struct of the op's params type. */
int pt_bind_op(pt_bind *b, ptosim_opcode opc, const pa_op *op, void *params);
/* A binding plan: the params struct of an op whose fields are its operands' values copied
 * unchanged (most ops) is built by copying a template and patching `npatch` fields from
 * slots, without running the binder (pt_plan_apply). */
typedef struct pt_patch {
  uint16_t off, len; /* bytes of the params struct; len 0: the slot's address (a result) */
  int32_t slot;      /* copied from the start of this slot's value */
} pt_patch;
typedef struct pt_plan {
  uint32_t size, npatch;
  pt_patch patch[]; /* then the template, size bytes */
} pt_plan;

/* The plan of a table op lowered with operands [first, first + count) of prog, or NULL when
 * its params are not plain copies (a tile or view operand, a result, a converted scalar): then
 * the binder runs at every execution. The result is verified against the binder on three sets
 * of operand values before it is returned. */
pt_plan *pt_plan_build(const ptosim_program *prog, ptosim_opcode opc, const pa_op *op, int32_t first, int32_t count);
static inline void pt_plan_apply(const pt_plan *pl, const pt_val *slots, unsigned char *params) {
  memcpy(params, (const unsigned char *)(pl->patch + pl->npatch), pl->size);
  for (uint32_t i = 0; i < pl->npatch; i++) {
    const pt_patch *q = &pl->patch[i];
    if (q->len == sizeof(int64_t)) { /* integers and pointers: fixed-size copies, no call */
      memcpy(params + q->off, &slots[q->slot], sizeof(int64_t));
    } else if (q->len == sizeof(ptosim_ptr)) {
      memcpy(params + q->off, &slots[q->slot], sizeof(ptosim_ptr));
    } else if (q->len) {
      memcpy(params + q->off, &slots[q->slot], q->len);
    } else {
      const pt_val *a = &slots[q->slot];
      memcpy(params + q->off, &a, sizeof a);
    }
  }
}

/* Bytes of the buffer the lowering, the interpreter and the static check bind an op's
 * params struct into (the lowering refuses an op whose struct is larger). */
#define PT_PARAMS_MAX 1024

#endif
