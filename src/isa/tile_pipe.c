/* Cube-vector tile pipes: pto.aic_initialize_pipe / aiv_initialize_pipe, tpush_to_aiv /
 * tpush_to_aic, tpop_from_aic / tpop_from_aiv, tfree_from_aic / tfree_from_aiv (A5 local
 * FIFOs: pto-isa include/pto/npu/a5/TPush.hpp, TPop.hpp, TFree.hpp; docs/spec-notes.md section 18).
 *
 * Each core keeps its view of pipe id in ptosim_core.tpipe[id]. The flow control is the
 * hardware's: a push past the first slot_num tiles waits, every period tiles, for a free
 * signal of each consumer (see period()), else returns PTOSIM_BLOCKED so the interpreter
 * runs the other cores first (a push or pop that can never go is reported as
 * sync.deadlock by src/exec/run.c); it then moves the tile into slot pushed % slot_num of
 * the consumer's FIFO and counts it ready there. A pop takes a ready tile and places its
 * result tile on slot popped % slot_num; a free ends the hold of the popped slot and, at
 * the end of a period, signals the producer.
 *
 * The ordering goes to the checkers as the cross-core signals the hardware uses
 * (set_intra_block / wait_intra_block with FlagID = 4 * id): one pt_sync event per signal,
 * the signals a push sends after the event holding its writes, so the race checker orders
 * the producer's writes before the consumer's reads and a push that reuses a slot after the
 * consumer's free of it. Under the eager schedule the protocol happens at issue and only
 * the data move of a push runs again, at its start time, into the slot it was issued to. */
#include <stddef.h>
#include <string.h>

#include "isa/isa.h"

enum { F_C2V_READY, F_C2V_FREE, F_V2C_READY, F_V2C_FREE }; /* flag offsets of a pipe (DIR_BOTH) */

static ptosim_core *block_core(pt_ctx *x, ptosim_core_kind k) { return x->m->cores + (size_t)x->core->block * 3 + k; }
static int sub_of(const ptosim_core *c) { return c->kind == PTOSIM_AIV1; }
static int cube(const pt_ctx *x) { return x->core->kind == PTOSIM_AIC; }

/* Flag index of signal `off` of pipe id between the cube core and vector sub-block `sub`
 * (the cube's own semaphores of sub-block 1 are +16, as core_target in sync.c). */
static int64_t flag_of(int64_t id, int off, int sub, int at_cube) { return 4 * id + off + (at_cube ? 16 * sub : 0); }

/* Record one signal of the op as its own event (several per op: one per sub-block). The
 * event the op is being recorded in (x->ev) is sent first when it holds the op's writes. */
static void send_sync(pt_ctx *x, pt_sync_kind kind, int64_t flag, const ptosim_core *peer) {
  if (!x->ev) return;
  if (x->ev->nranges || x->ev->sync.kind != PT_SYNC_NONE) {
    x->ev->part = 1;
    x->m->listener(x->m->listener_user, x->ev);
    x->ev->nranges = x->ev->overflow = x->ev->part = 0;
  }
  ptosim_pipe p = x->ev->pipe;
  x->ev->sync = (pt_sync){.kind = kind, .a = p, .b = p, .id = flag, .peer = peer};
}

static ptosim_status check_id(pt_ctx *x, int64_t id, ptosim_tile_split split) {
  PT_VERIFY(x, id >= 0 && id < PTOSIM_TPIPE_IDS, "tile_pipe.id", "pipe ids are 0..3 (16 hardware flags, 4 per pipe)",
            "pipe id %lld is out of range", (long long)id);
  PT_VERIFY(x, (unsigned)split <= PTOSIM_SPLIT_LEFT_RIGHT, "tile_pipe.split", "split is 0 (none), 1 (up-down) or 2 (left-right)",
            "split %d is not a TileSplitAxis", (int)split);
  return PTOSIM_OK;
}

/* The pipe of this core for an op of direction `dir` (1 C2V, 2 V2C). */
static ptosim_status pipe_of(pt_ctx *x, int64_t id, ptosim_tile_split split, int dir, pt_tpipe **out) {
  PT_TRY(check_id(x, id, split));
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "tile_pipe.target", "A2/A3 pipes pass tiles through a GM FIFO, which ptosim does not run yet",
            "tile pipes run on a5 only, not on %s", x->m->prof->name);
  pt_tpipe *t = &x->core->tpipe[id];
  PT_VERIFY(x, t->dir & dir, "tile_pipe.init", "initialize the pipe with the direction first (dir_mask 1 C2V, 2 V2C, 3 both)",
            "pipe %lld is not initialised for %s on this core (dir_mask %d)", (long long)id, dir == 1 ? "cube -> vector" : "vector -> cube",
            (int)t->dir);
  *out = t;
  return PTOSIM_OK;
}

