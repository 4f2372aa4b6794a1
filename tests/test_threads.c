/* Blocks on several host threads (src/exec/parallel.c): every kernel is run on two fresh
 * machines, with one thread and with 2 or 4, and the two machines must end in the same
 * state (status, diagnostic, op count, every GM buffer, every local memory of every
 * core); each result is also checked against a reference written here from the kernel's
 * formula in block order. pt_run_parallel is called directly as well, to check which
 * kernels run in parallel (independent blocks) and which are rolled back (blocks that
 * see each other through GM). */
#include <math.h>

#include "core/machine.h"
#include "exec/parallel.h"
#include "harness.h"

#define MAXBUF 4

typedef struct kernel_run {
  ptosim_machine *m;
  void *buf[MAXBUF];
  ptosim_arg args[MAXBUF + 4];
  ptosim_status st;
  ptosim_diag diag; /* after the run (same_local's reads of absent spaces set the machine's) */
} kernel_run;

static void rerun(kernel_run *r, ptosim_program *p, int threads) {
  r->st = ptosim_program_run_threads(p, r->m, r->args, threads);
  r->diag = *ptosim_last_diag(r->m);
}

/* Map copies of the buffers (sizes[i] bytes each) on a new machine of `blocks` blocks
 * and run p with `threads`; scalar parameters follow the pointers in `ints`. */
static void run_copy(kernel_run *r, ptosim_program *p, int blocks, void **bufs, const size_t *sizes, int nbufs,
                     const int64_t *ints, int threads) {
  r->m = ptosim_machine_new(ptosim_program_target(p), blocks);
  memset(r->args, 0, sizeof r->args);
  for (int i = 0; i < nbufs; i++) {
    r->buf[i] = malloc(sizes[i]);
    memcpy(r->buf[i], bufs[i], sizes[i]);
    ptosim_gm_map(r->m, r->buf[i], sizes[i], &r->args[i].gm_addr);
  }
  for (int i = nbufs; i < ptosim_program_nparams(p); i++) r->args[i].i = ints[i - nbufs];
  rerun(r, p, threads);
}

static void run_free(kernel_run *r, int nbufs) {
  for (int i = 0; i < nbufs; i++) free(r->buf[i]);
  ptosim_machine_free(r->m);
}

/* 1 if the two machines hold the same bytes in every local space of every core. */
static int same_local(ptosim_machine *a, ptosim_machine *b, int blocks) {
  int same = 1;
  for (int blk = 0; blk < blocks; blk++)
    for (int k = 0; k < 3; k++)
      for (int s = PTOSIM_L1; s < PTOSIM_SPACE_COUNT; s++) {
        uint64_t cap = ptosim_space_capacity(a, (ptosim_space)s);
        uint8_t *x = malloc(cap + 1), *y = malloc(cap + 1);
        ptosim_core *ca = ptosim_core_of(a, blk, (ptosim_core_kind)k), *cb = ptosim_core_of(b, blk, (ptosim_core_kind)k);
        ptosim_status sa = ptosim_mem_read(ca, (ptosim_space)s, 0, x, cap), sb = ptosim_mem_read(cb, (ptosim_space)s, 0, y, cap);
        same &= sa == sb && (sa != PTOSIM_OK || !memcmp(x, y, cap));
        free(x);
        free(y);
      }
  return same;
}

/* The same end state as one thread (see the file comment). */
static void check_same(kernel_run *one, kernel_run *many, const size_t *sizes, int nbufs, int blocks, int threads) {
  const ptosim_diag *d1 = &one->diag, *dn = &many->diag;
  CHECK_MSG(one->st == many->st, "threads %d: status %d vs %d", threads, (int)many->st, (int)one->st);
  CHECK_MSG(!strcmp(d1->rule, dn->rule) && !strcmp(d1->msg, dn->msg) && d1->loc.line == dn->loc.line,
            "threads %d: diag [%s] %s vs [%s] %s", threads, dn->rule, dn->msg, d1->rule, d1->msg);
  CHECK(ptosim_ops_executed(one->m) == ptosim_ops_executed(many->m));
  for (int i = 0; i < nbufs; i++) CHECK_MSG(!memcmp(one->buf[i], many->buf[i], sizes[i]), "threads %d: buffer %d", threads, i);
  CHECK_MSG(same_local(one->m, many->m, blocks), "threads %d: local memories", threads);
}

