/* Tile reduce and expand throughput against memcpy of the same bytes, measured in the same
 * run: TROWSUM and TROWEXPANDMUL f32 on a 64 x 512 vec tile (128 KiB), on both targets (their
 * row-sum orders differ: docs/spec-notes.md section 17). Bytes: the source tile for TROWSUM,
 * the destination tile for TROWEXPANDMUL (in place: it reads as many more). Target >= 25% of memcpy.
 * Also TROWSUM and TCOLSUM f16 on a 64 x 1024 tile (128 KiB). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

enum { ROWS = 64, COLS = 512 };

typedef struct rb {
  ptosim_core *core;
  int expand; /* 0 trowsum, 1 trowexpandmul, 2 tcolsum */
  ptosim_treduce_params red;
  ptosim_texpand_params exp;
} rb;

static void run_op(void *arg) {
  rb *b = arg;
  ptosim_status s = b->expand == 1   ? ptosim_trowexpandmul(b->core, &b->exp)
                     : b->expand == 2 ? ptosim_tcolsum(b->core, &b->red)
                                      : ptosim_trowsum(b->core, &b->red);
  if (s != PTOSIM_OK) abort();
}

static ptosim_tile tile(ptosim_dtype dt, uint64_t addr, int rows, int cols, ptosim_blayout bl) {
  ptosim_tile t;
  memset(&t, 0, sizeof t);
  t.space = PTOSIM_UB, t.addr = addr, t.dtype = dt, t.rows = t.valid_rows = rows;
  t.cols = t.valid_cols = cols, t.blayout = bl, t.slayout = PTOSIM_SL_NONE_BOX, t.fractal = 512;
  return t;
}

static void bench_case(ptosim_target tg, int expand, int f16) {
  ptosim_machine *m = ptosim_machine_new(tg, 1);
  rb b = {.core = ptosim_core_of(m, 0, PTOSIM_AIV0), .expand = expand};
  ptosim_dtype dt = f16 ? PTOSIM_DT_F16 : PTOSIM_DT_F32;
  int cols = f16 ? 2 * COLS : COLS;
  size_t bytes = (size_t)ROWS * COLS * 4;
  float *v = malloc(bytes);
  uint16_t *h = (uint16_t *)v;
  for (size_t i = 0; i < bytes / 4; i++) v[i] = (float)(i % 97) * 0.25f - 12;
  for (size_t i = 0; f16 && i < bytes / 2; i++) h[i] = (uint16_t)((i % 3 ? 0x3C00 : 0xBC00) + i % 97); /* +-(1 .. 1.1) */
  if (ptosim_mem_write(b.core, PTOSIM_UB, 0, v, bytes) != PTOSIM_OK) abort();
  ptosim_tile src = tile(dt, 0, ROWS, cols, PTOSIM_BL_ROW_MAJOR), col = tile(dt, bytes, ROWS, 1, PTOSIM_BL_COL_MAJOR);
  if (expand == 2) col = tile(dt, bytes, 1, cols, PTOSIM_BL_ROW_MAJOR);
  float ones[ROWS];
  for (int i = 0; i < ROWS; i++) ones[i] = 1; /* the in-place product stays finite */
  if (!f16 && ptosim_mem_write(b.core, PTOSIM_UB, bytes, ones, sizeof ones) != PTOSIM_OK) abort();
  b.red = (ptosim_treduce_params){.src = src, .dst = col};
  b.exp = (ptosim_texpand_params){.src0 = src, .src1 = col, .dst = src}; /* in place: a2a3's UB holds one such tile */
  double t = pt_bench_best(run_op, &b, 0.3), mc = pt_bench_memcpy_gbs(bytes, 0.3);
  char name[96];
  static const char *const ops[] = {"trowsum", "trowexpandmul", "tcolsum"};
  snprintf(name, sizeof name, "%s %s %dx%d on %s (%zu KiB)", ops[expand], f16 ? "f16" : "f32", ROWS, cols,
           tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3", bytes / 1024);
  pt_bench_report(name, (double)bytes / t * 1e-9, "GB/s", mc, "memcpy", 0.25);
  free(v);
  ptosim_machine_free(m);
}

int main(void) {
  for (int e = 0; e < 2; e++) {
    bench_case(PTOSIM_TARGET_A2A3, e, 0);
    bench_case(PTOSIM_TARGET_A5, e, 0);
  }
  for (int e = 0; e < 3; e += 2) {
    bench_case(PTOSIM_TARGET_A2A3, e, 1);
    bench_case(PTOSIM_TARGET_A5, e, 1);
  }
  return 0;
}
