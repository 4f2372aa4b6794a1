/* Vector reductions (vpto micro-isa 10: vcadd vcgadd vcpadd vcmax vcmin vcgmax vcgmin vcbmax
 * vcbmin) against references written here from the formulas of docs/spec-notes.md section 15:
 * sums as a recursive halving of the lane range (the adjacent-pair tree) rounded at every
 * node, extrema by a lane-by-lane scan with an explicit "greater" (NaN wins, -0 < +0, first
 * lane kept on ties). Every element type, full / empty / tail / random masks, special values,
 * untouched result lanes, the corpus's group layout, one negative test per rule, and the ops
 * from .pto text. */
#include "vec_ref.h"

static unsigned long long seed = 0x9e3779b97f4a7c15ull;
static ptosim_machine *m5;
static ptosim_core *core;

static int failed_with(ptosim_status st, const char *rule) {
  return st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, rule);
}

typedef ptosim_status (*reduce_fn)(ptosim_core *, const ptosim_vreduce_params *);

static const kind *const ints_floats[] = {&K_I8, &K_U8, &K_I16, &K_U16, &K_I32, &K_U32, &K_F16, &K_F32};
#define NKINDS (sizeof ints_floats / sizeof ints_floats[0])

/* ---- sums ---------------------------------------------------------------------------------- */

/* a + b in kind k (floats rounded to the type; integers exact, wrapped when compared). */
static double add(const kind *k, double a, double b) {
  return k->t == PTOSIM_DT_F16 ? f16_round(a + b) : k->t == PTOSIM_DT_F32 ? (double)(float)(a + b) : a + b;
}

/* Sum of v[0, n) as the tree: halves summed, then added (n a power of 2). */
static double tree(const kind *k, const double *v, unsigned n) {
  return n == 1 ? v[0] : add(k, tree(k, v, n / 2), tree(k, v + n / 2, n / 2));
}

/* v[i] = lane i of src, 0 if inactive. */
static void active_values(const kind *k, const ptosim_vreg *src, const ptosim_vmask *m, double *v) {
  for (unsigned i = 0; i < lanes(k); i++) v[i] = on(m, i, k->e) ? value(k, src, i) : 0;
}

/* The result lanes r[0, n) of kind k hold want[0, n), the others 0. */
static int result_is(const kind *k, const ptosim_vreg *r, const double *want, unsigned n) {
  for (unsigned i = 0; i < lanes(k); i++)
    if (!lane_is(k, r, i, i < n ? want[i] : 0.0)) return 0;
  return 1;
}

static const kind *wide(const kind *k) {
  return k == &K_I8 ? &K_I16 : k == &K_U8 ? &K_U16 : k == &K_I16 ? &K_I32 : k == &K_U16 ? &K_U32 : k;
}

static void test_sums(void) {
  for (unsigned t = 0; t < NKINDS; t++) {
    const kind *k = ints_floats[t];
    for (int mc = 0; mc < 8; mc++) {
      ptosim_vreg src, dst;
      ptosim_vmask m;
      random_reg(k, &src, &seed);
      mask_case(&m, mc, &seed);
      double v[256], want[128];
      active_values(k, &src, &m, v);
      ptosim_vreduce_params p = {&dst, NULL, &src, &m, k->t, wide(k)->t, 8 * (k->e > 4 ? 4 : k->e)};
      /* vcadd: the tree over every lane (integers: the exact sum, wrapped to the result) */
      memset(&dst, 0xAB, sizeof dst);
      want[0] = tree(k, v, lanes(k));
      CHECK_MSG(ptosim_vcadd(core, &p) == PTOSIM_OK && result_is(wide(k), &dst, want, 1), "vcadd %s mask %d",
                pt_dtype_name(k->t), mc);
      /* vcgadd: the tree over each 32-byte VLane, results in lanes 0..7 */
      p.dst_type = k->t;
      unsigned per = lanes(k) / 8;
      for (unsigned g = 0; g < 8; g++) want[g] = tree(k, v + g * per, per);
      memset(&dst, 0xAB, sizeof dst);
      CHECK_MSG(ptosim_vcgadd(core, &p) == PTOSIM_OK && result_is(k, &dst, want, 8), "vcgadd %s mask %d",
                pt_dtype_name(k->t), mc);
      if (!k->flt) continue;
      /* vcpadd: pair sums in the low half */
      for (unsigned i = 0; i < lanes(k) / 2; i++) want[i] = add(k, v[2 * i], v[2 * i + 1]);
      memset(&dst, 0xAB, sizeof dst);
      CHECK_MSG(ptosim_vcpadd(core, &p) == PTOSIM_OK && result_is(k, &dst, want, lanes(k) / 2), "vcpadd %s mask %d",
                pt_dtype_name(k->t), mc);
    }
  }
}

