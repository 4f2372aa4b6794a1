/* The ptosim command. Exit codes: 0 success (checker warnings allowed), 1 compare
 * mismatch, 2 usage error, 3 parse/verify error, 4 runtime fault (bounds, alignment,
 * deadlock), 5 error found by the checkers (race, lost signal, observable uninitialized
 * data; also warnings with --werror; --error-exitcode N picks another status). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/profile.h"
#include "ptosim/io.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_VERIFY = 3, EXIT_FAULT = 4, EXIT_HAZARD = 5 };

static void usage(FILE *f) {
  fprintf(f,
          "usage: ptosim <command> [args]\n"
          "commands:\n"
          "  run KERNEL.pto [--entry FUNC] [--target a2a3|a5] [--blocks N] [--out-dir DIR] ARG...\n"
          "              run the kernel; one ARG per parameter: a .npy/.bin file for a pointer\n"
          "              (loaded, and written back in place or into DIR), a literal for a scalar\n"
          "      --check=LIST     checkers: race,sync,init,mem, all (default) or none; init-reads\n"
          "                       adds every read of never-written bytes (padding too)\n"
          "      --werror         warnings (pending signals, unreleased tokens) fail the run too\n"
          "      --error-exitcode N  exit status when the checkers report errors (default 5)\n"
          "      --stats          print cycles, busy cycles and utilization per pipe, op counts, stalls\n"
          "      --stats-json F   write the same as JSON to F\n"
          "      --trace F        write a Chrome trace-event JSON (Perfetto, chrome://tracing) to F\n"
          "      --schedule=S     program (default): ops run in program order; eager: each op runs\n"
          "                       when its pipe would (reads at its start, writes land at its end),\n"
          "                       so a missing flag gives the wrong numbers a chip could give\n"
          "  check KERNEL.pto [--target a2a3|a5]   parse and verify every function (no run)\n"
          "  compare GOLDEN OUT --dtype T [--atol A --rtol R | --ulp N | --exact] [--shape RxC]\n"
          "              compare two .npy/.bin arrays element-wise (exit 1 on mismatch)\n"
          "  ops         list every op of the op table (family, pipe, status: implemented,\n"
          "              C-API-only (no text form) or not-yet, formula)\n"
          "  --version   print the version\n"
          "  --help      this text\n"
          "exit codes: 0 ok, 1 compare mismatch, 2 usage, 3 parse/verify error, 4 runtime fault,\n"
          "            5 error found by a checker (or a warning with --werror)\n");
}

static int cmd_ops(void) {
  for (int i = 0; i < PTOSIM_OP_COUNT; i++) {
    ptosim_opcode op = (ptosim_opcode)i;
    printf("%-26s %-10s %-5s %-12s %s\n", ptosim_op_spelling(op), ptosim_op_family(op), ptosim_op_pipe(op),
           !ptosim_op_implemented(op) ? "not-yet" : ptosim_op_in_text(op) ? "implemented" : "C-API-only",
           ptosim_op_formula(op));
  }
  return EXIT_OK;
}

static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += k;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
      }
      buf = nb;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

typedef struct opts {
  const char *kernel, *entry, *out_dir;
  const char *stats_json, *trace;
  int stats;
  int eager;
  unsigned checks;
  int werror, error_exitcode;
  int blocks;
  int target; /* -1: from the module */
  const char **args;
  int nargs;
} opts;

/* "race,sync,init,mem,init-reads", "all" or "none" */
static int parse_checks(const char *s, unsigned *out) {
  static const char *const names[] = {"race", "sync", "init", "mem", "init-reads"};
  *out = 0;
  if (!strcmp(s, "all")) *out = PTOSIM_CHECK_ALL;
  if (!strcmp(s, "all") || !strcmp(s, "none")) return 0;
  while (*s) {
    size_t n = strcspn(s, ",");
    int k = 0;
    while (k < 5 && (strlen(names[k]) != n || strncmp(s, names[k], n))) k++;
    if (k == 5) {
      fprintf(stderr, "ptosim: unknown checker '%.*s' (use race, sync, init, mem, init-reads, all or none)\n", (int)n, s);
      return -1;
    }
    *out |= 1u << k;
    s += n + (s[n] == ',');
  }
  return 0;
}

