/* Elementwise vector tile ops (src/isa/tile_elem.c, tile_cvt.c) against an independent
 * reference: every element computed in double (integers in 64 bits) from the formula of the
 * op's page and rounded to the element type by round_to() below (frexp / nearbyint, not the
 * simulator's converters), one rounding per instruction step as docs/spec-notes.md section 14
 * states. Each case fills the whole UB with random bytes, runs the op on tiles whose valid
 * region is smaller than the tile, and compares the whole UB, so bytes outside dst's valid
 * region must be untouched. Every op runs on both targets over every element type: a type
 * the op refuses must be refused with <op>.dtype, and the types each page lists must be
 * accepted (`must`). Then the negative rules, tcvt's pairs / roundings / saturation, and
 * the text forms through ptosim_program_run. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x9E3779B97F4A7C15ull;
static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

/* ---- reference arithmetic --------------------------------------------------------------- */

static int is_flt(ptosim_dtype t) { return t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16; }
static unsigned esz(ptosim_dtype t) { return pt_dtype_size(t); }

/* v rounded to nearest even with p significant bits, normal exponents from emin, max finite
 * fmax (beyond: inf). */
static double round_bits(double v, int p, int emin, double fmax) {
  if (v == 0 || isnan(v) || isinf(v)) return v;
  int e;
  frexp(v, &e); /* |v| = m 2^e, m in [0.5, 1) */
  int q = (e - 1 < emin ? emin : e - 1) - (p - 1);
  double r = ldexp(nearbyint(ldexp(v, -q)), q);
  return fabs(r) > fmax ? copysign(INFINITY, v) : r;
}

static double round_to(double v, ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_F16: return round_bits(v, 11, -14, 65504.0);
    case PTOSIM_DT_BF16: return round_bits(v, 8, -126, 0x1.FEp127);
    default: return round_bits(v, 24, -126, 0x1.FFFFFEp127);
  }
}

/* Bits of float value v in t (NaN: the positive quiet NaN), and back. */
static uint64_t fbits(double v, ptosim_dtype t) {
  if (isnan(v)) return t == PTOSIM_DT_F32 ? 0x7FC00000u : t == PTOSIM_DT_F16 ? 0x7E00u : 0x7FC0u;
  uint8_t b[4];
  pt_store_from_f32(t, b, (float)round_to(v, t), PT_RND_RINT, PT_SAT_OFF); /* exact: already representable */
  uint64_t u = 0;
  memcpy(&u, b, esz(t));
  return u;
}
static double fval(uint64_t bits, ptosim_dtype t) { return pt_load_as_f32(t, &bits); }

/* Integer bits of t: value v wrapped to the width; and the value of bits. */
static uint64_t ibits(int64_t v, ptosim_dtype t) {
  unsigned w = 8 * esz(t);
  return w == 64 ? (uint64_t)v : (uint64_t)v & ((1ull << w) - 1);
}
static int64_t ival(uint64_t bits, ptosim_dtype t) { return pt_load_int(t, &bits); }

/* ---- ops under test --------------------------------------------------------------------- */

typedef enum shape { UN, BIN, TER, SCA, SCT, AXPY, DUP, BIND } shape;

typedef struct top {
  ptosim_opcode op;
  const char *name;
  shape sh;
  int tmp;
  unsigned must[2]; /* element types the page / NPU code lists, per target: must be accepted */
} top;

#define BT(t) (1u << PTOSIM_DT_##t)
#define FF (BT(F32) | BT(F16))
#define A2AR (FF | BT(I16) | BT(I32))
#define A5AR (FF | BT(BF16) | BT(I8) | BT(U8) | BT(I16) | BT(U16) | BT(I32) | BT(U32))
#define BITS (BT(I16) | BT(U16) | BT(I32) | BT(U32))
#define BITS8 (BITS | BT(I8) | BT(U8))
#define I64S (BT(I64) | BT(U64))
#define FLT3 (FF | BT(BF16))

static const top ops[] = {
    {PTOSIM_OP_tadd, "tadd", BIN, 0, {A2AR, A5AR}},       {PTOSIM_OP_tsub, "tsub", BIN, 0, {A2AR, A5AR}},
    {PTOSIM_OP_tmul, "tmul", BIN, 0, {A2AR, FF | BT(BF16) | BT(I32)}},
    {PTOSIM_OP_tdiv, "tdiv", BIN, 0, {FF, FF}},           {PTOSIM_OP_tmax, "tmax", BIN, 0, {A2AR, A5AR}},
    {PTOSIM_OP_tmin, "tmin", BIN, 0, {A2AR, A5AR}},       {PTOSIM_OP_tand, "tand", BIN, 0, {BITS8, BITS8}},
    {PTOSIM_OP_tor, "tor", BIN, 0, {BITS8, BITS8}},       {PTOSIM_OP_txor, "txor", BIN, 1, {BITS8, BITS8}},
    {PTOSIM_OP_tshl, "tshl", BIN, 0, {BITS, BITS}},       {PTOSIM_OP_tshr, "tshr", BIN, 0, {BITS, BITS}},
    {PTOSIM_OP_tfmod, "tfmod", BIN, 0, {BT(F32), FF}},    {PTOSIM_OP_trem, "trem", BIN, 1, {BT(F32), FF}},
    {PTOSIM_OP_tprelu, "tprelu", BIN, 1, {FF, FF}},       {PTOSIM_OP_taddrelu, "taddrelu", BIN, 0, {FF, FF}},
    {PTOSIM_OP_tsubrelu, "tsubrelu", BIN, 0, {FF, FF}},   {PTOSIM_OP_taddc, "taddc", TER, 0, {A2AR, A5AR}},
    {PTOSIM_OP_tsubc, "tsubc", TER, 0, {A2AR, A5AR}},     {PTOSIM_OP_tfusedmuladd, "tfusedmuladd", BIND, 0, {FF, FF}},
    {PTOSIM_OP_tfusedmuladdrelu, "tfusedmuladdrelu", BIND, 0, {FF, FF}},
    {PTOSIM_OP_tmuladddst, "tmuladddst", BIND, 0, {FF, FF}},
    {PTOSIM_OP_tadds, "tadds", SCA, 0, {A2AR, A5AR}},     {PTOSIM_OP_tsubs, "tsubs", SCA, 0, {A2AR, A5AR}},
    {PTOSIM_OP_tmuls, "tmuls", SCA, 0, {A2AR, FF | BT(BF16) | BT(I32)}},
    {PTOSIM_OP_tdivs, "tdivs", SCA, 0, {FF, FF}},         {PTOSIM_OP_tmaxs, "tmaxs", SCA, 0, {A2AR, A5AR}},
    {PTOSIM_OP_tmins, "tmins", SCA, 0, {A2AR, A5AR}},     {PTOSIM_OP_tands, "tands", SCA, 0, {BITS8, BITS8}},
    {PTOSIM_OP_tors, "tors", SCA, 0, {BITS8, BITS8}},     {PTOSIM_OP_txors, "txors", SCA, 1, {BITS8, BITS8}},
    {PTOSIM_OP_tshls, "tshls", SCA, 0, {BITS, BITS}},     {PTOSIM_OP_tshrs, "tshrs", SCA, 0, {BITS, BITS}},
    {PTOSIM_OP_tfmods, "tfmods", SCA, 0, {BT(F32), FF}},  {PTOSIM_OP_trems, "trems", SCA, 1, {BT(F32), FF}},
    {PTOSIM_OP_tlrelu, "tlrelu", SCA, 0, {FF, FF}},       {PTOSIM_OP_taddsc, "taddsc", SCT, 0, {A2AR, A5AR}},
    {PTOSIM_OP_tsubsc, "tsubsc", SCT, 0, {A2AR, A5AR}},   {PTOSIM_OP_taxpy, "taxpy", AXPY, 0, {FF, FF}},
    {PTOSIM_OP_tabs, "tabs", UN, 0, {FF, FF | BT(I32)}},  {PTOSIM_OP_tneg, "tneg", UN, 0, {A2AR, FF | BT(BF16) | BITS | I64S}},
    {PTOSIM_OP_tnot, "tnot", UN, 0, {BITS8, BITS8}},        {PTOSIM_OP_texp, "texp", UN, 0, {FF, FF}},
    {PTOSIM_OP_tlog, "tlog", UN, 0, {FF, FF}},            {PTOSIM_OP_tsqrt, "tsqrt", UN, 0, {FF, FF}},
    {PTOSIM_OP_trsqrt, "trsqrt", UN, 0, {FF, FF}},        {PTOSIM_OP_trecip, "trecip", UN, 0, {FF, FF}},
    {PTOSIM_OP_trelu, "trelu", UN, 0, {FF | BT(I32), FF | BT(I32)}},
    {PTOSIM_OP_texpands, "texpands", DUP, 0, {FF | BT(BF16) | BT(I32) | BT(I16) | BT(I8), A5AR}},
};

/* Inputs of one element: x = src0, y = src1 (or the old dst for AXPY), z = src2 (or the old
 * dst for BIND), s = the scalar, all as values of the element type. */
typedef struct in {
  double x, y, z, s;
  int64_t ix, iy, iz, is;
} in;

static double relu(double v) { return v > 0 ? v : 0; }
static double fmx(double a, double b, int mx) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return (signbit(a) != 0) == mx ? b : a; /* max: +0 over -0; min: -0 */
  return (a > b) == mx ? a : b;
}

/* a b + c of f32 values rounded once to f32 (fused): p = a b is exact in a double (48 bits),
 * s + e = p + c exactly (two-sum); s rounded to f32 is the answer unless s lies halfway
 * between two f32 values and e != 0, when e's sign picks the side. */
static double fma32_ref(double a, double b, double c) {
  double p = a * b, s = p + c;
  if (!isfinite(s)) return s;
  double t = s - p, e = (p - (s - t)) + (c - t);
  double r = round_to(s, PTOSIM_DT_F32);
  if (e == 0 || r == s || isinf(r)) return r;
  double other = round_to(2 * s - r, PTOSIM_DT_F32); /* the f32 neighbour across s, if s is a tie */
  if (fabs(s - r) != fabs(other - s)) return r;
  return (e > 0) == (other > r) ? other : r;
}

/* Result value of op o on floats of type t on target tg; tr: tolerance in ulps (transcendentals). */
static double ref_f(const top *o, ptosim_target tg, ptosim_dtype t, const in *v, int *tol) {
#define R(e) round_to((e), t)
  double x = v->x, y = v->y, z = v->z, s = v->s;
  *tol = 0;
  switch (o->op) {
    case PTOSIM_OP_tadd: case PTOSIM_OP_tadds: return x + (o->sh == SCA ? s : y);
    case PTOSIM_OP_tsub: case PTOSIM_OP_tsubs: return x - (o->sh == SCA ? s : y);
    case PTOSIM_OP_tmul: case PTOSIM_OP_tmuls: return x * (o->sh == SCA ? s : y);
    case PTOSIM_OP_tdiv: case PTOSIM_OP_tdivs: return x / (o->sh == SCA ? s : y);
    case PTOSIM_OP_tmax: case PTOSIM_OP_tmaxs: return fmx(x, o->sh == SCA ? s : y, 1);
    case PTOSIM_OP_tmin: case PTOSIM_OP_tmins: return fmx(x, o->sh == SCA ? s : y, 0);
    case PTOSIM_OP_tfmod: case PTOSIM_OP_tfmods: { /* f32 steps: q = x/y, trunc, *, -; f16 (A5): to f16 */
      double d = o->sh == SCA ? s : y, q = trunc(round_to(x / d, PTOSIM_DT_F32));
      double r = round_to(x - round_to(q * d, PTOSIM_DT_F32), PTOSIM_DT_F32);
      return t == PTOSIM_DT_F16 ? pt_f16_rz_sat_ref(r) : r;
    }
    case PTOSIM_OP_trem: case PTOSIM_OP_trems: { /* floor in place of trunc, then the sign fix on t */
      double d = o->sh == SCA ? s : y, q = floor(round_to(x / d, PTOSIM_DT_F32));
      double r = round_to(x - round_to(q * d, PTOSIM_DT_F32), PTOSIM_DT_F32);
      if (t == PTOSIM_DT_F16) r = pt_f16_rz_sat_ref(r);
      if (o->op == PTOSIM_OP_trems && tg == PTOSIM_TARGET_A5) return r; /* a5 TRemS: no sign fix */
      return round_to(d * r, t) < 0 ? r + d : r;
    }
    case PTOSIM_OP_tprelu: return x > 0 ? x : x * y;
    case PTOSIM_OP_tlrelu: return x > 0 ? x : x * s;
    case PTOSIM_OP_taddrelu: return relu(x + y);
    case PTOSIM_OP_tsubrelu: return relu(x - y);
    case PTOSIM_OP_taddc: return R(x + y) + z;
    case PTOSIM_OP_tsubc: return R(x - y) + z;
    case PTOSIM_OP_taddsc: return R(x + s) + y;
    case PTOSIM_OP_tsubsc: return R(x - s) + y;
    case PTOSIM_OP_taxpy: /* A5 vaxpy in f32; A2/A3 the product rounded to t first */
      return tg == PTOSIM_TARGET_A5 ? round_to(y + round_to(x * s, PTOSIM_DT_F32), PTOSIM_DT_F32) : y + R(x * s);
    /* vmadd / vmla / vmula: fused, one rounding to f32 (then the store's to t) */
    case PTOSIM_OP_tfusedmuladd: return fma32_ref(x, z, y);
    case PTOSIM_OP_tfusedmuladdrelu: return relu(R(fma32_ref(x, z, y)));
    case PTOSIM_OP_tmuladddst: return fma32_ref(x, y, z);
    case PTOSIM_OP_tabs: return fabs(x);
    case PTOSIM_OP_tneg: return -x;
    case PTOSIM_OP_texp: *tol = 1; return exp(x);
    case PTOSIM_OP_tlog: *tol = 1; return x < 0 ? NAN : log(x);
    case PTOSIM_OP_tsqrt: return x < 0 ? NAN : sqrt(x);
    case PTOSIM_OP_trsqrt: return x < 0 ? NAN : 1.0 / R(sqrt(x));
    case PTOSIM_OP_trecip: return 1.0 / x;
    case PTOSIM_OP_trelu: return relu(x);
    case PTOSIM_OP_texpands: return s;
    default: return NAN;
  }
#undef R
}

