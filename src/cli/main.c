/* The ptosim command. Exit codes: 0 success, 1 compare mismatch, 2 usage error (the
 * command line), 3 parse/verify error, 4 runtime fault (the run stopped with an error,
 * or memory ran out), 5 hazard found (race, sync or init finding of the checkers),
 * 6 file error (an input cannot be read or is malformed, an output cannot be written). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "asm/diag_print.h"
#include "core/dtype.h"
#include "core/profile.h"
#include "ptosim/io.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_USAGE = 2, EXIT_VERIFY = 3, EXIT_FAULT = 4, EXIT_HAZARD = 5, EXIT_FILE = 6 };

#define EXIT_CODES_HELP                                                                              \
  "exit codes: 0 ok, 1 compare mismatch, 2 usage (command line), 3 parse/verify error, 4 runtime\n" \
  "            fault or out of memory, 5 hazard found by a checker, 6 file error (an input cannot\n"  \
  "            be read or is malformed, an output cannot be written)\n"

static const char k_usage[] =
    "usage: ptosim <command> [options] [args]\n"
    "commands:\n"
    "  run KERNEL.pto ARG...      run a kernel on its arguments (.npy/.bin files, scalars)\n"
    "  check KERNEL.pto...        parse and verify every function of each file (no run)\n"
    "  compare GOLDEN OUT         compare two arrays element-wise\n"
    "  ops [--status S] [--family F] [--json]\n"
    "                             list the op table: family, pipe, status (implemented,\n"
    "                             C-API-only, not-yet), formula\n"
    "  --version                  print the version\n"
    "  --help                     this text; 'ptosim COMMAND --help' for a command's options\n" EXIT_CODES_HELP;

static const char k_run_help[] =
    "usage: ptosim run [options] KERNEL.pto ARG...\n"
    "Run the kernel, one ARG per parameter: a .npy/.bin file for a pointer (the same file\n"
    "for several pointers is one GM buffer), a literal for a scalar (decimal or 0x hex\n"
    "integers in the parameter's range, true/false, floats). Buffers the kernel wrote are\n"
    "written back (in place, or into --out-dir); inputs it only read are left untouched.\n"
    "options (--opt VALUE or --opt=VALUE):\n"
    "  --entry FUNC       the function to run (default: the one marked pto.kernel)\n"
    "  --target T         a2a3 or a5 (default: the module's pto.target_arch, else a2a3 as in PTOAS)\n"
    "  --blocks N         clusters to run, 1..65536 (default 1)\n"
    "  --threads N        run blocks on N host threads (default: the host's cores); the same\n"
    "                     bits as one thread; one thread whenever a checker, --stats, --trace\n"
    "                     or the eager schedule is on (so with the default --check all too)\n"
    "  --out-dir DIR      write the written buffers into DIR/BASENAME instead of in place\n"
    "  --check LIST       checkers: race,sync,init,mem, all (default) or none; init-reads\n"
    "                     adds every read of never-written bytes (padding too) as warnings\n"
    "  --max-steps N      stop (exit 4) after N loop iterations in all: a loop that never\n"
    "                     ends is reported, not a hang (default 1000000000; 0: no limit)\n"
    "  --werror           checker warnings (pending signals, unreleased tokens) fail the run too\n"
    "  --error-exitcode N exit status when the checkers report errors (default 5)\n"
    "  --schedule S       program (default): ops run in program order; eager: each op runs\n"
    "                     when its pipe would (reads at its start, writes land at its end),\n"
    "                     so a missing flag gives the wrong numbers a chip could give\n"
    "  --stats            print cycles, busy cycles and utilization per pipe, op counts, stalls\n"
    "  --stats-json F     write the same as JSON to F\n"
    "  --trace F          write a Chrome trace-event JSON (Perfetto, chrome://tracing) to F\n" EXIT_CODES_HELP;

static const char k_check_help[] =
    "usage: ptosim check [--target a2a3|a5] KERNEL.pto...\n"
    "Parse and verify every function of each file, with the constraints of every op whose\n"
    "operands are constants (no run). Exit 3 if any file has an error.\n"
    "options (--opt VALUE or --opt=VALUE):\n"
    "  --target T         a2a3 or a5 (default: the module's pto.target_arch, else a2a3 as in PTOAS)\n" EXIT_CODES_HELP;

static const char k_compare_help[] =
    "usage: ptosim compare [options] GOLDEN OUT\n"
    "Compare two .npy/.bin arrays element-wise; exit 1 on a mismatch. Floats: NaN matches\n"
    "NaN, an infinity matches only itself. Integers are compared exactly.\n"
    "options (--opt VALUE or --opt=VALUE):\n"
    "  --dtype T          element type (f32, f16, bf16, i32, ...); default: the .npy header's\n"
    "  --atol A --rtol R  |out - golden| <= A + R * |golden| (default mode, A = R = 1e-5)\n"
    "  --ulp N            at most N units in the last place apart\n"
    "  --exact            identical bits\n"
    "  --shape RxC        report mismatches as [row, col]; R * C must be the element count\n" EXIT_CODES_HELP;

/* `ptosim ops [--status S] [--family F] [--json]`: the op table, one row per op. */
static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') putchar('\\');
    putchar(*s);
  }
  putchar('"');
}

/* Value of option `name` at argv[*i] ("--name V" or "--name=V"); NULL if argv[*i] is not it. */
static const char *ops_opt(int argc, char **argv, int *i, const char *name, int *missing) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n)) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n]) return NULL;
  if (*i + 1 < argc) return argv[++*i];
  *missing = 1;
  return NULL;
}

