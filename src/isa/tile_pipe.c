/* Cube-vector tile pipes: pto.aic_initialize_pipe / aiv_initialize_pipe, tpush_to_aiv /
 * tpush_to_aic, tpop_from_aic / tpop_from_aiv, tfree_from_aic / tfree_from_aiv, and the
 * generic pto.initialize_l2l_pipe / initialize_l2g2l_pipe / tpush / tpop / tfree on a pipe
 * handle (pto-isa include/pto/npu/a5/TPush.hpp, TPop.hpp, TFree.hpp for the local FIFOs of
 * A5 and its GM directions; include/pto/npu/a2a3/TPush.hpp, TPop.hpp, TFree.hpp for the GM
 * FIFOs of A2/A3; docs/spec-notes.md section 18).
 *
 * Each core keeps its view of a pipe in ptosim_core.tpipe[base], base = the pipe's first
 * hardware flag. The flow control is the hardware's: a push past the first slot_num tiles
 * waits, every period tiles, for a free signal of each consumer (see period()), else
 * returns PTOSIM_BLOCKED so the interpreter runs the other cores first (a push or pop that
 * can never go is reported as sync.deadlock by src/exec/run.c); it then moves the tile
 * into slot pushed % slot_num and counts it ready at the consumer. A pop takes a ready tile
 * and places its result tile on slot popped % slot_num (A2/A3: loads it from the GM slot
 * into local slot popped % local_slot_num and, at the end of a period, signals the
 * producer itself: TFREE of a tile is a no-op there); a free ends the hold of the popped
 * slot and, at the end of a period, signals the producer.
 *
 * The ordering goes to the checkers as the cross-core signals the hardware uses
 * (set_intra_block / wait_intra_block on A5, ffts_cross_core_sync / wait_flag_dev, which
 * stalls the whole core, on A2/A3): one pt_sync event per signal, the signals a push sends
 * after the event holding its writes, so the race checker orders the producer's writes
 * before the consumer's reads and a push that reuses a slot after the consumer's free of
 * it. Under the eager schedule the protocol happens at issue and only the data move of a
 * push runs again, at its start time, into the slot it was issued to. */
#include <stddef.h>
#include <string.h>

#include "isa/isa.h"

static ptosim_core *block_core(pt_ctx *x, ptosim_core_kind k) { return x->m->cores + (size_t)x->core->block * 3 + k; }
static int sub_of(const ptosim_core *c) { return c->kind == PTOSIM_AIV1; }
static int cube(const pt_ctx *x) { return x->core->kind == PTOSIM_AIC; }
static int a5(const pt_ctx *x) { return x->m->target == PTOSIM_TARGET_A5; }

/* The generic ops name a pipe by its handle (its flag base), the frontend ones by id. */
static int generic(const pt_ctx *x) {
  return x->op == PTOSIM_OP_tpush || x->op == PTOSIM_OP_tpop || x->op == PTOSIM_OP_tfree || x->op == PTOSIM_OP_talloc ||
         x->op == PTOSIM_OP_initialize_l2l_pipe || x->op == PTOSIM_OP_initialize_l2g2l_pipe;
}

/* Flag of the ready (free = 0) or free (free = 1) signal of direction c2v of the pipe at
 * `base` between the cube core and vector sub-block `sub`: C2V base, base + 1; V2C the next
 * two when the pipe has 4 flags (TPipe DIR_BOTH FlagID + 2, + 3), else the same two. The
 * cube's own semaphores of sub-block 1 are +16 (as core_target in sync.c). */
static int64_t flag_of(const pt_tpipe *t, int base, int c2v, int free, int sub, int at_cube) {
  return base + (c2v ? 0 : t->nflags - 2) + free + (at_cube ? 16 * sub : 0);
}

/* Record one signal of the op as its own event (several per op: one per sub-block). The
 * event the op is being recorded in (x->ev) is sent first when it holds the op's writes.
 * A wait on A2/A3 is wait_flag_dev, which stalls every pipe of the core. */
static void send_sync(pt_ctx *x, pt_sync_kind kind, int64_t flag, const ptosim_core *peer) {
  if (!x->ev) return;
  if (x->ev->nranges || x->ev->sync.kind != PT_SYNC_NONE) {
    x->ev->part = 1;
    x->m->listener(x->m->listener_user, x->ev);
    x->ev->nranges = x->ev->overflow = x->ev->part = 0;
  }
  ptosim_pipe p = kind == PT_SYNC_CORE_WAIT && !a5(x) ? PTOSIM_PIPE_ALL : x->ev->pipe;
  x->ev->sync = (pt_sync){.kind = kind, .a = p, .b = p, .id = flag, .peer = peer};
}

/* by_flag: id is the pipe's first hardware flag (a generic handle, or a frontend pipe the
 * text binder placed), else a frontend id 0..3 (flags 4 id ..). */
