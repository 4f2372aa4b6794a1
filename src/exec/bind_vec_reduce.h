/* Binders of the A5 vector reductions and data rearrangement (bind_vec_reduce.c), one per
 * parameter struct of include/ptosim/vec_reduce.h; bind.c dispatches to them through its
 * TEXT_BINDERS list. (vsqz / vusqz and vperm use the vunary / vselr binders of bind_vec.c.) */
#ifndef PT_BIND_VEC_REDUCE_H
#define PT_BIND_VEC_REDUCE_H

#include "exec/bind.h"

#define VEC_REDUCE_TEXT_BINDERS(X) \
  X(ptosim_vreduce_params) X(ptosim_vintlv_params) X(ptosim_vpack_params) X(ptosim_vunpack_params) X(ptosim_vslide_params)

#define DECLARE_VEC_REDUCE_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
VEC_REDUCE_TEXT_BINDERS(DECLARE_VEC_REDUCE_BINDER)
#undef DECLARE_VEC_REDUCE_BINDER

#endif
