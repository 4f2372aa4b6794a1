/* precisionType of the division family (docs/spec-notes.md section 33): tdiv, tdivs (tile / scalar
 * and scalar / tile), tfmod, trem, trowexpanddiv, tcolexpanddiv, DEFAULT and HIGH_PRECISION, on
 * both targets, f32 and f16. What a5 HIGH_PRECISION computes, as this test states it:
 * - DivIEEE754*Impl (tdivs, f16 tdiv, the expand forms): each operand read by its exponent
 *   field and mantissa (a subnormal that the sequence does not scale first reads as 1.f times
 *   2^-bias), the quotient of the two significands rounded to the type's precision, then the
 *   value rounded again to the type; the scale thresholds of the code give 0 / the smallest
 *   subnormal / infinity;
 * - DivDiffCompensationFloatImpl (f32 tdiv): a / b rounded to nearest, ties toward zero;
 * - TFmodRemHP (f32 tfmod / trem): the exact remainder (trem then + b where the signs differ);
 *   f16 tfmod / trem compute as DEFAULT;
 * a2a3 takes the attribute and computes as DEFAULT. The references below are those statements
 * in integer and long double arithmetic. Each case runs on a valid region smaller than its
 * tiles and compares the whole UB with the expected image. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tile_ub_env.h"

static unsigned long long seed = 0xD1F0A5E3C2B74E19ull;
static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};
static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16};

/* ---- references --------------------------------------------------------------------------- */

/* The binary format of t: mantissa bits p, bias, largest exponent field, and the scale at
 * which DivIEEE754*Impl returns 0 or the smallest subnormal (Div754.hpp:300, 507). */
typedef struct fmt {
  int p, bias, emax, under;
} fmt;
static fmt fmt_of(ptosim_dtype t) { return t == PTOSIM_DT_F32 ? (fmt){23, 127, 255, -23} : (fmt){10, 15, 31, -9}; }

/* Operand x != 0, finite, as DivIEEE754*Impl reads it: |x| = sig 2^(e - p) with 2^p <= sig <
 * 2^(p + 1), and the exponent field the scale is taken from. A subnormal is scaled by 2^p
 * first (exactly: its value is kept, its field is that of x 2^p) when it is a divisor below
 * the largest subnormal, an f16 dividend below it, or the f32 largest subnormal dividend;
 * otherwise its field is 0 and it reads as (2^p + its mantissa bits) 2^(-bias - p). */
static void read_op(ptosim_dtype t, double x, int dividend, int64_t *sig, int *e, int *field) {
  fmt f = fmt_of(t);
  double ax = fabs(x), unit = ldexp(1.0, 1 - f.bias - f.p); /* the smallest subnormal */
  int64_t bits = (int64_t)(ax / unit);                      /* the mantissa bits of a subnormal */
  int sub = ax < ldexp(1.0, 1 - f.bias), maxsub = bits == (1 << f.p) - 1;
  int scaled = t == PTOSIM_DT_F32 && dividend ? maxsub : !maxsub;
  if (sub && !scaled) {
    *sig = ((int64_t)1 << f.p) + bits, *e = -f.bias, *field = 0;
    return;
  }
  int ex;
  double fr = frexp(ax, &ex); /* ax = fr 2^ex, fr in [0.5, 1) */
  *sig = (int64_t)ldexp(fr, f.p + 1), *e = ex - 1, *field = *e + f.bias + (sub ? f.p : 0);
}

