/* Binders of the FIXPIPE quantization configuration ops pto.set_quant_scalar and
 * pto.set_quant_vector (src/exec/bind_quant.c). */
#ifndef PT_BIND_QUANT_H
#define PT_BIND_QUANT_H

#include "exec/bind.h"

#define QUANT_TEXT_BINDERS(X) X(ptosim_set_quant_scalar_params) X(ptosim_set_quant_vector_params)

#define DECLARE_QUANT_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
QUANT_TEXT_BINDERS(DECLARE_QUANT_BINDER)
#undef DECLARE_QUANT_BINDER

/* acc_push_epilogue of pto.aic_initialize_pipe `init` (none: 0): checked, gm = its FIFO is
 * in GM (ND rows only). Then the epilogue of the pipe `id` a pto.tpush_to_aiv names, from
 * its function's init, into p (out_dtype, quant, relu, layout; unchanged without one). */
int bind_quant_epilogue(pt_bind *b, const pa_op *init, int gm);
int bind_quant_push(pt_bind *b, const pa_op *push, int64_t id, ptosim_tpush_params *p);

#endif
