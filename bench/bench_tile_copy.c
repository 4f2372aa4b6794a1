/* Layout-changing tile copies (pto.tmov / pto.textract / pto.tinsert between ND, NZ, ZN, ZZ,
 * NN and the L0A / L0B fractal tiles, targets a5 and a2a3) against memcpy of the same bytes,
 * measured in the same run. Target: every pair at >= 30% of memcpy. Tiles of 32 KiB (f16 / bf16
 * 128 x 128, f32 128 x 64 or 64 x 128, i8 / fp8 128 x 256), the whole tile moved (textract and
 * tinsert: a 32 KiB window of a 64 KiB tile). Usage: bench_tile_copy [--quick]. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "core/dtype.h"
#include "core/profile.h"
#include "ptosim/ptosim.h"

#define BL_R PTOSIM_BL_ROW_MAJOR
#define BL_C PTOSIM_BL_COL_MAJOR
#define SL_N PTOSIM_SL_NONE_BOX
#define SL_R PTOSIM_SL_ROW_MAJOR
#define SL_C PTOSIM_SL_COL_MAJOR

typedef enum kind { ND, NZ, ZN, ZZ, NN } kind;

static const struct {
  ptosim_blayout bl;
  ptosim_slayout sl;
  const char *name;
} k_kinds[] = {[ND] = {BL_R, SL_N, "ND"}, [NZ] = {BL_C, SL_R, "NZ"}, [ZN] = {BL_R, SL_C, "ZN"},
               [ZZ] = {BL_R, SL_R, "ZZ"}, [NN] = {BL_C, SL_C, "NN"}};

typedef struct pair {
  ptosim_target tgt;
  ptosim_opcode op;
  ptosim_dtype dt;
  ptosim_space ss, ds;
  kind sk, dk;
  int rows, cols; /* the moved region; textract / tinsert: the big tile is twice as wide */
} pair;

