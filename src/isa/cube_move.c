/* STUB: replaced by the family implementation. */
#include "isa/isa.h"

ptosim_status pt_exec_mte_gm_l1_frac(pt_ctx *x, const ptosim_frac_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l1_l0a(pt_ctx *x, const ptosim_l0_load_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l1_l0b(pt_ctx *x, const ptosim_l0_load_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l1_l0a_mx(pt_ctx *x, const ptosim_mx_load_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l1_l0b_mx(pt_ctx *x, const ptosim_mx_load_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l1_bt(pt_ctx *x, const ptosim_gap_copy_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l1_fb(pt_ctx *x, const ptosim_gap_copy_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