/* DivIEEE754*Impl of a by b in type t. */
static double div754_ref(ptosim_dtype t, double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == 0 || b == 0 || isinf(a) || isinf(b)) return as(t, a / b);
  fmt f = fmt_of(t);
  int64_t sa, sb;
  int ea, eb, fa, fb;
  read_op(t, a, 1, &sa, &ea, &fa);
  read_op(t, b, 0, &sb, &eb, &fb);
  int scale = fa - fb + f.bias;
  double sgn = (a < 0) != (b < 0) ? -1.0 : 1.0;
  if (scale < f.under) return sgn * 0.0;
  if (scale == f.under) return sgn * (sa <= sb ? 0.0 : ldexp(1.0, 1 - f.bias - f.p));
  if (scale > f.emax) return sgn * INFINITY;
  /* sa / sb (in (1/2, 2)) as q 2^-40, q of 40 or 41 bits; kept to p + 1 bits, nearest even */
  uint64_t num = (uint64_t)sa << 40, q = num / (uint64_t)sb, rem = num % (uint64_t)sb;
  int drop = (q >> 40 ? 41 : 40) - (f.p + 1);
  uint64_t keep = q >> drop, low = q & ((1ull << drop) - 1), half = 1ull << (drop - 1);
  if (low > half || (low == half && (rem || (keep & 1)))) keep++;
  return as(t, sgn * ldexp((double)keep, drop - 40 + ea - eb));
}

/* f32 tdiv HIGH_PRECISION: a / b to nearest, a tie going to the neighbour nearer zero (exact
 * test: the midpoint m has 25 bits, m b fits a long double). Zero, infinite, NaN quotients as
 * they are. */
static double divtz_ref(double a, double b) {
  float z = (float)(a / b);
  if (z == 0.0f || isinf(z) || isnan(z)) return z;
  float w = nextafterf(z, 0.0f);
  long double m = ((long double)z + w) / 2;
  return m * (long double)b == (long double)a ? w : z;
}

/* The remainder with a's sign, exact (tfmod); trem adds b (one rounding) where b r, an f32
 * product (vmul: a tiny one underflows to zero and nothing is added), is negative. */
static double fmod_exact(double a, double b) { return (double)fmodl(a, b); }
static double rem_exact(double a, double b) {
  double r = fmod_exact(a, b);
  return as(PTOSIM_DT_F32, b * r) < 0 ? as(PTOSIM_DT_F32, r + b) : r;
}

/* DEFAULT on both targets: one correctly rounded division; tfmod / trem each step of the
 * sequence rounded in f32; f16 (A5 only) then converted toward zero with saturation (NaN -> 0)
 * and trem's sign fix made on f16 values (a5 TFMod.hpp / TRem.hpp). */
static double fmod_default(ptosim_dtype t, double a, double b) {
  float x = (float)a, y = (float)b, q = truncf(x / y), m = q * y;
  return t == PTOSIM_DT_F16 ? pt_f16_rz_sat_ref(x - m) : as(t, x - m);
}
static double rem_default(ptosim_dtype t, double a, double b) {
  float x = (float)a, y = (float)b, q = floorf(x / y), m = q * y, r = x - m;
  if (t != PTOSIM_DT_F16) return as(t, y * r < 0.0f ? r + y : r);
  double r16 = pt_f16_rz_sat_ref(r);
  return as(t, as(t, b * r16) < 0 ? r16 + b : r16);
}

typedef enum { K_DIV, K_DIVS, K_RDIVS, K_FMOD, K_REM, K_ROWDIV, K_COLDIV, K_COUNT } kind;
static const char *const kind_name[K_COUNT] = {"tdiv", "tdivs", "tdivs (scalar first)", "tfmod", "trem", "trowexpanddiv",
                                               "tcolexpanddiv"};

/* What op k gives for a / b (or fmod, rem) on t with HIGH_PRECISION used (a5 and the attribute). */
static double ref(kind k, ptosim_dtype t, double a, double b, int hp) {
  int f32 = t == PTOSIM_DT_F32;
  if (k == K_FMOD) return hp && f32 ? fmod_exact(a, b) : fmod_default(t, a, b);
  if (k == K_REM) return hp && f32 ? rem_exact(a, b) : rem_default(t, a, b);
  if (k == K_DIV && hp && f32) return divtz_ref(a, b);
  return hp ? div754_ref(t, a, b) : as(t, a / b); /* f16 tdiv HIGH_PRECISION is DivIEEE754HalfImpl */
}

/* ---- source values ------------------------------------------------------------------------- */