static int cmd_ops(int argc, char **argv) {
  const char *status = NULL, *family = NULL, *v;
  int json = 0, missing = 0;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = 1;
    else if ((v = ops_opt(argc, argv, &i, "--status", &missing))) status = v;
    else if ((v = ops_opt(argc, argv, &i, "--family", &missing))) family = v;
    else {
      fprintf(stderr, missing ? "ptosim ops: %s needs a value\n" : "ptosim ops: unknown option '%s'\n", argv[i]);
      fprintf(stderr, "usage: ptosim ops [--status implemented|C-API-only|not-yet] [--family F] [--json]\n");
      return EXIT_USAGE;
    }
  }
  if (!json) printf("%-30s %-14s %-9s %-12s %s\n", "OP", "FAMILY", "PIPE", "STATUS", "FORMULA");
  else printf("[");
  int n = 0;
  for (int i = 0; i < PTOSIM_OP_COUNT; i++) {
    ptosim_opcode op = (ptosim_opcode)i;
    const char *st = ptosim_op_status_name(ptosim_op_status_of(op));
    if ((status && strcmp(status, st)) || (family && strcmp(family, ptosim_op_family(op)))) continue;
    if (!json) {
      printf("%-30s %-14s %-9s %-12s %s\n", ptosim_op_spelling(op), ptosim_op_family(op),
             ptosim_pipe_name(ptosim_op_pipe_id(op)), st, ptosim_op_formula(op));
      continue;
    }
    printf("%s\n {\"op\": ", n++ ? "," : "");
    json_string(ptosim_op_spelling(op));
    printf(", \"family\": ");
    json_string(ptosim_op_family(op));
    printf(", \"pipe\": \"%s\", \"status\": \"%s\", \"formula\": ", ptosim_pipe_name(ptosim_op_pipe_id(op)), st);
    json_string(ptosim_op_formula(op));
    printf("}");
  }
  if (json) printf("\n]\n");
  return EXIT_OK;
}

/* ---- options: `--name VALUE`, `--name=VALUE`, flags `--name` ---- */
enum { CMD_RUN = 1, CMD_CHECK = 2, CMD_COMPARE = 4 };
typedef enum {
  O_HELP, O_ENTRY, O_TARGET, O_BLOCKS, O_THREADS, O_OUT_DIR, O_CHECK, O_SCHEDULE, O_STATS, O_STATS_JSON, O_TRACE, O_WERROR, O_ERROR_EXITCODE, O_MAX_STEPS,
  O_DTYPE, O_ATOL, O_RTOL, O_ULP, O_EXACT, O_SHAPE
} opt_id;

static const struct {
  const char *name;
  opt_id id;
  int takes_value;
  unsigned cmds;
} k_opts[] = {
    {"help", O_HELP, 0, CMD_RUN | CMD_CHECK | CMD_COMPARE},
    {"entry", O_ENTRY, 1, CMD_RUN},
    {"target", O_TARGET, 1, CMD_RUN | CMD_CHECK},
    {"blocks", O_BLOCKS, 1, CMD_RUN},
    {"threads", O_THREADS, 1, CMD_RUN},
    {"out-dir", O_OUT_DIR, 1, CMD_RUN},
    {"check", O_CHECK, 1, CMD_RUN},
    {"schedule", O_SCHEDULE, 1, CMD_RUN},
    {"stats", O_STATS, 0, CMD_RUN},
    {"stats-json", O_STATS_JSON, 1, CMD_RUN},
    {"trace", O_TRACE, 1, CMD_RUN},
    {"werror", O_WERROR, 0, CMD_RUN},
    {"max-steps", O_MAX_STEPS, 1, CMD_RUN},
    {"error-exitcode", O_ERROR_EXITCODE, 1, CMD_RUN},
    {"dtype", O_DTYPE, 1, CMD_COMPARE},
    {"atol", O_ATOL, 1, CMD_COMPARE},
    {"rtol", O_RTOL, 1, CMD_COMPARE},
    {"ulp", O_ULP, 1, CMD_COMPARE},
    {"exact", O_EXACT, 0, CMD_COMPARE},
    {"shape", O_SHAPE, 1, CMD_COMPARE},
};

/* The command being parsed: its name, bit and the argument cursor. */
typedef struct cmdline {
  const char *name;
  unsigned bit;
  int argc, i;
  char **argv;
  int only_positional; /* after "--" */
} cmdline;

/* A usage error: one line naming the command, and where the help is. Returns EXIT_USAGE. */
static int usage_error(const cmdline *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "ptosim %s: ", c->name);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (see 'ptosim %s --help')\n", c->name);
  return EXIT_USAGE;
}

static const char *cmd_of(unsigned bits) { return bits & CMD_RUN ? "run" : bits & CMD_CHECK ? "check" : "compare"; }

/* Next argument. Returns 1 for an option (*id, and *val for one that takes a value), 0 for
 * a positional (*val), -1 at the end, -2 after a usage error it printed. */
static int next_arg(cmdline *c, opt_id *id, const char **val) {
  if (c->i >= c->argc) return -1;
  const char *a = c->argv[c->i++];
  if (c->only_positional || strncmp(a, "--", 2) || !a[2]) {
    if (!strcmp(a, "--") && !c->only_positional) {
      c->only_positional = 1;
      return next_arg(c, id, val);
    }
    if (!strcmp(a, "-h") && !c->only_positional) return *id = O_HELP, 1;
    *val = a;
    return 0;
  }
  const char *eq = strchr(a, '=');
  size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
  for (size_t k = 0; k < sizeof k_opts / sizeof k_opts[0]; k++) {
    if (strlen(k_opts[k].name) != n || strncmp(a + 2, k_opts[k].name, n)) continue;
    if (!(k_opts[k].cmds & c->bit)) {
      usage_error(c, "--%s is an option of 'ptosim %s', not of %s", k_opts[k].name, cmd_of(k_opts[k].cmds), c->name);
      return -2;
    }
    *id = k_opts[k].id;
    if (!k_opts[k].takes_value) {
      if (eq) return usage_error(c, "--%s takes no value", k_opts[k].name), -2;
      return 1;
    }
    if (eq) *val = eq + 1;
    else if (c->i < c->argc) *val = c->argv[c->i++];
    else return usage_error(c, "--%s needs a value", k_opts[k].name), -2;
    return 1;
  }
  usage_error(c, "unknown option '%.*s'", (int)(n + 2), a);
  return -2;
}

