/* Synchronization ops, the monitor's checkers (race, sync, init) and timelines.
 * Each checker rule has a clean case that reports nothing and the same case with one
 * flag / barrier / token removed that reports exactly the expected finding. */
#include <string.h>

#include "core/machine.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

typedef struct env {
  ptosim_machine *m;
  ptosim_core *aic, *aiv0, *aiv1;
  ptosim_monitor *mon;
  uint8_t gm[4096];
  uint64_t gm_addr;
} env;

static void env_init(env *e, ptosim_target t, int monitor) {
  memset(e, 0, sizeof *e);
  e->m = ptosim_machine_new(t, 1);
  e->aic = ptosim_core_of(e->m, 0, PTOSIM_AIC);
  e->aiv0 = ptosim_core_of(e->m, 0, PTOSIM_AIV0);
  e->aiv1 = ptosim_core_of(e->m, 0, PTOSIM_AIV1);
  ptosim_gm_map(e->m, e->gm, sizeof e->gm, &e->gm_addr);
  if (monitor) {
    ptosim_monitor_opts o = ptosim_monitor_defaults();
    o.trace = 1;
    e->mon = ptosim_monitor_attach(e->m, &o);
  }
}

static void env_free(env *e) {
  ptosim_monitor_free(e->mon);
  ptosim_machine_free(e->m);
}

static const char *rule(env *e) { return ptosim_last_diag(e->m)->rule; }

/* Findings of the monitor after finish: count, and whether one has rule r. */
static int findings(env *e, const char *r) {
  ptosim_monitor_finish(e->mon);
  int n = ptosim_monitor_nreports(e->mon), hit = 0;
  if (!r) return n;
  for (int i = 0; i < n; i++) hit |= !strcmp(ptosim_monitor_report(e->mon, i)->rule, r);
  return hit;
}

/* One 256-byte DMA between GM (offset g) and UB (offset u) on a vector core. */
static ptosim_status dma(env *e, ptosim_core *c, int to_ub, uint64_t g, uint64_t u) {
  ptosim_dma_params p = {.len_burst = 256, .nburst = {1, 256, 256}};
  ptosim_ptr gp = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F32, e->gm_addr + g), up = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_F32, u);
  p.src = to_ub ? gp : up;
  p.dst = to_ub ? up : gp;
  return to_ub ? ptosim_mte_gm_ub(c, &p) : ptosim_mte_ub_gm(c, &p);
}

static ptosim_status flag(ptosim_core *c, int set, ptosim_pipe s, ptosim_pipe d, int id) {
  ptosim_flag_params f = {s, d, id};
  return set ? ptosim_set_flag(c, &f) : ptosim_wait_flag(c, &f);
}

/* ---- the ops themselves ------------------------------------------------------------------- */

