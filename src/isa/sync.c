/* Synchronization ops (vpto docs/isa/micro-isa/01-pipeline-sync.md).
 *
 * ptosim executes every op of a core in program order, so these ops never change data.
 * What they do here: keep the flag and semaphore counts that decide whether a wait can
 * ever be satisfied (a wait_flag with nothing pending is a deadlock; a cross-core wait on
 * an empty semaphore returns PTOSIM_BLOCKED so the interpreter runs the other cores
 * first), and record their effect (pt_sync) in the op's event, from which the race
 * checker builds happens-before and the cost model moves time between pipes. */
#include "isa/isa.h"

static void effect(pt_ctx *x, pt_sync_kind kind, ptosim_pipe a, ptosim_pipe b, int64_t id, int64_t mode,
                   const ptosim_core *peer) {
  if (!x->ev) return;
  x->ev->sync = (pt_sync){.kind = kind, .a = a, .b = b, .id = id, .mode = mode, .peer = peer};
  x->ev->pipe = a == PTOSIM_PIPE_ALL ? PTOSIM_PIPE_S : kind == PT_SYNC_WAIT_FLAG ? b : a;
}

/* Pipes of each core kind: the cube core has MTE1/MTE2/M/FIX, a vector core MTE2/MTE3/V;
 * both have the scalar pipe (pto-isa docs/isa/machine-model; A5 adds MTE1 L1->UB moves on
 * the cube core only). */
static int pipe_exists(const ptosim_core *c, ptosim_pipe p) {
  if (p == PTOSIM_PIPE_S || p == PTOSIM_PIPE_MTE2) return 1;
  if (c->kind == PTOSIM_AIC) return p == PTOSIM_PIPE_MTE1 || p == PTOSIM_PIPE_M || p == PTOSIM_PIPE_FIX;
  return p == PTOSIM_PIPE_MTE3 || p == PTOSIM_PIPE_V;
}

static ptosim_status check_pipe(pt_ctx *x, ptosim_pipe p, int allow_all) {
  if (allow_all && p == PTOSIM_PIPE_ALL) return PTOSIM_OK;
  PT_VERIFY(x, (unsigned)p < PTOSIM_PIPE_COUNT && pipe_exists(x->core, p), "sync.pipe",
            x->core->kind == PTOSIM_AIC ? "the cube core has PIPE_S, PIPE_MTE1, PIPE_MTE2, PIPE_M and PIPE_FIX"
                                        : "a vector core has PIPE_S, PIPE_MTE2, PIPE_MTE3 and PIPE_V",
            "%s does not exist on the %s core", ptosim_pipe_name(p), x->core->kind == PTOSIM_AIC ? "cube" : "vector");
  return PTOSIM_OK;
}

static ptosim_status check_flag(pt_ctx *x, const ptosim_flag_params *p) {
  PT_TRY(check_pipe(x, p->src_pipe, 0));
  PT_TRY(check_pipe(x, p->dst_pipe, 0));
  PT_VERIFY(x, p->src_pipe != p->dst_pipe, "sync.pipe_pair", "order ops of one pipe with pipe_barrier, or name two pipes",
            "set_flag/wait_flag from %s to itself", ptosim_pipe_name(p->src_pipe));
  PT_VERIFY(x, p->event_id >= 0 && p->event_id < PTOSIM_EVENT_IDS, "sync.event_range",
            "event ids are EVENT_ID0..EVENT_ID7 per pipe pair", "event id %lld is out of range", (long long)p->event_id);
  return PTOSIM_OK;
}

/* A set_flag is counted until a wait_flag consumes it; setting a flag that is still
 * pending is reported by the sync checker (the hardware flag is one bit). */
ptosim_status pt_exec_set_flag(pt_ctx *x, const ptosim_flag_params *p) {
  PT_TRY(check_flag(x, p));
  uint16_t *f = &x->core->flags[p->src_pipe][p->dst_pipe][p->event_id];
  if (*f < UINT16_MAX) (*f)++;
  effect(x, PT_SYNC_SET_FLAG, p->src_pipe, p->dst_pipe, p->event_id, 0, NULL);
  return PTOSIM_OK;
}

/* In program order every set_flag this wait could consume has been issued already: with
 * none pending, the destination pipe would wait forever. */
ptosim_status pt_exec_wait_flag(pt_ctx *x, const ptosim_flag_params *p) {
  PT_TRY(check_flag(x, p));
  uint16_t *f = &x->core->flags[p->src_pipe][p->dst_pipe][p->event_id];
  if (!*f)
    return pt_fail(x, PTOSIM_E_FAULT, "sync.deadlock",
                   "issue the matching set_flag before this wait in program order (prime it before a loop)",
                   "deadlock: wait_flag(%s, %s, EVENT_ID%lld) waits for a set_flag that was never issued",
                   ptosim_pipe_name(p->src_pipe), ptosim_pipe_name(p->dst_pipe), (long long)p->event_id);
  (*f)--;
  effect(x, PT_SYNC_WAIT_FLAG, p->src_pipe, p->dst_pipe, p->event_id, 0, NULL);
  return PTOSIM_OK;
}

