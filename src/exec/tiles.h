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
 * row-major (strides from the shape), at GM 0. Returns -1 for another type or a `?` dim. */
int pt_view_obj_of_type(const pa_type *t, pt_obj *o);

/* A new object for a result of the op being lowered, its static part `tmpl`. */
int32_t pt_lower_new_obj(pt_lower *L, const pt_obj *tmpl);

/* Give `v` the layout PTOAS infers when none was spelled (lib/PTO/Transforms/InferPTOLayout.cpp:
 * NZ when the inner dims are one 512-byte fractal of 16 rows, else ND or DN from the two minor
 * strides; a shape that is both — a single row or column — takes `prefer` (the layout a vec
 * tile's blayout maps to, PTOSIM_GL_COUNT for none), else ND unless it is one column). */
void pt_view_infer_layout(ptosim_gm_view *v, ptosim_gm_layout prefer);

#endif
