/* pto.set_quant_scalar / pto.set_quant_vector in text (tonibohnlein/PTOAS spelling): the
 * QUANT_PRE / FPC contents a run leaves on the cube core, for each scalar mode's output type
 * on both targets. References from pto-isa SetQuantScalar.hpp / SetQuantVector.hpp: QUANT_PRE
 * = the f32 pattern of the scale as a signed 32-bit integer widened to 64 bits, bit 46 =
 * (output is int8_t) for 1-byte outputs; FPC = (scaling tile address >> 7) << 8. The error
 * paths are fixtures in tests/err (quant.*). */
#include <stdio.h>
#include <string.h>

#include "core/machine.h"
#include "harness.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

/* A cube kernel (its argument: the pipes' GM FIFO) with pipe 0 in scalar mode `smode` and pipe 3 in vector mode `vmode`, setting
 * QUANT_PRE from `scale` and FPC from a scaling tile of `fpdt` at FB address `fpaddr`. */
static char g_rule[64]; /* rule id of the last failed run */

static int run_quant(ptosim_target t, const char *smode, const char *scale, const char *vmode, const char *fpdt, int fpaddr,
                     uint64_t *quant_pre, uint64_t *fpc) {
  char src[4096];
  const char *fpty = "!pto.tile_buf<loc=scaling, dtype=%s, rows=1, cols=32, v_row=1, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  char fp[256];
  snprintf(fp, sizeof fp, fpty, fpdt);
  snprintf(src, sizeof src,
           "module {\n"
           "  func.func @cube_kernel(%%g: !pto.ptr<f16>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
           "    %%c0 = arith.constant 0 : i32\n"
           "    %%s = arith.constant %s : f32\n"
           "    %%a = arith.constant %d : i64\n"
           "    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 512, nosplit = true,\n"
           "      acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = %s, relu = no_relu>}\n"
           "      (gm_slot_buffer = %%g : !pto.ptr<f16>, c2v_consumer_buf = %%c0 : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "    pto.aic_initialize_pipe {id = 3, dir_mask = 1, slot_size = 512, nosplit = true,\n"
           "      acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = %s, relu = no_relu>}\n"
           "      (gm_slot_buffer = %%g : !pto.ptr<f16>, c2v_consumer_buf = %%c0 : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "    %%fp = pto.alloc_tile addr = %%a : %s\n"
           "    pto.set_quant_scalar(%%s : f32) {id = 0}\n"
           "    pto.set_quant_vector(%%fp : %s) {id = 3}\n"
           "    return\n"
           "  }\n"
           "}\n",
           scale, fpaddr, smode, vmode, fp, fp);
  FILE *diag = tmpfile();
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, (int)t, diag, &nerr);
  char text[1024] = "";
  rewind(diag);
  size_t n = fread(text, 1, sizeof text - 1, diag);
  fclose(diag);
  text[n] = 0;
  const char *open = strrchr(text, '['), *close = open ? strchr(open, ']') : NULL; /* the rule id of the load's error */
  snprintf(g_rule, sizeof g_rule, "%.*s", close ? (int)(close - open - 1) : 0, close ? open + 1 : "");
  if (!p) return -1;
  ptosim_machine *m = ptosim_machine_new(t, 1);
  static uint16_t fifo[32768]; /* the GM slot buffer of the pipes */
  ptosim_arg arg;
  ptosim_gm_map(m, fifo, sizeof fifo, &arg.gm_addr);
  ptosim_status st = ptosim_program_run(p, m, &arg);
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC);
  if (st != PTOSIM_OK) snprintf(g_rule, sizeof g_rule, "%s", ptosim_last_diag(m)->rule);
  *quant_pre = aic->sreg[PT_SREG_QUANT_PRE];
  *fpc = aic->sreg[PT_SREG_FPC];
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st == PTOSIM_OK ? 0 : 1;
}

/* The reference QUANT_PRE: the f32 pattern, bits [63:32] copies of its sign bit; an 8-bit
 * output replaces bit 46 by (output is signed int8). */
static uint64_t want_quant_pre(float scale, int out_bytes, int out_i8) {
  union {
    float f;
    uint32_t u;
  } pun = {.f = scale};
  uint64_t w = pun.u;
  if (pun.u >> 31) w |= 0xFFFFFFFF00000000ull;
  if (out_bytes == 1) w = out_i8 ? w | 1ull << 46 : w & ~(1ull << 46);
  return w;
}