ptosim_status pt_exec_pipe_barrier(pt_ctx *x, const ptosim_pipe_params *p) {
  PT_TRY(check_pipe(x, p->pipe, 1));
  effect(x, PT_SYNC_BARRIER, p->pipe, p->pipe, 0, 0, NULL);
  return PTOSIM_OK;
}

static ptosim_status buf_op(pt_ctx *x, const ptosim_buf_params *p, pt_sync_kind kind) {
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "sync.target", "use set_flag/wait_flag on a2a3",
            "get_buf/rls_buf exist on a5 only, not on %s", x->m->prof->name);
  PT_TRY(check_pipe(x, p->pipe, 0));
  PT_VERIFY(x, p->buf_id >= 0 && p->buf_id < PTOSIM_BUF_IDS, "sync.buf_range", "buffer ids are 0..31",
            "buffer id %lld is out of range", (long long)p->buf_id);
  PT_VERIFY(x, p->mode == 0 || p->mode == 1, "sync.buf_mode", "mode 0 (blocking acquire) or 1 (legacy)",
            "mode %lld is not 0 or 1", (long long)p->mode);
  effect(x, kind, p->pipe, p->pipe, p->buf_id, p->mode, NULL);
  return PTOSIM_OK;
}

ptosim_status pt_exec_get_buf(pt_ctx *x, const ptosim_buf_params *p) { return buf_op(x, p, PT_SYNC_GET_BUF); }
ptosim_status pt_exec_rls_buf(pt_ctx *x, const ptosim_buf_params *p) { return buf_op(x, p, PT_SYNC_RLS_BUF); }

ptosim_status pt_exec_mem_bar(pt_ctx *x, const ptosim_mem_bar_params *p) {
  PT_VERIFY(x, (unsigned)p->kind < PTOSIM_MB_COUNT, "sync.mem_bar", "see the barrier types of 01-pipeline-sync.md",
            "unknown barrier type %d", (int)p->kind);
  effect(x, PT_SYNC_MEM_BAR, PTOSIM_PIPE_V, PTOSIM_PIPE_S, p->kind, 0, NULL);
  return PTOSIM_OK;
}

/* ---- cross-core signals inside a block --------------------------------------------------- */

static int sub_of(const ptosim_core *c) { return c->kind == PTOSIM_AIV1; }

/* Semaphore count addressed by `id` from core c: the target core and its index. The cube
 * core addresses vector sub-block id / 16 (index id % 16); sub-block s addresses the cube
 * core's index id + 16 * s (PTOAS mirrors a cube-side set to id + 16 for sub-block 1). */
static ptosim_status core_target(pt_ctx *x, int64_t id, ptosim_core **t, int *idx) {
  int cube = x->core->kind == PTOSIM_AIC;
  PT_VERIFY(x, id >= 0 && id < (cube ? 32 : 16), "sync.flag_range",
            cube ? "ids 0..15 signal vector sub-block 0, 16..31 sub-block 1" : "ids are 0..15",
            "flag id %lld is out of range", (long long)id);
  ptosim_core *base = x->m->cores + (size_t)x->core->block * 3;
  *t = cube ? base + 1 + id / 16 : base;
  *idx = cube ? (int)(id % 16) : (int)id + 16 * sub_of(x->core);
  return PTOSIM_OK;
}

ptosim_status pt_exec_sync_set(pt_ctx *x, const ptosim_core_sync_params *p) {
  PT_TRY(check_pipe(x, p->pipe, 0));
  ptosim_core *t = NULL;
  int idx = 0;
  PT_TRY(core_target(x, p->id, &t, &idx));
  t->sema[idx]++;
  effect(x, PT_SYNC_CORE_SET, p->pipe, p->pipe, idx, 0, t);
  return PTOSIM_OK;
}

/* On a5 only the named pipe waits (wait_intra_block); on a2a3 wait_flag_dev stalls the
 * whole core (01-pipeline-sync.md, "Wait Granularity Comparison"). */
ptosim_status pt_exec_sync_wait(pt_ctx *x, const ptosim_core_sync_params *p) {
  PT_TRY(check_pipe(x, p->pipe, 0));
  int n = x->core->kind == PTOSIM_AIC ? 32 : 16;
  PT_VERIFY(x, p->id >= 0 && p->id < n, "sync.flag_range",
            n == 32 ? "the cube core waits on 0..15 (sub-block 0) and 16..31 (sub-block 1)" : "ids are 0..15",
            "flag id %lld is out of range", (long long)p->id);
  if (!x->core->sema[p->id]) return PTOSIM_BLOCKED;
  x->core->sema[p->id]--;
  ptosim_pipe w = x->m->target == PTOSIM_TARGET_A5 ? p->pipe : PTOSIM_PIPE_ALL;
  effect(x, PT_SYNC_CORE_WAIT, w, w, p->id, 0, NULL);
  return PTOSIM_OK;
}
