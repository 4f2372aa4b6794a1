/* Binders of the cube-vector tile pipe ops, tile_valid_rows / _cols and the async DMA handle ops
 * (src/exec/bind_tile_pipe.c), the lowering of
 * pto.reserve_buffer / pto.import_reserved_buffer into i32 address constants. */
#ifndef PT_BIND_TILE_PIPE_H
#define PT_BIND_TILE_PIPE_H

#include "exec/bind.h"
#include "exec/lower.h"

#define TILE_PIPE_TEXT_BINDERS(X) \
  X(ptosim_pipe_init_params) X(ptosim_tpush_params) X(ptosim_tpop_params) X(ptosim_tile_valid_params) \
  X(ptosim_syncall_params) X(ptosim_tsync_params) X(ptosim_talloc_params) X(ptosim_tprefetch_async_params) \
  X(ptosim_async_context_params) X(ptosim_async_session_params) X(ptosim_async_event_params)

#define DECLARE_TILE_PIPE_BINDER(T) int bind_##T(pt_bind *b, const pa_op *op, T *p);
TILE_PIPE_TEXT_BINDERS(DECLARE_TILE_PIPE_BINDER)
#undef DECLARE_TILE_PIPE_BINDER

/* Lowers op if it is pto.reserve_buffer or pto.import_reserved_buffer: 0 done, -1 error
 * (reported), 1 not one of them. */
int pt_lower_pipe_op(pt_lower *L, const pa_op *op);

/* The area pto.reserve_buffer `op` reserves (its location and size in bytes; its address is
 * the constant it lowers to); -1 when op is not a well-formed reserve_buffer. */
int pt_reserve_area(const pa_op *op, ptosim_space *space, uint64_t *size);

/* 1 when the vector-side body `scope` (a vector function or section) must run on vector
 * sub-block 0 only: on A5, PTOAS wraps such a body in `if (get_subblockid() == 0)` when it
 * has a pipe op with split 0 and asks for no sub-block index or count itself
 * (PTOToEmitC.cpp needsA5NoSplitVectorGuard). */
int pt_pipe_vector_guard(pt_lower *L, const pa_op *scope);

#endif
