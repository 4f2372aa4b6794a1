/* The FIXPIPE epilogue of a C2V push (pto.aic_initialize_pipe acc_push_epilogue, pto-isa
 * TPUSH<..., FixpipeParams<layout, quant, relu>>): a mixed cube / vector text program, i8 x i8
 * tmatmul into an i32 acc tile, set_quant_scalar (or set_quant_vector of FB words loaded from
 * GM), tpush_to_aiv through the epilogue, tpop of
 * the converted tile on vector sub-block 0, tstore to GM; on A5 (UB FIFO) and A2/A3 (GM FIFO).
 * Reference (pto-isa docs, SET_QUANT_SCALAR / fixpipe pre-quant): y = (float)acc * scale
 * (the vector modes: the scale of the column),
 * then max(y, 0) under normal_relu, rounded to nearest even into f16 (deqf16) or bf16
 * (qs322bf16, A5 only). Scales have an exact 19-bit f32 pattern (QUANT_PRE M1 = bits
 * [31:13]) and are positive (no offset). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

enum { M = 16, K = 32, N = 32 };

/* y to the IEEE format with `mbits` fraction bits and exponent bias `bias`, rounding to
 * nearest even; |y| in the normal range or 0 (the test's values are). */
static uint16_t round_bits(float y, int mbits, int bias) {
  if (y == 0.0f) return 0;
  uint16_t sign = y < 0 ? 1 : 0;
  double a = fabs((double)y);
  int e = (int)floor(log2(a));
  double mant = nearbyint(a / ldexp(1.0, e - mbits)); /* 1.f scaled to an integer, ties to even */
  if (mant >= ldexp(1.0, mbits + 1)) mant /= 2, e++;
  int ebits = mbits == 10 ? 5 : 8;
  return (uint16_t)(sign << 15 | (unsigned)(e + bias) << mbits | ((unsigned)mant - (1u << mbits))) & (uint16_t)((1u << (1 + ebits + mbits)) - 1);
}

typedef struct epi_case {
  const char *quant, *relu, *out; /* epilogue words, consumer element type */
  const char *scale;
  float scale_v;
  int a5_only;
  int dn;  /* layout = nz2dn: the consumer tile is col-major, stored to a col-major GM view */
  int vec; /* a *_vec mode: per-column scales (QUANT_VEC_SCALE) from the FB words set_quant_vector names */
} epi_case;

/* The scale of column j in the vector modes. */
#define QUANT_VEC_SCALE(j) (0.25f * (float)(1 + (j) % 4))

#define TB(loc, dt, r, c, bl, sl, fr) "!pto.tile_buf<loc=" loc ", dtype=" dt ", rows=" #r ", cols=" #c ", v_row=" #r ", v_col=" #c ", blayout=" bl ", slayout=" sl ", fractal=" #fr ", pad=0>"
#define MAT_A TB("mat", "i8", 16, 32, "col_major", "row_major", 512)
#define MAT_B TB("mat", "i8", 32, 32, "col_major", "row_major", 512)
#define LEFT TB("left", "i8", 16, 32, "col_major", "row_major", 512)
#define RIGHT TB("right", "i8", 32, 32, "row_major", "col_major", 512)
#define ACC TB("acc", "i32", 16, 32, "col_major", "row_major", 1024)