static ptosim_status check_id(pt_ctx *x, int64_t id, ptosim_tile_split split, int by_flag) {
  int max = by_flag ? PTOSIM_TPIPE_FLAGS : PTOSIM_TPIPE_IDS;
  PT_VERIFY(x, id >= 0 && id < max, "tile_pipe.id",
            by_flag ? "pass the handle pto.initialize_l2l_pipe / initialize_l2g2l_pipe returned (flags 0..15)" : "pipe ids are 0..3 (16 hardware flags, 4 per pipe)",
            "pipe %s %lld is out of range", by_flag ? "flag" : "id", (long long)id);
  PT_VERIFY(x, (unsigned)split <= PTOSIM_SPLIT_LEFT_RIGHT, "tile_pipe.split", "split is 0 (none), 1 (up-down) or 2 (left-right)",
            "split %d is not a TileSplitAxis", (int)split);
  return PTOSIM_OK;
}

/* The pipe of this core for an op of direction `dir` (1 C2V, 2 V2C), and its base. */
static ptosim_status pipe_of(pt_ctx *x, int64_t id, ptosim_tile_split split, int placed, int dir, pt_tpipe **out, int *base) {
  int by_flag = generic(x) || placed;
  PT_TRY(check_id(x, id, split, by_flag));
  *base = (int)(by_flag ? id : 4 * id);
  pt_tpipe *t = &x->core->tpipe[*base];
  PT_VERIFY(x, t->dir & dir, "tile_pipe.init", "initialize the pipe with the direction first (dir_mask 1 C2V, 2 V2C, 3 both)",
            "pipe %lld is not initialised for %s on this core (dir_mask %d)", (long long)id, dir == 1 ? "cube -> vector" : "vector -> cube",
            (int)t->dir);
  *out = t;
  return PTOSIM_OK;
}

/* Whether the pipe's FIFO is in GM. A2/A3: always (pto-isa a2a3 TPipe has no local path).
 * A5: its GM directions DIR_C2V_GM / DIR_V2C_GM, which PTOAS picks for
 * initialize_l2g2l_pipe and for a frontend init given gm_slot_tensor (PTOToEmitC.cpp
 * getTPipeDirectionToken, PTOLowerFrontendPipeOpsPass.cpp createFrontendGlobalTensorPipe);
 * dir_mask 3 is DIR_BOTH, a local pipe, and a frontend gm_slot_buffer is not used on A5. */
static int gm_pipe(const pt_ctx *x, const ptosim_pipe_init_params *p) {
  if (!a5(x)) return x->op != PTOSIM_OP_initialize_l2l_pipe;
  int tensor = !generic(x) && p->gm_stride[PTOSIM_VIEW_DIMS - 1];
  return (x->op == PTOSIM_OP_initialize_l2g2l_pipe || tensor) && p->dir_mask != 3;
}

/* The checks of a pipe's placement. */
static ptosim_status check_path(pt_ctx *x, const ptosim_pipe_init_params *p, int gm) {
  PT_VERIFY(x, a5(x) || gm, "tile_pipe.target", "A2/A3 FIFOs live in GM: use initialize_l2g2l_pipe, or pass gm_slot_buffer",
            "a local pipe on %s", x->m->prof->name);
  PT_VERIFY(x, !gm || (p->gm_slot.addr && p->gm_slot.space == PTOSIM_GM), "tile_pipe.gm",
            a5(x) ? "pass the GM FIFO (gm_slot_tensor = %v, or the GM operand of initialize_l2g2l_pipe)"
                  : "pass the GM FIFO (gm_slot_buffer = %g : !pto.ptr<T>)",
            "a GM pipe needs its GM slot buffer");
  PT_VERIFY(x, !gm || !x->m->sched, "tile_pipe.schedule", "run without --schedule=eager",
            "the eager schedule does not run GM pipes yet");
  return PTOSIM_OK;
}

