/* Binders of the tile reduce, expand and irregular ops (bind_tile_reduce.c); bind.c dispatches to them
 * through its TEXT_BINDERS list. */
#ifndef PT_BIND_TILE_REDUCE_H
#define PT_BIND_TILE_REDUCE_H

#include "exec/bind.h"

#define TILE_REDUCE_TEXT_BINDERS(X)                                                                         \
  X(ptosim_treduce_params) X(ptosim_texpand_params) X(ptosim_tci_params) X(ptosim_ttri_params)                \
  X(ptosim_tgetval_params) X(ptosim_tsetval_params) X(ptosim_tgather_params) X(ptosim_tindex_params)       \
  X(ptosim_tconcatidx_params) X(ptosim_tmrgsort_params) X(ptosim_thistogram_params)              \
  X(ptosim_tquant_params) X(ptosim_trandom_params) X(ptosim_tprint_params) X(ptosim_tquant_mx_params)

#define DECLARE_TILE_REDUCE_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
TILE_REDUCE_TEXT_BINDERS(DECLARE_TILE_REDUCE_BINDER)
#undef DECLARE_TILE_REDUCE_BINDER

#endif