/* A value of t of class c: 0 ordinary (2^-20 to 2^20), 1 subnormal, 2 the largest subnormal,
 * 3 small normal (the 11 lowest binades), 4 large (the 11 highest), 5 special (+-0, +-inf,
 * NaN); random sign and mantissa. */
static double val(ptosim_dtype t, int c) {
  static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN};
  fmt f = fmt_of(t);
  uint64_t r = pt_rand_u64(&seed);
  double sgn = r >> 63 ? -1.0 : 1.0, m = 1.0 + (double)(r >> 20 & ((1u << f.p) - 1)) * ldexp(1.0, -f.p);
  int lo = 1 - f.bias, hi = f.emax - 1 - f.bias, k = (int)(r >> 8 & 0xFF) % 11;
  switch (c) {
    case 0: return as(t, sgn * ldexp(m, (int)(r % 41) - 20));
    case 1: return sgn * ldexp((double)(1 + (r >> 40) % ((1u << f.p) - 1)), lo - f.p);
    case 2: return sgn * ldexp((double)((1u << f.p) - 1), lo - f.p);
    case 3: return sgn * ldexp(m, lo + k);
    case 4: return sgn * ldexp(m, hi - k);
    default: return sp[r % 5];
  }
}

/* A source pair for kind k: class pairs that reach the HIGH_PRECISION paths (subnormal and
 * largest-subnormal operands, subnormal and overflowing quotients), plus for f32 tdiv exact
 * subnormal midpoints (2k + 1) 2^(j - 150) / 2^j and the 2^-126 boundary (2^24 - 1) 2^(j - 150)
 * / 2^j, and for tfmod / trem quotients up to 2^100. */
static void pair(kind k, ptosim_dtype t, double *a, double *b) {
  static const int cls[][2] = {{0, 0}, {1, 0}, {2, 0}, {2, 4}, {3, 4}, {0, 4}, {0, 1}, {0, 2}, {4, 3}, {5, 0}, {0, 5}, {1, 1}, {3, 0}};
  uint64_t r = pt_rand_u64(&seed);
  int i = (int)(r % 16);
  if (k == K_DIV && t == PTOSIM_DT_F32 && i >= 13) {
    int j = 1 + (int)((r >> 8) % 60);
    double odd = i == 15 ? 16777215.0 : (double)(2 * ((r >> 20) % (1u << 22)) + 1);
    *b = (r >> 62 & 1 ? -1 : 1) * ldexp(1.0, j), *a = (r >> 61 & 1 ? -1 : 1) * ldexp(odd, j - 150);
    return;
  }
  if ((k == K_FMOD || k == K_REM) && i >= 13) {
    *b = val(t, 0), *a = as(t, *b * ldexp(1.0 + (double)(r >> 40) * 0x1p-24, (int)((r >> 8) % (t == PTOSIM_DT_F32 ? 100 : 12))));
    return;
  }
  if (i >= 13) i = (int)((r >> 32) % 13);
  *a = val(t, cls[i][0]), *b = val(t, cls[i][1]);
}

/* ---- cases --------------------------------------------------------------------------------- */

static ptosim_status run(env *e, kind k, const ptosim_telem_params *pe, const ptosim_texpand_params *px) {
  static const ptosim_opcode ops[K_COUNT] = {PTOSIM_OP_tdiv, PTOSIM_OP_tdivs, PTOSIM_OP_tdivs, PTOSIM_OP_tfmod, PTOSIM_OP_trem,
                                             PTOSIM_OP_trowexpanddiv, PTOSIM_OP_tcolexpanddiv};
  return ptosim_exec(e->c, ops[k], k >= K_ROWDIV ? (const void *)px : (const void *)pe, NULL);
}

/* Op k on t, target tg, high_precision hp: src0 R x C, the other source as the op takes it
 * (a tile of the same shape, a scalar, a per-row block of 32 bytes, a per-column row), valid
 * region (R - 1) x (C - 3). Returns how many lanes the expected result differs from DEFAULT. */
