/* STUB: replaced by the family implementation. */
#include "isa/isa.h"

ptosim_status pt_exec_mad(pt_ctx *x, const ptosim_mad_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mad_acc(pt_ctx *x, const ptosim_mad_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mad_bias(pt_ctx *x, const ptosim_mad_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mad_mx(pt_ctx *x, const ptosim_mad_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mad_mx_acc(pt_ctx *x, const ptosim_mad_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

ptosim_status pt_exec_mad_mx_bias(pt_ctx *x, const ptosim_mad_params *p) {
  (void)p;
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "op.unsupported", NULL, "not supported yet");
}