/* Shift of x by count c at width w: counts >= w shift every bit out. */
static int64_t shl(int64_t x, uint64_t c, unsigned w) { return c >= w ? 0 : (int64_t)((uint64_t)x << c); }
static int64_t shr(int64_t x, uint64_t c, unsigned w, int sgn) {
  if (c >= w) return sgn && x < 0 ? -1 : 0;
  if (sgn) return x < 0 ? ~(~x >> c) : x >> c;
  return (int64_t)((uint64_t)x >> c);
}

static int64_t ref_i(const top *o, ptosim_dtype t, const in *v) {
  int64_t x = v->ix, y = o->sh == SCA ? v->is : v->iy, z = v->iz;
  unsigned w = 8 * esz(t);
  /* the count: y's unsigned value; the 64-bit types (A5 Int64ShiftRegs) take it mod 64 */
  uint64_t cnt = (uint64_t)y & (w == 64 ? 63 : (1ull << w) - 1);
  int sgn = pt_dtype_is_signed_int(t);
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  switch (o->op) {
    case PTOSIM_OP_tadd: case PTOSIM_OP_tadds: return (int64_t)(ux + uy);
    case PTOSIM_OP_tsub: case PTOSIM_OP_tsubs: return (int64_t)(ux - uy);
    case PTOSIM_OP_tmul: case PTOSIM_OP_tmuls: return (int64_t)(ux * uy);
    case PTOSIM_OP_tmax: case PTOSIM_OP_tmaxs: return (sgn ? x > y : ux > uy) ? x : y;
    case PTOSIM_OP_tmin: case PTOSIM_OP_tmins: return (sgn ? x < y : ux < uy) ? x : y;
    case PTOSIM_OP_tand: case PTOSIM_OP_tands: return x & y;
    case PTOSIM_OP_tor: case PTOSIM_OP_tors: return x | y;
    case PTOSIM_OP_txor: case PTOSIM_OP_txors: return x ^ y;
    case PTOSIM_OP_tshl: case PTOSIM_OP_tshls: return shl(x, cnt, w);
    case PTOSIM_OP_tshr: case PTOSIM_OP_tshrs: return shr(x, cnt, w, sgn);
    case PTOSIM_OP_taddrelu: { int64_t r = ival(ibits((int64_t)(ux + uy), t), t); return r > 0 ? r : 0; }
    case PTOSIM_OP_tsubrelu: { int64_t r = ival(ibits((int64_t)(ux - uy), t), t); return r > 0 ? r : 0; }
    case PTOSIM_OP_taddc: return (int64_t)(ux + uy + (uint64_t)z);
    case PTOSIM_OP_tsubc: return (int64_t)(ux - uy + (uint64_t)z);
    case PTOSIM_OP_taddsc: return (int64_t)(ux + (uint64_t)v->is + (uint64_t)v->iy);
    case PTOSIM_OP_tsubsc: return (int64_t)(ux - (uint64_t)v->is + (uint64_t)v->iy);
    case PTOSIM_OP_tabs: return x < 0 ? (int64_t)(0 - ux) : x;
    case PTOSIM_OP_tneg: return (int64_t)(0 - ux);
    case PTOSIM_OP_tnot: return ~x;
    case PTOSIM_OP_trelu: return x > 0 ? x : 0;
    case PTOSIM_OP_texpands: return v->is;
    default: return 0;
  }
}

/* ---- one case: tiles, UB image, run, compare ------------------------------------------- */

static ptosim_tile nd(ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc) {
  ptosim_tile x = {.space = PTOSIM_UB, .addr = addr, .dtype = t, .rows = rows, .cols = cols, .valid_rows = vr,
                   .valid_cols = vc, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  return x;
}

/* A random value of type t as bits: floats from a mix of specials, small integers and
 * random normal numbers; integers random bits (shift counts mostly in range). */
static uint64_t rnd_bits(ptosim_dtype t, int shift_count) {
  uint64_t r = pt_rand_u64(&seed);
  if (!is_flt(t)) return shift_count ? (r % (8 * esz(t) + 3)) : ibits((int64_t)r, t);
  static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-7, -3.0, 2.5, 65504.0, 1e30};
  unsigned k = (unsigned)(r >> 40) % 16;
  if (k == 15) { /* a NaN of either sign with a random payload (quiet or signaling) */
    unsigned w = 8 * esz(t), m = t == PTOSIM_DT_F32 ? 23 : t == PTOSIM_DT_F16 ? 10 : 7;
    uint64_t sign = (r >> 20 & 1) << (w - 1), expo = ((1ull << (w - 1 - m)) - 1) << m;
    return sign | expo | (r & ((1ull << m) - 1)) | 1;
  }
  double v = k < 10 ? special[k] : k < 12 ? (double)(int)(r % 17) - 8 : ldexp((double)(r % 1000003) - 500001, (int)(r >> 50) % 12 - 16);
  return fbits(v, t);
}

typedef struct ucase {
  ptosim_machine *m;
  ptosim_core *c;
  size_t cap;
  uint8_t *img;
} ucase;

static ucase ub_new(ptosim_target tg) {
  ucase u;
  u.m = ptosim_machine_new(tg, 1);
  u.c = ptosim_core_of(u.m, 0, PTOSIM_AIV0);
  u.cap = (size_t)ptosim_space_capacity(u.m, PTOSIM_UB);
  u.img = malloc(u.cap);
  for (size_t i = 0; i < u.cap; i++) u.img[i] = (uint8_t)pt_rand_u64(&seed);
  CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
  return u;
}

static void put(uint8_t *img, const ptosim_tile *t, int r, int c, uint64_t bits) {
  memcpy(img + t->addr + ((uint64_t)r * (uint64_t)t->cols + (uint64_t)c) * esz(t->dtype), &bits, esz(t->dtype));
}
static uint64_t get(const uint8_t *img, const ptosim_tile *t, int r, int c) {
  uint64_t b = 0;
  memcpy(&b, img + t->addr + ((uint64_t)r * (uint64_t)t->cols + (uint64_t)c) * esz(t->dtype), esz(t->dtype));
  return b;
}

/* Distance in ulps of two float bit patterns of t (NaN equal to NaN only). */
static uint64_t ulps(uint64_t a, uint64_t b, ptosim_dtype t) {
  double x = fval(a, t), y = fval(b, t);
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y) ? 0 : UINT64_MAX;
  unsigned w = 8 * esz(t);
  int64_t sa = (a >> (w - 1)) ? -(int64_t)(a & ((1ull << (w - 1)) - 1)) : (int64_t)a;
  int64_t sb = (b >> (w - 1)) ? -(int64_t)(b & ((1ull << (w - 1)) - 1)) : (int64_t)b;
  return (uint64_t)(sa > sb ? sa - sb : sb - sa);
}

/* The bitwise ops (the last one, texpands, only for pairs_pad). */
static const ptosim_opcode bitwise_ops[] = {PTOSIM_OP_tand,  PTOSIM_OP_tor,  PTOSIM_OP_txor,  PTOSIM_OP_tnot,
                                            PTOSIM_OP_tands, PTOSIM_OP_tors, PTOSIM_OP_txors, PTOSIM_OP_texpands};
static int is_op_in(const top *o, size_t n) {
  int hit = 0;
  for (size_t i = 0; i < n; i++) hit |= o->op == bitwise_ops[i];
  return hit;
}
static int bitwise(const top *o) { return is_op_in(o, 7); }

/* 1 where A2/A3 computes the byte after an odd valid count: its 8-bit tand / tor / txor / tnot,
 * scalar forms and texpands run on 16-bit lanes, ceil(vc / 2) a row (a2a3 TAnd.hpp B82B16Trait). */
static int pairs_pad(const top *o, ptosim_target tg, ptosim_dtype t, int vc, int cols) {
  return is_op_in(o, 8) && tg == PTOSIM_TARGET_A2A3 && esz(t) == 1 && vc % 2 && vc < cols;
}

/* Run op o on dtype t, target tg, tiles rows x cols with valid vr x vc; returns whether the
 * op accepted the type (refusals checked against <op>.dtype). */
static int op_case(const top *o, ptosim_target tg, ptosim_dtype t, int rows, int cols, int vr, int vc) {
  ucase u = ub_new(tg);
  unsigned e = esz(t);
  uint64_t tb = (uint64_t)rows * (uint64_t)cols * e, stride = (tb + 255) / 256 * 256;
  ptosim_tile a = nd(t, 0, rows, cols, vr, vc), b = nd(t, stride, rows, cols, vr, vc);
  ptosim_tile c = nd(t, 2 * stride, rows, cols, vr, vc), d = nd(t, 3 * stride, rows, cols, vr, vc);
  ptosim_telem_params p = {.dst = d, .src0 = a, .src1 = b, .src2 = c, .tmp = nd(t, 4 * stride, rows, cols, rows, cols)};
  int shifts = o->op == PTOSIM_OP_tshl || o->op == PTOSIM_OP_tshr || o->op == PTOSIM_OP_tshls || o->op == PTOSIM_OP_tshrs;
  uint64_t sbits = rnd_bits(t, shifts);
  while (is_flt(t) && bitwise(o) && isnan(fval(sbits, t))) sbits = rnd_bits(t, 0); /* a NaN scalar's payload is not kept */
  p.scalar.dtype = t == PTOSIM_DT_BF16 || t == PTOSIM_DT_F16 ? PTOSIM_DT_F32 : t; /* f32 scalars on 16-bit floats */
  p.scalar.bits = is_flt(t) && t != PTOSIM_DT_F32 ? fbits(fval(sbits, t), PTOSIM_DT_F32) : sbits;
  for (int r = 0; r < rows; r++)
    for (int k = 0; k < cols; k++) {
      put(u.img, &a, r, k, rnd_bits(t, 0));
      put(u.img, &b, r, k, rnd_bits(t, shifts));
      put(u.img, &c, r, k, rnd_bits(t, 0));
    }
  CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
  uint8_t *want = malloc(u.cap);
  memcpy(want, u.img, u.cap);
  int tol = 0;
  for (int r = 0; r < vr; r++)
    for (int k = 0; k < vc + pairs_pad(o, tg, t, vc, cols); k++) {
      in v = {0};
      uint64_t bx = get(u.img, &a, r, k), by = get(u.img, o->sh == AXPY ? &d : &b, r, k);
      uint64_t bz = get(u.img, o->sh == BIND ? &d : &c, r, k);
      if (is_flt(t) && bitwise(o)) { /* A5 on the bits, as the unsigned type of the width */
        uint64_t y = o->sh == SCA ? sbits : by;
        put(want, &d, r, k, o->op == PTOSIM_OP_tand || o->op == PTOSIM_OP_tands ? bx & y : o->op == PTOSIM_OP_txors ? bx ^ y : bx | y);
      } else if (is_flt(t)) {
        v.x = fval(bx, t), v.y = fval(by, t), v.z = fval(bz, t), v.s = fval(sbits, t);
        if (o->op == PTOSIM_OP_tabs) /* vabs clears the sign bit, a NaN's payload kept */
          put(want, &d, r, k, bx & ((1ull << (8 * esz(t) - 1)) - 1));
        else
          put(want, &d, r, k, fbits(ref_f(o, tg, t, &v, &tol), t));
      } else {
        v.ix = ival(bx, t), v.iy = ival(by, t), v.iz = ival(bz, t), v.is = ival(sbits, t);
        put(want, &d, r, k, ibits(ref_i(o, t, &v), t));
      }
    }
  ptosim_status st = ptosim_exec(u.c, o->op, &p, NULL);
  int accepted = st == PTOSIM_OK;
  uint8_t *got = malloc(u.cap);
  CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
  if (!accepted) {
    char rule[64];
    snprintf(rule, sizeof rule, "%s.dtype", o->name);
    CHECK_MSG(!strcmp(ptosim_last_diag(u.m)->rule, rule), "%s %s: %s [%s]", o->name, pt_dtype_name(t),
              ptosim_last_diag(u.m)->msg, ptosim_last_diag(u.m)->rule);
    CHECK(!memcmp(got, u.img, u.cap));
  } else {
    size_t bad = u.cap;
    for (size_t i = 0; i < u.cap && bad == u.cap; i++)
      if (got[i] != want[i]) bad = i;
    if (bad != u.cap && tol) { /* transcendentals: within tol ulps inside dst, exact elsewhere */
      bad = u.cap;
      for (int r = 0; r < vr; r++)
        for (int k = 0; k < vc; k++)
          if (ulps(get(got, &d, r, k), get(want, &d, r, k), t) > (uint64_t)tol) bad = d.addr;
      put(got, &d, 0, 0, 0), put(want, &d, 0, 0, 0);
      for (int r = 0; r < vr; r++)
        for (int k = 0; k < vc; k++) put(got, &d, r, k, get(want, &d, r, k));
      if (bad == u.cap && memcmp(got, want, u.cap)) bad = 0;
    }
    CHECK_MSG(bad == u.cap, "%s %s %s %dx%d valid %dx%d: byte 0x%zx got %02x want %02x", o->name,
              tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3", pt_dtype_name(t), rows, cols, vr, vc, bad,
              bad < u.cap ? got[bad] : 0, bad < u.cap ? want[bad] : 0);
  }
  free(got);
  free(want);
  free(u.img);
  ptosim_machine_free(u.m);
  return accepted;
}