static void test_set_quant_text(void) {
  /* scalar mode, its output size in bytes (pto-isa FixpipeConsDType), A5 only (PTOAS
   * PTO.cpp: qs322bf16_pre_*, qf322hif8 / fp8 are refused on other targets) */
  static const struct {
    const char *mode;
    int bytes, a5_only;
  } modes[] = {{"deqf16_scalar", 2, 0},        {"qf322f16_pre_scalar", 2, 0}, {"qf322bf16_pre_scalar", 2, 0},
               {"qs322bf16_pre_scalar", 2, 1}, {"qf322hif8_pre_scalar", 1, 1}, {"qf322fp8_pre_scalar", 1, 1}};
  static const struct {
    const char *text;
    float value;
  } scales[] = {{"0.5", 0.5f}, {"-3.25", -3.25f}, {"1.0e-03", 1e-3f}, {"-0.0", -0.0f}, {"6.550400e+04", 65504.0f}};
  static const char *const vmodes[] = {"deqf16_vec", "req8_vec", "qf322b8_pre_vec", "qs322bf16_pre_vec"};
  for (int t = 0; t < PTOSIM_TARGET_COUNT; t++) {
    int a5 = t == PTOSIM_TARGET_A5;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
      for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        int fpaddr = 128 * (int)(1 + s);
        uint64_t qp = 0, fpc = 0;
        int rc = run_quant((ptosim_target)t, modes[i].mode, scales[s].text, vmodes[(i + s) % (a5 ? 4 : 3)], a5 ? "f16" : "ui64", fpaddr,
                           &qp, &fpc);
        if (modes[i].a5_only && !a5) { /* the program does not load */
          CHECK_MSG(rc == -1 && !strcmp(g_rule, "tile_pipe.epilogue"), "%s on a2a3: rc %d %s", modes[i].mode, rc, g_rule);
          continue;
        }
        CHECK_MSG(rc == 0, "%s %s: rc %d %s", modes[i].mode, scales[s].text, rc, g_rule);
        uint64_t want = want_quant_pre(scales[s].value, modes[i].bytes, 0);
        CHECK_MSG(qp == want, "%s %s target %d: QUANT_PRE 0x%llx want 0x%llx", modes[i].mode, scales[s].text, t,
                  (unsigned long long)qp, (unsigned long long)want);
        CHECK_MSG(fpc == (uint64_t)(fpaddr / 128) << 8, "FPC 0x%llx for FB address %d", (unsigned long long)fpc, fpaddr);
      }
  }
  /* the scaling tile's element type does not enter FPC: bf16 and f32 on A5, i64 on A2/A3 */
  uint64_t qp, fpc;
  CHECK(run_quant(PTOSIM_TARGET_A5, "deqf16_scalar", "1.0", "deqf16_vec", "bf16", 1024, &qp, &fpc) == 0 && fpc == 0x800);
  CHECK(run_quant(PTOSIM_TARGET_A5, "deqf16_scalar", "1.0", "deqf16_vec", "f32", 1152, &qp, &fpc) == 0 && fpc == 0x900);
  CHECK(run_quant(PTOSIM_TARGET_A2A3, "deqf16_scalar", "1.0", "deqf16_vec", "i64", 256, &qp, &fpc) == 0 && fpc == 0x200);
  /* the PTOAS payload types only: ui64 on A5, f16 on A2/A3 do not load (quant.fp_dtype) */
  CHECK(run_quant(PTOSIM_TARGET_A5, "deqf16_scalar", "1.0", "deqf16_vec", "ui64", 256, &qp, &fpc) == -1);
  CHECK(run_quant(PTOSIM_TARGET_A2A3, "deqf16_scalar", "1.0", "deqf16_vec", "f16", 256, &qp, &fpc) == -1);
  /* qs322bf16_pre_vec is A5 only */
  CHECK(run_quant(PTOSIM_TARGET_A2A3, "deqf16_scalar", "1.0", "qs322bf16_pre_vec", "i64", 256, &qp, &fpc) == -1 &&
        !strcmp(g_rule, "tile_pipe.epilogue"));
}