/* Run with 1, 2 and 4 threads, compare; `ref` (may be NULL) checks the one-thread buffers. */
static void check_threads(ptosim_program *p, int blocks, void **bufs, const size_t *sizes, int nbufs, const int64_t *ints,
                          void (*ref)(kernel_run *)) {
  kernel_run one;
  run_copy(&one, p, blocks, bufs, sizes, nbufs, ints, 1);
  if (ref) ref(&one);
  for (int t = 2; t <= 4; t += 2) {
    kernel_run many;
    run_copy(&many, p, blocks, bufs, sizes, nbufs, ints, t);
    check_same(&one, &many, sizes, nbufs, blocks, t);
    run_free(&many, nbufs);
  }
  run_free(&one, nbufs);
}

/* What pt_run_parallel does with the kernel on a fresh machine (2 threads). */
static ptosim_status parallel_status(ptosim_program *p, int blocks, void **bufs, const size_t *sizes, int nbufs,
                                     const int64_t *ints) {
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), blocks);
  ptosim_arg args[MAXBUF + 4];
  memset(args, 0, sizeof args);
  for (int i = 0; i < nbufs; i++) ptosim_gm_map(m, bufs[i], sizes[i], &args[i].gm_addr);
  for (int i = nbufs; i < ptosim_program_nparams(p); i++) args[i].i = ints[i - nbufs];
  ptosim_status st = pt_run_parallel(p, m, args, 2);
  ptosim_machine_free(m);
  return st;
}

static ptosim_program *load_file(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/examples/%s", PTOSIM_SOURCE_DIR, name);
  size_t n = 0;
  char *text = pt_test_slurp(path, &n);
  ptosim_program *p = text ? pt_test_load(text, n) : NULL;
  free(text);
  return p;
}

/* ---- independent blocks: examples/gemm_blocks.pto ------------------------------------------- */

enum { GB = 8, GK = 192, GN = 128 };
static int gemm_av(int i) { return (i * 7 + i / GK * 3) % 65 - 32; }
static int gemm_bv(int i) { return (i * 11 + i / GN * 5) % 63 - 31; }

static uint16_t f16_of(int v) { /* v / 32 for |v| <= 32, exact in f16 */
  if (v == 0) return 0;
  int e;
  float fr = frexpf(fabsf((float)v / 32.0f), &e);
  uint16_t bits = (uint16_t)(((e + 14) << 10) | ((unsigned)(fr * 2048.0f) & 1023));
  return v < 0 ? (uint16_t)(bits | 0x8000) : bits;
}

/* C[i][j]: an fmaf chain over k ascending (the mad contract), rows of every block. */
static void gemm_ref(kernel_run *r) {
  const float *c = r->buf[2];
  int bad = 0;
  for (int i = 0; i < GB * 128; i++)
    for (int j = 0; j < GN; j++) {
      float acc = 0;
      for (int k = 0; k < GK; k++) acc = fmaf((float)gemm_av(i * GK + k) / 32.0f, (float)gemm_bv(k * GN + j) / 32.0f, acc);
      bad += c[i * GN + j] != acc;
    }
  CHECK_MSG(r->st == PTOSIM_OK && bad == 0, "status %d, %d wrong elements", (int)r->st, bad);
}

static void test_gemm_blocks(void) {
  ptosim_program *p = load_file("gemm_blocks.pto");
  CHECK(p != NULL);
  if (!p) return;
  size_t na = (size_t)GB * 128 * GK, nb = (size_t)GK * GN, nc = (size_t)GB * 128 * GN;
  uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
  float *c = calloc(nc, 4);
  for (size_t i = 0; i < na; i++) a[i] = f16_of(gemm_av((int)i));
  for (size_t i = 0; i < nb; i++) b[i] = f16_of(gemm_bv((int)i));
  void *bufs[] = {a, b, c};
  size_t sizes[] = {na * 2, nb * 2, nc * 4};
  int64_t k = GK;
  CHECK(parallel_status(p, GB, bufs, sizes, 3, &k) == PTOSIM_OK); /* really parallel */
  check_threads(p, GB, bufs, sizes, 3, &k, gemm_ref);
  check_threads(p, 3, bufs, sizes, 3, &k, NULL); /* fewer blocks than threads */

  /* One machine reused: a run with one thread, then parallel runs (the first saves whole
   * local spaces, the next only what the previous run wrote) on an output that is
   * not cleared, then one thread again; the other machine always uses one thread. */
  kernel_run one, many;
  run_copy(&one, p, GB, bufs, sizes, 3, &k, 1);
  run_copy(&many, p, GB, bufs, sizes, 3, &k, 1);
  for (int round = 0; round < 4; round++) {
    rerun(&one, p, 1);
    rerun(&many, p, round < 3 ? 2 : 1);
    check_same(&one, &many, sizes, 3, GB, 2);
  }
  run_free(&one, 3);
  run_free(&many, 3);
  free(a);
  free(b);
  free(c);
  ptosim_program_free(p);
}

