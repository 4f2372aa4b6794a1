/* Integer tdiv / tdivs / tfmod / tfmods / trem / trems (src/isa/tile_elem.c, docs/spec-notes.md
 * section 14.8) against references written here from the NPU sequences:
 * - A5 vdiv, the scalar unit's C `/`, tfmod's vdiv-vmul-vsub and vmod: magnitudes divided in
 *   uint64 and the sign put back (truncation spelled out), the floor remainder as
 *   x - floor(x / y) y with floor from the truncated quotient, all wrapped to the width last;
 * - A2/A3 trem / trems i32: the f32 round trip with f32 rounding done on doubles by
 *   frexp / nearbyint (not the host's int -> float conversion), saturation spelled out,
 *   and the source tiles' converted contents.
 * - A5 64-bit (Int64Div.hpp): magnitudes divided with C's uint64 `/` (not the NPU's
 *   reciprocal steps), x / 0 = x % 0 = 0, the remainder x - q y with q truncated; the one
 *   divisor where the steps differ from that, INT64_MIN, against constants worked out
 *   separately from the instruction sequence.
 * Each case fills the whole UB with random bytes, runs on tiles whose valid region is smaller
 * than the tile and compares the whole UB (untouched bytes, source side effects). Then the
 * accepted types per target and form, zero divisors and MIN / -1 (rules <op>.zero,
 * <op>.overflow, nothing written), aliasing on A2/A3 and HIGH_PRECISION on integers. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x2545F4914F6CDD1Dull;

enum { K_DIV, K_DIVS, K_RDIVS, K_FMOD, K_FMODS, K_REM, K_REMS, K_COUNT };
static const struct {
  ptosim_opcode op;
  const char *name;
  int scalar, first, tmp;
} kops[K_COUNT] = {
    {PTOSIM_OP_tdiv, "tdiv", 0, 0, 0},   {PTOSIM_OP_tdivs, "tdivs", 1, 0, 0}, {PTOSIM_OP_tdivs, "tdivs", 1, 1, 0},
    {PTOSIM_OP_tfmod, "tfmod", 0, 0, 0}, {PTOSIM_OP_tfmods, "tfmods", 1, 0, 0}, {PTOSIM_OP_trem, "trem", 0, 0, 1},
    {PTOSIM_OP_trems, "trems", 1, 0, 1},
};
static const ptosim_dtype ints[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16,
                                    PTOSIM_DT_I32, PTOSIM_DT_U32, PTOSIM_DT_I64, PTOSIM_DT_U64};

#define BT(t) (1u << PTOSIM_DT_##t)
#define V16_32 (BT(I16) | BT(U16) | BT(I32) | BT(U32))
#define V64 (BT(I64) | BT(U64))
/* Integer types each form takes, [A2/A3, A5]: the NPU static_asserts (A5 TDIVS_IMPL with the
 * scalar first has none; A5's 64-bit paths are Int64Div.hpp's). */
static unsigned accepted(int k, int a5) {
  static const unsigned t[K_COUNT][2] = {
      [K_DIV] = {0, V16_32 | V64},          [K_DIVS] = {BT(I16) | BT(I32), V16_32 | V64},
      [K_RDIVS] = {BT(I16) | BT(I32), V16_32 | BT(I8) | BT(U8) | V64},
      [K_FMOD] = {0, V16_32},               [K_FMODS] = {0, V16_32},
      [K_REM] = {BT(I32), V16_32 | V64},    [K_REMS] = {BT(I32), V16_32 | V64},
  };
  return t[k][a5];
}

/* ---- references ------------------------------------------------------------------------- */

static unsigned width(ptosim_dtype t) { return 8 * pt_dtype_size(t); }
static int sgn(ptosim_dtype t) { return pt_dtype_is_signed_int(t); }
static uint64_t wrap(int64_t v, ptosim_dtype t) {
  unsigned w = width(t);
  return w == 64 ? (uint64_t)v : (uint64_t)v & ((1ull << w) - 1);
}
static int64_t val(uint64_t bits, ptosim_dtype t) { return pt_load_int(t, &bits); }
static int64_t tmin(ptosim_dtype t) { return sgn(t) ? (int64_t)(UINT64_MAX << (width(t) - 1)) : 0; }

