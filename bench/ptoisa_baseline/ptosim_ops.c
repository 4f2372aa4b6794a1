/* The ptosim side of bench/ptoisa_baseline.sh: times TEXP f32, TCVT f32 -> f16 (RINT),
 * TROWSUM f32 and TROWEXPANDMUL f32 on a 64 x 512 UB tile through ptosim_exec (no listener,
 * as bench_tile_elem.c / bench_tile_reduce.c), on a5 and a2a3, and compares each output with
 * pto-isa's (OUTDIR/OP.bin, written by ptoisa_ops on the same inputs: inputs.h).
 *
 *   ptosim_ops OUTDIR MIN_SECONDS
 *
 * prints "ptosim-TARGET OP MICROSECONDS" per op (best single call, bench.h pt_bench_best),
 * then "compare TARGET OP: D of N elements differ, max M ulp" per op whose pto-isa output
 * exists. The comparison only reports; it asserts nothing.
 * TEXP runs on a5 only: its f32 source and destination (2 x 128 KiB) fill a5's 256 KiB UB
 * but not a2a3's 192 KiB, and in place the values would grow to infinity run after run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "inputs.h"
#include "ptosim/ptosim.h"

enum { TILE_BYTES = PB_N * 4 };

typedef struct job {
  ptosim_machine *m;
  ptosim_core *core;
  ptosim_opcode op;
  const void *params;
} job;

static void run_op(void *arg) {
  const job *j = arg;
  if (ptosim_exec(j->core, j->op, j->params, NULL) == PTOSIM_OK) return;
  fprintf(stderr, "ptosim_ops: %s\n", ptosim_last_diag(j->m)->msg);
  exit(1);
}

/* An f32 UB tile (TCVT's destination changes its dtype). */
static ptosim_tile tile(uint64_t addr, int rows, int cols, ptosim_blayout bl) {
  ptosim_tile x;
  memset(&x, 0, sizeof x);
  x.space = PTOSIM_UB, x.addr = addr, x.dtype = PTOSIM_DT_F32, x.rows = x.valid_rows = rows;
  x.cols = x.valid_cols = cols, x.blayout = bl, x.slayout = PTOSIM_SL_NONE_BOX, x.fractal = 512;
  return x;
}

static void write_or_die(ptosim_core *c, uint64_t addr, const void *src, size_t n) {
  if (ptosim_mem_write(c, PTOSIM_UB, addr, src, n) != PTOSIM_OK) abort();
}

/* The place of a float of `bits` bits (bit pattern v) on a monotonic integer line
 * (sign-magnitude -> two's complement): two places differ by their distance in ulp. */
static int64_t ordered(uint32_t v, int bits) {
  uint32_t sign = 1u << (bits - 1);
  return v & sign ? -(int64_t)(v & (sign - 1)) : (int64_t)v;
}

/* Compare ptosim's `n` elements of `esize` bytes at UB `addr` with OUTDIR/OP.bin. */
static void compare(ptosim_core *c, const char *tg, const char *outdir, const char *op, uint64_t addr, size_t n,
                    size_t esize) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.bin", outdir, op);
  FILE *f = fopen(path, "rb");
  if (!f) return;
  uint8_t *theirs = malloc(n * esize), *ours = malloc(n * esize);
  if (!theirs || !ours) abort();
  size_t got = fread(theirs, esize, n, f);
  fclose(f);
  if (ptosim_mem_read(c, PTOSIM_UB, addr, ours, n * esize) != PTOSIM_OK) abort();
  size_t differ = 0;
  int64_t max_ulp = 0;
  for (size_t i = 0; i < got; i++) {
    uint32_t a = 0, b = 0;
    memcpy(&a, theirs + i * esize, esize), memcpy(&b, ours + i * esize, esize);
    int64_t d = ordered(a, (int)esize * 8) - ordered(b, (int)esize * 8);
    d = d < 0 ? -d : d;
    differ += d != 0;
    if (d > max_ulp) max_ulp = d;
  }
  printf("compare %s %s: %zu of %zu elements differ from pto-isa, max %lld ulp%s\n", tg, op, differ, n, (long long)max_ulp,
         got == n ? "" : " (pto-isa output too short)");
  free(theirs), free(ours);
}

static void timed(ptosim_machine *m, const char *tg, const char *name, ptosim_opcode op, const void *params,
                  double min_s) {
  job j = {m, ptosim_core_of(m, 0, PTOSIM_AIV0), op, params};
  printf("ptosim-%s %s %.3f\n", tg, name, 1e6 * pt_bench_best(run_op, &j, min_s));
}

static void bench_target(ptosim_target target, const char *outdir, double min_s) {
  const char *tg = target == PTOSIM_TARGET_A5 ? "a5" : "a2a3";
  ptosim_machine *m = ptosim_machine_new(target, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  static float in[PB_N], rowf[PB_ROWS], ones[PB_ROWS];
  for (int i = 0; i < PB_N; i++) in[i] = pb_input(i);
  for (int r = 0; r < PB_ROWS; r++) rowf[r] = pb_row_factor(r), ones[r] = 1;
  write_or_die(c, 0, in, sizeof in);
  ptosim_tile src = tile(0, PB_ROWS, PB_COLS, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile after = tile(TILE_BYTES, PB_ROWS, PB_COLS, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile col = tile(TILE_BYTES, PB_ROWS, 1, PTOSIM_BL_COL_MAJOR);

  if (target == PTOSIM_TARGET_A5) {
    ptosim_telem_params p = {.src0 = src, .dst = after};
    timed(m, tg, "texp", PTOSIM_OP_texp, &p, min_s);
    compare(c, tg, outdir, "texp", TILE_BYTES, PB_N, 4);
  }
  ptosim_telem_params cv = {.src0 = src, .dst = after, .rmode = PTOSIM_RM_RINT};
  cv.dst.dtype = PTOSIM_DT_F16;
  timed(m, tg, "tcvt", PTOSIM_OP_tcvt, &cv, min_s);
  compare(c, tg, outdir, "tcvt", TILE_BYTES, PB_N, 2);

  ptosim_treduce_params rs = {.src = src, .dst = col};
  timed(m, tg, "trowsum", PTOSIM_OP_trowsum, &rs, min_s);
  compare(c, tg, outdir, "trowsum", TILE_BYTES, PB_ROWS, 4);

  /* In place (dst = src0: a2a3's UB holds one such tile) by 1 while timed, then once by
   * pb_row_factor on fresh input, as ptoisa_ops does. */
  ptosim_texpand_params ex = {.src0 = src, .src1 = col, .dst = src};
  write_or_die(c, TILE_BYTES, ones, sizeof ones);
  timed(m, tg, "trowexpandmul", PTOSIM_OP_trowexpandmul, &ex, min_s);
  write_or_die(c, 0, in, sizeof in);
  write_or_die(c, TILE_BYTES, rowf, sizeof rowf);
  run_op(&(job){m, c, PTOSIM_OP_trowexpandmul, &ex});
  compare(c, tg, outdir, "trowexpandmul", 0, PB_N, 4);
  ptosim_machine_free(m);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ptosim_ops OUTDIR MIN_SECONDS\n");
    return 2;
  }
  bench_target(PTOSIM_TARGET_A5, argv[1], atof(argv[2]));
  bench_target(PTOSIM_TARGET_A2A3, argv[1], atof(argv[2]));
  return 0;
}
