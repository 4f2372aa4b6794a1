/* Elementwise vector tile ops through the C API (ptosim_exec, no listener) on a 64 x 512
 * tile, against memcpy measured in the same run. Both are counted in bytes of traffic: the
 * op reads its sources and writes dst (TADD f32: 2 x 128 KiB in, 128 KiB out), memcpy of
 * traffic / 2 bytes reads and writes that many. Targets (issue 17): TADD f32 >= 50% of
 * memcpy; TEXP f32 and TCVT f32 -> f16 >= 25%. Two 128 KiB f32 tiles fill a5's 256 KiB UB, so
 * the binary forms write their result over src0 (dst = src0, as in place kernels do). */
#include <string.h>

#include "bench.h"
#include "ptosim/ptosim.h"

#define ROWS 64
#define COLS 512

typedef struct {
  ptosim_core *core;
  ptosim_opcode op;
  const ptosim_telem_params *p;
} job;

static void run_op(void *arg) {
  const job *j = arg;
  ptosim_exec(j->core, j->op, j->p, NULL);
}

static size_t esize(ptosim_dtype t) { return t == PTOSIM_DT_F32 ? 4 : 2; } /* the types used here */

static ptosim_tile tile(ptosim_dtype t, uint64_t addr) {
  ptosim_tile x = {.space = PTOSIM_UB, .addr = addr, .dtype = t, .rows = ROWS, .cols = COLS, .valid_rows = ROWS,
                   .valid_cols = COLS, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  return x;
}

int main(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  enum { T32 = ROWS * COLS * 4 };
  static float init[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; i++) init[i] = (float)(i % 97) * 0.03125f - 1.5f;
  static const struct {
    const char *name;
    ptosim_opcode op;
    ptosim_dtype dst;
    int nsrc;
    double target;
  } cases[] = {
      {"TADD f32 64x512", PTOSIM_OP_tadd, PTOSIM_DT_F32, 2, 0.50},
      {"TMULS f32 64x512", PTOSIM_OP_tmuls, PTOSIM_DT_F32, 1, 0.50},
      {"TADD f16 64x512", PTOSIM_OP_tadd, PTOSIM_DT_F16, 2, 0.25},
      {"TEXP f32 64x512", PTOSIM_OP_texp, PTOSIM_DT_F32, 1, 0.25},
      {"TCVT f32->f16 64x512", PTOSIM_OP_tcvt, PTOSIM_DT_F16, 1, 0.25},
      {"TCVT f32->bf16 ROUND 64x512", PTOSIM_OP_tcvt, PTOSIM_DT_BF16, 1, 0.25},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ptosim_dtype st = cases[i].op == PTOSIM_OP_tcvt ? PTOSIM_DT_F32 : cases[i].dst;
    ptosim_telem_params p = {.src0 = tile(st, 0), .src1 = tile(st, T32), .dst = tile(cases[i].dst, cases[i].nsrc == 2 ? 0 : T32),
                             .scalar = {PTOSIM_DT_F32, 0x3FC00000u}};
    if (cases[i].dst == PTOSIM_DT_BF16) p.rmode = PTOSIM_RM_ROUND;
    ptosim_mem_write(c, PTOSIM_UB, 0, init, sizeof init); /* finite sources for every case */
    ptosim_mem_write(c, PTOSIM_UB, T32, init, sizeof init);
    job j = {c, cases[i].op, &p};
    if (ptosim_exec(c, j.op, &p, NULL) != PTOSIM_OK) {
      printf("%s: %s\n", cases[i].name, ptosim_last_diag(m)->msg);
      return 1;
    }
    size_t traffic = (size_t)ROWS * COLS * (cases[i].nsrc * esize(st) + esize(cases[i].dst));
    double t = pt_bench_best(run_op, &j, 0.3);
    double mc = 2 * pt_bench_memcpy_gbs(traffic / 2, 0.3);
    pt_bench_report(cases[i].name, (double)traffic / t * 1e-9, "GB/s", mc, "memcpy", cases[i].target);
  }
  ptosim_machine_free(m);
  return 0;
}