#define P(t, o, d, ss, sk, ds, dk, r, c) \
  {PTOSIM_TARGET_##t, PTOSIM_OP_##o, PTOSIM_DT_##d, PTOSIM_##ss, PTOSIM_##ds, sk, dk, r, c}

static const pair k_pairs[] = {
    /* mat -> left / right (MTE1 fractal moves) */
    P(A5, tmov, F16, L1, NZ, L0A, NZ, 128, 128),   P(A5, tmov, F32, L1, NZ, L0A, NZ, 128, 64),
    P(A5, tmov, I8, L1, NZ, L0A, NZ, 128, 256),    P(A5, tmov, F16, L1, ZN, L0A, NZ, 128, 128),
    P(A5, tmov, F32, L1, ZN, L0A, NZ, 128, 64),    P(A5, tmov, I8, L1, ZN, L0A, NZ, 128, 256),
    P(A5, tmov, F16, L1, ND, L0A, NZ, 128, 128),   P(A5, tmov, F16, L1, NZ, L0B, ZN, 128, 128),
    P(A5, tmov, F32, L1, NZ, L0B, ZN, 64, 128),    P(A5, tmov, I8, L1, NZ, L0B, ZN, 256, 128),
    P(A5, tmov, F8E4M3, L1, NZ, L0B, ZN, 256, 128), P(A5, tmov, F16, L1, ZN, L0B, ZN, 128, 128),
    P(A5, tmov, F32, L1, ZN, L0B, ZN, 64, 128),    P(A5, tmov, F16, L1, ND, L0B, ZN, 128, 128),
    P(A5, textract, F16, L1, NZ, L0A, NZ, 128, 128), P(A5, textract, F16, L1, NZ, L0B, ZN, 128, 128),
    P(A5, textract, F32, L1, ZN, L0A, NZ, 128, 64), P(A5, textract, BF16, L1, ND, L0B, ZN, 128, 128),
    P(A2A3, tmov, F16, L1, NZ, L0A, ZZ, 128, 128), P(A2A3, tmov, F32, L1, NZ, L0A, ZZ, 128, 64),
    P(A2A3, tmov, I8, L1, NZ, L0A, ZZ, 128, 256),  P(A2A3, tmov, F16, L1, ZN, L0A, ZZ, 128, 128),
    P(A2A3, tmov, F32, L1, ZN, L0A, ZZ, 128, 64),  P(A2A3, tmov, F16, L1, ND, L0A, ZZ, 128, 128),
    P(A2A3, tmov, F16, L1, NZ, L0B, ZN, 128, 128), P(A2A3, tmov, F32, L1, NZ, L0B, ZN, 64, 128),
    P(A2A3, tmov, I8, L1, ZN, L0B, ZN, 256, 128),  P(A2A3, textract, F16, L1, NZ, L0A, ZZ, 128, 128),
    P(A2A3, textract, F32, L1, NZ, L0B, ZN, 64, 128),
    /* vec -> vec (V) and vec -> mat (MTE3) */
    P(A5, tmov, F16, UB, ND, UB, NZ, 128, 128),    P(A5, tmov, F32, UB, ND, UB, NZ, 128, 64),
    P(A5, tmov, I8, UB, ND, UB, NZ, 128, 256),     P(A5, tmov, F16, UB, ND, UB, ZN, 128, 128),
    P(A5, tmov, F32, UB, ND, UB, ZN, 128, 64),     P(A5, tmov, I8, UB, ND, UB, ZN, 128, 256),
    P(A5, tmov, F16, UB, ND, UB, ND, 128, 128),    P(A5, textract, F16, UB, ND, UB, ND, 128, 128),
    P(A5, tinsert, F16, UB, NZ, UB, NZ, 128, 128), P(A5, tinsert, F32, UB, ND, UB, ND, 128, 64),
    P(A5, tmov, F16, UB, NZ, L1, NZ, 128, 128),    P(A5, textract, F16, UB, ND, L1, ND, 128, 128),
    P(A5, tinsert, F16, UB, NZ, L1, NZ, 128, 128), P(A2A3, tmov, F32, UB, ND, UB, ND, 128, 64),
    P(A2A3, textract, F16, UB, ND, UB, ND, 128, 128),
};

static ptosim_tile tile(ptosim_space sp, ptosim_dtype t, kind k, int rows, int cols) {
  ptosim_tile x = {.space = sp, .dtype = t, .rows = rows, .cols = cols, .valid_rows = rows, .valid_cols = cols,
                   .blayout = k_kinds[k].bl, .slayout = k_kinds[k].sl, .fractal = 512};
  return x;
}

typedef struct job {
  ptosim_core *core;
  ptosim_opcode op;
  ptosim_tmov_params p;
} job;

static void run_op(void *arg) {
  job *j = arg;
  if (ptosim_exec(j->core, j->op, &j->p, NULL) != PTOSIM_OK) abort();
}

static void bench_pair(const pair *c, double min_s) {
  ptosim_machine *m = ptosim_machine_new(c->tgt, 1);
  job j = {.core = ptosim_core_of(m, 0, c->ss == PTOSIM_UB ? PTOSIM_AIV0 : PTOSIM_AIC), .op = c->op};
  bool ext = c->op == PTOSIM_OP_textract, ins = c->op == PTOSIM_OP_tinsert;
  /* the big tile of textract / tinsert holds two windows side by side; the window is its second */
  j.p.src = tile(c->ss, c->dt, c->sk, c->rows, ext ? 2 * c->cols : c->cols);
  j.p.dst = tile(c->ds, c->dt, c->dk, c->rows, ins ? 2 * c->cols : c->cols);
  j.p.dst.addr = c->ss == c->ds ? 64 * 1024 : 0;
  j.p.index_col = ext || ins ? c->cols : 0;
  size_t bytes = (size_t)c->rows * (size_t)c->cols * pt_dtype_size(c->dt);
  uint64_t cap = ptosim_space_capacity(m, c->ss);
  uint8_t *img = malloc(cap);
  if (!img) abort();
  for (uint64_t i = 0; i < cap; i++) img[i] = (uint8_t)(i * 131 + 7);
  if (ptosim_mem_write(j.core, c->ss, 0, img, cap) != PTOSIM_OK) abort();
  free(img);
  double t = pt_bench_best(run_op, &j, min_s), mc = pt_bench_memcpy_gbs(bytes, min_s);
  char name[96];
  snprintf(name, sizeof name, "%s %s %s %s %s->%s %s %dx%d", c->tgt == PTOSIM_TARGET_A5 ? "a5" : "a2a3", ptosim_op_spelling(c->op) + 4,
           pt_dtype_name(c->dt), pt_space_name(c->ss), k_kinds[c->sk].name, k_kinds[c->dk].name, pt_space_name(c->ds),
           c->rows, c->cols);
  pt_bench_report(name, (double)bytes / t * 1e-9, "GB/s", mc, "memcpy", 0.3);
  ptosim_machine_free(m);
}

int main(int argc, char **argv) {
  double min_s = argc > 1 && !strcmp(argv[1], "--quick") ? 0.02 : 0.2;
  for (size_t i = 0; i < sizeof k_pairs / sizeof k_pairs[0]; i++) bench_pair(&k_pairs[i], min_s);
  return 0;
}
