/* Cube-vector tile pipes: C2V pushes of acc tiles (every split: whole tile to sub-block 0,
 * rows or columns halved) against naive NZ -> ND indexing, V2C pushes into NZ mat slots,
 * slot rotation, the sparse free protocol (blocked pushes and pops), every rule, and from
 * .pto text: reserve / import addresses, a run with every checker on, a deadlock report,
 * and the race checker seeing the pop as the ordering (a read of the slot without a pop
 * races with the push); memref.alloc buffers as tiles. References are written here from
 * the layout formulas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/ops.h"
#include "ptosim/program.h"
#include "core/machine.h"

enum { FIFO = 0x1000, SLOT = 8192, L1FIFO = 0x2000 };

static ptosim_machine *g_m;
static ptosim_core *aic, *aiv[2];

static void fresh(ptosim_target t) {
  if (g_m) ptosim_machine_free(g_m);
  g_m = ptosim_machine_new(t, 1);
  aic = ptosim_core_of(g_m, 0, PTOSIM_AIC);
  aiv[0] = ptosim_core_of(g_m, 0, PTOSIM_AIV0);
  aiv[1] = ptosim_core_of(g_m, 0, PTOSIM_AIV1);
}

static const char *rule(void) {
  const ptosim_diag *d = ptosim_last_diag(g_m);
  if (getenv("PT_DEBUG")) fprintf(stderr, "  [%s] %s\n", d->rule, d->msg);
  return d->rule;
}

static ptosim_status init_all(int dir, int slots) {
  ptosim_pipe_init_params p = {.id = 1, .dir_mask = dir, .slot_size = SLOT, .slot_num = slots, .c2v_buf = FIFO, .v2c_buf = L1FIFO};
  ptosim_status st = ptosim_aic_initialize_pipe(aic, &p);
  for (int s = 0; s < 2 && st == PTOSIM_OK; s++) st = ptosim_aiv_initialize_pipe(aiv[s], &p);
  return st;
}

static ptosim_tile acc_tile(int rows, int cols, int vr, int vc) {
  return (ptosim_tile){.space = PTOSIM_L0C, .addr = 0, .dtype = PTOSIM_DT_F32, .rows = rows, .cols = cols, .valid_rows = vr,
                       .valid_cols = vc, .blayout = PTOSIM_BL_COL_MAJOR, .slayout = PTOSIM_SL_ROW_MAJOR, .fractal = 1024};
}

/* Element (i, j) of an acc tile: 16 x 16 f32 boxes, box columns outermost (NZ). */
static size_t acc_index(int rows, int i, int j) { return (size_t)(j / 16) * (size_t)rows * 16 + (size_t)i * 16 + (size_t)(j % 16); }

/* Fill the acc tile with value(i, j) = i * 1000 + j + 1 + 0.5 * tag. */
static void fill_acc(int rows, int cols, int tag) {
  static float a[64 * 128];
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) a[acc_index(rows, i, j)] = (float)(i * 1000 + j + 1) + 0.5f * (float)tag;
  ptosim_mem_write(aic, PTOSIM_L0C, 0, a, (size_t)rows * (size_t)cols * 4);
}

static void sentinel_ub(void) {
  static uint8_t s[4 * SLOT];
  memset(s, 0xA5, sizeof s);
  for (int k = 0; k < 2; k++) ptosim_mem_write(aiv[k], PTOSIM_UB, FIFO, s, sizeof s);
}

/* The UB of sub-block k at slot `slot` holds the acc rows [r0, r0 + h) x columns [c0, c0 +
 * w) of tile tag row-major with row stride `stride` (the consumer tile's cols), for the valid
 * region vh x vw of it; every other byte of the 4 slots keeps the sentinel. */
static int ub_holds(int k, int slot, int r0, int c0, int vh, int vw, int stride, int tag) {
  static uint8_t ub[4 * SLOT];
  ptosim_mem_read(aiv[k], PTOSIM_UB, FIFO, ub, sizeof ub);
  for (size_t b = 0; b < sizeof ub; b++) {
    size_t off = b - (size_t)slot * SLOT, e = off / 4;
    int in = b >= (size_t)slot * SLOT && off < (size_t)SLOT && (int)(e / (size_t)stride) < vh && (int)(e % (size_t)stride) < vw;
    if (!in && ub[b] != 0xA5) return 0;
    if (!in || b % 4) continue;
    int i = (int)(e / (size_t)stride), j = (int)(e % (size_t)stride);
    float v, want = (float)((r0 + i) * 1000 + c0 + j + 1) + 0.5f * (float)tag;
    memcpy(&v, ub + b, 4);
    if (v != want) return 0;
  }
  return 1;
}

static void test_c2v_splits(void) {
  /* split 0: the whole 32 x 64 tile (valid 30 x 48) to sub-block 0 only. */
  fresh(PTOSIM_TARGET_A5);
  CHECK(init_all(1, 4) == PTOSIM_OK);
  sentinel_ub();
  fill_acc(32, 64, 0);
  ptosim_tpush_params p = {.tile = acc_tile(32, 64, 30, 48), .id = 1, .split = PTOSIM_SPLIT_NONE};
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
  CHECK(ub_holds(0, 0, 0, 0, 30, 48, 64, 0));
  CHECK(ub_holds(1, 0, 0, 0, 0, 0, 64, 0)); /* untouched */
  /* split 1: rows halved (valid 32 x 40), split 2: columns halved (valid 16 x 64). */
  for (int split = 1; split <= 2; split++) {
    fresh(PTOSIM_TARGET_A5);
    CHECK(init_all(1, 4) == PTOSIM_OK);
    sentinel_ub();
    for (int t = 0; t < 3; t++) { /* three tiles: slots 0, 1, 2 */
      fill_acc(32, 64, t);
      p = (ptosim_tpush_params){.tile = acc_tile(32, 64, split == 1 ? 32 : 16, split == 1 ? 40 : 64), .id = 1,
                                .split = (ptosim_tile_split)split};
      CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
    }
    for (int k = 0; k < 2; k++) {
      /* the first element of slot 2 is row r0, column c0 of tile 2 */
      int r0 = split == 1 ? 16 * k : 0, c0 = split == 2 ? 32 * k : 0;
      static uint8_t ub[SLOT];
      ptosim_mem_read(aiv[k], PTOSIM_UB, FIFO + 2 * SLOT, ub, 4);
      float v;
      memcpy(&v, ub, 4);
      CHECK_MSG(v == (float)(r0 * 1000 + c0 + 1) + 1.0f, "split %d sub %d slot 2 first element %g", split, k, v);
    }
    /* Pops return the slots in order, at the slot addresses. */
    for (int t = 0; t < 3; t++)
      for (int k = 0; k < 2; k++) {
        ptosim_tile r = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = split == 1 ? 16 : 32, .cols = split == 1 ? 64 : 32};
        ptosim_tpop_params q = {.result = &r, .id = 1, .split = (ptosim_tile_split)split};
        CHECK(ptosim_tpop_from_aic(aiv[k], &q) == PTOSIM_OK && r.addr == (uint64_t)FIFO + (uint64_t)t * SLOT);
        CHECK(ptosim_tfree_from_aic(aiv[k], &q) == PTOSIM_OK);
      }
  }
  /* Whole-slot contents of one up-down push (with a valid region smaller than the tile). */
  fresh(PTOSIM_TARGET_A5);
  CHECK(init_all(1, 4) == PTOSIM_OK);
  sentinel_ub();
  fill_acc(32, 64, 3);
  p = (ptosim_tpush_params){.tile = acc_tile(32, 64, 28, 40), .id = 1, .split = PTOSIM_SPLIT_UP_DOWN};
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
  CHECK(ub_holds(0, 0, 0, 0, 14, 40, 64, 3));
  CHECK(ub_holds(1, 0, 14, 0, 14, 40, 64, 3));
  /* Left-right, whole slot: columns [0, 32) and [32, 64) of a 16 x 64 tile. */
  fresh(PTOSIM_TARGET_A5);
  CHECK(init_all(1, 4) == PTOSIM_OK);
  sentinel_ub();
  fill_acc(16, 64, 1);
  p = (ptosim_tpush_params){.tile = acc_tile(16, 64, 16, 64), .id = 1, .split = PTOSIM_SPLIT_LEFT_RIGHT};
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
  CHECK(ub_holds(0, 0, 0, 0, 16, 32, 32, 1));
  CHECK(ub_holds(1, 0, 0, 32, 16, 32, 32, 1));
}

/* A5 C2V slots hold one sub-block's part of a split tile (pto-isa a5 TPush.hpp
 * pushAcc2VecFiFo: a ConsM x ConsN vec tile per consumer slot; tpushpop_cv declares its TPipe
 * with SlotSize = VEC_M * VEC_N * sizeof(float)): a 32 x 64 f32 tile (8 KiB) split into
 * 4 KiB slots goes, each half at slot k * 4 KiB; unsplit, or into 2 KiB slots, it does not.
 * Only the valid rows are written: tpushpop_cv_nosplit's strips push a 32 x 128 acc tile of
 * valid 16 x 128 unsplit into 8 KiB slots (valid rows x the tile's columns); 17 rows do not
 * fit. A GM slot (A2/A3) receives the valid region. */
static void test_c2v_half_slots(void) {
  enum { HALF = SLOT / 2 };
  for (int split = 0; split <= 2; split++)
    for (int size = HALF / 2; size <= HALF; size += HALF / 2) {
      fresh(PTOSIM_TARGET_A5);
      ptosim_pipe_init_params ip = {.id = 1, .dir_mask = 1, .slot_size = size, .slot_num = 2, .c2v_buf = FIFO};
      CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_OK);
      for (int s = 0; s < 2; s++) CHECK(ptosim_aiv_initialize_pipe(aiv[s], &ip) == PTOSIM_OK);
      int fits = split != 0 && size == HALF;
      for (int t = 0; t < 2; t++) {
        fill_acc(32, 64, t);
        ptosim_tpush_params p = {.tile = acc_tile(32, 64, 32, 64), .id = 1, .split = (ptosim_tile_split)split};
        ptosim_status st = ptosim_tpush_to_aiv(aic, &p);
        CHECK_MSG(fits ? st == PTOSIM_OK : st == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.slot_size"),
                  "split %d slot %d tile %d: status %d", split, size, t, (int)st);
        if (!fits) break;
      }
      for (int k = 0; k < 2 && fits; k++) { /* slot 1 starts with row r0, column c0 of tile 1 */
        int r0 = split == 1 ? 16 * k : 0, c0 = split == 2 ? 32 * k : 0;
        float v;
        ptosim_mem_read(aiv[k], PTOSIM_UB, FIFO + HALF, &v, 4);
        CHECK_MSG(v == (float)(r0 * 1000 + c0 + 1) + 0.5f, "split %d sub %d: %g", split, k, v);
      }
    }
  for (int a3 = 0; a3 < 2; a3++)
    for (int vr = 16; vr <= 17; vr++) {
      fresh(a3 ? PTOSIM_TARGET_A2A3 : PTOSIM_TARGET_A5);
      static float gm[SLOT];
      ptosim_pipe_init_params ip = {.id = 1, .dir_mask = 1, .slot_size = SLOT, .slot_num = 2, .c2v_buf = FIFO};
      uint64_t g = 0;
      if (a3) CHECK(ptosim_gm_map(g_m, gm, sizeof gm, &g) == PTOSIM_OK);
      ip.gm_slot = (ptosim_ptr){g, a3 ? PTOSIM_GM : 0, PTOSIM_DT_F32};
      CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_OK);
      fill_acc(32, 128, 0);
      ptosim_tpush_params p = {.tile = acc_tile(32, 128, vr, 128), .id = 1, .split = PTOSIM_SPLIT_NONE};
      ptosim_status st = ptosim_tpush_to_aiv(aic, &p);
      CHECK_MSG(vr == 16 ? st == PTOSIM_OK : st == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.slot_size"), "a3 %d valid rows %d: %d",
                a3, vr, (int)st);
      float last = 0; /* the last valid element, (15, 127) */
      if (a3) last = gm[16 * 128 - 1];
      else ptosim_mem_read(aiv[0], PTOSIM_UB, FIFO + (16 * 128 - 1) * 4, &last, 4);
      if (vr == 16) CHECK_MSG(last == 15 * 1000 + 128.0f, "a3 %d: %g", a3, last);
    }
}