/* The summation order is the pair tree, visible in f32: lanes 2^24, 1, 1, -2^24 (repeated)
 * pair to 2^24 (2^24 + 1 rounded to even) and 1 - 2^24 (exact), so every 4 lanes add up to 1
 * where a left-to-right sum gives 0; f16 rounds every partial sum (2048 + 1 = 2048). i32 sums
 * wrap; NaN and inf propagate. */
static void test_sum_specials(void) {
  static const uint32_t quad[4] = {0x4B800000u, 0x3F800000u, 0x3F800000u, 0xCB800000u};
  ptosim_vreg src, dst;
  ptosim_vmask all;
  mask_case(&all, 0, &seed);
  ptosim_vreduce_params p = {&dst, NULL, &src, &all, PTOSIM_DT_F32, PTOSIM_DT_NONE, 32};
  for (unsigned i = 0; i < 64; i++) set_raw(&src, i, 4, quad[i % 4]);
  double sixteen = 16.0;
  CHECK(ptosim_vcadd(core, &p) == PTOSIM_OK && result_is(&K_F32, &dst, &sixteen, 1));
  CHECK(ptosim_vcgadd(core, &p) == PTOSIM_OK && lane_is(&K_F32, &dst, 0, 2.0) && lane_is(&K_F32, &dst, 7, 2.0));
  CHECK(ptosim_vcpadd(core, &p) == PTOSIM_OK && lane_is(&K_F32, &dst, 0, 16777216.0) && lane_is(&K_F32, &dst, 1, -16777215.0));
  p.dtype = PTOSIM_DT_F16; /* lanes 2048, 1, 2048, 1, ...: each pair 2049 -> 2048 */
  p.mask_bits = 16;
  for (unsigned i = 0; i < 128; i++) set_raw(&src, i, 2, i % 2 ? 0x3C00u : 0x6800u);
  CHECK(ptosim_vcpadd(core, &p) == PTOSIM_OK && lane_is(&K_F16, &dst, 0, 2048.0) && lane_is(&K_F16, &dst, 63, 2048.0));
  double inf = INFINITY; /* 64 pair sums of 2048: 131072 overflows f16 */
  CHECK(ptosim_vcadd(core, &p) == PTOSIM_OK && result_is(&K_F16, &dst, &inf, 1));
  set_raw(&src, 5, 2, 0x7C01u); /* a signalling NaN: the sum is the quiet NaN */
  double nan = NAN;
  CHECK(ptosim_vcadd(core, &p) == PTOSIM_OK && result_is(&K_F16, &dst, &nan, 1));
  p.dtype = PTOSIM_DT_I32;
  p.mask_bits = 32;
  for (unsigned i = 0; i < 64; i++) set_raw(&src, i, 4, 0x7FFFFFFFu);
  double wrapped = -64.0; /* 64 * (2^31 - 1) mod 2^32 = 2^32 - 64 */
  CHECK(ptosim_vcadd(core, &p) == PTOSIM_OK && result_is(&K_I32, &dst, &wrapped, 1));
}

/* ---- extrema ------------------------------------------------------------------------------- */

/* x beats y for the maximum (dir 1) or the minimum (dir -1): a NaN beats everything that is
 * not NaN; else by value, -0 below +0. */
static int beats(double x, double y, int dir) {
  if (isnan(x) || isnan(y)) return isnan(x) && !isnan(y);
  if (x == 0 && y == 0) return dir > 0 ? !signbit(x) && signbit(y) : signbit(x) && !signbit(y);
  return dir > 0 ? x > y : x < y;
}

/* The winning active lane of [lo, hi) (the first on ties), or -1. */
static int winner(const kind *k, const ptosim_vreg *src, const ptosim_vmask *m, unsigned lo, unsigned hi, int dir) {
  int w = -1;
  for (unsigned i = lo; i < hi; i++)
    if (on(m, i, k->e) && (w < 0 || beats(value(k, src, i), value(k, src, (unsigned)w), dir))) w = (int)i;
  return w;
}

