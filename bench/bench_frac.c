/* pto.mte_gm_l1_frac throughput against memcpy of the same bytes, measured in the same run.
 * Target: nd2nz on 64 KiB .. 512 KiB transfers at >= 50% of memcpy bandwidth. dn2nz (a
 * transposing gather) and the L1 -> L0A load are printed for information. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

typedef struct frac_bench {
  ptosim_core *core;
  ptosim_frac_params p;
  ptosim_l0_load_params l0;
  size_t bytes;
} frac_bench;

static void run_frac(void *arg) {
  frac_bench *b = arg;
  if (ptosim_mte_gm_l1_frac(b->core, &b->p) != PTOSIM_OK) abort();
}

static void run_l0a(void *arg) {
  frac_bench *b = arg;
  if (ptosim_mte_l1_l0a(b->core, &b->l0) != PTOSIM_OK) abort();
}

/* rows x cols matrix of element size es, ND in GM, to an NZ tile at L1 address 0. */
static void bench_case(ptosim_dtype t, unsigned es, int64_t rows, int64_t cols, ptosim_frac_mode mode) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  frac_bench b = {.core = ptosim_core_of(m, 0, PTOSIM_AIC), .bytes = (size_t)(rows * cols) * es};
  uint8_t *src = malloc(b.bytes);
  for (size_t i = 0; i < b.bytes; i++) src[i] = (uint8_t)(i * 131 + 7);
  uint64_t ga;
  if (ptosim_gm_map(m, src, b.bytes, &ga) != PTOSIM_OK) abort();
  bool nd = mode == PTOSIM_ND2NZ;
  b.p = (ptosim_frac_params){
      .src = ptosim_ptr_make(PTOSIM_GM, t, ga),
      .dst = ptosim_ptr_make(PTOSIM_L1, t, 0),
      .mode = mode,
      .n_value = rows,
      .d_value = cols,
      .src_inner_stride = (nd ? cols : rows) * (int64_t)es,
      .group_count = 1,
      .dst_loop2_stride = 1,
      .dst_loop3_stride = rows,
  };
  double tf = pt_bench_best(run_frac, &b, 0.3), gbm = pt_bench_memcpy_gbs(b.bytes, 0.3);
  double gbf = (double)b.bytes / tf * 1e-9;
  char name[96];
  snprintf(name, sizeof name, "frac %s %lldx%lld %s (%zu KiB)", nd ? "nd2nz" : "dn2nz", (long long)rows,
           (long long)cols, es == 2 ? "f16" : "f32", b.bytes / 1024);
  pt_bench_report(name, gbf, "GB/s", gbm, "memcpy", nd ? 0.5 : 0.0);
  if (nd && b.bytes <= 64 * 1024) { /* the L0A load of the same tile (fits 64 KiB) */
    b.l0 = (ptosim_l0_load_params){
        ptosim_ptr_make(PTOSIM_L1, t, 0), ptosim_ptr_make(PTOSIM_L0A, t, 0), rows, cols, 0, 0, false};
    double tl = pt_bench_best(run_l0a, &b, 0.3);
    snprintf(name, sizeof name, "mte_l1_l0a %lldx%lld (%zu KiB)", (long long)rows, (long long)cols, b.bytes / 1024);
    pt_bench_report(name, (double)b.bytes / tl * 1e-9, "GB/s", gbm, "memcpy", 0.0);
  }
  free(src);
  ptosim_machine_free(m);
}

int main(void) {
  bench_case(PTOSIM_DT_F16, 2, 128, 256, PTOSIM_ND2NZ); /*  64 KiB */
  bench_case(PTOSIM_DT_F16, 2, 256, 256, PTOSIM_ND2NZ); /* 128 KiB */
  bench_case(PTOSIM_DT_F16, 2, 512, 256, PTOSIM_ND2NZ); /* 256 KiB */
  bench_case(PTOSIM_DT_F32, 4, 256, 256, PTOSIM_ND2NZ); /* 256 KiB */
  bench_case(PTOSIM_DT_F32, 4, 256, 512, PTOSIM_ND2NZ); /* 512 KiB */
  bench_case(PTOSIM_DT_F16, 2, 256, 256, PTOSIM_DN2NZ);
  return 0;
}
