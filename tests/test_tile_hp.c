/* precisionType = high_precision of texp, tlog, tsqrt, trsqrt, trecip (tile_elem.h
 * high_precision; docs/spec-notes.md section 32): on a5 texp and tlog follow ExpPrecisionImpl /
 * LogPrecisionImpl and trecip rounds subnormal results twice (DivIEEE754*Impl); every other
 * case computes as DEFAULT. Each case fills a tile with values that reach the selected lanes
 * (subnormal and zero exp results, subnormal, zero and negative log inputs, subnormal
 * reciprocals) and ordinary ones, runs the op on a valid region smaller than the tile, and
 * compares the whole UB with a reference image. The references are written from the
 * formulas, in double, element by element. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tile_ub_env.h"

static unsigned long long seed = 0x51ED270B9C3A6F1Dull;
static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

/* Largest subnormal of t (f32 0x007FFFFF, f16 0x03FF) and ln 2^23 / ln 2^10 as the code
 * writes them (TExp_Custom.hpp, TLog_Custom.hpp). */
static double maxsub(ptosim_dtype t) { return t == PTOSIM_DT_F32 ? ldexp(0x7FFFFF, -149) : ldexp(0x3FF, -24); }

/* e^x as ptosim's vexp gives it in type t: correctly rounded to f32, then rounded to t. */
static double vexp_ref(ptosim_dtype t, double x) { return as(t, isnan(x) ? x : pt_exp_ref((float)x)); }

static double exp_ref(ptosim_dtype t, double x, int hp) {
  double y = vexp_ref(t, x);
  if (!hp || !(y <= maxsub(t))) return y;
  double h = as(t, x / 2), e = vexp_ref(t, h);
  return as(t, e * e);
}

/* ln x as vln gives it in type t: the host's logf, rounded to t. */
static double vln_ref(ptosim_dtype t, double x) { return as(t, logf((float)x)); }

static double log_ref(ptosim_dtype t, double x, int hp) {
  if (!hp || !(x < maxsub(t))) return vln_ref(t, x);
  int f32 = t == PTOSIM_DT_F32;
  double s = as(t, x * (f32 ? 8388608.0 : 1024.0)), c = as(t, f32 ? -15.9423851528787421 : -6.931471805599453094172);
  return as(t, vln_ref(t, s) + c);
}

/* tsqrt, trsqrt: HIGH_PRECISION computes as DEFAULT, IEEE-correct (scripts/exhaustive_hp.c). */
static double sqrt_ref(ptosim_dtype t, double x, int hp) { return (void)hp, as(t, sqrt(x)); }
static double rsqrt_ref(ptosim_dtype t, double x, int hp) { return (void)hp, as(t, 1.0 / as(t, sqrt(x))); }
/* trecip HIGH_PRECISION: where 1 / x is subnormal, the quotient of x scaled into [0.5, 2)
 * rounded first, then scaled back and rounded again. */
static double recip_ref(ptosim_dtype t, double x, int hp) {
  int f32 = t == PTOSIM_DT_F32;
  if (!hp || !(fabs(x) >= (f32 ? 0x1p126 : 0x1p14))) return as(t, 1.0 / x);
  double k = f32 ? 0x1p-127 : 0x1p-15;
  return as(t, as(t, 1.0 / (x * k)) * k);
}

/* Source values: kind 0 for texp, 1 for the others. texp: results that are subnormal or zero
 * in t (x from the underflow range of t down past it), specials, ordinary values. Others:
 * subnormals of t (the largest one too), zero, negatives, specials, ordinary values, and
 * values whose reciprocal is subnormal (|x| in [2^126, 2^128), f16 [2^14, 65504]). */
static double src_value(ptosim_dtype t, int kind, int i) {
  static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5};
  uint64_t r = pt_rand_u64(&seed);
  int f32 = t == PTOSIM_DT_F32, k = (int)(r % 8);
  if (i < 8) return sp[i];
  if (kind == 0) {
    double lo = f32 ? -106.0 : -18.5, hi = f32 ? -86.0 : -9.0; /* e^lo rounds to 0, e^hi is normal */
    double u = (double)(r >> 11) * 0x1p-53;
    return k < 6 ? lo + (hi - lo) * u : k == 6 ? -300.0 * u : 40.0 * u - 20.0;
  }
  uint64_t sub = f32 ? 0x7FFFFFu : 0x3FFu, bits = 1 + (r >> 8) % sub;
  if (i == 8) bits = sub;     /* the largest subnormal: not below the threshold */
  if (i == 9) bits = sub + 1; /* the smallest normal */
  double s = f32 ? ldexp((double)bits, -149) : ldexp((double)bits, -24);
  double m = 1.0 + (double)(r >> 40) * 0x1p-24; /* in [1, 2) */
  if (k < 4 || i < 10) return k == 3 ? -s : s;
  if (k < 6) return ldexp(m, (int)(r >> 20) % 40 - 20);
  if (k == 6) return -(double)(r % 100) - 0.5;
  return (r >> 30 & 1 ? -1 : 1) * (f32 ? ldexp(m, 126 + (int)(r >> 31 & 1)) : fmin(ldexp(m, 14 + (int)(r >> 31 & 1)), 65504.0));
}