ptosim_status pt_exec_pipe_init(pt_ctx *x, const ptosim_pipe_init_params *p) {
  int gen = generic(x), by_flag = gen || p->placed;
  int64_t base = by_flag ? p->flag_base : 4 * p->id, nflags = by_flag && p->dir_mask != 3 ? 2 : 4;
  if (!by_flag) PT_TRY(check_id(x, p->id, PTOSIM_SPLIT_NONE, 0));
  PT_VERIFY(x, p->dir_mask >= 1 && p->dir_mask <= 3, "tile_pipe.dir_mask", "1 (C2V), 2 (V2C) or 3 (both)", "dir_mask %lld",
            (long long)p->dir_mask);
  PT_VERIFY(x, base >= 0 && base <= PTOSIM_TPIPE_FLAGS - nflags, "tile_pipe.flags",
            "a pipe takes flags flag_base.. (2, or 4 for dir_mask 3) of the 16 hardware flags", "flag_base %lld", (long long)base);
  int gm = gm_pipe(x, p);
  PT_TRY(check_path(x, p, gm));
  int64_t slots = p->slot_num ? p->slot_num : p->dir_mask == 3 ? 4 : 8, local = a5(x) ? slots : p->local_slot_num ? p->local_slot_num : slots;
  PT_VERIFY(x, slots >= 1 && slots <= 16 && local >= 1 && local <= 16, "tile_pipe.slot_num",
            "a FIFO has 1..16 slots (default 8, 4 for dir_mask 3), local_slot_num 1..16", "slot_num %lld, local_slot_num %lld",
            (long long)slots, (long long)local);
  /* A local FIFO's slots live in the consumer's memory. A GM FIFO's live in GM (SlotSize is
   * a u32 in pto-isa's TPipe) and its local slots are used only by tile pops (checked there,
   * pop_gm), never by GM-entry pops: TPipe's constructor only records the addresses
   * (tpushpop_subtile pops 256 KiB GM entries with a local buffer at UB 0). */
  uint64_t max_slot = gm ? UINT32_MAX : x->m->prof->capacity[PTOSIM_UB];
  PT_VERIFY(x, p->slot_size > 0 && p->slot_size % 32 == 0 && (uint64_t)p->slot_size <= max_slot, "tile_pipe.slot_size",
            gm ? "slot_size is a positive multiple of 32 bytes below 4 GiB"
               : "slot_size is a positive multiple of 32 bytes that fits the consumer memory",
            "slot_size %lld", (long long)p->slot_size);
  for (int d = 1; d <= 2; d++) {
    int64_t at = d == 1 ? p->c2v_buf : p->v2c_buf;
    ptosim_space s = d == 1 ? PTOSIM_UB : PTOSIM_L1;
    uint64_t span = gm ? 32 : (uint64_t)p->slot_size; /* the first slot; the others are checked when used (local_slot) */
    PT_VERIFY(x, !(p->dir_mask & d) || (at >= 0 && at % 32 == 0 && (uint64_t)at + span <= x->m->prof->capacity[s]),
              "tile_pipe.buffer", "reserve slot_num (A2/A3: local_slot_num) * slot_size bytes (pto.reserve_buffer) and pass its address",
              "%s consumer buffer [%lld, +%lld) is not a 32-byte aligned range of %s", d == 1 ? "c2v" : "v2c", (long long)at,
              (long long)span, pt_space_name(s));
  }
  if (p->handle) *p->handle = base;
  if (x->m->verify_only) return PTOSIM_OK;
  pt_tpipe *t = &x->core->tpipe[base];
  PT_VERIFY(x, !t->dir, "tile_pipe.reinit", "initialize each pipe once per core", "pipe %lld is already initialised",
            (long long)(gen ? base : p->id));
  for (int e = 0; e < PTOSIM_TPIPE_FLAGS; e++)
    PT_VERIFY(x, !x->core->tpipe[e].dir || e + x->core->tpipe[e].nflags <= base || base + nflags <= e, "tile_pipe.flags",
              "give the pipes of a core disjoint flag ranges (flag_base, 2 flags each, 4 for dir_mask 3)",
              "the flags %lld..%lld of this pipe overlap the pipe at flag %d", (long long)base, (long long)(base + nflags - 1), e);
  /* Counts other cores made before this core's initialize (a push ahead of it) are kept. */
  t->dir = (int32_t)p->dir_mask;
  t->slot_num = (int32_t)slots;
  t->local_slot_num = (int32_t)local;
  t->nflags = (int32_t)nflags;
  t->slot_size = (uint32_t)p->slot_size;
  t->c2v_buf = (uint32_t)p->c2v_buf;
  t->v2c_buf = (uint32_t)p->v2c_buf;
  t->gm = gm ? p->gm_slot.addr : 0;
  memcpy(t->gm_stride, p->gm_stride, sizeof t->gm_stride);
  return PTOSIM_OK;
}

/* Byte address of local slot k of direction c2v (UB for C2V, L1 for V2C); the slot must lie
 * in that memory. Checked where a slot is used, not at the initialize: PTOAS does not check
 * a reserve_buffer's size against slot_num * slot_size, and a pipe of 8 slots whose buffer
 * holds 4 at the top of UB works while it uses no slot past the end. */
static ptosim_status local_slot(pt_ctx *x, const pt_tpipe *t, int c2v, uint32_t k, uint64_t *addr) {
  ptosim_space sp = c2v ? PTOSIM_UB : PTOSIM_L1;
  *addr = (uint64_t)(c2v ? t->c2v_buf : t->v2c_buf) + (uint64_t)k * t->slot_size;
  PT_VERIFY(x, *addr + t->slot_size <= x->m->prof->capacity[sp], "tile_pipe.buffer",
            "reserve slot_num * slot_size bytes (pto.reserve_buffer) inside the consumer memory and pass its address",
            "slot %u [%llu, +%u) of the %s FIFO is not inside %s", k, (unsigned long long)*addr, t->slot_size, c2v ? "c2v" : "v2c",
            pt_space_name(sp));
  return PTOSIM_OK;
}

/* Free signals are sparse (pto-isa TPipe SyncPeriod): a consumer signals after popping
 * tile i when (i + 1) % period == 0, a producer waits before tile k >= slot_num when
 * k % period == 0. */
static uint32_t period(const pt_tpipe *t) { return t->slot_num <= 2 ? (uint32_t)t->slot_num : (uint32_t)t->slot_num / 2; }

