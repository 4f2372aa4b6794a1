/* Tiles and GM views in .pto text (src/exec/tiles.c): the ops that make, place and
 * reshape them, lowered to PT_C_OBJ instructions; and the tile / view conversions the tile
 * op binders (bind_tile.c) share. */
#ifndef PT_TILES_H
#define PT_TILES_H

#include "core/machine.h"
#include "exec/lower.h"

/* Lower pto.alloc_tile, pto.make_tensor_view, pto.partition_view, pto.subview, pto.subset, pto.talias, pto.tassign,
 * pto.bitcast, pto.set_validshape, pto.get_validshape, pto.get_tensor_view_dim / _stride.
 * Returns 1 when `op` is none of them, else 0 / -1 (error reported). */
int pt_lower_obj_op(pt_lower *L, const pa_op *op);

/* Run one PT_C_OBJ instruction on `core` (slots and objects of that core). */
ptosim_status pt_run_obj(const ptosim_program *p, ptosim_core *core, pt_val *slots, pt_obj *objs, const pt_ins *in);

/* The tile of a !pto.tile_buf type: address 0, valid region = the static v_row / v_col, or
 * the shape where they are `?` (alloc_tile / set_validshape give those at run time). */
ptosim_tile pt_tile_of_type(const pa_type *t);

/* The view object of a !pto.tensor_view / partition_tensor_view type of a static shape:
 * row-major (strides from the shape), at GM 0. A GM memref (older PTOAS samples pass kernel
 * arguments as memref<32x32xf32, strided<[?, 1], offset: ?>, #pto.address_space<gm>>) is
 * such a view with the strides it spells; a `?` stride is the row-major one and a `?`
 * offset 0 (a static offset is view.addr in bytes). Returns -1 for another type, a `?` dim
 * or a stride or offset beyond 2^31 - 1. */
int pt_view_obj_of_type(const pa_type *t, pt_obj *o);

/* The #pto.address_space<..> word of a memref type; empty when there is none. */
pa_str pt_memref_space(const pa_type *t);

/* A parameter of the entry function of a view type: the host passes a GM buffer in
 * `ptr_slot`; emits the instruction making the view in `view_slot`. Returns -1 after an error. */
int pt_lower_view_param(pt_lower *L, const pa_op *func, const pa_arg *arg, int32_t ptr_slot, int32_t view_slot);

/* A new object for a result of the op being lowered, its static part `tmpl`. */
int32_t pt_lower_new_obj(pt_lower *L, const pt_obj *tmpl);

/* Bytes of a tile's rows x cols elements (UINT64_MAX when beyond 64 bits). */
uint64_t pt_tile_bytes(const ptosim_tile *t);

/* For the placement of tiles without addr (plan.c). pt_obj_alias: 1 when object op `in`
 * makes slots *a and *b name the same storage (a tile and its subview, subset, bitcast,
 * talias or multi_tile_get slot; pto.tassign gives a new address, no alias).
 * pt_obj_escapes: `in` turns a tile into a pointer (pto.tile_buf_addr), which the planner
 * does not follow. pt_obj_placed_bytes: the bytes alloc `in` (PT_INS_PLANNED) occupies. */
int pt_obj_alias(const ptosim_program *p, const pt_ins *in, int32_t *a, int32_t *b);
int pt_obj_escapes(const pt_ins *in);
uint64_t pt_obj_placed_bytes(const ptosim_program *p, const pt_ins *in);

/* Give `v` the layout PTOAS infers when none was spelled (lib/PTO/Transforms/InferPTOLayout.cpp:
 * NZ when the inner dims are one 512-byte fractal of 16 rows, else ND or DN from the two minor
 * strides; a shape that is both — a single row or column — takes `prefer` (the layout a vec
 * tile's blayout maps to, PTOSIM_GL_COUNT for none), else ND unless it is one column). */
void pt_view_infer_layout(ptosim_gm_view *v, ptosim_gm_layout prefer);

#endif