static int build(char *src, size_t n, int a5, const epi_case *c) {
  char out_t[256], fb[2048];
  /* the FB words: 32 i64 from GM -> mat -> scaling at FB 0; set_quant_vector names them through
   * an i64 (A2/A3) or f32 (A5: PTOAS takes f16 / bf16 / f32 payloads) tile at the same address */
  const char *qt = a5 ? "f32" : "i64";
  int qn = a5 ? 64 : 32;
#define QROW(loc, dt, n) "!pto.tile_buf<loc=" loc ", dtype=" dt ", rows=1, cols=" n ", v_row=1, v_col=" n ", blayout=row_major, slayout=none_box, fractal=512, pad=0>"
  snprintf(fb, sizeof fb,
           "  %%vq = pto.make_tensor_view %%q, shape = [%%one, %%c32], strides = [%%c32, %%one] : !pto.tensor_view<?x?xi64>\n"
           "  %%pq = pto.partition_view %%vq, offsets = [%%z, %%z], sizes = [%%one, %%c32] : !pto.tensor_view<?x?xi64> -> !pto.partition_tensor_view<1x32xi64>\n"
           "  %%fa = arith.constant 0 : i64\n"
           "  %%mq = pto.alloc_tile : " QROW("mat", "i64", "32") "\n"
           "  %%fw = pto.alloc_tile addr = %%fa : " QROW("scaling", "i64", "32") "\n"
           "  %%fp = pto.alloc_tile addr = %%fa : !pto.tile_buf<loc=scaling, dtype=%s, rows=1, cols=%d, v_row=1, v_col=%d, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
           "  pto.tload ins(%%pq : !pto.partition_tensor_view<1x32xi64>) outs(%%mq : " QROW("mat", "i64", "32") ")\n"
       "  pto.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]\n  pto.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]\n"
           "  pto.tmov ins(%%mq : " QROW("mat", "i64", "32") ") outs(%%fw : " QROW("scaling", "i64", "32") ")\n"
       "  pto.set_flag[<PIPE_MTE1>, <PIPE_FIX>, <EVENT_ID1>]\n  pto.wait_flag[<PIPE_MTE1>, <PIPE_FIX>, <EVENT_ID1>]\n"
           "  pto.set_quant_vector(%%fp : !pto.tile_buf<loc=scaling, dtype=%s, rows=1, cols=%d, v_row=1, v_col=%d, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {id = 0}\n",
           qt, qn, qn, qt, qn, qn);
#undef QROW
  const char *sq = "  pto.set_quant_scalar(%s : f32) {id = 0}\n";
  snprintf(out_t, sizeof out_t, "!pto.tile_buf<loc=vec, dtype=%s, rows=16, cols=32, v_row=16, v_col=32, blayout=%s, slayout=none_box, fractal=512, pad=0>", c->out,
           c->dn ? "col_major" : "row_major");
  const char *layout = c->dn ? "nz2dn" : "nz2nd", *ostrides = c->dn ? "%one, %c16" : "%c32, %one";
  const char *gm = a5 ? "" : "gm_slot_buffer = %fifo : !pto.ptr<i8>, ";
  return snprintf(
      src, n,
      "module attributes {pto.target_arch = \"%s\"} {\n"
      "func.func @k(%%a: !pto.ptr<i8>, %%b: !pto.ptr<i8>, %%o: !pto.ptr<%s>, %%fifo: !pto.ptr<i8>, %%q: !pto.ptr<i64>) attributes {pto.entry} {\n"
      "  func.call @c(%%a, %%b, %%fifo, %%q) : (!pto.ptr<i8>, !pto.ptr<i8>, !pto.ptr<i8>, !pto.ptr<i64>) -> ()\n"
      "  func.call @v(%%o, %%fifo) : (!pto.ptr<%s>, !pto.ptr<i8>) -> ()\n  return\n}\n"
      "func.func private @c(%%a: !pto.ptr<i8>, %%b: !pto.ptr<i8>, %%fifo: !pto.ptr<i8>, %%q: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
      "  %%c0 = arith.constant 0 : i32\n  %%z = arith.constant 0 : index\n  %%one = arith.constant 1 : index\n"
      "  %%c16 = arith.constant 16 : index\n  %%c32 = arith.constant 32 : index\n  %%s = arith.constant %s : f32\n"
      "  %%imp = pto.import_reserved_buffer {name = \"c2v\", peer_func = @v} -> i32\n"
      "  pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024,\n"
      "    acc_push_epilogue = #pto.acc_push_epilogue<layout = %s, quant = %s, relu = %s>}\n"
      "    (%sc2v_consumer_buf = %%imp : i32, v2c_consumer_buf = %%c0 : i32)\n"
      "  %%va = pto.make_tensor_view %%a, shape = [%%c16, %%c32], strides = [%%c32, %%one] : !pto.tensor_view<?x?xi8>\n"
      "  %%pa = pto.partition_view %%va, offsets = [%%z, %%z], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?xi8> -> !pto.partition_tensor_view<16x32xi8>\n"
      "  %%vb = pto.make_tensor_view %%b, shape = [%%c32, %%c32], strides = [%%c32, %%one] : !pto.tensor_view<?x?xi8>\n"
      "  %%pb = pto.partition_view %%vb, offsets = [%%z, %%z], sizes = [%%c32, %%c32] : !pto.tensor_view<?x?xi8> -> !pto.partition_tensor_view<32x32xi8>\n"
      "  %%ma = pto.alloc_tile : " MAT_A "\n  %%mb = pto.alloc_tile : " MAT_B "\n"
      "  %%l = pto.alloc_tile : " LEFT "\n  %%r = pto.alloc_tile : " RIGHT "\n  %%acc = pto.alloc_tile : " ACC "\n"
      "  pto.tload ins(%%pa : !pto.partition_tensor_view<16x32xi8>) outs(%%ma : " MAT_A ")\n"
      "  pto.tload ins(%%pb : !pto.partition_tensor_view<32x32xi8>) outs(%%mb : " MAT_B ")\n"
"  pto.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]\n  pto.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]\n"
      "  pto.tmov ins(%%ma : " MAT_A ") outs(%%l : " LEFT ")\n"
      "  pto.tmov ins(%%mb : " MAT_B ") outs(%%r : " RIGHT ")\n"
"  pto.set_flag[<PIPE_MTE1>, <PIPE_M>, <EVENT_ID0>]\n  pto.wait_flag[<PIPE_MTE1>, <PIPE_M>, <EVENT_ID0>]\n"
      "  pto.tmatmul ins(%%l, %%r : " LEFT ", " RIGHT ") outs(%%acc : " ACC ")\n"
"  pto.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]\n  pto.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]\n"
      "%s"
      "  pto.tpush_to_aiv(%%acc : " ACC ") {id = 0, split = 0}\n  return\n}\n"
      "func.func private @v(%%o: !pto.ptr<%s>, %%fifo: !pto.ptr<i8>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
      "  %%c0 = arith.constant 0 : i32\n  %%z = arith.constant 0 : index\n  %%one = arith.constant 1 : index\n"
      "  %%c16 = arith.constant 16 : index\n  %%c32 = arith.constant 32 : index\n  %%zero = arith.constant 0 : i64\n"
      "  %%buf = pto.reserve_buffer {name = \"c2v\", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32\n"
      "  pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024,\n"
      "    acc_push_epilogue = #pto.acc_push_epilogue<layout = %s, quant = %s, relu = %s>}\n"
      "    (%sc2v_consumer_buf = %%buf : i32, v2c_consumer_buf = %%c0 : i32)\n"
      "  %%vo = pto.make_tensor_view %%o, shape = [%%c16, %%c32], strides = [%s] : !pto.tensor_view<?x?x%s>\n"
      "  %%po = pto.partition_view %%vo, offsets = [%%z, %%z], sizes = [%%c16, %%c32] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<16x32x%s>\n"
      "  %%sb = pto.get_subblock_idx\n  %%is0 = arith.cmpi eq, %%sb, %%zero : i64\n"
      "  scf.if %%is0 {\n"
      "    %%t = pto.tpop_from_aic {id = 0, split = 0} -> %s\n"
/* the pop waits on V (A5) or loads on MTE2 (A2/A3) */
      "    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n    pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n"
      "    pto.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]\n    pto.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]\n"
      "    pto.tstore ins(%%t : %s) outs(%%po : !pto.partition_tensor_view<16x32x%s>)\n"
      "    pto.tfree_from_aic {id = 0, split = 0}\n  }\n  return\n}\n}\n",
      a5 ? "a5" : "a3", c->out, c->out, c->scale, layout, c->quant, c->relu, gm, c->vec ? fb : sq, c->out, layout, c->quant, c->relu, gm, ostrides, c->out,
      c->out, c->out, out_t,
      out_t, c->out);
}

