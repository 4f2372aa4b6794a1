/* Front-end throughput: parse a ~20 MB generated .pto of micro-level ops (vector loads,
 * arithmetic, masks, stores, DMA with nburst clauses, flags, constants, nested scf.for
 * loops with iter_args) and a ~20 MB tile-level one (tile_buf types, ins/outs, views),
 * each held in memory; and `ptosim check` (parse, lowering, binding, type checks and the
 * verify-only run of every constant-operand op) of a ~20 MB cube/DMA kernel whose ops all
 * exist. Each is compared with a trivial pass over the same bytes measured in the same
 * run: a loop that counts lines and token starts (character-class changes). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "bench.h"
#include "ptosim/program.h"

#define TARGET_BYTES ((size_t)20 << 20)
#define MIN_SECONDS 1.0
#define TARGET_MBPS 20.0

typedef struct text {
  char *p;
  size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k < t->cap - t->n) {
      t->n += (size_t)k;
      return;
    }
    t->cap *= 2;
    t->p = realloc(t->p, t->cap);
    if (!t->p) exit(1);
  }
}

static void gen_micro_block(text *t, int i) {
  add(t, "    %%c%d = arith.constant %d : index\n", i, i * 64);
  add(t, "    %%c%d_i64 = arith.constant %d : i64\n", i, i * 256);
  add(t, "    %%v%d = pto.vlds %%ub_in[%%c%d] {dist = \"NORM\"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n", i, i);
  add(t, "    %%m%d, %%rest%d = pto.plt_b32 %%rem : i32 -> !pto.mask<b32>, i32\n", i, i);
  add(t, "    %%s%d = pto.vadd %%v%d, %%v%d, %%m%d : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> "
         "!pto.vreg<64xf32>\n", i, i, i, i);
  add(t, "    %%e%d = pto.vexp %%s%d, %%m%d : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n", i, i, i);
  add(t, "    pto.vsts %%e%d, %%ub_out[%%c%d], %%m%d : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n", i, i, i);
  add(t, "    pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n");
  add(t, "    pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n");
  add(t, "    pto.mte_ub_gm %%ub_out, %%gm_out, %%c%d_i64\n      nburst(%%c1_i64, %%c%d_i64, %%c%d_i64)\n"
         "      : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64\n", i, i, i);
  add(t, "    scf.for %%it%d = %%c0 to %%c%d step %%c1 iter_args(%%acc = %%v%d) -> (!pto.vreg<64xf32>) {\n", i, i,
      i);
  add(t, "      %%n%d = pto.vmul %%acc, %%acc, %%m%d : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> "
         "!pto.vreg<64xf32>\n", i, i);
  add(t, "      scf.yield %%n%d : !pto.vreg<64xf32>\n    }\n", i);
  add(t, "    pto.barrier #pto.pipe<PIPE_ALL>\n");
}

static void gen_tile_block(text *t, int i) {
  static const char tb[] = "!pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, "
                           "blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  add(t, "    %%pv%d = pto.partition_view %%tv, offsets = [%%c0, %%c%d], sizes = [%%c32, %%c32] : "
         "!pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<32x32xf32>\n", i, i % 7);
  add(t, "    %%t%d = pto.alloc_tile : %s\n", i, tb);
  add(t, "    pto.tload ins(%%pv%d : !pto.partition_tensor_view<32x32xf32>) outs(%%t%d : %s)\n", i, i, tb);
  add(t, "    pto.tadd ins(%%t%d, %%t%d : %s, %s) outs(%%t%d : %s)\n", i, i, tb, tb, i, tb);
  add(t, "    pto.tstore ins(%%t%d : %s) outs(%%pv%d : !pto.partition_tensor_view<32x32xf32>)\n", i, tb, i);
}

/* 16x16x16 f16 GEMM step with constant operands (every op runs in check's verify-only
 * machine). */
static void gen_cube_block(text *t, int i) {
  add(t, "    %%k%d = arith.constant %d : i64\n", i, 16);
  add(t, "    pto.mte_gm_l1_frac %%a, %%l1a, nd2nz, shape(%%k%d, %%c16), src_layout(%%c16),\n"
         "        dst_group(%%c1_i64, %%c1_i64, %%c16, %%c0_i64), ctrl(%%c0_i64, %%false)\n"
         "      : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, nd2nz, shape i64, i64, src_layout(i64),\n"
         "        dst_group i64, i64, i64, i64, ctrl i64, i1\n", i);
  add(t, "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE1\", \"EVENT_ID0\"]\n"
         "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE1\", \"EVENT_ID0\"]\n");
  add(t, "    pto.mte_l1_l0a %%l1a, %%l0a, %%k%d, %%c16, %%c0_i64, %%c0_i64\n"
         "      : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64\n", i);
  add(t, "    pto.mte_l1_l0b %%l1a, %%l0b, %%c16, %%c16, %%c0_i64, %%c0_i64 {transpose = true}\n"
         "      : !pto.ptr<f16, l1>, !pto.ptr<f16, l0b>, i64, i64, i64, i64\n");
  add(t, "    pto.set_flag[\"PIPE_MTE1\", \"PIPE_M\", \"EVENT_ID0\"]\n"
         "    pto.wait_flag[\"PIPE_MTE1\", \"PIPE_M\", \"EVENT_ID0\"]\n");
  add(t, "    pto.mad %%l0a, %%l0b, %%l0c, %%k%d, %%c16, %%c16\n"
         "      : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64\n", i);
  add(t, "    pto.set_flag[\"PIPE_M\", \"PIPE_FIX\", \"EVENT_ID0\"]\n"
         "    pto.wait_flag[\"PIPE_M\", \"PIPE_FIX\", \"EVENT_ID0\"]\n");
  add(t, "    pto.mte_l0c_gm %%l0c, %%c, %%c16, %%c16, %%c16, %%c16, %%c0_i64, %%c0_i64, nz2nd\n"
         "      : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, i64, i64, i64, i64, i64, i64\n");
  add(t, "    pto.set_flag[\"PIPE_FIX\", \"PIPE_MTE2\", \"EVENT_ID0\"]\n"
         "    pto.wait_flag[\"PIPE_FIX\", \"PIPE_MTE2\", \"EVENT_ID0\"]\n");
}

