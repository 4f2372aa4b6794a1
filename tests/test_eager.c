/* The eager schedule (ptosim_monitor_opts.schedule, `ptosim run --schedule=eager`): ops
 * run when their pipe would run them on the timeline, reading memory at their start and
 * landing their writes at their end. Every case runs four ways: program order and eager,
 * each with and without the synchronization. Program order and the synchronized eager run
 * give the written result; the eager run without it gives the one the timeline implies
 * (the stale bytes of a RAW, the early overwrite of a WAR, the late write of a WAW). */
#include <math.h>
#include <string.h>

#include "core/undo.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"
#include "ptosim/tile_move.h"

#define GM_BYTES 65536

typedef struct env {
  ptosim_machine *m;
  ptosim_core *aic, *aiv0, *aiv1;
  ptosim_monitor *mon;
  uint8_t gm[GM_BYTES];
  uint64_t gm_addr;
} env;

/* GM bytes [0, 256) hold P (i + 1), everything else 0; UB starts zeroed. */
static void env_init(env *e, int eager) {
  memset(e, 0, sizeof *e);
  e->m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  e->aic = ptosim_core_of(e->m, 0, PTOSIM_AIC);
  e->aiv0 = ptosim_core_of(e->m, 0, PTOSIM_AIV0);
  e->aiv1 = ptosim_core_of(e->m, 0, PTOSIM_AIV1);
  for (int i = 0; i < 256; i++) e->gm[i] = (uint8_t)(i + 1);
  ptosim_gm_map(e->m, e->gm, sizeof e->gm, &e->gm_addr);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.schedule = eager ? PTOSIM_SCHEDULE_EAGER : PTOSIM_SCHEDULE_PROGRAM;
  e->mon = ptosim_monitor_attach(e->m, &o);
}

static void env_free(env *e) {
  ptosim_monitor_free(e->mon);
  ptosim_machine_free(e->m);
}

/* Copy `len` bytes between GM offset g and UB offset u of a vector core. */
static ptosim_status dma(env *e, ptosim_core *c, int to_ub, uint64_t g, uint64_t u, int64_t len) {
  ptosim_dma_params p = {.len_burst = len, .nburst = {1, len, len}};
  ptosim_ptr gp = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_U8, e->gm_addr + g), up = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_U8, u);
  p.src = to_ub ? gp : up;
  p.dst = to_ub ? up : gp;
  return to_ub ? ptosim_mte_gm_ub(c, &p) : ptosim_mte_ub_gm(c, &p);
}

static void sync_pair(ptosim_core *c, ptosim_pipe s, ptosim_pipe d) {
  ptosim_flag_params f = {s, d, 0};
  CHECK(ptosim_set_flag(c, &f) == PTOSIM_OK && ptosim_wait_flag(c, &f) == PTOSIM_OK);
}

static void barrier_all(ptosim_core *c) {
  ptosim_pipe_params b = {PTOSIM_PIPE_ALL};
  CHECK(ptosim_barrier(c, &b) == PTOSIM_OK);
}

/* 1 if the 256 bytes at p are P, 0 if they are all zero, -1 otherwise. */
static int which(const uint8_t *p) {
  int is_p = 1, is_zero = 1;
  for (int i = 0; i < 256; i++) {
    is_p &= p[i] == (uint8_t)(i + 1);
    is_zero &= p[i] == 0;
  }
  return is_p ? 1 : is_zero ? 0 : -1;
}

/* Run body four ways (program order and eager, each without and with its sync) and check
 * what it observes after the drain: `right` except eager without sync, which gives
 * `eager_unsynced`. */
static void four_ways(const char *name, int64_t (*body)(env *e, int synced), int64_t right, int64_t eager_unsynced) {
  for (int eager = 0; eager < 2; eager++)
    for (int synced = 0; synced < 2; synced++) {
      env e;
      env_init(&e, eager);
      int64_t got = body(&e, synced);
      int64_t want = eager && !synced ? eager_unsynced : right;
      CHECK_MSG(got == want, "%s eager=%d synced=%d: got 0x%llx, want 0x%llx", name, eager, synced, (long long)got,
                (long long)want);
      env_free(&e);
    }
}

/* RAW: MTE2 loads P into UB, MTE3 stores UB to GM[1024]. Without the flag MTE3 starts
 * before the load has landed and stores the zeros UB held. */
