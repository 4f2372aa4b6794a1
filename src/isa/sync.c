/* Synchronization ops (vpto docs/isa/micro-isa/01-pipeline-sync.md).
 *
 * ptosim executes the ops of a core in program order, except behind a wait_flag issued
 * before its set_flag (the wait parks its pipe, see park.h), so these ops never change
 * data. What they do here: keep the flag and semaphore counts that decide whether a wait
 * can go (a wait_flag with nothing pending parks its pipe, or deadlocks the scalar unit;
 * a cross-core wait on an empty semaphore returns PTOSIM_BLOCKED so the interpreter runs
 * the other cores first), and record their effect (pt_sync) in the op's event, from which
 * the race checker builds happens-before and the cost model moves time between pipes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/park.h"

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

static ptosim_status park_begin(pt_ctx *x, ptosim_pipe pipe, const void *params);

/* With nothing pending the destination pipe parks until a later set_flag (park.h); the
 * scalar unit waiting would stop issuing, so a wait of PIPE_S is a deadlock. */
ptosim_status pt_exec_wait_flag(pt_ctx *x, const ptosim_flag_params *p) {
  PT_TRY(check_flag(x, p));
  uint16_t *f = &x->core->flags[p->src_pipe][p->dst_pipe][p->event_id];
  if (!*f && p->dst_pipe != PTOSIM_PIPE_S && !x->m->verify_only) return park_begin(x, p->dst_pipe, p);
  if (!*f)
    return pt_fail(x, PTOSIM_E_FAULT, "sync.deadlock",
                   "issue the matching set_flag before this wait in program order (prime it before a loop)",
                   "deadlock: wait_flag(%s, %s, EVENT_ID%lld) stops the scalar unit, and its set_flag was never issued",
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

/* The A5 intra-block ids form a 32-id space: 0..15 are vector sub-block 0's semaphores, 16..31
 * sub-block 1's (PTOAS docs/isa/micro-isa/01-pipeline-sync.md, "A5 semaphore address space").
 * The cube core addresses both halves. A vector sub-block s names its own 16 by 0..15 (pto-isa
 * a5 TPush / SyncAll wait on the plain id) or by its half 16 s .. 16 s + 15 (tonibohnlein/PTOAS
 * fixpipe-acc-store-dual-ub-cv: the cube sets 17, sub-block 1 waits on 17). Returns the index
 * 0..15 among the vector core's own ids, or -1 for an id of the other sub-block's half or
 * outside 0..31. */
static int vector_id(const ptosim_core *c, int64_t id) {
  return id >= 0 && id < 16 ? (int)id : id >= 16 * (int64_t)sub_of(c) && id < 16 * (int64_t)sub_of(c) + 16 ? (int)(id % 16) : -1;
}

/* The checked id in the core's own terms: the cube's 0..31, a vector core's 0..15. */
static ptosim_status own_id(pt_ctx *x, int64_t id, int *own) {
  int cube = x->core->kind == PTOSIM_AIC;
  *own = cube ? (id >= 0 && id < 32 ? (int)id : -1) : vector_id(x->core, id);
  PT_VERIFY(x, *own >= 0, "sync.flag_range",
            cube ? "ids 0..15 are vector sub-block 0's, 16..31 sub-block 1's"
                 : "a vector sub-block s names its ids 0..15, or 16 s .. 16 s + 15",
            "flag id %lld is out of range", (long long)id);
  return PTOSIM_OK;
}

/* Semaphore count addressed by `id` from core c: the target core and its index. The cube
 * core addresses vector sub-block id / 16 (index id % 16); sub-block s addresses the cube
 * core's index 16 s + its own id (PTOAS mirrors a cube-side set to id + 16 for sub-block 1). */
static ptosim_status core_target(pt_ctx *x, int64_t id, ptosim_core **t, int *idx) {
  int own;
  PT_TRY(own_id(x, id, &own));
  int cube = x->core->kind == PTOSIM_AIC;
  ptosim_core *base = x->m->cores + (size_t)x->core->block * 3;
  *t = cube ? base + 1 + own / 16 : base;
  *idx = cube ? own % 16 : own + 16 * sub_of(x->core);
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
  int idx;
  PT_TRY(own_id(x, p->id, &idx));
  if (!x->core->sema[idx]) return PTOSIM_BLOCKED;
  x->core->sema[idx]--;
  ptosim_pipe w = x->m->target == PTOSIM_TARGET_A5 ? p->pipe : PTOSIM_PIPE_ALL;
  effect(x, PT_SYNC_CORE_WAIT, w, w, idx, 0, NULL);
  return PTOSIM_OK;
}

/* ---- pto.syncall and pto.tsync -------------------------------------------------------------- */

/* Participants per block of a barrier of core type t among the launched core kinds (a
 * machine run op by op through the C API counts all three). */
static int64_t per_block(const ptosim_machine *m, ptosim_sync_core_type t) {
  uint32_t k = m->launch_kinds ? m->launch_kinds : 7u;
  int64_t cube = k & 1u, vec = ((k >> 1) & 1u) + ((k >> 2) & 1u);
  return t == PTOSIM_SYNC_AIV_ONLY ? vec : t == PTOSIM_SYNC_AIC_ONLY ? cube : cube + vec;
}

static int participates(const ptosim_core *c, ptosim_sync_core_type t) {
  return t == PTOSIM_SYNC_MIX || (t == PTOSIM_SYNC_AIC_ONLY) == (c->kind == PTOSIM_AIC);
}

static ptosim_status check_syncall(pt_ctx *x, const ptosim_syncall_params *p) {
  PT_VERIFY(x, (unsigned)p->core_type <= PTOSIM_SYNC_MIX, "syncall.core_type", "core_type is aiv_only, aic_only or mix",
            "core type %d", (int)p->core_type);
  if (!p->soft) return PTOSIM_OK;
  PT_VERIFY(x, p->workspace.space == PTOSIM_GM && p->workspace.dtype == PTOSIM_DT_I32, "syncall.workspace",
            "pass an i32 GM workspace (!pto.ptr<i32, gm> or a tensor view of i32)", "the soft syncall workspace is %s %s, not i32 in GM",
            pt_space_name(p->workspace.space), pt_dtype_name(p->workspace.dtype));
  PT_VERIFY(x, p->workspace_elems < 0 || p->workspace_elems >= 16, "syncall.workspace",
            "reserve at least 16 i32 (64 bytes, its own cache line) for the workspace", "the workspace holds %lld i32",
            (long long)p->workspace_elems);
  PT_VERIFY(x, p->workspace.addr % 4 == 0, "syncall.workspace", "align the workspace to 4 bytes", "workspace at GM 0x%llx",
            (unsigned long long)p->workspace.addr);
  PT_VERIFY(x, p->used_cores >= 0 && p->used_cores <= INT32_MAX, "syncall.used_cores",
            "used_cores is the number of participants (0: all of core_type)", "used_cores %lld", (long long)p->used_cores);
  return PTOSIM_OK;
}

/* The arrival counter of a soft barrier: the i32 at the workspace. The accesses are the
 * barrier's own (atomics past the cache, dcci), not data: no event records them. */
static ptosim_status soft_counter(pt_ctx *x, uint64_t ws, int32_t add, int64_t *count) {
  pt_ctx q = *x;
  q.ev = NULL;
  uint8_t *h;
  PT_TRY(pt_span(&q, PTOSIM_GM, ws, 4, 4, add ? PT_RW : PT_READ, &h));
  int32_t v;
  memcpy(&v, h, 4);
  *count = v;
  v = (int32_t)((uint32_t)v + (uint32_t)add); /* the hardware's i32 atomic add wraps */
  if (add) memcpy(h, &v, 4);
  return PTOSIM_OK;
}

/* The channel of key (a new one if none), its index in *ch. */
static ptosim_status channel_of(pt_ctx *x, uint64_t key, int *ch) {
  ptosim_machine *m = x->m;
  for (*ch = 0; *ch < m->nbarriers && m->barriers[*ch].key != key; (*ch)++) {}
  if (*ch < m->nbarriers) return PTOSIM_OK;
  PT_VERIFY(x, m->nbarriers < PT_BARRIER_CHANNELS, "syncall.channels", "use at most 8 soft workspaces and hard core types in one run",
            "too many pto.syncall barriers");
  m->barriers[m->nbarriers++] = (pt_barrier){.key = key};
  return PTOSIM_OK;
}

/* Send the op's event as it is now, as one of several (the arrival before the departure). */
static void send_part(pt_ctx *x, pt_sync_kind kind, uint32_t id) {
  if (!x->ev) return;
  effect(x, kind, PTOSIM_PIPE_ALL, PTOSIM_PIPE_ALL, id, 0, NULL);
  x->ev->part = 1;
  x->m->listener(x->m->listener_user, x->ev);
  x->ev->part = 0;
  x->ev->sync = (pt_sync){0};
}

/* Arrive: add one to the channel's count and wait for the round's target (the count from
 * before, rounded down to whole rounds of `total`, plus one round). */
static ptosim_status arrive(pt_ctx *x, const ptosim_syncall_params *p, pt_core_barrier *cb) {
  ptosim_machine *m = x->m;
  int64_t total = p->soft && p->used_cores                        ? p->used_cores
                  : p->soft && p->core_type != PTOSIM_SYNC_MIX ? m->blocks /* get_block_num() */
                                                               : (int64_t)m->blocks * per_block(m, p->core_type);
  int ch;
  PT_TRY(channel_of(x, p->soft ? p->workspace.addr | 1ull << 63 : (uint64_t)p->core_type + 1, &ch));
  pt_barrier *b = &m->barriers[ch];
  int64_t before;
  if (p->soft) PT_TRY(soft_counter(x, p->workspace.addr, 1, &before)); /* the count is the GM counter */
  else before = b->count++;
  int64_t target = (before / total + 1) * total;
  if (!b->open_id || target != b->open_target) b->open_target = target, b->open_id = ++m->barrier_ids;
  *cb = (pt_core_barrier){.waiting = 1, .channel = ch, .target = target, .id = b->open_id};
  send_part(x, PT_SYNC_ALL_ARRIVE, cb->id);
  return PTOSIM_OK;
}

/* pto-isa SYNCALL_IMPL / SYNCALL_SOFT_*_IMPL: every core drains its pipes; a participant
 * arrives and waits (PTOSIM_BLOCKED: the interpreter runs the other cores and blocks, and
 * reports a barrier that can never complete as sync.deadlock) until the count reaches its
 * round's target. */
ptosim_status pt_exec_syncall(pt_ctx *x, const ptosim_syncall_params *p) {
  PT_TRY(check_syncall(x, p));
  if (x->m->verify_only) return PTOSIM_OK;
  PT_VERIFY(x, !x->m->sched, "syncall.schedule", "run without --schedule=eager", "the eager schedule does not run pto.syncall yet");
  if (!participates(x->core, p->core_type)) {
    effect(x, PT_SYNC_BARRIER, PTOSIM_PIPE_ALL, PTOSIM_PIPE_ALL, 0, 0, NULL);
    return PTOSIM_OK;
  }
  pt_core_barrier *cb = &x->core->bar;
  if (!cb->waiting) PT_TRY(arrive(x, p, cb));
  int64_t count = x->m->barriers[cb->channel].count;
  if (p->soft) PT_TRY(soft_counter(x, p->workspace.addr, 0, &count));
  if (count < cb->target) return PTOSIM_BLOCKED;
  cb->waiting = 0;
  effect(x, PT_SYNC_ALL_DEPART, PTOSIM_PIPE_ALL, PTOSIM_PIPE_ALL, cb->id, 0, NULL);
  return PTOSIM_OK;
}

/* The events of the ops that produced the operands: ptosim's operands name tiles and views,
 * not the ops, so the wait covers every op issued before it (the scalar unit waits for
 * every pipe, as barrier(PIPE_ALL)); with no operand it is a no-op (pto-isa tsync.md). */
ptosim_status pt_exec_tsync(pt_ctx *x, const ptosim_tsync_params *p) {
  PT_VERIFY(x, p->nevents >= 0, "api.args", "pass the number of events", "%lld events", (long long)p->nevents);
  if (p->nevents) effect(x, PT_SYNC_BARRIER, PTOSIM_PIPE_ALL, PTOSIM_PIPE_ALL, 0, 0, NULL);
  return PTOSIM_OK;
}

/* ---- parked pipes (park.h) -------------------------------------------------------------------- */

typedef struct parked {
  ptosim_opcode op;
  ptosim_loc loc;
  uint64_t sreg[PT_SREG_COUNT]; /* the core's special registers when the op was issued */
  unsigned char *params;
} parked;

typedef struct fifo {
  parked *q;
  size_t head, n, cap; /* entries [head, n) wait; q[head] is the op that holds the pipe */
} fifo;

struct pt_park {
  fifo pipe[PTOSIM_PIPE_COUNT];
};

static int is_wait(ptosim_opcode op) {
  return op == PTOSIM_OP_wait_flag || op == PTOSIM_OP_wait_flag_dyn || op == PTOSIM_OP_wait_event;
}

/* The pipe an op is issued to (PTOSIM_PIPE_ALL: it stops the scalar unit until every pipe
 * is done). Ops whose body picks another pipe (a few tile moves) count on their table pipe. */
static ptosim_pipe issue_pipe(const ptosim_machine *m, ptosim_opcode op, const void *params) {
  const ptosim_flag_params *f = params;
  switch (op) {
  case PTOSIM_OP_set_flag:
  case PTOSIM_OP_set_flag_dyn:
  case PTOSIM_OP_record_event: return f->src_pipe;
  case PTOSIM_OP_wait_flag:
  case PTOSIM_OP_wait_flag_dyn:
  case PTOSIM_OP_wait_event: return f->dst_pipe;
  case PTOSIM_OP_pipe_barrier:
  case PTOSIM_OP_barrier:
  case PTOSIM_OP_barrier_sync: return ((const ptosim_pipe_params *)params)->pipe;
  case PTOSIM_OP_get_buf:
  case PTOSIM_OP_rls_buf: return ((const ptosim_buf_params *)params)->pipe;
  case PTOSIM_OP_mem_bar: return PTOSIM_PIPE_ALL; /* the scalar unit waits for V */
  case PTOSIM_OP_sync_set:
  case PTOSIM_OP_set_intra_block: return ((const ptosim_core_sync_params *)params)->pipe;
  case PTOSIM_OP_sync_wait:
  case PTOSIM_OP_wait_intra_block:
  case PTOSIM_OP_wait_intra_core:
    return m->target == PTOSIM_TARGET_A5 ? ((const ptosim_core_sync_params *)params)->pipe : PTOSIM_PIPE_ALL;
  default: return ptosim_op_pipe_id(op);
  }
}

static ptosim_status no_memory(pt_ctx *x) {
  return pt_fail(x, PTOSIM_E_NOMEM, "sync.memory", "issue the set_flag before the wait", "out of memory for the ops behind a parked wait");
}

static ptosim_status push(pt_ctx *x, ptosim_pipe pipe, const void *params) {
  ptosim_core *c = x->core;
  if (!c->park && !(c->park = calloc(1, sizeof *c->park))) return no_memory(x);
  fifo *f = &c->park->pipe[pipe];
  size_t size = pt_op_params_size(x->op);
  if (f->n == f->cap) {
    size_t cap = f->cap ? f->cap * 2 : 16;
    parked *q = realloc(f->q, cap * sizeof *q);
    if (!q) return no_memory(x);
    f->q = q;
    f->cap = cap;
  }
  parked *e = &f->q[f->n];
  *e = (parked){.op = x->op, .loc = x->loc, .params = malloc(size ? size : 1)};
  if (!e->params) return no_memory(x);
  memcpy(e->params, params, size);
  memcpy(e->sreg, c->sreg, sizeof e->sreg);
  f->n++;
  return PTOSIM_OK;
}

static ptosim_status park_begin(pt_ctx *x, ptosim_pipe pipe, const void *params) {
  PT_TRY(push(x, pipe, params));
  return PT_E_PARKED;
}

/* The first parked pipe of c (PTOSIM_PIPE_COUNT: none). */
static int first_parked(const ptosim_core *c) {
  int q = 0;
  while (c->park && q < PTOSIM_PIPE_COUNT && c->park->pipe[q].head == c->park->pipe[q].n) q++;
  return c->park ? q : PTOSIM_PIPE_COUNT;
}

/* A deadlock naming the op that holds pipe q (the wait, and what it waits for) and why
 * nothing will release it. */
static ptosim_status deadlock(pt_ctx *x, const ptosim_core *c, int q, const char *why) {
  const parked *w = &c->park->pipe[q].q[c->park->pipe[q].head];
  const ptosim_flag_params *f = (const ptosim_flag_params *)w->params;
  char what[96] = "a cross-core signal";
  if (is_wait(w->op))
    snprintf(what, sizeof what, "a set_flag(%s, %s, EVENT_ID%lld)", ptosim_pipe_name(f->src_pipe), ptosim_pipe_name(f->dst_pipe),
             (long long)f->event_id);
  return pt_fail(x, PTOSIM_E_FAULT, "sync.deadlock", "issue the matching set (prime it before a loop)",
                 "deadlock: %s at %d:%d holds %s, waiting for %s, and %s", ptosim_op_spelling(w->op), w->loc.line, w->loc.col,
                 ptosim_pipe_name((ptosim_pipe)q), what, why);
}

int pt_park_hold(pt_ctx *x, const void *params, ptosim_status *st) {
  ptosim_pipe pipe = issue_pipe(x->m, x->op, params);
  int q = first_parked(x->core);
  if (pipe == PTOSIM_PIPE_S || (unsigned)pipe > PTOSIM_PIPE_ALL || q == PTOSIM_PIPE_COUNT) return 0;
  if (pipe == PTOSIM_PIPE_ALL) {
    *st = deadlock(x, x->core, q, "this op stops the scalar unit until every pipe is done, so no later set_flag is issued");
    return 1;
  }
  if (x->core->park->pipe[pipe].head == x->core->park->pipe[pipe].n) return 0;
  *st = push(x, pipe, params);
  return 1;
}

/* Run the ops of pipe q of core c that can go now; returns their first error. */
static ptosim_status drain(ptosim_core *c, int q, int *progress) {
  fifo *f = &c->park->pipe[q];
  while (f->head < f->n) {
    parked *e = &f->q[f->head];
    const ptosim_flag_params *w = (const ptosim_flag_params *)e->params;
    if (is_wait(e->op) && (unsigned)w->src_pipe < PTOSIM_PIPE_COUNT && (unsigned)w->event_id < PTOSIM_EVENT_IDS &&
        !c->flags[w->src_pipe][w->dst_pipe][w->event_id])
      return PTOSIM_OK;
    pt_ctx x = {.m = c->m, .core = c, .op = e->op, .loc = e->loc};
    uint64_t now[PT_SREG_COUNT];
    memcpy(now, c->sreg, sizeof now);
    memcpy(c->sreg, e->sreg, sizeof now);
    ptosim_status st = pt_exec_issue(&x, e->params);
    memcpy(c->sreg, now, sizeof now);
    if (st == PTOSIM_BLOCKED) return PTOSIM_OK; /* a cross-core wait: it stays first */
    free(e->params);
    f->head++;
    *progress = 1;
    if (st != PTOSIM_OK) return st;
  }
  f->head = f->n = 0;
  return PTOSIM_OK;
}

/* Run what can go on the parked pipes of core c until nothing more can. */
static ptosim_status release(ptosim_core *c) {
  for (int progress = 1; progress && c->park;) {
    progress = 0;
    for (int q = 0; q < PTOSIM_PIPE_COUNT; q++) PT_TRY(drain(c, q, &progress));
    if (first_parked(c) == PTOSIM_PIPE_COUNT) pt_park_free(c);
  }
  return PTOSIM_OK;
}

ptosim_status pt_park_after(ptosim_core *c, ptosim_status st) {
  if (st == PT_E_PARKED) return PTOSIM_OK;
  ptosim_core *base = c->m->cores + (size_t)c->block * 3; /* a cross-core set releases its peer */
  for (int k = 0; k < 3 && st == PTOSIM_OK; k++)
    if (base[k].park) st = release(&base[k]);
  return st;
}

ptosim_status pt_park_finish(ptosim_core *c, ptosim_loc end) {
  PT_TRY(release(c));
  int q = first_parked(c);
  if (q == PTOSIM_PIPE_COUNT) return PTOSIM_OK;
  char why[96];
  snprintf(why, sizeof why, "none comes after it (the program ends at %d:%d)", end.line, end.col);
  pt_ctx x = {.m = c->m, .core = c, .op = c->park->pipe[q].q[c->park->pipe[q].head].op, .loc = c->park->pipe[q].q[c->park->pipe[q].head].loc};
  ptosim_status st = deadlock(&x, c, q, why);
  pt_park_free(c);
  return st;
}

void pt_park_free(ptosim_core *c) {
  if (!c->park) return;
  for (int q = 0; q < PTOSIM_PIPE_COUNT; q++) {
    fifo *f = &c->park->pipe[q];
    for (size_t i = f->head; i < f->n; i++) free(f->q[i].params);
    free(f->q);
  }
  free(c->park);
  c->park = NULL;
}
