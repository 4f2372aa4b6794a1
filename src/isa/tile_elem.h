/* What the elementwise tile families (tile_elem.c, tile_cvt.c) share: the operand checks of
 * a vector tile op and the row walk over the destination's valid region.
 *
 * Every tile of these ops is a vec (UB) tile, row-major none_box (ND: element (r, c) at
 * addr + (r * cols + c) * es; pto-isa NPU implementations static_assert isRowMajor and
 * address rows by RowStride = cols). Rules, with <op> the op's spelling without "pto.":
 *   <op>.space   a tile is not in UB
 *   <op>.layout  a tile is not row_major none_box
 *   <op>.dtype   an element type the op does not take on this target, or operand types differ
 *   <op>.valid   a source's valid region differs from dst's (pto-isa asserts equality)
 * plus the tile.* rules of tile_check.h (the layout family's box and line rules). */
#ifndef PT_TILE_ELEM_H
#define PT_TILE_ELEM_H

#include <stdint.h>

#include "isa/tile_check.h"

/* Bit of dtype t in a set of element types. */
#define TE_BIT(t) (1u << (t))

/* Check tile t (named `what`) of op `name`: tile rules, UB, ND. */
ptosim_status pt_te_tile(pt_ctx *x, const char *name, const char *what, const ptosim_tile *t);

/* Element type t is in set[target] (bits TE_BIT) of op `name`; `what` names the operand. */
ptosim_status pt_te_dtype(pt_ctx *x, const char *name, const char *what, ptosim_dtype t, const uint32_t set[2]);

/* Source s has dst's valid region. */
ptosim_status pt_te_valid(pt_ctx *x, const char *name, const char *what, const ptosim_tile *s, const ptosim_tile *d);

/* Host byte of row 0 of the valid region of tile t (vr x vc elements of dst's valid region),
 * recorded as an access acc through the accessor layer; *stride = bytes between rows. */
ptosim_status pt_te_rows(pt_ctx *x, const ptosim_tile *t, int64_t vr, int64_t vc, pt_access acc, uint8_t **out,
                         int64_t *stride);

/* When source bytes [sp, vr rows) overlap the destination rows other than element for
 * element in place, copy them to the heap (*copy owns it; free after use) and point *sp at
 * the copy, so the result is that of reading every source element before writing. */
ptosim_status pt_te_stage(pt_ctx *x, const ptosim_tile *s, const ptosim_tile *d, int64_t vr, int64_t vc,
                          const uint8_t **sp, uint8_t **copy);

#endif