/* ---- blocks that see each other through GM ------------------------------------------------ */

#define CUBE_MODULE "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<cube>} {\n"

/* out[b] = out[b - 1] * 3 + b (out[n] for block 0): each block reads what the one before
 * wrote. */
static const char *chain_src = CUBE_MODULE
    "func.func @chain(%out: !pto.ptr<i64, gm>, %n: i64) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n  %c1 = arith.constant 1 : i64\n  %c3 = arith.constant 3 : i64\n"
    "  %blk = pto.get_block_idx\n"
    "  %prev = arith.subi %blk, %c1 : i64\n"
    "  %first = arith.cmpi eq, %blk, %c0 : i64\n"
    "  %p = arith.select %first, %n, %prev : i64\n"
    "  %v = pto.load %out[%p] : !pto.ptr<i64, gm> -> i64\n"
    "  %w = arith.muli %v, %c3 : i64\n"
    "  %x = arith.addi %w, %blk : i64\n"
    "  pto.store %x, %out[%blk] : !pto.ptr<i64, gm>, i64\n"
    "  return\n}\n}\n";

enum { CHAIN_BLOCKS = 6 };

static void chain_ref(kernel_run *r) {
  const int64_t *out = r->buf[0];
  int64_t prev = 5; /* out[n] */
  int bad = r->st != PTOSIM_OK;
  for (int b = 0; b < CHAIN_BLOCKS; b++) {
    prev = prev * 3 + b;
    bad += out[b] != prev;
  }
  CHECK(bad == 0 && out[CHAIN_BLOCKS] == 5);
}

static void test_chain(void) {
  ptosim_program *p = pt_test_load(chain_src, strlen(chain_src));
  CHECK(p != NULL);
  if (!p) return;
  int64_t out[CHAIN_BLOCKS + 1] = {0}, n = CHAIN_BLOCKS;
  out[CHAIN_BLOCKS] = 5;
  void *bufs[] = {out};
  size_t sizes[] = {sizeof out};
  CHECK(parallel_status(p, CHAIN_BLOCKS, bufs, sizes, 1, &n) == PT_RUN_SEQUENTIAL);
  CHECK(out[0] == 0 && out[CHAIN_BLOCKS] == 5); /* put back */
  check_threads(p, CHAIN_BLOCKS, bufs, sizes, 1, &n, chain_ref);
  ptosim_program_free(p);
}

/* dst[8][16] += src[b] for every block b (tstore atomic add, f32): the sum depends on the
 * order of the blocks. */
#define X_T "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, " \
            "slayout=none_box, fractal=512, pad=0>"
static const char *atomic_src =
    "func.func @acc(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n"
    "  %c128 = arith.constant 128 : i64\n"
    "  %blk = pto.get_block_idx\n"
    "  %off = arith.muli %blk, %c128 : i64\n"
    "  %s = pto.addptr %src, %off : !pto.ptr<f32> -> !pto.ptr<f32>\n"
    "  %vs = pto.make_tensor_view %s, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %vd = pto.make_tensor_view %dst, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %x = pto.alloc_tile : " X_T "\n"
    "  pto.tload ins(%vs : !pto.tensor_view<?x?xf32>) outs(%x : " X_T ")\n"
    "  pto.tstore ins(%x : " X_T ") outs(%vd : !pto.tensor_view<?x?xf32>) {atomicType = #pto<atomic_type atomic_add>}\n"
    "  return\n}\n";

enum { ATOMIC_BLOCKS = 8 };
static float atomic_src_val(int b, int i) { /* big and small terms: f32 addition is not associative here */
  return (b % 3 == 0 ? 3.0e7f : 1.0f) * (float)((b * 5 + i) % 7 - 3) + 0.37f * (float)b;
}

static void atomic_ref(kernel_run *r) {
  const float *dst = r->buf[1];
  int bad = r->st != PTOSIM_OK;
  for (int i = 0; i < 128; i++) {
    volatile float d = (float)i; /* f32 adds in block order */
    for (int b = 0; b < ATOMIC_BLOCKS; b++) d = d + atomic_src_val(b, i);
    bad += dst[i] != d;
  }
  CHECK(bad == 0);
}