typedef double (*ref_fn)(ptosim_dtype, double, int);

/* op on t, target tg, high_precision hp, tile R x C with valid (R - 1) x (C - 3); in place
 * (src = dst) when inplace. Returns how many lanes the HIGH_PRECISION formula changed from
 * DEFAULT (so that a caller can require the selected lanes to be reached). */
static int hp_case(ptosim_opcode op, ref_fn ref, ptosim_target tg, ptosim_dtype t, int hp, int inplace) {
  enum { R = 6, C = 48 };
  env e = env_new_seeded(tg, &seed);
  int64_t es = es_of(t), vr = R - 1, vc = C - 3;
  ptosim_tile a = ub_tile(t, 256, R, C, vr, vc, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile d = ub_tile(t, inplace ? 256 : 256 + (uint64_t)(R * C * es + 255) / 256 * 256, R, C, vr, vc, PTOSIM_BL_ROW_MAJOR);
  int kind = op == PTOSIM_OP_texp ? 0 : 1, used = hp && tg == PTOSIM_TARGET_A5, changed = 0;
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) put(t, at(&e, &a, r, c), src_value(t, kind, r * C + c));
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      double x = get(t, at(&e, &a, r, c)), w = ref(t, x, used), w0 = ref(t, x, 0);
      changed += memcmp(&w, &w0, sizeof w) != 0 && !(isnan(w) && isnan(w0));
      put(t, at(&e, &d, r, c), w);
    }
  ptosim_telem_params p = {.src0 = a, .dst = d, .high_precision = hp != 0};
  if (op == PTOSIM_OP_trsqrt) p.tmp = ub_tile(t, 0x10000, R, C, R, C, PTOSIM_BL_ROW_MAJOR), p.has_tmp = true;
  char what[96];
  snprintf(what, sizeof what, "%s %s %s hp %d inplace %d", ptosim_op_spelling(op), tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3",
           pt_dtype_name(t), hp, inplace);
  finish(&e, ptosim_exec(e.c, op, &p, NULL), what);
  return changed;
}

static void test_ops(void) {
  static const struct {
    ptosim_opcode op;
    ref_fn ref;
  } ops[] = {{PTOSIM_OP_texp, exp_ref},     {PTOSIM_OP_tlog, log_ref},       {PTOSIM_OP_tsqrt, sqrt_ref},
             {PTOSIM_OP_trsqrt, rsqrt_ref}, {PTOSIM_OP_trecip, recip_ref}};
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    for (int ti = 0; ti < 2; ti++)
      for (int k = 0; k < 2; k++)
        for (int hp = 0; hp < 2; hp++)
          for (int inplace = 0; inplace < 2; inplace++) {
            int changed = hp_case(ops[i].op, ops[i].ref, targets[ti], types[k], hp, inplace);
            /* texp / tlog / trecip on a5: the formula must differ from DEFAULT somewhere */
            int expect = hp && ti == 1 && ops[i].op != PTOSIM_OP_tsqrt && ops[i].op != PTOSIM_OP_trsqrt;
            CHECK_MSG(expect ? changed > 0 : changed == 0, "%s %s: %d lanes differ from DEFAULT",
                      ptosim_op_spelling(ops[i].op), pt_dtype_name(types[k]), changed);
          }
}

/* ---- text: the attribute binds ----------------------------------------------------------- */

#define TF "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define PV "!pto.partition_tensor_view<16x32xf32>"
#define VIEW(n)                                                                                          \
  "%v" n " = pto.make_tensor_view %" n ", shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>\n" \
  "%p" n " = pto.partition_view %v" n ", offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?xf32> -> " PV "\n"

