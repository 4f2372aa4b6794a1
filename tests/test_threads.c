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

int main(void) {
  RUN(test_gemm_blocks);
  return pt_test_finish();
}