static void test_atomic(void) {
  ptosim_program *p = pt_test_load(atomic_src, strlen(atomic_src));
  CHECK(p != NULL);
  if (!p) return;
  static float src[ATOMIC_BLOCKS * 128], dst[128];
  for (int b = 0; b < ATOMIC_BLOCKS; b++)
    for (int i = 0; i < 128; i++) src[b * 128 + i] = atomic_src_val(b, i);
  for (int i = 0; i < 128; i++) dst[i] = (float)i;
  void *bufs[] = {src, dst};
  size_t sizes[] = {sizeof src, sizeof dst};
  CHECK(parallel_status(p, ATOMIC_BLOCKS, bufs, sizes, 2, NULL) == PT_RUN_SEQUENTIAL);
  CHECK(dst[5] == 5.0f); /* put back */
  check_threads(p, ATOMIC_BLOCKS, bufs, sizes, 2, NULL, atomic_ref);
  ptosim_program_free(p);
}

/* examples/gemm.pto on 8 blocks: every block writes the same C. */
static void test_same_output(void) {
  ptosim_program *p = load_file("gemm.pto");
  CHECK(p != NULL);
  if (!p) return;
  static uint16_t a[128 * 128], b[128 * 128];
  static float c[128 * 128];
  for (int i = 0; i < 128 * 128; i++) a[i] = f16_of(i % 65 - 32), b[i] = f16_of(i * 3 % 63 - 31);
  void *bufs[] = {a, b, c};
  size_t sizes[] = {sizeof a, sizeof b, sizeof c};
  CHECK(parallel_status(p, 8, bufs, sizes, 3, NULL) == PT_RUN_SEQUENTIAL);
  check_threads(p, 8, bufs, sizes, 3, NULL, NULL);
  ptosim_program_free(p);
}

/* ---- faults: the lowest faulting block is reported, later blocks never ran -------------------- */

/* Blocks 0-2 store out[b] = b + 1; blocks 3 and 4 store far out of bounds (mem.bounds);
 * blocks 5-7 divide by zero first (run.div_zero). */
static const char *fault_src = CUBE_MODULE
    "func.func @fault(%out: !pto.ptr<i64, gm>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n  %c1 = arith.constant 1 : i64\n  %c3 = arith.constant 3 : i64\n"
    "  %c5 = arith.constant 5 : i64\n  %big = arith.constant 1000000 : i64\n"
    "  %blk = pto.get_block_idx\n"
    "  %low = arith.cmpi slt, %blk, %c5 : i64\n"
    "  %den = arith.select %low, %c1, %c0 : i64\n"
    "  %q = arith.divsi %c1, %den : i64\n"
    "  %ok = arith.cmpi slt, %blk, %c3 : i64\n"
    "  %far = arith.muli %blk, %big : i64\n"
    "  %i = arith.select %ok, %blk, %far : i64\n"
    "  %v = arith.addi %blk, %q : i64\n"
    "  pto.store %v, %out[%i] : !pto.ptr<i64, gm>, i64\n"
    "  return\n}\n}\n";

static void fault_ref(kernel_run *r) {
  const int64_t *out = r->buf[0];
  CHECK(r->st == PTOSIM_E_FAULT && !strcmp(r->diag.rule, "mem.bounds"));
  CHECK(out[0] == 1 && out[1] == 2 && out[2] == 3 && out[3] == -1 && out[7] == -1);
}

static void test_fault(void) {
  ptosim_program *p = pt_test_load(fault_src, strlen(fault_src));
  CHECK(p != NULL);
  if (!p) return;
  int64_t out[8];
  memset(out, 0xff, sizeof out);
  void *bufs[] = {out};
  size_t sizes[] = {sizeof out};
  CHECK(parallel_status(p, 8, bufs, sizes, 1, NULL) == PT_RUN_SEQUENTIAL);
  CHECK(out[0] == -1); /* put back */
  check_threads(p, 8, bufs, sizes, 1, NULL, fault_ref);
  ptosim_program_free(p);
}

/* ---- local memories left by a previous run, put back by a rollback ---------------------------- */

/* Each block keeps L1[b] (i64) from run to run: sum[0] += L1 value; L1 value = L1 value * 2 + b
 * + 1. All blocks update sum[0]: the run is rolled back and must start again from the L1
 * values of before (left by the previous run or a host write). */
