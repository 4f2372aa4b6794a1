/* Binders of the A2/A3 UB vector ops pto.ub.* (bind_ub_vec.c), one per parameter struct of
 * include/ptosim/ub_vec.h; bind.c dispatches to them through its TEXT_BINDERS list. */
#ifndef PT_BIND_UB_VEC_H
#define PT_BIND_UB_VEC_H

#include "exec/bind.h"

#define UB_VEC_TEXT_BINDERS(X) X(ptosim_ub_binary_params) X(ptosim_ub_unary_params) X(ptosim_ub_mask_params)

#define DECLARE_UB_VEC_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
UB_VEC_TEXT_BINDERS(DECLARE_UB_VEC_BINDER)
#undef DECLARE_UB_VEC_BINDER

#endif