static const ptosim_dtype all_types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16,
                                         PTOSIM_DT_I32, PTOSIM_DT_U32, PTOSIM_DT_I64, PTOSIM_DT_U64,
                                         PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};

/* Every op, target and type; the types of `must` accepted; tile 5 x (64 + 32 / es) with
 * valid 4 x (cols - 3) and a full-tile case. */
static int int_division(ptosim_opcode op) {
  return op == PTOSIM_OP_tdiv || op == PTOSIM_OP_tdivs || op == PTOSIM_OP_tfmod || op == PTOSIM_OP_tfmods ||
         op == PTOSIM_OP_trem || op == PTOSIM_OP_trems;
}

/* Ops whose whole type list was audited against the NPU headers (session 13): exactly these
 * types are accepted, [A2/A3, A5]. a2a3 TAnd / TOr / TNot take 1-, 2- and 4-byte integers
 * through B82B16Trait / B322B16Trait (no static_assert); a5 TAnd / TAndS / TOr / TOrS / TXorS
 * any 1- / 2- / 4-byte type (floats as their bits), TXor / TNot integers; tneg is TMULS(x, -1): TMulS's list;
 * a2a3 TShiftCheck (tshls / tshrs) 16 / 32-bit only. */
static const struct {
  ptosim_opcode op;
  unsigned set[2];
} exact[] = {
    {PTOSIM_OP_tand, {BITS8, BITS8 | FLT3}},   {PTOSIM_OP_tor, {BITS8, BITS8 | FLT3}}, {PTOSIM_OP_txor, {BITS8, BITS8}},
    {PTOSIM_OP_tnot, {BITS8, BITS8}},          {PTOSIM_OP_tands, {BITS8, BITS8 | FLT3}},
    {PTOSIM_OP_tors, {BITS8, BITS8 | FLT3}},   {PTOSIM_OP_txors, {BITS8, BITS8 | FLT3}},
    {PTOSIM_OP_tneg, {A2AR, FLT3 | BITS | I64S}},
    {PTOSIM_OP_tshls, {BITS, BITS8 | I64S}}, {PTOSIM_OP_tshrs, {BITS, BITS8 | I64S}},
};

/* Integer division (tdiv tdivs tfmod tfmods trem trems on integer types): tests/test_tile_intdiv.c. */
static void test_ops(void) {
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    for (int ti = 0; ti < 2; ti++) {
      unsigned got = 0;
      for (size_t k = 0; k < sizeof all_types / sizeof all_types[0]; k++) {
        ptosim_dtype t = all_types[k];
        if (int_division(ops[i].op) && !is_flt(t)) continue;
        int cols = 64 + 32 / (int)esz(t);
        int ok = op_case(&ops[i], targets[ti], t, 5, cols, 4, cols - 3);
        if (ok) op_case(&ops[i], targets[ti], t, 2, 32 / (int)esz(t), 2, 32 / (int)esz(t));
        if (ops[i].must[ti] >> t & 1u) CHECK_MSG(ok, "%s must accept %s on target %d", ops[i].name, pt_dtype_name(t), ti);
        got |= (unsigned)ok << t;
      }
      for (size_t j = 0; j < sizeof exact / sizeof exact[0]; j++)
        if (exact[j].op == ops[i].op)
          CHECK_MSG(got == exact[j].set[ti], "%s on target %d accepts types 0x%x, the header 0x%x", ops[i].name, ti, got,
                    exact[j].set[ti]);
    }
}

/* ---- tcvt ----------------------------------------------------------------------------- */

/* v rounded to an integer with mode m (ptosim_round_mode). */
static double rint_mode(double v, ptosim_round_mode m) {
  double t = trunc(v);
  switch (m) {
    case PTOSIM_RM_ROUND: return round(v);
    case PTOSIM_RM_FLOOR: return floor(v);
    case PTOSIM_RM_CEIL: return ceil(v);
    case PTOSIM_RM_TRUNC: return t;
    case PTOSIM_RM_ODD: return t == v || fmod(t, 2) != 0 ? t : t + copysign(1, v);
    default: return nearbyint(v);
  }
}

/* v rounded to float type t with mode m; overflow to inf where the mode rounds away. */
static double round_mode(double v, ptosim_dtype t, ptosim_round_mode m) {
  if (v == 0 || isnan(v) || isinf(v)) return v;
  int p = t == PTOSIM_DT_F16 ? 11 : t == PTOSIM_DT_BF16 ? 8 : 24, emin = t == PTOSIM_DT_F16 ? -14 : -126;
  double fmax = t == PTOSIM_DT_F16 ? 65504.0 : t == PTOSIM_DT_BF16 ? 0x1.FEp127 : 0x1.FFFFFEp127;
  int e;
  frexp(v, &e);
  int q = (e - 1 < emin ? emin : e - 1) - (p - 1);
  double r = ldexp(rint_mode(ldexp(v, -q), m), q);
  if (fabs(r) <= fmax) return r;
  int to_inf = m == PTOSIM_RM_FLOOR ? v < 0 : m == PTOSIM_RM_CEIL ? v > 0 : m != PTOSIM_RM_TRUNC && m != PTOSIM_RM_ODD;
  return to_inf ? copysign(INFINITY, v) : copysign(fmax, v);
}

/* The pairs whose absent sat_mode means OFF, as a table of (source, destination). */
static int narrowing(ptosim_dtype s, ptosim_dtype d) {
  static const ptosim_dtype off[][2] = {{PTOSIM_DT_F16, PTOSIM_DT_I8},  {PTOSIM_DT_F16, PTOSIM_DT_U8},
                                        {PTOSIM_DT_F32, PTOSIM_DT_I16}, {PTOSIM_DT_F16, PTOSIM_DT_I16},
                                        {PTOSIM_DT_I64, PTOSIM_DT_I32}, {PTOSIM_DT_I32, PTOSIM_DT_I16}};
  for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
    if (off[i][0] == s && off[i][1] == d) return 1;
  return 0;
}

/* Expected bits of tcvt of source bits b (type s) to d on target tg, with or without a tmp tile.
 * Saturation is ON when asked, when absent for a pair not in the narrowing list, and when
 * OFF is asked of A2/A3 without tmp for such a pair (that TCVT overload passes ON). A5 with
 * ON saturates f32 -> f16 / bf16 and integer -> no wider 16-bit float results too: +-inf
 * and overflows to +-max finite, NaN to 0. */
static uint64_t cvt_ref(uint64_t b, ptosim_dtype s, ptosim_dtype d, ptosim_round_mode m, ptosim_tsat_mode sat,
                        ptosim_target tg, int tmp) {
  int a5 = tg == PTOSIM_TARGET_A5, nar = narrowing(s, d);
  int on = sat == PTOSIM_TSAT_ON || (sat == PTOSIM_TSAT_DEFAULT && !nar) || (sat == PTOSIM_TSAT_OFF && !a5 && !tmp && !nar);
  double v = is_flt(s) ? fval(b, s) : (double)ival(b, s);
  if (is_flt(d)) {
    if (s == PTOSIM_DT_F32 && d == PTOSIM_DT_F32) return fbits(isinf(v) || isnan(v) ? v : rint_mode(v, m), d);
    if (!is_flt(s) && llabs(ival(b, s)) > (1ll << 52)) v = (double)ival(b, s); /* i64: exact enough below */
    double r = round_mode(v, d, m);
    int sat16 = a5 && on && esz(d) == 2 && (s == PTOSIM_DT_F32 || (!is_flt(s) && esz(s) >= 2));
    if (sat16 && isnan(r)) r = 0;
    if (sat16 && isinf(r)) r = copysign(d == PTOSIM_DT_F16 ? 65504.0 : 0x1.FEp127, r);
    return fbits(r, d);
  }
  if (isnan(v)) return 0;
  double r = is_flt(s) ? rint_mode(v, m) : v;
  int64_t lo = on ? pt_int_min(d) : INT64_MIN, hi = on ? pt_int_max(d) : INT64_MAX;
  int64_t iv = !is_flt(s) ? ival(b, s) : r >= 0x1p63 ? INT64_MAX : r < -0x1p63 ? INT64_MIN : (int64_t)r;
  return ibits(iv < lo ? lo : iv > hi ? hi : iv, d);
}

/* A conversion source value: floats near ties (k + 0.5), over the integer ranges, specials;
 * integers random bits. */
static uint64_t cvt_src(ptosim_dtype s) {
  uint64_t r = pt_rand_u64(&seed);
  if (!is_flt(s)) return ibits((int64_t)r >> (r & 31), s);
  unsigned k = (unsigned)(r >> 59);
  double v = k < 8 ? (double)(int)(r % 41) / 2 - 10 : k < 12 ? ldexp((double)(r % 100003) - 50001, (int)(r >> 40) % 20 - 4)
           : k < 14 ? (double)(int64_t)(r >> 20) : k == 14 ? NAN : INFINITY;
  if (r & 1) v = -v;
  return fbits(v, s);
}

/* Every pair on both targets, every rounding and saturation mode; refusals are tcvt.dtype;
 * the pairs of tcvt.md's table common to both targets are accepted. */