static void test_flag_ops(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 0);
  CHECK(flag(e.aiv0, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_S, 0) == PTOSIM_E_FAULT && !strcmp(rule(&e), "sync.deadlock"));
  CHECK(flag(e.aiv0, 1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 0) == PTOSIM_OK);
  CHECK(flag(e.aiv0, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 0) == PTOSIM_OK && e.aiv0->flags[PTOSIM_PIPE_MTE2][PTOSIM_PIPE_V][0] == 0);
  ptosim_flag_params dyn = {PTOSIM_PIPE_M, PTOSIM_PIPE_FIX, 7};
  CHECK(ptosim_set_flag_dyn(e.aic, &dyn) == PTOSIM_OK && ptosim_wait_flag_dyn(e.aic, &dyn) == PTOSIM_OK);
  CHECK(ptosim_record_event(e.aic, &dyn) == PTOSIM_OK && ptosim_wait_event(e.aic, &dyn) == PTOSIM_OK);
  ptosim_pipe_params mp = {PTOSIM_PIPE_M};
  CHECK(ptosim_barrier_sync(e.aic, &mp) == PTOSIM_OK);
  CHECK(flag(e.aiv0, 1, PTOSIM_PIPE_M, PTOSIM_PIPE_V, 0) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.pipe"));
  CHECK(flag(e.aic, 1, PTOSIM_PIPE_MTE3, PTOSIM_PIPE_M, 0) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.pipe"));
  CHECK(flag(e.aiv0, 1, PTOSIM_PIPE_V, PTOSIM_PIPE_V, 0) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.pipe_pair"));
  CHECK(flag(e.aiv0, 1, PTOSIM_PIPE_V, PTOSIM_PIPE_MTE3, 8) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.event_range"));
  ptosim_pipe_params all = {PTOSIM_PIPE_ALL}, v = {PTOSIM_PIPE_V}, m = {PTOSIM_PIPE_M};
  CHECK(ptosim_pipe_barrier(e.aiv0, &all) == PTOSIM_OK && ptosim_barrier(e.aiv0, &v) == PTOSIM_OK);
  CHECK(ptosim_barrier(e.aiv0, &m) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.pipe"));
  ptosim_mem_bar_params mb = {PTOSIM_MB_VST_VLD}, bad = {PTOSIM_MB_COUNT};
  CHECK(ptosim_mem_bar(e.aiv0, &mb) == PTOSIM_OK);
  CHECK(ptosim_mem_bar(e.aiv0, &bad) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.mem_bar"));
  CHECK(ptosim_mem_bar(e.aic, &mb) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "op.unit"));
  env_free(&e);
}

/* A wait issued before its set parks its destination pipe: later ops of that pipe wait
 * behind it, other pipes go on, and the set releases them in order. A park nothing
 * releases, or a barrier of every pipe behind one, is a deadlock naming both places. */
static void test_parked_waits(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 1);
  ptosim_core *c = e.aiv0;
  CHECK(flag(c, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 0) == PTOSIM_OK);  /* V parks */
  CHECK(flag(c, 1, PTOSIM_PIPE_V, PTOSIM_PIPE_MTE3, 1) == PTOSIM_OK);  /* a V op: queued */
  CHECK(c->park && c->flags[PTOSIM_PIPE_V][PTOSIM_PIPE_MTE3][1] == 0);
  CHECK(dma(&e, c, 1, 0, 0) == PTOSIM_OK);                            /* MTE2 goes on */
  CHECK(flag(c, 1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 0) == PTOSIM_OK);  /* releases V */
  CHECK(!c->park && c->flags[PTOSIM_PIPE_V][PTOSIM_PIPE_MTE3][1] == 1 && c->flags[PTOSIM_PIPE_MTE2][PTOSIM_PIPE_V][0] == 0);
  CHECK(flag(c, 0, PTOSIM_PIPE_V, PTOSIM_PIPE_MTE3, 1) == PTOSIM_OK);
  CHECK(findings(&e, NULL) == 0);
  /* chained: MTE3 waits for V, which waits for MTE2 */
  CHECK(flag(c, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 2) == PTOSIM_OK && flag(c, 1, PTOSIM_PIPE_V, PTOSIM_PIPE_MTE3, 2) == PTOSIM_OK);
  CHECK(flag(c, 0, PTOSIM_PIPE_V, PTOSIM_PIPE_MTE3, 2) == PTOSIM_OK && flag(c, 1, PTOSIM_PIPE_MTE3, PTOSIM_PIPE_MTE2, 3) == PTOSIM_OK);
  CHECK(c->park != NULL);
  CHECK(flag(c, 1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 2) == PTOSIM_OK && !c->park);
  CHECK(flag(c, 0, PTOSIM_PIPE_MTE3, PTOSIM_PIPE_MTE2, 3) == PTOSIM_OK && !c->park);
  /* a barrier of every pipe behind a parked wait */
  ptosim_pipe_params all = {PTOSIM_PIPE_ALL};
  CHECK(flag(c, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 4) == PTOSIM_OK);
  CHECK(ptosim_pipe_barrier(c, &all) == PTOSIM_E_FAULT && !strcmp(rule(&e), "sync.deadlock"));
  CHECK(strstr(ptosim_last_diag(e.m)->msg, "holds PIPE_V") != NULL);
  env_free(&e);

  /* from text: the wait comes first in program order and the kernel is right */
  const char *src = "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
                    "func.func @k(%%out: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
                    "  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
                    "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
                    "  %s\n"
                    "  return\n"
                    "}\n}\n";
  for (int broken = 0; broken < 2; broken++) {
    char text[1024];
    snprintf(text, sizeof text, src, broken ? "pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID1\"]" : "");
    ptosim_program *p = pt_test_load(text, strlen(text));
    CHECK(p != NULL);
    if (!p) continue;
    ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
    ptosim_arg arg;
    memset(&arg, 0, sizeof arg);
    int32_t out = 0;
    ptosim_gm_map(m, &out, sizeof out, &arg.gm_addr);
    ptosim_status st = ptosim_program_run(p, m, &arg);
    const ptosim_diag *d = ptosim_last_diag(m);
    CHECK_MSG(broken ? st == PTOSIM_E_FAULT && !strcmp(d->rule, "sync.deadlock") && d->loc.line == 5 && strstr(d->msg, "ends at 6:3")
                     : st == PTOSIM_OK,
              "broken %d: %d %s", broken, (int)st, d->msg);
    ptosim_machine_free(m);
    ptosim_program_free(p);
  }
}

static void test_buf_ops(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 0);
  ptosim_buf_params b = {PTOSIM_PIPE_MTE2, 3, 0};
  CHECK(ptosim_get_buf(e.aiv0, &b) == PTOSIM_OK && ptosim_rls_buf(e.aiv0, &b) == PTOSIM_OK);
  b.buf_id = 32;
  CHECK(ptosim_get_buf(e.aiv0, &b) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.buf_range"));
  b.buf_id = 0;
  b.mode = 2;
  CHECK(ptosim_rls_buf(e.aiv0, &b) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.buf_mode"));
  env_free(&e);
  env_init(&e, PTOSIM_TARGET_A2A3, 0);
  b.mode = 0;
  CHECK(ptosim_get_buf(e.aiv0, &b) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.target"));
  env_free(&e);
}

static void test_core_sync_ops(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 0);
  ptosim_core_sync_params s = {PTOSIM_PIPE_FIX, 17}, w1 = {PTOSIM_PIPE_V, 1}, w0 = {PTOSIM_PIPE_V, 1};
  CHECK(ptosim_sync_wait(e.aiv1, &w1) == PTOSIM_BLOCKED); /* nothing set yet: nothing happens */
  CHECK(ptosim_set_intra_block(e.aic, &s) == PTOSIM_OK);  /* id 17: sub-block 1, semaphore 1 */
  CHECK(ptosim_wait_intra_block(e.aiv0, &w0) == PTOSIM_BLOCKED);
  CHECK(ptosim_wait_intra_core(e.aiv1, &w1) == PTOSIM_OK);
  CHECK(ptosim_sync_wait(e.aiv1, &w1) == PTOSIM_BLOCKED);
  ptosim_core_sync_params up = {PTOSIM_PIPE_MTE3, 2}, cw = {PTOSIM_PIPE_MTE2, 18};
  CHECK(ptosim_sync_set(e.aiv1, &up) == PTOSIM_OK); /* vector 1 -> cube semaphore 2 + 16 */
  CHECK(ptosim_sync_wait(e.aic, &cw) == PTOSIM_OK);
  /* sub-block 1 also names its semaphores 16..31 (the A5 32-id space): the cube's 17 is its 1 */
  ptosim_core_sync_params w17 = {PTOSIM_PIPE_V, 17}, up18 = {PTOSIM_PIPE_MTE3, 18};
  CHECK(ptosim_set_intra_block(e.aic, &s) == PTOSIM_OK && ptosim_wait_intra_block(e.aiv1, &w17) == PTOSIM_OK);
  CHECK(ptosim_wait_intra_block(e.aiv1, &w1) == PTOSIM_BLOCKED); /* consumed: 1 and 17 are one semaphore */
  CHECK(ptosim_sync_set(e.aiv1, &up18) == PTOSIM_OK && ptosim_sync_wait(e.aic, &cw) == PTOSIM_OK); /* 18 = its 2 */
  CHECK(ptosim_wait_intra_block(e.aiv0, &w17) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.flag_range"));
  w17.id = 32;
  CHECK(ptosim_wait_intra_block(e.aiv1, &w17) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.flag_range"));
  up.id = 16;
  CHECK(ptosim_sync_set(e.aiv0, &up) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.flag_range"));
  s.id = 32;
  CHECK(ptosim_sync_set(e.aic, &s) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "sync.flag_range"));
  env_free(&e);
}

static void test_scalar_ops(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 0);
  int32_t v = -5, r = 0;
  ptosim_scalar_mem_params st = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I32, 64), &v, PTOSIM_PIPE_S}, ld = {st.ptr, &r, PTOSIM_PIPE_S};
  CHECK(ptosim_store_scalar(e.aiv0, &st) == PTOSIM_OK && ptosim_load_scalar(e.aiv0, &ld) == PTOSIM_OK && r == -5);
  ld.ptr.addr = 66;
  CHECK(ptosim_load_scalar(e.aiv0, &ld) == PTOSIM_E_FAULT && !strcmp(rule(&e), "mem.align"));
  env_free(&e);
}

/* ---- race checker ------------------------------------------------------------------------- */

/* A scalar load of the vector thread (inside a pto.vecscope: pipe V) is ordered after an MTE2
 * load by an MTE2 -> V flag; the same load on the scalar unit (pipe S) is not. */
static void test_race_vector_scalar_load(void) {
  for (int pipe_v = 0; pipe_v < 2; pipe_v++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    int32_t r = 0;
    ptosim_scalar_mem_params ld = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I32, 64), &r, pipe_v ? PTOSIM_PIPE_V : PTOSIM_PIPE_S};
    CHECK(dma(&e, e.aiv0, 1, 0, 0) == PTOSIM_OK);
    CHECK(flag(e.aiv0, 1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 0) == PTOSIM_OK);
    CHECK(flag(e.aiv0, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 0) == PTOSIM_OK);
    CHECK(ptosim_load_scalar(e.aiv0, &ld) == PTOSIM_OK);
    CHECK_MSG(pipe_v ? findings(&e, NULL) == 0 : findings(&e, "race.raw") == 1, "pipe %s", pipe_v ? "V" : "S");
    env_free(&e);
  }
}

/* MTE2 loads UB, MTE3 stores it: RAW through UB, ordered by one flag. */
static void test_race_raw(void) {
  for (int synced = 0; synced < 2; synced++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    CHECK(dma(&e, e.aiv0, 1, 0, 0) == PTOSIM_OK);
    if (synced) flag(e.aiv0, 1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3, 0), flag(e.aiv0, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3, 0);
    CHECK(dma(&e, e.aiv0, 0, 1024, 0) == PTOSIM_OK);
    CHECK_MSG(findings(&e, NULL) == !synced, "synced=%d: %d findings", synced, findings(&e, NULL));
    CHECK(synced || findings(&e, "race.raw"));
    env_free(&e);
  }
}

/* MTE3 stores UB, then MTE2 reloads the same UB bytes: WAR; pipe_barrier(ALL) orders it. */
static void test_race_war_barrier(void) {
  for (int synced = 0; synced < 2; synced++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    CHECK(dma(&e, e.aiv0, 1, 0, 0) == PTOSIM_OK);
    flag(e.aiv0, 1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3, 0);
    flag(e.aiv0, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3, 0);
    CHECK(dma(&e, e.aiv0, 0, 1024, 0) == PTOSIM_OK);
    ptosim_pipe_params all = {PTOSIM_PIPE_ALL};
    if (synced) ptosim_barrier(e.aiv0, &all);
    CHECK(dma(&e, e.aiv0, 1, 2048, 0) == PTOSIM_OK);
    CHECK(findings(&e, NULL) == !synced);
    CHECK(synced || findings(&e, "race.war"));
    env_free(&e);
  }
}

/* Two unordered MTE3 stores from the two vector cores to the same GM bytes are a WAW: an
 * error when the second changes bytes (all of them, or one), a warning (race.waw_same)
 * when it stores exactly the bytes the first did: this run's result does not depend on
 * their order. */
static void test_race_waw_cores(void) {
  for (int differ = 0; differ < 3; differ++) { /* 0 none, 1 every byte, 2 the last byte */
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    uint8_t other[256];
    memcpy(other, e.gm, sizeof other);
    for (int i = 0; i < 256; i++) other[i] ^= (uint8_t)(differ == 1 || (differ == 2 && i == 255));
    ptosim_mem_write(e.aiv0, PTOSIM_UB, 0, e.gm, 256);
    ptosim_mem_write(e.aiv1, PTOSIM_UB, 0, other, 256);
    CHECK(dma(&e, e.aiv0, 0, 512, 0) == PTOSIM_OK);
    CHECK(dma(&e, e.aiv1, 0, 512, 0) == PTOSIM_OK);
    CHECK_MSG(findings(&e, NULL) == 1 && findings(&e, differ ? "race.waw" : "race.waw_same"), "differ %d", differ);
    CHECK(ptosim_monitor_count(e.mon, PTOSIM_SEV_ERROR) == (differ != 0) && ptosim_monitor_count(e.mon, PTOSIM_SEV_WARNING) == !differ);
    env_free(&e);
  }
}

/* get_buf / rls_buf (mode 0) order MTE2's write before MTE3's read. */
static void test_race_buf_tokens(void) {
  for (int synced = 0; synced < 2; synced++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    ptosim_buf_params g2 = {PTOSIM_PIPE_MTE2, 5, 0}, g3 = {PTOSIM_PIPE_MTE3, 5, 0};
    ptosim_get_buf(e.aiv0, &g2);
    CHECK(dma(&e, e.aiv0, 1, 0, 0) == PTOSIM_OK);
    ptosim_rls_buf(e.aiv0, &g2);
    if (synced) ptosim_get_buf(e.aiv0, &g3);
    CHECK(dma(&e, e.aiv0, 0, 1024, 0) == PTOSIM_OK);
    if (synced) ptosim_rls_buf(e.aiv0, &g3);
    CHECK_MSG(findings(&e, NULL) == !synced, "synced=%d", synced);
    env_free(&e);
  }
}

/* Vector core 0 stores GM on MTE3, the other vector core loads it: ordered only by a
 * cross-core signal (through the cube core here: two hops). */
static void test_race_cross_core(void) {
  for (int synced = 0; synced < 2; synced++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    ptosim_mem_write(e.aiv0, PTOSIM_UB, 0, e.gm, 256);
    CHECK(dma(&e, e.aiv0, 0, 512, 0) == PTOSIM_OK);
    if (synced) {
      ptosim_core_sync_params up = {PTOSIM_PIPE_MTE3, 3}, cw = {PTOSIM_PIPE_S, 3}, down = {PTOSIM_PIPE_S, 16 + 4},
                              vw = {PTOSIM_PIPE_MTE2, 4};
      CHECK(ptosim_sync_set(e.aiv0, &up) == PTOSIM_OK && ptosim_sync_wait(e.aic, &cw) == PTOSIM_OK);
      CHECK(ptosim_sync_set(e.aic, &down) == PTOSIM_OK && ptosim_sync_wait(e.aiv1, &vw) == PTOSIM_OK);
    }
    CHECK(dma(&e, e.aiv1, 1, 512, 0) == PTOSIM_OK);
    CHECK(findings(&e, NULL) == !synced);
    CHECK(synced || findings(&e, "race.raw"));
    env_free(&e);
  }
}

/* The cube core reaches vector sub-block 0's UB: its write and the vector core's read are
 * accesses to the same bytes (one shadow per memory, whoever reaches it). */
static void test_race_shared_ub(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 1);
  ptosim_mem_write(e.aiv0, PTOSIM_UB, 0, e.gm, 256);
  int32_t v = 7;
  ptosim_scalar_mem_params st = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I32, 64), &v, PTOSIM_PIPE_S};
  CHECK(ptosim_store_scalar(e.aic, &st) == PTOSIM_OK);
  CHECK(dma(&e, e.aiv0, 0, 0, 0) == PTOSIM_OK);
  CHECK(findings(&e, NULL) == 1 && findings(&e, "race.raw"));
  env_free(&e);
}

