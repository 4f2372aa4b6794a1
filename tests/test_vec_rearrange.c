/* Vector data rearrangement (vpto micro-isa 12; pto-isa data-rearrangement pages): vintlv
 * vdintlv vintlvv2 vdintlvv2 vsqz vusqz vperm vslide vshift vpack vsunpack vzunpack, each
 * against a lane-by-lane reference written here from its formula, for every lane width,
 * every part, random / empty / full masks, boundary amounts, aliasing results, one negative
 * test per rule, and the ops from .pto text. */
#include "vec_ref.h"

static unsigned long long seed = 0x2545f4914f6cdd1dull;
static ptosim_machine *m5;
static ptosim_core *core;

static int failed_with(ptosim_status st, const char *rule) {
  return st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, rule);
}

static const kind *const widths[] = {&K_I8, &K_F16, &K_U32, &K_F32, &K_I64};
#define NWIDTHS (sizeof widths / sizeof widths[0])

static void random_bits(ptosim_vreg *r) {
  for (unsigned i = 0; i < 256; i += 8) set_raw(r, i / 8, 8, pt_rand_u64(&seed));
}

/* ---- interleave ---------------------------------------------------------------------------- */

static void test_interleave(void) {
  for (unsigned w = 0; w < NWIDTHS; w++) {
    const kind *k = widths[w];
    unsigned n = lanes(k), e = k->e;
    ptosim_vreg a, b, lo, hi, lo2, hi2;
    random_bits(&a), random_bits(&b);
    ptosim_vintlv_params p = {&lo, &hi, &a, &b, PTOSIM_PART_LOWER, k->t};
    int ok = ptosim_vintlv(core, &p) == PTOSIM_OK;
    for (unsigned j = 0; j < 2 * n; j++) { /* lane j of lo ++ hi = (j even ? a : b)[j / 2] */
      uint64_t want = raw(j % 2 ? &b : &a, j / 2, e), got = raw(j < n ? &lo : &hi, j % n, e);
      ok = ok && got == want;
    }
    CHECK_MSG(ok, "vintlv %s", pt_dtype_name(k->t));
    ptosim_vintlv_params d = {&lo2, &hi2, &lo, &hi, PTOSIM_PART_LOWER, k->t};
    ok = ptosim_vdintlv(core, &d) == PTOSIM_OK && !memcmp(&lo2, &a, 256) && !memcmp(&hi2, &b, 256);
    for (unsigned i = 0; i < n; i++) /* low[i] = (a ++ b)[2i], high[i] = (a ++ b)[2i + 1] */
      ok = ok && raw(&lo2, i, e) == raw(2 * i < n ? &lo : &hi, (2 * i) % n, e) &&
           raw(&hi2, i, e) == raw(2 * i + 1 < n ? &lo : &hi, (2 * i + 1) % n, e);
    CHECK_MSG(ok, "vdintlv %s", pt_dtype_name(k->t));
    /* v2 forms: one half each, into an aliased source */
    for (int part = 0; part < 2; part++) {
      ptosim_vreg x = a, y;
      ptosim_vintlv_params v2 = {&x, NULL, &x, &b, (ptosim_pred_half)part, k->t};
      CHECK(ptosim_vintlvv2(core, &v2) == PTOSIM_OK && !memcmp(&x, part ? &hi : &lo, 256));
      y = lo;
      ptosim_vintlv_params dv2 = {&y, NULL, &y, &hi, (ptosim_pred_half)part, k->t};
      CHECK(ptosim_vdintlvv2(core, &dv2) == PTOSIM_OK && !memcmp(&y, part ? &b : &a, 256));
    }
  }
  ptosim_vreg a, lo;
  memset(&a, 0, sizeof a);
  ptosim_vintlv_params bad = {&lo, NULL, &a, &a, (ptosim_pred_half)2, PTOSIM_DT_F32};
  CHECK(failed_with(ptosim_vintlvv2(core, &bad), "vec.part"));
  CHECK(failed_with(ptosim_vintlv(core, &bad), "vec.operand")); /* the pair form needs high */
  bad.dtype = PTOSIM_DT_NONE;
  CHECK(failed_with(ptosim_vdintlvv2(core, &bad), "vec.dtype"));
}