static void test_tcvt(void) {
  static const ptosim_round_mode modes[] = {PTOSIM_RM_NONE,  PTOSIM_RM_RINT,  PTOSIM_RM_ROUND, PTOSIM_RM_FLOOR,
                                            PTOSIM_RM_CEIL,  PTOSIM_RM_TRUNC, PTOSIM_RM_ODD,   PTOSIM_RM_CAST_RINT};
  static const struct { ptosim_dtype s, d; } must[] = {
      {PTOSIM_DT_F32, PTOSIM_DT_F16}, {PTOSIM_DT_F32, PTOSIM_DT_BF16}, {PTOSIM_DT_F32, PTOSIM_DT_I32},
      {PTOSIM_DT_F32, PTOSIM_DT_I16}, {PTOSIM_DT_F16, PTOSIM_DT_F32},  {PTOSIM_DT_BF16, PTOSIM_DT_F32},
      {PTOSIM_DT_F16, PTOSIM_DT_I8},  {PTOSIM_DT_I32, PTOSIM_DT_F32},  {PTOSIM_DT_I32, PTOSIM_DT_I16},
      {PTOSIM_DT_I64, PTOSIM_DT_I32}, {PTOSIM_DT_U8, PTOSIM_DT_F16},   {PTOSIM_DT_I16, PTOSIM_DT_F32}};
  int accepted[2][PTOSIM_DT_COUNT][PTOSIM_DT_COUNT] = {{{0}}};
  for (int ti = 0; ti < 2; ti++)
    for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++)
      for (size_t j = 0; j < sizeof all_types / sizeof all_types[0]; j++)
        for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++)
          for (int sat = 0; sat < 6; sat++) { /* sat % 3 the mode; sat / 3 with a tmp tile */
            ptosim_dtype s = all_types[i], d = all_types[j];
            ucase u = ub_new(targets[ti]);
            int cols = 64, vr = 3, vc = 61;
            ptosim_tile a = nd(s, 0, 4, cols, vr, vc), o = nd(d, 4096, 4, cols, vr, vc);
            for (int r = 0; r < 4; r++)
              for (int k = 0; k < cols; k++) put(u.img, &a, r, k, cvt_src(s));
            CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
            uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
            memcpy(want, u.img, u.cap);
            for (int r = 0; r < vr; r++)
              for (int k = 0; k < vc; k++)
                put(want, &o, r, k, cvt_ref(get(u.img, &a, r, k), s, d, modes[mi], (ptosim_tsat_mode)(sat % 3), targets[ti], sat / 3));
            ptosim_telem_params p = {.src0 = a, .dst = o, .rmode = modes[mi], .sat = (ptosim_tsat_mode)(sat % 3),
                                     .has_tmp = sat / 3, .tmp = nd(s, 8192, 4, cols, 4, cols)};
            ptosim_status st = ptosim_tcvt(u.c, &p);
            CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
            accepted[ti][s][d] = st == PTOSIM_OK;
            if (st != PTOSIM_OK) {
              CHECK(!strcmp(ptosim_last_diag(u.m)->rule, "tcvt.dtype") && !memcmp(got, u.img, u.cap));
            } else {
              size_t bad = 0;
              while (bad < u.cap && got[bad] == want[bad]) bad++;
              CHECK_MSG(bad == u.cap, "tcvt %s -> %s mode %d sat %d target %d: byte 0x%zx got %02x want %02x",
                        pt_dtype_name(s), pt_dtype_name(d), (int)modes[mi], sat, ti, bad, bad < u.cap ? got[bad] : 0,
                        bad < u.cap ? want[bad] : 0);
            }
            free(want);
            free(got);
            free(u.img);
            ptosim_machine_free(u.m);
          }
  for (int ti = 0; ti < 2; ti++)
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
      CHECK_MSG(accepted[ti][must[i].s][must[i].d], "tcvt %s -> %s refused on target %d", pt_dtype_name(must[i].s),
                pt_dtype_name(must[i].d), ti);
  CHECK(!accepted[0][PTOSIM_DT_U32][PTOSIM_DT_U8] && accepted[1][PTOSIM_DT_U32][PTOSIM_DT_U8]); /* A5-only source */
  CHECK(accepted[0][PTOSIM_DT_I32][PTOSIM_DT_F16] && !accepted[1][PTOSIM_DT_I32][PTOSIM_DT_F16]);
}

/* ---- negative rules ------------------------------------------------------------------- */

/* ok with one edit: the op is refused with `rule` and UB is unchanged. */
static void refuse(ptosim_target tg, ptosim_opcode op, const ptosim_telem_params *p, const char *rule) {
  ucase u = ub_new(tg);
  ptosim_status st = ptosim_exec(u.c, op, p, NULL);
  uint8_t *got = malloc(u.cap);
  CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
  CHECK_MSG(st != PTOSIM_OK && !strcmp(ptosim_last_diag(u.m)->rule, rule), "want [%s], got %d [%s] %s", rule, (int)st,
            ptosim_last_diag(u.m)->rule, ptosim_last_diag(u.m)->msg);
  CHECK(!memcmp(got, u.img, u.cap));
  free(got);
  free(u.img);
  ptosim_machine_free(u.m);
}

#define EDIT(...) (p = ok, __VA_ARGS__, &p)

static void test_rules(void) {
  ptosim_telem_params ok = {.src0 = nd(PTOSIM_DT_F32, 0, 4, 16, 4, 9), .src1 = nd(PTOSIM_DT_F32, 1024, 4, 16, 4, 9),
                            .dst = nd(PTOSIM_DT_F32, 2048, 4, 16, 4, 9), .tmp = nd(PTOSIM_DT_F32, 3072, 4, 16, 4, 16)},
                     p;
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tadd, EDIT(p.src1.space = PTOSIM_L1), "tadd.space");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tadd, EDIT(p.dst.blayout = PTOSIM_BL_COL_MAJOR, p.dst.rows = 8), "tadd.layout");
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_tmul, EDIT(p.src0.dtype = p.src1.dtype = p.dst.dtype = PTOSIM_DT_BF16), "tmul.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tsub, EDIT(p.src1.dtype = PTOSIM_DT_I32), "tsub.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tmax, EDIT(p.src1.valid_cols = 8), "tmax.valid");
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_texp, EDIT(p.src0.valid_rows = 3), "texp.valid");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_trem, EDIT(p.tmp.space = PTOSIM_L0C), "trem.space");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tadd, EDIT(p.dst.valid_cols = 17), "tile.valid");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tadd, EDIT(p.dst.cols = 12, p.dst.valid_cols = 9), "tile.align");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tadd, EDIT(p.dst.addr = 8), "mem.align");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tadd, EDIT(p.dst.addr = (1u << 30)), "mem.bounds");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcvt, EDIT(p.dst.dtype = PTOSIM_DT_U64), "tcvt.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcvt, EDIT(p.rmode = (ptosim_round_mode)9), "tcvt.mode");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcvt, EDIT(p.dst.dtype = PTOSIM_DT_F16, p.dst.valid_rows = 2), "tcvt.valid");
  ptosim_telem_params cmp = {.src0 = nd(PTOSIM_DT_F32, 0, 4, 16, 4, 9), .src1 = nd(PTOSIM_DT_F32, 1024, 4, 16, 4, 9),
                             .dst = nd(PTOSIM_DT_U8, 2048, 4, 32, 4, 2), .mask = nd(PTOSIM_DT_U8, 2048, 4, 32, 4, 2),
                             .tmp = nd(PTOSIM_DT_F32, 3072, 4, 16, 4, 16)};
  ok = cmp;
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcmp, EDIT(p.dst.dtype = PTOSIM_DT_I16), "tcmp.mask");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcmp, /* 300 u8 lanes: two 256-lane repeats = 64 bytes a row */
         EDIT(p.src0 = nd(PTOSIM_DT_U8, 0, 4, 320, 4, 300), p.src1 = nd(PTOSIM_DT_U8, 2048, 4, 320, 4, 300),
              p.dst.addr = 4096), "tcmp.mask");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcmp, EDIT(p.dst.valid_rows = 3), "tcmp.valid");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcmp, EDIT(p.src1.valid_cols = 8), "tcmp.valid");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcmp, EDIT(p.src1.dtype = PTOSIM_DT_I32), "tcmp.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcmp, EDIT(p.cmp = (ptosim_tcmp_mode)6), "tcmp.mode");
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_tcmps, EDIT(p.src0.dtype = PTOSIM_DT_I32, p.cmp = PTOSIM_TCMP_GT), "tcmps.mode");
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_tcmps, EDIT(p.src0 = nd(PTOSIM_DT_U8, 0, 4, 32, 4, 9)), "tcmps.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcmps, EDIT(p.dst.space = PTOSIM_L1), "tcmps.space");
  ok = cmp, ok.dst = ok.src1, ok.src1 = nd(PTOSIM_DT_F32, 3072, 4, 16, 4, 9);
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tsel, EDIT(p.mask.dtype = PTOSIM_DT_F16), "tsel.mask");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tsel, EDIT(p.mask.cols = 1, p.mask.valid_cols = 1), "tile.align");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tsel, EDIT(p.mask.rows = 3, p.mask.valid_rows = 3), "tsel.mask");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tsel, EDIT(p.src1.valid_rows = 2), "tsel.valid");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tsel, EDIT(p.src0.dtype = PTOSIM_DT_F16), "tsel.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tsel, EDIT(p.mask.space = PTOSIM_L1), "tsel.space");
  ok = cmp, ok.dst = ok.src1, ok.src1 = nd(PTOSIM_DT_F32, 3072, 4, 16, 4, 9);
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_tpow, EDIT(p.src0.dtype = p.src1.dtype = p.dst.dtype = PTOSIM_DT_F16), "tpow.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tpows, EDIT(p.src0.dtype = p.dst.dtype = PTOSIM_DT_I32, p.high_precision = true), "tpows.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tpow, EDIT(p.src1.valid_cols = 3), "tpow.valid");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tpow, EDIT(p.has_tmp = true, p.tmp.space = PTOSIM_L1), "tpow.space");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_taddreluconv, EDIT(p.dst.dtype = PTOSIM_DT_F32), "taddreluconv.dtype");
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_tsubreluconv, EDIT(p.dst.dtype = PTOSIM_DT_F16, p.src1.valid_rows = 3), "tsubreluconv.valid");
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_tsels, EDIT(p.src0 = nd(PTOSIM_DT_I8, 0, 4, 32, 4, 9), p.dst = nd(PTOSIM_DT_I8, 1024, 4, 32, 4, 9)), "tsels.dtype");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tcvt, EDIT(p.has_tmp = true, p.tmp.space = PTOSIM_L1), "tcvt.space");
}

/* In place (dst = src0), and dst overlapping a source shifted by one row: the result is
 * that of reading every source element first. */
static void test_overlap(void) {
  for (int shift = 0; shift < 2; shift++) {
    ucase u = ub_new(PTOSIM_TARGET_A5);
    ptosim_tile a = nd(PTOSIM_DT_I32, 0, 6, 8, 5, 8), d = nd(PTOSIM_DT_I32, (uint64_t)shift * 32, 6, 8, 5, 8);
    ptosim_telem_params p = {.src0 = a, .dst = d, .scalar = {PTOSIM_DT_I32, 7}};
    uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
    memcpy(want, u.img, u.cap);
    for (int r = 0; r < 5; r++)
      for (int k = 0; k < 8; k++) put(want, &d, r, k, ibits(ival(get(u.img, &a, r, k), PTOSIM_DT_I32) + 7, PTOSIM_DT_I32));
    CHECK(ptosim_tadds(u.c, &p) == PTOSIM_OK);
    CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
    CHECK_MSG(!memcmp(got, want, u.cap), "overlap shift %d", shift);
    free(want);
    free(got);
    free(u.img);
    ptosim_machine_free(u.m);
  }
}

/* ---- f16 rows: every f16 through tcvt both ways ---------------------------------------- */

/* tcvt f16 -> f32 of all 2^16 patterns (NaNs keep sign and payload: sign | 0x7F800000 |
 * m << 13), then f32 -> f16 of those values and of the points half an ulp above them (ties:
 * to even), against frexp-based rounding (round_to). The row loops convert whole chunks
 * (F16C where the host has it), so this covers both directions of that path. */
static void test_f16_rows(void) {
  enum { R = 64, C = 256, N = R * C };
  ucase u = ub_new(PTOSIM_TARGET_A5);
  ptosim_tile h = nd(PTOSIM_DT_F16, 0, R, C, R, C), f = nd(PTOSIM_DT_F32, 2 * N, R, C, R, C);
  static uint16_t in[N], back[N];
  static uint32_t out[N];
  for (int part = 0; part < 4; part++) {
    for (int i = 0; i < N; i++) in[i] = (uint16_t)(part * N + i);
    CHECK(ptosim_mem_write(u.c, PTOSIM_UB, h.addr, in, sizeof in) == PTOSIM_OK);
    ptosim_telem_params p = {.src0 = h, .dst = f};
    CHECK(ptosim_exec(u.c, PTOSIM_OP_tcvt, &p, NULL) == PTOSIM_OK);
    CHECK(ptosim_mem_read(u.c, PTOSIM_UB, f.addr, out, sizeof out) == PTOSIM_OK);
    int bad = 0;
    for (int i = 0; i < N && !bad; i++) {
      unsigned m = in[i] & 0x3FFu, e = in[i] >> 10 & 0x1Fu;
      double v = ldexp(e ? 1024.0 + m : m, (e ? (int)e : 1) - 25) * (in[i] >> 15 ? -1 : 1);
      uint32_t want = e == 31 && m ? (uint32_t)(in[i] & 0x8000u) << 16 | 0x7F800000u | m << 13
                      : e == 31    ? (uint32_t)(in[i] & 0x8000u) << 16 | 0x7F800000u
                                   : (uint32_t)fbits(v, PTOSIM_DT_F32);
      bad = out[i] != want;
      CHECK_MSG(!bad, "f16 %04x -> f32 %08x, want %08x", in[i], out[i], want);
    }
    for (int half = 0; half < 2; half++) { /* the values, then half an f16 ulp above them */
      for (int i = 0; i < N && half; i++) {
        float x;
        memcpy(&x, &out[i], 4);
        int ex;
        frexp(x, &ex);
        double ulp = ldexp(1, (ex - 1 < -14 ? -14 : ex - 1) - 10);
        if (isfinite(x)) x = (float)(x + ulp / 2);
        memcpy(&out[i], &x, 4);
      }
      p = (ptosim_telem_params){.src0 = f, .dst = h, .sat = PTOSIM_TSAT_OFF}; /* IEEE (A5's ON saturates) */
      CHECK(ptosim_mem_write(u.c, PTOSIM_UB, f.addr, out, sizeof out) == PTOSIM_OK);
      CHECK(ptosim_exec(u.c, PTOSIM_OP_tcvt, &p, NULL) == PTOSIM_OK);
      CHECK(ptosim_mem_read(u.c, PTOSIM_UB, h.addr, back, sizeof back) == PTOSIM_OK);
      for (int i = 0; i < N && !bad; i++) {
        float x;
        memcpy(&x, &out[i], 4);
        uint16_t want = isnan(x) ? 0x7E00 : (uint16_t)fbits(round_to(x, PTOSIM_DT_F16), PTOSIM_DT_F16);
        bad = back[i] != want;
        CHECK_MSG(!bad, "f32 %a -> f16 %04x, want %04x", x, back[i], want);
      }
    }
  }
  free(u.img);
  ptosim_machine_free(u.m);
}

