/* Binders of the FIXPIPE quantization configuration ops pto.set_quant_scalar and
 * pto.set_quant_vector (src/exec/bind_quant.c). */
#ifndef PT_BIND_QUANT_H
#define PT_BIND_QUANT_H

#include "exec/bind.h"

#define QUANT_TEXT_BINDERS(X) X(ptosim_set_quant_scalar_params) X(ptosim_set_quant_vector_params)

#define DECLARE_QUANT_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
QUANT_TEXT_BINDERS(DECLARE_QUANT_BINDER)
#undef DECLARE_QUANT_BINDER

#endif
