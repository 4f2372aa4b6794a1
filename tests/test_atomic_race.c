/* Atomic read-modify-writes of GM and the race checker (docs/checkers.md, "Atomics"). Each
 * of the three machine paths that update GM atomically:
 *   FIXPIPE atomic(...) (pto.mte_l0c_gm, the cube core's FIX pipe),
 *   TSTORE atomicType = atomic_add (an acc tile on FIX, a vec tile on MTE3),
 *   MTE3 UB -> GM under the GM atomic mode (pto.set_atomic_s32 + set_atomic_add),
 * run by cores of two blocks (and both vector cores of one) into the same GM bytes with no
 * sync: no finding, and GM holds the initial values plus every writer's tile, summed here
 * element by element from plain stores of the same data on a separate machine. An
 * unordered plain read after the atomics is race.raw, a plain write before or after them
 * race.waw; a pto.syncall between the atomics and the read makes the run clean. More
 * unordered writers than the shadow keeps are said so, and the eager schedule lands every
 * update. MSCATTER atomics are atomic except the a2a3 Elem mode; an atomic from a tile
 * nothing wrote is init.output; a text kernel of three blocks does the same as the C calls. */
#include <stdint.h>
#include <string.h>

#include "check/monitor_impl.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/ptosim.h"

#define GM_BYTES 4096
#define N 256          /* i32 elements each store updates: a 16 x 16 tile at GM offset 0 */
#define L0C_ADDR 0x1000
#define UB_SRC 0x2000
#define UB_DST 0x8000
#define MAX_BLOCKS 3

typedef enum path { P_FIXPIPE, P_TSTORE_ACC, P_TSTORE_VEC, P_DMA, P_COUNT } path;
static const char *const path_name[] = {"fixpipe atomic", "tstore acc atomic_add", "tstore vec atomic_add",
                                        "mte_ub_gm under set_atomic_add"};

/* A writer: the core of block b that stores (sub: vector core 0 / 1; the cube core for FIX). */
typedef struct writer {
  int b, sub;
} writer;

typedef struct env {
  ptosim_machine *m;
  ptosim_monitor *mon;
  int32_t gm[GM_BYTES / 4];
  uint64_t gm_addr;
} env;

static int32_t host_val(int b, int sub, int i) { return (b * 3 + sub + 1) * 1000 + i % 97 - 40; }

static ptosim_core *core_of(env *e, path p, writer w) {
  int fix = p == P_FIXPIPE || p == P_TSTORE_ACC;
  return ptosim_core_of(e->m, w.b, fix ? PTOSIM_AIC : w.sub ? PTOSIM_AIV1 : PTOSIM_AIV0);
}

/* A machine of `blocks` blocks whose GM holds i * 7 - 50 and whose L0C / UB sources hold
 * host_val; a monitor (checks: all) unless mode < 0, with the eager schedule if mode > 0. */
static void env_init_on(env *e, ptosim_target t, int blocks, int mode) {
  memset(e, 0, sizeof *e);
  e->m = ptosim_machine_new(t, blocks);
  for (int i = 0; i < GM_BYTES / 4; i++) e->gm[i] = i * 7 - 50;
  ptosim_gm_map(e->m, e->gm, sizeof e->gm, &e->gm_addr);
  if (mode >= 0) { /* before the host writes: the init checker sees them */
    ptosim_monitor_opts o = ptosim_monitor_defaults();
    if (mode > 0) o.schedule = PTOSIM_SCHEDULE_EAGER;
    e->mon = ptosim_monitor_attach(e->m, &o);
  }
  int32_t src[1024];
  for (int b = 0; b < blocks; b++)
    for (int sub = 0; sub < 2; sub++) {
      for (int i = 0; i < 1024; i++) src[i] = host_val(b, sub, i);
      writer w = {b, sub};
      if (!sub) CHECK(ptosim_mem_write(core_of(e, P_FIXPIPE, w), PTOSIM_L0C, L0C_ADDR, src, sizeof src) == PTOSIM_OK);
      CHECK(ptosim_mem_write(core_of(e, P_DMA, w), PTOSIM_UB, UB_SRC, src, N * 4) == PTOSIM_OK);
    }
}