/* ---- predicate tiles: tcmp / tcmps / tsel / tsels --------------------------------------- */

/* Bits a compare row covers on the NPU: whole vector repeats (a2a3: 256 bytes of source;
 * a5: 256 lanes of 8 bits, 128 of 16 bits, two 64-lane repeats of 32 bits). */
static int rep_bits(ptosim_target tg, ptosim_dtype t) {
  static const int a2[9] = {[2] = 128, [4] = 64}, a5[9] = {[1] = 256, [2] = 128, [4] = 128}; /* by element bytes */
  return (tg == PTOSIM_TARGET_A5 ? a5 : a2)[esz(t)];
}

static int cmp_ref(double x, double y, ptosim_tcmp_mode m) {
  switch (m) {
    case PTOSIM_TCMP_EQ: return x == y;
    case PTOSIM_TCMP_NE: return !(x == y);
    case PTOSIM_TCMP_LT: return x < y;
    case PTOSIM_TCMP_LE: return x <= y;
    case PTOSIM_TCMP_GT: return x > y;
    default: return x >= y;
  }
}

/* Bits of a random element, equal to `like` one time in four (so EQ / LE / GE see ties). */
static uint64_t rnd_like(ptosim_dtype t, uint64_t like) { return pt_rand_u64(&seed) % 4 == 0 ? like : rnd_bits(t, 0); }

/* The value compare bits b of t stand for; A2/A3 tcmps reads 16-bit integers as halves. */
static double cmp_val(uint64_t b, ptosim_dtype t, int as_half) {
  return as_half ? fval(b, PTOSIM_DT_F16) : is_flt(t) ? fval(b, t) : (double)ival(b, t);
}

/* tcmp (scalar 0) or tcmps on type t with mode m, src rows x cols valid vr x vc, dst an u8
 * tile 32 bytes wider than the repeats need. Returns whether the op accepted the type. */
static int cmp_case(int scalar, ptosim_target tg, ptosim_dtype t, ptosim_tcmp_mode m, int rows, int cols, int vr, int vc) {
  ucase u = ub_new(tg);
  ptosim_opcode op = scalar ? PTOSIM_OP_tcmps : PTOSIM_OP_tcmp;
  uint64_t stride = ((uint64_t)rows * (uint64_t)cols * esz(t) + 255) / 256 * 256;
  int g = rep_bits(tg, t), wbytes = g ? (vc + g - 1) / g * g / 8 : 0, mcols = (wbytes + 31) / 32 * 32 + 32;
  ptosim_tile a = nd(t, 0, rows, cols, vr, vc), b = nd(t, stride, rows, cols, vr, vc);
  ptosim_tile d = nd(PTOSIM_DT_U8, 2 * stride, rows, mcols, vr, (vc + 7) / 8);
  uint64_t sbits = rnd_bits(t, 0);
  ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d, .cmp = m, .scalar = {t, sbits}};
  for (int r = 0; r < rows; r++)
    for (int k = 0; k < cols; k++) {
      uint64_t x = rnd_like(t, sbits);
      put(u.img, &a, r, k, x);
      put(u.img, &b, r, k, rnd_like(t, x));
    }
  CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
  int half = scalar && tg == PTOSIM_TARGET_A2A3 && esz(t) == 2 && !is_flt(t);
  uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
  memcpy(want, u.img, u.cap);
  for (int r = 0; r < vr; r++)
    for (int k = 0; k < wbytes * 8; k++) {
      uint8_t *byte = want + d.addr + (uint64_t)r * (uint64_t)mcols + (uint64_t)k / 8;
      double x = cmp_val(get(u.img, &a, r, k), t, half), y = cmp_val(scalar ? sbits : get(u.img, &b, r, k), t, half);
      int bit = k < vc && cmp_ref(x, y, m);
      *byte = (uint8_t)((*byte & ~(1u << (k % 8))) | (unsigned)bit << (k % 8));
    }
  ptosim_status st = ptosim_exec(u.c, op, &p, NULL);
  CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
  int i32_order = tg == PTOSIM_TARGET_A2A3 && t == PTOSIM_DT_I32 && m > PTOSIM_TCMP_NE;
  int wide64 = tg == PTOSIM_TARGET_A5 && esz(t) == 8 && vc > 64; /* A5 64-bit rows: 64 columns (test_tile_cmp.c) */
  const char *rule = i32_order ? (scalar ? "tcmps.mode" : "tcmp.mode")
                     : wide64  ? (scalar ? "tcmps.cols" : "tcmp.cols")
                               : (scalar ? "tcmps.dtype" : "tcmp.dtype");
  if (st != PTOSIM_OK)
    CHECK_MSG(!strcmp(ptosim_last_diag(u.m)->rule, rule) && !memcmp(got, u.img, u.cap), "%s %s: %s [%s]",
              scalar ? "tcmps" : "tcmp", pt_dtype_name(t), ptosim_last_diag(u.m)->msg, ptosim_last_diag(u.m)->rule);
  else
    CHECK_MSG(!i32_order && !memcmp(got, want, u.cap), "%s %s mode %d target %d valid %dx%d", scalar ? "tcmps" : "tcmp",
              pt_dtype_name(t), (int)m, (int)tg, vr, vc);
  free(got);
  free(want);
  free(u.img);
  ptosim_machine_free(u.m);
  return st == PTOSIM_OK || i32_order;
}

/* tsel (scalar 0) or tsels on type t: a random mask selects src0 or src1 / the scalar. */
static int sel_case(int scalar, ptosim_target tg, ptosim_dtype t, int rows, int cols, int vr, int vc) {
  ucase u = ub_new(tg);
  uint64_t stride = ((uint64_t)rows * (uint64_t)cols * esz(t) + 255) / 256 * 256;
  ptosim_tile a = nd(t, 0, rows, cols, vr, vc), b = nd(t, stride, rows, cols, vr, vc);
  ptosim_tile d = nd(t, 2 * stride, rows, cols, vr, vc), mk = nd(PTOSIM_DT_U8, 3 * stride, rows, 32, vr, (vc + 7) / 8);
  uint64_t sbits;
  do sbits = rnd_bits(t, 0);
  while (is_flt(t) && isnan(fval(sbits, t))); /* a NaN scalar's payload is not the point here */
  ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d, .mask = mk, .has_tmp = !scalar,
                           .tmp = nd(t, 4 * stride, rows, cols, rows, cols)};
  p.scalar.dtype = is_flt(t) ? PTOSIM_DT_F32 : t;
  p.scalar.bits = is_flt(t) ? fbits(fval(sbits, t), PTOSIM_DT_F32) : sbits;
  uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
  memcpy(want, u.img, u.cap);
  for (int r = 0; r < vr; r++)
    for (int k = 0; k < vc; k++) {
      int bit = u.img[mk.addr + (uint64_t)r * 32 + (uint64_t)k / 8] >> (k % 8) & 1;
      put(want, &d, r, k, bit ? get(u.img, &a, r, k) : scalar ? sbits : get(u.img, &b, r, k));
    }
  ptosim_status st = ptosim_exec(u.c, scalar ? PTOSIM_OP_tsels : PTOSIM_OP_tsel, &p, NULL);
  CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
  int wide64 = tg == PTOSIM_TARGET_A5 && esz(t) == 8 && vc > 64; /* A5 64-bit rows: 64 columns (test_tile_cmp.c) */
  const char *rule = wide64 ? (scalar ? "tsels.cols" : "tsel.cols") : (scalar ? "tsels.dtype" : "tsel.dtype");
  if (st != PTOSIM_OK)
    CHECK_MSG(!strcmp(ptosim_last_diag(u.m)->rule, rule) && !memcmp(got, u.img, u.cap),
              "%s: %s", pt_dtype_name(t), ptosim_last_diag(u.m)->msg);
  else
    CHECK_MSG(!memcmp(got, want, u.cap), "%s %s target %d valid %dx%d", scalar ? "tsels" : "tsel", pt_dtype_name(t),
              (int)tg, vr, vc);
  free(got);
  free(want);
  free(u.img);
  ptosim_machine_free(u.m);
  return st == PTOSIM_OK;
}

static void test_pred(void) {
  /* element types the NPU code lists: [op][target], op = tcmp tcmps tsel tsels */
  static const unsigned must[4][2] = {
      {BT(I32) | FF, BT(I8) | BT(U8) | BT(I16) | BT(U16) | BT(I32) | BT(U32) | FF | BT(BF16)},
      {BT(I16) | BT(I32) | FF, BT(I8) | BT(I16) | BT(I32) | FF},
      {BITS | FF, BITS | FF | BT(I8) | BT(U8)},
      {BITS | FF, BITS | FF | BT(I8) | BT(U8)}};
  for (int ti = 0; ti < 2; ti++)
    for (size_t k = 0; k < sizeof all_types / sizeof all_types[0]; k++) {
      ptosim_dtype t = all_types[k];
      int cols = 64 + 32 / (int)esz(t), ok[4] = {1, 1, 1, 1};
      for (int m = PTOSIM_TCMP_EQ; m <= PTOSIM_TCMP_GE; m++)
        for (int sc = 0; sc < 2; sc++) {
          ok[sc] &= cmp_case(sc, targets[ti], t, (ptosim_tcmp_mode)m, 5, cols, 4, cols - 3);
          if (ok[sc]) cmp_case(sc, targets[ti], t, (ptosim_tcmp_mode)m, 2, 2 * cols, 2, 2 * cols); /* > 1 repeat */
        }
      for (int sc = 0; sc < 2; sc++) {
        ok[2 + sc] = sel_case(sc, targets[ti], t, 5, cols, 4, cols - 3);
        if (ok[2 + sc]) sel_case(sc, targets[ti], t, 3, 32 / (int)esz(t), 3, 32 / (int)esz(t));
      }
      for (int o = 0; o < 4; o++)
        CHECK_MSG(!(must[o][ti] >> t & 1u) || ok[o], "op %d must accept %s on target %d", o, pt_dtype_name(t), ti);
    }
}

/* ---- tpow / tpows ----------------------------------------------------------------------- */

static int odd_int(double e) { return isfinite(e) && fmod(e, 2.0) != 0 && fabs(fmod(e, 2.0)) == 1.0; }

/* pow(b, e) on floats as the pages and the NPU code of target tg define it: the core
 * exp(e * ln|b|) (core), then the special cases in the order a2a3 SwitchPowFResult / a5
 * ProcessFloatSpecialCase apply them. */
static double pow_ref(ptosim_target tg, double b, double e, double core) {
  int integral = isfinite(e) && floor(e) == e;
  if (tg == PTOSIM_TARGET_A2A3) {
    if (e == 0) return 1;
    if (b == 0) return e > 0 ? 0 : INFINITY;
    if (b == -1 && isinf(e)) return 1;
    if (integral) return b < 0 && odd_int(e) ? -core : core;
    return b < 0 || isnan(b) || isnan(e) ? NAN : core;
  }
  if (e == 0 || b == 1) return 1;
  if (isnan(b) || isnan(e)) return NAN;
  if (isinf(b) || b == 0) {
    double m = e < 0 ? (b == 0 ? INFINITY : 0.0) : fabs(b); /* |result| */
    return odd_int(e) && signbit(b) ? -m : m;
  }
  if (b == -1 && isinf(e)) return 1;
  if (b < 0) return !integral && !isinf(e) ? NAN : odd_int(e) ? -core : core;
  return core;
}