static const char cube_prologue[] =
    "    %c0_i64 = arith.constant 0 : i64\n    %c16 = arith.constant 16 : i64\n    %false = arith.constant false\n"
    "    %l1a = pto.castptr %c0_i64 : i64 -> !pto.ptr<f16, l1>\n    %l0a = pto.castptr %c0_i64 : i64 -> !pto.ptr<f16, l0a>\n"
    "    %l0b = pto.castptr %c0_i64 : i64 -> !pto.ptr<f16, l0b>\n    %l0c = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, l0c>\n";

static text generate(void (*block)(text *, int), const char *sig, const char *prologue) {
  text t = {malloc(1 << 20), 0, 1 << 20};
  if (!t.p) exit(1);
  add(&t, "// generated benchmark input\nmodule attributes {pto.target_arch = \"a5\"} {\n");
  add(&t, "  func.func @bench(%s) attributes {pto.kernel} {\n", sig);
  add(&t, "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n"
          "    %%c32 = arith.constant 32 : index\n    %%c1_i64 = arith.constant 1 : i64\n");
  add(&t, "%s", prologue);
  for (int i = 0; t.n < TARGET_BYTES; i++) block(&t, i);
  add(&t, "    return\n  }\n}\n");
  return t;
}

typedef struct run_arg {
  const text *t;
  size_t result;
} run_arg;

static void run_parse(void *arg) {
  run_arg *a = arg;
  pa_ast *ast;
  int e = pa_parse("bench.pto", a->t->p, a->t->n, NULL, &ast);
  if (e) {
    if (ast) pa_print_diags(ast, stderr);
    fprintf(stderr, "bench_parse: %d parse errors\n", e);
    exit(1);
  }
  a->result = ast->module->nregions;
  pa_ast_free(ast);
}

static void run_check(void *arg) {
  run_arg *a = arg;
  int e = ptosim_program_check("bench.pto", a->t->p, a->t->n, -1, NULL, NULL);
  if (e) {
    ptosim_program_check("bench.pto", a->t->p, a->t->n, -1, stderr, NULL);
    fprintf(stderr, "bench_parse: %d check errors\n", e);
    exit(1);
  }
  a->result = (size_t)e;
}

/* Baseline: count lines and token starts with a plain loop (the least any lexer must do). */
static void run_scan(void *arg) {
  run_arg *a = arg;
  const unsigned char *s = (const unsigned char *)a->t->p;
  size_t lines = 0, toks = 0;
  int prev_word = 0;
  for (size_t i = 0; i < a->t->n; i++) {
    unsigned char c = s[i];
    int word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '%';
    lines += c == '\n';
    toks += word && !prev_word;
    toks += !word && c > ' ';
    prev_word = word;
  }
  a->result = lines + toks;
}

static void bench(const char *what, void (*fn)(void *), const char *name, const text *t) {
  run_arg a = {t, 0};
  double mb = (double)t->n / 1e6;
  double scan = mb / pt_bench_best(run_scan, &a, MIN_SECONDS);
  double parse = mb / pt_bench_best(fn, &a, MIN_SECONDS);
  char label[96];
  snprintf(label, sizeof label, "%s %s (%.1f MB)", what, name, mb);
  pt_bench_report(label, parse, "MB/s", scan, "token scan", TARGET_MBPS / scan);
  printf("%-44s %10.3f MB/s (absolute target >= %.0f MB/s) %s\n", "", parse, TARGET_MBPS,
         parse >= TARGET_MBPS ? "OK" : "BELOW");
}

int main(void) {
  text micro = generate(gen_micro_block, "%gm_out: !pto.ptr<f32, gm>, %ub_in: !pto.ptr<f32, ub>, "
                                         "%ub_out: !pto.ptr<f32, ub>, %rem: i32", "");
  text tile = generate(gen_tile_block, "%tv: !pto.tensor_view<?x?xf32>", "");
  text cube = generate(gen_cube_block, "%a: !pto.ptr<f16, gm>, %c: !pto.ptr<f32, gm>", cube_prologue);
  bench("parse", run_parse, "micro-level", &micro);
  bench("parse", run_parse, "tile-level", &tile);
  bench("check", run_check, "cube-level", &cube);
  free(micro.p);
  free(tile.p);
  free(cube.p);
  return 0;
}