/* Truncated quotient of x by y (values of t, u64 ones too: magnitudes divided in uint64, the
 * sign put back); y = 0 gives 0, the 64-bit paths' value (no other width divides by 0 here). */
static int neg(int64_t v, ptosim_dtype t) { return sgn(t) && v < 0; }
static uint64_t mag(int64_t v, ptosim_dtype t) { return neg(v, t) ? 0 - (uint64_t)v : (uint64_t)v; }
static int64_t tquot(int64_t x, int64_t y, ptosim_dtype t) {
  if (y == 0) return 0;
  uint64_t m = mag(x, t) / mag(y, t);
  return (int64_t)(neg(x, t) != neg(y, t) ? 0 - m : m);
}
/* x - q y, wrapping; y = 0 gives 0 (the 64-bit paths' zeroMask again). */
static int64_t trunc_rem(int64_t x, int64_t y, ptosim_dtype t) {
  return y == 0 ? 0 : (int64_t)((uint64_t)x - (uint64_t)tquot(x, y, t) * (uint64_t)y);
}
static int64_t floor_rem(int64_t x, int64_t y, ptosim_dtype t) {
  int64_t q = tquot(x, y, t);
  if (q * y != x && (x < 0) != (y < 0)) q -= 1; /* floor(x / y) */
  return x - q * y;
}

