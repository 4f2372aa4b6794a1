/* Core configuration registers: CTRL (pto.set_ctrl / pto.get_ctrl, pto.sbitset0/1, and its
 * bit 48 choosing the saturation of clause-less MAD / FIXPIPE ops) and the quantization
 * registers QUANT_PRE / FPC written by pto.set_quant_pre, pto.set_fpc, SET_QUANT_SCALAR and
 * SET_QUANT_VECTOR. Register contents are read through the machine's internals. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "core/machine.h"
#include "harness.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

static const char *rule(ptosim_machine *m) { return ptosim_last_diag(m)->rule; }

/* QUANT_PRE = the scale's f32 bit pattern read as an int32_t and widened (pto-isa
 * SetQuantScalar.hpp): a negative scale fills bits [63:32]; the 8-bit outputs then put their
 * signedness in bit 46. */
static void test_set_quant_scalar(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I8, PTOSIM_DT_U8, PTOSIM_DT_I16, PTOSIM_DT_BF16, PTOSIM_DT_F16};
  static const float scales[] = {0.5f, -3.25f, 1e-3f, 65504.0f, 0.0f};
  for (int t = 0; t < PTOSIM_TARGET_COUNT; t++) {
    ptosim_machine *m = ptosim_machine_new((ptosim_target)t, 1);
    ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
      for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        ptosim_set_quant_scalar_params p = {.scale = scales[s], .out_type = types[i]};
        CHECK(ptosim_set_quant_scalar(aic, &p) == PTOSIM_OK);
        union {
          float f;
          int32_t i;
        } pun = {.f = scales[s]};
        uint64_t want = (uint64_t)(int64_t)pun.i;
        if (types[i] == PTOSIM_DT_I8) want |= 1ull << 46;
        if (types[i] == PTOSIM_DT_U8) want &= ~(1ull << 46);
        CHECK_MSG(aic->sreg[PT_SREG_QUANT_PRE] == want, "%s scale %g: 0x%llx", pt_dtype_name(types[i]), scales[s],
                  (unsigned long long)aic->sreg[PT_SREG_QUANT_PRE]);
      }
    ptosim_set_quant_scalar_params bad = {.scale = 1.0f, .out_type = PTOSIM_DT_F32};
    CHECK(ptosim_set_quant_scalar(aic, &bad) == PTOSIM_E_VERIFY && !strcmp(rule(m), "quant.out_type"));
    /* a cube-core op */
    CHECK(ptosim_set_quant_scalar(ptosim_core_of(m, 0, PTOSIM_AIV0), &bad) == PTOSIM_E_VERIFY && !strcmp(rule(m), "op.unit"));
    ptosim_machine_free(m);
  }
}

/* FPC[15:8] = FB address / 128 of the scaling tile. */
static void test_set_quant_vector(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC);
  ptosim_tile fp = {.space = PTOSIM_FB, .addr = 384, .dtype = PTOSIM_DT_U64, .rows = 1, .cols = 16, .valid_rows = 1, .valid_cols = 16};
  ptosim_set_quant_vector_params p = {.fp = fp};
  CHECK(ptosim_set_quant_vector(aic, &p) == PTOSIM_OK);
  CHECK(aic->sreg[PT_SREG_FPC] == 3u * 256u); /* 384 = 3 x 128 -> 0x300 */
  p.fp.addr = 64;
  CHECK(ptosim_set_quant_vector(aic, &p) == PTOSIM_E_VERIFY && !strcmp(rule(m), "quant.fp_align"));
  p.fp.addr = ptosim_space_capacity(m, PTOSIM_FB);
  CHECK(ptosim_set_quant_vector(aic, &p) == PTOSIM_E_VERIFY && !strcmp(rule(m), "quant.fp_range"));
  p.fp.space = PTOSIM_UB;
  p.fp.addr = 0;
  CHECK(ptosim_set_quant_vector(aic, &p) == PTOSIM_E_VERIFY && !strcmp(rule(m), "quant.fp_loc"));
  /* the raw register writes */
  ptosim_loop_reg_params v = {.value = 0x123456789abcdefull};
  CHECK(ptosim_set_fpc(aic, &v) == PTOSIM_OK && aic->sreg[PT_SREG_FPC] == v.value);
  CHECK(ptosim_set_quant_pre(aic, &v) == PTOSIM_OK && aic->sreg[PT_SREG_QUANT_PRE] == v.value);
  ptosim_machine_free(m);
}

/* A 16x16x16 f16 mad whose A holds +inf at (0, 0) and B is all ones: C[0][0] is +inf when
 * the MAD does not saturate and the f16 maximum 65504 when it does (inf inputs are
 * clamped to the type's extreme). Without a sat / nosat clause CTRL[48] decides. */
