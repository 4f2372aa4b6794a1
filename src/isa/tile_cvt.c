/* pto.tcvt: d(r, c) = convert(a(r, c)) to dst's element type with a rounding mode and a
 * saturation mode (pto-isa docs/isa/tile/ops/elementwise-tile-tile/tcvt.md; legal pairs per
 * target from its table; defaults from include/pto/npu/a2a3/TCvt.hpp TCVT_IMPL).
 *
 *   float -> float   f32 -> f32 rounds to an integral value (a2a3 "round-only"); narrower
 *                    floats round once with the mode, IEEE overflow (-> inf by the rounding
 *                    direction), NaN stays NaN (A2/A3's CTRL[59] governs float -> int only:
 *                    TCvt.hpp SAT_MODE_BIT); A5's f32 -> f16 / bf16 with ON saturate (sat_16)
 *   float -> int     round to an integral value with the mode; ON clamps to the range
 *                    (NaN -> 0), OFF keeps the low bits of the value clamped to 64 bits
 *   int -> float     exact, or rounded once with the mode (via round-to-odd to f32 first when
 *                    the destination is a 16-bit float, so the result is rounded once)
 *   int -> int       ON clamps, OFF keeps the low bits
 * The default saturation is OFF for f16 -> i8 / u8, f32 / f16 -> i16, i32 -> i16, i64 -> i32,
 * ON otherwise.
 *   8-bit floats     (A5) f32 -> e4m3 / e5m2 nearest even, f32 / f16 -> hif8 half away from
 *                    zero, whatever rmode and sat_mode say, without saturation; e4m3 / e5m2 /
 *                    hif8 -> f32 exact (a5 TCvt.hpp cast32to8 `vcvt(.., ROUND_R, RS_DISABLE,
 *                    PART_P0)`, castData f32 / f16 -> hifloat8 `vcvt(.., ROUND_A, RS_DISABLE,
 *                    ..)`, cast8to32; SaturationCtrlTraits touches no CTRL bit for them)
 *   fp4 pairs        (A5) bf16 <-> f4E1M2x2 / f4E2M1x2: a tile of fp4 pairs has a byte (two
 *                    codes, the even column in the low nibble) per element, so the bf16 side's
 *                    valid columns vc pair with ceil(vc / 2) bytes; see cvt_fp4
 *
 * A row is converted in chunks: a loader chosen once by the source type fills a float or
 * int64 buffer, a storer chosen once by the destination type converts and writes it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "isa/fp4.h"
#include "isa/tile_elem.h"
#include "isa/vec_lanes.h"

#define CHUNK 256

typedef struct cv_plan {
  pt_round r;
  bool round_only;     /* f32 -> f32: round to an integral value */
  bool odd_first;      /* int -> 16-bit float: to f32 by round-to-odd, then r */
  int64_t lo, hi;      /* integer destinations: clamp range (the int64 range when OFF) */
} cv_plan;

/* A chunk of source values: floats as the bytes of f32s at f (the source row itself when it
 * is f32, else fb), integers in i. */
typedef struct cv_buf {
  const uint8_t *f;
  float fb[CHUNK];
  int64_t i[CHUNK];
} cv_buf;


typedef void (*cv_ld)(const uint8_t *p, int64_t n, cv_buf *b);
typedef void (*cv_st)(uint8_t *p, int64_t n, const cv_buf *b, const cv_plan *c);

/* ---- loaders ----------------------------------------------------------------------------- */

#define LD(name, T, field, expr)                                                            \
  static void name(const uint8_t *p, int64_t n, cv_buf *b) {                                \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T v;                                                                                  \
      memcpy(&v, p + i * (int64_t)sizeof v, sizeof v);                                     \
      b->field[i] = (expr);                                                                 \
    }                                                                                       \
    b->f = (const uint8_t *)b->fb;                                                          \
  }
LD(ld_bf16, uint16_t, fb, pt_vl_bf16_to_f32(v))
LD(ld_e4m3, uint8_t, fb, pt_f8_to_f32(PTOSIM_DT_F8E4M3, v))
LD(ld_e5m2, uint8_t, fb, pt_f8_to_f32(PTOSIM_DT_F8E5M2, v))
LD(ld_hif8, uint8_t, fb, pt_f8_to_f32(PTOSIM_DT_HIF8, v))
LD(ld_i8, int8_t, i, v)
LD(ld_u8, uint8_t, i, v)
LD(ld_i16, int16_t, i, v)
LD(ld_u16, uint16_t, i, v)
LD(ld_i32, int32_t, i, v)
LD(ld_u32, uint32_t, i, v)
LD(ld_i64, int64_t, i, v)
static void ld_f32(const uint8_t *p, int64_t n, cv_buf *b) { b->f = p, (void)n; } /* read in place */
static void ld_f16(const uint8_t *p, int64_t n, cv_buf *b) {
  pt_te_f16_to_f32(p, n, b->fb);
  b->f = (const uint8_t *)b->fb;
}

