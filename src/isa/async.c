/* Asynchronous DMA sessions, events and prefetch contexts (src/isa/ops.def "ASYNC" rows;
 * PTOAS include/PTO/IR/PTOOps.td MakePrefetchAsyncContextOp ... TestAsyncEventOp; pto-isa
 * include/pto/comm/async_common/async_event_impl.hpp, comm/async/sdma/TPrefetchAsyncImpl.hpp).
 * One device, every copy complete when issued: the handles are the integers described in
 * include/ptosim/tile_move.h. */
#include <inttypes.h>

#include "core/profile.h"
#include "isa/isa.h"

/* The workspace is a GM pointer to bytes (PTOAS MakePrefetchAsyncContextOp::verify and
 * BuildAsyncSessionOp::verify: "an 8-bit integer" element type). */
static ptosim_status workspace(pt_ctx *x, const ptosim_ptr *w) {
  PT_VERIFY(x, w->space == PTOSIM_GM && (w->dtype == PTOSIM_DT_I8 || w->dtype == PTOSIM_DT_U8), "async.workspace",
            "pass the SDMA workspace as a GM pointer to i8 (!pto.ptr<i8>)", "workspace is a %s pointer to %s",
            pt_space_name(w->space), pt_dtype_name(w->dtype));
  return PTOSIM_OK;
}

ptosim_status pt_exec_make_prefetch_async_context(pt_ctx *x, const ptosim_async_context_params *p) {
  PT_TRY(workspace(x, &p->workspace));
  if (p->out) *p->out = (int64_t)p->workspace.addr;
  return PTOSIM_OK;
}

/* PrefetchAsyncContext::GetSession: the context's own session, built on its workspace. */
ptosim_status pt_exec_get_prefetch_async_session(pt_ctx *x, const ptosim_async_context_params *p) {
  (void)x;
  if (p->out) *p->out = p->handle;
  return PTOSIM_OK;
}

/* Attribute ranges of PTOAS BuildAsyncSessionOp::verify; scratch: a vec tile of at least
 * 8 bytes. */
ptosim_status pt_exec_build_async_session(pt_ctx *x, const ptosim_async_session_params *p) {
  const ptosim_tile *t = &p->scratch;
  PT_TRY(workspace(x, &p->workspace));
  int64_t bytes = (int64_t)t->rows * t->cols * (int64_t)pt_dtype_size(t->dtype);
  PT_VERIFY(x, t->space == PTOSIM_UB && t->rows > 0 && t->cols > 0 && bytes >= 8, "async.scratch",
            "give the session a vec scratch tile of at least 8 bytes", "scratch is a %d x %d %s tile in %s",
            t->rows, t->cols, pt_dtype_name(t->dtype), pt_space_name(t->space));
  PT_VERIFY(x, p->sync_id >= 0 && p->sync_id <= 7 && p->block_bytes > 0 && p->comm_block_offset >= 0 &&
                   p->queue_num > 0 && p->channel_group_idx >= -1 && p->channel_group_idx <= (int64_t)UINT32_MAX,
            "async.attr",
            "sync_id in [0, 7], block_bytes > 0, comm_block_offset >= 0, queue_num > 0, channel_group_idx a u32",
            "sync_id %" PRId64 ", block_bytes %" PRId64 ", comm_block_offset %" PRId64 ", queue_num %" PRId64
            ", channel_group_idx %" PRId64,
            p->sync_id, p->block_bytes, p->comm_block_offset, p->queue_num, p->channel_group_idx);
  if (p->session) *p->session = (int64_t)p->workspace.addr;
  return PTOSIM_OK;
}

/* AsyncEvent::Wait / Test: the empty event (handle 0) is complete; a started one is looked
 * up in the session's SDMA state, which an invalid session (no workspace) does not have. */
ptosim_status pt_exec_async_event(pt_ctx *x, const ptosim_async_event_params *p) {
  PT_VERIFY(x, p->event == 0 || p->session != 0, "async.session",
            "wait with the session of the context or build_async_session the copy was issued on",
            "event %" PRId64 " waited on a session without a workspace", p->event);
  if (p->completed) *p->completed = 1;
  return PTOSIM_OK;
}