static void env_init(env *e, int blocks, int mode) { env_init_on(e, PTOSIM_TARGET_A5, blocks, mode); }

static void env_free(env *e) {
  ptosim_monitor_free(e->mon);
  ptosim_machine_free(e->m);
}

static ptosim_gm_view view16(env *e) {
  ptosim_gm_view v = {.addr = e->gm_addr, .dtype = PTOSIM_DT_I32, .layout = PTOSIM_GL_ND};
  int64_t shape[PTOSIM_VIEW_DIMS] = {1, 1, 1, 16, 16}, stride[PTOSIM_VIEW_DIMS] = {N, N, N, 16, 1};
  memcpy(v.shape, shape, sizeof shape);
  memcpy(v.stride, stride, sizeof stride);
  return v;
}

static ptosim_tile tile16(ptosim_space sp, uint64_t addr) {
  ptosim_tile t = {.space = sp, .addr = addr, .dtype = PTOSIM_DT_I32, .rows = 16, .cols = 16, .valid_rows = 16,
                   .valid_cols = 16, .fractal = 512, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX};
  if (sp == PTOSIM_L0C) /* acc tiles: NZ of 16 x 16 boxes of 4-byte elements */
    t.fractal = 1024, t.blayout = PTOSIM_BL_COL_MAJOR, t.slayout = PTOSIM_SL_ROW_MAJOR;
  return t;
}

/* Writer w stores its 16 x 16 i32 tile to GM offset 0 along path p, atomically adding or not. */
static ptosim_status store(env *e, path p, writer w, int atomic) {
  ptosim_core *c = core_of(e, p, w);
  ptosim_atomic_op op = atomic ? PTOSIM_ATOMIC_ADD : PTOSIM_ATOMIC_NONE;
  if (p == P_FIXPIPE) {
    ptosim_fixpipe_params f;
    memset(&f, 0, sizeof f);
    f.src = ptosim_ptr_make(PTOSIM_L0C, PTOSIM_DT_I32, L0C_ADDR);
    f.dst = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I32, e->gm_addr);
    f.m = 16, f.n = 16, f.src_stride = 16, f.dst_stride = 16, f.layout = PTOSIM_FIX_NZ2ND;
    f.atomic = op, f.atomic_type = atomic ? PTOSIM_DT_I32 : PTOSIM_DT_NONE;
    return ptosim_mte_l0c_gm(c, &f);
  }
  if (p == P_TSTORE_ACC || p == P_TSTORE_VEC) {
    ptosim_tstore_params t;
    memset(&t, 0, sizeof t);
    t.src = p == P_TSTORE_ACC ? tile16(PTOSIM_L0C, L0C_ADDR) : tile16(PTOSIM_UB, UB_SRC);
    t.dst = view16(e);
    t.atomic = op;
    return ptosim_tstore(c, &t);
  }
  ptosim_atomic_mode_params type = {.type = PTOSIM_DT_I32}, add = {.op = op};
  ptosim_status st = ptosim_exec(c, PTOSIM_OP_set_atomic_s32, &type, NULL);
  if (st == PTOSIM_OK) st = ptosim_exec(c, atomic ? PTOSIM_OP_set_atomic_add : PTOSIM_OP_set_atomic_none, &add, NULL);
  ptosim_dma_params d = {.src = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I32, UB_SRC),
                         .dst = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I32, e->gm_addr), .len_burst = N * 4,
                         .nburst = {1, N * 4, N * 4}};
  return st == PTOSIM_OK ? ptosim_mte_ub_gm(c, &d) : st;
}

/* A plain load of the updated GM bytes into UB on vector core `sub` of block b (MTE2). */
static ptosim_status load(env *e, int b, int sub) {
  ptosim_dma_params d = {.src = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I32, e->gm_addr),
                         .dst = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I32, UB_DST), .len_burst = N * 4,
                         .nburst = {1, N * 4, N * 4}};
  return ptosim_mte_gm_ub(ptosim_core_of(e->m, b, sub ? PTOSIM_AIV1 : PTOSIM_AIV0), &d);
}

/* pto.syncall (hard, mix) of every core of every block: each core asks until it passes
 * (every core blocks until the last one arrives). */