static void test_matmul_push(void) {
  static const epi_case cases[] = {
      {"deqf16_scalar", "no_relu", "f16", "0.25", 0.25f, 0, 0, 0},
      {"deqf16_scalar", "normal_relu", "f16", "1.5", 1.5f, 0, 0, 0},
      {"qs322bf16_pre_scalar", "no_relu", "bf16", "0.0625", 0.0625f, 1, 0, 0},
      {"qs322bf16_pre_scalar", "normal_relu", "bf16", "3.0", 3.0f, 1, 0, 0},
      {"deqf16_vec", "normal_relu", "f16", "1.0", 0, 0, 0, 1},
      {"qs322bf16_pre_vec", "no_relu", "bf16", "1.0", 0, 1, 0, 1},
      {"deqf16_scalar", "no_relu", "f16", "0.5", 0.5f, 1, 1, 0}, /* A5 only: DN into a UB FIFO */
  };
  static int8_t a[M * K], b[K * N], fifo[1 << 16];
  static uint16_t out[M * N], res[M * N]; /* res: out after the default-schedule run */
  static uint64_t qwords[N]; /* FB quant words: the f32 scale of each column in bits [31:0] */
  for (int j = 0; j < N; j++) {
    float f = QUANT_VEC_SCALE(j);
    uint32_t u;
    memcpy(&u, &f, 4);
    qwords[j] = u;
  }
  uint32_t seed = 12345;
  for (int i = 0; i < M * K; i++) seed = seed * 1103515245u + 12345u, a[i] = (int8_t)((int)(seed >> 16) % 41 - 20);
  for (int i = 0; i < K * N; i++) seed = seed * 1103515245u + 12345u, b[i] = (int8_t)((int)(seed >> 16) % 41 - 20);
  static char src[16384];
  for (int t = 0; t < 2; t++)
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
      const epi_case *c = &cases[ci];
      int a5 = t == 0;
      if (c->a5_only && !a5) continue;
      build(src, sizeof src, a5, c);
      FILE *dbg = getenv("PT_DEBUG") ? fopen("/tmp/epi/dbg.pto", "w") : NULL;
      if (dbg) fputs(src, dbg), fclose(dbg);
      ptosim_program *p = pt_test_load(src, strlen(src));
      CHECK_MSG(p, "%s %s on %s: does not load", c->quant, c->relu, a5 ? "a5" : "a3");
      if (!p) continue;
      ptosim_target tg = a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
      ptosim_machine *m = ptosim_machine_new(tg, 1);
      memset(out, 0xA5, sizeof out);
      ptosim_arg args[5] = {{0}};
      ptosim_gm_map(m, a, sizeof a, &args[0].gm_addr);
      ptosim_gm_map(m, b, sizeof b, &args[1].gm_addr);
      ptosim_gm_map(m, out, sizeof out, &args[2].gm_addr);
      ptosim_gm_map(m, fifo, sizeof fifo, &args[3].gm_addr);
      ptosim_gm_map(m, qwords, sizeof qwords, &args[4].gm_addr);
      /* with every checker on (no report expected); the eager schedule refuses a quantizing push */
      for (int eager = 0; eager < 2; eager++) {
        ptosim_monitor_opts o = ptosim_monitor_defaults();
        if (eager) o.schedule = PTOSIM_SCHEDULE_EAGER;
        ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
        ptosim_status st = ptosim_monitor_run(mon, p, args);
        ptosim_monitor_finish(mon);
        int nrep = ptosim_monitor_nreports(mon);
        if (eager)
          CHECK_MSG(st != PTOSIM_OK && !strcmp(ptosim_last_diag(m)->rule, "tile_pipe.schedule"), "%s eager on %s: status %d", c->quant,
                    a5 ? "a5" : "a3", (int)st);
        else
          CHECK_MSG(st == PTOSIM_OK && !nrep, "%s %s on %s: status %d %s, %d reports %s", c->quant, c->relu, a5 ? "a5" : "a3", (int)st,
                    st == PTOSIM_OK ? "" : ptosim_last_diag(m)->msg, nrep, nrep ? ptosim_monitor_report(mon, 0)->rule : "");
        ptosim_monitor_free(mon);
        if (!eager) memcpy(res, out, sizeof res);
      }
      ptosim_status st = PTOSIM_OK;
      int bad = 0;
      int f16 = !strcmp(c->out, "f16");
      for (int i = 0; st == PTOSIM_OK && i < M; i++)
        for (int j = 0; j < N; j++) {
          int32_t acc = 0;
          for (int k = 0; k < K; k++) acc += (int32_t)a[i * K + k] * b[k * N + j];
          float y = (float)acc * (c->vec ? QUANT_VEC_SCALE(j) : c->scale_v);
          if (!strcmp(c->relu, "normal_relu") && y < 0) y = 0;
          uint16_t want = f16 ? round_bits(y, 10, 15) : round_bits(y, 7, 127);
          uint16_t got = res[c->dn ? j * M + i : i * N + j];
          if (got != want && bad++ < 4)
            CHECK_MSG(0, "%s %s on %s [%d][%d]: acc %d got 0x%04x want 0x%04x", c->quant, c->relu, a5 ? "a5" : "a3", i, j, acc,
                      got, want);
        }
      CHECK_MSG(!bad, "%s %s on %s: %d wrong elements", c->quant, c->relu, a5 ? "a5" : "a3", bad);
      ptosim_machine_free(m);
      ptosim_program_free(p);
    }
}

int main(void) {
  RUN(test_matmul_push);
  return pt_test_finish();
}