static const cv_ld k_ld[PTOSIM_DT_COUNT] = {
    [PTOSIM_DT_F32] = ld_f32, [PTOSIM_DT_F16] = ld_f16, [PTOSIM_DT_BF16] = ld_bf16, [PTOSIM_DT_I8] = ld_i8,
    [PTOSIM_DT_U8] = ld_u8,   [PTOSIM_DT_I16] = ld_i16, [PTOSIM_DT_U16] = ld_u16,   [PTOSIM_DT_I32] = ld_i32,
    [PTOSIM_DT_U32] = ld_u32, [PTOSIM_DT_I64] = ld_i64,   [PTOSIM_DT_F8E4M3] = ld_e4m3, [PTOSIM_DT_F8E5M2] = ld_e5m2,
    [PTOSIM_DT_HIF8] = ld_hif8};

/* ---- conversions of one value ------------------------------------------------------------- */

/* Double d (an integer, exact) rounded to f32 with r. */
static float d_to_f32(double d, pt_round r) {
  float f = (float)d; /* nearest even */
  if ((double)f == d) return f;
  float lo = (double)f < d ? f : nextafterf(f, -INFINITY), hi = nextafterf(lo, INFINITY);
  switch (r) {
    case PT_RND_FLOOR: return lo;
    case PT_RND_CEIL: return hi;
    case PT_RND_TRUNC: return d < 0 ? hi : lo;
    case PT_RND_AWAY: return d - lo == hi - d ? (d < 0 ? lo : hi) : f;
    case PT_RND_ODD: return (pt_vl_f32_bits(lo) & 1u) ? lo : hi;
    default: return f;
  }
}

/* Integer v as a double that rounds to f32 as v does: exact below 2^53; above, the bits
 * below the 53rd are folded into a sticky lowest bit, far below f32's rounding position. */
static double i64_exactish(int64_t v) {
  uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  if (mag < (1ull << 53)) return (double)v;
  int s = 64 - __builtin_clzll(mag) - 53;
  uint64_t m = mag >> s | ((mag & ((1ull << s) - 1)) != 0);
  double d = ldexp((double)m, s);
  return v < 0 ? -d : d;
}

static float round_integral(float x, pt_round r) {
  switch (r) {
    case PT_RND_AWAY: return roundf(x);
    case PT_RND_FLOOR: return floorf(x);
    case PT_RND_CEIL: return ceilf(x);
    case PT_RND_TRUNC: return truncf(x);
    case PT_RND_ODD: { /* inexact: the odd one of the two neighbouring integers */
      float t = truncf(x);
      return t == x || fmodf(t, 2.0f) != 0.0f ? t : t + copysignf(1.0f, x);
    }
    default: return rintf(x); /* the host's default mode: nearest even */
  }
}

/* ---- storers ----------------------------------------------------------------------------- */

/* Float destinations from a float source (b->f) or an integer one (b->i). */
static float f_of_int(const cv_plan *c, int64_t v) { return d_to_f32(i64_exactish(v), c->odd_first ? PT_RND_ODD : c->r); }

#define ST_FLOAT_FF(name, U, conv)                                                          \
  static void name##_ff(uint8_t *p, int64_t n, const cv_buf *b, const cv_plan *c) {         \
    const uint8_t *f = b->f; /* a local: the stores may alias *b */                         \
    for (int64_t i = 0; i < n; i++) {                                                       \
      U v = conv(te_ld_f32(f, i));                                                                  \
      memcpy(p + i * (int64_t)sizeof v, &v, sizeof v);                                     \
    }                                                                                       \
    (void)c;                                                                                \
  }
#define ST_FLOAT(name, U, conv) ST_FLOAT_FF(name, U, conv) ST_FLOAT_IF(name, U, conv)
#define ST_FLOAT_IF(name, U, conv)                                                          \
  static void name##_if(uint8_t *p, int64_t n, const cv_buf *b, const cv_plan *c) {         \
    for (int64_t i = 0; i < n; i++) {                                                       \
      U v = conv(f_of_int(c, b->i[i]));                                                     \
      memcpy(p + i * (int64_t)sizeof v, &v, sizeof v);                                     \
    }                                                                                       \
  }