/* The value of a group with no active lane: -inf / +inf, the integer minimum / maximum. */
static double neutral(const kind *k, int dir) {
  if (k->flt) return dir > 0 ? -INFINITY : INFINITY;
  double top = ldexp(1, 8 * (int)k->e - k->sgn);
  return dir > 0 ? (k->sgn ? -top : 0) : top - 1;
}

static double result_value(const kind *k, const ptosim_vreg *src, int w, int dir) {
  return w < 0 ? neutral(k, dir) : value(k, src, (unsigned)w);
}

/* Some lanes copied onto others so that ties happen; with `special` NaN, infinities, zeros. */
static void extrema_input(const kind *k, ptosim_vreg *src, int special) {
  random_reg(k, src, &seed);
  for (unsigned i = 0; i < lanes(k); i += 5) set_raw(src, (i * 7 + 3) % lanes(k), k->e, raw(src, i, k->e));
  if (!special || !k->flt) return;
  uint64_t nan = k->e == 2 ? 0x7D00u : 0x7F900000u, ninf = k->e == 2 ? 0xFC00u : 0xFF800000u;
  uint64_t pz = 0, nz = k->e == 2 ? 0x8000u : 0x80000000u;
  set_raw(src, 9, k->e, nan | (special == 2 ? (k->e == 2 ? 0x8000u : 0x80000000u) : 0));
  set_raw(src, 3, k->e, ninf), set_raw(src, 17, k->e, nz), set_raw(src, 18, k->e, pz);
}

static void test_extrema(void) {
  static const struct { reduce_fn fn; int dir, form; const char *name; } ops[] = {
      {ptosim_vcmax, 1, 0, "vcmax"},   {ptosim_vcmin, -1, 0, "vcmin"},  {ptosim_vcgmax, 1, 1, "vcgmax"},
      {ptosim_vcgmin, -1, 1, "vcgmin"}, {ptosim_vcbmax, 1, 2, "vcbmax"}, {ptosim_vcbmin, -1, 2, "vcbmin"}};
  for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++)
    for (unsigned t = 0; t < NKINDS; t++)
      for (int mc = 0; mc < 7; mc++)
        for (int special = 0; special < 3; special++) {
          const kind *k = ints_floats[t];
          ptosim_vreg src, dst;
          ptosim_vmask m, pred;
          extrema_input(k, &src, special);
          mask_case(&m, mc, &seed);
          memset(&dst, 0xCD, sizeof dst);
          memset(&pred, 0xCD, sizeof pred);
          ptosim_vreduce_params p = {&dst, &pred, &src, &m, k->t, k->t, 0};
          int ok = ops[o].fn(core, &p) == PTOSIM_OK, dir = ops[o].dir;
          double want[8] = {0};
          unsigned n = ops[o].form == 1 ? 8 : 1, per = lanes(k) / n;
          int w0 = winner(k, &src, &m, 0, per, dir);
          for (unsigned g = 0; g < n; g++) want[g] = result_value(k, &src, winner(k, &src, &m, g * per, (g + 1) * per, dir), dir);
          if (ops[o].form == 0) { /* value, then the index as an unsigned lane */
            want[1] = w0 < 0 ? 0 : w0;
            n = 2;
            ok = ok && raw(&dst, 1, k->e) == (uint64_t)want[1];
            want[1] = value(k, &dst, 1); /* the index bits, whatever they read as in kind k */
          }
          ok = ok && result_is(k, &dst, want, n);
          for (unsigned i = 0; ops[o].form == 2 && i < lanes(k); i++) { /* predicate: lanes equal to the result */
            double x = value(k, &src, i);
            int match = on(&m, i, k->e) && w0 >= 0 && (x == want[0] || (isnan(x) && isnan(want[0])));
            for (unsigned b = 0; b < k->e; b++) ok = ok && on(&pred, i * k->e + b, 1) == (b == 0 && match);
          }
          CHECK_MSG(ok, "%s %s mask %d special %d", ops[o].name, pt_dtype_name(k->t), mc, special);
        }
}

