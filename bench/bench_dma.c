/* DMA bandwidth: pto.mte_ub_gm and pto.mte_gm_ub against memcpy of the same number of
 * bytes, measured in the same run. Transfers of 64 KiB, 256 KiB and 1 MiB in rows of
 * 512 B and 4 KiB; the 1 MiB cases repeat a 64 KiB UB window with a loop(...) group
 * whose UB-side stride is 0. "strided" cases write every other GM row (a tile inside a
 * matrix twice as wide), so rows cannot be merged into one copy. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

#define KIB 1024ll
#define MIN_SECONDS 0.2

typedef struct op_arg {
  ptosim_core *core;
  ptosim_dma_params p;
  int load;
} op_arg;

static void run_op(void *p) {
  op_arg *a = p;
  ptosim_status st = a->load ? ptosim_mte_gm_ub(a->core, &a->p) : ptosim_mte_ub_gm(a->core, &a->p);
  if (st != PTOSIM_OK) {
    fprintf(stderr, "bench_dma: op failed (%d)\n", st);
    exit(1);
  }
}

static double gbps(long long bytes, double seconds) { return (double)bytes / seconds / 1e9; }

int main(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *aiv = ptosim_core_of(m, 0, PTOSIM_AIV0);
  const long long gm_bytes = 2 * 1024 * KIB;
  uint8_t *gm = malloc((size_t)gm_bytes);
  for (long long i = 0; gm && i < gm_bytes; i++) gm[i] = (uint8_t)(i * 131 + 7);
  uint64_t gm_addr;
  if (!m || !gm || ptosim_gm_map(m, gm, (size_t)gm_bytes, &gm_addr) != PTOSIM_OK) return 1;

  static const long long sizes[] = {64 * KIB, 256 * KIB, 1024 * KIB};
  static const long long rows[] = {512, 4 * KIB};
  for (int dir = 0; dir < 2; dir++) {
    for (int si = 0; si < 3; si++) {
      long long total = sizes[si];
      double base = pt_bench_memcpy_gbs((size_t)total, MIN_SECONDS);
      for (int ri = 0; ri < 2; ri++) {
        for (int strided = 0; strided < 2; strided++) {
          long long row = rows[ri], window = total > 64 * KIB ? 64 * KIB : total, gm_row = row * (strided ? 2 : 1);
          op_arg op;
          memset(&op, 0, sizeof op);
          op.core = aiv;
          op.load = dir == 0;
          ptosim_ptr ub = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_F32, 0);
          ptosim_ptr g = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F32, gm_addr);
          op.p.src = op.load ? g : ub;
          op.p.dst = op.load ? ub : g;
          op.p.len_burst = row;
          /* one window of rows; 256 KiB fits the A5 UB in one go */
          long long n = (total == 256 * KIB ? total : window) / row;
          op.p.nburst = (ptosim_loop){n, op.load ? gm_row : row, op.load ? row : gm_row};
          if (total > 256 * KIB) { /* repeat the UB window, advancing GM */
            op.p.nloops = 1;
            op.p.loops[0] = (ptosim_loop){total / window, op.load ? n * gm_row : 0, op.load ? 0 : n * gm_row};
          }
          double v = gbps(total, pt_bench_best(run_op, &op, MIN_SECONDS));
          char name[80];
          snprintf(name, sizeof name, "%s %4lld KiB rows %4lld B%s", op.load ? "mte_gm_ub" : "mte_ub_gm", total / KIB, row,
                   strided ? " strided" : "");
          pt_bench_report(name, v, "GB/s", base, "memcpy", 0.5);
        }
      }
    }
  }
  ptosim_machine_free(m);
  free(gm);
  return 0;
}