/* Flow control: 4 slots, period 2. */
static void test_flow(void) {
  fresh(PTOSIM_TARGET_A5);
  CHECK(init_all(1, 4) == PTOSIM_OK);
  fill_acc(32, 32, 0);
  ptosim_tpush_params p = {.tile = acc_tile(32, 32, 32, 32), .id = 1, .split = PTOSIM_SPLIT_UP_DOWN};
  ptosim_tile r = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 16, .cols = 32};
  ptosim_tpop_params q = {.result = &r, .id = 1, .split = PTOSIM_SPLIT_UP_DOWN};
  CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_BLOCKED); /* nothing pushed */
  for (int t = 0; t < 4; t++) CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_BLOCKED); /* tile 4 reuses slot 0 */
  for (int k = 0; k < 2; k++) CHECK(ptosim_tpop_from_aic(aiv[k], &q) == PTOSIM_OK && ptosim_tfree_from_aic(aiv[k], &q) == PTOSIM_OK);
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_BLOCKED); /* tile 0 freed, but no signal before tile 1 */
  CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_OK && ptosim_tfree_from_aic(aiv[0], &q) == PTOSIM_OK);
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_BLOCKED); /* sub-block 1 has not signalled */
  CHECK(ptosim_tpop_from_aic(aiv[1], &q) == PTOSIM_OK && ptosim_tfree_from_aic(aiv[1], &q) == PTOSIM_OK);
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);     /* tile 4 */
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);     /* tile 5: no wait (odd) */
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_BLOCKED); /* tile 6 waits for the next signal */
  /* Six tiles pushed, two popped: four ready per sub-block, then none. */
  for (int t = 2; t < 6; t++) {
    CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_OK && r.addr == (uint64_t)FIFO + (uint64_t)(t % 4) * SLOT);
    CHECK(ptosim_tfree_from_aic(aiv[0], &q) == PTOSIM_OK);
  }
  CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_BLOCKED);
}

/* V2C: each sub-block inserts its 16 x 32 ND vec half into a 32 x 32 mat slot, as ND rows
 * (row stride 32). */