/* v rounded to f32 (24 bits, nearest even), exact in a double. */
static double f32r(double v) {
  if (v == 0 || !isfinite(v)) return v;
  int e;
  frexp(v, &e);
  double r = ldexp(nearbyint(ldexp(v, 24 - e)), e - 24);
  return fabs(r) > 0x1.FFFFFEp127 ? copysign(INFINITY, v) : r;
}
/* f32 value v to s32 by rounding fn, saturating, NaN -> 0 (A2/A3 vconv_f322s32*). */
static int64_t to_s32(double v, double (*fn)(double)) {
  if (isnan(v)) return 0;
  v = fn(v);
  return v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? INT32_MIN : (int64_t)v;
}
static int64_t w32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* A2/A3 trem (y a tile) / trems (y the scalar) on i32: the result, and the sources' contents
 * after (*x2 for src0 / src, *y2 for trem's src1: f32 bits). */
static int64_t rem_a2(int64_t x, int64_t y, int scalar, uint64_t *x2, uint64_t *y2) {
  double fx = f32r((double)x), fy = f32r((double)y);
  int64_t q = to_s32(f32r(fx / fy), floor);
  int64_t xr = to_s32(fx, nearbyint), yr = scalar ? y : to_s32(fy, nearbyint);
  int64_t r = w32(xr - w32(q * yr));
  double rf = f32r((double)r), yf = scalar ? fy : f32r((double)yr);
  if (rf * yf < 0) rf = f32r(rf + yf);
  *x2 = wrap(xr, PTOSIM_DT_I32);
  float g = (float)yf; /* exact: yf is an f32 value */
  uint32_t gb;
  memcpy(&gb, &g, 4);
  *y2 = gb;
  return to_s32(rf, trunc);
}

/* Result of form k on x, y of type t (y the scalar of the scalar forms; for K_RDIVS x is the
 * scalar). A5's 64-bit trem / trems are x - q y with q truncated (Int64RemRegs), the 16- / 32-bit
 * ones vmod's floor remainder. */
static int64_t ref(int k, int64_t x, int64_t y, ptosim_dtype t) {
  switch (k) {
    case K_DIV: case K_DIVS: return tquot(x, y, t);
    case K_RDIVS: return tquot(y, x, t);
    case K_FMOD: case K_FMODS: return trunc_rem(x, y, t);
    default: return width(t) == 64 ? trunc_rem(x, y, t) : floor_rem(x, y, t);
  }
}

/* ---- cases ------------------------------------------------------------------------------ */

static ptosim_tile nd(ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc) {
  ptosim_tile x = {.space = PTOSIM_UB, .addr = addr, .dtype = t, .rows = rows, .cols = cols, .valid_rows = vr,
                   .valid_cols = vc, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  return x;
}
static void put(uint8_t *img, const ptosim_tile *t, int r, int c, uint64_t bits) {
  memcpy(img + t->addr + ((uint64_t)r * (uint64_t)t->cols + (uint64_t)c) * pt_dtype_size(t->dtype), &bits,
         pt_dtype_size(t->dtype));
}
static uint64_t get(const uint8_t *img, const ptosim_tile *t, int r, int c) {
  uint64_t b = 0;
  memcpy(&b, img + t->addr + ((uint64_t)r * (uint64_t)t->cols + (uint64_t)c) * pt_dtype_size(t->dtype),
         pt_dtype_size(t->dtype));
  return b;
}

/* A random value of t: a mix of small values, extremes and random bits. */
static int64_t rnd(ptosim_dtype t) {
  uint64_t r = pt_rand_u64(&seed);
  int64_t lo = tmin(t), hi = val(wrap((int64_t)((uint64_t)lo - 1), t), t); /* the maximum: one below the minimum, wrapped */
  switch (r % 8) {
    case 0: return lo;
    case 1: return hi;
    case 2: return sgn(t) ? -1 : 1;
    case 3: case 4: return val(wrap((int64_t)(r >> 8) % 41 - 20, t), t);
    default: return val(wrap((int64_t)(r >> 3), t), t);
  }
}
/* A divisor of x for form k: nonzero, and not -1 with x = MIN where that is undefined. 64-bit:
 * zeros and -1 too (defined), but not INT64_MIN (test_int64_min_divisor). */
static int64_t divisor(ptosim_dtype t, int64_t x, int undef_ovf) {
  for (;;) {
    int64_t y = rnd(t);
    if (width(t) == 64 && !(sgn(t) && y == tmin(t))) return y;
    if (width(t) < 64 && y != 0 && !(undef_ovf && sgn(t) && x == tmin(t) && y == -1)) return y;
  }
}

typedef struct ucase {
  ptosim_machine *m;
  ptosim_core *c;
  size_t cap;
  uint8_t *img, *want;
  ptosim_tile a, b, d, tmp;
  ptosim_telem_params p;
} ucase;

static void uc_new(ucase *u, ptosim_target tg, int k, ptosim_dtype t, int rows, int cols, int vr, int vc) {
  u->m = ptosim_machine_new(tg, 1);
  u->c = ptosim_core_of(u->m, 0, PTOSIM_AIV0);
  u->cap = (size_t)ptosim_space_capacity(u->m, PTOSIM_UB);
  u->img = malloc(u->cap), u->want = malloc(u->cap);
  for (size_t i = 0; i < u->cap; i++) u->img[i] = (uint8_t)pt_rand_u64(&seed);
  uint64_t stride = ((uint64_t)rows * (uint64_t)cols * pt_dtype_size(t) + 255) / 256 * 256;
  u->a = nd(t, 0, rows, cols, vr, vc), u->b = nd(t, stride, rows, cols, vr, vc), u->d = nd(t, 2 * stride, rows, cols, vr, vc);
  u->tmp = nd(t, 3 * stride, rows, cols, rows, cols);
  memset(&u->p, 0, sizeof u->p);
  u->p.dst = u->d, u->p.src0 = u->a, u->p.src1 = u->b, u->p.tmp = u->tmp, u->p.has_tmp = kops[k].tmp;
  u->p.scalar_first = kops[k].first;
  u->p.scalar.dtype = t;
}
static ptosim_status uc_run(ucase *u, int k) {
  CHECK(ptosim_mem_write(u->c, PTOSIM_UB, 0, u->img, u->cap) == PTOSIM_OK);
  return ptosim_exec(u->c, kops[k].op, &u->p, NULL);
}
static void uc_free(ucase *u) {
  free(u->img), free(u->want);
  ptosim_machine_free(u->m);
}
/* The whole UB equals want (first differing byte reported). */
static void uc_compare(ucase *u, const char *what) {
  uint8_t *got = malloc(u->cap);
  CHECK(ptosim_mem_read(u->c, PTOSIM_UB, 0, got, u->cap) == PTOSIM_OK);
  size_t bad = u->cap;
  for (size_t i = 0; i < u->cap && bad == u->cap; i++)
    if (got[i] != u->want[i]) bad = i;
  CHECK_MSG(bad == u->cap, "%s: byte 0x%zx got %02x want %02x", what, bad, bad < u->cap ? got[bad] : 0,
            bad < u->cap ? u->want[bad] : 0);
  free(got);
}
static const char *diag_rule(const ucase *u) { return ptosim_last_diag(u->m)->rule; }

/* Form k on type t, target tg, tile rows x cols with valid vr x vc, random defined operands;
 * returns whether the op accepted t (a refusal must be <op>.dtype with nothing written). */
static int div_case(int k, ptosim_target tg, ptosim_dtype t, int rows, int cols, int vr, int vc, int hp) {
  ucase u;
  uc_new(&u, tg, k, t, rows, cols, vr, vc);
  u.p.high_precision = hp;
  int a5 = tg == PTOSIM_TARGET_A5, a2rem = !a5 && (k == K_REM || k == K_REMS);
  /* Undefined MIN / -1: the vector unit (A5, all but tdivs) at every width, C division at 32 bits. */
  int ovf = (k == K_DIVS || k == K_RDIVS) ? width(t) == 32 : a5;
  int64_t s = k == K_RDIVS ? rnd(t) : divisor(t, tmin(t), ovf); /* tile / s is defined for every tile value */
  u.p.scalar.bits = wrap(s, t);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      int64_t x = rnd(t);
      if (k == K_RDIVS) x = divisor(t, s, ovf); /* the tile is the divisor */
      put(u.img, &u.a, r, c, wrap(x, t));
      put(u.img, &u.b, r, c, wrap(a2rem ? rnd(t) : divisor(t, x, ovf), t)); /* A2/A3: zero divisors too */
    }
  memcpy(u.want, u.img, u.cap);
  for (int r = 0; r < vr && (accepted(k, a5) >> t & 1u); r++) /* a refused type: no reference */
    for (int c = 0; c < vc; c++) {
      int64_t x = val(get(u.img, &u.a, r, c), t), y = kops[k].scalar ? s : val(get(u.img, &u.b, r, c), t);
      if (a2rem) {
        uint64_t x2, y2;
        put(u.want, &u.d, r, c, wrap(rem_a2(x, y, kops[k].scalar, &x2, &y2), t));
        put(u.want, &u.a, r, c, x2);
        if (!kops[k].scalar) put(u.want, &u.b, r, c, y2);
      } else {
        put(u.want, &u.d, r, c, wrap(ref(k, x, y, t), t));
      }
    }
  ptosim_status st = uc_run(&u, k);
  char what[96];
  snprintf(what, sizeof what, "%s%s %s %s %dx%d valid %dx%d%s", kops[k].name, kops[k].first ? " (scalar first)" : "",
           a5 ? "a5" : "a2a3", pt_dtype_name(t), rows, cols, vr, vc, hp ? " hp" : "");
  if (st != PTOSIM_OK) {
    char rule[32];
    snprintf(rule, sizeof rule, "%s.dtype", kops[k].name);
    CHECK_MSG(!strcmp(diag_rule(&u), rule), "%s: %s [%s]", what, ptosim_last_diag(u.m)->msg, diag_rule(&u));
    memcpy(u.want, u.img, u.cap);
  }
  uc_compare(&u, what);
  uc_free(&u);
  return st == PTOSIM_OK;
}

/* Every form, target and integer type: exactly the accepted types run, against the reference,
 * on a tile with a tail (valid 4 x (cols - 3)), a full tile, and with HIGH_PRECISION (the
 * NPU's integer paths ignore it). */
static void test_values(void) {
  for (int k = 0; k < K_COUNT; k++)
    for (int a5 = 0; a5 < 2; a5++)
      for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        ptosim_dtype t = ints[i];
        ptosim_target tg = a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
        int cols = 64 + 32 / (int)pt_dtype_size(t), w64 = width(t) == 64;
        int ok = div_case(k, tg, t, 5, cols, 4, w64 ? 61 : cols - 3, 0); /* 64-bit: at most 64 valid columns */
        CHECK_MSG(ok == (int)(accepted(k, a5) >> t & 1u), "%s%s on %s %s: accepted %d", kops[k].name,
                  kops[k].first ? " (scalar first)" : "", a5 ? "a5" : "a2a3", pt_dtype_name(t), ok);
        if (!ok) continue;
        div_case(k, tg, t, 2, 32 / (int)pt_dtype_size(t), 2, 32 / (int)pt_dtype_size(t), 0);
        div_case(k, tg, t, 3, 64, 3, w64 ? 64 : 17, 1);
      }
}