/* ---- number parsing (whole-string, range-checked) ---- */

/* A decimal or 0x-hex integer with an optional sign: its magnitude and sign. Returns 0
 * unless the whole string is one ("010" is ten, not octal eight). */
static int parse_magnitude(const char *s, uint64_t *mag, int *neg) {
  *neg = *s == '-';
  if (*s == '-' || *s == '+') s++;
  int base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
  if (base == 16) s += 2;
  if (!(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s))) return 0; /* no sign or space after */
  char *end;
  errno = 0;
  *mag = strtoull(s, &end, base);
  return !*end && errno != ERANGE;
}

/* An integer of `bits` bits (1..64): unsigned types take [0, 2^bits), signed / signless
 * [-2^(bits-1), 2^bits) (both readings of the bits). Returns 0 if out of range. */
static int parse_int(const char *s, int bits, int is_unsigned, int64_t *out) {
  uint64_t mag;
  int neg;
  if (!parse_magnitude(s, &mag, &neg)) return 0;
  uint64_t umax = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1, nmax = bits >= 64 ? 1ull << 63 : 1ull << (bits - 1);
  if (neg ? is_unsigned ? mag != 0 : mag > nmax : mag > (is_unsigned || bits < 64 ? umax : (uint64_t)INT64_MAX))
    return 0;
  *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  return 1;
}

/* A finite non-negative decimal number (tolerances). */
static int parse_tolerance(const char *s, double *out) {
  char *end;
  errno = 0;
  *out = strtod(s, &end);
  return end != s && !*end && errno != ERANGE && isfinite(*out) && *out >= 0;
}

static int is_unsigned(ptosim_dtype t) {
  return t == PTOSIM_DT_U8 || t == PTOSIM_DT_U16 || t == PTOSIM_DT_U32 || t == PTOSIM_DT_U64;
}

/* A scalar argument for parameter i: true/false, an integer in the parameter's range, or
 * a float finite in its type (inf / nan written as such are taken). 0 if not. */
static int parse_scalar(const ptosim_program *p, int i, const char *a, ptosim_arg *out) {
  int bits = ptosim_program_param_bits(p, i);
  ptosim_dtype dt = ptosim_program_param_dtype(p, i);
  if (ptosim_program_param_kind(p, i) == PTOSIM_PARAM_FLOAT) {
    char *end;
    errno = 0;
    out->f = strtod(a, &end);
    if (end == a || *end) return 0;
    int literal_inf = !isfinite(out->f) && strpbrk(a, "iInN"); /* "inf", "nan" as written, not 1e999 */
    float as_f32 = (float)out->f;
    return literal_inf || (errno != ERANGE && (bits == 64 || isfinite(as_f32)) &&
                           (bits != 16 || fabs(out->f) <= (dt == PTOSIM_DT_BF16 ? 0x1.fep127 : 65504.0)));
  }
  if (!strcmp(a, "true") || !strcmp(a, "false")) return out->i = !strcmp(a, "true"), 1;
  return parse_int(a, bits ? bits : 64, is_unsigned(dt), &out->i);
}

/* ---- files ---- */

/* The whole file; NULL with errno set if it cannot be read (a directory is EISDIR). */
static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR;
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += k;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  int e = !buf ? ENOMEM : ferror(f) ? errno : 0;
  fclose(f);
  if (e) {
    free(buf);
    errno = e;
    return NULL;
  }
  buf[n] = 0; /* n < cap: the loop grows the buffer when it fills */
  *len = n;
  return buf;
}

/* A kernel file's text, or NULL after printing why not (*code: EXIT_FILE, EXIT_FAULT
 * when memory ran out, EXIT_VERIFY for a file that is not text). */
static char *read_kernel(const char *path, size_t *len, int *code) {
  char *text = read_text(path, len);
  if (!text) {
    fprintf(stderr, "ptosim: cannot read %s: %s\n", path, strerror(errno));
    *code = errno == ENOMEM ? EXIT_FAULT : EXIT_FILE;
    return NULL;
  }
  if (memchr(text, 0, *len)) {
    fprintf(stderr, "ptosim: %s is not a text file (it holds NUL bytes; a kernel is .pto text%s)\n", path,
                    *len >= 6 && !memcmp(text, "\x93NUMPY", 6) ? ", this is a .npy array" : "");
    free(text);
    *code = EXIT_VERIFY;
    return NULL;
  }
  return text;
}

static int has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), k = strlen(suf);
  return n >= k && !strcmp(s + n - k, suf);
}

static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* Exit code of a failed load or save. */
static int file_code(ptosim_status st) { return st == PTOSIM_E_NOMEM ? EXIT_FAULT : EXIT_FILE; }

/* Array files: .npy by extension, raw .bin otherwise. Errors are printed. */
static ptosim_status load_array(const char *path, ptosim_array *a) {
  char err[512];
  ptosim_status st = has_suffix(path, ".npy") ? ptosim_npy_load(path, a, err, sizeof err) : ptosim_bin_load(path, a, err, sizeof err);
  if (st != PTOSIM_OK) fprintf(stderr, "ptosim: %s\n", err);
  return st;
}