static void test_v2c(void) {
  fresh(PTOSIM_TARGET_A5);
  CHECK(init_all(2, 0) == PTOSIM_OK); /* default 8 slots */
  static float v[16 * 32], l1[32 * 32];
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 16 * 32; i++) v[i] = (float)(k * 100000 + i);
    ptosim_mem_write(aiv[k], PTOSIM_UB, 0, v, sizeof v);
  }
  ptosim_tile src = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 16, .cols = 32, .valid_rows = 16, .valid_cols = 32,
                     .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  ptosim_tpush_params p = {.tile = src, .id = 1, .split = PTOSIM_SPLIT_UP_DOWN};
  ptosim_tile r = {.space = PTOSIM_L1, .dtype = PTOSIM_DT_F32, .rows = 32, .cols = 32};
  ptosim_tpop_params q = {.result = &r, .id = 1, .split = PTOSIM_SPLIT_UP_DOWN};
  CHECK_MSG(ptosim_tpush_to_aic(aiv[0], &p) == PTOSIM_OK, "%s", ptosim_last_diag(g_m)->msg);
  CHECK(ptosim_tpop_from_aiv(aic, &q) == PTOSIM_BLOCKED); /* sub-block 1's half is missing */
  CHECK(ptosim_tpush_to_aic(aiv[1], &p) == PTOSIM_OK);
  CHECK(ptosim_tpop_from_aiv(aic, &q) == PTOSIM_OK && r.addr == L1FIFO);
  ptosim_mem_read(aic, PTOSIM_L1, L1FIFO, l1, sizeof l1);
  int ok = 1;
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++) ok &= l1[i * 32 + j] == (float)((i / 16) * 100000 + (i % 16) * 32 + j);
  CHECK(ok);
  CHECK(ptosim_tfree_from_aiv(aic, &q) == PTOSIM_OK);
  CHECK(ptosim_tfree_from_aiv(aic, &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.free"));
}

static void test_rules(void) {
  fresh(PTOSIM_TARGET_A5);
  ptosim_tile r = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 16, .cols = 32};
  ptosim_tpop_params q = {.result = &r, .id = 1, .split = PTOSIM_SPLIT_UP_DOWN};
  CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.init"));
  ptosim_pipe_init_params ip = {.id = 4, .dir_mask = 1, .slot_size = SLOT, .c2v_buf = FIFO};
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.id"));
  ip.id = 0, ip.dir_mask = 4;
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.dir_mask"));
  ip.dir_mask = 1, ip.slot_size = 100;
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.slot_size"));
  ip.slot_size = SLOT, ip.slot_num = 17;
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.slot_num"));
  ip.slot_num = 0, ip.c2v_buf = (int64_t)ptosim_space_capacity(g_m, PTOSIM_UB) - SLOT + 32; /* not even the first slot fits */
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.buffer"));
  ip.c2v_buf = FIFO;
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_OK);
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.reinit"));
  CHECK(init_all(1, 2) == PTOSIM_OK);
  ptosim_tpush_params p = {.tile = acc_tile(64, 64, 64, 64), .id = 1, .split = PTOSIM_SPLIT_NONE};
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.slot_size")); /* 16 KiB > 8 KiB */
  p.tile = acc_tile(16, 16, 16, 16);
  p.tile.space = PTOSIM_L1;
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.loc"));
  p.tile = acc_tile(16, 16, 16, 16);
  p.split = (ptosim_tile_split)3;
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.split"));
  q.split = p.split = PTOSIM_SPLIT_NONE;
  CHECK(ptosim_tpop_from_aic(aiv[1], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.split"));
  CHECK(ptosim_tpush_to_aic(aiv[0], &p) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.init")); /* C2V only */
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
  q.split = PTOSIM_SPLIT_NONE, q.result = NULL;
  CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "api.args"));
  /* A2/A3 FIFOs are in GM, A5 ones local; generic pipes take disjoint flag ranges. */
  fresh(PTOSIM_TARGET_A2A3);
  CHECK(init_all(1, 2) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.gm"));
  int64_t h = -1;
  ptosim_pipe_init_params gp = {.dir_mask = 1, .slot_size = SLOT, .slot_num = 2, .c2v_buf = FIFO, .handle = &h};
  CHECK(ptosim_initialize_l2l_pipe(aic, &gp) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.target"));
  fresh(PTOSIM_TARGET_A5); /* an A5 GM direction needs its GM FIFO too */
  CHECK(ptosim_initialize_l2g2l_pipe(aic, &gp) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.gm"));
  gp.flag_base = 15;
  CHECK(ptosim_initialize_l2l_pipe(aic, &gp) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.flags"));
  gp.flag_base = 2;
  CHECK(ptosim_initialize_l2l_pipe(aic, &gp) == PTOSIM_OK && h == 2);
  gp.flag_base = 0, gp.dir_mask = 3, gp.v2c_buf = L1FIFO;
  CHECK(ptosim_initialize_l2l_pipe(aic, &gp) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.flags")); /* 0..3 */
  ptosim_tpush_params gpush = {.tile = acc_tile(16, 16, 16, 16), .id = 16};
  CHECK(ptosim_tpush(aic, &gpush) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.id"));
  gpush.id = 0;
  CHECK(ptosim_tpush(aic, &gpush) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.init"));
}

/* ---- the GM FIFO of A2/A3 ------------------------------------------------------------------ */

enum { GM_SLOTS = 4, GM_FLOATS = GM_SLOTS * SLOT / 4 };
static float g_fifo[2 * GM_FLOATS]; /* C2V slots, then the V2C slots of dir_mask 3 */

/* Every core opens the pipe at flag base 2 over g_fifo (4 GM slots, 2 local slots). */
static void gm_pipe(int dir) {
  uint64_t g;
  memset(g_fifo, 0xA5, sizeof g_fifo);
  CHECK(ptosim_gm_map(g_m, g_fifo, sizeof g_fifo, &g) == PTOSIM_OK);
  int64_t h = -1;
  ptosim_pipe_init_params ip = {.dir_mask = dir, .slot_size = SLOT, .slot_num = GM_SLOTS, .local_slot_num = 2, .flag_base = 2,
                                .c2v_buf = FIFO, .v2c_buf = L1FIFO, .gm_slot = {g, PTOSIM_GM, PTOSIM_DT_F32}, .handle = &h};
  CHECK(ptosim_initialize_l2g2l_pipe(aic, &ip) == PTOSIM_OK && h == 2);
  for (int k = 0; k < 2; k++) CHECK(ptosim_initialize_l2g2l_pipe(aiv[k], &ip) == PTOSIM_OK);
}

/* GM slot k holds the valid 30 x 48 region of acc tile tag as rows of 48; the rest of the
 * slot keeps the sentinel. */
static int gm_holds(int k, int tag) {
  const uint8_t *b = (const uint8_t *)(g_fifo + (size_t)k * SLOT / 4);
  for (int e = 0; e < SLOT / 4; e++) {
    float v;
    memcpy(&v, b + 4 * e, 4);
    int i = e / 48, j = e % 48;
    if (e < 30 * 48 ? v != (float)(i * 1000 + j + 1) + 0.5f * (float)tag : memcmp(b + 4 * e, "\xA5\xA5\xA5\xA5", 4)) return 0;
  }
  return 1;
}

/* The UB of sub-block s at local slot k holds rows [15 s, 15 s + 15) x 48 of tile tag as
 * rows of the 64-wide tile. */
static int local_holds(int s, int k, int tag) {
  static float ub[16 * 64];
  ptosim_mem_read(aiv[s], PTOSIM_UB, FIFO + (uint64_t)k * SLOT, ub, sizeof ub);
  for (int i = 0; i < 15; i++)
    for (int j = 0; j < 48; j++)
      if (ub[i * 64 + j] != (float)((15 * s + i) * 1000 + j + 1) + 0.5f * (float)tag) return 0;
  return 1;
}

static void test_gm_c2v(void) {
  fresh(PTOSIM_TARGET_A2A3);
  gm_pipe(1);
  ptosim_tpush_params p = {.tile = acc_tile(32, 64, 30, 48), .id = 2};
  for (int t = 0; t < GM_SLOTS; t++) {
    fill_acc(32, 64, t);
    CHECK_MSG(ptosim_tpush(aic, &p) == PTOSIM_OK, "%s", ptosim_last_diag(g_m)->msg);
    CHECK(gm_holds(t, t));
  }
  fill_acc(32, 64, 4);
  CHECK(ptosim_tpush(aic, &p) == PTOSIM_BLOCKED); /* slot 0 is not free yet */
  ptosim_tile r = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 16, .cols = 64, .valid_rows = 15, .valid_cols = 48,
                   .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  ptosim_tpop_params q = {.result = &r, .id = 2, .split = PTOSIM_SPLIT_UP_DOWN};
  for (int t = 0; t < 2; t++) {
    for (int s = 0; s < 2; s++) {
      CHECK_MSG(ptosim_tpop(aiv[s], &q) == PTOSIM_OK, "%s", ptosim_last_diag(g_m)->msg);
      CHECK(r.addr == FIFO + (uint64_t)t * SLOT && local_holds(s, t, t));
      CHECK(ptosim_tfree(aiv[s], &q) == PTOSIM_OK); /* a no-op: the pop signalled */
      CHECK(ptosim_tpush(aic, &p) == (t == 1 && s == 1 ? PTOSIM_OK : PTOSIM_BLOCKED)); /* the period ends at pop 2 of both */
    }
  }
  CHECK(gm_holds(0, 4) && gm_holds(1, 1));
  /* Left-right: sub-block 1 loads columns [24, 48) of rows 48 wide (tile 2 of slot 2). */
  r.valid_cols = 24, q.split = PTOSIM_SPLIT_LEFT_RIGHT;
  CHECK(ptosim_tpop(aiv[1], &q) == PTOSIM_OK && r.addr == FIFO);
  static float ub[16 * 64];
  ptosim_mem_read(aiv[1], PTOSIM_UB, FIFO, ub, sizeof ub);
  int ok = 1;
  for (int i = 0; i < 15; i++)
    for (int j = 0; j < 24; j++) ok &= ub[i * 64 + j] == (float)(i * 1000 + 24 + j + 1) + 0.5f * 2.0f;
  CHECK(ok);
  /* Sub-block 0 pops tiles 2, 3 and 4, then waits for a sixth push. */
  for (int t = 0; t < 3; t++) CHECK(ptosim_tpop(aiv[0], &q) == PTOSIM_OK);
  CHECK(ptosim_tpop(aiv[0], &q) == PTOSIM_BLOCKED);
}

/* A GM FIFO's slots live in GM: tpushpop_subtile (both targets) declares 2 slots of 256 KiB
 * (128 x 512 f32 entries) with its local buffer at UB 0, and pops GM entries only; pto-isa's
 * TPipe constructor just records the addresses. The same slots on a local (A5 UB) pipe do
 * not fit, and a tile pop whose local slot ends past UB is refused at that pop. */
static void test_gm_slot_sizes(void) {
  static float big[2 * 65536];
  for (int a3 = 0; a3 < 2; a3++) {
    fresh(a3 ? PTOSIM_TARGET_A2A3 : PTOSIM_TARGET_A5);
    uint64_t g;
    CHECK(ptosim_gm_map(g_m, big, sizeof big, &g) == PTOSIM_OK);
    int64_t h = -1;
    ptosim_pipe_init_params ip = {.dir_mask = 1, .slot_size = 65536 * 4, .slot_num = 2, .local_slot_num = 2, .c2v_buf = 0,
                                  .gm_slot = {g, PTOSIM_GM, PTOSIM_DT_F32}, .handle = &h};
    CHECK_MSG(ptosim_initialize_l2g2l_pipe(aic, &ip) == PTOSIM_OK, "a3 %d: %s", a3, ptosim_last_diag(g_m)->msg);
    if (!a3) {
      ip.flag_base = 2;
      ip.c2v_buf = 32;
      CHECK(ptosim_initialize_l2l_pipe(aic, &ip) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.buffer")); /* 32 + 256 KiB > UB */
    }
  }
  /* 32 KiB slots, local slots from UB capacity - 32 KiB: the first pop fits, the second not. */
  fresh(PTOSIM_TARGET_A2A3);
  uint64_t g;
  CHECK(ptosim_gm_map(g_m, big, sizeof big, &g) == PTOSIM_OK);
  ptosim_pipe_init_params ip = {.dir_mask = 1, .slot_size = 32768, .slot_num = 2, .local_slot_num = 2,
                                .c2v_buf = (int64_t)ptosim_space_capacity(g_m, PTOSIM_UB) - 32768,
                                .gm_slot = {g, PTOSIM_GM, PTOSIM_DT_F32}};
  CHECK(ptosim_initialize_l2g2l_pipe(aic, &ip) == PTOSIM_OK);
  for (int k = 0; k < 2; k++) CHECK(ptosim_initialize_l2g2l_pipe(aiv[k], &ip) == PTOSIM_OK);
  ptosim_tpush_params p = {.tile = acc_tile(64, 128, 64, 128), .split = PTOSIM_SPLIT_NONE};
  for (int t = 0; t < 2; t++) CHECK(ptosim_tpush(aic, &p) == PTOSIM_OK);
  ptosim_tile r = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 64, .cols = 128, .valid_rows = 64, .valid_cols = 128,
                   .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  ptosim_tpop_params q = {.result = &r, .split = PTOSIM_SPLIT_NONE};
  CHECK(ptosim_tpop(aiv[0], &q) == PTOSIM_OK);
  CHECK(ptosim_tpop(aiv[0], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.buffer"));
}

/* A5's GM directions (DIR_C2V_GM: initialize_l2g2l_pipe, or a frontend init given
 * gm_slot_tensor): the cube stores the acc tile's valid region into the GM slot as on A2/A3,
 * each sub-block of an up-down split loads its half; an unsplit transfer involves sub-block 0
 * only. dir_mask 3 (DIR_BOTH) and a frontend gm_slot_buffer stay local pipes. */
static ptosim_gm_view entry_view(int rows, int cols);
static void test_a5_gm(void) {
  fresh(PTOSIM_TARGET_A5);
  gm_pipe(1);
  CHECK(aic->tpipe[2].gm != 0);
  ptosim_tpush_params p = {.tile = acc_tile(32, 64, 30, 48), .id = 2, .split = PTOSIM_SPLIT_UP_DOWN};
  fill_acc(32, 64, 0);
  CHECK_MSG(ptosim_tpush(aic, &p) == PTOSIM_OK, "%s", ptosim_last_diag(g_m)->msg);
  CHECK(gm_holds(0, 0));
  ptosim_tile r = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 16, .cols = 64, .valid_rows = 15, .valid_cols = 48,
                   .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  ptosim_tpop_params q = {.result = &r, .id = 2, .split = PTOSIM_SPLIT_UP_DOWN};
  for (int s = 0; s < 2; s++) CHECK(ptosim_tpop(aiv[s], &q) == PTOSIM_OK && r.addr == FIFO && local_holds(s, 0, 0));
  p.split = q.split = PTOSIM_SPLIT_NONE; /* unsplit: sub-block 0 alone */
  fill_acc(32, 64, 1);
  CHECK(ptosim_tpush(aic, &p) == PTOSIM_OK && gm_holds(1, 1));
  CHECK(ptosim_tpop(aiv[1], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.split"));
  r.rows = 32, r.valid_rows = 30;
  CHECK(ptosim_tpop(aiv[0], &q) == PTOSIM_OK && r.addr == FIFO + SLOT);
  /* the frontend form: gm_slot_tensor (gm_stride given) is a GM FIFO, gm_slot_buffer is not */
  for (int tensor = 0; tensor < 2; tensor++) {
    fresh(PTOSIM_TARGET_A5);
    uint64_t g;
    CHECK(ptosim_gm_map(g_m, g_fifo, sizeof g_fifo, &g) == PTOSIM_OK);
    ptosim_pipe_init_params ip = {.dir_mask = 1, .slot_size = SLOT, .slot_num = 2, .c2v_buf = FIFO, .gm_slot = {g, PTOSIM_GM, PTOSIM_DT_F32},
                                  .gm_stride = {tensor ? 1024 : 0, tensor ? 1024 : 0, tensor ? 1024 : 0, tensor ? 32 : 0, tensor}};
    CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_OK && (aic->tpipe[0].gm == (tensor ? g : 0)));
    ptosim_gm_view e = entry_view(16, 32);
    CHECK(ptosim_talloc_to_aiv(aic, &(ptosim_talloc_params){.entry = &e}) == (tensor ? PTOSIM_OK : PTOSIM_E_VERIFY));
    CHECK(!tensor ? !strcmp(rule(), "tile_pipe.target") : e.addr == g);
  }
  fresh(PTOSIM_TARGET_A5); /* DIR_BOTH on A5 is local, whatever the GM operand */
  gm_pipe(3);
  CHECK(aic->tpipe[2].gm == 0);
}

/* V2C: each sub-block stores its 8 x 16 part (rows 8 s.. or columns 16 s..) of a 16 x 16 or
 * 8 x 32 entry into the GM slot after the 4 C2V slots (dir_mask 3); the cube loads the
 * entry into a row-major mat tile of its local ring. */
static void test_gm_v2c(void) {
  for (int split = 1; split <= 2; split++) {
    fresh(PTOSIM_TARGET_A2A3);
    gm_pipe(3);
    static float v[8 * 16], l1[16 * 32];
    for (int k = 0; k < 2; k++) {
      for (int i = 0; i < 8 * 16; i++) v[i] = (float)(k * 1000 + i);
      ptosim_mem_write(aiv[k], PTOSIM_UB, 0, v, sizeof v);
    }
    ptosim_tile src = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 8, .cols = 16, .valid_rows = 8, .valid_cols = 16,
                       .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
    ptosim_tpush_params p = {.tile = src, .id = 2, .split = (ptosim_tile_split)split};
    int rows = split == 1 ? 16 : 8, cols = split == 1 ? 16 : 32;
    ptosim_tile r = {.space = PTOSIM_L1, .dtype = PTOSIM_DT_F32, .rows = rows, .cols = cols, .valid_rows = rows, .valid_cols = cols,
                     .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
    ptosim_tpop_params q = {.result = &r, .id = 2, .split = (ptosim_tile_split)split};
    CHECK(ptosim_tpush(aiv[0], &p) == PTOSIM_OK);
    CHECK(ptosim_tpop(aic, &q) == PTOSIM_BLOCKED); /* sub-block 1's part is missing */
    CHECK(ptosim_tpush(aiv[1], &p) == PTOSIM_OK);
    const float *e = g_fifo + GM_FLOATS; /* V2C slot 0 */
    int ok = 1;
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) {
        int s = split == 1 ? i / 8 : j / 16, li = split == 1 ? i % 8 : i, lj = split == 1 ? j : j % 16;
        ok &= e[i * cols + j] == (float)(s * 1000 + li * 16 + lj);
      }
    CHECK_MSG(ok, "split %d: GM entry", split);
    CHECK_MSG(ptosim_tpop(aic, &q) == PTOSIM_OK && r.addr == L1FIFO, "%s", ptosim_last_diag(g_m)->msg);
    ptosim_mem_read(aic, PTOSIM_L1, L1FIFO, l1, (size_t)rows * (size_t)cols * 4);
    CHECK_MSG(!memcmp(l1, e, (size_t)rows * (size_t)cols * 4), "split %d: local mat tile", split);
  }
}


/* ---- .pto text ------------------------------------------------------------------------------ */

#define ACC16 "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>"
#define ACC16_AS_VEC "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define VEC8 "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* The cube pushes `pushes` zero 16 x 16 tiles split up-down; each sub-block pops `pops`
 * (tstore of row block s of the popped tile when `store`); `peek` reads the FIFO through a
 * tile placed on it without popping. */
static char *pipe_program(char *buf, size_t n, int pushes, int pops, int peek) {
  snprintf(buf, n,
           "module attributes {pto.target_arch = \"a5\"} {\n"
           "func.func @k(%%o: !pto.ptr<f32>) attributes {pto.entry} {\n"
           "  func.call @c() : () -> ()\n  func.call @v(%%o) : (!pto.ptr<f32>) -> ()\n  return\n}\n"
           "func.func private @c() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
           "  %%c0 = arith.constant 0 : i32\n  %%z = arith.constant 0 : index\n  %%one = arith.constant 1 : index\n"
           "  %%n = arith.constant %d : index\n"
           "  %%b = pto.import_reserved_buffer {name = \"f\", peer_func = @v} -> i32\n"
           "  pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %%b : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "  %%a = pto.alloc_tile : " ACC16 "\n"
           "  scf.for %%i = %%z to %%n step %%one {\n"
           "    pto.tpush_to_aiv(%%a : " ACC16 ") {split = 1}\n  }\n  return\n}\n"
           "func.func private @v(%%o: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
           "  %%c0 = arith.constant 0 : i32\n  %%z = arith.constant 0 : index\n  %%one = arith.constant 1 : index\n"
           "  %%n = arith.constant %d : index\n  %%c8 = arith.constant 8 : index\n  %%c16 = arith.constant 16 : index\n"
           "  %%b = pto.reserve_buffer {name = \"f\", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32\n"
           "  pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %%b : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "  %%vo = pto.make_tensor_view %%o, shape = [%%c8, %%c16], strides = [%%c16, %%one] : !pto.tensor_view<?x?xf32>\n"
           "  %%po = pto.partition_view %%vo, offsets = [%%z, %%z], sizes = [%%c8, %%c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x16xf32>\n"
           "  %%s = pto.get_subblock_idx\n"
           "  %%zero = arith.constant 0 : i64\n  %%isz = arith.cmpi eq, %%s, %%zero : i64\n"
           "  %%addr = arith.constant %d : i64\n"
           "  %%peek = pto.alloc_tile addr = %%addr : " VEC8 "\n"
           "  scf.if %%isz {\n"
           "  %s"
           "  }\n"
           "  scf.for %%i = %%z to %%n step %%one {\n"
           "    %%t = pto.tpop_from_aic {split = 1} -> " VEC8 "\n"
           "    pto.tfree_from_aic {split = 1}\n  }\n  return\n}\n}\n",
           pushes, pops, (int)(ptosim_space_capacity(g_m, PTOSIM_UB) - 8192),
           peek ? "  pto.tstore ins(%peek : " VEC8 ") outs(%po : !pto.partition_tensor_view<8x16xf32>)\n" : "");
  return buf;
}

static ptosim_status run_checked_on(ptosim_target tg, const char *src, int eager, int *nreports, char *first);
static unsigned g_checks; /* checkers of run_checked_on (0: the defaults) */
static ptosim_status run_checked(const char *src, int eager, int *nreports, char *first) {
  return run_checked_on(PTOSIM_TARGET_A5, src, eager, nreports, first);
}

/* Runs `src` with the monitor on target tg; returns the status, the number of reports and the first rule. */
static ptosim_status run_checked_on(ptosim_target tg, const char *src, int eager, int *nreports, char *first) {
  FILE *dump = getenv("PT_DEBUG") ? fopen("/tmp/tp_dbg.pto", "w") : NULL;
  if (dump) fputs(src, dump), fclose(dump);
  ptosim_program *p = pt_test_load(src, strlen(src));
  if (!p) return PTOSIM_E_VERIFY;
  ptosim_machine *m = ptosim_machine_new(tg, 1);
  static float out[16 * 16], fifo[2 * 1024 / 4];
  ptosim_arg a[2] = {{0}, {0}};
  ptosim_gm_map(m, out, sizeof out, &a[0].gm_addr);
  ptosim_gm_map(m, fifo, sizeof fifo, &a[1].gm_addr);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  if (eager) o.schedule = PTOSIM_SCHEDULE_EAGER;
  if (g_checks) o.checks = g_checks;
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_status st = ptosim_monitor_run(mon, p, a);
  ptosim_monitor_finish(mon);
  *nreports = ptosim_monitor_nreports(mon);
  snprintf(first, 64, "%s", st != PTOSIM_OK ? ptosim_last_diag(m)->rule : *nreports ? ptosim_monitor_report(mon, 0)->rule : "");
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

static void test_text(void) {
  fresh(PTOSIM_TARGET_A5);
  static char src[8192];
  char first[64];
  int n = 0;
  /* 20 tiles through an 8-slot FIFO: the pushes wait for frees, nothing races. */
  for (int eager = 0; eager < 2; eager++) {
    ptosim_status st = run_checked(pipe_program(src, sizeof src, 20, 20, 0), eager, &n, first);
    CHECK_MSG(st == PTOSIM_OK && n == 0, "eager %d: status %d, %d reports, first %s", eager, (int)st, n, first);
  }
  /* A machine runs the kernel again from empty pipes. */
  {
    pipe_program(src, sizeof src, 5, 5, 0);
    ptosim_program *p = pt_test_load(src, strlen(src));
    ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
    static float out[8 * 16];
    ptosim_arg a = {0};
    ptosim_gm_map(m, out, sizeof out, &a.gm_addr);
    CHECK(p && ptosim_program_run(p, m, &a) == PTOSIM_OK && ptosim_program_run(p, m, &a) == PTOSIM_OK);
    ptosim_machine_free(m);
    ptosim_program_free(p);
  }
  /* One pop too many: a deadlock report naming the waiting cores, not a hang. */
  CHECK(run_checked(pipe_program(src, sizeof src, 3, 4, 0), 0, &n, first) == PTOSIM_E_FAULT && !strcmp(first, "sync.deadlock"));
  /* Nine pushes, one pop: the ninth push waits for a free that never comes. */
  CHECK(run_checked(pipe_program(src, sizeof src, 9, 1, 0), 0, &n, first) == PTOSIM_E_FAULT && !strcmp(first, "sync.deadlock"));
  /* Reading slot 0 through another tile without popping races with the push. */
  CHECK(run_checked(pipe_program(src, sizeof src, 1, 1, 1), 0, &n, first) == PTOSIM_OK);
  CHECK_MSG(n > 0 && !strncmp(first, "race.", 5), "%d reports, first %s", n, first);
}

/* The generic ops: the cube pushes `pushes` zero 16 x 16 acc tiles through a 2-slot pipe at
 * flag base 4 (a5: l2l at UB address `fifo`; a3: l2g2l over GM %g, 2 local slots there);
 * each sub-block pops `pops` rows blocks (split 1) into a declared tile and stores them to
 * %o. store: 0 before its tfree, behind barriers (correct); 1 after its tfree (a5: the
 * slot may be refilled meanwhile); 2 before its tfree without barriers (a3: the next pop's
 * load into the same local slot races with the store). a3 == 2: a3 with the init written in
 * MLIR's generic form. */
static char *generic_program(char *buf, size_t n, int a3, int pushes, int pops, int store) {
  char init[400];
  snprintf(init, sizeof init, a3 == 2 ? "\"pto.initialize_l2g2l_pipe\"(%%g, %%b) <{dir_mask = 1 : i8, slot_size = 1024 : i32, "
                                         "slot_num = 2 : i32, local_slot_num = 2 : i32, flag_base = 4 : i32, "
                                         "operandSegmentSizes = array<i32: 1, 1, 0>}> : (!pto.ptr<f32>, i32) -> !pto.pipe"
                               : a3 ? "pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 2, local_slot_num = 2, flag_base = 4}"
                                      "(%%g : !pto.ptr<f32>, %%b : i32) -> !pto.pipe"
                                    : "pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 2, flag_base = 4}(%%b : i32) -> !pto.pipe");
  const char *bar = store == 2 ? "" : "    pto.barrier #pto.pipe<PIPE_ALL>\n";
  char st[600];
  snprintf(st, sizeof st, "%s    pto.tstore ins(%%t : " VEC8 ") outs(%%po : !pto.partition_tensor_view<8x16xf32>)\n%s", bar, bar);
  int fifo = (int)(ptosim_space_capacity(g_m, PTOSIM_UB) - 8192);
  snprintf(buf, n,
           "module attributes {pto.target_arch = \"%s\"} {\n"
           "func.func @k(%%o: !pto.ptr<f32>, %%g: !pto.ptr<f32>) attributes {pto.entry} {\n"
           "  func.call @c(%%g) : (!pto.ptr<f32>) -> ()\n  func.call @v(%%o, %%g) : (!pto.ptr<f32>, !pto.ptr<f32>) -> ()\n  return\n}\n"
           "func.func private @c(%%g: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
           "  %%z = arith.constant 0 : index\n  %%one = arith.constant 1 : index\n  %%n = arith.constant %d : index\n"
           "  %%b = arith.constant %d : i32\n  %%p = %s\n"
           "  %%a = pto.alloc_tile : " ACC16 "\n"
           "  scf.for %%i = %%z to %%n step %%one {\n"
           "    pto.tpush(%%a, %%p : " ACC16 ", !pto.pipe) {split = 1}\n  }\n  return\n}\n"
           "func.func private @v(%%o: !pto.ptr<f32>, %%g: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
           "  %%z = arith.constant 0 : index\n  %%one = arith.constant 1 : index\n  %%n = arith.constant %d : index\n"
           "  %%c8 = arith.constant 8 : index\n  %%c16 = arith.constant 16 : index\n  %%c8_i64 = arith.constant 8 : i64\n"
           "  %%b = arith.constant %d : i32\n  %%p = %s\n"
           "  %%s = pto.get_subblock_idx\n  %%r64 = arith.muli %%s, %%c8_i64 : i64\n  %%r = arith.index_cast %%r64 : i64 to index\n"
           "  %%vo = pto.make_tensor_view %%o, shape = [%%c16, %%c16], strides = [%%c16, %%one] : !pto.tensor_view<?x?xf32>\n"
           "  %%po = pto.partition_view %%vo, offsets = [%%r, %%z], sizes = [%%c8, %%c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x16xf32>\n"
           "  scf.for %%i = %%z to %%n step %%one {\n"
           "    %%t = pto.declare_tile -> " VEC8 "\n"
           "    pto.tpop(%%t, %%p : " VEC8 ", !pto.pipe) {split = 1}\n"
           "%s"
           "    pto.tfree(%%p : !pto.pipe) {split = 1}\n"
           "%s"
           "  }\n  return\n}\n}\n",
           a3 ? "a3" : "a5", pushes, fifo, init, pops, fifo, init, store != 1 ? st : "", store == 1 ? st : "");
  return buf;
}

static void test_generic_text(void) {
  g_checks = PTOSIM_CHECK_RACE | PTOSIM_CHECK_SYNC; /* the pushed acc tiles are never written (init.copied) */
  static char src[16384];
  char first[64];
  int n = 0;
  for (int a3 = 0; a3 < 3; a3++) { /* 2: a3 with the init in MLIR's generic form (src/asm/generic.c) */
    ptosim_target tg = a3 ? PTOSIM_TARGET_A2A3 : PTOSIM_TARGET_A5;
    fresh(tg); /* generic_program reads the UB capacity of g_m */
    /* 6 tiles through 2 slots: pushes wait for frees, the stores read what was pushed, nothing races. */
    ptosim_status st = run_checked_on(tg, generic_program(src, sizeof src, a3, 6, 6, 0), 0, &n, first);
    CHECK_MSG(st == PTOSIM_OK && n == 0, "a3 %d: status %d, %d reports, first %s", a3, (int)st, n, first);
    /* One pop too many, or a push whose slot is never freed: deadlock reports, not hangs. */
    CHECK_MSG(run_checked_on(tg, generic_program(src, sizeof src, a3, 3, 4, 0), 0, &n, first) == PTOSIM_E_FAULT &&
                  !strcmp(first, "sync.deadlock"), "a3 %d: %s", a3, first);
    CHECK(run_checked_on(tg, generic_program(src, sizeof src, a3, 5, 2, 0), 0, &n, first) == PTOSIM_E_FAULT && !strcmp(first, "sync.deadlock"));
    /* The mutations: a5 reads the slot after freeing it, a3 stores a local slot while the next pop loads into it. */
    CHECK(run_checked_on(tg, generic_program(src, sizeof src, a3, 6, 6, a3 ? 2 : 1), 0, &n, first) == PTOSIM_OK);
    CHECK_MSG(n > 0 && !strncmp(first, "race.", 5), "a3 %d: %d reports, first %s", a3, n, first);
  }
  g_checks = 0;
}

/* split 0 in a vector section: on A5 the section runs on sub-block 0 only (PTOAS's
 * `if (get_subblockid() == 0)` guard), unless it asks for the sub-block index itself. */
static void test_unsplit_guard(void) {
  for (int query = 0; query < 2; query++) {
    char src[4096];
    snprintf(src, sizeof src,
             "module attributes {pto.target_arch = \"a5\"} {\n"
             "func.func @k(%%o: !pto.ptr<f32>) attributes {pto.kernel} {\n"
             "  %%c0 = arith.constant 0 : i32\n  %%b = arith.constant 0 : i32\n"
             "  pto.section.cube {\n"
             "    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %%b : i32, v2c_consumer_buf = %%c0 : i32)\n"
             "    %%a = pto.alloc_tile : " ACC16 "\n    pto.tpush_to_aiv(%%a : " ACC16 ") {split = 0}\n  }\n"
             "  pto.section.vector {\n%s"
             "    pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %%b : i32, v2c_consumer_buf = %%c0 : i32)\n"
             "    %%t = pto.tpop_from_aic {split = 0} -> " ACC16_AS_VEC "\n    pto.tfree_from_aic {split = 0}\n  }\n"
             "  return\n}\n}\n",
             query ? "    %s = pto.get_subblock_idx\n" : "");
    float out[4];
    ptosim_program *p = pt_test_load(src, strlen(src));
    CHECK(p != NULL);
    if (!p) return;
    ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
    ptosim_arg a = {0};
    ptosim_gm_map(m, out, sizeof out, &a.gm_addr);
    ptosim_status st = ptosim_program_run(p, m, &a);
    CHECK_MSG(query ? st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m)->rule, "tile_pipe.split") : st == PTOSIM_OK, "query %d: %d %s",
              query, (int)st, ptosim_last_diag(m)->rule);
    ptosim_machine_free(m);
    ptosim_program_free(p);
  }
}

/* Runs text program src on a fresh A5 machine with buffer buf (n bytes) as its one pointer
 * parameter; returns the status (PTOSIM_E_VERIFY when it does not load). */
static ptosim_status run_text(const char *src, void *buf, size_t n) {
  ptosim_program *p = pt_test_load(src, strlen(src));
  if (!p) return PTOSIM_E_VERIFY;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_arg a = {0};
  ptosim_gm_map(m, buf, n, &a.gm_addr);
  ptosim_status st = ptosim_program_run(p, m, &a);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

/* reserve_buffer addresses: auto ones from the top of the space down in module order, an
 * explicit base as given; import finds the peer's; errors. */
static void test_reserve(void) {
  const char *src =
      "module attributes {pto.target_arch = \"a5\"} {\n"
      "func.func @k(%o: !pto.ptr<i32>) attributes {pto.entry} {\n"
      "  %a = pto.reserve_buffer {name = \"a\", size = 1000, location = #pto.address_space<vec>, auto = true} -> i32\n"
      "  %b = pto.reserve_buffer {name = \"b\", size = 4096, location = #pto.address_space<vec>, auto = false, base = 8192} -> i32\n"
      "  %c = pto.import_reserved_buffer {name = \"c\", peer_func = @p} -> i32\n"
      "  %z = arith.constant 0 : index\n  %i1 = arith.constant 1 : index\n  %i2 = arith.constant 2 : index\n"
      "  pto.store %a, %o[%z] : !pto.ptr<i32>, i32\n  pto.store %b, %o[%i1] : !pto.ptr<i32>, i32\n"
      "  pto.store %c, %o[%i2] : !pto.ptr<i32>, i32\n  return\n}\n"
      "func.func private @p() {\n"
      "  %c = pto.reserve_buffer {name = \"c\", size = 64, location = <vec>, auto = true} -> i32\n  return\n}\n}\n"; /* PTOAS's printed form */
  int32_t out[3] = {0};
  CHECK(run_text(src, out, sizeof out) == PTOSIM_OK);
  fresh(PTOSIM_TARGET_A5);
  int64_t cap = (int64_t)ptosim_space_capacity(g_m, PTOSIM_UB), top_a = (cap - 1000) / 32 * 32;
  CHECK_MSG(out[0] == top_a && out[1] == 8192 && out[2] == (top_a - 64) / 32 * 32, "%d %d %d", out[0], out[1], out[2]);
  /* A file of two modules (PTOAS lit's split-file inputs): the import finds the @p of its own
   * module, whose auto reserve is planned from the top of the space as if alone. */
  const char *two =
      "module attributes {pto.target_arch = \"a5\"} {\nfunc.func private @p() {\n"
      "  %z = pto.reserve_buffer {name = \"c\", size = 4096, location = <vec>, auto = true} -> i32\n  return\n}\n}\n"
      "module attributes {pto.target_arch = \"a5\"} {\n"
      "func.func @k(%o: !pto.ptr<i32>) attributes {pto.entry} {\n"
      "  %c = pto.import_reserved_buffer {name = \"c\", peer_func = @p} -> i32\n"
      "  %z = arith.constant 0 : index\n  pto.store %c, %o[%z] : !pto.ptr<i32>, i32\n  return\n}\n"
      "func.func private @p() {\n"
      "  %c = pto.reserve_buffer {name = \"c\", size = 64, location = <vec>, auto = true} -> i32\n  return\n}\n}\n";
  CHECK(run_text(two, out, sizeof out) == PTOSIM_OK);
  /* a file of several modules takes the target they all name (src/exec/lower.c file_target): a5 */
  CHECK_MSG(out[0] == (cap - 64) / 32 * 32, "%d", out[0]);
  static const char *const bad[] = {
      "  %c = pto.import_reserved_buffer {name = \"x\", peer_func = @k} -> i32\n",
      "  %c = pto.reserve_buffer {name = \"x\", size = 64, location = #pto.address_space<vec>, auto = true, base = 0} -> i32\n",
      "  %c = pto.reserve_buffer {name = \"x\", size = 64, location = #pto.address_space<acc>, auto = true} -> i32\n",
      "  %c = pto.reserve_buffer {name = \"x\", size = 64, location = <acc>, auto = true} -> i32\n"};
  for (int i = 0; i < 4; i++) {
    char text[512];
    snprintf(text, sizeof text, "func.func @k() attributes {pto.kernel} {\n%s  return\n}\n", bad[i]);
    CHECK_MSG(!pt_test_load(text, strlen(text)), "bad reserve %d accepted", i);
  }
}

/* memref.alloc of a local buffer is a row-major tile: o = a + a with a filled by texpands. */
static void test_memref_alloc(void) {
  const char *src =
      "module attributes {pto.target_arch = \"a5\"} {\n"
      "func.func @k(%o: !pto.ptr<f16>) attributes {pto.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n"
      "  %c48 = arith.constant 48 : index\n  %x = arith.constant 1.25 : f16\n"
      "  %a = memref.alloc() : memref<8x48xf16, #pto.address_space<vec>>\n"
      "  %b = memref.alloc() : memref<8x48xf16, #pto.address_space<vec>>\n"
      "  pto.texpands ins(%x : f16) outs(%a : memref<8x48xf16, #pto.address_space<vec>>)\n"
      "  pto.tadd ins(%a, %a : memref<8x48xf16, #pto.address_space<vec>>, memref<8x48xf16, #pto.address_space<vec>>) outs(%b : memref<8x48xf16, #pto.address_space<vec>>)\n"
      "  %v = pto.make_tensor_view %o, shape = [%c8, %c48], strides = [%c48, %c1] : !pto.tensor_view<?x?xf16>\n"
      "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c8, %c48] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<8x48xf16>\n"
      "  pto.barrier #pto.pipe<PIPE_ALL>\n"
      "  pto.tstore ins(%b : memref<8x48xf16, #pto.address_space<vec>>) outs(%p : !pto.partition_tensor_view<8x48xf16>)\n"
      "  return\n}\n}\n";
  uint16_t out[8 * 48];
  memset(out, 0, sizeof out);
  CHECK(run_text(src, out, sizeof out) == PTOSIM_OK);
  int ok = 1;
  for (int i = 0; i < 8 * 48; i++) ok &= out[i] == 0x4100; /* 2.5 in f16: exponent 16, fraction 0x100 */
  CHECK(ok);
  const char *bad = "func.func @k() attributes {pto.kernel} {\n  %a = memref.alloc() : memref<8x?xf16, #pto.address_space<vec>>\n  return\n}\n";
  CHECK(!pt_test_load(bad, strlen(bad)));
}

/* tile_valid_rows / _cols: the run-time valid region of a tile of dynamic valid shape. */
#define DYN "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
static void test_valid_queries(void) {
  for (int r = 1; r <= 8; r += 7) {
    char src[2048];
    snprintf(src, sizeof src,
             "func.func @k(%%o: !pto.ptr<i64>) attributes {pto.kernel} {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
             "  %%r = arith.constant %d : index\n  %%c = arith.constant %d : index\n"
             "  %%t = pto.alloc_tile valid_row = %%r valid_col = %%c : " DYN "\n"
             "  %%n = pto.tile_valid_rows %%t : " DYN " -> index\n  %%m = pto.tile_valid_cols %%t : " DYN " -> index\n"
             "  %%ni = arith.index_cast %%n : index to i64\n  %%mi = arith.index_cast %%m : index to i64\n"
             "  pto.store %%ni, %%o[%%c0] : !pto.ptr<i64>, i64\n  pto.store %%mi, %%o[%%c1] : !pto.ptr<i64>, i64\n  return\n}\n",
             r, 17 - 2 * r);
    int64_t out[2] = {0, 0};
    CHECK(run_text(src, out, sizeof out) == PTOSIM_OK && out[0] == r && out[1] == 17 - 2 * r);
  }
  fresh(PTOSIM_TARGET_A2A3);
  int64_t n = 0;
  ptosim_tile_valid_params q = {.src = acc_tile(32, 48, 7, 40), .result = &n};
  CHECK(ptosim_tile_valid_rows(aic, &q) == PTOSIM_OK && n == 7);
  CHECK(ptosim_tile_valid_cols(aic, &q) == PTOSIM_OK && n == 40);
}

/* ---- GM FIFO entries as global tensors (pto.talloc) ------------------------------------------ */

static ptosim_gm_view entry_view(int rows, int cols) {
  return (ptosim_gm_view){.dtype = PTOSIM_DT_F32, .shape = {1, 1, 1, rows, cols},
                          .stride = {(int64_t)rows * cols, (int64_t)rows * cols, (int64_t)rows * cols, cols, 1}, .layout = PTOSIM_GL_ND};
}

/* dir_mask 3 over 4 GM slots (flag base 2): the cube allocates C2V slot k = pushed % 4 as a
 * whole-slot entry and, past the first round, waits for the period's free of both vector
 * cores; they pop at their part of a split entry (up-down + s * M * N, left-right + s * N
 * elements) and free at the end of each period (2 tiles). V2C entries follow the 4 C2V
 * slots; a sub-block allocates its part, the cube pops the whole entry. */
static void test_gm_entries(void) {
  fresh(PTOSIM_TARGET_A2A3);
  gm_pipe(3);
  uint64_t gm = aic->tpipe[2].gm;
  ptosim_gm_view e = entry_view(16, 32), half = entry_view(8, 32), cols = entry_view(16, 16);
  ptosim_talloc_params a = {.entry = &e, .id = 2};
  ptosim_tpush_params push = {.id = 2, .gm_entry = 1};
  CHECK(ptosim_tpush(aic, &push) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.alloc")); /* nothing allocated */
  for (int t = 0; t < GM_SLOTS; t++) {
    CHECK(ptosim_talloc(aic, &a) == PTOSIM_OK && e.addr == gm + (uint64_t)t * SLOT);
    CHECK(ptosim_tpush(aic, &push) == PTOSIM_OK);
  }
  CHECK(ptosim_talloc(aic, &a) == PTOSIM_BLOCKED); /* slot 0 is not free yet */
  ptosim_tpop_params q = {.entry = &half, .id = 2, .split = PTOSIM_SPLIT_UP_DOWN};
  for (int t = 0; t < 2; t++)
    for (int s = 0; s < 2; s++) {
      CHECK(ptosim_tpop(aiv[s], &q) == PTOSIM_OK && half.addr == gm + (uint64_t)t * SLOT + (uint64_t)s * 8 * 32 * 4);
      CHECK(ptosim_talloc(aic, &a) == PTOSIM_BLOCKED); /* popped, not freed */
      CHECK(ptosim_tfree(aiv[s], &q) == PTOSIM_OK);
      CHECK(ptosim_talloc(aic, &a) == (t == 1 && s == 1 ? PTOSIM_OK : PTOSIM_BLOCKED)); /* the period ends at free 2 of both */
    }
  CHECK(e.addr == gm); /* slot 0 again */
  CHECK(ptosim_tfree(aiv[0], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.free")); /* nothing held */
  q.entry = &cols, q.split = PTOSIM_SPLIT_LEFT_RIGHT;
  CHECK(ptosim_tpop(aiv[1], &q) == PTOSIM_OK && cols.addr == gm + 2 * SLOT + 16 * 4);
  /* V2C: sub-block s allocates its up-down part of the entry after the C2V slots. */
  for (int s = 0; s < 2; s++) {
    ptosim_talloc_params va = {.entry = &half, .id = 2, .split = PTOSIM_SPLIT_UP_DOWN};
    CHECK(ptosim_talloc(aiv[s], &va) == PTOSIM_OK && half.addr == gm + (uint64_t)GM_SLOTS * SLOT + (uint64_t)s * 8 * 32 * 4);
    CHECK(ptosim_tpop(aic, &(ptosim_tpop_params){.entry = &e, .id = 2, .split = PTOSIM_SPLIT_UP_DOWN}) == PTOSIM_BLOCKED);
    CHECK(ptosim_tpush(aiv[s], &(ptosim_tpush_params){.id = 2, .split = PTOSIM_SPLIT_UP_DOWN, .gm_entry = 1}) == PTOSIM_OK);
  }
  CHECK(ptosim_tpop(aic, &(ptosim_tpop_params){.entry = &e, .id = 2, .split = PTOSIM_SPLIT_UP_DOWN}) == PTOSIM_OK &&
        e.addr == gm + (uint64_t)GM_SLOTS * SLOT);
  ptosim_gm_view big = entry_view(64, 64); /* 16 KiB does not fit an 8 KiB slot */
  a.entry = &big;
  CHECK(ptosim_talloc(aic, &a) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.slot_size"));
  /* A FIFO given as a view (2 x 16 x 32 f32 planes, strides 1024, 32, 1 per slot): entries
   * keep its strides; sub-block 1's up-down half of a 2 x 8 x 32 entry starts at row 8. */
  fresh(PTOSIM_TARGET_A2A3);
  uint64_t g;
  CHECK(ptosim_gm_map(g_m, g_fifo, sizeof g_fifo, &g) == PTOSIM_OK);
  ptosim_pipe_init_params ip = {.id = 0, .dir_mask = 1, .slot_size = SLOT, .slot_num = 2, .c2v_buf = FIFO, .v2c_buf = L1FIFO,
                                .gm_slot = {g, PTOSIM_GM, PTOSIM_DT_F32}, .gm_stride = {2048, 2048, 1024, 32, 1}};
  CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_OK && ptosim_aiv_initialize_pipe(aiv[1], &ip) == PTOSIM_OK &&
        ptosim_aiv_initialize_pipe(aiv[0], &ip) == PTOSIM_OK);
  ptosim_gm_view whole = {.dtype = PTOSIM_DT_F32, .shape = {1, 1, 2, 16, 32}}, part = {.dtype = PTOSIM_DT_F32, .shape = {1, 1, 2, 8, 32}};
  CHECK(ptosim_talloc_to_aiv(aic, &(ptosim_talloc_params){.entry = &whole}) == PTOSIM_OK && whole.addr == g && whole.stride[2] == 1024);
  CHECK(ptosim_tpush_to_aiv(aic, &(ptosim_tpush_params){.gm_entry = 1}) == PTOSIM_OK);
  CHECK(ptosim_tpop_from_aic(aiv[1], &(ptosim_tpop_params){.entry = &part, .split = PTOSIM_SPLIT_UP_DOWN}) == PTOSIM_OK &&
        part.addr == g + 8 * 32 * 4 && part.stride[2] == 1024 && part.stride[3] == 32 && part.stride[4] == 1);
  ptosim_gm_view deep = {.dtype = PTOSIM_DT_F32, .shape = {1, 1, 9, 16, 32}}; /* 9 planes of 4 KiB: past the 8 KiB slot */
  CHECK(ptosim_talloc_to_aiv(aic, &(ptosim_talloc_params){.entry = &deep}) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.slot_size"));
  /* The frontend forms on a pipe without a GM FIFO (A5): tile_pipe.target. */
  fresh(PTOSIM_TARGET_A5);
  CHECK(init_all(3, 4) == PTOSIM_OK);
  ptosim_talloc_params fa = {.entry = &e, .id = 1};
  CHECK(ptosim_talloc_to_aiv(aic, &fa) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.target"));
  CHECK(ptosim_talloc_to_aic(aiv[0], &fa) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.target"));
}

#define VT8 "!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=4, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define MT8 "!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16, v_row=8, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>"

/* A V2C GM-entry kernel of `rounds` rounds on 2 slots of 512 bytes: sub-block s loads rows
 * [4 s, 4 s + 4) of in[r] (8 x 16 f32), allocates its half of the entry, stores them and
 * pushes; the cube pops the whole 8 x 16 entry, loads it and frees it. generic: the
 * pto.initialize_l2g2l_pipe / declare_global / talloc / tpush / tpop / tfree forms, else the
 * frontend ones (flags order each sub-block's load, store and next load of its UB tile). late_free: the cube frees before its load (the load then races with the
 * producer's reuse of the slot); no_free: it never frees. */
static void entry_kernel(char *buf, size_t n, int rounds, int generic, int late_free, int no_free) {
  const char *init_f = "    pto.%s_initialize_pipe {id = 0, dir_mask = 2, slot_size = 512, slot_num = 2}\n"
                       "      (gm_slot_buffer = %%fifo : !pto.ptr<f32, gm>, c2v_consumer_buf = %%z : i32, v2c_consumer_buf = %%z : i32)\n";
  const char *init_g = "    %%p = pto.initialize_l2g2l_pipe {dir_mask = 2, slot_size = 512, slot_num = 2, local_slot_num = 2, flag_base = 0}"
                       "(%%fifo, %%z : !pto.ptr<f32, gm>, i32) -> !pto.pipe\n";
  char cinit[512], vinit[512];
  snprintf(cinit, sizeof cinit, generic ? init_g : init_f, "aic");
  snprintf(vinit, sizeof vinit, generic ? init_g : init_f, "aiv");
  const char *alloc = generic ? "      %e = pto.declare_global -> !pto.tensor_view<4x16xf32>\n"
                                "      pto.talloc(%e, %p : !pto.tensor_view<4x16xf32>, !pto.pipe) {split = 1}\n"
                              : "      %e = pto.talloc_to_aic {id = 0, split = 1} -> !pto.tensor_view<4x16xf32>\n";
  const char *push = generic ? "      pto.tpush(%e, %p : !pto.tensor_view<4x16xf32>, !pto.pipe) {split = 1}\n"
                             : "      pto.tpush_to_aic(%e : !pto.tensor_view<4x16xf32>) {id = 0, split = 1}\n";
  const char *pop = generic ? "      %e = pto.declare_global -> !pto.tensor_view<8x16xf32>\n"
                              "      pto.tpop(%e, %p : !pto.tensor_view<8x16xf32>, !pto.pipe) {split = 1}\n"
                            : "      %e = pto.tpop_from_aiv {id = 0, split = 1} -> !pto.tensor_view<8x16xf32>\n";
  const char *freeop = no_free ? "" : generic ? "      pto.tfree(%e, %p : !pto.tensor_view<8x16xf32>, !pto.pipe) {split = 1}\n"
                                              : "      pto.tfree_from_aiv(%e : !pto.tensor_view<8x16xf32>) {id = 0, split = 1}\n";
  const char *load = "      %ep = pto.partition_view %e, offsets = [%c0, %c0], sizes = [%c8, %c16] : !pto.tensor_view<8x16xf32> -> !pto.partition_tensor_view<8x16xf32>\n"
                     "      pto.tload ins(%ep : !pto.partition_tensor_view<8x16xf32>) outs(%m : " MT8 ")\n";
  snprintf(buf, n,
           "module attributes {pto.target_arch = \"a2a3\"} {\n"
           "func.func @k(%%in: !pto.ptr<f32, gm>, %%fifo: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
           "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n  %%c4 = arith.constant 4 : index\n"
           "  %%c8 = arith.constant 8 : index\n  %%c16 = arith.constant 16 : index\n  %%c64 = arith.constant 64 : index\n"
           "  %%c128 = arith.constant 128 : index\n  %%rounds = arith.constant %d : index\n  %%z = arith.constant 0 : i32\n"
           "  pto.section.vector {\n%s"
           "    %%t = pto.alloc_tile addr = %%c0 : " VT8 "\n"
           "    %%sb = pto.get_subblock_idx\n    %%sbi = arith.index_cast %%sb : i64 to index\n    %%half = arith.muli %%sbi, %%c64 : index\n"
           "    scf.for %%r = %%c0 to %%rounds step %%c1 {\n"
           "      %%o0 = arith.muli %%r, %%c128 : index\n      %%o = arith.addi %%o0, %%half : index\n"
           "      %%src = pto.addptr %%in, %%o : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>\n"
           "      %%sv = pto.make_tensor_view %%src, shape = [%%c4, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<4x16xf32>\n"
           "      %%sp = pto.partition_view %%sv, offsets = [%%c0, %%c0], sizes = [%%c4, %%c16] : !pto.tensor_view<4x16xf32> -> !pto.partition_tensor_view<4x16xf32>\n"
           "      pto.tload ins(%%sp : !pto.partition_tensor_view<4x16xf32>) outs(%%t : " VT8 ")\n"
           "      pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n      pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n%s"
           "      %%ep = pto.partition_view %%e, offsets = [%%c0, %%c0], sizes = [%%c4, %%c16] : !pto.tensor_view<4x16xf32> -> !pto.partition_tensor_view<4x16xf32>\n"
           "      pto.tstore ins(%%t : " VT8 ") outs(%%ep : !pto.partition_tensor_view<4x16xf32>)\n"
           "      pto.set_flag[\"PIPE_MTE3\", \"PIPE_MTE2\", \"EVENT_ID0\"]\n      pto.wait_flag[\"PIPE_MTE3\", \"PIPE_MTE2\", \"EVENT_ID0\"]\n%s"
           "    }\n  }\n"
           "  pto.section.cube {\n%s"
           "    %%m = pto.alloc_tile addr = %%c0 : " MT8 "\n"
           "    scf.for %%r = %%c0 to %%rounds step %%c1 {\n%s%s%s%s    }\n  }\n  return\n}\n}\n",
           rounds, vinit, alloc, push, cinit, pop, late_free ? freeop : load, late_free ? load : freeop, "");
}

/* Runs an entry kernel on a fresh A2/A3 machine with every checker: status, reports, first rule. */
static ptosim_status run_entry(const char *src, float *in, size_t nin, float *fifo, size_t nfifo, int *nrep, char *first) {
  if (getenv("PT_DEBUG")) { FILE *f = fopen("/tmp/t17d/entry.pto", "w"); fputs(src, f); fclose(f); }
  ptosim_program *p = pt_test_load(src, strlen(src));
  if (!p) return PTOSIM_E_VERIFY;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_arg a[2] = {{0}, {0}};
  ptosim_gm_map(m, in, nin * 4, &a[0].gm_addr);
  ptosim_gm_map(m, fifo, nfifo * 4, &a[1].gm_addr);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_status st = ptosim_monitor_run(mon, p, a);
  ptosim_monitor_finish(mon);
  *nrep = ptosim_monitor_nreports(mon);
  snprintf(first, 64, "%s", st != PTOSIM_OK ? ptosim_last_diag(m)->rule : *nrep ? ptosim_monitor_report(mon, 0)->rule : "");
  if (getenv("PT_DEBUG") && *nrep) fprintf(stderr, "%s\n", ptosim_monitor_report(mon, 0)->msg);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

/* Both forms: after R rounds slot k holds round max{r < R : r % 2 == k} (the two halves the
 * sub-blocks stored at their parts), no finding; the free before the load is a race; no
 * free at all, a deadlock (the third allocation waits forever). */
static void test_entry_text(void) {
  static char src[16384];
  static float in[8 * 128], fifo[2 * 128];
  for (int i = 0; i < 8 * 128; i++) in[i] = (float)i * 0.5f + 1.0f;
  for (int generic = 0; generic < 2; generic++)
    for (int rounds = 1; rounds <= 5; rounds += 2) {
      char first[64];
      int nrep;
      for (int i = 0; i < 2 * 128; i++) fifo[i] = -7.0f;
      entry_kernel(src, sizeof src, rounds, generic, 0, 0);
      ptosim_status st = run_entry(src, in, 8 * 128, fifo, 2 * 128, &nrep, first);
      CHECK_MSG(st == PTOSIM_OK && nrep == 0, "generic %d rounds %d: status %d, %d reports (%s)", generic, rounds, (int)st, nrep, first);
      int bad = 0;
      for (int k = 0; k < 2; k++) {
        int r = k < rounds ? rounds - 1 - ((rounds - 1 - k) % 2) : -1; /* the last round of slot k */
        for (int j = 0; j < 128; j++) bad += fifo[k * 128 + j] != (r < 0 ? -7.0f : in[r * 128 + j]);
      }
      CHECK_MSG(!bad, "generic %d rounds %d: %d wrong FIFO floats", generic, rounds, bad);
      entry_kernel(src, sizeof src, 5, generic, 1, 0);
      st = run_entry(src, in, 8 * 128, fifo, 2 * 128, &nrep, first);
      CHECK_MSG(st == PTOSIM_OK && nrep > 0 && !strncmp(first, "race.", 5), "late free: status %d, %d reports (%s)", (int)st, nrep, first);
      entry_kernel(src, sizeof src, 5, generic, 0, 1);
      st = run_entry(src, in, 8 * 128, fifo, 2 * 128, &nrep, first);
      CHECK_MSG(st == PTOSIM_E_FAULT && !strcmp(first, "sync.deadlock"), "no free: status %d (%s)", (int)st, first);
    }
}

/* A local FIFO of 8 slots whose buffer holds only 2 at the top of UB (PTOAS does not check a
 * reserve's size against the pipe; fixpipe_frontend_no_convert_f32_a5.pto): the slots inside
 * UB work, the push into slot 2 (past the end) is tile_pipe.buffer; likewise a pop there. */
static void test_short_buffer(void) {
  for (int pop = 0; pop < 2; pop++) {
    fresh(PTOSIM_TARGET_A5);
    ptosim_pipe_init_params ip = {.id = 1, .dir_mask = 1, .slot_size = SLOT,
                                  .c2v_buf = (int64_t)ptosim_space_capacity(g_m, PTOSIM_UB) - 2 * SLOT};
    CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_OK && ptosim_aiv_initialize_pipe(aiv[0], &ip) == PTOSIM_OK);
    ptosim_tpush_params p = {.tile = acc_tile(16, 16, 16, 16), .id = 1};
    ptosim_tile got = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 16, .cols = 16};
    ptosim_tpop_params q = {.id = 1, .result = &got};
    for (int k = 0; k < 2; k++) {
      CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
      CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_OK && got.addr == (uint64_t)ip.c2v_buf + (uint64_t)k * SLOT);
    }
    if (pop) { /* a pipe whose cube side has a buffer that fits: only the vector's pop of slot 2 is refused */
      fresh(PTOSIM_TARGET_A5);
      CHECK(ptosim_aiv_initialize_pipe(aiv[0], &ip) == PTOSIM_OK);
      ip.c2v_buf = FIFO;
      CHECK(ptosim_aic_initialize_pipe(aic, &ip) == PTOSIM_OK);
      for (int k = 0; k < 2; k++)
        CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK && ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_OK);
      CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
      CHECK(ptosim_tpop_from_aic(aiv[0], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.buffer"));
    } else {
      CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.buffer"));
    }
  }
}

/* acc_push_epilogue of a frontend init: every PTOAS layout / quant / relu loads on A5 (the
 * push computes them: tests/test_push_epilogue.c); refused: a malformed one (bind.attr), an
 * A5-only mode elsewhere (tile_pipe.epilogue, as PTOAS), a DN / NZ layout into a GM FIFO
 * (op.unsupported), a split push through an epilogue (tile_pipe.split, as PTOAS). */
static void test_epilogue(void) {
  static const struct {
    const char *arch, *epi, *split, *rule; /* rule NULL: loads */
  } cases[] = {
      {"a5", "layout = nz2nd, quant = no_convert, relu = no_relu", "0", NULL},
      {"a5", "layout = nz2nd, quant = f32_f16, relu = no_relu", "0", NULL},
      {"a5", "layout = nz2dn, quant = no_convert, relu = no_relu", "0", NULL},
      {"a5", "layout = nz2nz, quant = f32_bf16, relu = normal_relu", "0", NULL},
      {"a5", "layout = nz2nd, quant = qf322fp8_pre_scalar, relu = no_relu", "0", NULL},
      {"a5", "layout = nz2nd, quant = deqf16_vec, relu = no_relu", "0", NULL},
      {"a5", "layout = nz2nd, quant = no_convert, relu = leaky_relu", "0", "bind.attr"},
      {"a5", "layout = nd2nz, quant = no_convert, relu = no_relu", "0", "bind.attr"},
      {"a5", "layout = nz2nd, quant = no_convert, relu = no_relu", "1", "tile_pipe.split"},
      {"a3", "layout = nz2nd, quant = qs322bf16_pre_vec, relu = no_relu", "0", "tile_pipe.epilogue"},
      {"a3", "layout = nz2nd, quant = qf322hif8_pre_scalar, relu = no_relu", "0", "tile_pipe.epilogue"},
      {"a3", "layout = nz2dn, quant = deqf16_scalar, relu = no_relu", "0", "op.unsupported"},
      {"a3", "layout = nz2nd, quant = deqf16_scalar, relu = normal_relu", "0", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char src[2048];
    snprintf(src, sizeof src,
             "module attributes {pto.target_arch = \"%s\"} {\n"
             "func.func @k(%%g: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n  %%z = arith.constant 0 : i32\n"
             "  pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, nosplit = true,\n"
             "    acc_push_epilogue = #pto.acc_push_epilogue<%s>}\n"
             "    (gm_slot_buffer = %%g : !pto.ptr<f32>, c2v_consumer_buf = %%z : i32, v2c_consumer_buf = %%z : i32)\n"
             "  %%a = pto.alloc_tile : " ACC16 "\n"
             "  pto.tpush_to_aiv(%%a : " ACC16 ") {id = 0, split = %s}\n  return\n}\n}\n",
             cases[i].arch, cases[i].epi, cases[i].split);
    FILE *diag = tmpfile();
    int nerr = 0;
    ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, -1, diag, &nerr);
    char text[2048] = "", want[80] = "";
    rewind(diag);
    text[fread(text, 1, sizeof text - 1, diag)] = 0;
    fclose(diag);
    if (cases[i].rule) snprintf(want, sizeof want, "[%s]", cases[i].rule);
    CHECK_MSG(cases[i].rule ? !p && strstr(text, want) : p != NULL, "%s epilogue %s split %s: %s", cases[i].arch, cases[i].epi,
              cases[i].split, p ? "loads" : text);
    ptosim_program_free(p);
  }
}

/* tpop_from_aic(%vr, %vc) (tpush_tpop_dynamic_validshape_a5.pto): the popped tile of dynamic
 * valid shape gets vr x vc, read back with tile_valid_rows / _cols, at the slot's address. */
static void test_pop_valid(void) {
  const char *vt = "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  char src[4096];
  snprintf(src, sizeof src,
           "module attributes {pto.target_arch = \"a5\"} {\n"
           "func.func @k(%%o: !pto.ptr<i64>) attributes {pto.kernel} {\n"
           "  %%c0 = arith.constant 0 : i32\n  %%b = arith.constant 4096 : i32\n"
           "  %%vr = arith.constant 5 : index\n  %%vc = arith.constant 11 : index\n  %%z = arith.constant 0 : index\n  %%one = arith.constant 1 : index\n"
           "  pto.section.cube {\n"
           "    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %%b : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "    %%a = pto.alloc_tile : " ACC16 "\n    pto.tpush_to_aiv(%%a : " ACC16 ") {split = 1}\n  }\n"
           "  pto.section.vector {\n"
           "    pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %%b : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "    %%t = pto.tpop_from_aic(%%vr, %%vc) {split = 1} -> %s\n"
           "    %%n = pto.tile_valid_rows %%t : %s -> index\n    %%m = pto.tile_valid_cols %%t : %s -> index\n"
           "    %%ni = arith.index_cast %%n : index to i64\n    %%mi = arith.index_cast %%m : index to i64\n"
           "    %%s = pto.get_subblock_idx\n    %%zero = arith.constant 0 : i64\n    %%first = arith.cmpi eq, %%s, %%zero : i64\n"
           "    scf.if %%first {\n"
           "      pto.store %%ni, %%o[%%z] : !pto.ptr<i64>, i64\n      pto.store %%mi, %%o[%%one] : !pto.ptr<i64>, i64\n    }\n"
           "    pto.tfree_from_aic {split = 1}\n  }\n  return\n}\n}\n",
           vt, vt, vt);
  int64_t out[2] = {0, 0};
  ptosim_status st = run_text(src, out, sizeof out);
  CHECK_MSG(st == PTOSIM_OK && out[0] == 5 && out[1] == 11, "status %d: %lld x %lld", (int)st, (long long)out[0], (long long)out[1]);
  /* the C API: the result tile placed on slot 0 with the given valid region; outside the shape: tile_pipe.valid */
  fresh(PTOSIM_TARGET_A5);
  CHECK(init_all(1, 2) == PTOSIM_OK);
  ptosim_tpush_params p = {.tile = acc_tile(16, 16, 16, 16), .id = 1, .split = PTOSIM_SPLIT_UP_DOWN};
  CHECK(ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK && ptosim_tpush_to_aiv(aic, &p) == PTOSIM_OK);
  ptosim_tile r = {.space = PTOSIM_UB, .dtype = PTOSIM_DT_F32, .rows = 8, .cols = 16, .valid_rows = 8, .valid_cols = 16};
  ptosim_tpop_params q = {.result = &r, .id = 1, .split = PTOSIM_SPLIT_UP_DOWN, .has_valid = 1, .valid_rows = 3, .valid_cols = 7};
  CHECK(ptosim_tpop_from_aic(aiv[1], &q) == PTOSIM_OK && r.addr == FIFO && r.valid_rows == 3 && r.valid_cols == 7);
  q.valid_cols = 17;
  CHECK(ptosim_tpop_from_aic(aiv[1], &q) == PTOSIM_E_VERIFY && !strcmp(rule(), "tile_pipe.valid"));
}

/* Frontend ids beyond 0..3 (tpush_tpop_frontend_same_direction_multi_a5.pto): two C2V pipes
 * ids 20 and 10, initialised in that order, and a V2C pipe id 10, each paired through its
 * reserve / import. PTOAS places them by smallest id, then direction: C2V id 10 on flags 0-1,
 * V2C id 10 on 2-3, id 20 on 4-5. The cube pushes one tile on id 10 and two on id 20; the
 * vector pops one of id 20 and pushes one back on V2C id 10, which the cube pops: the counts
 * land on those pipes, with the buffers of their reserves. */
static void test_frontend_ids(void) {
  const char *src =
      "module attributes {pto.target_arch = \"a5\"} {\n"
      "func.func @k() attributes {pto.entry} {\n  func.call @c() : () -> ()\n  func.call @v() : () -> ()\n  return\n}\n"
      "func.func private @c() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n  %z = arith.constant 0 : i32\n"
      "  %i0 = pto.import_reserved_buffer {name = \"fifo_0\", peer_func = @v} -> i32\n"
      "  %i1 = pto.import_reserved_buffer {name = \"fifo_1\", peer_func = @v} -> i32\n"
      "  pto.aic_initialize_pipe {id = 20, dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %i1 : i32, v2c_consumer_buf = %z : i32)\n"
      "  pto.aic_initialize_pipe {id = 10, dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %i0 : i32, v2c_consumer_buf = %z : i32)\n"
      "  %a = pto.alloc_tile : " ACC16 "\n"
      "  pto.tpush_to_aiv(%a : " ACC16 ") {id = 10, split = 0}\n"
      "  pto.tpush_to_aiv(%a : " ACC16 ") {id = 20, split = 0}\n  pto.tpush_to_aiv(%a : " ACC16 ") {id = 20, split = 0}\n"
      "  %m = pto.reserve_buffer {name = \"back\", size = 8192, location = #pto.address_space<mat>, auto = true} -> i32\n"
      "  pto.aic_initialize_pipe {id = 10, dir_mask = 2, slot_size = 1024}(c2v_consumer_buf = %z : i32, v2c_consumer_buf = %m : i32)\n"
      "  %g = pto.tpop_from_aiv {id = 10, split = 0} -> " MT8 "\n  return\n}\n"
      "func.func private @v() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n  %z = arith.constant 0 : i32\n"
      "  %r0 = pto.reserve_buffer {name = \"fifo_0\", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32\n"
      "  %r1 = pto.reserve_buffer {name = \"fifo_1\", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32\n"
      "  pto.aiv_initialize_pipe {id = 10, dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %r0 : i32, v2c_consumer_buf = %z : i32)\n"
      "  pto.aiv_initialize_pipe {id = 20, dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %r1 : i32, v2c_consumer_buf = %z : i32)\n"
      "  %t = pto.tpop_from_aic {id = 20, split = 0} -> " ACC16_AS_VEC "\n  pto.tfree_from_aic {id = 20, split = 0}\n"
      "  %i = pto.import_reserved_buffer {name = \"back\", peer_func = @c} -> i32\n"
      "  pto.aiv_initialize_pipe {id = 10, dir_mask = 2, slot_size = 1024}(c2v_consumer_buf = %z : i32, v2c_consumer_buf = %i : i32)\n"
      "  %u = pto.alloc_tile : " VT8 "\n  pto.tpush_to_aic(%u : " VT8 ") {id = 10, split = 0}\n  return\n}\n}\n";
  ptosim_program *p = pt_test_load(src, strlen(src));
  CHECK(p != NULL);
  if (!p) return;
  fresh(PTOSIM_TARGET_A5);
  uint32_t cap = (uint32_t)ptosim_space_capacity(g_m, PTOSIM_UB);
  ptosim_status st = ptosim_program_run(p, g_m, NULL);
  CHECK_MSG(st == PTOSIM_OK, "%s", ptosim_last_diag(g_m)->msg);
  const pt_tpipe *c = aic->tpipe, *v = aiv[0]->tpipe;
  CHECK_MSG(c[0].dir == 1 && c[0].nflags == 2 && c[0].pushed == 1 && c[0].c2v_buf == cap - 8192, "id 10: %d %u %u", c[0].dir, c[0].pushed, c[0].c2v_buf);
  CHECK_MSG(c[4].dir == 1 && c[4].pushed == 2 && c[4].c2v_buf == cap - 16384, "id 20: %d %u %u", c[4].dir, c[4].pushed, c[4].c2v_buf);
  CHECK(v[0].popped == 0 && v[4].popped == 1 && v[0].ready[0] == 1 && v[4].ready[0] == 1);
  /* id 10 again, V2C: its own pipe on flags 2-3 (after C2V id 10: same id, next direction) */
  uint32_t l1 = (uint32_t)ptosim_space_capacity(g_m, PTOSIM_L1);
  CHECK_MSG(c[2].dir == 2 && c[2].popped == 1 && c[2].v2c_buf == l1 - 8192 && v[2].dir == 2 && v[2].pushed == 1, "v2c: %d %u %u", c[2].dir,
            c[2].popped, c[2].v2c_buf);
  ptosim_program_free(p);
  /* 9 single-direction pipes need 18 of the 16 flags: refused. */
  char many[8192];
  size_t o = (size_t)snprintf(many, sizeof many, "func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n  %%z = arith.constant 0 : i32\n");
  for (int i = 0; i < 9; i++)
    o += (size_t)snprintf(many + o, sizeof many - o,
                          "  pto.aic_initialize_pipe {id = %d, dir_mask = 1, slot_size = 1024}(c2v_consumer_buf = %%z : i32, v2c_consumer_buf = %%z : i32)\n", i);
  snprintf(many + o, sizeof many - o, "  return\n}\n");
  CHECK(!pt_test_load(many, strlen(many)));
}

/* ---- forms of tonibohnlein/PTOAS test/lit/pto ------------------------------------------------ */

/* A V2C tile pipe on A2/A3 whose GM FIFO is a memref argument (tpush_tpop_emitc.pto,
 * pipe_tile_native.pto): `rounds` rounds, sub-block s loads rows [4 s, 4 s + 4) of in[r]
 * (8 x 16 f32) and pushes them with split 1; the cube pops the 8 x 16 mat tile into a
 * declared tile and frees it naming the tile (`pto.tfree(%m, %p)`). */
static void memref_fifo_kernel(char *buf, size_t n, int rounds) {
  const char *init = "    %%p = pto.initialize_l2g2l_pipe {dir_mask = 2, slot_size = 1024, slot_num = 2, local_slot_num = 2, flag_base = 0}"
                     "(%%fifo : memref<512xf32, #pto.address_space<gm>>, %%z : i32) -> !pto.pipe\n";
  char fmt[4096];
  snprintf(fmt, sizeof fmt,
           "module attributes {pto.target_arch = \"a2a3\"} {\n"
           "func.func @k(%%%%in: !pto.ptr<f32, gm>, %%%%fifo: memref<512xf32, #pto.address_space<gm>>) attributes {pto.kernel} {\n"
           "  %%%%c0 = arith.constant 0 : index\n  %%%%c1 = arith.constant 1 : index\n  %%%%c4 = arith.constant 4 : index\n"
           "  %%%%c16 = arith.constant 16 : index\n  %%%%c64 = arith.constant 64 : index\n  %%%%c128 = arith.constant 128 : index\n"
           "  %%%%rounds = arith.constant %%d : index\n  %%%%z = arith.constant 0 : i32\n"
           "  pto.section.vector {\n%s"
           "    %%%%t = pto.alloc_tile addr = %%%%c0 : " VT8 "\n"
           "    %%%%sb = pto.get_subblock_idx\n    %%%%sbi = arith.index_cast %%%%sb : i64 to index\n    %%%%half = arith.muli %%%%sbi, %%%%c64 : index\n"
           "    scf.for %%%%r = %%%%c0 to %%%%rounds step %%%%c1 {\n"
           "      %%%%o0 = arith.muli %%%%r, %%%%c128 : index\n      %%%%o = arith.addi %%%%o0, %%%%half : index\n"
           "      %%%%src = pto.addptr %%%%in, %%%%o : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>\n"
           "      %%%%sv = pto.make_tensor_view %%%%src, shape = [%%%%c4, %%%%c16], strides = [%%%%c16, %%%%c1] : !pto.tensor_view<4x16xf32>\n"
           "      %%%%sp = pto.partition_view %%%%sv, offsets = [%%%%c0, %%%%c0], sizes = [%%%%c4, %%%%c16] : !pto.tensor_view<4x16xf32> -> !pto.partition_tensor_view<4x16xf32>\n"
           "      pto.tload ins(%%%%sp : !pto.partition_tensor_view<4x16xf32>) outs(%%%%t : " VT8 ")\n"
           "      pto.barrier #pto.pipe<PIPE_ALL>\n"
           "      pto.tpush(%%%%t, %%%%p : " VT8 ", !pto.pipe) {split = 1}\n"
           "      pto.barrier #pto.pipe<PIPE_ALL>\n"
           "    }\n  }\n"
           "  pto.section.cube {\n%s"
           "    scf.for %%%%r = %%%%c0 to %%%%rounds step %%%%c1 {\n"
           "      %%%%m = pto.declare_tile -> " MT8 "\n"
           "      pto.tpop(%%%%m, %%%%p : " MT8 ", !pto.pipe) {split = 1}\n"
           "      pto.tfree(%%%%m, %%%%p : " MT8 ", !pto.pipe) {split = 1}\n"
           "    }\n  }\n  return\n}\n}\n",
           init, init);
  snprintf(buf, n, fmt, rounds);
}

/* After R rounds GM slot k (256 floats from the memref's base) starts with the 8 x 16 rows of
 * round max{r < R : r % 2 == k} and keeps its other 128 floats; no checker finding. */
static void test_memref_fifo(void) {
  static char src[16384];
  static float in[8 * 128], fifo[512];
  for (int i = 0; i < 8 * 128; i++) in[i] = (float)i * 0.25f - 3.0f;
  for (int rounds = 1; rounds <= 5; rounds += 2) {
    char first[64] = "";
    int nrep = 0;
    for (int i = 0; i < 512; i++) fifo[i] = -7.0f;
    memref_fifo_kernel(src, sizeof src, rounds);
    ptosim_status st = run_entry(src, in, 8 * 128, fifo, 512, &nrep, first);
    CHECK_MSG(st == PTOSIM_OK && nrep == 0, "rounds %d: status %d, %d reports (%s)", rounds, (int)st, nrep, first);
    int bad = 0;
    for (int k = 0; k < 2; k++) {
      int r = k < rounds ? rounds - 1 - ((rounds - 1 - k) % 2) : -1;
      for (int j = 0; j < 256; j++) bad += fifo[k * 256 + j] != (r < 0 || j >= 128 ? -7.0f : in[r * 128 + j]);
    }
    CHECK_MSG(!bad, "rounds %d: %d wrong FIFO floats", rounds, bad);
  }
}

int main(void) {
  RUN(test_c2v_splits);
  RUN(test_c2v_half_slots);
  RUN(test_flow);
  RUN(test_v2c);
  RUN(test_rules);
  RUN(test_gm_c2v);
  RUN(test_gm_slot_sizes);
  RUN(test_gm_v2c);
  RUN(test_a5_gm);
  RUN(test_text);
  RUN(test_generic_text);
  RUN(test_unsplit_guard);
  RUN(test_reserve);
  RUN(test_memref_alloc);
  RUN(test_valid_queries);
  RUN(test_gm_entries);
  RUN(test_entry_text);
  RUN(test_memref_fifo);
  RUN(test_short_buffer);
  RUN(test_epilogue);
  RUN(test_pop_valid);
  RUN(test_frontend_ids);
  ptosim_machine_free(g_m);
  return pt_test_finish();
}