/* A zero divisor / MIN / -1 at (1, 5) of a 3 x 16 valid region: the op fails with rule
 * <op>.<rule> naming that lane, and writes nothing. */
static void undefined_case(int k, ptosim_target tg, ptosim_dtype t, int overflow, const char *rule) {
  ucase u;
  uc_new(&u, tg, k, t, 4, 32, 3, 16);
  int64_t one = 1, mn = tmin(t), x = overflow ? mn : 7, y = overflow ? -1 : 0;
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 32; c++) put(u.img, &u.a, r, c, wrap(3, t)), put(u.img, &u.b, r, c, wrap(2, t));
  u.p.scalar.bits = wrap(k == K_RDIVS ? x : kops[k].scalar ? y : one, t);
  if (k == K_RDIVS) put(u.img, &u.a, 1, 5, wrap(y, t));
  else put(u.img, &u.a, 1, 5, wrap(x, t));
  if (!kops[k].scalar) put(u.img, &u.b, 1, 5, wrap(y, t));
  memcpy(u.want, u.img, u.cap);
  ptosim_status st = uc_run(&u, k);
  char want_rule[32], what[64];
  snprintf(want_rule, sizeof want_rule, "%s.%s", kops[k].name, rule);
  snprintf(what, sizeof what, "%s %s %s %s", kops[k].name, tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3", pt_dtype_name(t), rule);
  if (rule[0] == '-') { /* defined: C division of 8- / 16-bit operands wraps MIN / -1 to MIN */
    CHECK_MSG(st == PTOSIM_OK, "%s: %s", what, ptosim_last_diag(u.m)->msg);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 16; c++) {
        int64_t xv = val(get(u.img, &u.a, r, c), t), yv = val(u.p.scalar.bits, t);
        put(u.want, &u.d, r, c, wrap(k == K_RDIVS ? tquot(yv, xv, t) : tquot(xv, yv, t), t));
      }
  } else {
    CHECK_MSG(st == PTOSIM_E_FAULT && !strcmp(diag_rule(&u), want_rule), "%s: status %d [%s]", what, st, diag_rule(&u));
    CHECK_MSG(strstr(ptosim_last_diag(u.m)->msg, "row 1, col 5") != NULL, "%s: %s", what, ptosim_last_diag(u.m)->msg);
  }
  uc_compare(&u, what);
  uc_free(&u);
}