/* The vector sub-blocks a transfer involves. A5: one without split (sub-block 0), else two.
 * A2/A3: always two, the cube's FFTS signal (CV_CORES_SYNC) reaches both and its wait ends
 * when both have signalled (pto-isa a2a3 TPush.hpp getFFTSMsgCfg, SyncAll.hpp). */
static int nsubs(const pt_ctx *x, ptosim_tile_split s) { return s == PTOSIM_SPLIT_NONE && a5(x) ? 1 : 2; }

/* The element type a C2V push writes: the epilogue's, else the acc type. */
static ptosim_dtype out_type(const ptosim_tpush_params *p) { return p->out_dtype != PTOSIM_DT_NONE ? p->out_dtype : p->tile.dtype; }

/* The FIXPIPE parameters of a C2V push's epilogue, read from the core's registers at the
 * push as pto-isa's TPUSH<..., FixpipeParams> does: the QUANT_PRE word (scalar modes), or
 * the FB tile at FPC (vector modes: FPC = (address / 128) << 8, one 8-byte word per acc
 * column). The fields are those of a tmov / tstore from an acc tile with that parameter. */
typedef struct push_fix {
  bool has_q, has_fp;
  uint64_t q;
  ptosim_tile fp;
} push_fix;

static push_fix fix_of(const pt_ctx *x, const ptosim_tpush_params *p) {
  uint64_t fb = x->core->sreg[PT_SREG_FPC] >> 8 << 7;
  return (push_fix){.has_q = p->quant == PTOSIM_PUSH_QUANT_SCALAR, .q = x->core->sreg[PT_SREG_QUANT_PRE],
                    .has_fp = p->quant == PTOSIM_PUSH_QUANT_VECTOR,
                    .fp = {.space = PTOSIM_FB, .addr = fb, .dtype = PTOSIM_DT_U64, .rows = 1, .cols = p->tile.cols, .valid_rows = 1,
                           .valid_cols = p->tile.cols, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512}};
}

/* C2V: the acc tile through the FIXPIPE path into the slot, as pto.tmov acc -> vec (A5
 * TPush pushAcc2VecFiFo: a row-major vec tile of the halved shape per sub-block; with an
 * epilogue TPush.hpp FixpipeVecTile: the whole shape in the epilogue's layout and type). */
static ptosim_status push_c2v(pt_ctx *x, const ptosim_tpush_params *p, uint64_t addr) {
  static const ptosim_acc_to_vec_mode mode[] = {PTOSIM_A2V_SINGLE_VEC0, PTOSIM_A2V_DUAL_SPLIT_M, PTOSIM_A2V_DUAL_SPLIT_N};
  static const ptosim_blayout bl[] = {PTOSIM_BL_ROW_MAJOR, PTOSIM_BL_COL_MAJOR, PTOSIM_BL_COL_MAJOR};
  static const ptosim_slayout sl[] = {PTOSIM_SL_NONE_BOX, PTOSIM_SL_NONE_BOX, PTOSIM_SL_ROW_MAJOR};
  int ud = p->split == PTOSIM_SPLIT_UP_DOWN, lr = p->split == PTOSIM_SPLIT_LEFT_RIGHT;
  push_fix f = fix_of(x, p);
  ptosim_tmov_params m = {.src = p->tile, .acc_to_vec = mode[p->split], .has_quant_scalar = f.has_q, .quant_scalar = f.q,
                          .has_fp = f.has_fp, .fp = f.fp, .relu = p->relu};
  m.dst = (ptosim_tile){.space = PTOSIM_UB, .addr = addr, .dtype = out_type(p), .rows = p->tile.rows >> ud,
                        .cols = p->tile.cols >> lr, .valid_rows = p->tile.valid_rows >> ud, .valid_cols = p->tile.valid_cols >> lr,
                        .blayout = bl[p->layout], .slayout = sl[p->layout], .fractal = 512};
  return pt_exec_tmov(x, &m);
}

/* V2C: the vec tile inserted into a mat tile of the doubled shape at row / column
 * sub_block * valid (A5 TPush pushVec2MatFiFo). The slot keeps the source's layout: an ND
 * source goes in as ND rows of the slot's width, an NZ one as NZ (TInsertVecToMatImpl picks
 * the copy by the source layout). */
static ptosim_status push_v2c(pt_ctx *x, const ptosim_tpush_params *p, uint64_t addr) {
  int ud = p->split == PTOSIM_SPLIT_UP_DOWN, lr = p->split == PTOSIM_SPLIT_LEFT_RIGHT, s = sub_of(x->core);
  ptosim_tmov_params m = {.src = p->tile, .index_row = ud ? (int64_t)s * p->tile.valid_rows : 0,
                          .index_col = lr ? (int64_t)s * p->tile.valid_cols : 0};
  m.dst = (ptosim_tile){.space = PTOSIM_L1, .addr = addr, .dtype = p->tile.dtype, .rows = p->tile.rows << ud,
                        .cols = p->tile.cols << lr, .valid_rows = p->tile.valid_rows << ud, .valid_cols = p->tile.valid_cols << lr,
                        .blayout = p->tile.blayout, .slayout = p->tile.slayout, .fractal = p->tile.fractal};
  return pt_exec_tinsert(x, &m);
}