static ptosim_status save_array(const char *path, const ptosim_array *a) {
  char err[512];
  ptosim_status st = has_suffix(path, ".npy") ? ptosim_npy_save(path, a, err, sizeof err) : ptosim_bin_save(path, a, err, sizeof err);
  if (st != PTOSIM_OK) fprintf(stderr, "ptosim: %s\n", err);
  return st;
}

/* ---- run ---- */
typedef struct opts {
  const char *kernel, *entry, *out_dir;
  const char *stats_json, *trace;
  int stats;
  int eager;
  unsigned checks;
  int blocks;
  int threads; /* 0: one per host core */
  int werror, error_exitcode; /* warnings fail the run; the status of checker errors */
  uint64_t max_steps;         /* loop back-edges before run.max_steps (0: no limit) */
  int target; /* -1: from the module */
  const char **pos; /* the positionals: kernel (or kernels, for check), then arguments */
  int npos;
  const char **args; /* pos + 1 */
  int nargs;
} opts;

/* "race,sync,init,mem", "all" or "none" */
static int parse_checks(const cmdline *c, const char *s, unsigned *out) {
  static const char *const names[] = {"race", "sync", "init", "mem", "init-reads"};
  *out = 0;
  if (!strcmp(s, "all")) *out = PTOSIM_CHECK_ALL;
  if (!strcmp(s, "all") || !strcmp(s, "none")) return 0;
  if (!*s) return usage_error(c, "--check needs a list (race, sync, init, mem, all or none)");
  while (*s) {
    size_t n = strcspn(s, ",");
    int k = 0;
    while (k < 5 && (strlen(names[k]) != n || strncmp(s, names[k], n))) k++;
    if (k == 5) return usage_error(c, "unknown checker '%.*s' (use race, sync, init, mem, init-reads, all or none)", (int)n, s);
    *out |= 1u << k;
    s += n + (s[n] == ',');
  }
  return 0;
}

/* One option of run / check. Returns 0, EXIT_USAGE (printed) or -1 for --help. */
static int run_option(const cmdline *c, opt_id id, const char *v, opts *o) {
  switch (id) {
  case O_HELP: return -1;
  case O_ENTRY: o->entry = v; return 0;
  case O_OUT_DIR: o->out_dir = v; return 0;
  case O_STATS: o->stats = 1; return 0;
  case O_STATS_JSON: o->stats_json = v; return 0;
  case O_TRACE: o->trace = v; return 0;
  case O_WERROR: o->werror = 1; return 0;
  case O_MAX_STEPS: {
    int64_t n;
    if (!parse_int(v, 64, 0, &n) || n < 0) return usage_error(c, "--max-steps takes a count of loop iterations (0: no limit), not '%s'", v);
    o->max_steps = (uint64_t)n;
    return 0;
  }
  case O_ERROR_EXITCODE: {
    int64_t e;
    if (!parse_int(v, 64, 0, &e) || e < 1 || e > 255) return usage_error(c, "--error-exitcode takes a number in [1, 255], not '%s'", v);
    o->error_exitcode = (int)e;
    return 0;
  }
  case O_CHECK: return parse_checks(c, v, &o->checks);
  case O_BLOCKS: {
    int64_t b;
    if (!parse_int(v, 64, 0, &b) || b < 1 || b > 65536) return usage_error(c, "--blocks takes a number in [1, 65536], not '%s'", v);
    o->blocks = (int)b;
    return 0;
  }
  case O_THREADS: {
    int64_t t;
    if (!parse_int(v, 64, 0, &t) || t < 1 || t > 256) return usage_error(c, "--threads takes a number in [1, 256], not '%s'", v);
    o->threads = (int)t;
    return 0;
  }
  case O_TARGET: {
    ptosim_target t = pt_target_parse(v);
    if (t == PTOSIM_TARGET_COUNT) return usage_error(c, "unknown target '%s' (use a2a3 or a5)", v);
    o->target = (int)t;
    return 0;
  }
  case O_SCHEDULE:
    if (strcmp(v, "program") && strcmp(v, "eager")) return usage_error(c, "unknown schedule '%s' (use program or eager)", v);
    o->eager = !strcmp(v, "eager");
    return 0;
  default: return usage_error(c, "internal: option %d", (int)id);
  }
}

/* Parse the options and positionals of run / check. Returns 0, EXIT_USAGE (printed) or
 * -1 for --help (printed); on 0 o->args holds the positionals (kernel first). */
static int parse_opts(cmdline *c, opts *o, const char *help) {
  memset(o, 0, sizeof *o);
  o->blocks = 1;
  o->target = -1;
  o->checks = PTOSIM_CHECK_ALL;
  o->error_exitcode = EXIT_HAZARD;
  o->max_steps = PTOSIM_DEFAULT_MAX_STEPS;
  o->pos = calloc((size_t)c->argc + 1, sizeof *o->pos);
  if (!o->pos) return fprintf(stderr, "ptosim: out of memory\n"), EXIT_FAULT;
  opt_id id;
  const char *v = NULL;
  for (int r; (r = next_arg(c, &id, &v)) != -1;) {
    if (r == -2) return EXIT_USAGE;
    if (r == 0) {
      o->pos[o->npos++] = v;
      continue;
    }
    int e = run_option(c, id, v, o);
    if (e < 0) return fputs(help, stdout), -1;
    if (e) return e;
  }
  if (!o->npos) return usage_error(c, "missing KERNEL.pto");
  o->kernel = o->pos[0];
  o->args = o->pos + 1;
  o->nargs = o->npos - 1;
  return 0;
}