static void syncall(env *e, int blocks) {
  ptosim_syncall_params mix = {.core_type = PTOSIM_SYNC_MIX};
  static const ptosim_core_kind kinds[3] = {PTOSIM_AIC, PTOSIM_AIV0, PTOSIM_AIV1};
  int passed[MAX_BLOCKS * 3] = {0}, left = blocks * 3, bad = 0;
  for (int round = 0; round < 2; round++)
    for (int i = 0; i < blocks * 3; i++) {
      if (passed[i]) continue;
      ptosim_status st = ptosim_syncall(ptosim_core_of(e->m, i / 3, kinds[i % 3]), &mix);
      bad += st != PTOSIM_OK && st != PTOSIM_BLOCKED;
      left -= passed[i] = st == PTOSIM_OK;
    }
  CHECK_MSG(!bad && !left, "syncall: %d errors, %d cores still waiting", bad, left);
}

/* GM after the writers' atomic adds: the initial values plus each writer's tile, the tiles
 * taken from plain stores into zeroed GM on a machine without a monitor. */
static void expected(path p, const writer *w, int nw, int blocks, int32_t *want) {
  for (int i = 0; i < GM_BYTES / 4; i++) want[i] = i * 7 - 50;
  for (int k = 0; k < nw; k++) {
    env r;
    env_init(&r, blocks, -1);
    memset(r.gm, 0, sizeof r.gm);
    CHECK(store(&r, p, w[k], 0) == PTOSIM_OK);
    for (int i = 0; i < GM_BYTES / 4; i++) want[i] = (int32_t)((uint32_t)want[i] + (uint32_t)r.gm[i]);
    env_free(&r);
  }
}

/* Findings after finish: the number, and whether rule r is among them. */
static int has(env *e, const char *r) {
  int hit = 0;
  for (int i = 0; i < ptosim_monitor_nreports(e->mon); i++) hit |= !strcmp(ptosim_monitor_report(e->mon, i)->rule, r);
  return hit;
}

static const char *first_rule(env *e) {
  return ptosim_monitor_nreports(e->mon) ? ptosim_monitor_report(e->mon, 0)->rule : "none";
}

/* The writers of a path: the cube cores of two blocks (FIX), or both vector cores of block 0
 * and vector core 0 of block 1 (MTE3). */
static int writers_of(path p, writer *w) {
  w[0] = (writer){0, 0}, w[1] = (writer){1, 0}, w[2] = (writer){0, 1};
  return p == P_FIXPIPE || p == P_TSTORE_ACC ? 2 : 3;
}

/* Unordered atomics of every path: no finding, GM = the sum; in both schedules. */
static void test_unordered_atomics(void) {
  for (path p = 0; p < P_COUNT; p++)
    for (int eager = 0; eager < 2; eager++) {
      writer w[3];
      int nw = writers_of(p, w);
      int32_t want[GM_BYTES / 4];
      expected(p, w, nw, 2, want);
      env e;
      env_init(&e, 2, eager);
      for (int k = 0; k < nw; k++) CHECK_MSG(store(&e, p, w[k], 1) == PTOSIM_OK, "%s: %s", path_name[p], ptosim_last_diag(e.m)->msg);
      CHECK(ptosim_monitor_drain(e.mon) == PTOSIM_OK);
      ptosim_monitor_finish(e.mon);
      CHECK_MSG(ptosim_monitor_nreports(e.mon) == 0, "%s (eager %d): %d findings, first %s", path_name[p], eager,
                ptosim_monitor_nreports(e.mon), first_rule(&e));
      int bad = 0;
      for (int i = 0; i < GM_BYTES / 4; i++) bad += e.gm[i] != want[i];
      CHECK_MSG(bad == 0, "%s (eager %d): %d GM elements differ from the sum", path_name[p], eager, bad);
      env_free(&e);
    }
}

/* An unordered plain read after the atomics is race.raw (not race.waw among the atomics);
 * after a pto.syncall it is clean. */