static int divhp_case(kind k, ptosim_target tg, ptosim_dtype t, int hp) {
  enum { R = 6, C = 48 };
  env e = env_new_seeded(tg, &seed);
  int64_t es = es_of(t), vr = R - 1, vc = C - 3, blk = 32 / es;
  int used = hp && tg == PTOSIM_TARGET_A5, changed = 0;
  ptosim_tile a = ub_tile(t, 0x100, R, C, vr, vc, PTOSIM_BL_ROW_MAJOR), d = ub_tile(t, 0x2000, R, C, vr, vc, PTOSIM_BL_ROW_MAJOR);
  ptosim_tile b = ub_tile(t, 0x4000, R, C, vr, vc, PTOSIM_BL_ROW_MAJOR), tmp = ub_tile(t, 0x6000, R, C, vr, vc, PTOSIM_BL_ROW_MAJOR);
  if (k == K_ROWDIV) b = ub_tile(t, 0x4000, R, (int)blk, vr, (int)blk, PTOSIM_BL_ROW_MAJOR);
  if (k == K_COLDIV) b = ub_tile(t, 0x4000, 2, C, 1, vc, PTOSIM_BL_ROW_MAJOR);
  double s = 0; /* the scalar of tdivs: a value of each class in turn */
  if (k == K_DIVS || k == K_RDIVS) s = val(t, (int)(pt_rand_u64(&seed) % 5));
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      double x, y;
      pair(k, t, &x, &y);
      put(t, at(&e, &a, r, c), k == K_RDIVS ? y : x);
      if (r < b.rows && c < b.cols) put(t, at(&e, &b, r, c), y);
    }
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      double x = get(t, at(&e, &a, r, c)), y;
      if (k == K_DIVS) y = s;
      else if (k == K_RDIVS) y = x, x = s;
      else y = get(t, at(&e, &b, k == K_COLDIV ? 0 : r, k == K_ROWDIV ? c % blk : c));
      double w = ref(k, t, x, y, used), w0 = ref(k, t, x, y, 0);
      changed += memcmp(&w, &w0, sizeof w) != 0 && !(isnan(w) && isnan(w0));
      put(t, at(&e, &d, r, c), w);
    }
  float sf = (float)s;
  uint32_t sbits;
  memcpy(&sbits, &sf, 4);
  ptosim_telem_params pe = {.src0 = a, .src1 = b, .dst = d, .high_precision = hp != 0, .scalar = {PTOSIM_DT_F32, sbits},
                            .scalar_first = k == K_RDIVS, .tmp = tmp, .has_tmp = k == K_REM};
  ptosim_texpand_params px = {.src0 = a, .src1 = b, .dst = d, .high_precision = hp != 0, .tmp = tmp, .has_tmp = k == K_ROWDIV};
  char what[96];
  snprintf(what, sizeof what, "%s %s %s hp %d", kind_name[k], tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3", pt_dtype_name(t), hp);
  finish(&e, run(&e, k, &pe, &px), what);
  return changed;
}

static void test_ops(void) {
  for (int k = 0; k < K_COUNT; k++)
    for (int ti = 0; ti < 2; ti++)
      for (int di = 0; di < 2; di++) {
        int total = 0;
        if ((k == K_FMOD || k == K_REM) && ti == 0 && types[di] == PTOSIM_DT_F16) continue; /* f32 only on a2a3 */
        for (int rep = 0; rep < 8; rep++)
          for (int hp = 0; hp < 2; hp++) total += divhp_case((kind)k, targets[ti], types[di], hp);
        /* a5 HIGH_PRECISION must differ from DEFAULT somewhere, except f16 tfmod / trem */
        int expect = ti == 1 && !((k == K_FMOD || k == K_REM) && types[di] == PTOSIM_DT_F16);
        CHECK_MSG(expect ? total > 0 : total == 0, "%s %s %s: %d lanes differ from DEFAULT", kind_name[k],
                  ti ? "a5" : "a2a3", pt_dtype_name(types[di]), total);
      }
}