/* Print the functions a text defines (`func.func [private] @name`) unless `entry` is one
 * of them (the load failed for another reason then). */
static void list_functions(const char *text, size_t len, const char *entry, FILE *f) {
  char names[1024] = "";
  size_t used = 0;
  for (const char *p = text, *end = text + len; (p = p < end ? strstr(p, "func.func") : NULL) != NULL;) {
    const char *at = p += 9;
    while (at < end && *at != '@' && *at != '(' && *at != '\n') at++;
    if (at >= end || *at != '@') continue;
    int n = (int)strcspn(at + 1, "( \t\n");
    if ((size_t)n == strlen(entry) && !strncmp(at + 1, entry, (size_t)n)) return;
    int k = snprintf(names + used, sizeof names - used, "%s@%.*s", used ? ", " : "", n, at + 1);
    if (k > 0 && used + (size_t)k < sizeof names) used += (size_t)k;
  }
  fprintf(f, "  the file defines: %s\n", used ? names : "no function");
}

static ptosim_program *load(const opts *o, const char *text, size_t len, int *code) {
  int nerr = 0;
  ptosim_program *p = ptosim_program_load(o->kernel, text, len, o->entry, o->target, stderr, &nerr);
  if (!p) {
    if (o->entry) list_functions(text, len, o->entry, stderr);
    fprintf(stderr, "%d error%s\n", nerr, nerr == 1 ? "" : "s");
    *code = EXIT_VERIFY;
  }
  return p;
}

/* Print a run-time diagnostic like check's: with the source line and a caret when the
 * op comes from the kernel text. */
static void print_run_diag(const ptosim_diag *d, const opts *o, const char *text, size_t len) {
  size_t n = 0;
  const char *src = d->loc.file && !strcmp(d->loc.file, o->kernel) ? pa_source_line(text, len, (uint32_t)d->loc.line, &n) : NULL;
  if (!src) {
    char buf[2048];
    ptosim_diag_format(d, buf, sizeof buf);
    fputs(buf, stderr);
    return;
  }
  char msg[sizeof d->op + sizeof d->msg + 2];
  snprintf(msg, sizeof msg, "%s%s%s", d->op, d->op[0] ? ": " : "", d->msg);
  pa_diag_print(stderr, d->loc.file, (uint32_t)d->loc.line, (uint32_t)d->loc.col, "error", msg, d->rule, d->hint, src, n);
}

/* ---- a long run: Ctrl-C / SIGTERM stop it cleanly, a progress line when stderr is a terminal */

static ptosim_machine *running; /* the machine of the run in progress, for the signal handler */

static void on_signal(int sig) {
  if (running) {
    ptosim_machine_interrupt(running); /* async-signal-safe: one atomic store */
    return;
  }
  signal(sig, SIG_DFL); /* not running a kernel: stop as the signal would */
  raise(sig);
}

typedef struct progress {
  struct timespec start;
  int tty, shown;
} progress;

static double seconds_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void on_progress(void *user, uint64_t ops) {
  progress *pr = user;
  double s = seconds_since(&pr->start);
  if (!pr->tty || s < 3) return;
  fprintf(stderr, "\rptosim: %llu ops in %.0f s (Ctrl-C stops the run and reports where it was)", (unsigned long long)ops, s);
  pr->shown = 1;
}

/* Write one stats / trace file; returns 0 or EXIT_FILE (printed). */
static int write_report(const char *path, const ptosim_monitor *mon, void (*write)(const ptosim_monitor *, FILE *)) {
  FILE *f = fopen(path, "w");
  if (f) {
    write(mon, f);
    int bad = ferror(f), e = errno;
    if (!fclose(f) && !bad) return 0;
    errno = bad ? e : errno;
  }
  fprintf(stderr, "ptosim: cannot write %s: %s\n", path, strerror(errno));
  return EXIT_FILE;
}

/* Print the findings, their one-line summary and write stats / trace files. A run that
 * stopped early is not finished: no end-of-kernel checks then. Returns the error exit code
 * (errors, and warnings with --werror), EXIT_FILE or 0. */
static int report_monitor(const opts *o, ptosim_monitor *mon, int completed) {
  if (completed) ptosim_monitor_finish(mon);
  ptosim_monitor_print_reports(mon, stderr);
  if (o->stats) ptosim_monitor_print_stats(mon, stdout);
  int file = 0;
  if (o->stats_json) file |= write_report(o->stats_json, mon, ptosim_monitor_write_stats_json);
  if (o->trace) file |= write_report(o->trace, mon, ptosim_monitor_write_trace);
  if (o->checks) ptosim_monitor_print_summary(mon, stderr);
  int n = ptosim_monitor_count(mon, PTOSIM_SEV_ERROR) + (o->werror ? ptosim_monitor_count(mon, PTOSIM_SEV_WARNING) : 0);
  return n ? o->error_exitcode : file;
}

/* One GM buffer of a run: a file loaded once, mapped once, whatever number of pointer
 * parameters it is given for. */
typedef struct gm_file {
  const char *path;
  struct stat st;
  int have_st;
  ptosim_array a;
  uint64_t addr;
} gm_file;

static int same_file(const gm_file *f, const char *path, const struct stat *st, int have_st) {
  if (f->have_st && have_st) return f->st.st_dev == st->st_dev && f->st.st_ino == st->st_ino;
  return !strcmp(f->path, path);
}

/* Load, check and map the pointer argument i (or find the buffer it shares). Returns 0 or
 * an exit code (printed). */