static void test_read_after_atomics(void) {
  for (path p = 0; p < P_COUNT; p++)
    for (int synced = 0; synced < 2; synced++) {
      writer w[3];
      int nw = writers_of(p, w);
      env e;
      env_init(&e, 2, 0);
      for (int k = 0; k < nw; k++) CHECK(store(&e, p, w[k], 1) == PTOSIM_OK);
      if (synced) syncall(&e, 2);
      CHECK(load(&e, 1, 1) == PTOSIM_OK);
      ptosim_monitor_finish(e.mon);
      if (synced)
        CHECK_MSG(ptosim_monitor_nreports(e.mon) == 0, "%s, synced: first finding %s", path_name[p], first_rule(&e));
      else
        CHECK_MSG(has(&e, "race.raw") && !has(&e, "race.waw"), "%s: %d findings, first %s", path_name[p],
                  ptosim_monitor_nreports(e.mon), first_rule(&e));
      env_free(&e);
    }
}

/* A plain write unordered with the atomics, before or after them: race.waw. */
static void test_plain_write_and_atomics(void) {
  for (path p = 0; p < P_COUNT; p++)
    for (int after = 0; after < 2; after++) {
      writer w[3], plain = {1, 1};
      int nw = writers_of(p, w);
      env e;
      env_init(&e, 2, 0);
      if (!after) CHECK(store(&e, P_DMA, plain, 0) == PTOSIM_OK);
      for (int k = 0; k < nw; k++) CHECK(store(&e, p, w[k], 1) == PTOSIM_OK);
      if (after) CHECK(store(&e, P_DMA, plain, 0) == PTOSIM_OK);
      ptosim_monitor_finish(e.mon);
      CHECK_MSG(has(&e, "race.waw") && !has(&e, "race.raw"), "%s, plain write %s: %d findings, first %s", path_name[p],
                after ? "after" : "before", ptosim_monitor_nreports(e.mon), first_rule(&e));
      env_free(&e);
    }
}

/* Six unordered atomic writers (both vector cores of three blocks) are more than the shadow
 * keeps: a read after a syncall reports nothing and the summary says what was not checked;
 * without the syncall the read is still race.raw. */
static void test_many_writers(void) {
  for (int synced = 0; synced < 2; synced++) {
    env e;
    env_init(&e, MAX_BLOCKS, 0);
    for (int b = 0; b < MAX_BLOCKS; b++)
      for (int sub = 0; sub < 2; sub++) CHECK(store(&e, P_DMA, (writer){b, sub}, 1) == PTOSIM_OK);
    if (synced) syncall(&e, MAX_BLOCKS);
    CHECK(load(&e, 0, 0) == PTOSIM_OK);
    ptosim_monitor_finish(e.mon);
    CHECK_MSG(synced ? ptosim_monitor_nreports(e.mon) == 0 : has(&e, "race.raw"), "synced %d: %d findings, first %s",
              synced, ptosim_monitor_nreports(e.mon), first_rule(&e));
    char text[2048] = {0};
    FILE *f = fmemopen(text, sizeof text - 1, "w");
    ptosim_monitor_print_reports(e.mon, f);
    fclose(f);
    CHECK_MSG(strstr(text, "checked against the newest 4 only") != NULL, "synced %d: %s", synced, text);
    env_free(&e);
  }
  /* four writers fit: nothing to say */
  env e;
  env_init(&e, 2, 0);
  for (int b = 0; b < 2; b++)
    for (int sub = 0; sub < 2; sub++) CHECK(store(&e, P_DMA, (writer){b, sub}, 1) == PTOSIM_OK);
  syncall(&e, 2);
  CHECK(load(&e, 0, 0) == PTOSIM_OK);
  ptosim_monitor_finish(e.mon);
  CHECK(ptosim_monitor_nreports(e.mon) == 0 && pt_shadow_atomic_unchecked(e.mon->sh) == 0);
  env_free(&e);
}

/* MSCATTER atomic_add (Elem mode, elements 0..7 of an 8-element table) from block 0 and
 * block 1: atomic on A5 (clean, the table holds the sum); on A2/A3 an Elem-mode scatter is a
 * scalar read-add-write per element (mscatter.md), so the same is race.waw there. */