/* Integer b^e wrapped to t's width by repeated multiplication; a negative e (as the target
 * reads it): 1 for b = 1, (-1)^e for b = -1, else 0. */
static uint64_t powi_ref(ptosim_target tg, ptosim_dtype t, uint64_t bb, uint64_t eb) {
  int sgn = pt_dtype_is_signed_int(t) || (tg == PTOSIM_TARGET_A2A3 && esz(t) == 4);
  int64_t b = sgn ? (esz(t) == 4 && !pt_dtype_is_signed_int(t) ? (int32_t)bb : ival(bb, t)) : (int64_t)bb;
  int64_t e = sgn ? (esz(t) == 4 && !pt_dtype_is_signed_int(t) ? (int32_t)eb : ival(eb, t)) : (int64_t)eb;
  if (e < 0) return ibits(b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0, t);
  uint64_t r = 1, m = (uint64_t)b; /* b^e mod 2^64 by squaring: e may be near 2^32 */
  for (uint64_t k = (uint64_t)e; k; k >>= 1, m *= m)
    if (k & 1) r *= m;
  return ibits((int64_t)r, t);
}

/* tpow (scalar 0) or tpows on type t, DEFAULT or HIGH_PRECISION (hp): bases and exponents
 * from the special values crossed, then random ones. */
static void pow_case(int scalar, ptosim_target tg, ptosim_dtype t, int hp) {
  enum { R = 20, C = 64 };
  ucase u = ub_new(tg);
  int hp_used = hp && tg == PTOSIM_TARGET_A5; /* a2a3 TPOW_IMPL ignores the algorithm */
  uint64_t stride = (uint64_t)R * C * esz(t);
  ptosim_tile a = nd(t, 0, R, C, R - 1, C - 5), b = nd(t, stride, R, C, R - 1, C - 5), d = nd(t, 2 * stride, R, C, R - 1, C - 5);
  static const double sp[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 2.0, -2.0, 0.5, 3.0, -0.5, 1e30, -7.0};
  enum { NS = sizeof sp / sizeof sp[0] };
  uint64_t sbits = is_flt(t) ? fbits(sp[pt_rand_u64(&seed) % NS], t) : ibits((int64_t)(pt_rand_u64(&seed) % 12) - 2, t);
  for (int r = 0; r < R; r++)
    for (int k = 0; k < C; k++) {
      int i = r * C + k;
      uint64_t x, y, q = pt_rand_u64(&seed);
      if (is_flt(t) && i < NS * NS) x = fbits(sp[i / NS], t), y = fbits(sp[i % NS], t);
      else if (is_flt(t)) x = fbits(ldexp((double)(q % 2001) - 1000, -8), t), y = fbits((double)((int)(q >> 20) % 41 - 20) / 4, t);
      else {
        x = q % 3 ? ibits((int64_t)(q >> 8) % 9 - 4, t) : rnd_bits(t, 0);
        y = ibits((int64_t)((q >> 32) % 44) - 3, t); /* small; negative ones wrap for unsigned types */
        if (!pt_dtype_is_signed_int(t) && (esz(t) == 4 ? tg == PTOSIM_TARGET_A5 : 0) && (int64_t)((q >> 32) % 44) < 3) y = 7;
      }
      put(u.img, &a, r, k, x);
      put(u.img, &b, r, k, y);
    }
  CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
  ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d, .high_precision = hp != 0, .scalar = {t, sbits}};
  if (is_flt(t)) p.scalar = (ptosim_scalar){PTOSIM_DT_F32, fbits(fval(sbits, t), PTOSIM_DT_F32)};
  ptosim_status st = ptosim_exec(u.c, scalar ? PTOSIM_OP_tpows : PTOSIM_OP_tpow, &p, NULL);
  CHECK_MSG(st == PTOSIM_OK, "tpow %s: %s", pt_dtype_name(t), ptosim_last_diag(u.m)->msg);
  uint8_t *got = malloc(u.cap);
  CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
  int bad = 0;
  for (int r = 0; r < R && !bad; r++)
    for (int k = 0; k < C && !bad; k++) {
      uint64_t x = get(u.img, &a, r, k), y = scalar ? sbits : get(u.img, &b, r, k), g = get(got, &d, r, k), w;
      uint64_t tol = 0;
      if (r >= R - 1 || k >= C - 5) { /* outside the valid region: untouched */
        bad = g != get(u.img, &d, r, k);
        continue;
      }
      if (is_flt(t)) {
        double bx = fval(x, t), ey = fval(y, t), lg = round_to(log(fabs(bx)), PTOSIM_DT_F32);
        double core = hp_used ? pow(fabs(bx), ey) : exp(round_to(lg * ey, PTOSIM_DT_F32));
        w = fbits(round_to(pow_ref(tg, bx, ey, round_to(core, PTOSIM_DT_F32)), t), t);
        /* logf / expf are within an ulp: the error of ln|b| grows by |e ln b| through exp */
        tol = hp_used ? 1 : 2 + (uint64_t)fmin(fabs(ey * lg), 1 << 20);
      } else {
        w = powi_ref(tg, t, x, y);
      }
      bad = is_flt(t) ? ulps(g, w, t) > tol : g != w;
      CHECK_MSG(!bad, "%s %s %s hp %d: (%d, %d) %llx ^ %llx = %llx, want %llx", scalar ? "tpows" : "tpow",
                tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3", pt_dtype_name(t), hp, r, k, (unsigned long long)x,
                (unsigned long long)y, (unsigned long long)g, (unsigned long long)w);
    }
  free(got);
  free(u.img);
  ptosim_machine_free(u.m);
}

static void test_pow(void) {
  static const ptosim_dtype ints[] = {PTOSIM_DT_I8, PTOSIM_DT_U8, PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32};
  for (int ti = 0; ti < 2; ti++)
    for (int sc = 0; sc < 2; sc++) {
      for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) pow_case(sc, targets[ti], ints[k], 0);
      pow_case(sc, targets[ti], PTOSIM_DT_F32, 0);
      pow_case(sc, targets[ti], PTOSIM_DT_F32, 1);
    }
  for (int sc = 0; sc < 2; sc++) {
    pow_case(sc, PTOSIM_TARGET_A5, PTOSIM_DT_F16, 0);
    pow_case(sc, PTOSIM_TARGET_A5, PTOSIM_DT_BF16, 1);
  }
}

/* trem / trems where x - floor(x / y) y comes out with y's opposite sign: 3.3f / 1.1f rounds to 3,
 * r = 3.3f - 3 * 1.1f = -2^-22. The sign fix adds y (trem on both targets, trems on A2/A3); A5's
 * trems has none (a5 TRemS.hpp). */
static void test_rem_sign(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int sc = 0; sc < 2; sc++) {
      ucase u = ub_new(targets[ti]);
      ptosim_tile a = nd(PTOSIM_DT_F32, 0, 1, 8, 1, 8), b = nd(PTOSIM_DT_F32, 256, 1, 8, 1, 8), d = nd(PTOSIM_DT_F32, 512, 1, 8, 1, 8);
      float x = 3.3f, y = 1.1f, got;
      for (int k = 0; k < 8; k++) memcpy(u.img + 4 * k, &x, 4), memcpy(u.img + 256 + 4 * k, &y, 4);
      CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, 512) == PTOSIM_OK);
      ptosim_telem_params p = {.dst = d, .src0 = a, .src1 = b, .tmp = nd(PTOSIM_DT_F32, 1024, 1, 8, 1, 8)};
      p.scalar.dtype = PTOSIM_DT_F32, p.scalar.bits = fbits(y, PTOSIM_DT_F32);
      CHECK(ptosim_exec(u.c, sc ? PTOSIM_OP_trems : PTOSIM_OP_trem, &p, NULL) == PTOSIM_OK);
      CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 512, &got, 4) == PTOSIM_OK);
      float want = sc && targets[ti] == PTOSIM_TARGET_A5 ? -0x1p-22f : -0x1p-22f + 1.1f;
      CHECK_MSG(got == want, "%s on %d: %a, want %a", sc ? "trems" : "trem", ti, got, want);
      free(u.img);
      ptosim_machine_free(u.m);
    }
}

/* ---- taddreluconv / tsubreluconv ---------------------------------------------------------- */

/* convert(max(a +- b, 0)) from the page: the sum in the source type (exact, rounded once),
 * NaN -> 0, then nearest even with saturation to the destination's largest value. */
static uint64_t reluconv_ref(ptosim_dtype s, int sub, uint64_t xb, uint64_t yb) {
  if (s == PTOSIM_DT_I16) {
    int64_t v = ival(ibits(sub ? ival(xb, s) - ival(yb, s) : ival(xb, s) + ival(yb, s), s), s);
    return ibits(v < 0 ? 0 : v > 127 ? 127 : v, PTOSIM_DT_I8);
  }
  double v = round_to(sub ? fval(xb, s) - fval(yb, s) : fval(xb, s) + fval(yb, s), s);
  v = v > 0 ? v : 0;
  if (s == PTOSIM_DT_F32) return fbits(fmin(round_to(v, PTOSIM_DT_F16), 65504.0), PTOSIM_DT_F16);
  return ibits((int64_t)fmin(nearbyint(v), 127), PTOSIM_DT_I8);
}

static void test_reluconv(void) {
  static const ptosim_dtype pairs[][2] = {{PTOSIM_DT_F32, PTOSIM_DT_F16}, {PTOSIM_DT_F16, PTOSIM_DT_I8}, {PTOSIM_DT_I16, PTOSIM_DT_I8}};
  for (int ti = 0; ti < 2; ti++)
    for (int pi = 0; pi < 3; pi++)
      for (int sub = 0; sub < 2; sub++) {
        ptosim_dtype s = pairs[pi][0], dt = pairs[pi][1];
        int cols = 64, dcols = 32 / (int)esz(dt) > cols ? 32 / (int)esz(dt) : cols;
        ucase u = ub_new(targets[ti]);
        ptosim_tile a = nd(s, 0, 5, cols, 4, cols - 3), b = nd(s, 1024, 5, cols, 4, cols - 3);
        ptosim_tile d = nd(dt, 2048, 5, dcols, 4, cols - 3);
        for (int r = 0; r < 5; r++)
          for (int k = 0; k < cols; k++) {
            uint64_t q = pt_rand_u64(&seed);
            put(u.img, &a, r, k, s == PTOSIM_DT_I16 ? ibits((int64_t)(q % 400) - 200, s) : fbits(q % 4 ? (double)((int)(q >> 8) % 2001 - 1000) / 7 : 70000.0 * ((q >> 20) % 2 ? 1 : -1), s));
            put(u.img, &b, r, k, rnd_bits(s, 0));
          }
        CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
        uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
        memcpy(want, u.img, u.cap);
        for (int r = 0; r < 4; r++)
          for (int k = 0; k < cols - 3; k++) put(want, &d, r, k, reluconv_ref(s, sub, get(u.img, &a, r, k), get(u.img, &b, r, k)));
        ptosim_telem_params p = {.src0 = a, .src1 = b, .dst = d};
        ptosim_status st = ptosim_exec(u.c, sub ? PTOSIM_OP_tsubreluconv : PTOSIM_OP_taddreluconv, &p, NULL);
        CHECK_MSG(st == PTOSIM_OK, "%s", ptosim_last_diag(u.m)->msg);
        CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
        size_t bad = u.cap;
        for (size_t i = 0; i < u.cap && bad == u.cap; i++)
          if (got[i] != want[i]) bad = i;
        CHECK_MSG(bad == u.cap, "reluconv %s sub %d target %d: byte 0x%zx got %02x want %02x", pt_dtype_name(s), sub, ti,
                  bad, bad < u.cap ? got[bad] : 0, bad < u.cap ? want[bad] : 0);
        free(want), free(got), free(u.img);
        ptosim_machine_free(u.m);
      }
}

/* tadddeqrelu: d = f16(max(((f32(a + b) / 2^17) * s) * 2^17, 0)), every step an f32 rounding
 * (written here in double with a cast after each step); A2/A3 also leaves the scaled values
 * in src0, their ReLU in src1 and zeros in tmp. Scales with a subnormal middle step, negative
 * and large ones; sums that wrap around. */