#define F32_RINT(x) pt_vl_f32_bits(x)
#define NAN_BITS(x) ((pt_vl_f32_bits(x) & 0x7FFFFFFFu) > 0x7F800000u) /* an integer test: vectorizes */
#define F16_RINT(x) (uint16_t)pt_vl_sel(NAN_BITS(x), 0x7E00u, pt_vl_to_f16(x))
#define BF16_RINT(x) (uint16_t)pt_vl_sel(NAN_BITS(x), 0x7FC0u, pt_vl_to_bf16(x))
#define F16_R(x) pt_f32_to_f16(x, c->r, PT_SAT_OFF)
#define BF16_R(x) pt_f32_to_bf16(x, c->r, PT_SAT_OFF)
#define F32_INT(x) pt_vl_f32_bits(round_integral(x, c->r))
ST_FLOAT(st_f32, uint32_t, F32_RINT)
ST_FLOAT_IF(st_f16_rint, uint16_t, F16_RINT)
static void st_f16_rint_ff(uint8_t *p, int64_t n, const cv_buf *b, const cv_plan *c) {
  pt_te_f32_to_f16(b->f, n, p); /* F16_RINT on every element, a row at once */
  (void)c;
}
ST_FLOAT(st_bf16_rint, uint16_t, BF16_RINT)
ST_FLOAT(st_f16, uint16_t, F16_R)
ST_FLOAT_IF(st_bf16, uint16_t, BF16_R)
/* BF16_R on every element, on the bits: bf16 is the top half of an f32 (same exponent
 * range, so subnormals round by the same rule), and rounding x's bits to it is
 * (x + add + (tie ? bit 16 of x : 0)) >> 16, or'ed with 1 for round to odd when bits 0..15
 * are not all zero; add (by x's sign: ADDP for positive, ADDN for negative) is 0xFFFF to
 * round away from zero, 0x8000 half away, 0x7FFF with tie half to even, 0 toward zero.
 * The sum stays below 2^31 above the sign (|x| <= inf's 0x7F800000), and a carry into the
 * exponent gives the next binade, or inf from the largest finite, which the directed modes
 * reach exactly when IEEE overflow goes to inf (toward zero and odd add nothing that
 * carries); inf stays inf (bits 0..15 zero). NaN keeps sign and top payload with the quiet
 * bit (pt_f32_to_bf16). One loop per mode (constants fold): no per-element switch. */
#define ST_BF16(name, ADDP, ADDN, TIE, ODD)                                                 \
  TE_CLONES static void name(uint8_t *p, int64_t n, const cv_buf *b, const cv_plan *c) {    \
    const uint8_t *f = b->f;                                                                \
    for (int64_t i = 0; i < n; i++) {                                                       \
      uint32_t x = pt_vl_f32_bits(te_ld_f32(f, i)), add = (x >> 31) ? (ADDN) : (ADDP);      \
      uint32_t r = (x + add + ((x >> 16) & (TIE))) >> 16 | ((ODD) & ((x & 0xFFFFu) != 0));  \
      uint16_t v = (uint16_t)pt_vl_sel((x & 0x7FFFFFFFu) > 0x7F800000u, (x >> 16) | 0x0040u, r); \
      memcpy(p + 2 * i, &v, 2);                                                            \
    }                                                                                       \
    (void)c;                                                                                \
  }
ST_BF16(st_bf16_away_ff, 0x8000u, 0x8000u, 0u, 0u)
ST_BF16(st_bf16_floor_ff, 0u, 0xFFFFu, 0u, 0u)
ST_BF16(st_bf16_ceil_ff, 0xFFFFu, 0u, 0u, 0u)
ST_BF16(st_bf16_trunc_ff, 0u, 0u, 0u, 0u)
ST_BF16(st_bf16_odd_ff, 0u, 0u, 0u, 1u)
static const cv_st k_st_bf16_ff[] = {[PT_RND_AWAY] = st_bf16_away_ff, [PT_RND_FLOOR] = st_bf16_floor_ff,
                                     [PT_RND_CEIL] = st_bf16_ceil_ff, [PT_RND_TRUNC] = st_bf16_trunc_ff,
                                     [PT_RND_ODD] = st_bf16_odd_ff}; /* PT_RND_RINT: st_bf16_rint_ff */
ST_FLOAT_FF(st_f32_int, uint32_t, F32_INT)
#define E4M3_R(x) pt_f32_to_f8(PTOSIM_DT_F8E4M3, x, PT_RND_RINT, PT_SAT_OFF)
#define E5M2_R(x) pt_f32_to_f8(PTOSIM_DT_F8E5M2, x, PT_RND_RINT, PT_SAT_OFF)
#define HIF8_A(x) pt_f32_to_f8(PTOSIM_DT_HIF8, x, PT_RND_AWAY, PT_SAT_OFF)
ST_FLOAT_FF(st_e4m3, uint8_t, E4M3_R)
ST_FLOAT_FF(st_e5m2, uint8_t, E5M2_R)
ST_FLOAT_FF(st_hif8, uint8_t, HIF8_A)

/* Integer destinations: float sources rounded with r, both clamped to [lo, hi], the low
 * bytes stored. */
#define ST_INT(name, T)                                                                     \
  static void name##_ff(uint8_t *p, int64_t n, const cv_buf *b, const cv_plan *c) {         \
    const uint8_t *f = b->f;                                                                \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T v = (T)(uint64_t)pt_f32_to_int(te_ld_f32(f, i), c->r, c->lo, c->hi);                        \
      memcpy(p + i * (int64_t)sizeof v, &v, sizeof v);                                     \
    }                                                                                       \
  }                                                                                         \
  static void name##_if(uint8_t *p, int64_t n, const cv_buf *b, const cv_plan *c) {         \
    for (int64_t i = 0; i < n; i++) {                                                       \
      int64_t w = b->i[i] < c->lo ? c->lo : b->i[i] > c->hi ? c->hi : b->i[i];              \
      T v = (T)(uint64_t)w;                                                                 \
      memcpy(p + i * (int64_t)sizeof v, &v, sizeof v);                                     \
    }                                                                                       \
  }