/* ---- compress, prefix count ------------------------------------------------------------------ */

static void test_squeeze(void) {
  for (unsigned w = 0; w < NWIDTHS; w++)
    for (int mc = 0; mc < 6; mc++) {
      const kind *k = widths[w];
      unsigned n = lanes(k), e = k->e, j = 0;
      ptosim_vreg src, dst;
      ptosim_vmask m;
      random_bits(&src);
      mask_case(&m, mc, &seed);
      ptosim_vunary_params p = {&dst, &src, &m, k->t, 0};
      int ok = ptosim_vsqz(core, &p) == PTOSIM_OK;
      for (unsigned i = 0; i < n; i++)
        if (on(&m, i, e)) ok = ok && raw(&dst, j++, e) == raw(&src, i, e);
      for (; j < n; j++) ok = ok && raw(&dst, j, e) == 0;
      CHECK_MSG(ok, "vsqz %s mask %d", pt_dtype_name(k->t), mc);
    }
  static const kind *const sints[] = {&K_I8, &K_I16, &K_I32};
  for (unsigned w = 0; w < 3; w++)
    for (int mc = 0; mc < 6; mc++) {
      const kind *k = sints[w];
      ptosim_vreg src, dst;
      ptosim_vmask m;
      random_bits(&src);
      mask_case(&m, mc, &seed);
      ptosim_vunary_params p = {&dst, &src, &m, k->t, 8 * k->e};
      int ok = ptosim_vusqz(core, &p) == PTOSIM_OK;
      for (unsigned i = 0; i < lanes(k); i++) { /* active lanes strictly below i */
        unsigned c = 0;
        for (unsigned q = 0; q < i; q++) c += (unsigned)on(&m, q, k->e);
        ok = ok && raw(&dst, i, k->e) == c;
      }
      CHECK_MSG(ok, "vusqz %s mask %d", pt_dtype_name(k->t), mc);
    }
  ptosim_vreg r;
  ptosim_vmask m;
  memset(&r, 0, sizeof r);
  mask_case(&m, 0, &seed);
  ptosim_vunary_params bad = {&r, &r, &m, PTOSIM_DT_U32, 0};
  CHECK(failed_with(ptosim_vusqz(core, &bad), "vec.dtype")); /* signed only */
  bad.dtype = PTOSIM_DT_F32;
  bad.mask_bits = 16;
  CHECK(failed_with(ptosim_vsqz(core, &bad), "vec.mask_gran"));
}

/* ---- permute, slide, shift -------------------------------------------------------------------- */