/* ---- init and sync checkers ------------------------------------------------------------------ */

static void test_init(void) {
  for (int written = 0; written < 2; written++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    if (written) ptosim_mem_write(e.aiv0, PTOSIM_UB, 0, e.gm, 256);
    CHECK(dma(&e, e.aiv0, 0, 0, 0) == PTOSIM_OK);
    CHECK(findings(&e, NULL) == !written);
    CHECK(written || findings(&e, "init.output")); /* no second run: UB -> GM may carry it */
    env_free(&e);
  }
}

static void test_sync_rules(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 1);
  flag(e.aiv0, 1, PTOSIM_PIPE_V, PTOSIM_PIPE_MTE2, 1);
  CHECK(findings(&e, NULL) == 1 && findings(&e, "sync.unwaited"));
  flag(e.aiv0, 1, PTOSIM_PIPE_V, PTOSIM_PIPE_MTE2, 1);
  CHECK(findings(&e, "sync.double_set"));
  env_free(&e);

  env_init(&e, PTOSIM_TARGET_A5, 1);
  ptosim_buf_params b = {PTOSIM_PIPE_V, 2, 0};
  ptosim_rls_buf(e.aiv0, &b);
  CHECK(findings(&e, NULL) == 1 && findings(&e, "sync.rls_without_get"));
  ptosim_get_buf(e.aiv0, &b);
  CHECK(findings(&e, "sync.unreleased"));
  env_free(&e);

  env_init(&e, PTOSIM_TARGET_A5, 1); /* a cross-core signal nobody waits for */
  ptosim_core_sync_params s = {PTOSIM_PIPE_FIX, 0};
  ptosim_sync_set(e.aic, &s);
  CHECK(findings(&e, NULL) == 1 && findings(&e, "sync.unwaited"));
  env_free(&e);
}

