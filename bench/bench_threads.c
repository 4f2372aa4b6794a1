/* Blocks on host threads: examples/gemm_blocks.pto (8 blocks, each a 128 x 128 x K f16
 * GEMM on its own rows, micro level) through ptosim_program_run_threads with 2 threads,
 * against the same run with 1 thread (the baseline), in the same process; each on its
 * own machine, reused run after run. The outputs must be bit-identical. Target: >= 1.7x
 * on 2 threads. The CPU time of a run (all threads) is printed beside it: on a shared
 * host the wall-clock ratio depends on the load, the CPU ratio shows what running in
 * parallel costs (saving GM and the blocks' local state, recording GM accesses). A last
 * row runs examples/gemm.pto on 8 blocks (all write the same C: the first run is undone
 * and redone in order, later runs of the program on that machine go sequential). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/program.h"

enum { BLOCKS = 8, K = 512, N = 128 };

typedef struct ctx {
  ptosim_program *p;
  ptosim_machine *m;
  ptosim_arg args[4];
  int threads;
  uint16_t *a, *b;
  float *c;
} ctx;

static ptosim_program *load(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/examples/%s", PTOSIM_SOURCE_DIR, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  int nerr = 0;
  return ptosim_program_load(path, text, n, NULL, -1, stderr, &nerr);
}

/* A machine of `blocks` blocks with its own copy of the inputs (rows x K of A). */
static void setup(ctx *c, ptosim_program *p, int blocks, size_t rows, size_t kdim, int threads) {
  memset(c, 0, sizeof *c);
  c->p = p;
  c->threads = threads;
  c->m = ptosim_machine_new(PTOSIM_TARGET_A5, blocks);
  c->a = malloc(rows * kdim * 2);
  c->b = malloc(kdim * N * 2);
  c->c = calloc(rows * N, 4);
  for (size_t i = 0; i < rows * kdim; i++) c->a[i] = (uint16_t)(0x3000 + (i * 7 % 1024));  /* f16 in [0.125, 0.25) */
  for (size_t i = 0; i < kdim * N; i++) c->b[i] = (uint16_t)(0xB000 + (i * 13 % 1024)); /* negative */
  ptosim_gm_map(c->m, c->a, rows * kdim * 2, &c->args[0].gm_addr);
  ptosim_gm_map(c->m, c->b, kdim * N * 2, &c->args[1].gm_addr);
  ptosim_gm_map(c->m, c->c, rows * N * 4, &c->args[2].gm_addr);
  c->args[3].i = (int64_t)kdim;
}

static void teardown(ctx *c) {
  ptosim_machine_free(c->m);
  free(c->a);
  free(c->b);
  free(c->c);
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run(void *arg) {
  ctx *c = arg;
  if (ptosim_program_run_threads(c->p, c->m, c->args, c->threads) != PTOSIM_OK) printf("run failed\n");
}

/* Time 1 thread and `threads` threads; print throughput and the ratio; 0 if bit-identical. */
static int compare(const char *name, ptosim_program *p, size_t rows, size_t kdim, int threads) {
  ctx one, many;
  setup(&one, p, BLOCKS, rows, kdim, 1);
  setup(&many, p, BLOCKS, rows, kdim, threads);
  double t1 = pt_bench_best(run, &one, 1.0), tn = pt_bench_best(run, &many, 1.0);
  double c0 = cpu_now();
  for (int i = 0; i < 20; i++) run(&one);
  double c1 = cpu_now();
  for (int i = 0; i < 20; i++) run(&many);
  double cn = (cpu_now() - c1) / 20, cpu1 = (c1 - c0) / 20;
  int same = !memcmp(one.c, many.c, rows * N * 4);
  double flop = 2.0 * BLOCKS * 128 * N * (double)kdim;
  char row[96];
  snprintf(row, sizeof row, "%s, %d threads (GFLOP/s)", name, threads);
  pt_bench_report(row, flop / tn * 1e-9, "GFLOP/s", flop / t1 * 1e-9, "1 thread", threads == 2 ? 1.7 : 0.0);
  printf("  CPU time per run: %.3f ms with 1 thread, %.3f ms with %d (x%.2f)\n", cpu1 * 1e3, cn * 1e3, threads, cn / cpu1);
  if (!same) printf("MISMATCH: %s with %d threads differs from 1 thread\n", name, threads);
  teardown(&one);
  teardown(&many);
  return !same;
}

int main(void) {
  ptosim_program *blocks = load("gemm_blocks.pto"), *shared = load("gemm.pto");
  if (!blocks || !shared) return 1;
  int bad = compare("gemm_blocks 8 x 128x128x512 f16", blocks, (size_t)BLOCKS * 128, K, 2);
  bad |= compare("gemm_blocks 8 x 128x128x64 f16", blocks, (size_t)BLOCKS * 128, 64, 2);
  bad |= compare("gemm.pto 8 blocks, one C (sequential)", shared, 128, 128, 2);
  ptosim_program_free(blocks);
  ptosim_program_free(shared);
  return bad;
}
