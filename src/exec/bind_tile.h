/* Binders of the tile ops (bind_tile.c), one per parameter struct; bind.c dispatches to
 * them through its TEXT_BINDERS list. */
#ifndef PT_BIND_TILE_H
#define PT_BIND_TILE_H

#include "exec/bind.h"

#define TILE_TEXT_BINDERS(X)                                                                                    \
  X(ptosim_tload_params) X(ptosim_tstore_params) X(ptosim_mgather_params) X(ptosim_mscatter_params)             \
  X(ptosim_ttrans_params) X(ptosim_tfillpad_params) X(ptosim_treshape_params) X(ptosim_tconcat_params)          \
  X(ptosim_tmatmul_params) X(ptosim_tmov_params) X(ptosim_tmode_params) X(ptosim_tinterleave_params)        \
  X(ptosim_tget_scale_addr_params)

/* Shared with bind_tile_elem.c: operand i of clause `ins` / `outs` (while lowering, the type
 * written beside it must agree with its own: bind.type), and enum attribute `key` of the
 * op's dictionaries or of one inside its ins(...) clause (index in names[], def when absent,
 * -1 reported when unknown). */
const pa_item *pt_tile_io(pt_bind *b, const pa_op *op, const char *clause, unsigned i);
int pt_tile_enum_attr(pt_bind *b, const pa_op *op, const char *key, const char *const *names, int n, int def);
/* The value of attribute `key` there (NULL when absent). */
const pa_item *pt_tile_attr(const pa_op *op, const char *key);
/* Number of operands of clause `ins` / `outs` (0 when absent). */
unsigned pt_tile_io_count(const pa_op *op, const char *clause);

#define DECLARE_TILE_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
TILE_TEXT_BINDERS(DECLARE_TILE_BINDER)
#undef DECLARE_TILE_BINDER

#endif
