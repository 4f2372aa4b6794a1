/* Negative fixtures: every .pto file in tests/err is a small program that must fail with exactly
 * the diagnostics its comments announce (tests/err/README.md describes the format):
 *
 *   // RUN: check                      ptosim_program_check (every function)
 *   // RUN: run [--entry F] [--target a2a3|a5] [--blocks N] ARG...
 *                                      ptosim_program_load, then ptosim_program_run;
 *                                      ARG is a scalar (7, -1, 0.5, true) or buf:DTYPE:COUNT,
 *                                      a zero-filled GM buffer of COUNT elements
 *   // EXPECT: L:C: error: TEXT [rule.id]
 *                                      one diagnostic at line L, column C whose message
 *                                      contains TEXT, with that rule id; L:C-C2 stands
 *                                      for one such diagnostic at each column C..C2
 *   // EXIT: 3 | 4                     the `ptosim` exit code class: 3 parse/verify error
 *                                      (load or check failed, or a run stopped on an op
 *                                      not supported yet), 4 the run stopped with an
 *                                      error (fault, or operand values out of range)
 *
 * Diagnostics are read back from the text the library prints (the `file:L:C: error: msg
 * [rule]` header lines for load/check, ptosim_diag_format of the run's diagnostic), so the
 * printed form is what is checked. A fixture fails on a missing EXPECT, RUN or EXIT line,
 * an expected diagnostic that is not reported, any extra error, a wrong exit class, an
 * error count that differs from the number of diagnostics printed, or a file name that
 * does not start with one of its expected rule ids (`rule.id.pto` or `rule.id-variant.pto`). */
#include <dirent.h>
#include <stdint.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/program.h"

#define ERR_DIR PTOSIM_SOURCE_DIR "/tests/err"
enum { MAX_DIAGS = 600, MAX_ARGS = 16, TEXT_MAX = 256 };

/* One diagnostic: expected (text is a substring of the message) or reported. */
typedef struct diag {
  int line, col;
  char rule[64];
  char text[TEXT_MAX];
  int matched;
} diag;

typedef struct fixture {
  const char *name;
  char run[512]; /* the RUN line after "RUN:" */
  int exit_code;
  diag want[MAX_DIAGS];
  int nwant;
} fixture;

static int nfixtures, nchecked, nstatic;

/* "L:C: error: MSG [rule]" (s points at L) into d; with `last`, also "L:C-C2: ..." (*last = C2,
 * else C). Returns 0 when s has that shape. */
static int parse_diag(const char *s, size_t n, diag *d, int *last) {
  int used = 0;
  memset(d, 0, sizeof *d);
  if (sscanf(s, "%d:%d%n", &d->line, &d->col, &used) != 2) return -1;
  s += used;
  n -= (size_t)used;
  if (last) *last = d->col;
  if (last && sscanf(s, "-%d%n", last, &used) == 1) s += used, n -= (size_t)used;
  used = 0;
  if (sscanf(s, ": error: %n", &used) != 0 || !used) return -1;
  const char *msg = s + used, *end = s + n;
  while (end > msg && (end[-1] == ' ' || end[-1] == '\r')) end--;
  const char *open = end;
  while (open > msg && open[-1] != '[') open--;
  if (end == msg || end[-1] != ']' || open == msg || (size_t)(end - open) >= sizeof d->rule) return -1;
  snprintf(d->rule, sizeof d->rule, "%.*s", (int)(end - 1 - open), open);
  const char *mend = open - 1;
  while (mend > msg && mend[-1] == ' ') mend--;
  snprintf(d->text, sizeof d->text, "%.*s", (int)(mend - msg), msg);
  return 0;
}

