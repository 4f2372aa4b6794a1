/* Gather loop from text: a .pto loop that walks 64 KiB of f32 in UB with pto.vgather2 (each
 * 256-byte block, addressed by pto.addptr, read in reversed lane order: offsets 63..0 from
 * pto.vci) and stores the gathered register with pto.vsts, run unchecked and with every
 * checker on (ptosim_monitor_run, a tenth of the passes). Reported: vector ops per second
 * (2 per iteration) and gathers per second, against memcpy of the same 256-byte blocks of
 * a 64 KiB buffer measured in the same run. Target (issue 16): >= 10 M vector ops/s unchecked. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define PASSES 200 /* walks over the 64 KiB: 256 gathers each */
#define BLOCKS 256
#define OPS_PER_ITER 2

static const char *src =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "func.func @k(%passes: index) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c64 = arith.constant 64 : index\n"
    "  %c16384 = arith.constant 16384 : index\n"
    "  %c63_i32 = arith.constant 63 : i32\n"
    "  %in_addr = arith.constant 0 : i64\n"
    "  %out_addr = arith.constant 65536 : i64\n"
    "  %ub_in = pto.castptr %in_addr : i64 -> !pto.ptr<f32, ub>\n"
    "  %ub_out = pto.castptr %out_addr : i64 -> !pto.ptr<f32, ub>\n"
    "  pto.vecscope {\n"
    "    %all = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "    %rev = pto.vci %c63_i32 {order = \"DESC\"} : i32 -> !pto.vreg<64xi32>\n"
    "    scf.for %p = %c0 to %passes step %c1 {\n"
    "      scf.for %e = %c0 to %c16384 step %c64 {\n"
    "        %blk = pto.addptr %ub_in, %e : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>\n"
    "        %g = pto.vgather2 %blk, %rev, %all : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "        pto.vsts %g, %ub_out[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  return\n"
    "}\n"
    "}\n";

static _Alignas(64) uint8_t ub[65536 + 256];
static void run_memcpy(void *arg) {
  (void)arg;
  for (int p = 0; p < PASSES; p++)
    for (int b = 0; b < BLOCKS; b++) memcpy(ub + 65536, ub + b * 256, 256);
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  pt_bench_prog b = {.arg = PASSES, .checked_arg = PASSES / 10};
  memset(ub, 0x3C, sizeof ub);
  double tm = pt_bench_best(run_memcpy, NULL, 0.3), t0, t1;
  if (pt_bench_prog_time(&b, "gather.pto", src, 1.0, &t0, &t1)) return 1;
  double iters = (double)PASSES * BLOCKS;
  double base = iters / tm * 1e-6, gathers = iters / t0 * 1e-6, checked = iters / 10 / t1 * 1e-6;
  printf("memcpy of the same 256 B blocks: %.1f M blocks/s (%.1f GB/s)\n", base, base * 256e-3);
  printf("vgather2 loop over 64 KiB f32 from text: %.2f M vector ops/s unchecked (target >= 10), %.2f M gathers/s "
         "(%.2f GB/s gathered); %.2f M vector ops/s with every checker\n",
         gathers * OPS_PER_ITER, gathers, gathers * 256e-3, checked * OPS_PER_ITER);
  pt_bench_report("vgather2 loop, unchecked (gathers)", gathers, "M/s", base, "memcpy 256 B", 0.0);
  pt_bench_report("vgather2 loop, every checker (gathers)", checked, "M/s", gathers, "unchecked", 1.0 / 3);
  ptosim_program_free(b.p);
  return 0;
}