ptosim_status pt_exec_pipe_init(pt_ctx *x, const ptosim_pipe_init_params *p) {
  PT_TRY(check_id(x, p->id, PTOSIM_SPLIT_NONE));
  PT_VERIFY(x, p->dir_mask >= 1 && p->dir_mask <= 3, "tile_pipe.dir_mask", "1 (C2V), 2 (V2C) or 3 (both)", "dir_mask %lld",
            (long long)p->dir_mask);
  int64_t slots = p->slot_num ? p->slot_num : p->dir_mask == 3 ? 4 : 8;
  PT_VERIFY(x, slots >= 1 && slots <= 16, "tile_pipe.slot_num", "a FIFO has 1..16 slots (default 8, 4 for dir_mask 3)",
            "slot_num %lld", (long long)slots);
  PT_VERIFY(x, p->slot_size > 0 && p->slot_size % 32 == 0 && p->slot_size <= (int64_t)x->m->prof->capacity[PTOSIM_UB],
            "tile_pipe.slot_size", "slot_size is a positive multiple of 32 bytes that fits the consumer memory", "slot_size %lld",
            (long long)p->slot_size);
  for (int d = 1; d <= 2; d++) {
    int64_t base = d == 1 ? p->c2v_buf : p->v2c_buf;
    ptosim_space s = d == 1 ? PTOSIM_UB : PTOSIM_L1;
    PT_VERIFY(x, !(p->dir_mask & d) || (base >= 0 && base % 32 == 0 && (uint64_t)base + (uint64_t)(slots * p->slot_size) <= x->m->prof->capacity[s]),
              "tile_pipe.buffer", "reserve slot_num * slot_size bytes (pto.reserve_buffer) and pass its address",
              "%s consumer buffer [%lld, +%lld) is not a 32-byte aligned range of %s", d == 1 ? "c2v" : "v2c", (long long)base,
              (long long)(slots * p->slot_size), pt_space_name(s));
  }
  if (x->m->verify_only) return PTOSIM_OK;
  pt_tpipe *t = &x->core->tpipe[p->id];
  PT_VERIFY(x, !t->dir, "tile_pipe.reinit", "initialize each pipe id once per core", "pipe %lld is already initialised",
            (long long)p->id);
  /* Counts other cores made before this core's initialize (a push ahead of it) are kept. */
  t->dir = (int32_t)p->dir_mask;
  t->slot_num = (int32_t)slots;
  t->slot_size = (uint32_t)p->slot_size;
  t->c2v_buf = (uint32_t)p->c2v_buf;
  t->v2c_buf = (uint32_t)p->v2c_buf;
  return PTOSIM_OK;
}

/* Free signals are sparse (pto-isa TPipe SyncPeriod): a consumer signals after popping
 * tile i when (i + 1) % period == 0, a producer waits before tile k >= slot_num when
 * k % period == 0. */
static uint32_t period(const pt_tpipe *t) { return t->slot_num <= 2 ? (uint32_t)t->slot_num : (uint32_t)t->slot_num / 2; }

/* The vector sub-blocks a transfer involves: 1 without split (sub-block 0), else 2. */
static int nsubs(ptosim_tile_split s) { return s == PTOSIM_SPLIT_NONE ? 1 : 2; }

/* C2V: the acc tile through the FIXPIPE path into the slot, as pto.tmov acc -> vec (A5
 * TPush pushAcc2VecFiFo: a row-major vec tile of the halved shape per sub-block). */