static void test_mscatter(void) {
  for (int a5 = 0; a5 < 2; a5++) {
    env e;
    env_init_on(&e, a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3, 2, 0);
    int32_t idx[8] = {3, 0, 7, 1, 6, 2, 5, 4};
    ptosim_mscatter_params p;
    memset(&p, 0, sizeof p);
    p.src = tile16(PTOSIM_UB, UB_SRC), p.idx = tile16(PTOSIM_UB, UB_DST);
    p.src.rows = p.src.valid_rows = p.idx.rows = p.idx.valid_rows = 1;
    p.src.cols = p.src.valid_cols = p.idx.cols = p.idx.valid_cols = 8;
    p.table = view16(&e);
    p.table.shape[3] = 1, p.table.shape[4] = 8, p.table.stride[3] = 8;
    p.coalesce = PTOSIM_COALESCE_ELEM, p.atomic = PTOSIM_ATOMIC_ADD;
    for (int b = 0; b < 2; b++) {
      ptosim_core *c = ptosim_core_of(e.m, b, PTOSIM_AIV0);
      CHECK(ptosim_mem_write(c, PTOSIM_UB, UB_DST, idx, sizeof idx) == PTOSIM_OK);
      CHECK_MSG(ptosim_mscatter(c, &p) == PTOSIM_OK, "a5 %d: %s", a5, ptosim_last_diag(e.m)->msg);
    }
    ptosim_monitor_finish(e.mon);
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += e.gm[idx[i]] != idx[i] * 7 - 50 + host_val(0, 0, i) + host_val(1, 0, i);
    CHECK_MSG(bad == 0, "a5 %d: %d elements differ from the sum", a5, bad);
    CHECK_MSG(a5 ? ptosim_monitor_nreports(e.mon) == 0 : has(&e, "race.waw"), "a5 %d: %d findings, first %s", a5,
              ptosim_monitor_nreports(e.mon), first_rule(&e));
    env_free(&e);
  }
}

/* An atomic whose source tile nothing wrote puts undefined bytes into GM: init.output, as
 * a plain store would (the atomic's own read of GM is of host data). */
static void test_undefined_source(void) {
  env e;
  memset(&e, 0, sizeof e);
  e.m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_gm_map(e.m, e.gm, sizeof e.gm, &e.gm_addr);
  e.mon = ptosim_monitor_attach(e.m, NULL);
  CHECK(store(&e, P_FIXPIPE, (writer){0, 0}, 1) == PTOSIM_OK);
  ptosim_monitor_finish(e.mon);
  CHECK_MSG(has(&e, "init.output") && !has(&e, "race.raw") && !has(&e, "race.waw"), "%d findings, first %s",
            ptosim_monitor_nreports(e.mon), first_rule(&e));
  env_free(&e);
}

/* ---- the same from text: a vector kernel of three blocks ------------------------------------ */

#define T_I32 "!pto.tile_buf<loc=vec, dtype=i32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, " \
              "slayout=none_box, fractal=512, pad=0>"
#define V_I32 "!pto.tensor_view<?x?xi32>"

/* Each block loads src[blk] (8 x 16 i32) and adds it to dst with tstore atomic_add; with
 * `read`, it then loads dst back (after `sync`: nothing, or a pto.syncall of every block)
 * and stores it to out[blk]. */