/* ---- timelines ------------------------------------------------------------------------------- */

/* A load and an unrelated store overlap on MTE2 and MTE3; a flag between them serializes. */
static void test_timeline(void) {
  uint64_t total[2];
  for (int synced = 0; synced < 2; synced++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    ptosim_mem_write(e.aiv0, PTOSIM_UB, 1024, e.gm, 256);
    CHECK(dma(&e, e.aiv0, 1, 0, 0) == PTOSIM_OK);
    if (synced) flag(e.aiv0, 1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3, 0), flag(e.aiv0, 0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3, 0);
    CHECK(dma(&e, e.aiv0, 0, 2048, 1024) == PTOSIM_OK);
    total[synced] = ptosim_monitor_total_cycles(e.mon);
    CHECK(findings(&e, NULL) == 0);
    char buf[8192] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    ptosim_monitor_write_trace(e.mon, f);
    fclose(f);
    CHECK(strstr(buf, "\"traceEvents\"") && strstr(buf, "pto.mte_gm_ub") && strstr(buf, "PIPE_MTE3"));
    CHECK(!synced || (strstr(buf, "\"ph\": \"s\"") && strstr(buf, "\"ph\": \"f\"")));
    env_free(&e);
  }
  CHECK_MSG(total[0] < total[1], "overlapped %llu vs serialized %llu", (unsigned long long)total[0], (unsigned long long)total[1]);
}

/* ---- text programs: the GEMM examples, and each of them with one wait removed ----------------- */

/* Run a GEMM program on fixed inputs with all checkers; returns the errors (-1 when it
 * did not load, 1000 + errors when it did not finish), the unwaited-signal warnings in
 * *unwaited, and the result in c. */