static void test_adddeqrelu(void) {
  static const float scales[] = {0.000321f, -2.5f, 1e-34f, 30000.0f};
  for (int ti = 0; ti < 2; ti++)
    for (int si = 0; si < 4; si++) {
      ucase u = ub_new(targets[ti]);
      int vr = 4, vc = 61;
      ptosim_tile a = nd(PTOSIM_DT_I32, 0, 5, 64, vr, vc), b = nd(PTOSIM_DT_I32, 2048, 5, 64, vr, vc);
      ptosim_tile t = nd(PTOSIM_DT_I32, 4096, 5, 64, 5, 64), d = nd(PTOSIM_DT_F16, 6144, 5, 64, vr, vc);
      CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
      uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
      memcpy(want, u.img, u.cap);
      float sc = scales[si];
      for (int r = 0; r < vr; r++) /* small sums in half the lanes: 2^-17 s is subnormal for s = 1e-34 */
        for (int k = 0; k < vc; k += 2) put(u.img, &b, r, k, (uint32_t)((int32_t)(pt_rand_u64(&seed) % 2001) - 1000) - (uint32_t)get(u.img, &a, r, k));
      CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
      memcpy(want, u.img, u.cap);
      for (int r = 0; r < vr; r++)
        for (int k = 0; k < vc; k++) {
          int32_t sum = (int32_t)(uint32_t)(get(u.img, &a, r, k) + get(u.img, &b, r, k));
          double f = (float)sum;
          f = (float)(f / 131072.0);
          f = (float)(f * sc);
          f = (float)(f * 131072.0);
          double rl = f > 0 ? f : 0.0;
          put(want, &d, r, k, pt_f32_to_f16((float)rl, PT_RND_RINT, PT_SAT_OFF));
          if (targets[ti] == PTOSIM_TARGET_A5) continue;
          put(want, &a, r, k, fbits(f, PTOSIM_DT_F32));
          put(want, &b, r, k, fbits(rl, PTOSIM_DT_F32));
          put(want, &t, r, k, 0);
        }
      uint32_t sb;
      memcpy(&sb, &sc, 4);
      ptosim_telem_params p = {.src0 = a, .src1 = b, .tmp = t, .has_tmp = true, .dst = d, .scalar = {PTOSIM_DT_F32, sb}};
      ptosim_status st = ptosim_tadddeqrelu(u.c, &p);
      CHECK_MSG(st == PTOSIM_OK, "%s", ptosim_last_diag(u.m)->msg);
      CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
      size_t bad = u.cap;
      for (size_t i = 0; i < u.cap && bad == u.cap; i++)
        if (got[i] != want[i]) bad = i;
      CHECK_MSG(bad == u.cap, "tadddeqrelu scale %g target %d: byte 0x%zx got %02x want %02x", sc, ti, bad,
                bad < u.cap ? got[bad] : 0, bad < u.cap ? want[bad] : 0);
      free(want), free(got), free(u.img);
      ptosim_machine_free(u.m);
    }
  ptosim_telem_params p = {.src0 = nd(PTOSIM_DT_I32, 0, 4, 64, 4, 64), .src1 = nd(PTOSIM_DT_I32, 2048, 4, 64, 4, 64),
                           .tmp = nd(PTOSIM_DT_I32, 4096, 4, 64, 4, 64), .dst = nd(PTOSIM_DT_F32, 6144, 4, 64, 4, 64)};
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_tadddeqrelu, &p, "tadddeqrelu.dtype");
  p.dst.dtype = PTOSIM_DT_F16, p.tmp.cols = p.tmp.valid_cols = 32;
  refuse(PTOSIM_TARGET_A2A3, PTOSIM_OP_tadddeqrelu, &p, "tadddeqrelu.valid");
}

/* ---- text ----------------------------------------------------------------------------- */

#define TF "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define TH "!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define PV(t) "!pto.partition_tensor_view<16x32x" t ">"
#define VIEW(n, arg, t)                                                                                          \
  "%v" n " = pto.make_tensor_view " arg ", shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?x" t ">\n" \
  "%p" n " = pto.partition_view %v" n ", offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?x" t "> -> " PV(t) "\n"

/* Run prog on a new machine of target tg with the five GM buffers as its arguments; the
 * caller reads the results and frees the machine. */
static ptosim_machine *run_text(const ptosim_program *prog, ptosim_target tg, void *const bufs[5], const size_t sizes[5]) {
  ptosim_machine *m = ptosim_machine_new(tg, 1);
  ptosim_arg args[5];
  memset(args, 0, sizeof args);
  for (int i = 0; i < 5; i++) ptosim_gm_map(m, bufs[i], sizes[i], &args[i].gm_addr);
  ptosim_status st = ptosim_program_run(prog, m, args);
  CHECK_MSG(st == PTOSIM_OK, "%s [%s]", ptosim_last_diag(m)->msg, ptosim_last_diag(m)->rule);
  return m;
}

/* c = (a + b) * 2.5 + 2.5 / b, h = f16(c) rounded away from zero, e = texpands(-1.5)
 * + relu(a) - tneg(b): every form of the binder (tile-tile, tile-scalar, scalar first,
 * the attribute inside ins(...), unary, texpands). */
static const char *const k_text =
    "module {\n"
    "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %o: !pto.ptr<f32>, %h: !pto.ptr<f16>, %e: !pto.ptr<f32>) {\n"
    "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
    "%c16 = arith.constant 16 : index\n%c32 = arith.constant 32 : index\n"
    "%s = arith.constant 2.5 : f32\n%m = arith.constant -1.5 : f32\n"
    VIEW("a", "%a", "f32") VIEW("b", "%b", "f32") VIEW("o", "%o", "f32") VIEW("h", "%h", "f16") VIEW("e", "%e", "f32")
    "%ta = pto.alloc_tile : " TF "\n%tb = pto.alloc_tile : " TF "\n%tc = pto.alloc_tile : " TF "\n"
    "%td = pto.alloc_tile : " TF "\n%te = pto.alloc_tile : " TF "\n%th = pto.alloc_tile : " TH "\n"
    "pto.tload ins(%pa : " PV("f32") ") outs(%ta : " TF ")\n"
    "pto.tload ins(%pb : " PV("f32") ") outs(%tb : " TF ")\n"
    "pto.tadd ins(%ta, %tb : " TF ", " TF ") outs(%tc : " TF ")\n"
    "pto.tmuls ins(%tc, %s : " TF ", f32) outs(%tc : " TF ")\n"
    "pto.tdivs ins(%s, %tb : f32, " TF ") outs(%td : " TF ")\n"
    "pto.tadd ins(%tc, %td : " TF ", " TF ") outs(%tc : " TF ")\n"
    "pto.tcvt ins(%tc {rmode = #pto<round_mode ROUND>} : " TF ") outs(%th : " TH ")\n"
    "pto.texpands ins(%m : f32) outs(%te : " TF ")\n"
    "pto.trelu ins(%ta : " TF ") outs(%td : " TF ")\n"
    "pto.tadd ins(%te, %td : " TF ", " TF ") outs(%te : " TF ")\n"
    "pto.tneg ins(%tb : " TF ") outs(%td : " TF ")\n"
    "pto.tsub ins(%te, %td : " TF ", " TF ") outs(%te : " TF ")\n"
    "pto.tstore ins(%tc : " TF ") outs(%po : " PV("f32") ")\n"
    "pto.tstore ins(%th : " TH ") outs(%ph : " PV("f16") ")\n"
    "pto.tstore ins(%te : " TF ") outs(%pe : " PV("f32") ")\n"
    "return\n}\n}\n";

static void test_text(void) {
  enum { N = 16 * 32 };
  float a[N], b[N], o[N], e[N];
  uint16_t h[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)((int)(pt_rand_u64(&seed) % 2001) - 1000) / 64.0f;
    b[i] = (float)((int)(pt_rand_u64(&seed) % 2001) - 1000) / 32.0f;
    if (b[i] == 0) b[i] = 0.25f;
  }
  ptosim_program *prog = pt_test_load(k_text, strlen(k_text));
  CHECK(prog != NULL);
  if (!prog) return;
  for (int ti = 0; ti < 2; ti++) {
    void *bufs[5] = {a, b, o, h, e};
    size_t sizes[5] = {sizeof a, sizeof b, sizeof o, sizeof h, sizeof e};
    ptosim_machine *m = run_text(prog, targets[ti], bufs, sizes);
    for (int i = 0; i < N; i++) {
      double c = round_to(round_to(round_to(a[i] + b[i], PTOSIM_DT_F32) * 2.5, PTOSIM_DT_F32) +
                              round_to(2.5 / b[i], PTOSIM_DT_F32), PTOSIM_DT_F32);
      double w = round_to(round_to(-1.5 + (a[i] > 0 ? a[i] : 0), PTOSIM_DT_F32) + b[i], PTOSIM_DT_F32);
      CHECK_MSG(o[i] == (float)c, "o[%d] = %a, want %a", i, o[i], c);
      CHECK_MSG(h[i] == fbits(round_mode(c, PTOSIM_DT_F16, PTOSIM_RM_ROUND), PTOSIM_DT_F16), "h[%d] = %04x for %a want %04x", i, h[i], c, (unsigned)fbits(round_mode(c, PTOSIM_DT_F16, PTOSIM_RM_ROUND), PTOSIM_DT_F16));
      CHECK_MSG(e[i] == (float)w, "e[%d] = %a, want %a", i, e[i], w);
    }
    ptosim_machine_free(m);
  }
  ptosim_program_free(prog);
}

#define TM "!pto.tile_buf<loc=vec, dtype=i8, rows=16, cols=32, v_row=16, v_col=4, blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* o = a < b ? a : b through tcmp + tsel (tmp given), e = a > 0.5 ? a : 0.5 through tcmps +
 * tsels (tmp left out): the predicate forms of the binder, cmpMode inside ins(...); f =
 * (a^2)^b through tpows (tmp, HIGH_PRECISION) and tpow (no tmp). */
static const char *const k_text_pred =
    "module {\n"
    "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %o: !pto.ptr<f32>, %e: !pto.ptr<f32>, %f: !pto.ptr<f32>) {\n"
    "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
    "%c16 = arith.constant 16 : index\n%c32 = arith.constant 32 : index\n%s = arith.constant 0.5 : f32\n"
    "%two = arith.constant 2.0 : f32\n"
    VIEW("a", "%a", "f32") VIEW("b", "%b", "f32") VIEW("o", "%o", "f32") VIEW("e", "%e", "f32") VIEW("f", "%f", "f32")
    "%ta = pto.alloc_tile : " TF "\n%tb = pto.alloc_tile : " TF "\n%tc = pto.alloc_tile : " TF "\n"
    "%tt = pto.alloc_tile : " TF "\n%tm = pto.alloc_tile : " TM "\n"
    "pto.tload ins(%pa : " PV("f32") ") outs(%ta : " TF ")\n"
    "pto.tload ins(%pb : " PV("f32") ") outs(%tb : " TF ")\n"
    "pto.tcmp ins(%ta, %tb {cmpMode = #pto<cmp lt>} : " TF ", " TF ") outs(%tm : " TM ")\n"
    "pto.tsel ins(%tm, %ta, %tb, %tt : " TM ", " TF ", " TF ", " TF ") outs(%tc : " TF ")\n"
    "pto.tstore ins(%tc : " TF ") outs(%po : " PV("f32") ")\n"
    "pto.tcmps ins(%ta, %s {cmpMode = #pto<cmp gt>} : " TF ", f32) outs(%tm : " TM ")\n"
    "pto.tsels ins(%tm, %ta, %s : " TM ", " TF ", f32) outs(%tc : " TF ")\n"
    "pto.tstore ins(%tc : " TF ") outs(%pe : " PV("f32") ")\n"
    "pto.tpows ins(%ta, %two, %tt : " TF ", f32, " TF ") outs(%tc : " TF ") {precisionType = #pto<pow_precision high_precision>}\n"
    "pto.tpow ins(%tc, %tb : " TF ", " TF ") outs(%tc : " TF ")\n"
    "pto.tstore ins(%tc : " TF ") outs(%pf : " PV("f32") ")\n"
    "return\n}\n}\n";

