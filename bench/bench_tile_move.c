/* Tile data movement throughput against memcpy of the same bytes, measured in the same run.
 * Targets: TLOAD / TSTORE ND <-> ND (vec tiles) at >= 50% of memcpy; TLOAD ND -> NZ (mat
 * tile in L1) and TSTORE NZ -> ND (acc tile through the FIXPIPE, f32) at >= 30%. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

typedef enum { LOAD_ND, STORE_ND, LOAD_NZ, STORE_ACC } which;

typedef struct tm_bench {
  which w;
  ptosim_core *core;
  ptosim_tload_params ld;
  ptosim_tstore_params st;
  size_t bytes;
} tm_bench;

static void run_op(void *arg) {
  tm_bench *b = arg;
  ptosim_status s = b->w == LOAD_ND || b->w == LOAD_NZ ? ptosim_tload(b->core, &b->ld) : ptosim_tstore(b->core, &b->st);
  if (s != PTOSIM_OK) abort();
}

/* A 2-D row-major view of rows x cols elements at GM address ga. */
static ptosim_gm_view view2d(ptosim_dtype t, uint64_t ga, int rows, int cols) {
  ptosim_gm_view v;
  memset(&v, 0, sizeof v);
  v.addr = ga, v.dtype = t, v.layout = PTOSIM_GL_ND;
  for (int d = 0; d < 5; d++) v.shape[d] = 1, v.stride[d] = (int64_t)rows * cols;
  v.shape[3] = rows, v.shape[4] = cols, v.stride[3] = cols, v.stride[4] = 1;
  return v;
}

static ptosim_tile tile(ptosim_space sp, ptosim_dtype t, int rows, int cols, ptosim_blayout bl, ptosim_slayout sl,
                        int fractal) {
  ptosim_tile tl;
  memset(&tl, 0, sizeof tl);
  tl.space = sp, tl.dtype = t, tl.rows = tl.valid_rows = rows, tl.cols = tl.valid_cols = cols;
  tl.blayout = bl, tl.slayout = sl, tl.fractal = fractal;
  return tl;
}

static void bench_case(which w, ptosim_dtype t, unsigned es, int rows, int cols) {
  static const char *const names[] = {"tload nd->nd (vec)", "tstore nd->nd (vec)", "tload nd->nz (mat)",
                                      "tstore nz->nd (acc f32)"};
  static const double targets[] = {0.5, 0.5, 0.3, 0.3};
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  tm_bench b = {.w = w, .bytes = (size_t)rows * cols * es};
  uint8_t *gm = malloc(b.bytes);
  for (size_t i = 0; i < b.bytes; i++) gm[i] = (uint8_t)(i * 131 + 7);
  uint64_t ga;
  if (ptosim_gm_map(m, gm, b.bytes, &ga) != PTOSIM_OK) abort();
  ptosim_gm_view v = view2d(t, ga, rows, cols);
  b.core = ptosim_core_of(m, 0, w == LOAD_ND || w == STORE_ND ? PTOSIM_AIV0 : PTOSIM_AIC);
  switch (w) {
    case LOAD_ND:
      b.ld = (ptosim_tload_params){v, tile(PTOSIM_UB, t, rows, cols, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_NONE_BOX, 512)};
      break;
    case STORE_ND:
      b.st.src = tile(PTOSIM_UB, t, rows, cols, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_NONE_BOX, 512), b.st.dst = v;
      break;
    case LOAD_NZ:
      b.ld = (ptosim_tload_params){v, tile(PTOSIM_L1, t, rows, cols, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512)};
      break;
    case STORE_ACC:
      b.st.src = tile(PTOSIM_L0C, t, rows, cols, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024), b.st.dst = v;
      break;
  }
  double to = pt_bench_best(run_op, &b, 0.3), mc = pt_bench_memcpy_gbs(b.bytes, 0.3);
  char name[96];
  snprintf(name, sizeof name, "%s %dx%d %s (%zu KiB)", names[w], rows, cols, es == 2 ? "f16" : "f32", b.bytes / 1024);
  pt_bench_report(name, (double)b.bytes / to * 1e-9, "GB/s", mc, "memcpy", targets[w]);
  free(gm);
  ptosim_machine_free(m);
}

int main(void) {
  for (which w = LOAD_ND; w <= STORE_ND; w++) {
    bench_case(w, PTOSIM_DT_F16, 2, 64, 128);  /*  16 KiB */
    bench_case(w, PTOSIM_DT_F16, 2, 128, 256); /*  64 KiB */
    bench_case(w, PTOSIM_DT_F32, 4, 256, 128); /* 128 KiB */
  }
  bench_case(LOAD_NZ, PTOSIM_DT_F16, 2, 128, 256);   /*  64 KiB */
  bench_case(LOAD_NZ, PTOSIM_DT_F16, 2, 256, 256);   /* 128 KiB */
  bench_case(LOAD_NZ, PTOSIM_DT_F32, 4, 256, 256);   /* 256 KiB */
  bench_case(STORE_ACC, PTOSIM_DT_F32, 4, 128, 128); /*  64 KiB */
  bench_case(STORE_ACC, PTOSIM_DT_F32, 4, 256, 128); /* 128 KiB */
  bench_case(STORE_ACC, PTOSIM_DT_F32, 4, 256, 256); /* 256 KiB */
  return 0;
}