static int parse_opts(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->blocks = 1;
  o->target = -1;
  o->checks = PTOSIM_CHECK_ALL;
  o->error_exitcode = EXIT_HAZARD;
  o->args = calloc((size_t)argc, sizeof *o->args);
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--entry") && more) o->entry = argv[++i];
    else if (!strcmp(a, "--out-dir") && more) o->out_dir = argv[++i];
    else if (!strcmp(a, "--blocks") && more) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || v < 1 || v > 65536) {
        fprintf(stderr, "ptosim: --blocks takes a number in [1, 65536]\n");
        return -1;
      }
      o->blocks = (int)v;
    } else if (!strcmp(a, "--target") && more) {
      ptosim_target t = pt_target_parse(argv[++i]);
      if (t == PTOSIM_TARGET_COUNT) {
        fprintf(stderr, "ptosim: unknown target '%s' (use a2a3 or a5)\n", argv[i]);
        return -1;
      }
      o->target = (int)t;
    } else if (!strncmp(a, "--check=", 8)) {
      if (parse_checks(a + 8, &o->checks)) return -1;
    } else if (!strncmp(a, "--schedule=", 11)) {
      if (strcmp(a + 11, "program") && strcmp(a + 11, "eager")) {
        fprintf(stderr, "ptosim: unknown schedule '%s' (use program or eager)\n", a + 11);
        return -1;
      }
      o->eager = !strcmp(a + 11, "eager");
    } else if (!strcmp(a, "--werror")) o->werror = 1;
    else if (!strcmp(a, "--error-exitcode") && more) {
      char *end;
      long v = strtol(argv[++i], &end, 10);
      if (*end || v < 1 || v > 255) {
        fprintf(stderr, "ptosim: --error-exitcode takes a number in [1, 255]\n");
        return -1;
      }
      o->error_exitcode = (int)v;
    } else if (!strcmp(a, "--stats")) o->stats = 1;
    else if (!strcmp(a, "--stats-json") && more) o->stats_json = argv[++i];
    else if (!strcmp(a, "--trace") && more) o->trace = argv[++i];
    else if (a[0] == '-' && a[1] == '-') {
      fprintf(stderr, "ptosim: unknown option '%s'\n", a);
      return -1;
    } else if (!o->kernel) o->kernel = a;
    else o->args[o->nargs++] = a;
  }
  if (!o->kernel) {
    fprintf(stderr, "ptosim: missing KERNEL.pto\n");
    return -1;
  }
  return 0;
}

static ptosim_program *load(const opts *o, int *code) {
  size_t len;
  char *text = read_text(o->kernel, &len);
  if (!text) {
    fprintf(stderr, "ptosim: cannot read %s: %s\n", o->kernel, strerror(errno));
    *code = EXIT_USAGE;
    return NULL;
  }
  int nerr = 0;
  ptosim_program *p = ptosim_program_load(o->kernel, text, len, o->entry, o->target, stderr, &nerr);
  free(text);
  if (!p) {
    fprintf(stderr, "%d error%s\n", nerr, nerr == 1 ? "" : "s");
    *code = EXIT_VERIFY;
  }
  return p;
}

static int has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), k = strlen(suf);
  return n >= k && !strcmp(s + n - k, suf);
}

/* Output path: the input itself, or DIR/basename. */
static void out_path(const opts *o, const char *in, char *buf, size_t n) {
  if (!o->out_dir) {
    snprintf(buf, n, "%s", in);
    return;
  }
  const char *base = strrchr(in, '/');
  snprintf(buf, n, "%s/%s", o->out_dir, base ? base + 1 : in);
}

/* Array files: .npy by extension, raw .bin otherwise. Errors are printed; return 0 on success. */
static int load_array(const char *path, ptosim_array *a) {
  char err[512];
  ptosim_status st = has_suffix(path, ".npy") ? ptosim_npy_load(path, a, err, sizeof err) : ptosim_bin_load(path, a, err, sizeof err);
  if (st != PTOSIM_OK) fprintf(stderr, "ptosim: %s\n", err);
  return st != PTOSIM_OK;
}

static int save_array(const char *path, const ptosim_array *a) {
  char err[512];
  ptosim_status st = has_suffix(path, ".npy") ? ptosim_npy_save(path, a, err, sizeof err) : ptosim_bin_save(path, a, err, sizeof err);
  if (st != PTOSIM_OK) fprintf(stderr, "ptosim: %s\n", err);
  return st != PTOSIM_OK;
}

/* Print the findings and write stats / trace files; returns the number of findings that
 * fail the run (errors, and warnings with --werror). A run that stopped early is not
 * finished: no end-of-kernel checks then. */