static int run_gemm(const char *text, size_t len, float *c, int *rule_race, int *unwaited) {
  static uint16_t a[128 * 128], b[128 * 128];
  unsigned long long seed = 7;
  for (int i = 0; i < 128 * 128; i++) { /* small f16 integers: exact products */
    a[i] = (uint16_t)(0x3C00 + (pt_rand_u64(&seed) % 8) * 0x100);
    b[i] = (uint16_t)(0x3C00 + (pt_rand_u64(&seed) % 8) * 0x100);
  }
  ptosim_program *p = pt_test_load(text, len);
  if (!p) return -1;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor *mon = ptosim_monitor_attach(m, NULL);
  ptosim_arg args[3];
  memset(args, 0, sizeof args);
  ptosim_gm_map(m, a, sizeof a, &args[0].gm_addr);
  ptosim_gm_map(m, b, sizeof b, &args[1].gm_addr);
  ptosim_gm_map(m, c, 128 * 128 * sizeof *c, &args[2].gm_addr);
  int n = ptosim_monitor_run(mon, p, args) == PTOSIM_OK ? 0 : 1000; /* a deadlock counts too */
  ptosim_monitor_finish(mon);
  n += ptosim_monitor_count(mon, PTOSIM_SEV_ERROR);
  *rule_race = *unwaited = 0;
  for (int i = 0; i < ptosim_monitor_nreports(mon); i++) {
    *rule_race |= !strncmp(ptosim_monitor_report(mon, i)->rule, "race.", 5);
    *unwaited += !strcmp(ptosim_monitor_report(mon, i)->rule, "sync.unwaited");
  }
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return n;
}

static void check_example(const char *name, const float *want, int ndrains) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", PTOSIM_SOURCE_DIR, name);
  size_t len;
  char *text = pt_test_slurp(path, &len);
  CHECK_MSG(text != NULL, "%s", path);
  if (!text) return;
  static float c[128 * 128];
  int race, unwaited;
  CHECK_MSG(run_gemm(text, len, c, &race, &unwaited) == 0 && !unwaited, "%s is not clean", name);
  CHECK_MSG(!want || !memcmp(c, want, sizeof c), "%s gives another result", name);
  int waits = 0, drains = 0;
  for (char *w = strstr(text, "pto.wait_flag"); w; w = strstr(w + 1, "pto.wait_flag")) {
    char *eol = strchr(w, '\n'), *mut = malloc(len + 1);
    size_t head = (size_t)(w - text);
    memcpy(mut, text, head);
    memcpy(mut + head, eol, len - (size_t)(eol - text) + 1);
    int n = run_gemm(mut, head + len - (size_t)(eol - text), c, &race, &unwaited);
    /* an error (exit 5), or for the drain waits after a loop a warning: the signal stays
     * pending at the end, this run's results do not change */
    CHECK_MSG(n > 0 || unwaited == 1, "%s without the wait at offset %zu reports nothing", name, head);
    drains += n == 0;
    waits++;
    free(mut);
  }
  CHECK(waits >= 3 && drains == ndrains);
  free(text);
}

static void test_examples(void) {
  static float plain[128 * 128];
  char path[1024];
  snprintf(path, sizeof path, "%s/examples/gemm.pto", PTOSIM_SOURCE_DIR);
  size_t len;
  char *text = pt_test_slurp(path, &len);
  int race, unwaited;
  CHECK(text && run_gemm(text, len, plain, &race, &unwaited) == 0);
  free(text);
  check_example("examples/gemm.pto", NULL, 0);
  check_example("examples/gemm_pingpong.pto", plain, 4); /* same FMA chains: the same bits */
  /* the cube reads padding rows nothing wrote (not observable): clean, and each wait matters */
  check_example("tests/data/gemm_pad.pto", NULL, 0);
}

/* The tile-level spellings: record_event / wait_event / barrier_sync name op types, which
 * stand for their pipes (TLOAD = MTE2, TMATMUL = M, TSTORE_ACC = FIX). */