static float mad_inf(ptosim_machine *m, ptosim_sat_mode sat) {
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC);
  uint16_t a[256] = {0}, b[256];
  a[0] = 0x7C00; /* +inf; element (0, 0) is the first of every L0A layout */
  for (int i = 0; i < 256; i++) b[i] = 0x3C00;
  ptosim_mem_write(aic, PTOSIM_L0A, 0, a, sizeof a);
  ptosim_mem_write(aic, PTOSIM_L0B, 0, b, sizeof b);
  ptosim_mad_params p = {.lhs = ptosim_ptr_make(PTOSIM_L0A, PTOSIM_DT_F16, 0),
                         .rhs = ptosim_ptr_make(PTOSIM_L0B, PTOSIM_DT_F16, 0),
                         .dst = ptosim_ptr_make(PTOSIM_L0C, PTOSIM_DT_F32, 0),
                         .m = 16, .n = 16, .k = 16, .sat = sat};
  CHECK(ptosim_mad(aic, &p) == PTOSIM_OK);
  float c = 0;
  ptosim_mem_read(aic, PTOSIM_L0C, 0, &c, sizeof c);
  return c;
}

static void test_ctrl(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC);
  uint64_t v = 0;
  ptosim_reg_read_params r = {.out = &v};
  CHECK(ptosim_get_ctrl(aic, &r) == PTOSIM_OK && v == 1ull << 48); /* reset: non-saturating */
  CHECK(isinf(mad_inf(m, PTOSIM_SAT_DEFAULT)));
  ptosim_loop_reg_params w = {.value = 0x5};
  CHECK(ptosim_set_ctrl(aic, &w) == PTOSIM_OK && ptosim_get_ctrl(aic, &r) == PTOSIM_OK && v == 0x5);
  CHECK(mad_inf(m, PTOSIM_SAT_DEFAULT) == 65504.0f);
  CHECK(isinf(mad_inf(m, PTOSIM_SAT_NOSAT))); /* a clause overrides CTRL */
  /* each core has its own CTRL */
  CHECK(ptosim_get_ctrl(ptosim_core_of(m, 0, PTOSIM_AIV1), &r) == PTOSIM_OK && v == 1ull << 48);
  r.out = NULL;
  CHECK(ptosim_get_ctrl(aic, &r) == PTOSIM_E_VERIFY && !strcmp(rule(m), "api.args"));
  ptosim_machine_free(m);
}

/* The text forms: read-modify-write of CTRL with pto.sbitset0 / pto.sbitset1 (bit index
 * taken modulo 64), values stored to GM with pto.store. */
static void test_ctrl_text(void) {
  const char *src =
      "module attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
      "func.func @k(%out: !pto.ptr<i64, gm>) attributes {pto.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %c1 = arith.constant 1 : index\n"
      "  %c2 = arith.constant 2 : index\n"
      "  %b48 = arith.constant 48 : i64\n"
      "  %b70 = arith.constant 70 : i64\n"
      "  %r0 = pto.get_ctrl : i64\n"
      "  %r1 = pto.sbitset0 %r0, %b48 : i64, i64 -> i64\n"
      "  %r2 = pto.sbitset1 %r1, %b70 : i64, i64 -> i64\n"
      "  pto.set_ctrl %r2 : i64\n"
      "  %r3 = pto.get_ctrl : i64\n"
      "  pto.store %r0, %out[%c0] : !pto.ptr<i64, gm>, i64\n"
      "  pto.store %r2, %out[%c1] : !pto.ptr<i64, gm>, i64\n"
      "  pto.store %r3, %out[%c2] : !pto.ptr<i64, gm>, i64\n"
      "  return\n"
      "}\n"
      "}\n";
  ptosim_program *p = pt_test_load(src, strlen(src));
  CHECK(p != NULL);
  if (!p) return;
  int64_t out[3] = {0};
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_arg arg;
  ptosim_gm_map(m, out, sizeof out, &arg.gm_addr);
  CHECK(ptosim_program_run(p, m, &arg) == PTOSIM_OK);
  CHECK_MSG(out[0] == (int64_t)1 << 48 && out[1] == 1 << 6 && out[2] == 1 << 6, "got %llx %llx %llx", (long long)out[0],
            (long long)out[1], (long long)out[2]);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

int main(void) {
  RUN(test_set_quant_scalar);
  RUN(test_set_quant_vector);
  RUN(test_ctrl);
  RUN(test_ctrl_text);
  return pt_test_finish();
}
