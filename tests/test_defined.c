/* Definedness (src/check/defined.c, shadow.c): never-written local bytes are findings only
 * where their values become observable (GM output, a scalar), each run of the kernel
 * checked against a naive reference; severities, the summary, one report per pair of
 * program sites across blocks, and the bounded shadow memory. */
#include <stdlib.h>
#include <string.h>

#include "check/monitor_impl.h"
#include "check/shadow.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

/* Reports of rule r (NULL: all) of a severity (-1: any). */
static int count(const ptosim_monitor *mon, const char *r, int sev) {
  int n = 0;
  for (int i = 0; i < ptosim_monitor_nreports(mon); i++) {
    const ptosim_report *x = ptosim_monitor_report(mon, i);
    n += (!r || !strcmp(x->rule, r)) && (sev < 0 || (int)x->severity == sev);
  }
  return n;
}

static const ptosim_report *find(const ptosim_monitor *mon, const char *r) {
  for (int i = 0; i < ptosim_monitor_nreports(mon); i++)
    if (!strcmp(ptosim_monitor_report(mon, i)->rule, r)) return ptosim_monitor_report(mon, i);
  return NULL;
}

/* ---- the cube kernel with padding rows (tests/data/gemm_pad.pto) --------------------------------- */

enum { M = 100, MP = 112, K = 64, N = 128 };

static uint16_t f16_of_small(int v) { /* exact f16 of 0..7 */
  if (!v) return 0;
  int e = 0;
  while ((v >> e) > 1) e++;
  return (uint16_t)((15 + e) << 10 | ((v - (1 << e)) << (10 - e)));
}

/* Run gemm_pad.pto, or with `store_rows` rows stored (MP: the padding rows reach GM), with
 * `checks`; returns the monitor (finished) and the result in c. */
static ptosim_monitor *run_pad(int store_rows, unsigned checks, int eager, float *c, ptosim_machine **mp, int *ok) {
  static uint16_t a[M * K], b[K * N];
  for (int i = 0; i < M * K; i++) a[i] = f16_of_small(i % 7);
  for (int i = 0; i < K * N; i++) b[i] = f16_of_small(i % 5);
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/data/gemm_pad.pto", PTOSIM_SOURCE_DIR);
  size_t len;
  char *text = pt_test_slurp(path, &len);
  *ok = 0;
  if (!text) return NULL;
  if (store_rows == MP) { /* the FIXPIPE stores the padding rows too */
    char *s = strstr(text, "%c100, %c128, %c112");
    if (s) memcpy(s, "%c112", 5);
  }
  ptosim_program *p = pt_test_load(text, len);
  free(text);
  if (!p) return NULL;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.checks = checks;
  o.schedule = eager ? PTOSIM_SCHEDULE_EAGER : PTOSIM_SCHEDULE_PROGRAM;
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_arg args[3];
  memset(args, 0, sizeof args);
  memset(c, 0, (size_t)MP * N * sizeof *c);
  ptosim_gm_map(m, a, sizeof a, &args[0].gm_addr);
  ptosim_gm_map(m, b, sizeof b, &args[1].gm_addr);
  ptosim_gm_map(m, c, (size_t)store_rows * N * sizeof *c, &args[2].gm_addr);
  *ok = ptosim_monitor_run(mon, p, args) == PTOSIM_OK;
  ptosim_monitor_finish(mon);
  ptosim_program_free(p);
  *mp = m;
  return mon;
}