static void test_text_pred(void) {
  enum { N = 16 * 32 };
  float a[N], b[N], o[N], e[N], f[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)((int)(pt_rand_u64(&seed) % 9) - 4) / 4.0f; /* ties with b and with 0.5 */
    b[i] = (float)((int)(pt_rand_u64(&seed) % 9) - 4) / 4.0f;
  }
  ptosim_program *prog = pt_test_load(k_text_pred, strlen(k_text_pred));
  CHECK(prog != NULL);
  if (!prog) return;
  for (int ti = 0; ti < 2; ti++) {
    void *bufs[5] = {a, b, o, e, f};
    size_t sizes[5] = {sizeof a, sizeof b, sizeof o, sizeof e, sizeof f};
    ptosim_machine *m = run_text(prog, targets[ti], bufs, sizes);
    for (int i = 0; i < N; i++) {
      CHECK_MSG(o[i] == (a[i] < b[i] ? a[i] : b[i]), "o[%d] = %g for %g, %g", i, o[i], a[i], b[i]);
      CHECK_MSG(e[i] == (a[i] > 0.5f ? a[i] : 0.5f), "e[%d] = %g for %g", i, e[i], a[i]);
      /* (a^2)^b: a2a3 and fractional b through exp(ln x * y) (within a few ulps) */
      double w = pow((double)a[i] * a[i], b[i]);
      CHECK_MSG(a[i] == 0 || fabs(f[i] - w) <= 8 * 0x1p-24 * fabs(w), "f[%d] = %g for %g ^ 2 ^ %g", i, f[i], a[i], b[i]);
      CHECK_MSG(a[i] != 0 || f[i] == (b[i] == 0 ? 1.0f : b[i] > 0 ? 0.0f : INFINITY), "f[%d] = %g for 0 ^ %g", i, f[i], b[i]);
    }
    ptosim_machine_free(m);
  }
  ptosim_program_free(prog);
}

/* texpands into a mat tile (pto-isa TExpandS.hpp TExpandsTile / TExpandsMatTile): issued on
 * the cube core, it fills every element of the tile's rows x cols storage (valid shape and
 * layout aside) with the scalar in the element type; the bytes after the tile keep theirs.
 * Refused: from a vector core, 8-byte types (TExpandSInstrMat has 1 / 2 / 4-byte forms). */
static void test_texpands_mat(void) {
  static const struct {
    ptosim_dtype t;
    ptosim_scalar s;
    uint32_t bits; /* the expected element, es bytes */
  } cs[] = {{PTOSIM_DT_F32, {PTOSIM_DT_F32, 0xBFC00000u}, 0xBFC00000u},
            {PTOSIM_DT_F16, {PTOSIM_DT_F32, 0x40400000u}, 0x4200u},
            {PTOSIM_DT_BF16, {PTOSIM_DT_F32, 0x40000000u}, 0x4000u},
            {PTOSIM_DT_I8, {PTOSIM_DT_I64, (uint64_t)-3}, 0xFDu},
            {PTOSIM_DT_U16, {PTOSIM_DT_I64, 0xBEEF}, 0xBEEFu},
            {PTOSIM_DT_I32, {PTOSIM_DT_I64, (uint64_t)-7}, 0xFFFFFFF9u}};
  for (int tg = 0; tg < 2; tg++)
    for (size_t k = 0; k < sizeof cs / sizeof *cs; k++) {
      ptosim_machine *m = ptosim_machine_new((ptosim_target)tg, 1);
      ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIC);
      unsigned es = esz(cs[k].t);
      enum { R = 32, ADDR = 0x400, SPAN = 0x4000 };
      int cols = (int)(64 / es); /* NZ: 32-byte fractal rows, two column blocks */
      uint8_t before[SPAN], after[SPAN];
      for (size_t i = 0; i < SPAN; i++) before[i] = (uint8_t)pt_rand_u64(&seed);
      CHECK(ptosim_mem_write(c, PTOSIM_L1, 0, before, SPAN) == PTOSIM_OK);
      ptosim_telem_params p = {.scalar = cs[k].s};
      p.dst = (ptosim_tile){.space = PTOSIM_L1, .addr = ADDR, .dtype = cs[k].t, .rows = R, .cols = cols,
                            .valid_rows = 5, .valid_cols = 3, .blayout = PTOSIM_BL_COL_MAJOR,
                            .slayout = PTOSIM_SL_ROW_MAJOR, .fractal = 512};
      CHECK_MSG(ptosim_exec(c, PTOSIM_OP_texpands, &p, NULL) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
      CHECK(ptosim_mem_read(c, PTOSIM_L1, 0, after, SPAN) == PTOSIM_OK);
      size_t end = ADDR + (size_t)R * (size_t)cols * es, bad = 0;
      for (size_t i = 0; i < SPAN; i++) {
        uint8_t want = i >= ADDR && i < end ? (uint8_t)(cs[k].bits >> (8 * ((i - ADDR) % es))) : before[i];
        bad += after[i] != want;
      }
      CHECK_MSG(bad == 0, "%s: %zu bytes differ", pt_dtype_name(cs[k].t), bad);
      ptosim_core *v = ptosim_core_of(m, 0, PTOSIM_AIV0);
      CHECK(ptosim_exec(v, PTOSIM_OP_texpands, &p, NULL) != PTOSIM_OK &&
            !strcmp(ptosim_last_diag(m)->rule, "texpands.unit"));
      ptosim_machine_free(m);
    }
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_telem_params p = {.scalar = {PTOSIM_DT_I64, 1}};
  p.dst = (ptosim_tile){.space = PTOSIM_L1, .addr = 0, .dtype = PTOSIM_DT_I64, .rows = 16, .cols = 4, .valid_rows = 16,
                        .valid_cols = 4, .blayout = PTOSIM_BL_COL_MAJOR, .slayout = PTOSIM_SL_ROW_MAJOR, .fractal = 512};
  CHECK(ptosim_exec(ptosim_core_of(m, 0, PTOSIM_AIC), PTOSIM_OP_texpands, &p, NULL) != PTOSIM_OK &&
        !strcmp(ptosim_last_diag(m)->rule, "texpands.dtype"));
  p.dst.space = PTOSIM_UB, p.dst.dtype = PTOSIM_DT_I32, p.dst.blayout = PTOSIM_BL_ROW_MAJOR;
  p.dst.slayout = PTOSIM_SL_NONE_BOX, p.dst.cols = p.dst.valid_cols = 8; /* a vec tile from the cube core */
  CHECK(ptosim_exec(ptosim_core_of(m, 0, PTOSIM_AIC), PTOSIM_OP_texpands, &p, NULL) != PTOSIM_OK &&
        !strcmp(ptosim_last_diag(m)->rule, "texpands.unit"));
  ptosim_machine_free(m);
}

/* taxpy with an f16 source into an f32 dst (a2a3 / a5 TAxpy.hpp), both targets: d = d + x s
 * with s rounded to f16 first (the source's type) and the exact product added with one
 * rounding to f32 (fma32_ref); a 4 x 64 tile with valid 3 x 61, the whole UB compared. Other
 * mixes stay refused. */
static void test_axpy_mix(void) {
  for (int ti = 0; ti < 2; ti++) {
    ucase u = ub_new(targets[ti]);
    ptosim_tile a = nd(PTOSIM_DT_F16, 0, 4, 64, 3, 61), d = nd(PTOSIM_DT_F32, 1024, 4, 64, 3, 61);
    float sf = 1.2345678f; /* rounds to the f16 0x3CF0 = 1.234375 */
    ptosim_telem_params p = {.dst = d, .src0 = a, .scalar = {PTOSIM_DT_F32, 0}};
    memcpy(&p.scalar.bits, &sf, 4);
    for (int r = 0; r < 4; r++)
      for (int k = 0; k < 64; k++) put(u.img, &a, r, k, rnd_bits(PTOSIM_DT_F16, 0)), put(u.img, &d, r, k, rnd_bits(PTOSIM_DT_F32, 0));
    put(u.img, &a, 0, 0, fbits(65504.0, PTOSIM_DT_F16)), put(u.img, &d, 0, 0, fbits(-0x1p-30, PTOSIM_DT_F32));
    CHECK(ptosim_mem_write(u.c, PTOSIM_UB, 0, u.img, u.cap) == PTOSIM_OK);
    uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
    memcpy(want, u.img, u.cap);
    double s16 = fval(fbits(sf, PTOSIM_DT_F16), PTOSIM_DT_F16);
    CHECK(s16 == 1.234375);
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < 61; k++) {
        double x = fval(get(u.img, &a, r, k), PTOSIM_DT_F16), y = fval(get(u.img, &d, r, k), PTOSIM_DT_F32);
        put(want, &d, r, k, fbits(fma32_ref(x, s16, y), PTOSIM_DT_F32));
      }
    CHECK_MSG(ptosim_exec(u.c, PTOSIM_OP_taxpy, &p, NULL) == PTOSIM_OK, "%s", ptosim_last_diag(u.m)->msg);
    CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
    size_t bad = u.cap;
    for (size_t i = 0; i < u.cap && bad == u.cap; i++)
      if (got[i] != want[i]) bad = i;
    CHECK_MSG(bad == u.cap, "taxpy f16 -> f32 target %d: byte 0x%zx got %02x want %02x", ti, bad, bad < u.cap ? got[bad] : 0,
              bad < u.cap ? want[bad] : 0);
    free(want), free(got), free(u.img);
    ptosim_machine_free(u.m);
    ptosim_telem_params ok = p, q;
#define EDITQ(...) (q = ok, __VA_ARGS__, &q)
    refuse(targets[ti], PTOSIM_OP_taxpy, EDITQ(q.dst.dtype = PTOSIM_DT_F16, q.src0.dtype = PTOSIM_DT_F32), "taxpy.dtype");
    refuse(targets[ti], PTOSIM_OP_taxpy, EDITQ(q.src0.dtype = PTOSIM_DT_BF16), "taxpy.dtype");
#undef EDITQ
  }
}

/* texpands of a col-major (DN) vec tile (a5 / a2a3 TExpandS.hpp col-major paths): element
 * (r, c) at (c rows + r) es gets the scalar for r < vr, c < vc, nothing else changes; on
 * A2/A3 an 8-bit tile with an odd valid row count also gets the byte after each valid column
 * (16-bit lanes down the column). 64-bit DN tiles are refused (texpands.layout). */
static void test_texpands_dn(void) {
  static const struct {
    ptosim_dtype t;
    int rows, cols, vr, vc;
    uint64_t bits;
  } cs[] = {{PTOSIM_DT_F32, 16, 5, 13, 3, 0xC0490FDBull}, {PTOSIM_DT_F16, 32, 4, 17, 4, 0xBC00},
            {PTOSIM_DT_I8, 64, 3, 31, 2, 0x85},            {PTOSIM_DT_U16, 16, 6, 16, 5, 0xFFFF},
            {PTOSIM_DT_I32, 8, 7, 1, 7, 0x80000000ull}};
  for (int ti = 0; ti < 2; ti++)
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
      ucase u = ub_new(targets[ti]);
      ptosim_tile d = nd(cs[i].t, 512, cs[i].rows, cs[i].cols, cs[i].vr, cs[i].vc);
      d.blayout = PTOSIM_BL_COL_MAJOR;
      ptosim_telem_params p = {.dst = d, .scalar = {cs[i].t, cs[i].bits}};
      uint8_t *want = malloc(u.cap), *got = malloc(u.cap);
      memcpy(want, u.img, u.cap);
      unsigned e = esz(cs[i].t);
      int pad = ti == 0 && e == 1 && cs[i].vr % 2;
      for (int c = 0; c < cs[i].vc; c++)
        for (int r = 0; r < cs[i].vr + pad; r++) memcpy(want + d.addr + ((size_t)c * (size_t)cs[i].rows + (size_t)r) * e, &cs[i].bits, e);
      CHECK_MSG(ptosim_exec(u.c, PTOSIM_OP_texpands, &p, NULL) == PTOSIM_OK, "%s", ptosim_last_diag(u.m)->msg);
      CHECK(ptosim_mem_read(u.c, PTOSIM_UB, 0, got, u.cap) == PTOSIM_OK);
      CHECK_MSG(!memcmp(got, want, u.cap), "texpands DN %s target %d", pt_dtype_name(cs[i].t), ti);
      free(want), free(got), free(u.img);
      ptosim_machine_free(u.m);
    }
  ptosim_telem_params ok = {.dst = nd(PTOSIM_DT_I64, 0, 4, 4, 4, 4), .scalar = {PTOSIM_DT_I64, 5}}, p;
  ok.dst.blayout = PTOSIM_BL_COL_MAJOR;
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_texpands, EDIT(p.dst.valid_cols = 3), "texpands.layout");
  refuse(PTOSIM_TARGET_A5, PTOSIM_OP_texpands, EDIT(p.dst.dtype = PTOSIM_DT_F32, p.dst.rows = 12), "tile.align");
}

int main(void) {
  RUN(test_texpands_mat);
  RUN(test_ops);
  RUN(test_axpy_mix);
  RUN(test_texpands_dn);
  RUN(test_tcvt);
  RUN(test_f16_rows);
  RUN(test_pred);
  RUN(test_pow);
  RUN(test_rem_sign);
  RUN(test_reluconv);
  RUN(test_adddeqrelu);
  RUN(test_rules);
  RUN(test_overlap);
  RUN(test_text);
  RUN(test_text_pred);
  return pt_test_finish();
}