/* ---- GM FIFOs: A2/A3's and A5's GM directions (pto-isa a2a3 and a5 TPush.hpp pushAcc2GMFiFo /
 * pushVec2GMFiFo, the same layout on both; a2a3 TPop.hpp
 * popVecTileFromGMFiFo / popMatTileFromGMFiFo): an entry holds the valid region of the
 * whole tile as row-major rows; sub-block s of a split tile has rows [s*vr, (s+1)*vr)
 * (up-down) or columns [s*vc, (s+1)*vc) of rows 2*vc wide (left-right) of it. */

/* GM byte address of slot k of direction c2v (V2C after the C2V slots when both). */
static uint64_t gm_slot(const pt_tpipe *t, int c2v, uint32_t k) {
  return t->gm + (uint64_t)(c2v || t->dir != 3 ? 0 : t->slot_num) * t->slot_size + (uint64_t)k * t->slot_size;
}

/* The part of a GM entry that tile t (the valid region of one sub-block's part) is: a
 * row-major view at entry + offset with the entry's row stride. */
static ptosim_gm_view gm_part(uint64_t entry, const ptosim_tile *t, ptosim_tile_split split, int sub) {
  int64_t vr = t->valid_rows, vc = t->valid_cols, ld = split == PTOSIM_SPLIT_LEFT_RIGHT ? 2 * vc : vc;
  int64_t first = split == PTOSIM_SPLIT_UP_DOWN ? sub * vr * vc : split == PTOSIM_SPLIT_LEFT_RIGHT ? sub * vc : 0;
  uint64_t es = pt_dtype_bits(t->dtype) / 8;
  return (ptosim_gm_view){.addr = entry + (uint64_t)first * es, .dtype = t->dtype, .shape = {1, 1, 1, vr, vc},
                          .stride = {vr * ld, vr * ld, vr * ld, ld, 1}, .layout = PTOSIM_GL_ND};
}

/* Push: the cube stores its whole acc tile (FIXPIPE), a vector sub-block its part (MTE3). */
static ptosim_status push_gm(pt_ctx *x, const ptosim_tpush_params *p, const pt_tpipe *t, uint32_t k) {
  int c2v = cube(x);
  ptosim_tile out = p->tile;
  out.dtype = c2v ? out_type(p) : out.dtype;
  push_fix f = c2v ? fix_of(x, p) : (push_fix){0};
  ptosim_tstore_params st = {.src = p->tile, .dst = gm_part(gm_slot(t, c2v, k), &out, c2v ? PTOSIM_SPLIT_NONE : p->split, sub_of(x->core)),
                             .relu = p->relu, .has_quant_scalar = f.has_q, .quant_scalar = f.q, .has_fp = f.has_fp, .fp = f.fp};
  if (!c2v) pt_set_pipe(x, PTOSIM_PIPE_MTE3);
  return pt_exec_tstore(x, &st);
}

/* Pop: the result tile goes on local slot popped % local_slot_num and is loaded (MTE2). */
static ptosim_status pop_gm(pt_ctx *x, const ptosim_tpop_params *p, const pt_tpipe *t, ptosim_tile *r) {
  int c2v = !cube(x);
  r->addr = (uint64_t)(c2v ? t->c2v_buf : t->v2c_buf) + (uint64_t)(t->popped % (uint32_t)t->local_slot_num) * t->slot_size;
  ptosim_space sp = c2v ? PTOSIM_UB : PTOSIM_L1;
  uint64_t end = r->addr + (uint64_t)r->rows * (uint64_t)r->cols * pt_dtype_bits(r->dtype) / 8;
  PT_VERIFY(x, end <= x->m->prof->capacity[sp], "tile_pipe.buffer",
            "keep local_slot_num * slot_size bytes from the consumer buffer inside the consumer memory",
            "the popped tile's local slot [%llu, %llu) is not inside %s", (unsigned long long)r->addr, (unsigned long long)end,
            pt_space_name(sp));
  ptosim_tload_params ld = {.src = gm_part(gm_slot(t, c2v, t->popped % (uint32_t)t->slot_num), r, c2v ? p->split : PTOSIM_SPLIT_NONE,
                                           sub_of(x->core)),
                            .dst = *r};
  return pt_exec_tload(x, &ld);
}

/* Past the first round, every period-th tile a producer pushes (or allocates) waits for one
 * free signal of each of its n consumers (PTOSIM_BLOCKED until they came). */
static ptosim_status wait_free(pt_ctx *x, pt_tpipe *t, int base, int n) {
  int c2v = cube(x), wait = t->pushed >= (uint32_t)t->slot_num && t->pushed % period(t) == 0;
  for (int s = 0; s < n && wait; s++)
    if (!t->freed[s]) return PTOSIM_BLOCKED;
  for (int s = 0; s < n && wait; s++) {
    t->freed[s]--;
    send_sync(x, PT_SYNC_CORE_WAIT, flag_of(t, base, c2v, 1, c2v ? s : sub_of(x->core), c2v), NULL);
  }
  return PTOSIM_OK;
}