static void test_permute_slide(void) {
  for (unsigned w = 0; w < NWIDTHS; w++) {
    const kind *k = widths[w];
    unsigned n = lanes(k), e = k->e;
    ptosim_vreg src, idx, dst;
    random_bits(&src), random_bits(&idx); /* indices of any size: taken mod n */
    ptosim_vselr_params p = {&dst, &src, &idx, k->t};
    int ok = ptosim_vperm(core, &p) == PTOSIM_OK;
    for (unsigned i = 0; i < n; i++) ok = ok && raw(&dst, i, e) == raw(&src, (unsigned)(raw(&idx, i, e) % n), e);
    CHECK_MSG(ok, "vperm %s", pt_dtype_name(k->t));
    ptosim_vreg s0, s1;
    random_bits(&s0), random_bits(&s1);
    for (int64_t amt = 0; amt <= (int64_t)n; amt += amt < 3 || amt > (int64_t)n - 3 ? 1 : 7) {
      ptosim_vslide_params sl = {&dst, &s0, &s1, amt, k->t}, sh = {&dst, &s0, NULL, amt, k->t};
      ok = ptosim_vslide(core, &sl) == PTOSIM_OK;
      for (unsigned i = 0; i < n; i++)
        ok = ok && raw(&dst, i, e) == (i >= amt ? raw(&s0, (unsigned)(i - amt), e) : raw(&s1, (unsigned)(n - amt + i), e));
      ok = ok && ptosim_vshift(core, &sh) == PTOSIM_OK;
      for (unsigned i = 0; i < n; i++) ok = ok && raw(&dst, i, e) == (i >= amt ? raw(&s0, (unsigned)(i - amt), e) : 0);
      CHECK_MSG(ok, "vslide / vshift %s amount %lld", pt_dtype_name(k->t), (long long)amt);
    }
  }
  ptosim_vreg r;
  memset(&r, 0, sizeof r);
  ptosim_vslide_params bad = {&r, &r, &r, 65, PTOSIM_DT_F32};
  CHECK(failed_with(ptosim_vslide(core, &bad), "vec.slide_amount"));
  bad.amount = -1;
  CHECK(failed_with(ptosim_vshift(core, &bad), "vec.slide_amount"));
  bad.amount = 0;
  bad.src1 = NULL;
  CHECK(failed_with(ptosim_vslide(core, &bad), "vec.operand"));
  ptosim_vselr_params pb = {&r, &r, &r, PTOSIM_DT_NONE};
  CHECK(failed_with(ptosim_vperm(core, &pb), "vec.dtype"));
}

/* ---- pack, unpack ----------------------------------------------------------------------------- */

static void test_pack_unpack(void) {
  static const kind *const wide[] = {&K_I32, &K_U32, &K_I16, &K_U16};
  for (unsigned w = 0; w < 4; w++)
    for (int part = 0; part < 2; part++) {
      const kind *k = wide[w];
      unsigned n = lanes(k), e = k->e;
      ptosim_vreg src, dst;
      random_bits(&src);
      ptosim_vpack_params p = {&dst, &src, (ptosim_pred_half)part, k->t, e == 4 ? PTOSIM_DT_U16 : PTOSIM_DT_U8};
      int ok = ptosim_vpack(core, &p) == PTOSIM_OK;
      uint64_t low = e == 4 ? 0xFFFF : 0xFF;
      for (unsigned j = 0; j < 2 * n; j++) /* dst lane j (e/2 bytes) */
        ok = ok && raw(&dst, j, e / 2) == ((j / n == (unsigned)part) ? raw(&src, j % n, e) & low : 0);
      CHECK_MSG(ok, "vpack %s part %d", pt_dtype_name(k->t), part);
    }
  static const kind *const narrow[][2] = {{&K_I8, &K_I16}, {&K_I16, &K_I32}, {&K_I32, &K_I64}, {&K_U16, &K_U32}};
  for (unsigned w = 0; w < 4; w++)
    for (int part = 0; part < 2; part++)
      for (int sgn = 0; sgn < 2; sgn++) {
        const kind *k = narrow[w][0];
        unsigned n = lanes(k), e = k->e;
        ptosim_vreg src, dst;
        random_bits(&src);
        ptosim_vunpack_params p = {&dst, &src, part, k->t, narrow[w][1]->t};
        int ok = (sgn ? ptosim_vsunpack : ptosim_vzunpack)(core, &p) == PTOSIM_OK;
        for (unsigned i = 0; i < n / 2; i++) {
          uint64_t v = raw(&src, part * n / 2 + i, e), top = 1ull << (8 * e - 1);
          uint64_t want = sgn && (v & top) ? v | ~((top << 1) - 1) : v; /* sign bits above */
          if (e < 4) want &= (1ull << (16 * e)) - 1;
          ok = ok && raw(&dst, i, 2 * e) == want;
        }
        CHECK_MSG(ok, "v%cunpack %s part %d", sgn ? 's' : 'z', pt_dtype_name(k->t), part);
      }
  ptosim_vreg r;
  memset(&r, 0, sizeof r);
  ptosim_vpack_params pk = {&r, &r, PTOSIM_PART_LOWER, PTOSIM_DT_I32, PTOSIM_DT_I16};
  CHECK(failed_with(ptosim_vpack(core, &pk), "vec.result_type")); /* unsigned results */
  pk.dst_type = PTOSIM_DT_NONE;
  pk.part = (ptosim_pred_half)3;
  CHECK(failed_with(ptosim_vpack(core, &pk), "vec.part"));
  pk.src_type = PTOSIM_DT_F32;
  CHECK(failed_with(ptosim_vpack(core, &pk), "vec.dtype"));
  ptosim_vunpack_params up = {&r, &r, 2, PTOSIM_DT_I16, PTOSIM_DT_I32};
  CHECK(failed_with(ptosim_vsunpack(core, &up), "vec.part"));
  up.part = 1;
  up.dst_type = PTOSIM_DT_I16;
  CHECK(failed_with(ptosim_vzunpack(core, &up), "vec.result_type"));
  up.src_type = PTOSIM_DT_F16;
  CHECK(failed_with(ptosim_vzunpack(core, &up), "vec.dtype"));
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  up.src_type = PTOSIM_DT_I16, up.dst_type = PTOSIM_DT_I32;
  CHECK(ptosim_vsunpack(ptosim_core_of(m2, 0, PTOSIM_AIV0), &up) == PTOSIM_E_VERIFY &&
        !strcmp(ptosim_last_diag(m2)->rule, "vec.target"));
  ptosim_machine_free(m2);
}

