/* Vector reductions through the interpreter: a .pto loop of vlds + vcadd (and of vlds +
 * vcgmax) over 64 KiB of f32 in UB, repeated, run through ptosim_program_run unchecked (no
 * monitor), in M vector ops per second (vlds and the reduction each count as one op) and in
 * GB/s of UB read, against memcpy of the same 64 KiB measured in the same run. Target (issue
 * 16): >= 10 M vector ops/s. The last result is stored to GM and checked against a C sum. */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "ptosim/program.h"

#define BYTES 65536
#define REPS 64
#define OPS_PER_PASS (2 * BYTES / 256) /* one vlds and one reduction per 256-byte register */

/* %reps passes over ub[0, 64 KiB); the reduction of the last register goes to %out. */
static const char *src_text =
    "func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>, %reps: i64) attributes {pto.kernel} {\n"
    "  %c0_i64 = arith.constant 0 : i64\n  %c1_i64 = arith.constant 1 : i64\n  %c256 = arith.constant 256 : i64\n"
    "  %c2_i64 = arith.constant 2 : i64\n  %c32768 = arith.constant 32768 : i64\n  %c65536 = arith.constant 65536 : i64\n"
    "  %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "  %uo = pto.castptr %c65536 : i64 -> !pto.ptr<f32, ub>\n"
    "  pto.mte_gm_ub %in, %ub, %c0_i64, %c32768 nburst(%c2_i64, %c32768, %c32768) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, "
    "i64, i64, i64, i64, i64\n"
    "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "  pto.vecscope {\n"
    "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c64 = arith.constant 64 : index\n"
    "    %c16384 = arith.constant 16384 : index\n    %c16320 = arith.constant 16320 : index\n"
    "    %n = arith.index_cast %reps : i64 to index\n"
    "    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "    scf.for %r = %c0 to %n step %c1 {\n"
    "      scf.for %off = %c0 to %c16384 step %c64 {\n"
    "        %v = pto.vlds %ub[%off] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %s = pto.OPNAME %v, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "      }\n"
    "    }\n"
    "    %last = pto.vlds %ub[%c16320] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "    %res = pto.OPNAME %last, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "    pto.vsts %res, %uo[%c0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "  }\n"
    "  pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n  pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "  pto.mte_ub_gm %uo, %out, %c256 nburst(%c1_i64, %c256, %c256) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, "
    "i64, i64\n"
    "  pto.barrier #pto.pipe<PIPE_ALL>\n  return\n}\n";

typedef struct {
  ptosim_program *p;
  ptosim_machine *m;
  ptosim_arg args[3];
} ctx;

static void run_sim(void *arg) {
  ctx *c = arg;
  if (ptosim_program_run(c->p, c->m, c->args) != PTOSIM_OK) abort();
}

static float in[BYTES / 4], out[64];

int main(void) {
  for (int i = 0; i < BYTES / 4; i++) in[i] = (float)(i % 97) * 0.25f - 12.0f;
  double copy_gbs = pt_bench_memcpy_gbs(BYTES, 0.2);
  printf("%-44s %10.3f GB/s\n", "memcpy of 64 KiB (baseline)", copy_gbs);
  static const char *const ops[] = {"vcadd", "vcgmax"};
  for (unsigned o = 0; o < 2; o++) {
    char src[4096] = "";
    for (const char *t = src_text, *at; *t; t = at + 6) { /* OPNAME -> the op */
      if (!(at = strstr(t, "OPNAME"))) {
        strcat(src, t);
        break;
      }
      strncat(src, t, (size_t)(at - t));
      strcat(src, ops[o]);
    }
    ctx c = {0};
    int nerr = 0;
    c.p = ptosim_program_load("reduce.pto", src, strlen(src), NULL, -1, stderr, &nerr);
    if (!c.p) return 1;
    c.m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
    ptosim_gm_map(c.m, in, sizeof in, &c.args[0].gm_addr);
    ptosim_gm_map(c.m, out, sizeof out, &c.args[1].gm_addr);
    c.args[2].i = REPS;
    double t = pt_bench_best(run_sim, &c, 1.0);
    /* lane 0 of the last register's reduction: the sum of in[16320, 16384) (quarters: exact in
     * any order) or the maximum of its first VLane in[16320, 16328) */
    float want = o ? -INFINITY : 0;
    for (int i = 16320; i < (o ? 16328 : 16384); i++) want = o ? fmaxf(want, in[i]) : want + in[i];
    if (out[0] != want) printf("MISMATCH: %s of the last register %g, expected %g\n", ops[o], out[0], want);
    double ops_s = (double)REPS * OPS_PER_PASS / t * 1e-6, gbs = (double)REPS * BYTES / t * 1e-9;
    char name[80];
    snprintf(name, sizeof name, "vlds + %s loop, M vector ops/s (target >= 10)", ops[o]);
    printf("%-44s %10.3f M/s\n", name, ops_s);
    snprintf(name, sizeof name, "vlds + %s loop, UB GB/s", ops[o]);
    pt_bench_report(name, gbs, "GB/s", copy_gbs, "memcpy 64 KiB", 0.0);
    ptosim_machine_free(c.m);
    ptosim_program_free(c.p);
  }
  return 0;
}