/* The ready signal of a pushed tile to its n consumers. */
static void signal_ready(pt_ctx *x, int base, int n) {
  int c2v = cube(x);
  for (int s = 0; s < n; s++) {
    ptosim_core *peer = block_core(x, c2v ? (ptosim_core_kind)(PTOSIM_AIV0 + s) : PTOSIM_AIC);
    int sub = c2v ? s : sub_of(x->core);
    peer->tpipe[base].ready[c2v ? 0 : sub]++;
    send_sync(x, PT_SYNC_CORE_SET, flag_of(&x->core->tpipe[base], base, c2v, 0, sub, !c2v), peer);
  }
}

/* The bytes a C2V push writes into one slot: in a local (A5 UB) slot the valid rows of the
 * consumer's part at the part's row pitch (pushAcc2VecFiFo: a ConsM x ConsN vec tile of
 * valid vRows x vCols, rows halved by an up-down split, columns by a left-right one); in a
 * GM slot the valid region as rows of valid_cols (pushAcc2GMFiFo). */
static uint64_t c2v_slot_bytes(const ptosim_tpush_params *p, const pt_tpipe *t) {
  const ptosim_tile *s = &p->tile;
  uint64_t es = pt_dtype_bits(out_type(p)) / 8;
  if (t->gm) return (uint64_t)s->valid_rows * (uint64_t)s->valid_cols * es;
  if (p->layout != PTOSIM_FIXPIPE_NZ2ND) return (uint64_t)s->rows * (uint64_t)s->cols * es; /* DN / NZ: the whole tile */
  int ud = p->split == PTOSIM_SPLIT_UP_DOWN, lr = p->split == PTOSIM_SPLIT_LEFT_RIGHT;
  return (uint64_t)(s->valid_rows >> ud) * (uint64_t)(s->cols >> lr) * es;
}

ptosim_status pt_exec_tpush(pt_ctx *x, const ptosim_tpush_params *p) {
  int c2v = cube(x), n = c2v ? nsubs(x, p->split) : 1, base;
  pt_tpipe *t = NULL;
  if (x->m->verify_only) return check_id(x, p->id, p->split, generic(x) || p->placed);
  PT_TRY(pipe_of(x, p->id, p->split, p->placed, c2v ? 1 : 2, &t, &base));
  pt_set_pipe(x, c2v ? PTOSIM_PIPE_FIX : PTOSIM_PIPE_MTE3); /* the pipe that waits, moves and signals */
  if (p->gm_entry) { /* the producer wrote the entry pto.talloc gave: commit it */
    PT_VERIFY(x, t->allocated, "tile_pipe.alloc", "take the entry with pto.talloc (talloc_to_aiv / _to_aic) and write it first",
              "push of a GM entry on pipe %lld with no entry allocated", (long long)p->id);
    t->allocated--;
    signal_ready(x, base, n);
    return PTOSIM_OK;
  }
  PT_VERIFY(x, !x->m->sched || p->quant == PTOSIM_PUSH_QUANT_NONE, "tile_pipe.schedule", "run without --schedule=eager",
            "the eager schedule does not replay a quantizing push (it reads QUANT_PRE / FPC at the push)");
  if (x->m->sched && !x->ev) { /* the eager schedule runs the data move again at its start */
    uint64_t addr = (uint64_t)(c2v ? t->c2v_buf : t->v2c_buf) + (uint64_t)t->replay[t->replay_head++ % PT_TPIPE_REPLAY] * t->slot_size;
    return c2v ? push_c2v(x, p, addr) : push_v2c(x, p, addr);
  }
  PT_VERIFY(x, p->tile.space == (c2v ? PTOSIM_L0C : PTOSIM_UB), "tile_pipe.loc",
            c2v ? "the cube core pushes an acc tile" : "a vector core pushes a vec tile", "the pushed tile is in %s",
            pt_space_name(p->tile.space));
  if (!c2v && p->split == PTOSIM_SPLIT_NONE && sub_of(x->core) && a5(x))
    return pt_fail(x, PTOSIM_E_VERIFY, "tile_pipe.split", "push with split 1 or 2 from both sub-blocks, or from sub-block 0 only",
                   "an unsplit push comes from vector sub-block 0; sub-block 1 has no slot in it");
  PT_TRY(wait_free(x, t, base, n));
  uint32_t slot = t->pushed % (uint32_t)t->slot_num;
  uint64_t bytes = c2v ? c2v_slot_bytes(p, t) : (uint64_t)p->tile.rows * (uint64_t)p->tile.cols * pt_dtype_bits(p->tile.dtype) / 8;
  PT_VERIFY(x, bytes <= t->slot_size * (uint64_t)(c2v ? 1 : nsubs(x, p->split)), "tile_pipe.slot_size",
            c2v ? "make slot_size at least the bytes a consumer receives (A5: valid rows of its part x the part's columns)"
                : "make slot_size at least the tile's bytes (the whole entry before a split)",
            "a %dx%d %s tile (valid %dx%d) puts %llu bytes in a %u-byte slot", p->tile.rows, p->tile.cols,
            pt_dtype_name(p->tile.dtype), p->tile.valid_rows, p->tile.valid_cols, (unsigned long long)bytes, t->slot_size);
  uint64_t addr = 0;
  if (!t->gm) PT_TRY(local_slot(x, t, c2v, slot, &addr));
  PT_TRY(t->gm ? push_gm(x, p, t, slot) : c2v ? push_c2v(x, p, addr) : push_v2c(x, p, addr));
  if (x->m->sched) { /* issued, its data move queued: remember the slot for that run */
    PT_VERIFY(x, t->pushed - t->replay_head < PT_TPIPE_REPLAY, "tile_pipe.schedule", "run without --schedule=eager",
              "more than %d pushes of one pipe issued ahead of their data moves", PT_TPIPE_REPLAY);
    t->replay[t->pushed % PT_TPIPE_REPLAY] = (uint8_t)slot;
  }
  t->pushed++;
  signal_ready(x, base, n);
  return PTOSIM_OK;
}