static ptosim_status push_c2v(pt_ctx *x, const ptosim_tpush_params *p, uint64_t addr) {
  static const ptosim_acc_to_vec_mode mode[] = {PTOSIM_A2V_SINGLE_VEC0, PTOSIM_A2V_DUAL_SPLIT_M, PTOSIM_A2V_DUAL_SPLIT_N};
  int ud = p->split == PTOSIM_SPLIT_UP_DOWN, lr = p->split == PTOSIM_SPLIT_LEFT_RIGHT;
  PT_VERIFY(x, p->tile.space == PTOSIM_L0C, "tile_pipe.loc", "tpush_to_aiv pushes an acc tile", "the pushed tile is in %s",
            pt_space_name(p->tile.space));
  ptosim_tmov_params m = {.src = p->tile, .acc_to_vec = mode[p->split]};
  m.dst = (ptosim_tile){.space = PTOSIM_UB, .addr = addr, .dtype = p->tile.dtype, .rows = p->tile.rows >> ud,
                        .cols = p->tile.cols >> lr, .valid_rows = p->tile.valid_rows >> ud, .valid_cols = p->tile.valid_cols >> lr,
                        .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  return pt_exec_tmov(x, &m);
}

/* V2C: the vec tile inserted into a mat tile of the doubled shape at row / column
 * sub_block * valid (A5 TPush pushVec2MatFiFo). The slot keeps the source's layout: an ND
 * source goes in as ND rows of the slot's width, an NZ one as NZ (TInsertVecToMatImpl picks
 * the copy by the source layout). */
static ptosim_status push_v2c(pt_ctx *x, const ptosim_tpush_params *p, uint64_t addr) {
  int ud = p->split == PTOSIM_SPLIT_UP_DOWN, lr = p->split == PTOSIM_SPLIT_LEFT_RIGHT, s = sub_of(x->core);
  PT_VERIFY(x, p->tile.space == PTOSIM_UB, "tile_pipe.loc", "tpush_to_aic pushes a vec tile", "the pushed tile is in %s",
            pt_space_name(p->tile.space));
  ptosim_tmov_params m = {.src = p->tile, .index_row = ud ? (int64_t)s * p->tile.valid_rows : 0,
                          .index_col = lr ? (int64_t)s * p->tile.valid_cols : 0};
  m.dst = (ptosim_tile){.space = PTOSIM_L1, .addr = addr, .dtype = p->tile.dtype, .rows = p->tile.rows << ud,
                        .cols = p->tile.cols << lr, .valid_rows = p->tile.valid_rows << ud, .valid_cols = p->tile.valid_cols << lr,
                        .blayout = p->tile.blayout, .slayout = p->tile.slayout, .fractal = p->tile.fractal};
  return pt_exec_tinsert(x, &m);
}

ptosim_status pt_exec_tpush(pt_ctx *x, const ptosim_tpush_params *p) {
  int c2v = cube(x), n = c2v ? nsubs(p->split) : 1;
  pt_tpipe *t = NULL;
  if (x->m->verify_only) return check_id(x, p->id, p->split);
  PT_TRY(pipe_of(x, p->id, p->split, c2v ? 1 : 2, &t));
  if (x->m->sched && !x->ev) { /* the eager schedule runs the data move again at its start */
    uint64_t addr = (uint64_t)(c2v ? t->c2v_buf : t->v2c_buf) + (uint64_t)t->replay[t->replay_head++ % PT_TPIPE_REPLAY] * t->slot_size;
    return c2v ? push_c2v(x, p, addr) : push_v2c(x, p, addr);
  }
  if (!c2v && p->split == PTOSIM_SPLIT_NONE && sub_of(x->core))
    return pt_fail(x, PTOSIM_E_VERIFY, "tile_pipe.split", "push with split 1 or 2 from both sub-blocks, or from sub-block 0 only",
                   "an unsplit push comes from vector sub-block 0; sub-block 1 has no slot in it");
  /* Past the first round, every period-th push waits for one free signal of each consumer. */
  int wait = t->pushed >= (uint32_t)t->slot_num && t->pushed % period(t) == 0;
  for (int s = 0; s < n && wait; s++)
    if (!t->freed[s]) return PTOSIM_BLOCKED;
  uint32_t slot = t->pushed % (uint32_t)t->slot_num;
  uint64_t addr = (uint64_t)(c2v ? t->c2v_buf : t->v2c_buf) + (uint64_t)slot * t->slot_size;
  for (int s = 0; s < n && wait; s++) {
    t->freed[s]--;
    send_sync(x, PT_SYNC_CORE_WAIT, flag_of(p->id, c2v ? F_C2V_FREE : F_V2C_FREE, c2v ? s : sub_of(x->core), c2v), NULL);
  }
  uint64_t bytes = (uint64_t)p->tile.rows * (uint64_t)p->tile.cols * pt_dtype_bits(p->tile.dtype) / 8;
  PT_VERIFY(x, bytes <= t->slot_size * (uint64_t)(c2v ? 1 : nsubs(p->split)), "tile_pipe.slot_size",
            "make slot_size at least the tile's bytes (the whole entry before a split)", "a %dx%d %s tile (%llu bytes) does not fit a %u-byte slot",
            p->tile.rows, p->tile.cols, pt_dtype_name(p->tile.dtype), (unsigned long long)bytes, t->slot_size);
  PT_TRY(c2v ? push_c2v(x, p, addr) : push_v2c(x, p, addr));
  if (x->m->sched) { /* issued, its data move queued: remember the slot for that run */
    PT_VERIFY(x, t->pushed - t->replay_head < PT_TPIPE_REPLAY, "tile_pipe.schedule", "run without --schedule=eager",
              "more than %d pushes of one pipe issued ahead of their data moves", PT_TPIPE_REPLAY);
    t->replay[t->pushed % PT_TPIPE_REPLAY] = (uint8_t)slot;
  }
  t->pushed++;
  for (int s = 0; s < n; s++) {
    ptosim_core *peer = block_core(x, c2v ? (ptosim_core_kind)(PTOSIM_AIV0 + s) : PTOSIM_AIC);
    int sub = c2v ? s : sub_of(x->core);
    peer->tpipe[p->id].ready[c2v ? 0 : sub]++;
    send_sync(x, PT_SYNC_CORE_SET, flag_of(p->id, c2v ? F_C2V_READY : F_V2C_READY, sub, !c2v), peer);
  }
  return PTOSIM_OK;
}

/* The producer sub-blocks a cube-side op waits for or frees (vector side: its own). */
static int subs_of(const pt_ctx *x, ptosim_tile_split s, int *first) {
  *first = cube(x) ? 0 : sub_of(x->core);
  return cube(x) ? nsubs(s) : 1;
}

/* The consumer side of pipe p->id on this core (*t stays NULL in a verify-only run). */
static ptosim_status consumer_pipe(pt_ctx *x, const ptosim_tpop_params *p, pt_tpipe **t) {
  *t = NULL;
  if (x->m->verify_only) return check_id(x, p->id, p->split);
  PT_TRY(pipe_of(x, p->id, p->split, cube(x) ? 2 : 1, t));
  PT_VERIFY(x, cube(x) || p->split != PTOSIM_SPLIT_NONE || !sub_of(x->core), "tile_pipe.split",
            "pop with split 1 or 2 on both sub-blocks, or on sub-block 0 only",
            "an unsplit transfer goes to vector sub-block 0; sub-block 1 would wait forever");
  return PTOSIM_OK;
}

ptosim_status pt_exec_tpop(pt_ctx *x, const ptosim_tpop_params *p) {
  int c2v = !cube(x), first, n = subs_of(x, p->split, &first);
  pt_tpipe *t;
  PT_TRY(consumer_pipe(x, p, &t));
  if (!t) return PTOSIM_OK;
  for (int s = 0; s < n; s++)
    if (!t->ready[c2v ? 0 : s]) return PTOSIM_BLOCKED;
  ptosim_tile *r = p->result;
  PT_VERIFY(x, r, "api.args", "pass the tile the pop places", "null result tile");
  uint32_t slot = t->popped % (uint32_t)t->slot_num;
  PT_VERIFY(x, r->space == (c2v ? PTOSIM_UB : PTOSIM_L1), "tile_pipe.loc",
            c2v ? "tpop_from_aic returns a vec tile" : "tpop_from_aiv returns a mat tile", "the popped tile type is in %s",
            pt_space_name(r->space));
  uint64_t bytes = (uint64_t)r->rows * (uint64_t)r->cols * pt_dtype_bits(r->dtype) / 8;
  PT_VERIFY(x, bytes <= t->slot_size, "tile_pipe.slot_size", "the popped tile type must fit one slot",
            "a %llu-byte tile does not fit a %u-byte slot", (unsigned long long)bytes, t->slot_size);
  for (int s = 0; s < n; s++) {
    t->ready[c2v ? 0 : s]--;
    send_sync(x, PT_SYNC_CORE_WAIT, flag_of(p->id, c2v ? F_C2V_READY : F_V2C_READY, c2v ? first : s, !c2v), NULL);
  }
  r->addr = (uint64_t)(c2v ? t->c2v_buf : t->v2c_buf) + (uint64_t)slot * t->slot_size;
  t->popped++;
  t->held++;
  return PTOSIM_OK;
}

ptosim_status pt_exec_tfree(pt_ctx *x, const ptosim_tpop_params *p) {
  int c2v = !cube(x), first, n = subs_of(x, p->split, &first);
  pt_tpipe *t;
  PT_TRY(consumer_pipe(x, p, &t));
  if (!t) return PTOSIM_OK;
  PT_VERIFY(x, t->held, "tile_pipe.free", "free a slot after popping it", "tfree with no popped slot held on pipe %lld",
            (long long)p->id);
  t->held--;
  if (t->popped % period(t)) return PTOSIM_OK; /* the last popped tile does not end a period */
  for (int s = 0; s < n; s++) {
    int sub = c2v ? first : s;
    ptosim_core *peer = block_core(x, c2v ? PTOSIM_AIC : (ptosim_core_kind)(PTOSIM_AIV0 + s));
    peer->tpipe[p->id].freed[c2v ? sub : 0]++;
    send_sync(x, PT_SYNC_CORE_SET, flag_of(p->id, c2v ? F_C2V_FREE : F_V2C_FREE, sub, c2v), peer);
  }
  return PTOSIM_OK;
}

/* ---- tile_valid_rows / tile_valid_cols ------------------------------------------------------ */

ptosim_status pt_exec_tile_valid(pt_ctx *x, const ptosim_tile_valid_params *p) {
  PT_VERIFY(x, p->result, "api.args", "pass where the count goes", "null result");
  *p->result = x->op == PTOSIM_OP_tile_valid_rows ? p->src.valid_rows : p->src.valid_cols;
  return PTOSIM_OK;
}