static int bind_pointer(const ptosim_program *p, int i, const char *path, ptosim_machine *m, gm_file *files, int *nfiles,
                        ptosim_arg *arg) {
  struct stat st;
  memset(&st, 0, sizeof st);
  int have_st = stat(path, &st) == 0;
  gm_file *f = files;
  while (f < files + *nfiles && !same_file(f, path, &st, have_st)) f++;
  const char *name = ptosim_program_param_name(p, i);
  if (f == files + *nfiles) {
    *f = (gm_file){.path = path, .st = st, .have_st = have_st};
    ptosim_status ls = load_array(path, &f->a);
    if (ls) return file_code(ls);
    ++*nfiles;
    if (ptosim_gm_map(m, f->a.data, f->a.nbytes, &f->addr)) {
      fprintf(stderr, "ptosim: %s: %s\n", path, ptosim_last_diag(m)->msg);
      return EXIT_FAULT;
    }
    char label[4200];
    snprintf(label, sizeof label, "%%%s from %s", name, path);
    if (ptosim_gm_set_name(m, f->addr, label)) return fprintf(stderr, "ptosim: out of memory\n"), EXIT_FAULT;
  }
  ptosim_dtype dt = ptosim_program_param_dtype(p, i);
  if (has_suffix(path, ".npy") && pt_dtype_size(dt) && !ptosim_npy_matches(&f->a, dt)) {
    fprintf(stderr, "ptosim: %s: elements of type '%s' (%u bytes) cannot be %s: %%%s points to %s (save it as '%s')\n", path,
            f->a.descr, f->a.elem_size, pt_dtype_name(dt), name, pt_dtype_name(dt), ptosim_npy_descr(dt));
    return EXIT_USAGE;
  }
  arg->gm_addr = f->addr;
  return 0;
}

/* Bind every argument; returns 0 or an exit code (printed). */
static int bind_args(const cmdline *c, const opts *o, const ptosim_program *p, ptosim_machine *m, gm_file *files, int *nfiles,
                     ptosim_arg *args) {
  for (int i = 0; i < o->nargs; i++) {
    const char *a = o->args[i];
    ptosim_param_kind kind = ptosim_program_param_kind(p, i);
    if (kind == PTOSIM_PARAM_PTR) {
      int e = bind_pointer(p, i, a, m, files, nfiles, &args[i]);
      if (e) return e;
    } else if (!parse_scalar(p, i, a, &args[i])) {
      int bits = ptosim_program_param_bits(p, i), uns = is_unsigned(ptosim_program_param_dtype(p, i));
      const char *name = ptosim_program_param_name(p, i);
      if (kind == PTOSIM_PARAM_FLOAT)
        return usage_error(c, "argument %d (%%%s): '%s' is not a number finite in f%d", i + 1, name, a, bits);
      uint64_t hi = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
      return usage_error(c, "argument %d (%%%s): '%s' is not a decimal or 0x integer in [%s%llu, %llu] (%si%d)", i + 1, name,
                         a, uns ? "" : "-", uns ? 0ull : (unsigned long long)(hi / 2 + 1), (unsigned long long)hi,
                         uns ? "u" : "", bits);
    }
  }
  if (!o->out_dir) return 0;
  for (int j = 0; j < *nfiles; j++)
    for (int k = 0; k < j; k++)
      if (!strcmp(base_name(files[j].path), base_name(files[k].path)))
        return usage_error(c, "--out-dir: %s and %s would both be written to %s/%s", files[k].path, files[j].path, o->out_dir,
                           base_name(files[j].path));
  return 0;
}

/* Write back the buffers the kernel wrote (also after a fault: they show the state the
 * kernel reached); returns 0 or the exit code of the first failure. */
static int write_back(const opts *o, const ptosim_machine *m, const gm_file *files, int nfiles) {
  int code = 0;
  for (int j = 0; j < nfiles; j++) {
    if (ptosim_gm_written(m, files[j].addr) != 1) continue;
    char path[4096];
    if (o->out_dir) snprintf(path, sizeof path, "%s/%s", o->out_dir, base_name(files[j].path));
    else snprintf(path, sizeof path, "%s", files[j].path);
    ptosim_status st = save_array(path, &files[j].a);
    if (st && !code) code = file_code(st);
  }
  return code;
}

static void print_params(const ptosim_program *p) {
  for (int i = 0; i < ptosim_program_nparams(p); i++)
    fprintf(stderr, "  %%%s: %s %s\n", ptosim_program_param_name(p, i),
            ptosim_program_param_kind(p, i) == PTOSIM_PARAM_PTR ? "pointer to" : "scalar",
            pt_dtype_name(ptosim_program_param_dtype(p, i)));
}

/* Attach the checkers / stats / trace the options ask for; *mon stays NULL for none.
 * Returns 0 or EXIT_FAULT (out of memory, printed). */
static int attach_monitor(const opts *o, const ptosim_program *p, ptosim_machine *m, ptosim_monitor **mon) {
  *mon = NULL;
  if (!(o->checks || o->stats || o->stats_json || o->trace || o->eager)) return 0;
  ptosim_monitor_opts mo = ptosim_monitor_defaults();
  mo.checks = o->checks;
  mo.trace = o->trace != NULL;
  mo.program_order = ptosim_program_in_order(p);
  mo.schedule = o->eager ? PTOSIM_SCHEDULE_EAGER : PTOSIM_SCHEDULE_PROGRAM;
  if (o->eager && mo.program_order)
    fprintf(stderr, "ptosim: note: --schedule=eager has no effect: the program has no synchronization (its compiler "
                    "inserts it), so it runs in program order\n");
  if ((*mon = ptosim_monitor_attach(m, &mo))) return 0;
  fprintf(stderr, "ptosim: out of memory for the checkers\n");
  return EXIT_FAULT;
}