/* The 8-bit scalar modes: the sign bit of QUANT_PRE follows the tile the peer vector function
 * pops from the pipe whose consumer buffer is the reserve_buffer the cube pipe imports (the
 * vector pipe's id differs from the cube's, as in PTOAS's peer-key lit tests). */
static int run_quant8(ptosim_target t, const char *mode, const char *scale, const char *popdt, uint64_t *quant_pre) {
  char src[4096];
  snprintf(src, sizeof src,
           "module {\n"
           "  func.func @cube_kernel(%%g: !pto.ptr<i8>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
           "    %%c0 = arith.constant 0 : i32\n"
           "    %%s = arith.constant %s : f32\n"
           "    %%imp = pto.import_reserved_buffer {name = \"fifo\", peer_func = @vector_kernel} -> i32\n"
           "    pto.aic_initialize_pipe {id = 1, dir_mask = 1, slot_size = 512, nosplit = true,\n"
           "      acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = %s, relu = no_relu>}\n"
           "      (gm_slot_buffer = %%g : !pto.ptr<i8>, c2v_consumer_buf = %%imp : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "    pto.set_quant_scalar(%%s : f32) {id = 1}\n"
           "    return\n"
           "  }\n"
           "  func.func @vector_kernel(%%g: !pto.ptr<i8>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
           "    %%c0 = arith.constant 0 : i32\n"
           "    %%loc = pto.reserve_buffer {name = \"fifo\", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32\n"
           "    pto.aiv_initialize_pipe {id = 2, dir_mask = 1, slot_size = 512, nosplit = true,\n"
           "      acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = %s, relu = no_relu>}\n"
           "      (gm_slot_buffer = %%g : !pto.ptr<i8>, c2v_consumer_buf = %%loc : i32, v2c_consumer_buf = %%c0 : i32)\n"
           "    %%r = pto.tpop_from_aic {id = 2, split = 0} -> !pto.tile_buf<loc=vec, dtype=%s, rows=16, cols=32, v_row=16, "
           "v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
           "    pto.tfree_from_aic {id = 2, split = 0}\n"
           "    return\n"
           "  }\n"
           "}\n",
           scale, mode, mode, popdt);
  FILE *devnull = fopen("/dev/null", "w");
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), "cube_kernel", (int)t, devnull, &nerr);
  fclose(devnull);
  if (!p) return -1;
  ptosim_machine *m = ptosim_machine_new(t, 1);
  static int8_t fifo[65536];
  ptosim_arg arg;
  ptosim_gm_map(m, fifo, sizeof fifo, &arg.gm_addr);
  ptosim_status st = ptosim_program_run(p, m, &arg);
  *quant_pre = ptosim_core_of(m, 0, PTOSIM_AIC)->sreg[PT_SREG_QUANT_PRE];
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st == PTOSIM_OK ? 0 : 1;
}

static void test_set_quant_8bit(void) {
  static const char *const modes[] = {"req8_scalar", "qf322b8_pre_scalar"};
  static const struct {
    const char *text;
    float value;
  } scales[] = {{"0.25", 0.25f}, {"-1.5", -1.5f}};
  for (int t = 0; t < PTOSIM_TARGET_COUNT; t++)
    for (int i = 0; i < 2; i++)
      for (int s = 0; s < 2; s++)
        for (int sign = 0; sign < 2; sign++) {
          uint64_t qp = 0;
          int rc = run_quant8((ptosim_target)t, modes[i], scales[s].text, sign ? "i8" : "ui8", &qp);
          uint64_t want = want_quant_pre(scales[s].value, 1, sign);
          CHECK_MSG(rc == 0 && qp == want, "%s %s %s target %d: rc %d QUANT_PRE 0x%llx want 0x%llx", modes[i], scales[s].text,
                    sign ? "i8" : "ui8", t, rc, (unsigned long long)qp, (unsigned long long)want);
        }
  /* a consumer tile that is not 8 bits wide: the program does not load (quant.out_type) */
  uint64_t qp;
  CHECK(run_quant8(PTOSIM_TARGET_A5, "req8_scalar", "1.0", "f16", &qp) == -1);
}

int main(void) {
  RUN(test_set_quant_text);
  RUN(test_set_quant_8bit);
  return pt_test_finish();
}