static void test_undefined(void) {
  for (int k = 0; k < K_COUNT; k++)
    for (int a5 = 0; a5 < 2; a5++)
      for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        ptosim_dtype t = ints[i];
        if (!(accepted(k, a5) >> t & 1u) || width(t) == 64) continue; /* 64-bit lanes are all defined: test_int64 */
        ptosim_target tg = a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
        if (!a5 && (k == K_REM || k == K_REMS)) continue; /* defined through f32: test_a2_rem */
        int tile_scalar = kops[k].scalar && k != K_RDIVS;
        if (!tile_scalar) undefined_case(k, tg, t, 0, "zero");
        if (!sgn(t)) continue;
        int c_div = k == K_DIVS || k == K_RDIVS;
        undefined_case(k, tg, t, 1, c_div && width(t) < 32 ? "-" : "overflow");
      }
  /* a zero scalar: the first lane fails */
  for (int a5 = 0; a5 < 2; a5++) {
    ucase u;
    uc_new(&u, a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3, K_DIVS, PTOSIM_DT_I32, 4, 32, 3, 16);
    u.p.scalar.bits = 0;
    memcpy(u.want, u.img, u.cap);
    CHECK(uc_run(&u, K_DIVS) == PTOSIM_E_FAULT && !strcmp(diag_rule(&u), "tdivs.zero"));
    CHECK(strstr(ptosim_last_diag(u.m)->msg, "row 0, col 0") != NULL);
    uc_compare(&u, "tdivs zero scalar");
    uc_free(&u);
  }
  /* A5 tfmods / trems by a zero scalar */
  for (int k = K_FMODS; k <= K_REMS; k += K_REMS - K_FMODS) {
    ucase u;
    uc_new(&u, PTOSIM_TARGET_A5, k, PTOSIM_DT_U16, 4, 32, 3, 16);
    u.p.scalar.bits = 0;
    memcpy(u.want, u.img, u.cap);
    char rule[32];
    snprintf(rule, sizeof rule, "%s.zero", kops[k].name);
    CHECK(uc_run(&u, k) == PTOSIM_E_FAULT && !strcmp(diag_rule(&u), rule));
    uc_compare(&u, rule);
    uc_free(&u);
  }
}