static void test_padding_rows(void) {
  static float c[MP * N];
  for (int eager = 0; eager < 2; eager++) {
    ptosim_machine *m;
    int ok;
    ptosim_monitor *mon = run_pad(M, PTOSIM_CHECK_ALL, eager, c, &m, &ok);
    CHECK(mon && ok);
    if (!mon) continue;
    CHECK_MSG(ptosim_monitor_nreports(mon) == 0, "padding rows are findings (%d, eager %d)", ptosim_monitor_nreports(mon), eager);
    int bad = 0; /* naive reference: sum over k of a[i][k] * b[k][j], small integers (exact) */
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        float want = 0;
        for (int k = 0; k < K; k++) want += (float)((i * K + k) % 7) * (float)((k * N + j) % 5);
        bad += c[i * N + j] != want;
      }
    CHECK_MSG(bad == 0, "%d wrong elements (after the second run, the first run's output)", bad);
    ptosim_monitor_free(mon);
    ptosim_machine_free(m);
  }
  /* The strict listing still names the padding read, as a warning. */
  ptosim_machine *m;
  int ok;
  ptosim_monitor *mon = run_pad(M, PTOSIM_CHECK_ALL | PTOSIM_CHECK_INIT_READS, 0, c, &m, &ok);
  const ptosim_report *r = mon ? find(mon, "init.read") : NULL;
  CHECK(ok && r && r->loc.line == 31 && r->severity == PTOSIM_SEV_WARNING && count(mon, NULL, PTOSIM_SEV_ERROR) == 0);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
}

/* Storing the padding rows makes them observable: an error naming the L0A load (the first
 * read of the never-written rows) and the FIXPIPE store that reaches GM. */
static void test_padding_stored(void) {
  static float c[MP * N];
  ptosim_machine *m;
  int ok;
  ptosim_monitor *mon = run_pad(MP, PTOSIM_CHECK_ALL, 0, c, &m, &ok);
  const ptosim_report *r = mon ? find(mon, "init.output") : NULL;
  CHECK(ok && r && r->severity == PTOSIM_SEV_ERROR && r->loc.line == 31 && r->other.line == 41);
  CHECK(mon && ptosim_monitor_count(mon, PTOSIM_SEV_ERROR) == 1);
  /* the first run's output is what the caller gets: rows M..MP-1 are 0 * b = 0 */
  int nz = 0;
  for (int i = M * N; i < MP * N; i++) nz += c[i] != 0;
  CHECK(nz == 0);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
}

/* ---- scalars ------------------------------------------------------------------------------- */

/* A vector kernel loads a UB word; `mask` of it decides whether out[0] is written. */
static ptosim_monitor *run_scalar(int written, int mask, int32_t *out, ptosim_machine **mp) {
  char src[1400];
  snprintf(src, sizeof src,
           "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
           "func.func @k(%%out: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
           "  %%c0 = arith.constant 0 : i64\n"
           "  %%z = arith.constant 0 : i32\n"
           "  %%one = arith.constant 1 : i32\n"
           "  %%mask = arith.constant %d : i32\n"
           "  %%ub = pto.castptr %%c0 : i64 -> !pto.ptr<i32, ub>\n"
           "  %s\n"
           "  %%v = pto.load %%ub[%%c0] : !pto.ptr<i32, ub> -> i32\n"
           "  %%m = arith.andi %%v, %%mask : i32\n"
           "  %%nz = arith.cmpi ne, %%m, %%z : i32\n"
           "  scf.if %%nz {\n"
           "    pto.store %%one, %%out[%%c0] : !pto.ptr<i32, gm>, i32\n"
           "  }\n"
           "  return\n"
           "}\n}\n",
           mask, written ? "pto.store %z, %ub[%c0] : !pto.ptr<i32, ub>, i32" : "");
  ptosim_program *p = pt_test_load(src, strlen(src));
  CHECK(p != NULL);
  if (!p) return NULL;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor *mon = ptosim_monitor_attach(m, NULL);
  ptosim_arg arg;
  memset(&arg, 0, sizeof arg);
  *out = 5;
  ptosim_gm_map(m, out, sizeof *out, &arg.gm_addr);
  CHECK(ptosim_monitor_run(mon, p, &arg) == PTOSIM_OK);
  ptosim_monitor_finish(mon);
  ptosim_program_free(p);
  *mp = m;
  return mon;
}