/* The directives of a fixture; returns 0 when RUN, EXIT and at least one EXPECT are there. */
static int parse_fixture(fixture *fx, const char *text) {
  fx->run[0] = 0;
  fx->exit_code = 0;
  fx->nwant = 0;
  for (const char *l = text; *l;) {
    const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l);
    const char *c = strstr(l, "// ");
    if (c && c < end) {
      c += 3;
      size_t n = (size_t)(end - c);
      if (!strncmp(c, "RUN: ", 5)) {
        snprintf(fx->run, sizeof fx->run, "%.*s", (int)(n - 5), c + 5);
      } else if (!strncmp(c, "EXIT: ", 6)) {
        fx->exit_code = atoi(c + 6);
      } else if (!strncmp(c, "EXPECT: ", 8)) {
        diag d;
        int last = 0, ok = !parse_diag(c + 8, n - 8, &d, &last) && fx->nwant + last - d.col < MAX_DIAGS;
        CHECK_MSG(ok, "%s: malformed EXPECT line: %.*s", fx->name, (int)n, c);
        for (int col = d.col; ok && col <= last; col++) {
          fx->want[fx->nwant] = d;
          fx->want[fx->nwant++].col = col;
        }
      }
    }
    l = nl ? nl + 1 : end;
  }
  CHECK_MSG(fx->run[0], "%s: no RUN line", fx->name);
  CHECK_MSG(fx->exit_code == 3 || fx->exit_code == 4, "%s: no EXIT: 3 or EXIT: 4 line", fx->name);
  CHECK_MSG(fx->nwant > 0, "%s: no EXPECT line", fx->name);
  /* The file is named after a rule it expects. */
  size_t stem = strcspn(fx->name, "-");
  if (stem > strlen(fx->name) - 4) stem = strlen(fx->name) - 4; /* without ".pto" */
  int named = 0;
  for (int i = 0; i < fx->nwant; i++)
    named |= strlen(fx->want[i].rule) == stem && !strncmp(fx->want[i].rule, fx->name, stem);
  CHECK_MSG(named, "%s: the file name names none of its expected rule ids", fx->name);
  return fx->run[0] && fx->nwant && (fx->exit_code == 3 || fx->exit_code == 4) ? 0 : -1;
}

/* The header lines "NAME:L:C: error: ..." of printed diagnostics into got[]; returns their count. */
static int collect(const char *name, const char *out, diag *got) {
  size_t k = strlen(name);
  int ngot = 0;
  for (const char *l = out; *l;) {
    const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l);
    if (!strncmp(l, name, k) && l[k] == ':' && ngot < MAX_DIAGS &&
        !parse_diag(l + k + 1, (size_t)(end - l - k - 1), &got[ngot], NULL))
      ngot++;
    l = nl ? nl + 1 : end;
  }
  return ngot;
}

/* ---- running ------------------------------------------------------------------------------ */

typedef struct run_opts {
  const char *entry;
  int target; /* -1: the module's */
  int blocks;
  char *args[MAX_ARGS];
  int nargs;
} run_opts;

/* Split the RUN line (modified in place). Returns 0 for run, 1 for check, -1 on error. */
static int parse_run(char *line, run_opts *o) {
  memset(o, 0, sizeof *o);
  o->target = -1;
  o->blocks = 1;
  char *save = NULL, *w = strtok_r(line, " ", &save);
  int check = w && !strcmp(w, "check");
  if (!w || (!check && strcmp(w, "run"))) return -1;
  while ((w = strtok_r(NULL, " ", &save))) {
    if (!strcmp(w, "--entry") && (w = strtok_r(NULL, " ", &save))) {
      o->entry = w;
    } else if (!strcmp(w, "--target") && (w = strtok_r(NULL, " ", &save))) {
      o->target = !strcmp(w, "a2a3") ? PTOSIM_TARGET_A2A3 : !strcmp(w, "a5") ? PTOSIM_TARGET_A5 : -2;
      if (o->target == -2) return -1;
    } else if (!strcmp(w, "--blocks") && (w = strtok_r(NULL, " ", &save))) {
      o->blocks = atoi(w);
    } else if (w[0] == '-' && w[1] == '-') {
      return -1;
    } else if (!check && o->nargs < MAX_ARGS) {
      o->args[o->nargs++] = w;
    } else {
      return -1;
    }
  }
  return check;
}