/* ---- GM FIFO entries as global tensors (pto-isa a2a3 TAlloc.hpp, TPush.hpp / TPop.hpp /
 * TFree.hpp GlobalData overloads) ---- */

/* Point *e at slot k of direction c2v; the vector side of a split entry at its part:
 * + s * M * N elements (up-down) or + s * N (left-right), M x N the entry's shape
 * (getSubAIVOffset / getPopSubAIVOffset). The entry keeps the FIFO view's strides when it
 * was given as a view, and must end inside the slot. */
static ptosim_status place_entry(pt_ctx *x, const pt_tpipe *t, int c2v, uint32_t k, ptosim_tile_split split, ptosim_gm_view *e) {
  uint64_t es = pt_dtype_bits(e->dtype) / 8, m = (uint64_t)e->shape[3], n = (uint64_t)e->shape[4], part = 0, last = 0;
  if (t->gm_stride[4]) memcpy(e->stride, t->gm_stride, sizeof e->stride);
  if (!cube(x) && split != PTOSIM_SPLIT_NONE) part = (uint64_t)sub_of(x->core) * (split == PTOSIM_SPLIT_UP_DOWN ? m * n : n);
  for (int d = 0; d < 5; d++) last += (uint64_t)(e->shape[d] - 1) * (uint64_t)e->stride[d]; /* the entry's last element */
  PT_VERIFY(x, es && (part + last + 1) * es <= t->slot_size, "tile_pipe.slot_size", "make slot_size at least the entry's bytes",
            "a GM entry reaching %llu bytes into its slot does not fit a %u-byte slot", (unsigned long long)((part + last + 1) * es),
            t->slot_size);
  e->addr = gm_slot(t, c2v, k % (uint32_t)t->slot_num) + part * es;
  return PTOSIM_OK;
}

ptosim_status pt_exec_talloc(pt_ctx *x, const ptosim_talloc_params *p) {
  int c2v = cube(x), base;
  pt_tpipe *t = NULL;
  if (x->m->verify_only) return check_id(x, p->id, p->split, generic(x) || p->placed);
  PT_TRY(pipe_of(x, p->id, p->split, p->placed, c2v ? 1 : 2, &t, &base));
  pt_set_pipe(x, c2v ? PTOSIM_PIPE_FIX : PTOSIM_PIPE_MTE3);
  PT_VERIFY(x, t->gm, "tile_pipe.target",
            "GM entries are slots of a GM FIFO (initialize_l2g2l_pipe; A2/A3 gm_slot_buffer, A5 gm_slot_tensor)",
            "pto.talloc on a pipe without a GM FIFO");
  PT_VERIFY(x, p->entry, "api.args", "pass the view the entry goes to", "null entry");
  PT_TRY(wait_free(x, t, base, c2v ? nsubs(x, p->split) : 1));
  PT_TRY(place_entry(x, t, c2v, t->pushed, p->split, p->entry));
  t->pushed++;
  t->allocated++;
  return PTOSIM_OK;
}

/* The producer sub-blocks a cube-side op waits for or frees (vector side: its own). */
static int subs_of(const pt_ctx *x, ptosim_tile_split s, int *first) {
  *first = cube(x) ? 0 : sub_of(x->core);
  return cube(x) ? nsubs(x, s) : 1;
}

/* The consumer side of pipe p->id on this core (*t stays NULL in a verify-only run). Its
 * waits and signals are on the pipe that reads the slot: V (vector), MTE1 (cube); an A2/A3
 * pop loads the slot on MTE2 (and its wait stalls the whole core). */
static ptosim_status consumer_pipe(pt_ctx *x, const ptosim_tpop_params *p, pt_tpipe **t, int *base) {
  *t = NULL;
  if (x->m->verify_only) return check_id(x, p->id, p->split, generic(x) || p->placed);
  PT_TRY(pipe_of(x, p->id, p->split, p->placed, cube(x) ? 2 : 1, t, base));
  pt_set_pipe(x, (*t)->gm ? PTOSIM_PIPE_MTE2 : cube(x) ? PTOSIM_PIPE_MTE1 : PTOSIM_PIPE_V);
  PT_VERIFY(x, cube(x) || p->split != PTOSIM_SPLIT_NONE || !sub_of(x->core) || !a5(x), "tile_pipe.split",
            "pop with split 1 or 2 on both sub-blocks, or on sub-block 0 only",
            "an unsplit transfer goes to vector sub-block 0; sub-block 1 would wait forever");
  return PTOSIM_OK;
}

