/* libFuzzer harness that RUNS programs: load the input as a .pto program, bind every
 * parameter (pointers to small deterministic GM buffers, scalars to small values), run it
 * under the monitor with every checker on, then again without the monitor on a fresh
 * machine, and abort if an invariant breaks:
 *   - a load fails exactly when it counts errors (fuzz_parse checks their diagnostics);
 *   - a failed run has a diagnostic with a rule id at a file:line:col of the text;
 *   - every checker report has a rule id and a location inside the text (but init.decision,
 *     whose message quotes the diagnostic of the run that failed);
 *   - the monitored run and the plain run end with the same status and the same GM bytes
 *     (the monitor in program order must not change results; same inputs, same bits).
 * ASan / UBSan (see fuzz/CMakeLists.txt) turn crashes and undefined behaviour into reports.
 *
 * Limits keep one execution well under libFuzzer's -timeout=10: K_MAX_STEPS loop
 * back-edges per run, K_GM_BYTES of GM per pointer parameter, at most K_MAX_PARAMS
 * parameters. The input's hash chooses the block count (1 or 2), the target (the module's,
 * or the other one) and the scalar values. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/diag_print.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"

enum {
  K_GM_BYTES = 64 * 1024, /* bytes of GM behind each pointer parameter */
  K_MAX_PARAMS = 32,      /* programs with more parameters are only loaded */
  K_MAX_STEPS = 2000      /* loop back-edges per run (run.max_steps beyond) */
};

/* Abort naming the broken invariant (libFuzzer reports the abort as a crash). */
#define check(ok) ((ok) ? (void)0 : fail(#ok, __LINE__))
static void fail(const char *what, int line) {
  fprintf(stderr, "fuzz_run.c:%d: invariant broken: %s\n", line, what);
  abort();
}

/* FNV-1a of the input: the source of every choice the harness makes. */
static uint64_t hash_bytes(const uint8_t *d, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ d[i]) * 1099511628211ull;
  return h;
}

/* loc (of a diagnostic or report with this rule) names a line of the text and a column at
 * most one past its end. */
static void check_loc(const ptosim_loc *loc, const char *rule, const char *text, size_t len) {
  size_t n = 0;
  const char *line = loc->file && loc->line >= 1 ? pa_source_line(text, len, (uint32_t)loc->line, &n) : NULL;
  if (line && loc->col >= 1 && (size_t)loc->col <= n + 1) return;
  fprintf(stderr, "fuzz_run: [%s] at %s:%d:%d, outside the text\n", rule, loc->file ? loc->file : "(null)", loc->line, loc->col);
  abort();
}

static void check_diag(const ptosim_diag *d, const char *text, size_t len) {
  char buf[2048];
  check(d->status != PTOSIM_OK && d->status != PTOSIM_BLOCKED && d->rule[0] != '\0');
  check_loc(&d->loc, d->rule, text, len);
  check(ptosim_diag_format(d, buf, sizeof buf) > 0);
}

/* Small scalar values: counts, offsets and flags of realistic kernels, and -1. */
static ptosim_arg scalar_arg(const ptosim_program *p, int i, uint64_t h) {
  static const int64_t ints[8] = {1, 2, 16, 64, 0, 3, 128, -1};
  static const double floats[4] = {1.0, 0.5, -2.0, 0.0};
  ptosim_arg a;
  unsigned pick = (unsigned)(h >> (3 * (i % 20))) & 7u;
  if (ptosim_program_param_kind(p, i) == PTOSIM_PARAM_FLOAT) {
    a.f = floats[pick & 3u];
    return a;
  }
  int bits = ptosim_program_param_bits(p, i);
  ptosim_dtype dt = ptosim_program_param_dtype(p, i);
  int uns = dt == PTOSIM_DT_U8 || dt == PTOSIM_DT_U16 || dt == PTOSIM_DT_U32 || dt == PTOSIM_DT_U64;
  a.i = ints[pick];
  if (bits == 1) a.i &= 1;
  else if (a.i < 0 && uns) a.i = 1;
  else if (bits == 8 && a.i > 127) a.i = 127;
  return a;
}

/* One run on a new machine; returns its status and fills gm (nptr * K_GM_BYTES bytes)
 * from the same deterministic pattern. With `monitored`, every checker is on. */
