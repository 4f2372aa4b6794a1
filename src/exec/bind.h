/* Binding .pto op text to op parameter structs.
 *
 * Each parameter struct of include/ptosim/ops.h has one binder,
 *   int pt_bind_<params_t>(pt_bind *b, const pa_op *op, <params_t> *p);
 * (found through the params column of src/isa/ops.def) that reads the op's items
 * (operands, clauses, words, attribute dictionaries, trailing types) and fills *p.
 *
 * A binder runs in two modes with the SAME control flow:
 *  - lowering (pt_bind_lowering(b) != 0), once per op when the program is built: operand
 *    items are resolved (SSA value -> slot, literal -> constant), their types checked, and
 *    syntax errors reported with pt_bind_error at the item's location;
 *  - execution, every time the op runs: each operand accessor returns the next operand's
 *    current value, in the order the lowering pass met them.
 * So a binder may branch on the op's syntax (which clauses and words are present, the op
 * name, static types) but never on operand values. Returning non-zero aborts (the error
 * was reported with pt_bind_error). */
#ifndef PT_BIND_H
#define PT_BIND_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/ast.h"
#include "exec/prog.h"
#include "ptosim/ptosim.h"

typedef struct pt_bind pt_bind;

int pt_bind_lowering(const pt_bind *b);

/* Report a static error at `at` (an item of the op, or NULL for the op name). Only has an
 * effect while lowering. Always returns -1 so binders can `return pt_bind_error(...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
int pt_bind_error(pt_bind *b, const pa_item *at, const char *rule, const char *hint, const char *fmt, ...);

/* Operand accessors. `it` is an operand item: an SSA value (%x, %r#1) or a literal.
 * Each returns the operand's value (0 / zero pointer while lowering, or after an error,
 * which is recorded). */
int64_t pt_bind_int(pt_bind *b, const pa_item *it);   /* integer / index / i1 value or literal */
bool pt_bind_bool(pt_bind *b, const pa_item *it);     /* an integer operand != 0 */
ptosim_ptr pt_bind_ptr(pt_bind *b, const pa_item *it); /* !pto.ptr value: space, dtype, address */
/* A scalar with its static type (float or integer value or literal): dtype and bit pattern. */
ptosim_scalar pt_bind_scalar(pt_bind *b, const pa_item *it);
/* A tile value (!pto.tile_buf): its current space, address, shape and valid region. */
ptosim_tile pt_bind_tile(pt_bind *b, const pa_item *it);
/* A tile operand the op places itself (pto.tpop binds a declared tile to a FIFO slot): the
 * tile object the value names, which later uses of the value see. */
ptosim_tile *pt_bind_tile_ref(pt_bind *b, const pa_item *it);
/* A GM view value (tensor_view / partition_tensor_view). `consumer` is the tile it is
 * loaded into or stored from (or NULL): it settles the layout of a view ND and DN both
 * describe, as PTOAS does. */
ptosim_gm_view pt_bind_view(pt_bind *b, const pa_item *it, const ptosim_tile *consumer);
/* A view operand the op places itself (pto.talloc / pto.tpop bind a declared GM entry to a
 * FIFO slot): the view object the value names, which later uses of the value see. */
ptosim_gm_view *pt_bind_view_ref(pt_bind *b, const pa_item *it);
/* The view result of the op (`%e = op ... -> !pto.tensor_view<MxNxT>`), row-major of the
 * type's static shape at GM 0; the executor sets its address. */
ptosim_gm_view *pt_bind_result_view(pt_bind *b);
/* While lowering: the type written where tile / view value `it` was made (NULL otherwise). */
const pa_type *pt_bind_value_type(pt_bind *b, const pa_item *it);
/* The tile result of the op (`%r = op ... -> !pto.tile_buf<..>`), initialised from its
 * type; the executor may change it (e.g. set its address). */
ptosim_tile *pt_bind_result_tile(pt_bind *b);
/* Vector-core operands (A5): a register, a predicate, an alignment state (their storage in
 * the core's wide arena; NULL while lowering). */
const ptosim_vreg *pt_bind_vreg(pt_bind *b, const pa_item *it, ptosim_dtype *elem);   /* elem: lane type (may be NULL) */
const ptosim_vmask *pt_bind_mask(pt_bind *b, const pa_item *it, unsigned *gran);      /* gran: 8, 16 or 32 (may be NULL) */
const ptosim_valign *pt_bind_align(pt_bind *b, const pa_item *it);
/* Result k of the op (`%a, %b = op ... -> T0, T1`), defined from its declared type on the
 * first call while lowering: where the executor writes a register, predicate or alignment
 * state (pt_bind_out) or an integer (pt_bind_out_int). `kind` (pt_vkind) is the kind the op
 * produces there; another declared type is an ir.type error. Valid scratch while lowering. */
void *pt_bind_out(pt_bind *b, unsigned k, int kind, pt_slot_type *type); /* type: declared type (may be NULL) */
int64_t *pt_bind_out_int(pt_bind *b, unsigned k);
double *pt_bind_out_float(pt_bind *b, unsigned k); /* a float result (kept as double, rounded to its type) */
ptosim_ptr *pt_bind_out_ptr(pt_bind *b, unsigned k); /* a pointer result (post-update forms) */
/* While lowering: the static type of operand item `it` (kind PT_VK_OTHER if unknown). */
pt_slot_type pt_bind_type(pt_bind *b, const pa_item *it);
/* While lowering: the declared type of result k (kind PT_VK_OTHER if absent). */
pt_slot_type pt_bind_out_type(pt_bind *b, unsigned k);

/* The integer result of the op (`%r = op ... : i64`): where the executor stores it. */
uint64_t *pt_bind_result_int(pt_bind *b);

#endif
