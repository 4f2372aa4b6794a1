/* STUB: replaced by the family implementation. */
#include "isa/isa.h"

ptosim_status pt_exec_mte_l0c_l1(pt_ctx *x, const ptosim_fixpipe_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l0c_gm(pt_ctx *x, const ptosim_fixpipe_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mte_l0c_ub(pt_ctx *x, const ptosim_fixpipe_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