/* Bind the RUN arguments to the entry's parameters: buffers are zero-filled host memory
 * mapped into GM (freed by the caller). Returns 0 on success. */
static int bind_args(const fixture *fx, const ptosim_program *p, ptosim_machine *m, const run_opts *o,
                     ptosim_arg *args, void **bufs) {
  int np = ptosim_program_nparams(p);
  if (np != o->nargs || np > MAX_ARGS) {
    CHECK_MSG(0, "%s: the entry takes %d parameters, RUN gives %d", fx->name, np, o->nargs);
    return -1;
  }
  for (int i = 0; i < np; i++) {
    const char *a = o->args[i];
    ptosim_param_kind kind = ptosim_program_param_kind(p, i);
    if (!strncmp(a, "buf:", 4)) {
      const char *colon = strchr(a + 4, ':');
      ptosim_dtype dt = colon ? pt_dtype_parse(a + 4, (unsigned)(colon - a - 4)) : PTOSIM_DT_NONE;
      long count = colon ? atol(colon + 1) : 0;
      size_t bytes = (size_t)count * pt_dtype_size(dt);
      int ok = kind == PTOSIM_PARAM_PTR && dt == ptosim_program_param_dtype(p, i) && bytes > 0;
      CHECK_MSG(ok, "%s: argument %d '%s' does not fit parameter %%%s", fx->name, i + 1, a,
                ptosim_program_param_name(p, i));
      if (!ok || !(bufs[i] = calloc(1, bytes))) return -1;
      if (ptosim_gm_map(m, bufs[i], bytes, &args[i].gm_addr) != PTOSIM_OK) return -1;
    } else if (kind == PTOSIM_PARAM_PTR) {
      CHECK_MSG(0, "%s: argument %d '%s' must be buf:DTYPE:COUNT", fx->name, i + 1, a);
      return -1;
    } else if (kind == PTOSIM_PARAM_FLOAT) {
      args[i].f = strtod(a, NULL);
    } else {
      args[i].i = !strcmp(a, "true") ? 1 : !strcmp(a, "false") ? 0 : strtoll(a, NULL, 0);
    }
  }
  return 0;
}

/* Run the fixture; the printed diagnostics go to `out` and *count gets the number of errors
 * the library says it found. Returns the exit code class. */
static int execute(const fixture *fx, const char *text, size_t len, FILE *out, int *count) {
  char line[sizeof fx->run];
  memcpy(line, fx->run, sizeof line);
  run_opts o;
  int mode = parse_run(line, &o);
  CHECK_MSG(mode >= 0, "%s: malformed RUN line: %s", fx->name, fx->run);
  if (mode < 0) return 0;
  if (mode == 1) return (*count = ptosim_program_check(fx->name, text, len, o.target, out, NULL)) ? 3 : 0;
  ptosim_program *p = ptosim_program_load(fx->name, text, len, o.entry, o.target, out, count);
  if (!p) return 3;
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), o.blocks);
  ptosim_arg args[MAX_ARGS + 1];
  void *bufs[MAX_ARGS] = {0};
  memset(args, 0, sizeof args);
  int code = 0;
  if (m && !bind_args(fx, p, m, &o, args, bufs)) {
    ptosim_status st = ptosim_program_run(p, m, args);
    if (st != PTOSIM_OK) {
      char buf[2048];
      ptosim_diag_format(ptosim_last_diag(m), buf, sizeof buf);
      fputs(buf, out);
      code = st == PTOSIM_E_UNSUPPORTED ? 3 : 4; /* every other stop of a run is a runtime fault */
      *count = 1;
    }
  }
  ptosim_machine_free(m);
  for (int i = 0; i < MAX_ARGS; i++) free(bufs[i]);
  ptosim_program_free(p);
  return code;
}

