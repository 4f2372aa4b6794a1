/* Binders of the tile ops (bind_tile.c), one per parameter struct; bind.c dispatches to
 * them through its TEXT_BINDERS list. */
#ifndef PT_BIND_TILE_H
#define PT_BIND_TILE_H

#include "exec/bind.h"

#define TILE_TEXT_BINDERS(X)                                                                                    \
  X(ptosim_tload_params) X(ptosim_tstore_params) X(ptosim_mgather_params) X(ptosim_mscatter_params)             \
  X(ptosim_ttrans_params) X(ptosim_tfillpad_params) X(ptosim_treshape_params) X(ptosim_tconcat_params)          \
  X(ptosim_tmatmul_params) X(ptosim_tmov_params)

/* Operand i of clause `ins` / `outs` (NULL if absent), its written type checked against the
 * operand's own while lowering; the number of operands of a clause. */
const pa_item *pt_bind_tile_io(pt_bind *b, const pa_op *op, const char *clause, unsigned i);
unsigned pt_bind_tile_io_count(const pa_op *op, const char *clause);

#define DECLARE_TILE_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
TILE_TEXT_BINDERS(DECLARE_TILE_BINDER)
#undef DECLARE_TILE_BINDER

#endif