ST_INT(st_i8, uint8_t)
ST_INT(st_i16, uint16_t)
ST_INT(st_i32, uint32_t)
ST_INT(st_i64, uint64_t)

/* Saturation of 16-bit float results stored with IEEE rules (the vcvt reading of
 * docs/spec-notes.md section 11): +-inf (the source's, or an overflow) becomes +-max finite,
 * a NaN 0. inf: the type's infinity bits (f16 0x7C00, bf16 0x7F80); max finite is inf - 1. */
TE_CLONES static void sat_16(uint8_t *p, int64_t n, uint16_t inf) {
  for (int64_t i = 0; i < n; i++) { /* branch-free: inf - 1 is max finite, a NaN's mask clears it */
    uint16_t v, mag;
    memcpy(&v, p + 2 * i, 2);
    mag = v & 0x7FFFu;
    v = (uint16_t)((uint16_t)(v - (mag == inf)) & (uint16_t)-(mag <= inf));
    memcpy(p + 2 * i, &v, 2);
  }
}

/* ---- legal pairs ------------------------------------------------------------------------ */

#define B(t) TE_BIT(PTOSIM_DT_##t)
/* Destinations of each source: [0] A2/A3, [1] A5 (tcvt.md "Source Type" table; A5's 8-bit
 * float, hifloat8 and fp4 pairs as a5 TCvt.hpp castData has them; the int4 pairs are not
 * modelled). */
static const uint32_t k_pairs[PTOSIM_DT_COUNT][2] = {
    [PTOSIM_DT_F32] = {B(F16) | B(F32) | B(BF16) | B(I16) | B(I32) | B(I64),
                       B(F16) | B(F32) | B(BF16) | B(I16) | B(I32) | B(I64) | B(F8E4M3) | B(F8E5M2) | B(HIF8)},
    [PTOSIM_DT_F16] = {B(F32) | B(I32) | B(I16) | B(I8) | B(U8), B(F32) | B(I32) | B(I16) | B(I8) | B(U8) | B(HIF8)},
    [PTOSIM_DT_BF16] = {B(F32) | B(I32), B(F32) | B(I32) | B(F16) | B(F4E1M2X2) | B(F4E2M1X2)},
    [PTOSIM_DT_I16] = {B(F16) | B(F32), B(U8) | B(F16) | B(F32) | B(U32) | B(I32)},
    [PTOSIM_DT_I32] = {B(F32) | B(I16) | B(I64) | B(F16), B(F32) | B(I16) | B(U16) | B(I64) | B(U8)},
    [PTOSIM_DT_I64] = {B(F32) | B(I32), B(F32) | B(I32)},
    [PTOSIM_DT_U8] = {B(F16), B(F16) | B(U16)},
    [PTOSIM_DT_I8] = {B(F16), B(F16) | B(I16) | B(I32)},
    [PTOSIM_DT_U32] = {0, B(U8) | B(U16) | B(I16)},
    [PTOSIM_DT_F8E4M3] = {0, B(F32)}, [PTOSIM_DT_F8E5M2] = {0, B(F32)}, [PTOSIM_DT_HIF8] = {0, B(F32)},
    [PTOSIM_DT_F4E1M2X2] = {0, B(BF16)}, [PTOSIM_DT_F4E2M1X2] = {0, B(BF16)},
};

/* Pairs whose saturation defaults to OFF (a2a3 TCvt.hpp kIsNarrowingCvt, a5 TCvt.hpp TCVT_IMPL's
 * list): f16 -> i8 / u8, f32 / f16 -> i16, i64 -> i32, i32 -> i16. */
static bool narrowing(ptosim_dtype s, ptosim_dtype d) {
  return (s == PTOSIM_DT_F16 && (d == PTOSIM_DT_I8 || d == PTOSIM_DT_U8)) ||
         ((s == PTOSIM_DT_F32 || s == PTOSIM_DT_F16 || s == PTOSIM_DT_I32) && d == PTOSIM_DT_I16) ||
         (s == PTOSIM_DT_I64 && d == PTOSIM_DT_I32);
}

static pt_round round_of(ptosim_round_mode m) {
  static const pt_round k[] = {[PTOSIM_RM_NONE] = PT_RND_RINT,  [PTOSIM_RM_RINT] = PT_RND_RINT,
                               [PTOSIM_RM_ROUND] = PT_RND_AWAY, [PTOSIM_RM_FLOOR] = PT_RND_FLOOR,
                               [PTOSIM_RM_CEIL] = PT_RND_CEIL,  [PTOSIM_RM_TRUNC] = PT_RND_TRUNC,
                               [PTOSIM_RM_ODD] = PT_RND_ODD,    [PTOSIM_RM_CAST_RINT] = PT_RND_RINT};
  return k[m];
}

