/* Scalar loads and stores (pto.load / pto.store and their _scalar spellings): one element
 * between memory and a host value, on pipe S (the scalar unit) or, inside a vector scope,
 * on pipe V (the vector thread), through the accessor layer like every other op (so the
 * race and init checkers see them). */
#include <string.h>

#include "isa/isa.h"

static ptosim_status scalar_access(pt_ctx *x, const ptosim_scalar_mem_params *p, pt_access acc) {
  unsigned es = pt_dtype_size(p->ptr.dtype);
  PT_VERIFY(x, es && es <= 8 && p->value, "scalar.dtype", "use an element type of 1, 2, 4 or 8 bytes",
            "scalar access needs a byte-sized element type");
  PT_VERIFY(x, p->pipe == PTOSIM_PIPE_S || p->pipe == PTOSIM_PIPE_V, "scalar.pipe", "use PIPE_S or PIPE_V",
            "scalar access on pipe %d", (int)p->pipe);
  pt_set_pipe(x, p->pipe);
  uint8_t *h;
  PT_TRY(pt_span(x, p->ptr.space, p->ptr.addr, es, es, acc, &h));
  if (acc == PT_READ) memcpy(p->value, h, es);
  else memcpy(h, p->value, es);
  return PTOSIM_OK;
}

ptosim_status pt_exec_load_scalar(pt_ctx *x, const ptosim_scalar_mem_params *p) { return scalar_access(x, p, PT_READ); }
ptosim_status pt_exec_store_scalar(pt_ctx *x, const ptosim_scalar_mem_params *p) { return scalar_access(x, p, PT_WRITE); }