static int64_t raw(env *e, int synced) {
  CHECK(dma(e, e->aiv0, 1, 0, 0, 256) == PTOSIM_OK);
  if (synced) sync_pair(e->aiv0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3);
  CHECK(dma(e, e->aiv0, 0, 1024, 0, 256) == PTOSIM_OK);
  CHECK(ptosim_monitor_drain(e->mon) == PTOSIM_OK);
  return which(e->gm + 1024);
}

/* WAR: MTE3 is busy with a 32 KB store, then is asked to store UB[0, 256) (zeros) to
 * GM[1024]; MTE2 then reloads UB[0, 256) with P. Without the flag the reload lands before
 * MTE3 gets to the store, which then stores P. */
static int64_t war(env *e, int synced) {
  CHECK(dma(e, e->aiv0, 0, 32768, 4096, 32768) == PTOSIM_OK);
  CHECK(dma(e, e->aiv0, 0, 1024, 0, 256) == PTOSIM_OK);
  if (synced) sync_pair(e->aiv0, PTOSIM_PIPE_MTE3, PTOSIM_PIPE_MTE2);
  CHECK(dma(e, e->aiv0, 1, 0, 0, 256) == PTOSIM_OK);
  CHECK(ptosim_monitor_drain(e->mon) == PTOSIM_OK);
  return which(e->gm + 1024);
}

/* WAW: MTE3 stores UB (P) to GM[1024], then the scalar unit stores 0x55555555 to its
 * first word. Without a barrier the scalar store happens at issue and the DMA lands after
 * it. */
static int64_t waw(env *e, int synced) {
  CHECK(dma(e, e->aiv0, 1, 0, 0, 256) == PTOSIM_OK);
  sync_pair(e->aiv0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3);
  CHECK(dma(e, e->aiv0, 0, 1024, 0, 256) == PTOSIM_OK);
  if (synced) barrier_all(e->aiv0);
  uint32_t v = 0x55555555u, got;
  ptosim_scalar_mem_params st = {ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I32, e->gm_addr + 1024), &v, PTOSIM_PIPE_S};
  CHECK(ptosim_store_scalar(e->aiv0, &st) == PTOSIM_OK);
  CHECK(ptosim_monitor_drain(e->mon) == PTOSIM_OK);
  memcpy(&got, e->gm + 1024, 4);
  return got;
}

/* A scalar load of UB after a DMA into it: without a barrier it reads before the DMA
 * lands. */
static int64_t scalar_load(env *e, int synced) {
  CHECK(dma(e, e->aiv0, 1, 0, 0, 256) == PTOSIM_OK);
  if (synced) barrier_all(e->aiv0);
  uint32_t v = 0xFFFFFFFFu;
  ptosim_scalar_mem_params ld = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I32, 0), &v, PTOSIM_PIPE_S};
  CHECK(ptosim_load_scalar(e->aiv0, &ld) == PTOSIM_OK);
  return v;
}

/* Across cores through GM: AIV0 stores UB (P) to GM[1024]; AIV1 loads GM[1024] and stores
 * it to GM[2048]. Synchronized by AIV0 -> AIC -> AIV1 signals; without them AIV1 copies
 * the zeros GM held. */
static int64_t cross_core(env *e, int synced) {
  CHECK(dma(e, e->aiv0, 1, 0, 0, 256) == PTOSIM_OK);
  sync_pair(e->aiv0, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3);
  CHECK(dma(e, e->aiv0, 0, 1024, 0, 256) == PTOSIM_OK);
  if (synced) {
    ptosim_core_sync_params up = {PTOSIM_PIPE_MTE3, 3}, cw = {PTOSIM_PIPE_S, 3}, down = {PTOSIM_PIPE_S, 16 + 4},
                            vw = {PTOSIM_PIPE_MTE2, 4};
    CHECK(ptosim_sync_set(e->aiv0, &up) == PTOSIM_OK && ptosim_sync_wait(e->aic, &cw) == PTOSIM_OK);
    CHECK(ptosim_sync_set(e->aic, &down) == PTOSIM_OK && ptosim_sync_wait(e->aiv1, &vw) == PTOSIM_OK);
  }
  CHECK(dma(e, e->aiv1, 1, 1024, 0, 256) == PTOSIM_OK);
  sync_pair(e->aiv1, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3);
  CHECK(dma(e, e->aiv1, 0, 2048, 0, 256) == PTOSIM_OK);
  CHECK(ptosim_monitor_drain(e->mon) == PTOSIM_OK);
  return which(e->gm + 2048);
}

