/* STUB: replaced by the family implementation. */
#include "isa/isa.h"

ptosim_status pt_exec_mte_gm_ub(pt_ctx *x, const ptosim_dma_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_ub_gm(pt_ctx *x, const ptosim_dma_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_ub_ub(pt_ctx *x, const ptosim_gap_copy_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_ub_l1(pt_ctx *x, const ptosim_gap_copy_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_gm_l1(pt_ctx *x, const ptosim_dma_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l1_ub(pt_ctx *x, const ptosim_dma_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