static void atomic_kernel(char *buf, size_t n, int read, const char *sync) {
  snprintf(buf, n,
           "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
           "func.func @k(%%src: !pto.ptr<i32, gm>, %%dst: !pto.ptr<i32, gm>, %%out: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
           "  %%c1 = arith.constant 1 : index\n  %%c8 = arith.constant 8 : index\n  %%c16 = arith.constant 16 : index\n"
           "  %%c128 = arith.constant 128 : i64\n"
           "  %%blk = pto.get_block_idx\n  %%off = arith.muli %%blk, %%c128 : i64\n"
           "  %%s = pto.addptr %%src, %%off : !pto.ptr<i32, gm> -> !pto.ptr<i32, gm>\n"
           "  %%o = pto.addptr %%out, %%off : !pto.ptr<i32, gm> -> !pto.ptr<i32, gm>\n"
           "  %%vs = pto.make_tensor_view %%s, shape = [%%c8, %%c16], strides = [%%c16, %%c1] : " V_I32 "\n"
           "  %%vd = pto.make_tensor_view %%dst, shape = [%%c8, %%c16], strides = [%%c16, %%c1] : " V_I32 "\n"
           "  %%vo = pto.make_tensor_view %%o, shape = [%%c8, %%c16], strides = [%%c16, %%c1] : " V_I32 "\n"
           "  %%x = pto.alloc_tile : " T_I32 "\n  %%y = pto.alloc_tile : " T_I32 "\n"
           "  pto.tload ins(%%vs : " V_I32 ") outs(%%x : " T_I32 ")\n"
           "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
           "  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
           "  pto.tstore ins(%%x : " T_I32 ") outs(%%vd : " V_I32 ") {atomicType = #pto<atomic_type atomic_add>}\n"
           "%s"
           "  return\n}\n}\n",
           read ? sync : "");
  if (!read) return;
  size_t len = strlen(buf) - strlen("  return\n}\n}\n");
  snprintf(buf + len, n - len,
           "  pto.set_flag[\"PIPE_MTE3\", \"PIPE_MTE2\", \"EVENT_ID1\"]\n"
           "  pto.wait_flag[\"PIPE_MTE3\", \"PIPE_MTE2\", \"EVENT_ID1\"]\n"
           "  pto.tload ins(%%vd : " V_I32 ") outs(%%y : " T_I32 ")\n"
           "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID2\"]\n"
           "  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID2\"]\n"
           "  pto.tstore ins(%%y : " T_I32 ") outs(%%vo : " V_I32 ")\n"
           "  return\n}\n}\n");
}

/* The kernel on 3 blocks under every checker: clean and dst = its start + every block's
 * tile; an unordered read-back is race.raw, after pto.syncall clean and equal to dst. */
static void test_text_kernel(void) {
  static const char *const syncs[] = {"", "  pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<aiv_only>\n"};
  static char src[8192];
  for (int c = 0; c < 3; c++) {
    int read = c > 0, synced = c == 2;
    atomic_kernel(src, sizeof src, read, syncs[synced]);
    ptosim_program *p = pt_test_load(src, strlen(src));
    CHECK_MSG(p != NULL, "case %d does not load", c);
    if (!p) continue;
    static int32_t in[3 * 128], dst[128], out[3 * 128];
    for (int i = 0; i < 3 * 128; i++) in[i] = host_val(i / 128, 0, i), out[i] = 0;
    for (int i = 0; i < 128; i++) dst[i] = i * 7 - 50;
    ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 3);
    ptosim_arg a[3] = {{0}, {0}, {0}};
    ptosim_gm_map(m, in, sizeof in, &a[0].gm_addr);
    ptosim_gm_map(m, dst, sizeof dst, &a[1].gm_addr);
    ptosim_gm_map(m, out, sizeof out, &a[2].gm_addr);
    ptosim_monitor *mon = ptosim_monitor_attach(m, NULL);
    ptosim_status st = ptosim_monitor_run(mon, p, a);
    ptosim_monitor_finish(mon);
    int nrep = ptosim_monitor_nreports(mon), raw = 0, bad = 0;
    for (int i = 0; i < nrep; i++) raw |= !strcmp(ptosim_monitor_report(mon, i)->rule, "race.raw");
    for (int i = 0; i < 128; i++) {
      int32_t want = i * 7 - 50;
      for (int b = 0; b < 3; b++) want += in[b * 128 + i];
      bad += dst[i] != want;
      for (int b = 0; synced && b < 3; b++) bad += out[b * 128 + i] != want; /* each block read the final sum */
    }
    CHECK_MSG(st == PTOSIM_OK, "case %d: %s", c, ptosim_last_diag(m)->msg);
    CHECK_MSG(read && !synced ? raw : nrep == 0, "case %d: %d findings, first %s", c, nrep,
              nrep ? ptosim_monitor_report(mon, 0)->rule : "none");
    CHECK_MSG(bad == 0, "case %d: %d elements differ", c, bad);
    ptosim_monitor_free(mon);
    ptosim_machine_free(m);
    ptosim_program_free(p);
  }
}

int main(void) {
  RUN(test_unordered_atomics);
  RUN(test_read_after_atomics);
  RUN(test_plain_write_and_atomics);
  RUN(test_many_writers);
  RUN(test_mscatter);
  RUN(test_undefined_source);
  RUN(test_text_kernel);
  return pt_test_finish();
}