/* The storer of destination d for a float (fsrc) or integer source. */
static cv_st storer(ptosim_dtype s, ptosim_dtype d, pt_round r, bool fsrc) {
  bool rint = r == PT_RND_RINT;
  switch (d) {
    case PTOSIM_DT_F32: return fsrc ? (s == PTOSIM_DT_F32 ? st_f32_int_ff : st_f32_ff) : st_f32_if;
    case PTOSIM_DT_F16: return fsrc ? (rint ? st_f16_rint_ff : st_f16_ff) : (rint ? st_f16_rint_if : st_f16_if);
    case PTOSIM_DT_BF16: return fsrc ? (rint ? st_bf16_rint_ff : k_st_bf16_ff[r]) : (rint ? st_bf16_rint_if : st_bf16_if);
    case PTOSIM_DT_I8: case PTOSIM_DT_U8: return fsrc ? st_i8_ff : st_i8_if;
    case PTOSIM_DT_I16: case PTOSIM_DT_U16: return fsrc ? st_i16_ff : st_i16_if;
    case PTOSIM_DT_I32: case PTOSIM_DT_U32: return fsrc ? st_i32_ff : st_i32_if;
    case PTOSIM_DT_F8E4M3: return st_e4m3_ff; /* float sources only (k_pairs) */
    case PTOSIM_DT_F8E5M2: return st_e5m2_ff;
    case PTOSIM_DT_HIF8: return st_hif8_ff;
    default: return fsrc ? st_i64_ff : st_i64_if;
  }
}

/* bf16 <-> fp4 pairs (a5 TCvt.hpp, whose fp4 tiles count columns in codes, two a byte).
 * To fp4 (castBf16toFp4): codes rounded with rmode onto the format's magnitudes (fp4.h),
 * every valid row first zeroed across dst's whole width (the hardware's fill of
 * validRows * dstCols / 2 bytes), then the vc / 2 whole bytes written: for an odd vc the
 * byte of the last column stays 0. From fp4 (castFp4toBf16): each of the vc valid columns
 * from its nibble, exact. Valid rows equal; the fp4 side's valid columns are ceil(vc / 2). */
static ptosim_status cvt_fp4(pt_ctx *x, const ptosim_telem_params *p) {
  const ptosim_tile *s = &p->src0, *d = &p->dst;
  bool to4 = f4_mags(d->dtype) != NULL;
  const ptosim_tile *b = to4 ? s : d, *q = to4 ? d : s; /* the bf16 and the fp4 tile */
  const float *mag = f4_mags(q->dtype);
  int64_t vr = d->valid_rows, vc = b->valid_cols, nb = vc / 2, ss, ds;
  PT_VERIFY(x, s->valid_rows == vr && q->valid_cols == (vc + 1) / 2, "tcvt.valid",
            "give the fp4 tile the bf16 tile's valid rows and half its valid columns, rounded up",
            "src valid %d x %d, dst valid %d x %d", s->valid_rows, s->valid_cols, d->valid_rows, d->valid_cols);
  uint8_t *sp, *dp;
  PT_TRY(pt_te_rows(x, s, vr, s->valid_cols, PT_READ, &sp, &ss));
  PT_TRY(pt_te_rows(x, d, vr, to4 ? d->cols : vc, PT_WRITE, &dp, &ds));
  int64_t slen = (vr - 1) * ss + s->valid_cols * (int64_t)pt_dtype_size(s->dtype);
  uint8_t *copy = malloc((size_t)slen); /* the source rows: the tiles may overlap */
  if (!copy) return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory");
  memcpy(copy, sp, (size_t)slen);
  pt_round r = round_of(p->rmode);
  for (int64_t i = 0; i < vr; i++) {
    const uint8_t *a = copy + i * ss;
    uint8_t *o = dp + i * ds;
    if (to4) {
      memset(o, 0, (size_t)d->cols);
      for (int64_t j = 0; j < nb; j++) {
        uint16_t lo, hi;
        memcpy(&lo, a + 4 * j, 2), memcpy(&hi, a + 4 * j + 2, 2);
        o[j] = (uint8_t)(f4_from_f32(mag, pt_bf16_to_f32(lo), r) | f4_from_f32(mag, pt_bf16_to_f32(hi), r) << 4);
      }
    } else {
      for (int64_t c = 0; c < vc; c++) {
        uint16_t v = f4_to_bf16(mag, (unsigned)(a[c / 2] >> (4 * (c & 1))) & 15u);
        memcpy(o + 2 * c, &v, 2);
      }
    }
  }
  free(copy);
  pt_record_work(x, (uint64_t)(vr * vc), PTOSIM_DT_BF16);
  return PTOSIM_OK;
}