static int report_monitor(const opts *o, ptosim_monitor *mon, int completed) {
  if (completed) ptosim_monitor_finish(mon);
  ptosim_monitor_print_reports(mon, stderr);
  if (o->stats) ptosim_monitor_print_stats(mon, stdout);
  const char *paths[2] = {o->stats_json, o->trace};
  for (int i = 0; i < 2; i++) {
    if (!paths[i]) continue;
    FILE *f = fopen(paths[i], "w");
    if (!f) {
      fprintf(stderr, "ptosim: cannot write %s: %s\n", paths[i], strerror(errno));
      continue;
    }
    if (i == 0) ptosim_monitor_write_stats_json(mon, f);
    else ptosim_monitor_write_trace(mon, f);
    fclose(f);
  }
  if (o->checks) ptosim_monitor_print_summary(mon, stderr);
  return ptosim_monitor_count(mon, PTOSIM_SEV_ERROR) + (o->werror ? ptosim_monitor_count(mon, PTOSIM_SEV_WARNING) : 0);
}

static int cmd_run(int argc, char **argv) {
  opts o;
  if (parse_opts(argc, argv, &o)) {
    free(o.args);
    usage(stderr);
    return EXIT_USAGE;
  }
  int code = EXIT_OK;
  ptosim_program *p = load(&o, &code);
  if (!p) {
    free(o.args);
    return code;
  }
  int np = ptosim_program_nparams(p);
  if (o.nargs != np) {
    fprintf(stderr, "ptosim: the kernel takes %d parameters, %d arguments given\n", np, o.nargs);
    for (int i = 0; i < np; i++)
      fprintf(stderr, "  %%%s: %s %s\n", ptosim_program_param_name(p, i),
              ptosim_program_param_kind(p, i) == PTOSIM_PARAM_PTR ? "pointer to" : "scalar",
              pt_dtype_name(ptosim_program_param_dtype(p, i)));
    ptosim_program_free(p);
    free(o.args);
    return EXIT_USAGE;
  }
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), o.blocks);
  ptosim_array *arrays = calloc((size_t)np + 1, sizeof *arrays);
  ptosim_arg *args = calloc((size_t)np + 1, sizeof *args);
  for (int i = 0; i < np && code == EXIT_OK; i++) {
    const char *a = o.args[i];
    ptosim_dtype dt = ptosim_program_param_dtype(p, i);
    if (ptosim_program_param_kind(p, i) != PTOSIM_PARAM_PTR) {
      char *end;
      if (!strcmp(a, "true") || !strcmp(a, "false")) args[i].i = !strcmp(a, "true");
      else if (ptosim_program_param_kind(p, i) == PTOSIM_PARAM_FLOAT) args[i].f = strtod(a, &end);
      else args[i].i = strtoll(a, &end, 0);
      if (strcmp(a, "true") && strcmp(a, "false") && (*end || end == a)) {
        fprintf(stderr, "ptosim: argument %d (%%%s): '%s' is not a number\n", i + 1, ptosim_program_param_name(p, i), a);
        code = EXIT_USAGE;
      }
      continue;
    }
    if (load_array(a, &arrays[i])) {
      code = EXIT_USAGE;
      continue;
    }
    unsigned es = pt_dtype_size(dt);
    if (has_suffix(a, ".npy") && es && arrays[i].elem_size != es) {
      fprintf(stderr, "ptosim: %s: elements of '%s' are %u bytes but %%%s points to %s (%u bytes)\n", a,
              arrays[i].descr, arrays[i].elem_size, ptosim_program_param_name(p, i), pt_dtype_name(dt), es);
      code = EXIT_USAGE;
      continue;
    }
    ptosim_gm_map(m, arrays[i].data, arrays[i].nbytes, &args[i].gm_addr);
  }
  ptosim_monitor *mon = NULL;
  if (code == EXIT_OK && (o.checks || o.stats || o.stats_json || o.trace || o.eager)) {
    ptosim_monitor_opts mo = ptosim_monitor_defaults();
    mo.checks = o.checks;
    mo.trace = o.trace != NULL;
    mo.program_order = ptosim_program_in_order(p);
    mo.schedule = o.eager ? PTOSIM_SCHEDULE_EAGER : PTOSIM_SCHEDULE_PROGRAM;
    if (o.eager && mo.program_order)
      fprintf(stderr, "ptosim: note: --schedule=eager has no effect: the program has no synchronization (its compiler "
                      "inserts it), so it runs in program order\n");
    if (!(mon = ptosim_monitor_attach(m, &mo))) {
      fprintf(stderr, "ptosim: out of memory for the checkers\n");
      code = EXIT_USAGE;
    }
  }
  if (code == EXIT_OK) {
    ptosim_status st = mon ? ptosim_monitor_run(mon, p, args) : ptosim_program_run(p, m, args);
    if (st != PTOSIM_OK) {
      char buf[2048];
      ptosim_diag_format(ptosim_last_diag(m), buf, sizeof buf);
      fputs(buf, stderr);
      code = st == PTOSIM_E_FAULT ? EXIT_FAULT : EXIT_VERIFY;
    }
  }
  if (mon && report_monitor(&o, mon, code == EXIT_OK) && code == EXIT_OK) code = o.error_exitcode;
  /* Write buffers back (also after a fault: they show the state the kernel reached). */
  for (int i = 0; i < np && code != EXIT_USAGE; i++) {
    if (!arrays[i].data) continue;
    char path[4096];
    out_path(&o, o.args[i], path, sizeof path);
    if (save_array(path, &arrays[i]) && code == EXIT_OK) code = EXIT_USAGE;
  }
  for (int i = 0; i < np; i++) ptosim_array_free(&arrays[i]);
  free(arrays);
  free(args);
  free(o.args);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return code;
}

