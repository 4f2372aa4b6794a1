/* Binders of the A5 gathers / scatters and DSA/SFU ops (bind_vec_sfu.c), one per parameter
 * struct of include/ptosim/vec_sfu.h; bind.c dispatches to them through its TEXT_BINDERS list. */
#ifndef PT_BIND_VEC_SFU_H
#define PT_BIND_VEC_SFU_H

#include "exec/bind.h"

#define VEC_SFU_TEXT_BINDERS(X) \
  X(ptosim_vgather_params) X(ptosim_vscatter_params) X(ptosim_vaxpy_params) X(ptosim_vmula_params) X(ptosim_vmull_params) \
  X(ptosim_vexpdif_params) X(ptosim_vbitsort_params) X(ptosim_vmrgsort4_params) X(ptosim_vms4_sr_params) \
  X(ptosim_vmulscvt_params) X(ptosim_vhist_params) X(ptosim_vfusedcvt_params)

#define DECLARE_VEC_SFU_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
VEC_SFU_TEXT_BINDERS(DECLARE_VEC_SFU_BINDER)
#undef DECLARE_VEC_SFU_BINDER

#endif