ptosim_status pt_exec_tcvt(pt_ctx *x, const ptosim_telem_params *p) {
  const ptosim_tile *s = &p->src0, *d = &p->dst;
  PT_TRY(pt_te_tile(x, "tcvt", "src", s));
  PT_TRY(pt_te_tile(x, "tcvt", "dst", d));
  if (p->has_tmp) PT_TRY(pt_te_tile(x, "tcvt", "tmp", &p->tmp));
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  uint32_t dsts = (unsigned)s->dtype < PTOSIM_DT_COUNT ? k_pairs[s->dtype][a5] : 0;
  PT_VERIFY(x, (unsigned)d->dtype < 32 && (dsts >> d->dtype & 1u), "tcvt.dtype",
            "see the conversion table of pto-isa tcvt.md", "%s -> %s is not a conversion of %s",
            pt_dtype_name(s->dtype), pt_dtype_name(d->dtype), x->m->prof->name);
  PT_VERIFY(x, (unsigned)p->rmode <= PTOSIM_RM_CAST_RINT && (unsigned)p->sat <= PTOSIM_TSAT_OFF, "tcvt.mode",
            "use the enumerators of ptosim/tile_elem.h", "rounding mode %d or saturation mode %d is not an enumerator",
            (int)p->rmode, (int)p->sat);
  if (f4_mags(s->dtype) || f4_mags(d->dtype)) return cvt_fp4(x, p);
  PT_TRY(pt_te_valid(x, "tcvt", "src", s, d));
  int64_t vr = d->valid_rows, vc = d->valid_cols, ss, ds;
  uint8_t *q, *dp, *copy;
  PT_TRY(pt_te_rows(x, s, vr, vc, PT_READ, &q, &ss));
  PT_TRY(pt_te_rows(x, d, vr, vc, PT_WRITE, &dp, &ds));
  const uint8_t *sp = q;
  PT_TRY(pt_te_stage(x, s, d, vr, vc, &sp, &copy));
  /* A2/A3's TCVT without a tmp tile passes an explicit mode only for the narrowing pairs and
   * runs every other pair with ON (a2a3 TCvt.hpp TCVT_IMPL); the tmp form and A5 honour it. */
  bool narrow = narrowing(s->dtype, d->dtype);
  bool honoured = p->sat != PTOSIM_TSAT_DEFAULT && (a5 || p->has_tmp || narrow);
  bool sat = honoured ? p->sat == PTOSIM_TSAT_ON : !narrow;
  bool fsrc = pt_dtype_is_float(s->dtype), fdst = pt_dtype_is_float(d->dtype);
  /* A5 sets CTRL[60] = 1 and CTRL[59] = !sat for f32 -> f16 / bf16 and for integers to a
   * 16-bit float no wider (a5 TCvt.hpp SaturationCtrlTraits), so those results saturate. */
  bool sat16 = a5 && sat && pt_dtype_size(d->dtype) == 2 && fdst &&
               (s->dtype == PTOSIM_DT_F32 || (!fsrc && pt_dtype_size(s->dtype) >= 2));
  cv_plan c = {.r = round_of(p->rmode), .lo = INT64_MIN, .hi = INT64_MAX};
  c.odd_first = !fsrc && pt_dtype_size(d->dtype) == 2;
  if (sat && !fdst) c.lo = pt_int_min(d->dtype), c.hi = pt_int_max(d->dtype);
  cv_ld ld = k_ld[s->dtype];
  cv_st st = storer(s->dtype, d->dtype, c.r, fsrc);
  unsigned ses = pt_dtype_size(s->dtype), des = pt_dtype_size(d->dtype);
  cv_buf *b = malloc(sizeof *b);
  if (!b) {
    free(copy);
    return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory");
  }
  for (int64_t r = 0; r < vr; r++)
    for (int64_t j = 0; j < vc; j += CHUNK) {
      int64_t n = vc - j < CHUNK ? vc - j : CHUNK;
      ld(sp + r * ss + j * ses, n, b);
      st(dp + r * ds + j * des, n, b, &c);
      if (sat16) sat_16(dp + r * ds + j * des, n, d->dtype == PTOSIM_DT_F16 ? 0x7C00u : 0x7F80u);
    }
  free(b);
  free(copy);
  pt_record_work(x, (uint64_t)(vr * vc), s->dtype);
  return PTOSIM_OK;
}

/* ---- taddreluconv / tsubreluconv -------------------------------------------------------- */

/* d(r, c) = convert(max(a(r, c) +- b(r, c), 0)) to the narrower dst type (pto-isa a5
 * TAddReluConv.hpp / TSubReluConv.hpp: vadd or vsub in the source type, vmaxs 0, then a
 * saturating vcvt; a2a3 vaddreluconv_* / vsubreluconv_* for the same pairs):
 *   f32 -> f16   sum in f32, to f16 nearest even, saturating to 65504
 *   f16 -> i8    sum rounded to f16, to i8 nearest even, saturating to 127
 *   i16 -> i8    sum wrapped to 16 bits, clamped to 127
 * A NaN sum becomes 0 (the ReLU of the elementwise ops, section 14). */