static void test_scalar_decision(void) {
  for (int written = 0; written < 2; written++) {
    int32_t out;
    ptosim_machine *m;
    ptosim_monitor *mon = run_scalar(written, 1, &out, &m);
    if (!mon) continue;
    CHECK(out == 5); /* the first run reads 0: no store */
    if (written) {
      CHECK(ptosim_monitor_nreports(mon) == 0);
    } else {
      const ptosim_report *s = find(mon, "init.scalar"), *o = find(mon, "init.output");
      CHECK(s && s->loc.line == 9 && s->other.line == 9 && s->severity == PTOSIM_SEV_ERROR);
      CHECK(o && o->loc.line == 9 && o->other.line == 0); /* through the branch: only the second run stores */
    }
    ptosim_monitor_free(mon);
    ptosim_machine_free(m);
  }
  /* A scalar read of undefined bytes is a finding even when its use masks them away. */
  int32_t out;
  ptosim_machine *m;
  ptosim_monitor *mon = run_scalar(0, 0, &out, &m);
  CHECK(mon && find(mon, "init.scalar") && !find(mon, "init.output"));
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
}

/* A loop that reads the same two never-written UB ranges 1000 times keeps two fill ranges
 * (bounded by the bytes, not the reads), and reports them once, as reaching GM (the output holds what the last copy read). */