static void test_tile_sync_spellings(void) {
  const char *src = "func.func @k() {\n  pto.section.cube {\n"
                    "    pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TMATMUL>, <EVENT_ID0>]\n"
                    "    pto.wait_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TMATMUL>, <EVENT_ID0>]\n"
                    "    pto.barrier_sync [TMATMUL]\n"
                    "    pto.record_event[#pto.sync_op_type<TMATMUL>, #pto.sync_op_type<TSTORE_ACC>, <EVENT_ID1>]\n"
                    "  }\n  return\n}\n";
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("ev.pto", src, strlen(src), NULL, -1, stderr, &nerr);
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor *mon = ptosim_monitor_attach(m, NULL);
  CHECK(ptosim_program_run(p, m, NULL) == PTOSIM_OK);
  ptosim_monitor_finish(mon);
  CHECK(ptosim_monitor_nreports(mon) == 1);
  const ptosim_report *r = ptosim_monitor_report(mon, 0);
  CHECK(r && !strcmp(r->rule, "sync.unwaited") && r->loc.line == 6 && strstr(r->msg, "set_flag(PIPE_M, PIPE_FIX, EVENT_ID1)"));
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* ---- pto.syncall and pto.tsync ------------------------------------------------------------ */

/* A kernel of `rounds` rounds on every block b: buf[b] = 10 b + r; barrier; res[b] =
 * 7 res[b] + buf[(b + 1) % n]; barrier. The store and the neighbour's load of round r meet
 * at the first barrier (a RAW across blocks), the load and the neighbour's store of round
 * r + 1 at the second (a WAR). `drop` 1 / 2 leaves out that barrier. `sync` is the
 * syncall's text, `vec` 1 for a vector-only kernel (else the cube core stores and the two
 * vector cores load, into res[2 b + sub-block]). */
static void syncall_kernel(char *buf, size_t n, const char *arch, int vec, const char *sync, int rounds, int drop) {
  const char *store = "      %bv = arith.muli %blk, %c10 : i64\n      %v64 = arith.addi %bv, %r : i64\n"
                      "      %v = arith.trunci %v64 : i64 to i32\n      pto.store %v, %buf[%blk] : !pto.ptr<i32, gm>, i32\n";
  const char *load = "      %nx = arith.addi %blk, %c1 : i64\n      %nb = arith.remui %nx, %n : i64\n"
                     "      %w = pto.load %buf[%nb] : !pto.ptr<i32, gm> -> i32\n"
                     "      %old = pto.load %res[%i] : !pto.ptr<i32, gm> -> i32\n      %o7 = arith.muli %old, %c7 : i32\n"
                     "      %acc = arith.addi %o7, %w : i32\n      pto.store %acc, %res[%i] : !pto.ptr<i32, gm>, i32\n";
  snprintf(buf, n,
           "module attributes {pto.target_arch = \"%s\"%s} {\n"
           "  func.func @k(%%buf: !pto.ptr<i32, gm>, %%res: !pto.ptr<i32, gm>, %%ws: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
           "    %%c0 = arith.constant 0 : i64\n    %%c1 = arith.constant 1 : i64\n    %%c2 = arith.constant 2 : i64\n"
           "    %%c10 = arith.constant 10 : i64\n    %%c7 = arith.constant 7 : i32\n    %%rounds = arith.constant %d : i64\n"
           "    %%blk = pto.get_block_idx\n    %%n = pto.get_block_num\n"
           "    scf.for %%r = %%c0 to %%rounds step %%c1 {\n"
           "%s%s%s%s%s%s%s%s%s"
           "    }\n    return\n  }\n}\n",
           arch, vec ? ", pto.kernel_kind = #pto.kernel_kind<vector>" : "", rounds, vec ? "" : "      pto.section.cube {\n", store,
           vec ? "" : "      }\n", drop == 1 ? "" : sync, vec ? "      %i = arith.addi %blk, %c0 : i64\n" : "      pto.section.vector {\n",
           vec ? "" : "      %sb = pto.get_subblock_idx\n      %b2 = arith.muli %blk, %c2 : i64\n      %i = arith.addi %b2, %sb : i64\n",
           load, vec ? "" : "      }\n", drop == 2 ? "" : sync);
}

/* Runs the kernel on `blocks` blocks (checkers on unless threads > 1); the status, the
 * reports and the first report's rule. */
static ptosim_status run_syncall(const char *src, ptosim_target t, int blocks, int threads, int32_t *bufv, int32_t *res,
                                 int32_t *ws, int *nrep, char *first) {
  ptosim_program *p = pt_test_load(src, strlen(src));
  if (!p) return PTOSIM_E_VERIFY;
  ptosim_machine *m = ptosim_machine_new(t, blocks);
  ptosim_arg a[3] = {{0}, {0}, {0}};
  ptosim_gm_map(m, bufv, 64 * sizeof *bufv, &a[0].gm_addr);
  ptosim_gm_map(m, res, 128 * sizeof *res, &a[1].gm_addr);
  ptosim_gm_map(m, ws, 16 * sizeof *ws, &a[2].gm_addr);
  ptosim_monitor *mon = NULL;
  if (threads <= 1) {
    ptosim_monitor_opts o = ptosim_monitor_defaults();
    mon = ptosim_monitor_attach(m, &o);
  }
  ptosim_status st = mon ? ptosim_monitor_run(mon, p, a) : ptosim_program_run_threads(p, m, a, threads);
  *nrep = 0;
  first[0] = 0;
  if (mon) {
    ptosim_monitor_finish(mon);
    *nrep = ptosim_monitor_nreports(mon);
    if (*nrep) snprintf(first, 64, "%s", ptosim_monitor_report(mon, 0)->rule);
  }
  if (st != PTOSIM_OK) snprintf(first, 64, "%s", ptosim_last_diag(m)->rule);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

/* res of block b (sub-block s) after `rounds` rounds: acc = 7 acc + 10 ((b + 1) % n) + r. */
static int32_t syncall_want(int b, int n, int rounds) {
  uint32_t acc = 0;
  for (int r = 0; r < rounds; r++) acc = acc * 7u + (uint32_t)(10 * ((b + 1) % n) + r);
  return (int32_t)acc;
}

static const char *const HARD_AIV = "      pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<aiv_only>\n";
static const char *const HARD_MIX = "      pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>\n";
static const char *const SOFT_AIV = "      pto.syncall(%ws : !pto.ptr<i32, gm>) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>\n";
static const char *const SOFT_MIX = "      pto.syncall(%ws : !pto.ptr<i32, gm>) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<mix>\n";

/* The results against the reference, no finding with both barriers, the soft counter
 * (rounds * 2 barriers * participants), the same bits on 2 threads; each barrier removed:
 * the races it prevented are reported (without the first, block b's load of buf[b + 1]
 * may come first: a WAR, else a RAW). */
static void test_syncall_text(void) {
  static const struct {
    const char *arch, *sync;
    int vec, per_block; /* vector-only kernel; soft participants per block */
  } cases[] = {{"a5", NULL, 1, 1}, {"a5", NULL, 0, 3}, {"a2a3", NULL, 0, 3}, {"a5", NULL, 1, 1}, {"a2a3", NULL, 0, 3}};
  const char *syncs[] = {HARD_AIV, HARD_MIX, HARD_MIX, SOFT_AIV, SOFT_MIX};
  static char src[4096];
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int blocks = 1; blocks <= 5; blocks += 2)
      for (int threads = 1; threads <= 2; threads++) {
        int rounds = 3, nrep, soft = c >= 3, nres = cases[c].vec ? 1 : 2;
        char first[64];
        int32_t bufv[64] = {0}, res[128] = {0}, ws[16] = {0};
        syncall_kernel(src, sizeof src, cases[c].arch, cases[c].vec, syncs[c], rounds, 0);
        ptosim_status st = run_syncall(src, cases[c].arch[1] == '5' ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3, blocks, threads,
                                       bufv, res, ws, &nrep, first);
        CHECK_MSG(st == PTOSIM_OK && nrep == 0, "case %zu blocks %d threads %d: status %d, %d reports (%s)", c, blocks, threads, (int)st,
                  nrep, first);
        int bad = 0;
        for (int b = 0; b < blocks; b++)
          for (int s = 0; s < nres; s++) bad += res[b * nres + s] != syncall_want(b, blocks, rounds);
        for (int i = blocks * nres; i < 128; i++) bad += res[i] != 0; /* untouched */
        CHECK_MSG(!bad, "case %zu blocks %d: %d wrong results", c, blocks, bad);
        CHECK_MSG(ws[0] == (soft ? rounds * 2 * blocks * cases[c].per_block : 0) && ws[1] == 0, "case %zu: counter %d", c, ws[0]);
        for (int drop = 1; drop <= 2 && blocks > 1 && threads == 1; drop++) {
          syncall_kernel(src, sizeof src, cases[c].arch, cases[c].vec, syncs[c], rounds, drop);
          memset(res, 0, sizeof res);
          memset(ws, 0, sizeof ws);
          st = run_syncall(src, cases[c].arch[1] == '5' ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3, blocks, 1, bufv, res, ws, &nrep, first);
          CHECK_MSG(st == PTOSIM_OK && nrep > 0 && (drop == 1 ? !strncmp(first, "race.", 5) : !strcmp(first, "race.war")),
                    "case %zu blocks %d without barrier %d: status %d, %d reports, first %s", c, blocks, drop, (int)st, nrep, first);
        }
      }
}

/* A block that returns without reaching the barrier, more soft participants than cores:
 * sync.deadlock, not a hang. */
static void test_syncall_deadlock(void) {
  static char src[4096];
  char first[64];
  int nrep;
  int32_t bufv[64] = {0}, res[128] = {0}, ws[16] = {0};
  syncall_kernel(src, sizeof src, "a5", 1, HARD_AIV, 2, 0);
  char *skip = strstr(src, "    scf.for"); /* block 0 returns at once */
  memmove(skip + 76, skip, strlen(skip) + 1);
  memcpy(skip, "    %z = arith.cmpi eq, %blk, %c0 : i64\n    scf.if %z {\n      return\n    }\n    ", 76);
  ptosim_status st = run_syncall(src, PTOSIM_TARGET_A5, 3, 1, bufv, res, ws, &nrep, first);
  CHECK_MSG(st == PTOSIM_E_FAULT && !strcmp(first, "sync.deadlock"), "status %d rule %s", (int)st, first);
  const char *soft = "      pto.syncall(%ws, %u : !pto.ptr<i32, gm>, i32) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>\n";
  char line[256];
  snprintf(line, sizeof line, "%s", soft);
  syncall_kernel(src, sizeof src, "a5", 1, line, 1, 0);
  char *body = strstr(src, "    %blk");
  memmove(body + 35, body, strlen(body) + 1);
  memcpy(body, "    %u = arith.constant 3 : i32\n   ", 35); /* 3 participants of 2 blocks */
  st = run_syncall(src, PTOSIM_TARGET_A5, 2, 1, bufv, res, ws, &nrep, first);
  CHECK_MSG(st == PTOSIM_E_FAULT && !strcmp(first, "sync.deadlock"), "used_cores 3 of 2: status %d rule %s", (int)st, first);
  CHECK(ws[0] == 2);
}

/* The C API: arrivals block until the last participant arrives (a machine run op by op
 * counts all three cores of each block); non-participants pass; the parameter rules. */
static void test_syncall_api(void) {
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 0);
  ptosim_syncall_params aiv = {.core_type = PTOSIM_SYNC_AIV_ONLY}, mix = {.core_type = PTOSIM_SYNC_MIX};
  CHECK(ptosim_syncall(e.aic, &aiv) == PTOSIM_OK); /* the cube core is not in an aiv_only barrier */
  CHECK(ptosim_syncall(e.aiv0, &aiv) == PTOSIM_BLOCKED);
  CHECK(ptosim_syncall(e.aiv0, &aiv) == PTOSIM_BLOCKED); /* asking again does not arrive twice */
  CHECK(ptosim_syncall(e.aiv1, &aiv) == PTOSIM_OK);
  CHECK(ptosim_syncall(e.aiv0, &aiv) == PTOSIM_OK);
  CHECK(ptosim_syncall(e.aiv1, &mix) == PTOSIM_BLOCKED && ptosim_syncall(e.aic, &mix) == PTOSIM_BLOCKED);
  CHECK(ptosim_syncall(e.aiv0, &mix) == PTOSIM_OK && ptosim_syncall(e.aic, &mix) == PTOSIM_OK && ptosim_syncall(e.aiv1, &mix) == PTOSIM_OK);
  /* soft: the counter at the workspace counts arrivals; used_cores 2 */
  int32_t *ctr = (int32_t *)e.gm;
  *ctr = 5; /* mid-way through a round of 2: 5 -> this round ends at 6 */
  ptosim_syncall_params soft = {.soft = 1, .core_type = PTOSIM_SYNC_AIC_ONLY, .workspace = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I32, e.gm_addr),
                                .workspace_elems = 16, .used_cores = 2};
  CHECK(ptosim_syncall(e.aic, &soft) == PTOSIM_OK && *ctr == 6);
  CHECK(ptosim_syncall(e.aic, &soft) == PTOSIM_BLOCKED && *ctr == 7); /* round 7..8 */
  *ctr = 8; /* another participant's arrival */
  CHECK(ptosim_syncall(e.aic, &soft) == PTOSIM_OK && *ctr == 8);
  ptosim_syncall_params bad = soft;
  bad.workspace.dtype = PTOSIM_DT_F32;
  CHECK(ptosim_syncall(e.aic, &bad) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "syncall.workspace"));
  bad = soft, bad.workspace_elems = 15;
  CHECK(ptosim_syncall(e.aic, &bad) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "syncall.workspace"));
  bad = soft, bad.used_cores = -1;
  CHECK(ptosim_syncall(e.aic, &bad) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "syncall.used_cores"));
  bad = soft, bad.core_type = (ptosim_sync_core_type)3;
  CHECK(ptosim_syncall(e.aic, &bad) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "syncall.core_type"));
  bad = soft;
  for (int k = 0; k < PT_BARRIER_CHANNELS; k++) { /* a channel per workspace */
    bad.workspace.addr = e.gm_addr + 64 * (uint64_t)(k + 1);
    CHECK(ptosim_syncall(e.aic, &bad) == (k < PT_BARRIER_CHANNELS - 3 ? PTOSIM_BLOCKED : PTOSIM_E_VERIFY));
    e.aic->bar.waiting = 0;
  }
  CHECK(!strcmp(rule(&e), "syncall.channels"));
  env_free(&e);
  env_init(&e, PTOSIM_TARGET_A5, 0);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.schedule = PTOSIM_SCHEDULE_EAGER;
  ptosim_monitor *eager = ptosim_monitor_attach(e.m, &o);
  CHECK(ptosim_syncall(e.aiv0, &aiv) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "syncall.schedule"));
  ptosim_monitor_free(eager);
  env_free(&e);
}