/* Match reported against expected diagnostics (as multisets); report every difference. */
static void compare(fixture *fx, diag *got, int ngot) {
  for (int g = 0; g < ngot; g++)
    for (int w = 0; w < fx->nwant && !got[g].matched; w++) {
      diag *e = &fx->want[w];
      if (!e->matched && e->line == got[g].line && e->col == got[g].col && !strcmp(e->rule, got[g].rule) &&
          strstr(got[g].text, e->text))
        e->matched = got[g].matched = 1;
    }
  for (int w = 0; w < fx->nwant; w++) {
    const diag *e = &fx->want[w];
    CHECK_MSG(e->matched, "%s: missing %d:%d: error: ...%s... [%s]", fx->name, e->line, e->col, e->text, e->rule);
    nchecked += e->matched;
  }
  for (int g = 0; g < ngot; g++)
    CHECK_MSG(got[g].matched, "%s: unexpected %d:%d: error: %s [%s]", fx->name, got[g].line, got[g].col, got[g].text,
              got[g].rule);
}

/* A run fixture through `ptosim check` (same target): check may find less than the run
 * (operands known only at run time, faults of GM or of synchronization) but never
 * anything the run does not report. */
static void check_agrees(fixture *fx, const char *text, size_t len, diag *got) {
  char line[sizeof fx->run];
  memcpy(line, fx->run, sizeof line);
  run_opts o;
  if (parse_run(line, &o) != 0) return;
  char *out = NULL;
  size_t outlen = 0;
  FILE *f = open_memstream(&out, &outlen);
  if (!f) return;
  ptosim_program_check(fx->name, text, len, o.target, f, NULL);
  fclose(f);
  int ngot = collect(fx->name, out, got);
  for (int g = 0; g < ngot; g++) {
    int found = 0;
    for (int w = 0; w < fx->nwant && !found; w++)
      found = fx->want[w].line == got[g].line && fx->want[w].col == got[g].col && !strcmp(fx->want[w].rule, got[g].rule);
    CHECK_MSG(found, "%s: `ptosim check` reports %d:%d: error: %s [%s], which the run does not", fx->name, got[g].line,
              got[g].col, got[g].text, got[g].rule);
    nstatic += found;
  }
  free(out);
}

static void run_fixture(const char *name) {
  static fixture fx;
  static diag got[MAX_DIAGS];
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", ERR_DIR, name);
  size_t len;
  char *text = pt_test_slurp(path, &len);
  CHECK_MSG(text != NULL, "cannot read %s", path);
  if (!text) return;
  nfixtures++;
  fx.name = name;
  int before = pt_test_failures;
  if (!parse_fixture(&fx, text)) {
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    int count = 0, code = f ? execute(&fx, text, len, f, &count) : 0;
    if (f) fclose(f);
    if (out) {
      int ngot = collect(name, out, got);
      CHECK_MSG(code == fx.exit_code, "%s: exit class %d, expected %d", name, code, fx.exit_code);
      CHECK_MSG(count == ngot, "%s: %d errors counted, %d printed", name, count, ngot);
      compare(&fx, got, ngot);
      check_agrees(&fx, text, len, got);
      if (pt_test_failures != before) fprintf(stderr, "---- %s printed:\n%s----\n", name, out);
    }
    free(out);
  }
  free(text);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_fixtures(void) {
  DIR *d = opendir(ERR_DIR);
  CHECK_MSG(d != NULL, "cannot open %s", ERR_DIR);
  if (!d) return;
  char *names[1024];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 1024) {
    size_t k = strlen(e->d_name);
    if (k > 4 && !strcmp(e->d_name + k - 4, ".pto")) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  for (int i = 0; i < n; i++) {
    run_fixture(names[i]);
    free(names[i]);
  }
  CHECK_MSG(n > 0, "no fixtures in %s", ERR_DIR);
}

int main(void) {
  RUN(test_fixtures);
  fprintf(stderr, "test_err: %d fixtures, %d diagnostics checked, %d run-time ones also found by check\n", nfixtures,
          nchecked, nstatic);
  return pt_test_finish();
}