typedef void (*rc_fn)(bool sub, const uint8_t *a, const uint8_t *b, uint8_t *d, int64_t n);

static void rc_f32(bool sub, const uint8_t *a, const uint8_t *b, uint8_t *d, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    float x, y;
    memcpy(&x, a + 4 * i, 4), memcpy(&y, b + 4 * i, 4);
    float v = sub ? x - y : x + y;
    uint16_t h = pt_f32_to_f16(v > 0.0f ? v : 0.0f, PT_RND_RINT, PT_SAT_ON);
    memcpy(d + 2 * i, &h, 2);
  }
}
static void rc_f16(bool sub, const uint8_t *a, const uint8_t *b, uint8_t *d, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint16_t x, y;
    memcpy(&x, a + 2 * i, 2), memcpy(&y, b + 2 * i, 2);
    float fx = pt_vl_f16_to_f32(x), fy = pt_vl_f16_to_f32(y);
    float v = pt_f16_to_f32(pt_f32_to_f16(sub ? fx - fy : fx + fy, PT_RND_RINT, PT_SAT_OFF)); /* the f16 vadd */
    d[i] = (uint8_t)pt_f32_to_int(v > 0.0f ? v : 0.0f, PT_RND_RINT, -128, 127);
  }
}
static void rc_i16(bool sub, const uint8_t *a, const uint8_t *b, uint8_t *d, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    int16_t x, y;
    memcpy(&x, a + 2 * i, 2), memcpy(&y, b + 2 * i, 2);
    int16_t v = (int16_t)(uint16_t)(sub ? (uint32_t)x - (uint32_t)y : (uint32_t)x + (uint32_t)y);
    d[i] = (uint8_t)(v < 0 ? 0 : v > 127 ? 127 : v);
  }
}

ptosim_status pt_exec_treluconv(pt_ctx *x, const ptosim_telem_params *p) {
  bool sub = x->op == PTOSIM_OP_tsubreluconv;
  const char *name = sub ? "tsubreluconv" : "taddreluconv";
  const ptosim_tile *a = &p->src0, *b = &p->src1, *d = &p->dst;
  PT_TRY(pt_te_tile(x, name, "src0", a));
  PT_TRY(pt_te_tile(x, name, "src1", b));
  PT_TRY(pt_te_tile(x, name, "dst", d));
  bool pair = a->dtype == b->dtype && ((a->dtype == PTOSIM_DT_F32 && d->dtype == PTOSIM_DT_F16) ||
                                       ((a->dtype == PTOSIM_DT_F16 || a->dtype == PTOSIM_DT_I16) && d->dtype == PTOSIM_DT_I8));
  PT_VERIFY(x, pair, PT_TILE_RULE(name, "dtype"), "use f32 -> f16, f16 -> i8 or i16 -> i8, both sources alike",
            "%s, %s -> %s is not a pair of the op", pt_dtype_name(a->dtype), pt_dtype_name(b->dtype),
            pt_dtype_name(d->dtype));
  PT_TRY(pt_te_valid(x, name, "src0", a, d));
  PT_TRY(pt_te_valid(x, name, "src1", b, d));
  int64_t vr = d->valid_rows, vc = d->valid_cols, sa, sb, sd;
  uint8_t *ap, *bp, *dp, *copy[2] = {NULL, NULL};
  PT_TRY(pt_te_rows(x, a, vr, vc, PT_READ, &ap, &sa));
  PT_TRY(pt_te_rows(x, b, vr, vc, PT_READ, &bp, &sb));
  PT_TRY(pt_te_rows(x, d, vr, vc, PT_WRITE, &dp, &sd));
  const uint8_t *sp[2] = {ap, bp};
  ptosim_status st = pt_te_stage(x, a, d, vr, vc, &sp[0], &copy[0]);
  if (st == PTOSIM_OK) st = pt_te_stage(x, b, d, vr, vc, &sp[1], &copy[1]);
  rc_fn fn = a->dtype == PTOSIM_DT_F32 ? rc_f32 : a->dtype == PTOSIM_DT_F16 ? rc_f16 : rc_i16;
  for (int64_t r = 0; r < vr && st == PTOSIM_OK; r++) fn(sub, sp[0] + r * sa, sp[1] + r * sb, dp + r * sd, vc);
  free(copy[0]);
  free(copy[1]);
  if (st == PTOSIM_OK) pt_record_work(x, (uint64_t)(vr * vc), a->dtype);
  return st;
}

/* ---- tadddeqrelu -------------------------------------------------------------------------- */