static void test_fill_bounded(void) {
  const char *src = "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
                    "func.func @k(%g: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
                    "  %c0 = arith.constant 0 : i64\n  %c1 = arith.constant 1 : i64\n  %c64 = arith.constant 64 : i64\n"
                    "  %c1000 = arith.constant 1000 : i64\n  %c2048 = arith.constant 2048 : i64\n"
                    "  %u0 = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n  %u1 = pto.castptr %c2048 : i64 -> !pto.ptr<f32, ub>\n"
                    "  scf.for %i = %c0 to %c1000 step %c1 {\n"
                    "    pto.copy_ubuf_to_gm %u0, %g, %c0, %c1, %c64, %c0, %c64, %c64 : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64, i64, i64\n"
                    "    pto.copy_ubuf_to_gm %u1, %g, %c0, %c1, %c64, %c0, %c64, %c64 : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64, i64, i64\n"
                    "  }\n  return\n}\n}\n";
  ptosim_program *p = pt_test_load(src, strlen(src));
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor *mon = ptosim_monitor_attach(m, NULL);
  static float g[512];
  ptosim_arg arg;
  memset(&arg, 0, sizeof arg);
  ptosim_gm_map(m, g, sizeof g, &arg.gm_addr);
  CHECK(ptosim_monitor_run(mon, p, &arg) == PTOSIM_OK);
  ptosim_monitor_finish(mon);
  CHECK_MSG(mon->def.nfill == 2, "%zu fill ranges", mon->def.nfill);
  /* GM gets verbatim copies of never-written UB: a warning naming the last writer */
  const ptosim_report *r = find(mon, "init.copied");
  CHECK(r && ptosim_monitor_nreports(mon) == 1 && r->loc.line == 12 && r->severity == PTOSIM_SEV_WARNING);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* ---- severities, summary, one report across blocks ------------------------------------------------ */

static void test_blocks_and_severity(void) {
  /* Every block stores its index to out[0]: a WAW between blocks, and a flag nobody waits for. */
  const char *src = "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
                    "func.func @k(%out: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
                    "  %c0 = arith.constant 0 : i64\n"
                    "  %b = pto.get_block_idx\n"
                    "  %one = arith.trunci %b : i64 to i32\n"
                    "  pto.store %one, %out[%c0] : !pto.ptr<i32, gm>, i32\n"
                    "  pto.set_flag[\"PIPE_V\", \"PIPE_MTE2\", \"EVENT_ID1\"]\n"
                    "  return\n"
                    "}\n}\n";
  ptosim_program *p = pt_test_load(src, strlen(src));
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 50);
  ptosim_monitor *mon = ptosim_monitor_attach(m, NULL);
  int32_t out = 0;
  ptosim_arg arg;
  memset(&arg, 0, sizeof arg);
  ptosim_gm_map(m, &out, sizeof out, &arg.gm_addr);
  CHECK(ptosim_monitor_run(mon, p, &arg) == PTOSIM_OK);
  ptosim_monitor_finish(mon);
  const ptosim_report *w = find(mon, "race.waw"), *u = find(mon, "sync.unwaited");
  CHECK(ptosim_monitor_nreports(mon) == 2);
  CHECK(w && w->count == 49 && w->nblocks == 49 && w->first_block == 1 && w->last_block == 49 && w->severity == PTOSIM_SEV_ERROR);
  CHECK(u && u->count == 50 && u->nblocks == 50 && u->severity == PTOSIM_SEV_WARNING);
  CHECK(ptosim_monitor_count(mon, PTOSIM_SEV_ERROR) == 1 && ptosim_monitor_count(mon, PTOSIM_SEV_WARNING) == 1);
  char buf[512] = "";
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  ptosim_monitor_print_summary(mon, f);
  fclose(f);
  CHECK_MSG(!strcmp(buf, "ptosim: FINDINGS: 49 errors from 1 context (race.waw 1), 50 warnings from 1 context (sync.unwaited 1)\n"),
            "%s", buf);
  /* stats JSON: a version and the findings as fields */
  static char js[1 << 16];
  f = fmemopen(js, sizeof js - 1, "w");
  ptosim_monitor_write_stats_json(mon, f);
  fclose(f);
  CHECK(strstr(js, "\"version\": 2,") && strstr(js, "\"time_unit\": \"cycle\""));
  CHECK(strstr(js, "{\"rule\": \"race.waw\", \"severity\": \"error\", \"file\": \"t.pto\", \"line\": 6, \"col\": 3"));
  CHECK(strstr(js, "\"count\": 49, \"blocks\": 49, \"first_block\": 1, \"last_block\": 49"));
  CHECK(strstr(js, "\"errors\": 1,\n  \"warnings\": 1\n}"));
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* ---- bounded shadow memory --------------------------------------------------------------------- */

static void no_hazard(void *u, pt_hazard h, uint32_t o, uint64_t a, uint64_t l) {
  (void)u, (void)h, (void)o, (void)a, (void)l;
}

/* Re-accessing the same bytes keeps the state table bounded: 400000 ops on the same 4
 * KiB by three agents (each op a new epoch, so a new state) never hold more than 65536
 * states (collections come after at most max(kept, 4096, 64 per page) new states). */
static void test_shadow_bounded(void) {
  pt_clocks *k = pt_clocks_new(1);
  pt_shadow *sh = pt_shadow_new();
  uint32_t most = 0;
  int fails = 0;
  for (uint32_t i = 0; i < 400000; i++) {
    fails += pt_shadow_begin_op(sh) != 0;
    pt_accessor who = {.k = k, .agent = (int)(i % 3), .epoch = pt_epoch_make(0, (int)(i % 3), i + 1), .site = 1 + i % 5,
                       .race = 1, .init = 1, .taint = 1, .found = no_hazard};
    fails += pt_shadow_access(sh, 1, 1, (i * 64) % 4096, 256, 1 + (int)(i % 2), &who) != 0;
    if (pt_shadow_nstates(sh) > most) most = pt_shadow_nstates(sh);
  }
  CHECK(fails == 0);
  CHECK_MSG(most <= 65536 + 8, "the state table grew to %u", most);
  pt_shadow_free(sh);
  pt_clocks_free(k);
}

int main(void) {
  RUN(test_padding_rows);
  RUN(test_padding_stored);
  RUN(test_scalar_decision);
  RUN(test_fill_bounded);
  RUN(test_blocks_and_severity);
  RUN(test_shadow_bounded);
  return pt_test_finish();
}