static int cmd_run(cmdline *c) {
  opts o;
  int code = parse_opts(c, &o, k_run_help);
  size_t len = 0;
  char *text = code ? NULL : read_kernel(o.kernel, &len, &code);
  ptosim_program *p = text ? load(&o, text, len, &code) : NULL;
  int np = ptosim_program_nparams(p);
  if (p && o.nargs != np) {
    code = usage_error(c, "the kernel takes %d parameters, %d arguments given", np, o.nargs);
    print_params(p);
  }
  ptosim_machine *m = NULL;
  gm_file *files = NULL;
  ptosim_arg *args = NULL;
  ptosim_monitor *mon = NULL;
  int nfiles = 0;
  if (p && !code) {
    m = ptosim_machine_new(ptosim_program_target(p), o.blocks);
    files = calloc((size_t)np + 1, sizeof *files);
    args = calloc((size_t)np + 1, sizeof *args);
    if (!m || !files || !args) {
      fprintf(stderr, "ptosim: out of memory for a machine of %d block%s%s\n", o.blocks, o.blocks == 1 ? "" : "s",
              !m && o.blocks > 1 ? " (try fewer --blocks)" : "");
      code = EXIT_FAULT;
    }
  }
  if (m && !code) code = bind_args(c, &o, p, m, files, &nfiles, args);
  if (m && !code) code = attach_monitor(&o, p, m, &mon);
  int ran = m && !code;
  progress pr = {.tty = isatty(2)};
  clock_gettime(CLOCK_MONOTONIC, &pr.start);
  if (ran) {
    ptosim_machine_set_limits(m, o.max_steps, on_progress, &pr);
    running = m;
  }
  if (ran) {
    ptosim_status st = mon ? ptosim_monitor_run(mon, p, args) : ptosim_program_run_threads(p, m, args, o.threads);
    running = NULL;
    if (pr.shown) fputc('\n', stderr);
    if (st != PTOSIM_OK) {
      print_run_diag(ptosim_last_diag(m), &o, text, len);
      code = st == PTOSIM_E_UNSUPPORTED ? EXIT_VERIFY : EXIT_FAULT;
    }
  }
  if (mon) {
    int r = report_monitor(&o, mon, code == EXIT_OK);
    if (!code) code = r;
  }
  if (ran) {
    int w = write_back(&o, m, files, nfiles);
    if (!code) code = w;
  }
  for (int j = 0; j < nfiles; j++) ptosim_array_free(&files[j].a);
  free(files);
  free(args);
  free(o.pos);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  free(text);
  return code < 0 ? EXIT_OK : code;
}

static int cmd_check(cmdline *c) {
  opts o;
  int code = parse_opts(c, &o, k_check_help);
  for (int k = 0; !code && k < o.npos; k++) { /* every file, even after errors */
    const char *path = o.pos[k];
    size_t len;
    int fcode = 0;
    char *text = read_kernel(path, &len, &fcode);
    int unsupported = 0, nerr = text ? ptosim_program_check(path, text, len, o.target, stderr, &unsupported) : 0;
    free(text);
    if (nerr)
      fprintf(stderr, "%s%s%d error%s (%d not supported yet)\n", o.npos > 1 ? path : "", o.npos > 1 ? ": " : "", nerr,
              nerr == 1 ? "" : "s", unsupported);
    if (nerr && !fcode) fcode = EXIT_VERIFY;
    if (fcode > code) code = fcode; /* the worst of the files: 6 (cannot read) over 3 */
  }
  free(o.pos);
  return code < 0 ? EXIT_OK : code;
}

/* ---- compare ---- */

/* The dtype to compare in: --dtype (checked against each .npy header) or the headers'.
 * Returns PTOSIM_DT_NONE after printing why there is none. */
static ptosim_dtype compare_dtype(const cmdline *c, ptosim_dtype given, const char *const files[2], const ptosim_array a[2]) {
  for (int k = 0; k < 2; k++) {
    if (!has_suffix(files[k], ".npy")) continue;
    if (given != PTOSIM_DT_NONE && !ptosim_npy_matches(&a[k], given)) {
      usage_error(c, "%s holds '%s' elements, not %s", files[k], a[k].descr, pt_dtype_name(given));
      return PTOSIM_DT_NONE;
    }
  }
  if (given != PTOSIM_DT_NONE) return given;
  ptosim_dtype t[2];
  for (int k = 0; k < 2; k++) {
    t[k] = has_suffix(files[k], ".npy") ? a[k].dtype : PTOSIM_DT_NONE;
    if (t[k] == PTOSIM_DT_NONE) {
      usage_error(c, "pass --dtype: %s does not say its element type%s", files[k],
                  has_suffix(files[k], ".npy") ? " (its descr has no ptosim type)" : " (a raw file)");
      return PTOSIM_DT_NONE;
    }
  }
  if (t[0] != t[1]) usage_error(c, "%s holds %s and %s %s: pass --dtype", files[0], pt_dtype_name(t[0]), files[1], pt_dtype_name(t[1]));
  return t[0] == t[1] ? t[0] : PTOSIM_DT_NONE;
}

/* One compare option. Returns 0, EXIT_USAGE (printed) or -1 for --help. mode_opt keeps the
 * option that chose the mode, to refuse a second mode. */