static int cmd_check(int argc, char **argv) {
  opts o;
  if (parse_opts(argc, argv, &o)) {
    free(o.args);
    usage(stderr);
    return EXIT_USAGE;
  }
  free(o.args);
  size_t len;
  char *text = read_text(o.kernel, &len);
  if (!text) {
    fprintf(stderr, "ptosim: cannot read %s: %s\n", o.kernel, strerror(errno));
    return EXIT_USAGE;
  }
  int unsupported = 0, nerr = ptosim_program_check(o.kernel, text, len, o.target, stderr, &unsupported);
  free(text);
  if (nerr) fprintf(stderr, "%d error%s (%d not supported yet)\n", nerr, nerr == 1 ? "" : "s", unsupported);
  return nerr ? EXIT_VERIFY : EXIT_OK;
}

static int cmd_compare(int argc, char **argv) {
  const char *files[2] = {NULL, NULL};
  ptosim_cmp_opts o = {.dtype = PTOSIM_DT_NONE, .atol = 1e-5, .rtol = 1e-5, .max_report = 10};
  int nfiles = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--dtype") && more) o.dtype = pt_dtype_parse(argv[i + 1], (unsigned)strlen(argv[i + 1])), i++;
    else if (!strcmp(a, "--atol") && more) o.atol = strtod(argv[++i], NULL), o.mode = PTOSIM_CMP_TOL;
    else if (!strcmp(a, "--rtol") && more) o.rtol = strtod(argv[++i], NULL), o.mode = PTOSIM_CMP_TOL;
    else if (!strcmp(a, "--ulp") && more) o.ulp = strtoull(argv[++i], NULL, 10), o.mode = PTOSIM_CMP_ULP;
    else if (!strcmp(a, "--exact")) o.mode = PTOSIM_CMP_EXACT;
    else if (!strcmp(a, "--shape") && more) {
      long long r = 0, c = 0;
      if (sscanf(argv[++i], "%lldx%lld", &r, &c) != 2 || r <= 0 || c <= 0) {
        fprintf(stderr, "ptosim: --shape takes RxC\n");
        return EXIT_USAGE;
      }
      o.cols = c;
    } else if (a[0] != '-' && nfiles < 2) files[nfiles++] = a;
    else {
      fprintf(stderr, "ptosim: unexpected argument '%s'\n", a);
      return EXIT_USAGE;
    }
  }
  if (nfiles != 2 || o.dtype == PTOSIM_DT_NONE || !pt_dtype_size(o.dtype)) {
    fprintf(stderr, "ptosim: compare needs GOLDEN OUT and --dtype with a byte-sized type (f32, f16, bf16, i32, ...)\n");
    return EXIT_USAGE;
  }
  ptosim_array g, y;
  memset(&g, 0, sizeof g);
  memset(&y, 0, sizeof y);
  int code = EXIT_USAGE;
  if (!load_array(files[0], &g) && !load_array(files[1], &y)) {
    size_t es = pt_dtype_size(o.dtype);
    if (g.nbytes != y.nbytes || g.nbytes % es)
      fprintf(stderr, "ptosim: %s holds %zu bytes and %s %zu: sizes differ or are not whole %s elements\n", files[0],
              g.nbytes, files[1], y.nbytes, pt_dtype_name(o.dtype));
    else
      code = ptosim_compare(g.data, y.data, g.nbytes / es, &o, stdout) ? 1 : EXIT_OK;
  }
  ptosim_array_free(&g);
  ptosim_array_free(&y);
  return code;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version")) {
    printf("ptosim %s\n", PTOSIM_VERSION);
    return EXIT_OK;
  }
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage(stdout);
    return EXIT_OK;
  }
  if (!strcmp(cmd, "ops")) return cmd_ops();
  if (!strcmp(cmd, "run")) return cmd_run(argc, argv);
  if (!strcmp(cmd, "check")) return cmd_check(argc, argv);
  if (!strcmp(cmd, "compare")) return cmd_compare(argc, argv);
  fprintf(stderr, "ptosim: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_USAGE;
}