/* The corpus's vcgmax-tie / vcg-group layout: per group [7, 7, -3, 1, 0.5, -2, 4, 6] max 7
 * at lanes 0..7; -0 and +0: max +0, min -0; vcmax index of the first of equal maxima. */
static void test_extrema_cases(void) {
  static const float grp[8] = {7, 7, -3, 1, 0.5f, -2, 4, 6};
  ptosim_vreg src, dst;
  ptosim_vmask all, pred;
  mask_case(&all, 0, &seed);
  for (unsigned i = 0; i < 64; i++) {
    uint32_t w;
    float f = grp[i % 8] + (float)(i / 8);
    memcpy(&w, &f, 4);
    set_raw(&src, i, 4, w);
  }
  ptosim_vreduce_params p = {&dst, &pred, &src, &all, PTOSIM_DT_F32, PTOSIM_DT_F32, 32};
  int ok = ptosim_vcgmax(core, &p) == PTOSIM_OK;
  for (unsigned g = 0; g < 8; g++) ok = ok && lane_is(&K_F32, &dst, g, 7.0 + g);
  CHECK(ok && lane_is(&K_F32, &dst, 8, 0));
  CHECK(ptosim_vcmax(core, &p) == PTOSIM_OK && lane_is(&K_F32, &dst, 0, 14) && raw(&dst, 1, 4) == 56);
  CHECK(ptosim_vcbmax(core, &p) == PTOSIM_OK && pred.b[28] == 0x11 && pred.b[0] == 0); /* lanes 56, 57: bits 224, 228 */
  for (unsigned i = 0; i < 64; i++) set_raw(&src, i, 4, i % 2 ? 0x80000000u : 0);
  CHECK(ptosim_vcmax(core, &p) == PTOSIM_OK && lane_is(&K_F32, &dst, 0, 0.0) && raw(&dst, 1, 4) == 0);
  CHECK(ptosim_vcmin(core, &p) == PTOSIM_OK && lane_is(&K_F32, &dst, 0, -0.0) && raw(&dst, 1, 4) == 1);
  CHECK(ptosim_vcbmin(core, &p) == PTOSIM_OK && lane_is(&K_F32, &dst, 0, -0.0) && pred.b[0] == 0x11 && pred.b[31] == 0x11);
}

/* ---- rules ----------------------------------------------------------------------------------- */

static void test_rules(void) {
  ptosim_vreg src, dst;
  ptosim_vmask all, pred;
  mask_case(&all, 0, &seed);
  memset(&src, 0, sizeof src);
  ptosim_vreduce_params p = {&dst, NULL, &src, &all, PTOSIM_DT_I8, PTOSIM_DT_I8, 8};
  CHECK(failed_with(ptosim_vcadd(core, &p), "vec.result_type")); /* i8 sums into i16 */
  p.dst_type = PTOSIM_DT_I16;
  CHECK(ptosim_vcadd(core, &p) == PTOSIM_OK);
  p.dtype = p.dst_type = PTOSIM_DT_I32;
  p.mask_bits = 16;
  CHECK(failed_with(ptosim_vcgadd(core, &p), "vec.mask_gran"));
  p.mask_bits = 32;
  CHECK(failed_with(ptosim_vcpadd(core, &p), "vec.dtype")); /* f16 / f32 only */
  p.dtype = p.dst_type = PTOSIM_DT_BF16;
  CHECK(failed_with(ptosim_vcmax(core, &p), "vec.dtype"));
  p.dtype = p.dst_type = PTOSIM_DT_I64;
  CHECK(failed_with(ptosim_vcadd(core, &p), "vec.dtype"));
  p.dtype = p.dst_type = PTOSIM_DT_F32;
  CHECK(failed_with(ptosim_vcbmax(core, &p), "vec.operand")); /* no predicate result */
  p.pred = &pred;
  p.src = NULL;
  CHECK(failed_with(ptosim_vcgmin(core, &p), "vec.operand"));
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  p.src = &src;
  CHECK(ptosim_vcmin(ptosim_core_of(m2, 0, PTOSIM_AIV0), &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m2)->rule, "vec.target"));
  ptosim_machine_free(m2);
}

/* ---- from text ------------------------------------------------------------------------------- */

