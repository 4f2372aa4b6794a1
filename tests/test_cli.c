/* The ptosim command end to end: options, exit codes, scalar arguments, write-back,
 * messages. Each case runs the binary (PTOSIM_CLI) through sh and checks the exit status
 * and what it printed. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "ptosim/io.h"

static char dir[64];
static char out[1 << 16]; /* stdout + stderr of the last command */

/* Run `ptosim ARGS` (a shell fragment; PFX runs before it in the same shell) in dir;
 * returns the exit status, the output is in `out`. */
static int run_pfx(const char *pfx, const char *fmt, ...) {
  char args[4096], cmd[8192], path[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  snprintf(path, sizeof path, "%s/.out", dir);
  snprintf(cmd, sizeof cmd, "cd %s && { %s %s %s; } >%s 2>&1", dir, pfx, PTOSIM_CLI, args, path);
  int st = system(cmd);
  size_t n = 0;
  char *text = pt_test_slurp(path, &n);
  snprintf(out, sizeof out, "%s", text ? text : "");
  free(text);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}
#define run(...) run_pfx("", __VA_ARGS__)

static int lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

static void write_file(const char *name, const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  fputs(text, f);
  fclose(f);
}

static void save(const char *name, const char *descr, unsigned es, const void *data, int64_t n) {
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ptosim_array a = {.elem_size = es, .ndim = 1, .shape = {n}, .nbytes = (size_t)n * es, .data = (void *)data};
  snprintf(a.descr, sizeof a.descr, "%s", descr);
  CHECK_MSG(ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK, "%s", err);
}

/* Element i of a saved .npy file, as raw bytes (es of them). */
static int load_elem(const char *name, unsigned es, int64_t i, void *v) {
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ptosim_array a;
  if (ptosim_npy_load(path, &a, err, sizeof err)) return 0;
  int ok = (size_t)(i + 1) * es <= a.nbytes;
  if (ok) memcpy(v, (char *)a.data + i * es, es);
  ptosim_array_free(&a);
  return ok;
}

/* out[0] = a (i64), out[1] = b (i1), out[2] = c (i32), out[3] = d (i8); f[0] = e (f32). */
static const char *k_scalars =
    "func.func @k(%out: !pto.ptr<i64, gm>, %f: !pto.ptr<f32, gm>, %a: i64, %b: i1, %c: i32, %d: i8, %e: f32)\n"
    "    attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  %c2 = arith.constant 2 : i64\n"
    "  %c3 = arith.constant 3 : i64\n"
    "  pto.store %a, %out[%c0] : !pto.ptr<i64, gm>, i64\n"
    "  %b64 = arith.extui %b : i1 to i64\n"
    "  pto.store %b64, %out[%c1] : !pto.ptr<i64, gm>, i64\n"
    "  %c64 = arith.extsi %c : i32 to i64\n"
    "  pto.store %c64, %out[%c2] : !pto.ptr<i64, gm>, i64\n"
    "  %d64 = arith.extsi %d : i8 to i64\n"
    "  pto.store %d64, %out[%c3] : !pto.ptr<i64, gm>, i64\n"
    "  pto.store %e, %f[%c0] : !pto.ptr<f32, gm>, f32\n"
    "  return\n"
    "}\n";

/* dst[i] = src[i] + 1 for i < n; then dst[n] (out of bounds when dst holds n elements). */
static const char *k_copy =
    "func.func @copy(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>, %n: i64, %oob: i64) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  %one = arith.constant 1.0 : f32\n"
    "  scf.for %i = %c0 to %n step %c1 {\n"
    "    %v = pto.load %src[%i] : !pto.ptr<f32, gm> -> f32\n"
    "    %w = arith.addf %v, %one : f32\n"
    "    pto.store %w, %dst[%i] : !pto.ptr<f32, gm>, f32\n"
    "  }\n"
    "  pto.store %one, %dst[%oob] : !pto.ptr<f32, gm>, f32\n"
    "  return\n"
    "}\n";

/* a[1] = 5, b[2] = 7: with one file for both, both writes land in it. */
static const char *k_two =
    "func.func @two(%a: !pto.ptr<f32, gm>, %b: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  %c2 = arith.constant 2 : i64\n"
    "  %five = arith.constant 5.0 : f32\n"
    "  %seven = arith.constant 7.0 : f32\n"
    "  pto.store %five, %a[%c1] : !pto.ptr<f32, gm>, f32\n"
    "  pto.store %seven, %b[%c2] : !pto.ptr<f32, gm>, f32\n"
    "  return\n"
    "}\n";

static void test_options(void) {
  write_file("s.pto", k_scalars);
  int64_t z[4] = {0};
  float f = 0;
  save("o.npy", "<i8", 8, z, 4);
  save("f.npy", "<f4", 4, &f, 1);
  /* --opt value and --opt=value. */
  CHECK_MSG(run("run --entry k --target=a5 --blocks=1 --check none s.pto o.npy f.npy 3 1 2 1 0.5") == 0, "%s", out);
  CHECK_MSG(run("run --entry=k --target a5 --check=none --blocks 1 s.pto o.npy f.npy 3 1 2 1 0.5") == 0, "%s", out);
  /* A missing value says so, in one line with a pointer to the help. */
  CHECK(run("run s.pto --blocks") == 2 && strstr(out, "--blocks needs a value") && lines(out) == 1 &&
        strstr(out, "ptosim run --help"));
  CHECK(run("run --bogus s.pto") == 2 && lines(out) == 1 && strstr(out, "--bogus") && strstr(out, "--help"));
  CHECK(run("run --check= s.pto o.npy f.npy 3 1 2 1 0.5") == 2 && strstr(out, "--check needs a list"));
  CHECK(run("run --stats=yes s.pto") == 2 && strstr(out, "takes no value"));
  CHECK(run("run --blocks 0x10000000 s.pto") == 2 && strstr(out, "--blocks"));
  /* Per-command help on stdout, exit 0. */
  CHECK(run("run --help") == 0 && strstr(out, "usage: ptosim run") && strstr(out, "--out-dir"));
  CHECK(run("check --help") == 0 && strstr(out, "usage: ptosim check"));
  CHECK(run("compare -h") == 0 && strstr(out, "usage: ptosim compare") && strstr(out, "--ulp"));
  CHECK(run("frobnicate") == 2 && lines(out) == 1);
  CHECK(run("--help") == 0 && strstr(out, "6 file error"));
}

static void test_check(void) {
  write_file("good.pto", k_two);
  write_file("bad.pto", "func.func @k() {\n  pto.nosuch\n  return\n}\n");
  /* Every file is checked; the second one's errors count. */
  CHECK_MSG(run("check good.pto bad.pto") == 3 && strstr(out, "bad.pto:2:"), "%s", out);
  CHECK(run("check bad.pto good.pto") == 3 && strstr(out, "bad.pto: 1 error"));
  CHECK(run("check good.pto good.pto") == 0);
  /* A directory is not a kernel. */
  CHECK_MSG(run("check .") == 6 && strstr(out, "Is a directory"), "%s", out);
  CHECK(run("check nosuch.pto") == 6 && strstr(out, "No such file"));
  /* Binary input: one message, not hundreds of run-together errors. */
  float v[64] = {0};
  save("x.npy", "<f4", 4, v, 64);
  CHECK_MSG(run("check x.npy") == 3 && lines(out) == 1 && strstr(out, "not a text file") && strstr(out, ".npy"), "%s", out);
  /* Options of run only are refused by check. */
  CHECK(run("check --blocks 2 good.pto") == 2 && strstr(out, "--blocks is an option of 'ptosim run'"));
  CHECK(run("check --out-dir d good.pto") == 2);
  CHECK(run("check --target a2a3 good.pto") == 0);
}

/* One scalar argument replaced: ARGS is the full argument list after the files. */
static int run_scalars(const char *args) { return run("run --check none s.pto o.npy f.npy %s", args); }

static void test_scalars(void) {
  write_file("s.pto", k_scalars);
  int64_t z[4] = {0}, v = 0;
  float f = 0;
  save("o.npy", "<i8", 8, z, 4);
  save("f.npy", "<f4", 4, &f, 1);
  CHECK_MSG(run_scalars("-9223372036854775808 true -2147483648 -128 -1.5") == 0, "%s", out);
  CHECK(load_elem("o.npy", 8, 0, &v) && v == INT64_MIN);
  CHECK(load_elem("o.npy", 8, 1, &v) && v == 1);
  CHECK(load_elem("o.npy", 8, 2, &v) && v == INT32_MIN);
  CHECK(load_elem("o.npy", 8, 3, &v) && v == -128);
  CHECK(load_elem("f.npy", 4, 0, &f) && f == -1.5f);
  /* 010 is ten; 0x hex is taken. */
  CHECK(run_scalars("010 0 0x7fffffff 0x7f 0") == 0);
  CHECK(load_elem("o.npy", 8, 0, &v) && v == 10);
  CHECK(load_elem("o.npy", 8, 2, &v) && v == INT32_MAX);
  CHECK(load_elem("o.npy", 8, 3, &v) && v == 127);
  /* Out of range for the type, or not a whole number: usage errors naming the argument. */
  static const char *const bad[] = {
      "99999999999999999999 0 0 0 0", "0 7 0 0 0",  "0 0 4294967297 0 0", "0 0 0 300 0", "0 0 0 0 1e999",
      "0 0 0 0 1e39",                 "1.5 0 0 0 0", "0 0 0 -129 0",       "0 0 0 0 x",   "' 1' 0 0 0 0",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK_MSG(run_scalars(bad[i]) == 2 && strstr(out, "argument") && lines(out) == 1, "'%s': %s", bad[i], out);
  /* Both readings of the bits of a signless integer. */
  CHECK(run_scalars("0 0 4294967295 255 inf") == 0);
  CHECK(load_elem("o.npy", 8, 2, &v) && v == -1);
  CHECK(load_elem("o.npy", 8, 3, &v) && v == -1);
}

static void test_exit_codes(void) {
  write_file("two.pto", k_two);
  float v[4] = {0};
  save("t.npy", "<f4", 4, v, 4);
  /* Unwritable stats / trace files are file errors. */
  CHECK_MSG(run("run --stats-json nodir/s.json two.pto t.npy t.npy") == 6 && strstr(out, "No such file"), "%s", out);
  CHECK(run("run --trace=nodir/t.json two.pto t.npy t.npy") == 6 && strstr(out, "cannot write nodir/t.json"));
  CHECK(run("run --stats-json s.json --trace t.json two.pto t.npy t.npy") == 0);
  /* A malformed .npy is a file error, not a usage error. */
  write_file("bad.npy", "\x93NUMPY garbage");
  CHECK(run("run two.pto bad.npy t.npy") == 6 && strstr(out, "bad.npy"));
  CHECK(run("run two.pto missing.npy t.npy") == 6 && strstr(out, "No such file"));
  /* An i32 file for an f32 pointer is refused (same size, other kind). */
  int32_t iv[4] = {0};
  save("i.npy", "<i4", 4, iv, 4);
  CHECK_MSG(run("run two.pto i.npy t.npy") == 2 && strstr(out, "'<i4'") && strstr(out, "f32"), "%s", out);
  /* A run-time range error is a runtime fault (4), like a bounds fault. */
  write_file("l0.pto",
             "module attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
             "  func.func @k(%r: i64) attributes {pto.kernel} {\n"
             "    %l = pto.castptr 0 : i64 -> !pto.ptr<f16, l1>\n"
             "    %a = pto.castptr 0 : i64 -> !pto.ptr<f16, l0a>\n"
             "    pto.mte_l1_l0a %l, %a, 16, 16, %r, 0 : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64\n"
             "    return\n"
             "  }\n"
             "}\n");
  CHECK(run("run --check none l0.pto 0") == 0);
  CHECK_MSG(run("run l0.pto 65536") == 4 && strstr(out, "[l0.range]"), "%s", out);
  /* A loop that never ends: the step limit stops it (exit 4, where it was); SIGINT too. */
  write_file("inf.pto", "func.func @k() attributes {pto.kernel} {\n  %t = arith.constant true\n"
                        "  scf.while : () -> () {\n    scf.condition(%t)\n  } do {\n    scf.yield\n  }\n  return\n}\n");
  CHECK_MSG(run("run --max-steps 1000 inf.pto") == 4 && strstr(out, "[run.max_steps]") && strstr(out, "at 3:3"), "%s", out);
  CHECK_MSG(run_pfx("timeout --preserve-status -s INT 3", "run --max-steps 0 inf.pto") == 4 &&
                strstr(out, "[run.interrupted]"),
            "%s", out);
  CHECK(run("run --max-steps -1 inf.pto") == 2);
  /* Out of memory for the machine: a clean error, exit 4 (not a crash). Skipped where the
   * binary cannot start under the limit at all (sanitizer builds reserve terabytes). */
  if (run_pfx("ulimit -v 1000000;", "--version") == 0)
    CHECK_MSG(run_pfx("ulimit -v 1000000;", "run --blocks 8000 two.pto t.npy t.npy") == 4 && strstr(out, "out of memory"),
              "%s", out);
  else
    fprintf(stderr, "  (out-of-memory case skipped: ptosim does not start under ulimit -v)\n");
}

static void test_messages(void) {
  write_file("copy.pto", k_copy);
  float v[4] = {1, 2, 3, 4}, w[4] = {0};
  save("in.npy", "<f4", 4, v, 4);
  save("out.npy", "<f4", 4, w, 4);
  /* A run-time error shows the source line and a caret; the GM buffer is named. */
  CHECK_MSG(run("run --check none copy.pto in.npy out.npy 4 4") == 4, "%s", out);
  CHECK_MSG(strstr(out, "copy.pto:10:3: error: pto.store") && strstr(out, "\n    pto.store %one, %dst[%oob]") &&
                strstr(out, "\n    ^\n") && strstr(out, "%dst from out.npy"),
            "%s", out);
  /* --entry naming nothing lists what there is. */
  CHECK_MSG(run("run --entry nosuch copy.pto in.npy out.npy 4 0") == 3 && strstr(out, "defines: @copy"), "%s", out);
}

static ino_t inode(const char *name) {
  char path[128];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &st) ? 0 : st.st_ino;
}

static void test_write_back(void) {
  write_file("copy.pto", k_copy);
  write_file("two.pto", k_two);
  float v[4] = {1, 2, 3, 4}, w[4] = {0}, x = 0;
  save("in.npy", "<f4", 4, v, 4);
  save("out.npy", "<f4", 4, w, 4);
  /* The input the kernel only read is not rewritten: a read-only input works, and keeps
   * its inode. */
  char path[128];
  snprintf(path, sizeof path, "%s/in.npy", dir);
  chmod(path, 0444);
  ino_t before = inode("in.npy");
  CHECK_MSG(run("run --check none copy.pto in.npy out.npy 4 0") == 0, "%s", out);
  CHECK(inode("in.npy") == before);
  CHECK(load_elem("out.npy", 4, 3, &x) && x == 5.0f);
  /* One file for two pointers: one buffer, both writes kept. */
  save("t.npy", "<f4", 4, w, 4);
  CHECK_MSG(run("run two.pto t.npy ./t.npy") == 0, "%s", out);
  CHECK(load_elem("t.npy", 4, 1, &x) && x == 5.0f);
  CHECK(load_elem("t.npy", 4, 2, &x) && x == 7.0f);
  /* --out-dir with two files of one basename would lose one. */
  char cp[512];
  snprintf(cp, sizeof cp, "mkdir -p %s/sub %s/od && cp %s/t.npy %s/sub/t.npy", dir, dir, dir, dir);
  CHECK(system(cp) == 0);
  CHECK_MSG(run("run --out-dir od two.pto t.npy sub/t.npy") == 2 && strstr(out, "both be written"), "%s", out);
  CHECK(run("run --out-dir od two.pto t.npy t.npy") == 0 && load_elem("od/t.npy", 4, 2, &x) && x == 7.0f);
  /* A write that fails (file size limit) leaves the old file whole, and says why. */
  static float big[16384];
  save("big.npy", "<f4", 4, big, 16384);
  save("small.npy", "<f4", 4, v, 4);
  CHECK_MSG(run_pfx("trap '' XFSZ; ulimit -f 16;", "run --check none copy.pto small.npy big.npy 4 0") == 6 &&
                strstr(out, "File too large"),
            "%s", out);
  snprintf(path, sizeof path, "%s/big.npy", dir);
  struct stat st;
  CHECK(stat(path, &st) == 0 && st.st_size == 16384 * 4 + 128);
  CHECK(load_elem("big.npy", 4, 0, &x) && x == 0.0f);
}

static void test_compare(void) {
  float g[4] = {INFINITY, INFINITY, -INFINITY, 1}, y[4] = {INFINITY, INFINITY, -INFINITY, 1};
  save("g.npy", "<f4", 4, g, 4);
  save("y.npy", "<f4", 4, y, 4);
  CHECK_MSG(run("compare g.npy y.npy") == 0, "%s", out); /* +inf vs +inf passes; dtype from the header */
  y[1] = -INFINITY;
  save("y.npy", "<f4", 4, y, 4);
  CHECK(run("compare g.npy y.npy --dtype f32") == 1 && strstr(out, "1 of 4"));
  CHECK(run("compare g.npy y.npy --atol=abc") == 2 && strstr(out, "--atol") && lines(out) == 1);
  CHECK(run("compare g.npy y.npy --rtol -1") == 2);
  CHECK(run("compare g.npy y.npy --atol nan") == 2);
  CHECK(run("compare g.npy y.npy --exact --ulp 1") == 2 && strstr(out, "different modes"));
  CHECK(run("compare g.npy y.npy --atol 1 --exact") == 2);
  CHECK(run("compare g.npy y.npy --atol 1 --rtol 0") == 1); /* one mode, two options */
  CHECK(run("compare g.npy y.npy --shape 3x3") == 2 && strstr(out, "--shape"));
  CHECK(run("compare g.npy y.npy --shape 2x2") == 1 && strstr(out, "[0, 1]"));
  CHECK(run("compare g.npy y.npy --dtype i32") == 2 && strstr(out, "'<f4'"));
  CHECK(run("compare g.npy y.npy --dtype nosuch") == 2);
  CHECK(run("compare g.npy") == 2);
  /* Integers exactly: 2^53 + 1 is not 2^53. */
  int64_t a[2] = {1ll << 53, INT64_MAX}, b[2] = {(1ll << 53) + 1, INT64_MAX};
  save("a.npy", "<i8", 8, a, 2);
  save("b.npy", "<i8", 8, b, 2);
  CHECK_MSG(run("compare a.npy b.npy --atol 0 --rtol 0") == 1 && strstr(out, "golden 9007199254740992 out 9007199254740993"),
            "%s", out);
  CHECK(run("compare a.npy b.npy --ulp 1") == 0);
  CHECK(run("compare a.npy a.npy --exact") == 0);
  /* Raw files need --dtype; files that cannot be read are file errors. */
  write_file("r.bin", "abcd");
  CHECK(run("compare r.bin r.bin") == 2 && strstr(out, "--dtype"));
  CHECK(run("compare r.bin r.bin --dtype u8 --exact") == 0);
  CHECK(run("compare r.bin nosuch.bin --dtype u8") == 6);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/ptosim_cli_XXXXXX");
  if (!mkdtemp(dir)) return 1;
  RUN(test_options);
  RUN(test_check);
  RUN(test_scalars);
  RUN(test_exit_codes);
  RUN(test_messages);
  RUN(test_write_back);
  RUN(test_compare);
  char rm[256];
  snprintf(rm, sizeof rm, "chmod -R u+w %s; rm -rf %s", dir, dir);
  if (system(rm)) fprintf(stderr, "cannot remove %s\n", dir);
  return pt_test_finish();
}
