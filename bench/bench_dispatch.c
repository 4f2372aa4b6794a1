/* Interpreter dispatch: a .pto loop of scalar arith ops run through ptosim_program_run,
 * in simulated ops per second, against the same computation as a plain C loop (the
 * trivial baseline) measured in the same run. Target: >= 50 million ops/s. */
#include <stdint.h>
#include <string.h>

#include "bench.h"
#include "ptosim/program.h"

#define ITERS 2000000
/* Per iteration: 6 arith ops + the loop step/compare (counted as 1). */
#define OPS_PER_ITER 7

static const char *src =
    "func.func @k(%out: !pto.ptr<i64, gm>, %n: i64) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  %c3 = arith.constant 3 : i64\n"
    "  %c7 = arith.constant 7 : i64\n"
    "  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c1) -> (i64) {\n"
    "    %m = arith.muli %a, %c3 : i64\n"
    "    %x = arith.xori %m, %i : i64\n"
    "    %s = arith.shrui %x, %c1 : i64\n"
    "    %t = arith.addi %s, %c7 : i64\n"
    "    %u = arith.andi %t, %x : i64\n"
    "    %v = arith.subi %x, %u : i64\n"
    "    scf.yield %v : i64\n"
    "  }\n"
    "  pto.store %r, %out[%c0] : !pto.ptr<i64, gm>, i64\n"
    "  return\n"
    "}\n";

typedef struct {
  ptosim_program *p;
  ptosim_machine *m;
  ptosim_arg args[2];
  int64_t out;
} ctx;

static void run_sim(void *arg) {
  ctx *c = arg;
  ptosim_program_run(c->p, c->m, c->args);
}

static volatile int64_t sink;
static void run_c(void *arg) {
  (void)arg;
  int64_t a = 1;
  for (int64_t i = 0; i < ITERS; i++) {
    int64_t x = (int64_t)((uint64_t)a * 3) ^ i;
    int64_t s = (int64_t)((uint64_t)x >> 1);
    int64_t t = s + 7;
    a = x - (t & x);
  }
  sink = a;
}

int main(void) {
  ctx c = {0};
  int nerr = 0;
  c.p = ptosim_program_load("dispatch.pto", src, strlen(src), NULL, -1, stderr, &nerr);
  if (!c.p) return 1;
  c.m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_gm_map(c.m, &c.out, sizeof c.out, &c.args[0].gm_addr);
  c.args[1].i = ITERS;
  double ts = pt_bench_best(run_sim, &c, 1.0), tc = pt_bench_best(run_c, NULL, 0.3);
  run_c(NULL);
  if (c.out != sink) printf("MISMATCH: simulated %lld, C %lld\n", (long long)c.out, (long long)sink);
  double ops = (double)ITERS * OPS_PER_ITER;
  printf("interpreter dispatch: %.1f M simulated scalar ops/s (target >= 50)\n", ops / ts * 1e-6);
  pt_bench_report("scalar arith loop (ops/s, x1e6)", ops / ts * 1e-6, "Mops/s", ops / tc * 1e-6, "plain C loop", 0.0);
  ptosim_machine_free(c.m);
  ptosim_program_free(c.p);
  return 0;
}
