/* The A5 vector core from text: a .pto loop of vlds / vadd / vsts over 64 KiB of f32 in UB
 * (1024 iterations of 64 lanes per pass), run through ptosim_program_run, in simulated vector
 * ops per second, unchecked and with every checker on; printed also as GB/s of UB bytes
 * loaded and stored against memcpy of the same bytes measured in the same run. Targets
 * (issue 15): >= 20 M vector ops/s unchecked, >= a third of that checked. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define PASSES 40
#define ITERS_PER_PASS 256 /* 64 KiB / 256 B */
#define OPS_PER_ITER 4     /* vlds, vlds, vadd, vsts */

static const char *src =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "func.func @k(%passes: index) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c64 = arith.constant 64 : index\n"
    "  %n = arith.constant 16384 : index\n"
    "  %z = arith.constant 0 : i64\n"
    "  %o = arith.constant 65536 : i64\n"
    "  %src = pto.castptr %z : i64 -> !pto.ptr<f32, ub>\n"
    "  %dst = pto.castptr %o : i64 -> !pto.ptr<f32, ub>\n"
    "  pto.vecscope {\n"
    "    %all = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "    scf.for %p = %c0 to %passes step %c1 {\n"
    "      scf.for %i = %c0 to %n step %c64 {\n"
    "        %a = pto.vlds %src[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %b = pto.vlds %dst[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %s = pto.vadd %a, %b, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "        pto.vsts %s, %dst[%i], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  return\n"
    "}\n"
    "}\n";

/* The 128 KiB the loop reads, written by the host first. */
static void prepare(ptosim_machine *m) {
  static float ub[2 * 16384];
  ptosim_mem_write(ptosim_core_of(m, 0, PTOSIM_AIV0), PTOSIM_UB, 0, ub, sizeof ub);
}

int main(void) {
  pt_bench_prog b = {.arg = PASSES, .checked_arg = PASSES, .prepare = prepare};
  double t0, t1;
  if (pt_bench_prog_time(&b, "vector.pto", src, 1.0, &t0, &t1)) return 1;
  double ops = (double)PASSES * ITERS_PER_PASS * OPS_PER_ITER;
  double bytes = (double)PASSES * ITERS_PER_PASS * 3 * 256; /* two loads and one store of 256 B */
  double mgbs = pt_bench_memcpy_gbs(64 * 1024, 0.3);
  printf("vlds/vadd/vsts f32 loop over 64 KiB of UB from text: %.2f M vector ops/s unchecked (target >= 20), "
         "%.2f M with every checker (target >= %.2f)\n",
         ops / t0 * 1e-6, ops / t1 * 1e-6, ops / t0 * 1e-6 / 3);
  pt_bench_report("vector loop, unchecked (UB GB/s)", bytes / t0 * 1e-9, "GB/s", mgbs, "memcpy 64 KiB", 0.0);
  pt_bench_report("vector loop, every checker", ops / t1 * 1e-6, "Mops/s", ops / t0 * 1e-6, "unchecked", 1.0 / 3);
  ptosim_program_free(b.p);
  return 0;
}
