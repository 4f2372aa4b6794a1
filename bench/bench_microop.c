/* Micro-op dispatch from text: a .pto loop of 256-byte UB -> UB copies (pto.mte_ub_ub, one
 * burst of 8 x 32 B) run unchecked and with every checker on (ptosim_monitor_run), in
 * simulated ops per second, against memcpy of the same 256-byte blocks measured in the
 * same run. Targets (issue 14): >= 20 M ops/s unchecked, >= a third of that checked. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define ITERS 1000000

/* Copy block (i % 128) of the first 32 KiB of UB to the same block of the next 32 KiB. */
static const char *src =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "func.func @k(%n: i64) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  %c8 = arith.constant 8 : i64\n"
    "  %c127 = arith.constant 127 : i64\n"
    "  %c256 = arith.constant 256 : i64\n"
    "  %c32k = arith.constant 32768 : i64\n"
    "  scf.for %i = %c0 to %n step %c1 {\n"
    "    %blk = arith.andi %i, %c127 : i64\n"
    "    %off = arith.muli %blk, %c256 : i64\n"
    "    %d = arith.addi %off, %c32k : i64\n"
    "    %ps = pto.castptr %off : i64 -> !pto.ptr<f32, ub>\n"
    "    %pd = pto.castptr %d : i64 -> !pto.ptr<f32, ub>\n"
    "    pto.mte_ub_ub %ps, %pd, %c8 nburst(%c1, %c0, %c0)\n"
    "  }\n"
    "  return\n"
    "}\n"
    "}\n";

/* The 32 KiB the loop reads, written by the host first. */
static void prepare(ptosim_machine *m) {
  static uint8_t in[32768];
  ptosim_mem_write(ptosim_core_of(m, 0, PTOSIM_AIV0), PTOSIM_UB, 0, in, sizeof in);
}

static _Alignas(64) uint8_t ub[65536];
static void run_memcpy(void *arg) {
  (void)arg;
  for (int64_t i = 0; i < ITERS; i++) memcpy(ub + 32768 + (i & 127) * 256, ub + (i & 127) * 256, 256);
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  pt_bench_prog b = {.arg = ITERS, .checked_arg = ITERS, .prepare = prepare};
  double tm = pt_bench_best(run_memcpy, NULL, 0.3), t0, t1;
  if (pt_bench_prog_time(&b, "microop.pto", src, 1.0, &t0, &t1)) return 1;
  double base = ITERS / tm * 1e-6, plain = ITERS / t0 * 1e-6, checked = ITERS / t1 * 1e-6;
  printf("memcpy of the same 256 B blocks: %.1f M blocks/s (%.1f GB/s)\n", base, base * 256e-3);
  printf("mte_ub_ub 256 B from text: %.2f M ops/s unchecked (target >= 20), %.2f M ops/s with every checker (target >= %.2f)\n",
         plain, checked, plain / 3);
  pt_bench_report("mte_ub_ub 256 B loop, unchecked", plain, "Mops/s", base, "memcpy 256 B", 0.0);
  pt_bench_report("mte_ub_ub 256 B loop, every checker", checked, "Mops/s", plain, "unchecked", 1.0 / 3);
  ptosim_program_free(b.p);
  return 0;
}