/* A few values worked by hand from the sequences (f32; F rounds to f32): a subnormal dividend
 * other than the largest reads as 1.f 2^-127; 1 / (1.5 2^126) is 2/3 rounded, then scaled
 * into the subnormals and rounded again; a subnormal midpoint quotient of tdiv goes toward
 * zero; tfmod of 2^100 by 3 is exact. */
#define F(x) ((double)(float)(x))
static void test_values(void) {
  CHECK(div754_ref(PTOSIM_DT_F32, ldexp(1, -149), 1.0) == F(ldexp(1.0 + 0x1p-23, -127)));
  CHECK(div754_ref(PTOSIM_DT_F32, ldexp(3, -149), 2.0) == F(ldexp(1.0 + 0x3p-23, -128)));
  CHECK(div754_ref(PTOSIM_DT_F32, ldexp(0x7FFFFF, -149), 3.0) == F(ldexp(0x7FFFFF, -149) / 3.0));
  CHECK(div754_ref(PTOSIM_DT_F32, 1.0, ldexp(1.5, 126)) == F(F(1 / 1.5) * 0x1p-126));
  CHECK(div754_ref(PTOSIM_DT_F32, 1.0, ldexp(1.5, 126)) != F(1 / ldexp(1.5, 126)));
  CHECK(divtz_ref(ldexp(3, -149), 2.0) == ldexp(1, -149) && F(ldexp(3, -149) / 2.0) == ldexp(1, -148));
  CHECK(divtz_ref(ldexp(0xFFFFFF, -150), 1.0) == ldexp(0x7FFFFF, -149));
  CHECK(fmod_exact(ldexp(1, 100), 3.0) == 1.0 && fmod_default(PTOSIM_DT_F32, ldexp(1, 100), 3.0) != 1.0);
}

/* ---- text: the attribute in both spellings ------------------------------------------------- */

#define TF "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define TR "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=8, v_row=16, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define PV "!pto.partition_tensor_view<16x32xf32>"
#define PR "!pto.partition_tensor_view<16x8xf32>"
#define VIEW(n, cols, P)                                                                                               \
  "%v" n " = pto.make_tensor_view %" n ", shape = [%c16, %c" cols "], strides = [%c" cols ", %c1] : !pto.tensor_view<?x?xf32>\n" \
  "%p" n " = pto.partition_view %v" n ", offsets = [%c0, %c0], sizes = [%c16, %c" cols "] : !pto.tensor_view<?x?xf32> -> " P "\n"

/* o = tdiv(a, b) high_precision (#pto form), f = tfmod(a, b) high_precision (dotted form),
 * s = tdivs(a, 3.0) with an explicit default, w = trowexpanddiv(a, r) high_precision (dotted,
 * with its tmp), m = trem(a, b, tmp) high_precision. */
static const char *const k_text =
    "module {\n"
    "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %r: !pto.ptr<f32>, %o: !pto.ptr<f32>, %f: !pto.ptr<f32>, %s: !pto.ptr<f32>, %w: !pto.ptr<f32>, %m: !pto.ptr<f32>) {\n"
    "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n%c8 = arith.constant 8 : index\n"
    "%c16 = arith.constant 16 : index\n%c32 = arith.constant 32 : index\n%k = arith.constant 3.0 : f32\n"
    VIEW("a", "32", PV) VIEW("b", "32", PV) VIEW("r", "8", PR) VIEW("o", "32", PV) VIEW("f", "32", PV) VIEW("s", "32", PV)
    VIEW("w", "32", PV) VIEW("m", "32", PV)
    "%ta = pto.alloc_tile : " TF "\n%tb = pto.alloc_tile : " TF "\n%tc = pto.alloc_tile : " TF "\n%tt = pto.alloc_tile : " TF "\n"
    "%tr = pto.alloc_tile : " TR "\n"
    "pto.tload ins(%pa : " PV ") outs(%ta : " TF ")\n"
    "pto.tload ins(%pb : " PV ") outs(%tb : " TF ")\n"
    "pto.tload ins(%pr : " PR ") outs(%tr : " TR ")\n"
    "pto.tdiv ins(%ta, %tb : " TF ", " TF ") outs(%tc : " TF ") {precisionType = #pto<div_precision high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%po : " PV ")\n"
    "pto.tfmod ins(%ta, %tb : " TF ", " TF ") outs(%tc : " TF ") {precisionType = #pto.fmod_precision<high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%pf : " PV ")\n"
    "pto.tdivs ins(%ta, %k : " TF ", f32) outs(%tc : " TF ") {precisionType = #pto<div_precision default>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%ps : " PV ")\n"
    "pto.trowexpanddiv ins(%ta, %tr, %tt : " TF ", " TR ", " TF ") outs(%tc : " TF ") {precisionType = #pto.div_precision<high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%pw : " PV ")\n"
    "pto.trem ins(%ta, %tb, %tt : " TF ", " TF ", " TF ") outs(%tc : " TF ") {precisionType = #pto<rem_precision high_precision>}\n"
    "pto.tstore ins(%tc : " TF ") outs(%pm : " PV ")\n"
    "return\n}\n}\n";

