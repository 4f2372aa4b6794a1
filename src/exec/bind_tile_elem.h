/* Binder of the elementwise vector tile ops (bind_tile_elem.c); bind.c dispatches to it
 * through its TEXT_BINDERS list. */
#ifndef PT_BIND_TILE_ELEM_H
#define PT_BIND_TILE_ELEM_H

#include "exec/bind.h"

#define TILE_ELEM_TEXT_BINDERS(X) X(ptosim_telem_params)

int bind_ptosim_telem_params(pt_bind *b, const pa_op *op, ptosim_telem_params *p);
/* The op's precisionType into *hp (false for ops without one); has_tmp: the tmp operand was given. */
int pt_bind_precision(pt_bind *b, const pa_op *op, bool has_tmp, bool *hp);

#endif