/* The free signal to the producer(s) at the end of a period of pops. */
static void signal_free(pt_ctx *x, const pt_tpipe *t, int base, ptosim_tile_split split) {
  int c2v = !cube(x), first, n = subs_of(x, split, &first);
  if (t->popped % period(t)) return; /* the last popped tile does not end a period */
  for (int s = 0; s < n; s++) {
    int sub = c2v ? first : s;
    ptosim_core *peer = block_core(x, c2v ? PTOSIM_AIC : (ptosim_core_kind)(PTOSIM_AIV0 + s));
    peer->tpipe[base].freed[c2v ? sub : 0]++;
    send_sync(x, PT_SYNC_CORE_SET, flag_of(t, base, c2v, 1, sub, c2v), peer);
  }
}

ptosim_status pt_exec_tpop(pt_ctx *x, const ptosim_tpop_params *p) {
  int c2v = !cube(x), first, n = subs_of(x, p->split, &first), base;
  pt_tpipe *t;
  PT_TRY(consumer_pipe(x, p, &t, &base));
  if (!t) return PTOSIM_OK;
  for (int s = 0; s < n; s++)
    if (!t->ready[c2v ? 0 : s]) return PTOSIM_BLOCKED;
  ptosim_tile *r = p->result;
  if (p->entry) {
    PT_VERIFY(x, t->gm, "tile_pipe.target", "GM entries are slots of a GM FIFO", "a GM-entry pop on a pipe without a GM FIFO");
    PT_TRY(place_entry(x, t, c2v, t->popped, p->split, p->entry));
  } else {
    PT_VERIFY(x, r, "api.args", "pass the tile the pop places", "null result tile");
    PT_VERIFY(x, r->space == (c2v ? PTOSIM_UB : PTOSIM_L1), "tile_pipe.loc",
              c2v ? "a vector core pops a vec tile" : "the cube core pops a mat tile", "the popped tile type is in %s",
              pt_space_name(r->space));
    PT_VERIFY(x, !p->has_valid || (p->valid_rows >= 0 && p->valid_rows <= r->rows && p->valid_cols >= 0 && p->valid_cols <= r->cols),
              "tile_pipe.valid", "give a valid region inside the popped tile's shape", "valid %lldx%lld for a %dx%d tile",
              (long long)p->valid_rows, (long long)p->valid_cols, r->rows, r->cols);
    if (p->has_valid) r->valid_rows = (int32_t)p->valid_rows, r->valid_cols = (int32_t)p->valid_cols;
    uint64_t bytes = (uint64_t)r->rows * (uint64_t)r->cols * pt_dtype_bits(r->dtype) / 8;
    PT_VERIFY(x, bytes <= t->slot_size, "tile_pipe.slot_size", "the popped tile type must fit one slot",
              "a %llu-byte tile does not fit a %u-byte slot", (unsigned long long)bytes, t->slot_size);
  }
  for (int s = 0; s < n; s++) {
    t->ready[c2v ? 0 : s]--;
    send_sync(x, PT_SYNC_CORE_WAIT, flag_of(t, base, c2v, 0, c2v ? first : s, !c2v), NULL);
  }
  if (t->gm && !p->entry) {
    PT_TRY(pop_gm(x, p, t, r));
    t->popped++;
    signal_free(x, t, base, p->split);
    return PTOSIM_OK;
  }
  if (r) PT_TRY(local_slot(x, t, c2v, t->popped % (uint32_t)t->slot_num, &r->addr));
  t->popped++;
  t->held++;
  return PTOSIM_OK;
}

/* A2/A3: TFREE of a tile is a no-op (the pop signalled; pto-isa a2a3 TFree.hpp); of a GM
 * entry it ends the hold and signals at the end of a period. */
ptosim_status pt_exec_tfree(pt_ctx *x, const ptosim_tpop_params *p) {
  pt_tpipe *t;
  int base;
  PT_TRY(consumer_pipe(x, p, &t, &base));
  if (!t || (t->gm && !p->entry)) return PTOSIM_OK;
  PT_VERIFY(x, t->held, "tile_pipe.free", "free a slot after popping it", "tfree with no popped slot held on pipe %lld",
            (long long)p->id);
  t->held--;
  signal_free(x, t, base, p->split);
  return PTOSIM_OK;
}

/* ---- tile_valid_rows / tile_valid_cols ------------------------------------------------------ */

ptosim_status pt_exec_tile_valid(pt_ctx *x, const ptosim_tile_valid_params *p) {
  PT_VERIFY(x, p->result, "api.args", "pass where the count goes", "null result");
  *p->result = x->op == PTOSIM_OP_tile_valid_rows ? p->src.valid_rows : p->src.valid_cols;
  return PTOSIM_OK;
}