/* A2/A3 trem / trems i32 edge values (zero divisors, values beyond 2^24, MIN / -1) against
 * rem_a2, and the aliased forms: dst = src0 reads the product it just wrote (every lane 0),
 * src0 = src1 converts the same bytes twice. */
static void test_a2_rem(void) {
  static const int64_t xs[] = {0, 7, -7, 16777217, -16777219, INT32_MAX, INT32_MIN, 2147483583, 5, -1};
  static const int64_t ys[] = {0, 3, -3, 0, 7, -1, -1, 3, 16777217, INT32_MIN};
  for (int k = K_REM; k <= K_REMS; k++)
    for (size_t j = 0; j < sizeof ys / sizeof ys[0]; j++) {
      ucase u;
      uc_new(&u, PTOSIM_TARGET_A2A3, k, PTOSIM_DT_I32, 2, 16, 1, 10);
      for (int c = 0; c < 10; c++) put(u.img, &u.a, 0, c, wrap(xs[c], PTOSIM_DT_I32)), put(u.img, &u.b, 0, c, wrap(ys[(j + (size_t)c) % 10], PTOSIM_DT_I32));
      u.p.scalar.bits = wrap(ys[j], PTOSIM_DT_I32);
      memcpy(u.want, u.img, u.cap);
      for (int c = 0; c < 10; c++) {
        uint64_t x2, y2;
        int64_t y = k == K_REMS ? ys[j] : ys[(j + (size_t)c) % 10];
        put(u.want, &u.d, 0, c, wrap(rem_a2(xs[c], y, k == K_REMS, &x2, &y2), PTOSIM_DT_I32));
        put(u.want, &u.a, 0, c, x2);
        if (k == K_REM) put(u.want, &u.b, 0, c, y2);
      }
      CHECK(uc_run(&u, k) == PTOSIM_OK);
      uc_compare(&u, k == K_REM ? "a2a3 trem i32 edges" : "a2a3 trems i32 edges");
      uc_free(&u);
    }
  /* dst = src0 */
  ucase u;
  uc_new(&u, PTOSIM_TARGET_A2A3, K_REM, PTOSIM_DT_I32, 2, 16, 2, 9);
  u.p.src0 = u.d;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 16; c++) put(u.img, &u.d, r, c, wrap(100 + c, PTOSIM_DT_I32)), put(u.img, &u.b, r, c, wrap(7, PTOSIM_DT_I32));
  memcpy(u.want, u.img, u.cap);
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 9; c++) put(u.want, &u.d, r, c, 0), put(u.want, &u.b, r, c, 0x40E00000u); /* 7.0f */
  CHECK(uc_run(&u, K_REM) == PTOSIM_OK);
  uc_compare(&u, "a2a3 trem dst = src0");
  uc_free(&u);
  /* dst = src1: the remainder r = x mod 7 lands in src1's cell, is converted as dst (r.0f),
   * then again as src1 (those bits as an integer): dst ends as the bits of r.0f */
  uc_new(&u, PTOSIM_TARGET_A2A3, K_REM, PTOSIM_DT_I32, 2, 16, 2, 11);
  u.p.src1 = u.d;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 16; c++) put(u.img, &u.a, r, c, wrap(100 + 16 * r + c, PTOSIM_DT_I32)), put(u.img, &u.d, r, c, 7);
  memcpy(u.want, u.img, u.cap);
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 11; c++) {
      float rf = (float)((100 + 16 * r + c) % 7);
      uint32_t rb;
      memcpy(&rb, &rf, 4);
      put(u.want, &u.d, r, c, rb);
    }
  CHECK(uc_run(&u, K_REM) == PTOSIM_OK);
  uc_compare(&u, "a2a3 trem dst = src1");
  uc_free(&u);
  /* src0 = src1 = 5 (one cell per lane): 5.0f, whose bits 0x40A00000 convert again to
   * 1084227584.0f; q = 1; back to s32 twice: 1084227584, then those bits as f32 (5.0f) to 5;
   * dst = 1 * 5, then src0 - dst = 5 - 5 = 0; the cell ends as 5.0f (src1's last conversion). */
  uc_new(&u, PTOSIM_TARGET_A2A3, K_REM, PTOSIM_DT_I32, 1, 16, 1, 16);
  u.p.src1 = u.a;
  for (int c = 0; c < 16; c++) put(u.img, &u.a, 0, c, 5);
  memcpy(u.want, u.img, u.cap);
  for (int c = 0; c < 16; c++) put(u.want, &u.d, 0, c, 0), put(u.want, &u.a, 0, c, 0x40A00000u);
  CHECK(uc_run(&u, K_REM) == PTOSIM_OK);
  uc_compare(&u, "a2a3 trem src0 = src1");
  uc_free(&u);
}