static void test_text(void) {
  enum { N = 16 * 32, NR = 16 * 8 };
  float a[N], b[N], rr[NR], o[N], f[N], s[N], w[N], m[N];
  for (int i = 0; i < N; i++) {
    double x, y;
    pair(i % 2 ? K_DIV : K_FMOD, PTOSIM_DT_F32, &x, &y);
    a[i] = (float)x, b[i] = (float)y;
  }
  for (int i = 0; i < NR; i++) rr[i] = (float)val(PTOSIM_DT_F32, i % 5);
  for (int ti = 0; ti < 2; ti++) {
    int hp = targets[ti] == PTOSIM_TARGET_A5, changed[4] = {0, 0, 0, 0};
    void *bufs[8] = {a, b, rr, o, f, s, w, m};
    size_t sizes[8] = {sizeof a, sizeof b, sizeof rr, sizeof o, sizeof f, sizeof s, sizeof w, sizeof m};
    run_text(k_text, targets[ti], bufs, sizes, 8);
    for (int i = 0; i < N; i++) {
      double bx = rr[(i / 32) * 8 + i % 8];
      float want[5] = {(float)ref(K_DIV, PTOSIM_DT_F32, a[i], b[i], hp), (float)ref(K_FMOD, PTOSIM_DT_F32, a[i], b[i], hp),
                       (float)ref(K_DIVS, PTOSIM_DT_F32, a[i], 3.0, 0), (float)ref(K_ROWDIV, PTOSIM_DT_F32, a[i], bx, hp),
                       (float)ref(K_REM, PTOSIM_DT_F32, a[i], b[i], hp)};
      const float got[5] = {o[i], f[i], s[i], w[i], m[i]};
      for (int k = 0; k < 5; k++)
        CHECK_MSG(!memcmp(&got[k], &want[k], 4) || (isnan(got[k]) && isnan(want[k])), "%s out %d [%d] = %a, want %a",
                  hp ? "a5" : "a2a3", k, i, got[k], want[k]);
      float def[4] = {(float)ref(K_DIV, PTOSIM_DT_F32, a[i], b[i], 0), (float)ref(K_FMOD, PTOSIM_DT_F32, a[i], b[i], 0),
                      (float)ref(K_ROWDIV, PTOSIM_DT_F32, a[i], bx, 0), (float)ref(K_REM, PTOSIM_DT_F32, a[i], b[i], 0)};
      const float hpv[4] = {o[i], f[i], w[i], m[i]};
      for (int k = 0; k < 4; k++) changed[k] += memcmp(&hpv[k], &def[k], 4) != 0 && !(isnan(hpv[k]) && isnan(def[k]));
    }
    for (int k = 0; k < 4; k++)
      CHECK_MSG(hp ? changed[k] > 0 : changed[k] == 0, "%s: high_precision output %d differs from default in %d lanes",
                hp ? "a5" : "a2a3", k, changed[k]);
  }
}

int main(void) {
  RUN(test_values);
  RUN(test_ops);
  RUN(test_text);
  return pt_test_finish();
}