static void test_hazards(void) {
  four_ways("raw", raw, 1, 0);
  four_ways("war", war, 0, 1);
  four_ways("waw", waw, 0x55555555, 0x04030201);
  four_ways("scalar_load", scalar_load, 0x04030201, 0);
  four_ways("cross_core", cross_core, 1, 0);
}

/* A queued op runs with the special registers of its issue: a mad without a sat clause
 * issued under CTRL[48] = 1 (no saturation) gives +inf for an inf input even when CTRL is
 * rewritten before the mad runs. Its result is in L0C only once the schedule drains. */
static void test_registers_at_issue(void) {
  env e;
  env_init(&e, 1);
  uint16_t a[256] = {0}, b[256];
  a[0] = 0x7C00; /* +inf at (0, 0) */
  for (int i = 0; i < 256; i++) b[i] = 0x3C00;
  ptosim_mem_write(e.aic, PTOSIM_L0A, 0, a, sizeof a);
  ptosim_mem_write(e.aic, PTOSIM_L0B, 0, b, sizeof b);
  float c = 1.0f;
  ptosim_mem_write(e.aic, PTOSIM_L0C, 0, &c, sizeof c);
  ptosim_mad_params p = {.lhs = ptosim_ptr_make(PTOSIM_L0A, PTOSIM_DT_F16, 0),
                         .rhs = ptosim_ptr_make(PTOSIM_L0B, PTOSIM_DT_F16, 0),
                         .dst = ptosim_ptr_make(PTOSIM_L0C, PTOSIM_DT_F32, 0),
                         .m = 16, .n = 16, .k = 16};
  CHECK(ptosim_mad(e.aic, &p) == PTOSIM_OK);
  ptosim_loop_reg_params sat = {.value = 0}; /* CTRL[48] = 0: saturate */
  CHECK(ptosim_set_ctrl(e.aic, &sat) == PTOSIM_OK);
  ptosim_mem_read(e.aic, PTOSIM_L0C, 0, &c, sizeof c);
  CHECK(c == 1.0f); /* still in flight */
  CHECK(ptosim_monitor_drain(e.mon) == PTOSIM_OK);
  ptosim_mem_read(e.aic, PTOSIM_L0C, 0, &c, sizeof c);
  CHECK(isinf(c) && c > 0);
  env_free(&e);
}

/* A gather whose index tile is still being loaded when it is issued: its dry run reads the
 * indices UB held before (out of range), fails, and succeeds once the load has landed. */
static void test_gather_indices_in_flight(void) {
  env e;
  env_init(&e, 1);
  float table[16][8];
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 8; c++) table[r][c] = (float)(r * 100 + c);
  memcpy(e.gm, table, sizeof table);
  int32_t idx[8] = {3, 1, 2, 0, 0, 0, 0, 0}, stale[8];
  memcpy(e.gm + 4096, idx, sizeof idx);
  for (int i = 0; i < 8; i++) stale[i] = 0x7FFFFFFF;
  ptosim_mem_write(e.aiv0, PTOSIM_UB, 0x1000, stale, sizeof stale);
  CHECK(dma(&e, e.aiv0, 1, 4096, 0x1000, 32) == PTOSIM_OK); /* MTE2, like the gather */
  ptosim_mgather_params g;
  memset(&g, 0, sizeof g);
  ptosim_tile t = {.space = PTOSIM_UB, .rows = 4, .cols = 8, .valid_rows = 4, .valid_cols = 8, .fractal = 512,
                   .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX};
  g.dst = t, g.dst.dtype = PTOSIM_DT_F32;
  g.idx = t, g.idx.dtype = PTOSIM_DT_I32, g.idx.addr = 0x1000, g.idx.rows = g.idx.valid_rows = 1, g.idx.valid_cols = 4;
  g.table = (ptosim_gm_view){.addr = e.gm_addr, .dtype = PTOSIM_DT_F32, .shape = {1, 1, 1, 16, 8},
                             .stride = {128, 128, 128, 8, 1}, .layout = PTOSIM_GL_ND};
  CHECK_MSG(ptosim_mgather(e.aiv0, &g) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
  CHECK(ptosim_monitor_drain(e.mon) == PTOSIM_OK);
  float got[4][8];
  ptosim_mem_read(e.aiv0, PTOSIM_UB, 0, got, sizeof got);
  for (int r = 0; r < 4; r++) CHECK_MSG(!memcmp(got[r], table[idx[r]], sizeof got[r]), "row %d", r);
  env_free(&e);
}