/* tsync with operands orders what every pipe did before it (a load on MTE2 before a store
 * on MTE3 of the same UB bytes); with none it orders nothing. */
static void test_tsync(void) {
  for (int events = 0; events < 2; events++) {
    env e;
    env_init(&e, PTOSIM_TARGET_A5, 1);
    CHECK(dma(&e, e.aiv0, 1, 0, 0) == PTOSIM_OK);
    ptosim_tsync_params t = {events};
    CHECK(ptosim_tsync(e.aiv0, &t) == PTOSIM_OK);
    CHECK(dma(&e, e.aiv0, 0, 1024, 0) == PTOSIM_OK);
    CHECK_MSG(events ? findings(&e, NULL) == 0 : findings(&e, "race.raw"), "%d events", events);
    env_free(&e);
  }
  env e;
  env_init(&e, PTOSIM_TARGET_A5, 0);
  ptosim_tsync_params t = {-1};
  CHECK(ptosim_tsync(e.aiv0, &t) == PTOSIM_E_VERIFY && !strcmp(rule(&e), "api.args"));
  env_free(&e);
}

#define VT_SYNC "!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* Text: a view workspace (soft barrier of 2 blocks: the counter reaches 2), and a tile
 * copied buf -> UB -> res with pto.tsync ins(%t) between the load (MTE2) and the store
 * (MTE3): no finding; without the tsync, a RAW on the tile. */
