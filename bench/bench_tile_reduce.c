/* Tile reduce and expand throughput against memcpy of the same bytes, measured in the same
 * run: TROWSUM and TROWEXPANDMUL f32 on a 64 x 512 vec tile (128 KiB), on both targets (their
 * row-sum orders differ: docs/spec-notes-tilereduce.md). Bytes: the source tile for TROWSUM,
 * the destination tile for TROWEXPANDMUL (in place: it reads as many more). Target >= 25% of memcpy. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

enum { ROWS = 64, COLS = 512 };

typedef struct rb {
  ptosim_core *core;
  int expand;
  ptosim_treduce_params red;
  ptosim_texpand_params exp;
} rb;

static void run_op(void *arg) {
  rb *b = arg;
  ptosim_status s = b->expand ? ptosim_trowexpandmul(b->core, &b->exp) : ptosim_trowsum(b->core, &b->red);
  if (s != PTOSIM_OK) abort();
}

static ptosim_tile tile(uint64_t addr, int rows, int cols, ptosim_blayout bl) {
  ptosim_tile t;
  memset(&t, 0, sizeof t);
  t.space = PTOSIM_UB, t.addr = addr, t.dtype = PTOSIM_DT_F32, t.rows = t.valid_rows = rows;
  t.cols = t.valid_cols = cols, t.blayout = bl, t.slayout = PTOSIM_SL_NONE_BOX, t.fractal = 512;
  return t;
}

static void bench_case(ptosim_target tg, int expand) {
  ptosim_machine *m = ptosim_machine_new(tg, 1);
  rb b = {.core = ptosim_core_of(m, 0, PTOSIM_AIV0), .expand = expand};
  size_t bytes = (size_t)ROWS * COLS * 4;
  float *v = malloc(bytes);
  for (size_t i = 0; i < bytes / 4; i++) v[i] = (float)(i % 97) * 0.25f - 12;
  if (ptosim_mem_write(b.core, PTOSIM_UB, 0, v, bytes) != PTOSIM_OK) abort();
  ptosim_tile src = tile(0, ROWS, COLS, PTOSIM_BL_ROW_MAJOR), col = tile(bytes, ROWS, 1, PTOSIM_BL_COL_MAJOR);
  float ones[ROWS];
  for (int i = 0; i < ROWS; i++) ones[i] = 1; /* the in-place product stays finite */
  if (ptosim_mem_write(b.core, PTOSIM_UB, bytes, ones, sizeof ones) != PTOSIM_OK) abort();
  b.red = (ptosim_treduce_params){.src = src, .dst = col};
  b.exp = (ptosim_texpand_params){.src0 = src, .src1 = col, .dst = src}; /* in place: a2a3's UB holds one such tile */
  double t = pt_bench_best(run_op, &b, 0.3), mc = pt_bench_memcpy_gbs(bytes, 0.3);
  char name[96];
  snprintf(name, sizeof name, "%s f32 %dx%d on %s (%zu KiB)", expand ? "trowexpandmul" : "trowsum", ROWS, COLS,
           tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3", bytes / 1024);
  pt_bench_report(name, (double)bytes / t * 1e-9, "GB/s", mc, "memcpy", 0.25);
  free(v);
  ptosim_machine_free(m);
}

int main(void) {
  for (int e = 0; e < 2; e++) {
    bench_case(PTOSIM_TARGET_A2A3, e);
    bench_case(PTOSIM_TARGET_A5, e);
  }
  return 0;
}