static const char *keep_src = CUBE_MODULE
    "func.func @keep(%sum: !pto.ptr<i64, gm>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n  %c1 = arith.constant 1 : i64\n  %c2 = arith.constant 2 : i64\n"
    "  %blk = pto.get_block_idx\n"
    "  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<i64, l1>\n"
    "  %v = pto.load %l1[%blk] : !pto.ptr<i64, l1> -> i64\n"
    "  %s = pto.load %sum[%c0] : !pto.ptr<i64, gm> -> i64\n"
    "  %t = arith.addi %s, %v : i64\n"
    "  pto.store %t, %sum[%c0] : !pto.ptr<i64, gm>, i64\n"
    "  %w = arith.muli %v, %c2 : i64\n  %w1 = arith.addi %w, %blk : i64\n  %w2 = arith.addi %w1, %c1 : i64\n"
    "  pto.store %w2, %l1[%blk] : !pto.ptr<i64, l1>, i64\n"
    "  return\n}\n}\n";

/* L1[b] = b * 10 + 7 and out[b] = b: independent blocks, run in parallel. */
static const char *prep_src = CUBE_MODULE
    "func.func @prep(%out: !pto.ptr<i64, gm>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n  %c7 = arith.constant 7 : i64\n  %c10 = arith.constant 10 : i64\n"
    "  %blk = pto.get_block_idx\n"
    "  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<i64, l1>\n"
    "  %v = arith.muli %blk, %c10 : i64\n  %v7 = arith.addi %v, %c7 : i64\n"
    "  pto.store %v7, %l1[%blk] : !pto.ptr<i64, l1>, i64\n"
    "  pto.store %blk, %out[%blk] : !pto.ptr<i64, gm>, i64\n"
    "  return\n}\n}\n";

static void test_local_rollback(void) {
  ptosim_program *keep = pt_test_load(keep_src, strlen(keep_src)), *prep = pt_test_load(prep_src, strlen(prep_src));
  CHECK(keep && prep);
  if (!keep || !prep) return;
  int64_t out[4] = {0};
  void *bufs[] = {out};
  size_t sizes[] = {sizeof out};
  CHECK(parallel_status(prep, 4, bufs, sizes, 1, NULL) == PTOSIM_OK);
  memset(out, 0, sizeof out);
  for (int host_write = 0; host_write < 2; host_write++) {
    kernel_run one, many;
    run_copy(&one, prep, 4, bufs, sizes, 1, NULL, 1);
    run_copy(&many, prep, 4, bufs, sizes, 1, NULL, 2);
    check_same(&one, &many, sizes, 1, 4, 2);
    if (host_write) /* a host write to local memory: what it wrote must be saved too */
      for (int b = 0; b < 4; b++) {
        int64_t v[4] = {b * 100 + 1, b * 100 + 2, b * 100 + 3, b * 100 + 4};
        ptosim_mem_write(ptosim_core_of(one.m, b, PTOSIM_AIC), PTOSIM_L1, 0, v, sizeof v);
        ptosim_mem_write(ptosim_core_of(many.m, b, PTOSIM_AIC), PTOSIM_L1, 0, v, sizeof v);
      }
    for (int round = 0; round < 2; round++) {
      rerun(&one, keep, 1);
      rerun(&many, keep, 2);
      check_same(&one, &many, sizes, 1, 4, 2);
    }
    /* Reference: block b's L1 value before the keep runs x (b * 10 + 7, or what the
     * host wrote: b * 100 + b + 1), then 2 x + b + 1; out[0] (0 after prep) adds both. */
    int64_t ref = 0;
    for (int b = 0; b < 4; b++) {
      int64_t x = host_write ? b * 100 + b + 1 : b * 10 + 7;
      ref += x + 2 * x + b + 1;
    }
    CHECK_MSG(((int64_t *)one.buf[0])[0] == ref, "sum %lld, expected %lld", (long long)((int64_t *)one.buf[0])[0],
              (long long)ref);
    run_free(&one, 1);
    run_free(&many, 1);
  }
  ptosim_program_free(keep);
  ptosim_program_free(prep);
}

int main(void) {
  RUN(test_gemm_blocks);
  RUN(test_chain);
  RUN(test_atomic);
  RUN(test_same_output);
  RUN(test_fault);
  RUN(test_local_rollback);
  return pt_test_finish();
}