static void test_sync_text_forms(void) {
  static char src[4096];
  for (int with_tsync = 0; with_tsync < 2; with_tsync++) {
    snprintf(src, sizeof src,
             "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
             "  func.func @k(%%buf: !pto.ptr<i32, gm>, %%res: !pto.ptr<i32, gm>, %%ws: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
             "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n    %%c16 = arith.constant 16 : index\n"
             "    %%w = pto.make_tensor_view %%ws, shape = [%%c16], strides = [%%c1] : !pto.tensor_view<16xi32>\n"
             "    pto.syncall(%%w : !pto.tensor_view<16xi32>) mode = #pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<aiv_only>\n"
             "    %%blk = pto.get_block_idx\n    %%b = arith.index_cast %%blk : i64 to index\n    %%o = arith.muli %%b, %%c16 : index\n"
             "    %%t = pto.alloc_tile addr = %%c0 : " VT_SYNC "\n"
             "    %%sp = pto.addptr %%buf, %%o : !pto.ptr<i32, gm> -> !pto.ptr<i32, gm>\n"
             "    %%dp = pto.addptr %%res, %%o : !pto.ptr<i32, gm> -> !pto.ptr<i32, gm>\n"
             "    %%sv = pto.make_tensor_view %%sp, shape = [%%c1, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<1x16xi32>\n"
             "    %%dv = pto.make_tensor_view %%dp, shape = [%%c1, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<1x16xi32>\n"
             "    pto.tload ins(%%sv : !pto.tensor_view<1x16xi32>) outs(%%t : " VT_SYNC ")\n%s"
             "    pto.tstore ins(%%t : " VT_SYNC ") outs(%%dv : !pto.tensor_view<1x16xi32>)\n"
             "    return\n  }\n}\n",
             with_tsync ? "    pto.tsync ins(%t : " VT_SYNC ")\n" : "");
    int32_t bufv[64], res[128] = {0}, ws[16] = {0};
    for (int i = 0; i < 64; i++) bufv[i] = i * 3 - 40;
    char first[64];
    int nrep;
    ptosim_status st = run_syncall(src, PTOSIM_TARGET_A5, 2, 1, bufv, res, ws, &nrep, first);
    CHECK_MSG(st == PTOSIM_OK && (with_tsync ? nrep == 0 : !strcmp(first, "race.raw")), "tsync %d: status %d, %d reports (%s)", with_tsync,
              (int)st, nrep, first);
    int bad = 0;
    for (int i = 0; i < 128; i++) bad += res[i] != (i < 32 ? i * 3 - 40 : 0);
    CHECK(!bad && ws[0] == 2);
  }
}

int main(void) {
  RUN(test_flag_ops);
  RUN(test_parked_waits);
  RUN(test_buf_ops);
  RUN(test_core_sync_ops);
  RUN(test_scalar_ops);
  RUN(test_race_vector_scalar_load);
  RUN(test_race_raw);
  RUN(test_race_war_barrier);
  RUN(test_race_waw_cores);
  RUN(test_race_buf_tokens);
  RUN(test_race_cross_core);
  RUN(test_race_shared_ub);
  RUN(test_init);
  RUN(test_sync_rules);
  RUN(test_timeline);
  RUN(test_examples);
  RUN(test_tile_sync_spellings);
  RUN(test_syncall_text);
  RUN(test_syncall_deadlock);
  RUN(test_syncall_api);
  RUN(test_tsync);
  RUN(test_sync_text_forms);
  return pt_test_finish();
}