/* 128 x i16 in: vcadd (widened to i32), vcmax, vcbmin (value, and its predicate selecting 1
 * over 0); the same bits as 64 x f32 (every kind of float, NaNs included): vcgmin vcpadd
 * vcgadd vcmin vcgmax vcbmax, and the source stored under vcbmax's predicate over 99s. */
static const char *text_src =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @k(%in: !pto.ptr<i16, gm>, %out: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
    "  %c0_i64 = arith.constant 0 : i64\n  %c1_i64 = arith.constant 1 : i64\n  %c256 = arith.constant 256 : i64\n"
    "  %c1024 = arith.constant 1024 : i64\n  %c2816 = arith.constant 2816 : i64\n"
    "  %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<i16, ub>\n"
    "  %uo = pto.castptr %c1024 : i64 -> !pto.ptr<i32, ub>\n"
    "  %uf = pto.castptr %c1024 : i64 -> !pto.ptr<f32, ub>\n"
    "  pto.mte_gm_ub %in, %ub, %c0_i64, %c256 nburst(%c1_i64, %c256, %c256) : !pto.ptr<i16, gm>, !pto.ptr<i16, ub>, i64, "
    "i64, i64, i64, i64\n"
    "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "  pto.vecscope {\n"
    "    %c0 = arith.constant 0 : index\n    %c1_i16 = arith.constant 1 : i16\n    %c0_i16 = arith.constant 0 : i16\n"
    "    %c99 = arith.constant 99.0 : f32\n"
    "    %m16 = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
    "    %m32 = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "    %v = pto.vlds %ub[%c0] : !pto.ptr<i16, ub> -> !pto.vreg<128xi16>\n"
    "    %s = pto.vcadd %v, %m16 : !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<64xi32>\n"
    "    %mx = pto.vcmax %v, %m16 : !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>\n"
    "    %bv, %bp = pto.vcbmin %v, %m16 : !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>, !pto.mask<b16>\n"
    "    %one = pto.vbr %c1_i16 : i16 -> !pto.vreg<128xi16>\n"
    "    %zero = pto.vbr %c0_i16 : i16 -> !pto.vreg<128xi16>\n"
    "    %hits = pto.vsel %one, %zero, %bp : !pto.vreg<128xi16>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>\n"
    "    %f = pto.vbitcast %v : !pto.vreg<128xi16> -> !pto.vreg<64xf32>\n"
    "    %gn = pto.vcgmin %f, %m32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "    %pa = pto.vcpadd %f, %m32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "    %ga = pto.vcgadd %f, %m32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "    %mn = pto.vcmin %f, %m32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "    %gx = pto.vcgmax %f, %m32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "    %bx, %bxp = pto.vcbmax %f, %m32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.mask<b32>\n"
    "    %nn = pto.vbr %c99 : f32 -> !pto.vreg<64xf32>\n"
    "    %mx32 = pto.vbitcast %mx : !pto.vreg<128xi16> -> !pto.vreg<64xi32>\n"
    "    %bv32 = pto.vbitcast %bv : !pto.vreg<128xi16> -> !pto.vreg<64xi32>\n"
    "    %hits32 = pto.vbitcast %hits : !pto.vreg<128xi16> -> !pto.vreg<64xi32>\n"
    "    %o0 = arith.constant 0 : index\n"
    "    pto.vsts %s, %uo[%o0], %m32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n"
    "    %o1 = arith.constant 64 : index\n"
    "    pto.vsts %mx32, %uo[%o1], %m32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n"
    "    %o2 = arith.constant 128 : index\n"
    "    pto.vsts %bv32, %uo[%o2], %m32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n"
    "    %o3 = arith.constant 192 : index\n"
    "    pto.vsts %hits32, %uo[%o3], %m32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>\n"
    "    %o4 = arith.constant 256 : index\n"
    "    pto.vsts %gn, %uf[%o4], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    %o5 = arith.constant 320 : index\n"
    "    pto.vsts %pa, %uf[%o5], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    %o6 = arith.constant 384 : index\n"
    "    pto.vsts %ga, %uf[%o6], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    %o7 = arith.constant 448 : index\n"
    "    pto.vsts %mn, %uf[%o7], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    %o8 = arith.constant 512 : index\n"
    "    pto.vsts %gx, %uf[%o8], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    %o9 = arith.constant 576 : index\n"
    "    pto.vsts %bx, %uf[%o9], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    %o10 = arith.constant 640 : index\n"
    "    pto.vsts %nn, %uf[%o10], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    %o11 = arith.constant 640 : index\n"
    "    pto.vsts %f, %uf[%o11], %bxp : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "  }\n"
    "  pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n  pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "  pto.mte_ub_gm %uo, %out, %c2816 nburst(%c1_i64, %c2816, %c2816) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, "
    "i64, i64\n"
    "  pto.barrier #pto.pipe<PIPE_ALL>\n  return\n}\n}\n";
/* Lane value of word i of out as f32. */
static double word_f32(const uint32_t *out, unsigned i) {
  float f;
  memcpy(&f, &out[i], 4);
  return f;
}

/* word i of out holds float x (NaN: the quiet NaN). */
static int word_is(const uint32_t *out, unsigned i, double x) {
  return isnan(x) ? out[i] == 0x7FC00000u : word_f32(out, i) == x && signbit(word_f32(out, i)) == signbit(x);
}

static void test_text(void) {
  static int16_t in[128];
  static uint32_t out[704];
  for (int i = 0; i < 128; i++) in[i] = (int16_t)(pt_rand_u64(&seed) | 1); /* odd: never -32768 */
  in[77] = in[20] = -32768;                                                /* the minimum, twice */
  CHECK(run_program(text_src, in, sizeof in, out, sizeof out));
  int64_t sum = 0;
  int mx = 0;
  for (int i = 0; i < 128; i++) sum += in[i], mx = in[i] > in[mx] ? i : mx;
  int ok = out[0] == (uint32_t)(int32_t)sum && out[64] == ((uint32_t)mx << 16 | (uint16_t)in[mx]) && out[128] == 0x8000u;
  ok = ok && out[192 + 10] == 1 && out[192 + 38] == 1u << 16; /* i16 lanes 20 and 77 */
  for (unsigned i = 1; i < 64; i++) ok = ok && out[i] == 0 && out[64 + i] == 0 && out[128 + i] == 0;
  for (unsigned i = 0; i < 64; i++) ok = ok && (i == 10 || i == 38 || out[192 + i] == 0);
  CHECK_MSG(ok, "i16 reductions from text");
  ptosim_vreg f;
  ptosim_vmask all;
  memcpy(f.b, in, 256);
  mask_case(&all, 0, &seed);
  double v[64];
  active_values(&K_F32, &f, &all, v);
  ok = 1;
  for (unsigned g = 0; g < 8; g++) {
    ok = ok && word_is(out, 256 + g, v[winner(&K_F32, &f, &all, 8 * g, 8 * g + 8, -1)]);
    ok = ok && word_is(out, 384 + g, tree(&K_F32, v + 8 * g, 8));
    ok = ok && word_is(out, 512 + g, v[winner(&K_F32, &f, &all, 8 * g, 8 * g + 8, 1)]);
    ok = ok && out[256 + 8 + g] == 0 && out[384 + 8 + g] == 0 && out[512 + 8 + g] == 0;
  }
  for (unsigned i = 0; i < 32; i++) ok = ok && word_is(out, 320 + i, add(&K_F32, v[2 * i], v[2 * i + 1])) && out[352 + i] == 0;
  int mn = winner(&K_F32, &f, &all, 0, 64, -1), bx = winner(&K_F32, &f, &all, 0, 64, 1);
  ok = ok && word_is(out, 448, v[mn]) && out[449] == (uint32_t)mn && word_is(out, 576, v[bx]);
  for (unsigned i = 0; i < 64; i++) { /* source lanes equal to the maximum, 99 elsewhere */
    int match = v[i] == v[bx] || (isnan(v[i]) && isnan(v[bx]));
    ok = ok && (match ? memcmp(&out[640 + i], f.b + 4 * i, 4) == 0 : word_f32(out, 640 + i) == 99.0);
  }
  CHECK_MSG(ok, "f32 reductions from text");
}

int main(void) {
  m5 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  core = ptosim_core_of(m5, 0, PTOSIM_AIV0);
  RUN(test_sums);
  RUN(test_sum_specials);
  RUN(test_extrema);
  RUN(test_extrema_cases);
  RUN(test_rules);
  RUN(test_text);
  ptosim_machine_free(m5);
  return pt_test_finish();
}