/* o = texp(a) and l = tlog(b) with high_precision, e = texp(a) with an explicit default,
 * r = trsqrt(b) with high_precision and its tmp, s = tsqrt(b), q = trecip(b) with
 * high_precision. */
static const char *const k_text =
    "module {\n"
    "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %o: !pto.ptr<f32>, %l: !pto.ptr<f32>, %e: !pto.ptr<f32>, %r: !pto.ptr<f32>, %s: !pto.ptr<f32>, %q: !pto.ptr<f32>) {\n"
    "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
    "%c16 = arith.constant 16 : index\n%c32 = arith.constant 32 : index\n"
    VIEW("a") VIEW("b") VIEW("o") VIEW("l") VIEW("e") VIEW("r") VIEW("s") VIEW("q")
    "%ta = pto.alloc_tile : " TF "\n%tb = pto.alloc_tile : " TF "\n%tc = pto.alloc_tile : " TF "\n%tt = pto.alloc_tile : " TF "\n"
    "pto.tload ins(%pa : " PV ") outs(%ta : " TF ")\n"
    "pto.tload ins(%pb : " PV ") outs(%tb : " TF ")\n"
    "pto.texp ins(%ta : " TF ") outs(%tc : " TF ") {precisionType = #pto<exp_precision high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%po : " PV ")\n"
    "pto.tlog ins(%tb : " TF ") outs(%tc : " TF ") {precisionType = #pto<log_precision high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%pl : " PV ")\n"
    "pto.texp ins(%ta : " TF ") outs(%tc : " TF ") {precisionType = #pto<exp_precision default>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%pe : " PV ")\n"
    "pto.trsqrt ins(%tb, %tt : " TF ", " TF ") outs(%tc : " TF ") {precisionType = #pto<rsqrt_precision high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%pr : " PV ")\n"
    "pto.tsqrt ins(%tb : " TF ") outs(%tc : " TF ") {precisionType = #pto<sqrt_precision high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%ps : " PV ")\n"
    "pto.trecip ins(%tb : " TF ") outs(%tc : " TF ") {precisionType = #pto<recip_precision high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%pq : " PV ")\n"
    "return\n}\n}\n";

static void test_text(void) {
  enum { N = 16 * 32 };
  float a[N], b[N], o[N], l[N], ex[N], r[N], sq[N], q[N];
  for (int i = 0; i < N; i++) a[i] = (float)src_value(PTOSIM_DT_F32, 0, i), b[i] = (float)src_value(PTOSIM_DT_F32, 1, i);
  for (int ti = 0; ti < 2; ti++) {
    int hp = targets[ti] == PTOSIM_TARGET_A5, changed = 0, changedq = 0;
    void *bufs[8] = {a, b, o, l, ex, r, sq, q};
    size_t sizes[8] = {sizeof a, sizeof b, sizeof o, sizeof l, sizeof ex, sizeof r, sizeof sq, sizeof q};
    run_text(k_text, targets[ti], bufs, sizes, 8);
    for (int i = 0; i < N; i++) {
      float w[6] = {(float)exp_ref(PTOSIM_DT_F32, a[i], hp), (float)log_ref(PTOSIM_DT_F32, b[i], hp),
                    (float)exp_ref(PTOSIM_DT_F32, a[i], 0), (float)rsqrt_ref(PTOSIM_DT_F32, b[i], 1),
                    (float)sqrt_ref(PTOSIM_DT_F32, b[i], 1), (float)recip_ref(PTOSIM_DT_F32, b[i], hp)};
      const float g[6] = {o[i], l[i], ex[i], r[i], sq[i], q[i]};
      for (int k = 0; k < 6; k++)
        CHECK_MSG(!memcmp(&g[k], &w[k], 4) || (isnan(g[k]) && isnan(w[k])), "%s out %d [%d] = %a, want %a",
                  hp ? "a5" : "a2a3", k, i, g[k], w[k]);
      float q0 = (float)recip_ref(PTOSIM_DT_F32, b[i], 0);
      changed += memcmp(&o[i], &ex[i], 4) != 0;
      changedq += memcmp(&q[i], &q0, 4) != 0 && !isnan(q0);
    }
    CHECK_MSG(hp ? changed > 0 && changedq > 0 : changed == 0 && changedq == 0,
              "%s: high_precision texp / trecip differ from default in %d / %d lanes", hp ? "a5" : "a2a3", changed, changedq);
  }
}

int main(void) {
  RUN(test_ops);
  RUN(test_text);
  return pt_test_finish();
}