/* With program_order (a program without sync, whose compiler inserts it) the schedule is
 * ignored: the RAW of raw() gives the written result. */
static void test_program_order_ignores_eager(void) {
  env e;
  memset(&e, 0, sizeof e);
  e.m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  e.aiv0 = ptosim_core_of(e.m, 0, PTOSIM_AIV0);
  for (int i = 0; i < 256; i++) e.gm[i] = (uint8_t)(i + 1);
  ptosim_gm_map(e.m, e.gm, sizeof e.gm, &e.gm_addr);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.schedule = PTOSIM_SCHEDULE_EAGER;
  o.program_order = 1;
  e.mon = ptosim_monitor_attach(e.m, &o);
  CHECK(dma(&e, e.aiv0, 1, 0, 0, 256) == PTOSIM_OK);
  CHECK(dma(&e, e.aiv0, 0, 1024, 0, 256) == PTOSIM_OK);
  CHECK(which(e.gm + 1024) == 1);
  env_free(&e);
}

/* ---- the GEMM examples: clean as written, wrong without a data-ready wait ---------------- */

/* C = A * B of the example on fixed inputs (small f16 integers: exact products). Returns
 * the run's status. */
static ptosim_status run_gemm(const char *text, size_t len, int eager, float *c) {
  static uint16_t a[128 * 128], b[128 * 128];
  unsigned long long seed = 11;
  for (int i = 0; i < 128 * 128; i++) {
    a[i] = (uint16_t)(0x3C00 + (pt_rand_u64(&seed) % 8) * 0x100);
    b[i] = (uint16_t)(0x3C00 + (pt_rand_u64(&seed) % 8) * 0x100);
  }
  memset(c, 0, 128 * 128 * sizeof *c);
  ptosim_program *p = pt_test_load(text, len);
  if (!p) return PTOSIM_E_VERIFY;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.schedule = eager ? PTOSIM_SCHEDULE_EAGER : PTOSIM_SCHEDULE_PROGRAM;
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_arg args[3];
  memset(args, 0, sizeof args);
  ptosim_gm_map(m, a, sizeof a, &args[0].gm_addr);
  ptosim_gm_map(m, b, sizeof b, &args[1].gm_addr);
  ptosim_gm_map(m, c, 128 * 128 * sizeof *c, &args[2].gm_addr);
  ptosim_status st = ptosim_program_run(p, m, args);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

/* Is the wait at w one of the data-ready waits (MTE2 -> MTE1, MTE1 -> M, M -> FIX)? */
static int data_ready(const char *w) {
  static const char *const pairs[][2] = {{"MTE2", "MTE1"}, {"MTE1", "M"}, {"M", "FIX"}};
  const char *eol = strchr(w, '\n');
  for (int i = 0; i < 3; i++) {
    char pat[64];
    snprintf(pat, sizeof pat, "PIPE_%s%s, %sPIPE_%s%s", pairs[i][0], strstr(w, "_dyn") ? ">" : "\"",
             strstr(w, "_dyn") ? "<" : "\"", pairs[i][1], strstr(w, "_dyn") ? ">" : "\"");
    const char *hit = strstr(w, pat);
    if (hit && hit < eol) return 1;
  }
  return 0;
}

static void check_example(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/examples/%s", PTOSIM_SOURCE_DIR, name);
  size_t len;
  char *text = pt_test_slurp(path, &len);
  CHECK_MSG(text != NULL, "%s", name);
  if (!text) return;
  static float want[128 * 128], got[128 * 128], again[128 * 128];
  CHECK(run_gemm(text, len, 0, want) == PTOSIM_OK);
  CHECK(run_gemm(text, len, 1, got) == PTOSIM_OK);
  CHECK_MSG(!memcmp(want, got, sizeof want), "%s: eager gives another result", name);
  int wrong = 0;
  for (char *w = strstr(text, "pto.wait_flag"); w; w = strstr(w + 1, "pto.wait_flag")) {
    char *eol = strchr(w, '\n'), *mut = malloc(len + 1);
    size_t head = (size_t)(w - text), n = head + len - (size_t)(eol - text);
    memcpy(mut, text, head);
    memcpy(mut + head, eol, len - (size_t)(eol - text) + 1);
    CHECK(run_gemm(mut, n, 0, got) == PTOSIM_OK);
    CHECK_MSG(!memcmp(want, got, sizeof want), "%s: program order without the wait at %zu changes the result", name, head);
    CHECK(run_gemm(mut, n, 1, got) == PTOSIM_OK);
    int differs = memcmp(want, got, sizeof want) != 0;
    if (data_ready(w)) {
      CHECK_MSG(differs, "%s: eager without the data-ready wait at %zu gives the right result", name, head);
      CHECK(run_gemm(mut, n, 1, again) == PTOSIM_OK && !memcmp(got, again, sizeof got)); /* deterministic */
      wrong++;
    }
    free(mut);
  }
  CHECK(wrong >= 3);
  free(text);
}

static void test_examples(void) {
  check_example("gemm.pto");
  check_example("gemm_pingpong.pto");
}

/* The undo log of a strided write: dense or overlapping regions are one piece (their
 * bounding extent), sparse ones one piece each; restore gives the old bytes back. */
static void test_undo_regions(void) {
  static uint8_t mem[1024], old[1024];
  for (int i = 0; i < 1024; i++) mem[i] = old[i] = (uint8_t)(i * 7 + 1);
  const int64_t dense_c[1] = {4}, dense_s[1] = {32}, sparse_s[1] = {64}, many_c[2] = {1000000, 2}, many_s[2] = {0, 32};
  struct { const int64_t *c, *s; int nd; size_t pieces; uint64_t bytes; } cases[] = {
      {dense_c, dense_s, 1, 1, 128}, {dense_c, sparse_s, 1, 4, 128}, {many_c, many_s, 2, 1, 64}};
  for (int k = 0; k < 3; k++) {
    pt_undo u;
    memset(&u, 0, sizeof u);
    pt_undo_note(&u, mem + 100, cases[k].nd, cases[k].c, cases[k].s, 32);
    CHECK_MSG(!u.oom && u.np == cases[k].pieces && u.ndata == cases[k].bytes, "case %d: %zu pieces, %zu bytes", k, u.np, u.ndata);
    memset(mem, 0xEE, sizeof mem); /* the op writes (more than its region: only the region comes back) */
    pt_undo_restore(&u);
    int bad = 0;
    for (int i = 100; i < 100 + (int)cases[k].bytes; i++) bad += mem[i] != old[i];
    CHECK(bad == 0 || k == 1); /* sparse: the gaps are not the region's */
    memcpy(mem, old, sizeof mem);
    pt_bytes_free(&u);
  }
}

/* An overlapping fractal load (millions of 32-byte pieces on the same bytes) is refused as
 * quickly as in program order, and leaves L1 as it was, while a DMA is in flight. */
static void test_overlapping_frac(void) {
  env e;
  env_init(&e, 1);
  uint8_t fill[512], back[512];
  memset(fill, 0x5A, sizeof fill);
  CHECK(ptosim_mem_write(e.aic, PTOSIM_L1, 0, fill, sizeof fill) == PTOSIM_OK);
  CHECK(dma(&e, e.aiv0, 1, 0, 0, 256) == PTOSIM_OK); /* queued: the failing op is retried after landing */
  ptosim_frac_params p = {.src = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F16, e.gm_addr),
                          .dst = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, 0), .mode = PTOSIM_ND2NZ, .n_value = 60000,
                          .d_value = 256, .group_count = 1, .dst_loop2_stride = 0, .dst_loop3_stride = 16};
  CHECK(ptosim_mte_gm_l1_frac(e.aic, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "frac.dst_overlap"));
  CHECK(ptosim_mem_read(e.aic, PTOSIM_L1, 0, back, sizeof back) == PTOSIM_OK && !memcmp(back, fill, sizeof fill));
  env_free(&e);
}

int main(void) {
  RUN(test_undo_regions);
  RUN(test_overlapping_frac);
  RUN(test_hazards);
  RUN(test_registers_at_issue);
  RUN(test_gather_indices_in_flight);
  RUN(test_program_order_ignores_eager);
  RUN(test_examples);
  return pt_test_finish();
}