/* A5 64-bit (Int64Div.hpp): edge pairs x / y (zero divisors give 0, MIN / -1 = MIN, halves
 * of different signs) in one row, each form against tquot / trunc_rem; more than 64 valid
 * columns is refused (<op>.cols64, nothing written). */
static void test_int64(void) {
  static const int64_t xs[] = {7, -7, INT64_MIN, INT64_MIN, INT64_MAX, 0, -1, 0x00000001FFFFFFFFll, (int64_t)0xFFFFFFFF00000001ull,
                               0x7FFFFFFF80000000ll, 5, INT64_MIN + 1, 1ll << 40, -(1ll << 40) - 3, 123456789012345ll, 9};
  static const int64_t ys[] = {0, 3, -1, 1, -1, 0, 7, (int64_t)0xFFFFFFFF00000001ull, 0x00000001FFFFFFFFll,
                               3, INT64_MAX, -2, (1ll << 32) + 1, -(1ll << 33), -9876543ll, 9};
  enum { N = sizeof xs / sizeof xs[0] };
  static const int forms[] = {K_DIV, K_DIVS, K_RDIVS, K_REM, K_REMS};
  for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
    for (int us = 0; us < 2; us++) {
      int k = forms[f], rd = k == K_RDIVS;
      ptosim_dtype t = us ? PTOSIM_DT_U64 : PTOSIM_DT_I64;
      for (size_t j = 0; j < (kops[k].scalar ? N : 1); j++) { /* the scalar: ys[j] (K_RDIVS: xs[j]) */
        ucase u;
        uc_new(&u, PTOSIM_TARGET_A5, k, t, 3, 20, 2, N);
        int64_t s = rd ? xs[j] : ys[j];
        u.p.scalar.bits = (uint64_t)s;
        for (int r = 0; r < 2; r++) /* row r: the pairs rotated by r; K_RDIVS divides by ys */
          for (int c = 0; c < N; c++) put(u.img, &u.a, r, c, (uint64_t)(rd ? ys : xs)[(c + r) % N]), put(u.img, &u.b, r, c, (uint64_t)ys[(c + r) % N]);
        memcpy(u.want, u.img, u.cap);
        for (int r = 0; r < 2; r++)
          for (int c = 0; c < N; c++) {
            int64_t x = val(get(u.img, &u.a, r, c), t), y = kops[k].scalar ? s : val(get(u.img, &u.b, r, c), t);
            put(u.want, &u.d, r, c, (uint64_t)ref(k, x, y, t));
          }
        char what[64];
        snprintf(what, sizeof what, "%s a5 %s 64-bit edges (scalar %zu)", kops[k].name, pt_dtype_name(t), j);
        CHECK_MSG(uc_run(&u, k) == PTOSIM_OK, "%s: %s", what, ptosim_last_diag(u.m)->msg);
        uc_compare(&u, what);
        uc_free(&u);
      }
      ucase u; /* 65 valid columns */
      uc_new(&u, PTOSIM_TARGET_A5, k, t, 2, 68, 2, 65);
      u.p.scalar.bits = 3;
      memcpy(u.want, u.img, u.cap);
      char rule[32];
      snprintf(rule, sizeof rule, "%s.cols64", kops[k].name);
      CHECK_MSG(uc_run(&u, k) == PTOSIM_E_VERIFY && !strcmp(diag_rule(&u), rule), "%s: [%s]", rule, diag_rule(&u));
      uc_compare(&u, rule);
      uc_free(&u);
    }
}

