/* Vector compute ops through the C API (ptosim_exec, unchecked, no listener): register ops per
 * second for vadd / vmul / vexp / vcmp / vsel on f32, f16 and i32 lanes, each against a memcpy
 * of one 256-byte register measured in the same run (the lower bound of any op that writes a
 * register). Target: an op within 20x of that copy (ratio 0.05); the goal for a whole
 * vlds / vadd / vsts loop through the interpreter is >= 20 M ops/s. */
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

#define N 200000

typedef struct {
  ptosim_core *core;
  ptosim_opcode op;
  const void *params;
} job;

static void run_ops(void *arg) {
  const job *j = arg;
  for (int i = 0; i < N; i++) ptosim_exec(j->core, j->op, j->params, NULL);
}

static ptosim_vreg a, b, d;
static void run_copy(void *arg) {
  (void)arg;
  for (int i = 0; i < N; i++) {
    memcpy(&d, i & 1 ? &a : &b, sizeof d);
    __asm__ volatile("" ::: "memory");
  }
}

int main(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  ptosim_vmask all, pm;
  memset(&a, 0x3c, sizeof a);
  memset(&b, 0x41, sizeof b);
  memset(&all, 0xFF, sizeof all);
  double base = N / pt_bench_best(run_copy, NULL, 0.2) / 1e6;
  printf("%-44s %10.3f M/s\n", "memcpy of one register (baseline)", base);
  static const struct {
    const char *name;
    ptosim_opcode op;
    ptosim_dtype dt;
    int shape; /* 0 binary, 1 unary, 2 compare */
  } cases[] = {
      {"vadd f32", PTOSIM_OP_vadd, PTOSIM_DT_F32, 0}, {"vadd f16", PTOSIM_OP_vadd, PTOSIM_DT_F16, 0},
      {"vadd i32", PTOSIM_OP_vadd, PTOSIM_DT_I32, 0}, {"vmul bf16", PTOSIM_OP_vmul, PTOSIM_DT_BF16, 0},
      {"vexp f32", PTOSIM_OP_vexp, PTOSIM_DT_F32, 1}, {"vcmp lt f32", PTOSIM_OP_vcmp, PTOSIM_DT_F32, 2},
      {"vsel f32", PTOSIM_OP_vsel, PTOSIM_DT_F32, 0},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ptosim_vbinary_params bp = {&d, &a, &b, &all, cases[i].dt, 0};
    ptosim_vunary_params up = {&d, &a, &all, cases[i].dt, 0};
    ptosim_vcmp_params cp = {&pm, &a, &b, &all, PTOSIM_VCMP_LT, cases[i].dt, 0};
    job j = {c, cases[i].op, cases[i].shape == 0 ? (const void *)&bp : cases[i].shape == 1 ? (const void *)&up : (const void *)&cp};
    double rate = N / pt_bench_best(run_ops, &j, 0.2) / 1e6;
    char name[64];
    snprintf(name, sizeof name, "%s (M ops/s, GB/s = %.2f)", cases[i].name, rate * 256 / 1e3);
    pt_bench_report(name, rate, "M/s", base, "memcpy", 0.05);
  }
  ptosim_machine_free(m);
  return 0;
}