static ptosim_status run_once(const ptosim_program *p, int blocks, int monitored, uint8_t *gm, const char *text,
                              size_t len, uint64_t h) {
  int np = ptosim_program_nparams(p);
  ptosim_arg args[K_MAX_PARAMS + 1];
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), blocks);
  check(m != NULL);
  for (size_t k = 0; k < (size_t)np * K_GM_BYTES; k++) gm[k] = (uint8_t)(k * 37u + (k >> 11));
  uint8_t *buf = gm;
  for (int i = 0; i < np; i++) {
    if (ptosim_program_param_kind(p, i) != PTOSIM_PARAM_PTR) {
      args[i] = scalar_arg(p, i, h);
      continue;
    }
    check(ptosim_gm_map(m, buf, K_GM_BYTES, &args[i].gm_addr) == PTOSIM_OK);
    buf += K_GM_BYTES;
  }
  ptosim_machine_set_limits(m, K_MAX_STEPS, NULL, NULL);
  ptosim_monitor *mon = NULL;
  if (monitored) {
    ptosim_monitor_opts o = ptosim_monitor_defaults();
    o.checks = PTOSIM_CHECK_ALL | PTOSIM_CHECK_INIT_READS;
    o.program_order = ptosim_program_in_order(p);
    o.trace = 1;
    mon = ptosim_monitor_attach(m, &o);
    check(mon != NULL);
  }
  ptosim_status st = mon ? ptosim_monitor_run(mon, p, args) : ptosim_program_run(p, m, args);
  if (st != PTOSIM_OK) check_diag(ptosim_last_diag(m), text, len);
  if (mon) {
    static FILE *null_out;
    if (!null_out) null_out = fopen("/dev/null", "w");
    if (st == PTOSIM_OK) ptosim_monitor_finish(mon);
    for (int r = 0; r < ptosim_monitor_nreports(mon); r++) {
      const ptosim_report *rep = ptosim_monitor_report(mon, r);
      check(rep->rule[0] != '\0' && rep->count >= 1);
      /* init.decision has no site: its message holds the failing op's diagnostic */
      if (strcmp(rep->rule, "init.decision") || rep->loc.line) check_loc(&rep->loc, rep->rule, text, len);
      if (rep->other.line) check_loc(&rep->other, rep->rule, text, len);
    }
    if (null_out) {
      ptosim_monitor_print_reports(mon, null_out);
      ptosim_monitor_print_summary(mon, null_out);
      ptosim_monitor_print_stats(mon, null_out);
      ptosim_monitor_write_trace(mon, null_out);
    }
    ptosim_monitor_free(mon);
  }
  ptosim_machine_free(m);
  return st;
}

/* pto.tprint writes tiles to stdout: still formatted, not shown (libFuzzer reports on stderr). */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  check(freopen("/dev/null", "w", stdout) != NULL);
  return 0;
}

/* Load and run the input with the choices of h (target, blocks, scalar values). */
static void run_input(const uint8_t *data, size_t size, uint64_t h) {
  const char *text = (const char *)data;
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("fuzz.pto", text, size, NULL, -1, NULL, &nerr);
  check((p == NULL) == (nerr > 0));
  if (p && (h & 6u) == 0) { /* one input in four: the other target */
    ptosim_target t = ptosim_program_target(p) == PTOSIM_TARGET_A5 ? PTOSIM_TARGET_A2A3 : PTOSIM_TARGET_A5;
    ptosim_program_free(p);
    p = ptosim_program_load("fuzz.pto", text, size, NULL, (int)t, NULL, &nerr);
    check((p == NULL) == (nerr > 0));
  }
  int np = ptosim_program_nparams(p);
  if (!p || np > K_MAX_PARAMS) {
    ptosim_program_free(p);
    return;
  }
  int blocks = 1 + (int)(h & 1u);
  size_t gm_bytes = (size_t)np * K_GM_BYTES;
  uint8_t *gm[2] = {malloc(gm_bytes + 1), malloc(gm_bytes + 1)};
  check(gm[0] && gm[1]);
  ptosim_status st = run_once(p, blocks, 1, gm[0], text, size, h);
  check(run_once(p, blocks, 0, gm[1], text, size, h) == st && !memcmp(gm[0], gm[1], gm_bytes));
  free(gm[0]);
  free(gm[1]);
  ptosim_program_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  run_input(data, size, hash_bytes(data, size));
  return 0;
}