/* Signed division by INT64_MIN: |y| = 2^63 goes through the reciprocal steps with y converted
 * to f32 as -2^63, which give these quotients (worked out from Int64Div.hpp's instruction
 * sequence by a separate transcription with Python integers and numpy f32); remainders x - q y. */
static void test_int64_min_divisor(void) {
  static const int64_t xs[] = {0, 1, 2, 3, 4, 5, -1, -2, -5, 100, -100, 1ll << 62, INT64_MAX, INT64_MIN};
  static const int64_t qs[] = {0, 0, 0, -2, -2, -2, 0, 0, 2, -50, 50, -(1ll << 61), -4611686018427387902ll, 4611686018427387903ll};
  enum { N = sizeof xs / sizeof xs[0] };
  for (int k = K_DIV; k <= K_REMS; k++) {
    if (k == K_RDIVS || k == K_FMOD || k == K_FMODS) continue;
    ucase u;
    uc_new(&u, PTOSIM_TARGET_A5, k, PTOSIM_DT_I64, 1, 16, 1, N);
    u.p.scalar.bits = (uint64_t)INT64_MIN;
    for (int c = 0; c < N; c++) put(u.img, &u.a, 0, c, (uint64_t)xs[c]), put(u.img, &u.b, 0, c, (uint64_t)INT64_MIN);
    memcpy(u.want, u.img, u.cap);
    int rem = k == K_REM || k == K_REMS;
    for (int c = 0; c < N; c++) put(u.want, &u.d, 0, c, rem ? (uint64_t)xs[c] - (uint64_t)qs[c] * (uint64_t)INT64_MIN : (uint64_t)qs[c]);
    CHECK(uc_run(&u, k) == PTOSIM_OK);
    uc_compare(&u, kops[k].name);
    uc_free(&u);
  }
}

/* u64 trems in place (Int64RemScalar): the quotient pass overwrites the source, the second
 * pass reads q there: dst = q - q s. */
static void test_u64_rems_in_place(void) {
  ucase u;
  uc_new(&u, PTOSIM_TARGET_A5, K_REMS, PTOSIM_DT_U64, 2, 8, 2, 5);
  u.p.src0 = u.d;
  u.p.scalar.bits = 7;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 8; c++) put(u.img, &u.d, r, c, 1000 + 37 * (uint64_t)(8 * r + c));
  memcpy(u.want, u.img, u.cap);
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 5; c++) {
      uint64_t q = (1000 + 37 * (uint64_t)(8 * r + c)) / 7;
      put(u.want, &u.d, r, c, q - q * 7);
    }
  CHECK(uc_run(&u, K_REMS) == PTOSIM_OK);
  uc_compare(&u, "u64 trems in place");
  uc_free(&u);
}

int main(void) {
  RUN(test_values);
  RUN(test_int64);
  RUN(test_int64_min_divisor);
  RUN(test_u64_rems_in_place);
  RUN(test_undefined);
  RUN(test_a2_rem);
  return pt_test_finish();
}
