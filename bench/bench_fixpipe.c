/* Benchmark of FIXPIPE writeback: pto.mte_l0c_gm nz2nd f32 -> f32 and f32 -> f16 (pre_quant
 * f32_f16) for 64 KiB .. 1 MiB of output, one 256-column L0C tile per op (several ops when the
 * output exceeds one tile), against memcpy of the same number of output bytes (bench.h
 * pt_bench_memcpy_gbs). Targets: f32 -> f32 >= 0.5, f32 -> f16 >= 0.4 of memcpy per output
 * byte. f32 -> f16 reads twice the bytes it writes, so it is also compared per L0C byte read
 * with a memcpy of that many bytes (for information). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

#define MAX_OUT (1u << 20)
#define COLS 256

typedef struct job {
  ptosim_core *aic;
  ptosim_fixpipe_params p;
  uint64_t gm_base;
  int ops;
  size_t op_bytes;
} job;

static void run_fixpipe(void *arg) {
  job *j = arg;
  for (int i = 0; i < j->ops; i++) {
    j->p.dst.addr = j->gm_base + (uint64_t)i * j->op_bytes;
    if (ptosim_mte_l0c_gm(j->aic, &j->p) != PTOSIM_OK) abort();
  }
}

int main(int argc, char **argv) {
  double min_s = argc > 1 && !strcmp(argv[1], "--quick") ? 0.02 : 0.3;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  job j = {.aic = ptosim_core_of(m, 0, PTOSIM_AIC)};
  uint8_t *gm = malloc(MAX_OUT);
  size_t l0c = ptosim_space_capacity(m, PTOSIM_L0C);
  float *acc = malloc(l0c);
  for (size_t i = 0; i < l0c / 4; i++) acc[i] = (float)((i * 2654435761u) % 20001) / 7.0f - 1400.0f;
  if (!gm || !acc || ptosim_gm_map(m, gm, MAX_OUT, &j.gm_base) != PTOSIM_OK ||
      ptosim_mem_write(j.aic, PTOSIM_L0C, 0, acc, l0c) != PTOSIM_OK)
    return 1;
  memset(gm, 3, MAX_OUT);
  for (int f16 = 0; f16 < 2; f16++)
    for (size_t bytes = 64 << 10; bytes <= MAX_OUT; bytes *= 4) {
      unsigned es = f16 ? 2 : 4;
      int64_t rows = (int64_t)(bytes / es / COLS);
      if (rows * COLS * 4 > (int64_t)l0c) rows = (int64_t)l0c / 4 / COLS;
      memset(&j.p, 0, sizeof j.p);
      j.p.src = ptosim_ptr_make(PTOSIM_L0C, PTOSIM_DT_F32, 0);
      j.p.dst = ptosim_ptr_make(PTOSIM_GM, f16 ? PTOSIM_DT_F16 : PTOSIM_DT_F32, j.gm_base);
      j.p.m = rows, j.p.n = COLS, j.p.src_stride = rows, j.p.dst_stride = COLS;
      j.p.layout = PTOSIM_FIX_NZ2ND;
      if (f16) j.p.quant = PTOSIM_QUANT_F32_F16, j.p.quant_scalar.dtype = PTOSIM_DT_F32;
      j.op_bytes = (size_t)rows * COLS * es;
      j.ops = (int)(bytes / j.op_bytes);
      double t_op = pt_bench_best(run_fixpipe, &j, min_s), mc = pt_bench_memcpy_gbs(bytes, min_s);
      char name[96];
      snprintf(name, sizeof name, "mte_l0c_gm nz2nd f32->%s %4zu KiB (%d x %lldx%d)", f16 ? "f16" : "f32", bytes >> 10,
               j.ops, (long long)rows, COLS);
      pt_bench_report(name, (double)bytes / t_op / 1e9, "GB/s", mc, "memcpy", f16 ? 0.4 : 0.5);
      if (!f16) continue;
      snprintf(name, sizeof name, "  same, per L0C byte read (%4zu KiB)", 2 * bytes >> 10);
      pt_bench_report(name, 2.0 * (double)bytes / t_op / 1e9, "GB/s", pt_bench_memcpy_gbs(2 * bytes, min_s), "memcpy",
                      0.0);
    }
  ptosim_machine_free(m);
  free(gm), free(acc);
  return 0;
}