/* ---- from text ------------------------------------------------------------------------------- */

/* 64 x i32 in (a) and 64 x i32 (b): vintlvv2 HIGHER, vdintlv, vslide 5, vshift 3, vperm by b,
 * vpack HIGHER, vsunpack of the i16 view part 1, vsqz / vusqz under a b > 0 mask. */
static const char *text_src =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @k(%in: !pto.ptr<i32, gm>, %out: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
    "  %c0_i64 = arith.constant 0 : i64\n  %c1_i64 = arith.constant 1 : i64\n  %c512 = arith.constant 512 : i64\n"
    "  %c1024 = arith.constant 1024 : i64\n  %c2560 = arith.constant 2560 : i64\n"
    "  %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<i32, ub>\n"
    "  %uo = pto.castptr %c1024 : i64 -> !pto.ptr<i32, ub>\n"
    "  %uo16 = pto.castptr %c1024 : i64 -> !pto.ptr<ui16, ub>\n"
    "  pto.mte_gm_ub %in, %ub, %c0_i64, %c512 nburst(%c1_i64, %c512, %c512) : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, "
    "i64, i64, i64, i64\n"
    "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "  pto.vecscope {\n"
    "    %c0 = arith.constant 0 : index\n    %c64 = arith.constant 64 : index\n    %c1 = arith.constant 1 : index\n"
    "    %c5 = arith.constant 5 : i16\n    %c3 = arith.constant 3 : i16\n    %z = arith.constant 0 : i32\n"
    "    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "    %m16 = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
    "    %a = pto.vlds %ub[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>\n"
    "    %b = pto.vlds %ub[%c64] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>\n"
    "    %pos = pto.vcmps %b, %z, %m, \"gt\" : !pto.vreg<64xi32>, i32, !pto.mask<b32> -> !pto.mask<b32>\n"
    "    %r0 = pto.vintlvv2 %a, %b, \"HIGHER\" : !pto.vreg<64xi32>, !pto.vreg<64xi32> -> !pto.vreg<64xi32>\n"
    "    %r1, %r2 = pto.vdintlv %a, %b : !pto.vreg<64xi32>, !pto.vreg<64xi32> -> !pto.vreg<64xi32>, !pto.vreg<64xi32>\n"
    "    %r3 = pto.vslide %a, %b, %c5 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, i16 -> !pto.vreg<64xi32>\n"
    "    %r4 = pto.vshift %a, %c3 : !pto.vreg<64xi32>, i16 -> !pto.vreg<64xi32>\n"
    "    %r5 = pto.vperm %a, %b : !pto.vreg<64xi32>, !pto.vreg<64xi32> -> !pto.vreg<64xi32>\n"
    "    %r6 = pto.vsqz %a, %pos : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>\n"
    "    %r7 = pto.vusqz %a, %pos : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>\n"
    "    %a16 = pto.vbitcast %a : !pto.vreg<64xi32> -> !pto.vreg<128xi16>\n"
    "    %r8 = pto.vsunpack %a16, %c1 : !pto.vreg<128xi16> -> !pto.vreg<64xi32>\n"
    "    %p = pto.vpack %a, \"HIGHER\" : !pto.vreg<64xi32> -> !pto.vreg<128xui16>\n"
    "STORES"
    "  }\n"
    "  pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n  pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "  pto.mte_ub_gm %uo, %out, %c2560 nburst(%c1_i64, %c2560, %c2560) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, "
    "i64, i64\n"
    "  pto.barrier #pto.pipe<PIPE_ALL>\n  return\n}\n}\n";

static void test_text(void) {
  char src[8192], stores[2048] = "";
  size_t at = 0;
  for (int r = 0; r < 9; r++)
    at += (size_t)snprintf(stores + at, sizeof stores - at,
                           "    %%o%d = arith.constant %d : index\n"
                           "    pto.vsts %%r%d, %%uo[%%o%d], %%m : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n",
                           r, 64 * r, r, r);
  snprintf(stores + at, sizeof stores - at,
           "    %%o9 = arith.constant 1152 : index\n"
           "    pto.vsts %%p, %%uo16[%%o9], %%m16 : !pto.vreg<128xui16>, !pto.ptr<ui16, ub>, !pto.mask<b16>\n");
  const char *cut = strstr(text_src, "STORES");
  snprintf(src, sizeof src, "%.*s%s%s", (int)(cut - text_src), text_src, stores, cut + 6);
  static int32_t in[128], out[640];
  for (int i = 0; i < 128; i++) in[i] = (int32_t)pt_rand_u64(&seed);
  CHECK(run_program(src, in, sizeof in, out, sizeof out));
  const int32_t *a = in, *b = in + 64;
  int ok = 1, j = 0, count = 0;
  for (int i = 0; i < 64; i++) {
    ok = ok && out[i] == (i % 2 ? b : a)[32 + i / 2];                                   /* vintlvv2 HIGHER */
    ok = ok && out[64 + i] == in[2 * i] && out[128 + i] == in[2 * i + 1];               /* vdintlv */
    ok = ok && out[192 + i] == (i >= 5 ? a[i - 5] : b[64 - 5 + i]);                     /* vslide 5 */
    ok = ok && out[256 + i] == (i >= 3 ? a[i - 3] : 0);                                 /* vshift 3 */
    ok = ok && out[320 + i] == a[(uint32_t)b[i] % 64];                                  /* vperm */
    if (b[i] > 0) ok = ok && out[384 + j++] == a[i];                                    /* vsqz */
    ok = ok && out[448 + i] == count;                                                   /* vusqz */
    count += b[i] > 0;
    ok = ok && out[512 + i] == (int16_t)((const uint16_t *)(const void *)a)[64 + i]; /* vsunpack part 1 */
  }
  for (; j < 64; j++) ok = ok && out[384 + j] == 0;
  const uint16_t *packed = (const uint16_t *)(const void *)(out + 576);
  for (int i = 0; i < 128; i++) ok = ok && packed[i] == (i < 64 ? 0 : (uint16_t)a[i - 64]); /* vpack HIGHER */
  CHECK(ok);
}

int main(void) {
  m5 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  core = ptosim_core_of(m5, 0, PTOSIM_AIV0);
  RUN(test_interleave);
  RUN(test_squeeze);
  RUN(test_permute_slide);
  RUN(test_pack_unpack);
  RUN(test_text);
  ptosim_machine_free(m5);
  return pt_test_finish();
}