/* d(r, c) = f16(max(((f32(a + b) * 2^-17) * s) * 2^17, 0)) with a, b i32 (the sum wrapped),
 * s the f32 deqScale, every step rounded to f32 nearest even and the f16 conversion nearest
 * even with IEEE overflow to inf (pto-isa a5 TAddDeqRelu.hpp: vadd, vcvt RoundR, three vmuls,
 * vmaxs 0, vcvt RS_DISABLE; TAddDeqRelu.md). A2/A3 runs the same steps through UB
 * (a2a3 TAddDeqRelu.hpp): afterwards src0 holds the scaled f32 values, src1 their ReLU and
 * tmp the f32 zeros of vector_dup, over the valid region. tmp: i32, at least dst's valid
 * region (TAddDeqRelu.md). */
static ptosim_status adr_check(pt_ctx *x, const ptosim_telem_params *p) {
  static const char *const names[] = {"src0", "src1", "tmp", "dst"};
  const ptosim_tile *t[] = {&p->src0, &p->src1, &p->tmp, &p->dst};
  for (int i = 0; i < 4; i++) {
    PT_TRY(pt_te_tile(x, "tadddeqrelu", names[i], t[i]));
    ptosim_dtype want = i == 3 ? PTOSIM_DT_F16 : PTOSIM_DT_I32;
    PT_VERIFY(x, t[i]->dtype == want, "tadddeqrelu.dtype", "use i32 sources and tmp and an f16 dst",
              "%s element type %s is not %s", names[i], pt_dtype_name(t[i]->dtype), pt_dtype_name(want));
  }
  PT_TRY(pt_te_valid(x, "tadddeqrelu", "src0", &p->src0, &p->dst));
  PT_TRY(pt_te_valid(x, "tadddeqrelu", "src1", &p->src1, &p->dst));
  PT_VERIFY(x, p->tmp.rows >= p->dst.valid_rows && p->tmp.cols >= p->dst.valid_cols, "tadddeqrelu.valid",
            "give tmp at least dst's valid rows and columns", "tmp %d x %d is smaller than dst's valid region %d x %d",
            p->tmp.rows, p->tmp.cols, p->dst.valid_rows, p->dst.valid_cols);
  return PTOSIM_OK;
}

/* One row: a, b the (staged) sources; ua, ub, ut the UB rows A2/A3 leaves its steps in (NULL on A5). */
static void adr_row(const uint8_t *a, const uint8_t *b, uint8_t *d, uint8_t *ua, uint8_t *ub, uint8_t *ut, float s,
                    int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint32_t x, y;
    memcpy(&x, a + 4 * i, 4), memcpy(&y, b + 4 * i, 4);
    float f = (float)(int32_t)(x + y) * 0x1p-17f;
    f = f * s;
    f = f * 0x1p17f;
    float r = isnan(f) ? f : f > 0.0f ? f : 0.0f;
    if (ua) {
      memcpy(ua + 4 * i, &f, 4), memcpy(ub + 4 * i, &r, 4);
      memset(ut + 4 * i, 0, 4);
    }
    uint16_t h = isnan(r) ? 0x7E00 : pt_f32_to_f16(r, PT_RND_RINT, PT_SAT_OFF);
    memcpy(d + 2 * i, &h, 2);
  }
}

ptosim_status pt_exec_tadddeqrelu(pt_ctx *x, const ptosim_telem_params *p) {
  PT_TRY(adr_check(x, p));
  bool a2 = x->m->target != PTOSIM_TARGET_A5;
  const ptosim_tile *a = &p->src0, *b = &p->src1, *d = &p->dst;
  int64_t vr = d->valid_rows, vc = d->valid_cols, sa, sb, sd, tst = 0;
  uint8_t *ap, *bp, *dp, *tp = NULL, *copy[2] = {NULL, NULL};
  PT_TRY(pt_te_rows(x, a, vr, vc, a2 ? PT_RW : PT_READ, &ap, &sa));
  PT_TRY(pt_te_rows(x, b, vr, vc, a2 ? PT_RW : PT_READ, &bp, &sb));
  if (a2) PT_TRY(pt_te_rows(x, &p->tmp, vr, vc, PT_WRITE, &tp, &tst));
  PT_TRY(pt_te_rows(x, d, vr, vc, PT_WRITE, &dp, &sd));
  const uint8_t *sp[2] = {ap, bp};
  ptosim_status st = pt_te_stage(x, a, d, vr, vc, &sp[0], &copy[0]);
  if (st == PTOSIM_OK) st = pt_te_stage(x, b, d, vr, vc, &sp[1], &copy[1]);
  float s = pt_te_scalar_of(p->scalar, PTOSIM_DT_F32).f;
  for (int64_t r = 0; r < vr && st == PTOSIM_OK; r++)
    adr_row(sp[0] + r * sa, sp[1] + r * sb, dp + r * sd, a2 ? ap + r * sa : NULL, a2 ? bp + r * sb : NULL,
            a2 ? tp + r * tst : NULL, s, vc);
  free(copy[0]);
  free(copy[1]);
  if (st == PTOSIM_OK) pt_record_work(x, (uint64_t)(vr * vc), PTOSIM_DT_I32);
  return st;
}