static int compare_option(const cmdline *c, opt_id id, const char *v, ptosim_cmp_opts *o, const char **mode_opt,
                          int64_t shape[2]) {
  static const char *const names[] = {[O_ATOL] = "--atol", [O_RTOL] = "--rtol", [O_ULP] = "--ulp", [O_EXACT] = "--exact"};
  ptosim_cmp_mode mode = id == O_ULP ? PTOSIM_CMP_ULP : id == O_EXACT ? PTOSIM_CMP_EXACT : PTOSIM_CMP_TOL;
  if (id == O_ATOL || id == O_RTOL || id == O_ULP || id == O_EXACT) {
    if (*mode_opt && o->mode != mode) return usage_error(c, "%s and %s choose different modes: give one", *mode_opt, names[id]);
    *mode_opt = names[id];
    o->mode = mode;
  }
  switch (id) {
  case O_HELP: return -1;
  case O_EXACT: return 0;
  case O_DTYPE:
    o->dtype = pt_dtype_parse(v, (unsigned)strlen(v));
    if (o->dtype == PTOSIM_DT_NONE || !pt_dtype_size(o->dtype))
      return usage_error(c, "--dtype: '%s' is not a byte-sized element type (f32, f16, bf16, i32, ...)", v);
    return 0;
  case O_ATOL:
  case O_RTOL:
    if (!parse_tolerance(v, id == O_ATOL ? &o->atol : &o->rtol))
      return usage_error(c, "%s takes a finite number >= 0, not '%s'", names[id], v);
    return 0;
  case O_ULP: {
    int64_t u;
    if (!parse_int(v, 63, 1, &u)) return usage_error(c, "--ulp takes a whole number >= 0, not '%s'", v);
    o->ulp = (uint64_t)u;
    return 0;
  }
  case O_SHAPE: {
    char *x = strchr(v, 'x');
    int neg;
    uint64_t r, cc;
    char row[32];
    if (!x || (size_t)(x - v) >= sizeof row) return usage_error(c, "--shape takes RxC, not '%s'", v);
    snprintf(row, sizeof row, "%.*s", (int)(x - v), v);
    if (!parse_magnitude(row, &r, &neg) || neg || !parse_magnitude(x + 1, &cc, &neg) || neg || !r || !cc ||
        r > INT64_MAX || cc > INT64_MAX)
      return usage_error(c, "--shape takes RxC with R, C > 0, not '%s'", v);
    shape[0] = (int64_t)r, shape[1] = (int64_t)cc;
    return 0;
  }
  default: return usage_error(c, "internal: option %d", (int)id);
  }
}

static int cmd_compare(cmdline *c) {
  const char *files[2] = {NULL, NULL};
  ptosim_cmp_opts o = {.dtype = PTOSIM_DT_NONE, .atol = 1e-5, .rtol = 1e-5, .max_report = 10};
  const char *mode_opt = NULL;
  int64_t shape[2] = {0, 0};
  int nfiles = 0;
  opt_id id;
  const char *v = NULL;
  for (int r; (r = next_arg(c, &id, &v)) != -1;) {
    if (r == -2) return EXIT_USAGE;
    if (r == 0 && nfiles == 2) return usage_error(c, "unexpected argument '%s' (compare takes GOLDEN OUT)", v);
    if (r == 0) {
      files[nfiles++] = v;
      continue;
    }
    int e = compare_option(c, id, v, &o, &mode_opt, shape);
    if (e < 0) return fputs(k_compare_help, stdout), EXIT_OK;
    if (e) return e;
  }
  if (nfiles != 2) return usage_error(c, "needs GOLDEN and OUT");
  ptosim_array a[2];
  memset(a, 0, sizeof a);
  ptosim_status st = load_array(files[0], &a[0]);
  if (!st) st = load_array(files[1], &a[1]);
  int code = st ? file_code(st) : EXIT_USAGE;
  if (!st && (o.dtype = compare_dtype(c, o.dtype, files, a)) != PTOSIM_DT_NONE) {
    size_t es = pt_dtype_size(o.dtype), n = a[0].nbytes / es;
    if (a[0].nbytes % es || a[1].nbytes % es)
      usage_error(c, "%s holds %zu bytes and %s %zu: not whole %s elements", files[0], a[0].nbytes, files[1], a[1].nbytes,
                  pt_dtype_name(o.dtype));
    else if (shape[0] && (shape[1] > INT64_MAX / shape[0] || (uint64_t)(shape[0] * shape[1]) != n))
      usage_error(c, "--shape %lldx%lld does not cover the %zu elements of %s", (long long)shape[0], (long long)shape[1], n,
                  files[0]);
    else if (a[0].nbytes != a[1].nbytes) {
      fprintf(stdout, "%s holds %zu %s elements but %s holds %zu\n", files[0], n, pt_dtype_name(o.dtype), files[1],
              a[1].nbytes / es);
      code = EXIT_MISMATCH;
    } else {
      o.cols = shape[1];
      code = ptosim_compare(a[0].data, a[1].data, n, &o, stdout) ? EXIT_MISMATCH : EXIT_OK;
    }
  }
  ptosim_array_free(&a[0]);
  ptosim_array_free(&a[1]);
  return code;
}

int main(int argc, char **argv) {
  /* From the start, so a signal racing the set-up finds the handler; sigaction keeps it
   * installed after a delivery (ISO signal() may reset it). */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  if (argc < 2) {
    fputs(k_usage, stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version")) {
    printf("ptosim %s\n", PTOSIM_VERSION);
    return EXIT_OK;
  }
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    fputs(k_usage, stdout);
    return EXIT_OK;
  }
  cmdline c = {.name = cmd, .argc = argc, .argv = argv, .i = 2};
  if (!strcmp(cmd, "ops")) return cmd_ops(argc, argv);
  if (!strcmp(cmd, "run")) return c.bit = CMD_RUN, cmd_run(&c);
  if (!strcmp(cmd, "check")) return c.bit = CMD_CHECK, cmd_check(&c);
  if (!strcmp(cmd, "compare")) return c.bit = CMD_COMPARE, cmd_compare(&c);
  fprintf(stderr, "ptosim: unknown command '%s' (see 'ptosim --help')\n", cmd);
  return EXIT_USAGE;
}
