/* Binders of the A5 vector-core ops (bind_vec.c), one per parameter struct; bind.c
 * dispatches to them through its TEXT_BINDERS list. */
#ifndef PT_BIND_VEC_H
#define PT_BIND_VEC_H

#include "exec/bind.h"

#define VEC_TEXT_BINDERS(X)                                                                                       \
  X(ptosim_vlds_params) X(ptosim_vldsx2_params) X(ptosim_vsts_params) X(ptosim_vstsx2_params)                      \
  X(ptosim_vsldb_params) X(ptosim_vsstb_params) X(ptosim_plds_params) X(ptosim_psts_params)                        \
  X(ptosim_init_align_params) X(ptosim_vldas_params) X(ptosim_vldus_params) X(ptosim_vstus_params)                 \
  X(ptosim_vstas_params) X(ptosim_pstu_params) X(ptosim_vstur_params) X(ptosim_vstar_params)                     \
  X(ptosim_sprclr_params) X(ptosim_sprst_params) X(ptosim_pltm_params) X(ptosim_vunary_params) X(ptosim_vbinary_params)                    \
  X(ptosim_vscalar_params) X(ptosim_vcarry_params) X(ptosim_vcmp_params) X(ptosim_vcmps_params)                    \
  X(ptosim_vselr_params) X(ptosim_pset_params) X(ptosim_plt_params) X(ptosim_pbin_params) X(ptosim_pnot_params)   \
  X(ptosim_ppart_params) X(ptosim_ppair_params) X(ptosim_vbr_params) X(ptosim_vdup_params) X(ptosim_vcvt_params)   \
  X(ptosim_vtrc_params) X(ptosim_vci_params) X(ptosim_vbitcast_params)

#define DECLARE_VEC_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
VEC_TEXT_BINDERS(DECLARE_VEC_BINDER)
#undef DECLARE_VEC_BINDER

#endif
