/* Vector conversion ops (vpto micro-isa 09: vcvt, vtrc, vci, vbitcast) against a reference
 * written here from the formulas: values in long double (exact for every source type), a
 * rounding of its own to the destination precision for each of the six modes, saturation and
 * wrapping by comparison, lane placement per destination lane. Every type pair of the A5
 * matrix with every rnd / sat / part it takes, full / partial / empty masks, special values;
 * the PTOAS corpus conversion goldens; one negative test per rule. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h" /* pt_dtype_name for messages */
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x243f6a8885a308d3ull;
static ptosim_machine *m5;
static ptosim_core *core;

static int failed_with(ptosim_status st, const char *rule) {
  return st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, rule);
}

/* ---- element kinds ---------------------------------------------------------------------- */

typedef struct kind {
  ptosim_dtype t;
  int bytes, is_float, is_signed;
  int prec, emin, emax; /* floats: significand bits, normal exponent range */
} kind;

static const kind kinds[] = {
    {PTOSIM_DT_F32, 4, 1, 1, 24, -126, 127}, {PTOSIM_DT_F16, 2, 1, 1, 11, -14, 15}, {PTOSIM_DT_BF16, 2, 1, 1, 8, -126, 127},
    {PTOSIM_DT_I8, 1, 0, 1, 0, 0, 0},        {PTOSIM_DT_U8, 1, 0, 0, 0, 0, 0},       {PTOSIM_DT_I16, 2, 0, 1, 0, 0, 0},
    {PTOSIM_DT_U16, 2, 0, 0, 0, 0, 0},       {PTOSIM_DT_I32, 4, 0, 1, 0, 0, 0},      {PTOSIM_DT_U32, 4, 0, 0, 0, 0, 0},
    {PTOSIM_DT_I64, 8, 0, 1, 0, 0, 0}};

static const kind *kind_of(ptosim_dtype t) {
  for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    if (kinds[k].t == t) return &kinds[k];
  return NULL;
}

/* Value of the element at p. */
static long double decode(const kind *k, const uint8_t *p) {
  uint64_t u = 0;
  for (int b = 0; b < k->bytes; b++) u |= (uint64_t)p[b] << (8 * b);
  if (k->t == PTOSIM_DT_F32 || k->t == PTOSIM_DT_BF16) {
    uint32_t w = k->t == PTOSIM_DT_BF16 ? (uint32_t)u << 16 : (uint32_t)u;
    float f;
    memcpy(&f, &w, 4);
    return f;
  }
  if (k->t == PTOSIM_DT_F16) {
    int e = (int)(u >> 10 & 31), mant = (int)(u & 1023);
    long double mag = e == 31 ? (mant ? NAN : INFINITY) : e == 0 ? ldexpl(mant, -24) : ldexpl(1024 + mant, e - 25);
    return u >> 15 ? -mag : mag;
  }
  if (k->is_signed && k->bytes < 8 && (u >> (8 * k->bytes - 1) & 1)) return (long double)(int64_t)(u - (1ull << (8 * k->bytes)));
  return k->is_signed ? (long double)(int64_t)u : (long double)u;
}

/* ---- reference rounding -------------------------------------------------------------------- */

enum { R_R = 1, R_A, R_F, R_C, R_Z, R_O }; /* same order as ptosim_vrnd */

static long double round_int(long double v, int mode) {
  switch (mode) {
    case R_A: return roundl(v);
    case R_F: return floorl(v);
    case R_C: return ceill(v);
    case R_Z: return truncl(v);
    case R_O: {
      long double t = truncl(v);
      return t != v && fmodl(t, 2) == 0 ? t + (v < 0 ? -1 : 1) : t;
    }
    default: return rintl(v); /* the default environment: nearest, ties to even */
  }
}

/* v rounded to float kind k with mode; sat: overflow, inf to +-max and NaN to 0. */
static long double to_float(long double v, const kind *k, int mode, int sat) {
  long double maxf = ldexpl(2 - ldexpl(1, 1 - k->prec), k->emax);
  if (isnan(v)) return sat ? 0 : v;
  if (isinf(v)) return sat ? copysignl(maxf, v) : v;
  if (v == 0) return v;
  int e = ilogbl(v);
  if (e < k->emin) e = k->emin;
  long double q = ldexpl(1, e - (k->prec - 1)), r = round_int(v / q, mode) * q;
  if (fabsl(r) > maxf) {
    int up; /* does this mode overflow to infinity */
    if (mode == R_F) up = v < 0;
    else if (mode == R_C) up = v > 0;
    else up = mode == R_R || mode == R_A;
    r = !sat && up ? copysignl(INFINITY, v) : copysignl(maxf, v);
  }
  return r == 0 ? copysignl(0, v) : r;
}

/* v to integer kind k: NaN 0; sat clamps, else the value (clamped to 64 bits) wraps. Bits. */
static uint64_t to_int(long double v, const kind *k, int mode, int sat) {
  if (isnan(v)) return 0;
  long double n = round_int(v, mode);
  long double lo = k->is_signed ? -ldexpl(1, 8 * k->bytes - 1) : 0, hi = k->is_signed ? ldexpl(1, 8 * k->bytes - 1) - 1 : ldexpl(1, 8 * k->bytes) - 1;
  if (!sat) lo = -ldexpl(1, 63), hi = ldexpl(1, 63) - 1;
  if (n < lo) n = lo;
  if (n > hi) n = hi;
  uint64_t u = (uint64_t)(int64_t)n;
  return k->bytes == 8 ? u : u & ((1ull << (8 * k->bytes)) - 1);
}

/* ---- vcvt ------------------------------------------------------------------------------------ */

/* The A5 matrix as the chapter lists it: "src dst" and the attributes (r: rnd, s: sat,
 * p: part) each form takes. */
static const struct {
  ptosim_dtype s, d;
  const char *attrs;
} forms[] = {
    {PTOSIM_DT_F32, PTOSIM_DT_I64, "rsp"},  {PTOSIM_DT_F32, PTOSIM_DT_I32, "rs"},   {PTOSIM_DT_F32, PTOSIM_DT_I16, "rsp"},
    {PTOSIM_DT_F16, PTOSIM_DT_I32, "rp"},   {PTOSIM_DT_F16, PTOSIM_DT_I16, "rs"},   {PTOSIM_DT_F16, PTOSIM_DT_I8, "rsp"},
    {PTOSIM_DT_F16, PTOSIM_DT_U8, "rsp"},   {PTOSIM_DT_BF16, PTOSIM_DT_I32, "rsp"}, {PTOSIM_DT_F32, PTOSIM_DT_F16, "rsp"},
    {PTOSIM_DT_F32, PTOSIM_DT_BF16, "rsp"}, {PTOSIM_DT_BF16, PTOSIM_DT_F16, "rs"},  {PTOSIM_DT_F16, PTOSIM_DT_F32, "p"},
    {PTOSIM_DT_BF16, PTOSIM_DT_F32, "p"},   {PTOSIM_DT_U8, PTOSIM_DT_F16, "p"},     {PTOSIM_DT_I8, PTOSIM_DT_F16, "p"},
    {PTOSIM_DT_I16, PTOSIM_DT_F16, "r"},    {PTOSIM_DT_I16, PTOSIM_DT_F32, "p"},    {PTOSIM_DT_I32, PTOSIM_DT_F32, "r"},
    {PTOSIM_DT_U8, PTOSIM_DT_U16, "p"},     {PTOSIM_DT_U8, PTOSIM_DT_U32, "p"},     {PTOSIM_DT_I8, PTOSIM_DT_I16, "p"},
    {PTOSIM_DT_I8, PTOSIM_DT_I32, "p"},     {PTOSIM_DT_U16, PTOSIM_DT_U8, "sp"},    {PTOSIM_DT_U16, PTOSIM_DT_U32, "p"},
    {PTOSIM_DT_I16, PTOSIM_DT_U8, "sp"},    {PTOSIM_DT_I16, PTOSIM_DT_U32, "p"},    {PTOSIM_DT_I16, PTOSIM_DT_I32, "p"},
    {PTOSIM_DT_U32, PTOSIM_DT_U8, "sp"},    {PTOSIM_DT_U32, PTOSIM_DT_U16, "sp"},   {PTOSIM_DT_U32, PTOSIM_DT_I16, "sp"},
    {PTOSIM_DT_I32, PTOSIM_DT_U8, "sp"},    {PTOSIM_DT_I32, PTOSIM_DT_U16, "sp"},   {PTOSIM_DT_I32, PTOSIM_DT_I16, "sp"},
    {PTOSIM_DT_I32, PTOSIM_DT_I64, "p"},    {PTOSIM_DT_I64, PTOSIM_DT_F32, "rp"},   {PTOSIM_DT_I64, PTOSIM_DT_I32, "sp"},
};

/* Write float value v into p as f32 or bf16 (the top half of the f32): test inputs only. */
static void put(const kind *k, uint8_t *p, long double v) {
  float f = (float)v;
  uint32_t w;
  memcpy(&w, &f, 4);
  if (k->t == PTOSIM_DT_BF16) w >>= 16;
  for (int b = 0; b < k->bytes; b++) p[b] = (uint8_t)(w >> (8 * b));
}

/* A source register: random bytes in a third of the lanes, specials (ties, extremes,
 * infinities, NaN, range boundaries) and moderate values with fractions in the others. */
static void fill(const kind *k, ptosim_vreg *r) {
  static const long double fspecial[] = {0.0L, -0.0L, 1.0L, -1.0L, 0.5L, -0.5L, 1.5L, 2.5L, -2.5L, 3.5L, -7.5L,
                                         65504.0L, -65504.0L, 65520.0L, 70000.0L, 1e-8L, -1e-8L, 1e-4L, 123.75L,
                                         0.33333334L, 3e38L, -3e38L, 32767.5L, -32768.5L, 255.5L, 127.5L, -128.5L,
                                         2147483520.0L, -2147483648.0L, 4294967296.0L, 9.3e18L, -9.3e18L, INFINITY,
                                         -INFINITY, NAN};
  static const uint16_t hspecial[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0xfbff, 0x0001,
                                      0x8001, 0x0400, 0x4100, 0xc100, 0x3800, 0x3e00, 0x57f8, 0x5bf8, 0x7800, 0xd800};
  static const int64_t ispecial[] = {0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
                                     2147483647LL, -2147483647LL - 1, 16777217, -16777217, 16777219, 33554435,
                                     (1LL << 62) + 12345, INT64_MIN, INT64_MAX};
  for (int i = 0; i < 256 / k->bytes; i++) {
    uint8_t *p = r->b + i * k->bytes;
    uint64_t x = pt_rand_u64(&seed), y = pt_rand_u64(&seed);
    int sel = (int)(x % 3);
    uint64_t bits = y;
    if (sel == 1 && k->t == PTOSIM_DT_F16) bits = hspecial[(x >> 8) % (sizeof hspecial / sizeof hspecial[0])];
    if (sel == 2 && k->t == PTOSIM_DT_F16) bits = (y & 0x83ff) | (uint64_t)(10 + (x >> 8) % 13) << 10; /* 2^-5 .. 2^7 */
    if (sel && !k->is_float) bits = (uint64_t)ispecial[(x >> 8) % (sizeof ispecial / sizeof ispecial[0])];
    if (sel && k->is_float && k->t != PTOSIM_DT_F16) {
      long double v = sel == 1 ? fspecial[(x >> 8) % (sizeof fspecial / sizeof fspecial[0])]
                               : ldexpl((long double)(int64_t)(y >> 20) / 4096.0L, (int)((x >> 4) % 40) - 30);
      put(k, p, v);
      continue;
    }
    for (int b = 0; b < k->bytes; b++) p[b] = (uint8_t)(bits >> (8 * b));
  }
}

static ptosim_vmask make_mask(int how) {
  ptosim_vmask m;
  for (int k = 0; k < 32; k++) m.b[k] = how == 0 ? 0xff : how == 1 ? 0 : (uint8_t)pt_rand_u64(&seed);
  return m;
}

static int mbit(const ptosim_vmask *m, int j) { return m->b[j / 8] >> (j % 8) & 1; }

/* Compare dst lane j of got with the reference; returns 1 when equal. */
static int lane_ok(const ptosim_vcvt_params *p, const ptosim_vreg *got, int j) {
  const kind *ks = kind_of(p->src_type), *kd = kind_of(p->dst_type);
  int ratio = ks->bytes > kd->bytes ? ks->bytes / kd->bytes : kd->bytes / ks->bytes;
  int part = p->part == PTOSIM_VPART_ODD ? 1 : p->part >= PTOSIM_VPART_P0 ? (int)(p->part - PTOSIM_VPART_P0) : 0;
  const uint8_t *g = got->b + j * kd->bytes;
  int src_lane;
  if (ks->bytes > kd->bytes) {
    if (j % ratio != part) src_lane = -1;
    else src_lane = j / ratio;
  } else {
    src_lane = ks->bytes < kd->bytes ? j * ratio + part : j;
  }
  int zero = 1;
  for (int b = 0; b < kd->bytes; b++) zero &= g[b] == 0;
  if (src_lane < 0 || !mbit(p->mask, src_lane * ks->bytes)) return zero;
  long double v = decode(ks, p->src->b + src_lane * ks->bytes);
  int mode = p->rnd ? (int)p->rnd : R_R;
  int sat = p->sat == PTOSIM_VSAT_SAT || (p->sat == PTOSIM_VSAT_NONE && !kd->is_float); /* absent: ints saturate */
  if (kd->is_float) {
    long double want = to_float(v, kd, mode, sat), have = decode(kd, g);
    if (isnan(want)) return isnan(have);
    return have == want && signbit(have) == signbit(want);
  }
  uint64_t have = 0;
  for (int b = 0; b < kd->bytes; b++) have |= (uint64_t)g[b] << (8 * b);
  if (ks->is_float) return have == to_int(v, kd, mode, sat);
  /* integer sources: widening and SAT narrowing keep the value, NOSAT keeps the low bytes */
  uint64_t want = sat ? to_int(v, kd, R_Z, 1) : (uint64_t)(int64_t)v;
  return have == (kd->bytes == 8 ? want : want & ((1ull << (8 * kd->bytes)) - 1));
}

static void test_vcvt_forms(void) {
  for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++) {
    const kind *ks = kind_of(forms[f].s), *kd = kind_of(forms[f].d);
    int has_r = strchr(forms[f].attrs, 'r') != NULL, has_s = strchr(forms[f].attrs, 's') != NULL;
    int has_p = strchr(forms[f].attrs, 'p') != NULL;
    int ratio = ks->bytes > kd->bytes ? ks->bytes / kd->bytes : kd->bytes / ks->bytes;
    int nparts = has_p ? ratio : 1, bad = 0;
    for (int r = has_r ? R_R : 0; r <= (has_r ? R_O : 0); r++)
      for (int s = has_s ? 1 : 0; s <= (has_s ? 2 : 0); s++)
        for (int k = 0; k < nparts; k++)
          for (int mk = 0; mk < 3; mk++) {
            ptosim_vreg src, dst;
            fill(ks, &src);
            memset(&dst, 0xa5, sizeof dst);
            ptosim_vmask m = make_mask(mk == 0 ? 0 : mk == 1 ? 2 : 1);
            ptosim_vpart part = !has_p ? PTOSIM_VPART_NONE : ratio == 4 ? (ptosim_vpart)(PTOSIM_VPART_P0 + k)
                                                                         : (ptosim_vpart)(PTOSIM_VPART_EVEN + k);
            ptosim_vcvt_params p = {&dst, &src, &m, forms[f].s, forms[f].d, (ptosim_vrnd)r, (ptosim_vsat)s, part};
            ptosim_status st = ptosim_vcvt(core, &p);
            CHECK_MSG(st == PTOSIM_OK, "form %u: status %d %s", f, st, st ? ptosim_last_diag(m5)->msg : "");
            for (int j = 0; j < 256 / kd->bytes && st == PTOSIM_OK; j++)
              if (!lane_ok(&p, &dst, j) && bad++ < 3)
                CHECK_MSG(0, "vcvt %s -> %s rnd %d sat %d part %d mask %d lane %d", pt_dtype_name(forms[f].s),
                          pt_dtype_name(forms[f].d), r, s, part, mk, j);
          }
    CHECK_MSG(!bad, "form %u: %d bad lanes", f, bad);
  }
}

/* Corpus conversion goldens (test/vpto/cases/micro-op/conversion/<case>/golden.py). */
static void test_vcvt_golden(void) {
  ptosim_vmask all = make_mask(0);
  /* vcvt-f32-special: rnd R, sat SAT, EVEN / ODD merged by vor: NaN -> 0, +-inf -> +-65504 */
  static const float sp[8] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 65504.0f, 1.0e-8f, 0.33333334f};
  static const uint16_t sp_gold[8] = {0x0000, 0x8000, 0x7bff, 0xfbff, 0x0000, 0x7bff, 0x0000, 0x3555};
  ptosim_vreg lo, hi, e, o;
  for (int i = 0; i < 64; i++) {
    memcpy(lo.b + 4 * i, &sp[i % 8], 4);
    memcpy(hi.b + 4 * i, &sp[(i + 3) % 8], 4);
  }
  ptosim_vcvt_params pe = {&e, &lo, &all, PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_EVEN};
  ptosim_vcvt_params po = {&o, &hi, &all, PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_ODD};
  CHECK(ptosim_vcvt(core, &pe) == PTOSIM_OK && ptosim_vcvt(core, &po) == PTOSIM_OK);
  int ok = 1;
  for (int i = 0; i < 64; i++) {
    uint16_t ev = (uint16_t)(e.b[4 * i] | (o.b[4 * i] | e.b[4 * i + 1] << 8 | o.b[4 * i + 1] << 8));
    uint16_t od = (uint16_t)((e.b[4 * i + 2] | o.b[4 * i + 2]) | (e.b[4 * i + 3] | o.b[4 * i + 3]) << 8);
    ok &= ev == sp_gold[i % 8] && od == sp_gold[(i + 3) % 8];
  }
  CHECK(ok);
  /* vcvt-i32-to-i16-overflow: SAT clamps to [-32768, 32767] */
  static const int32_t iv[8] = {-40000, -32769, 32768, 70000, -70000, 65535, 123456, -1};
  static const int16_t ig[8] = {-32768, -32768, 32767, 32767, -32768, 32767, 32767, -1};
  ptosim_vreg s32, d16;
  for (int i = 0; i < 64; i++) memcpy(s32.b + 4 * i, &iv[i % 8], 4);
  ptosim_vcvt_params pi = {&d16, &s32, &all, PTOSIM_DT_I32, PTOSIM_DT_I16, PTOSIM_VRND_NONE, PTOSIM_VSAT_SAT, PTOSIM_VPART_EVEN};
  CHECK(ptosim_vcvt(core, &pi) == PTOSIM_OK);
  ok = 1;
  for (int i = 0; i < 64; i++) {
    int16_t v;
    memcpy(&v, d16.b + 4 * i, 2);
    ok &= v == ig[i % 8] && d16.b[4 * i + 2] == 0 && d16.b[4 * i + 3] == 0;
  }
  CHECK(ok);
  /* vcvt-u32-to-u8-part-p0123: four sources, P0..P3, merged: byte 4i + k = clip(src_k[i]) */
  ptosim_vreg src[4], merged;
  memset(&merged, 0, sizeof merged);
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < 64; i++) {
      uint32_t v = (uint32_t)(pt_rand_u64(&seed) % 2000);
      if (i == 1) v = 0xFFFFFFFFu;
      memcpy(src[k].b + 4 * i, &v, 4);
    }
    ptosim_vreg part;
    ptosim_vcvt_params pp = {&part, &src[k], &all, PTOSIM_DT_U32, PTOSIM_DT_U8, PTOSIM_VRND_NONE, PTOSIM_VSAT_SAT,
                             (ptosim_vpart)(PTOSIM_VPART_P0 + k)};
    CHECK(ptosim_vcvt(core, &pp) == PTOSIM_OK);
    for (int b = 0; b < 256; b++) merged.b[b] |= part.b[b];
  }
  ok = 1;
  for (int i = 0; i < 64; i++)
    for (int k = 0; k < 4; k++) {
      uint32_t v;
      memcpy(&v, src[k].b + 4 * i, 4);
      ok &= merged.b[4 * i + k] == (v > 255 ? 255 : v);
    }
  CHECK(ok);
  /* vcvt-f16-to-f32-part-odd: dst[i] = src[2i + 1] */
  ptosim_vreg h, f;
  for (int i = 0; i < 128; i++) {
    uint16_t v = (uint16_t)(0x3c00 + i); /* 1 + i/1024 */
    memcpy(h.b + 2 * i, &v, 2);
  }
  ptosim_vcvt_params ph = {&f, &h, &all, PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_VRND_NONE, PTOSIM_VSAT_NONE, PTOSIM_VPART_ODD};
  CHECK(ptosim_vcvt(core, &ph) == PTOSIM_OK);
  ok = 1;
  for (int i = 0; i < 64; i++) {
    float v;
    memcpy(&v, f.b + 4 * i, 4);
    ok &= v == 1.0f + (float)(2 * i + 1) / 1024.0f;
  }
  CHECK(ok);
  /* vcvt-i64-to-f32: rnd R, part EVEN: f32 lane 2i = s64 lane i, odd lanes 0 */
  ptosim_vreg s64, d32;
  static const int64_t lv[4] = {-(1LL << 24) - 3, (1LL << 24) + 1, (1LL << 24) + 3, (1LL << 31) - 1};
  static const float lg[4] = {-16777220.0f, 16777216.0f, 16777220.0f, 2147483648.0f};
  for (int i = 0; i < 32; i++) memcpy(s64.b + 8 * i, &lv[i % 4], 8);
  ptosim_vcvt_params pl = {&d32, &s64, &all, PTOSIM_DT_I64, PTOSIM_DT_F32, PTOSIM_VRND_R, PTOSIM_VSAT_NONE, PTOSIM_VPART_EVEN};
  CHECK(ptosim_vcvt(core, &pl) == PTOSIM_OK);
  ok = 1;
  for (int i = 0; i < 32; i++) {
    float v, z;
    memcpy(&v, d32.b + 8 * i, 4);
    memcpy(&z, d32.b + 8 * i + 4, 4);
    ok &= v == lg[i % 4] && z == 0.0f;
  }
  CHECK(ok);
}

/* The result may alias the source. */
static void test_vcvt_alias(void) {
  ptosim_vreg a, copy, want;
  ptosim_vmask m = make_mask(2);
  fill(kind_of(PTOSIM_DT_F32), &a);
  copy = a;
  ptosim_vcvt_params p = {&want, &copy, &m, PTOSIM_DT_F32, PTOSIM_DT_BF16, PTOSIM_VRND_Z, PTOSIM_VSAT_NOSAT, PTOSIM_VPART_ODD};
  CHECK(ptosim_vcvt(core, &p) == PTOSIM_OK);
  p.dst = &a, p.src = &a;
  CHECK(ptosim_vcvt(core, &p) == PTOSIM_OK && !memcmp(&a, &want, sizeof a));
}

/* CTRL[60] = 1 hands the saturation of CTRL-driven pairs to CTRL[59] (0: saturate). */
static void test_vcvt_ctrl(void) {
  ptosim_vreg s, d;
  ptosim_vmask all = make_mask(0);
  for (int i = 0; i < 64; i++) {
    int32_t v = 70000 + i;
    memcpy(s.b + 4 * i, &v, 4);
  }
  static const struct { uint64_t ctrl; ptosim_vsat attr; int16_t want; } cases[] = {
      {0, PTOSIM_VSAT_NOSAT, (int16_t)(70000 - 65536)}, {0, PTOSIM_VSAT_SAT, 32767},
      {1ull << 60, PTOSIM_VSAT_NOSAT, 32767},          {3ull << 59, PTOSIM_VSAT_SAT, (int16_t)(70000 - 65536)}};
  for (unsigned k = 0; k < 4; k++) {
    ptosim_loop_reg_params ctrl = {cases[k].ctrl | 1ull << 48};
    CHECK(ptosim_set_ctrl(core, &ctrl) == PTOSIM_OK);
    ptosim_vcvt_params p = {&d, &s, &all, PTOSIM_DT_I32, PTOSIM_DT_I16, PTOSIM_VRND_NONE, cases[k].attr, PTOSIM_VPART_EVEN};
    int16_t v;
    CHECK(ptosim_vcvt(core, &p) == PTOSIM_OK && (memcpy(&v, d.b, 2), v == cases[k].want));
  }
  ptosim_loop_reg_params reset = {1ull << 48};
  CHECK(ptosim_set_ctrl(core, &reset) == PTOSIM_OK);
}

static void test_vcvt_rules(void) {
  ptosim_vreg s, d;
  ptosim_vmask m = make_mask(0);
  memset(&s, 0, sizeof s);
  struct {
    ptosim_dtype a, b;
    ptosim_vrnd r;
    ptosim_vsat t;
    ptosim_vpart p;
    const char *rule;
  } bad[] = {
      {PTOSIM_DT_F32, PTOSIM_DT_U8, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_P0, "vec.vcvt_pair"},
      {PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_VRND_NONE, PTOSIM_VSAT_NONE, PTOSIM_VPART_NONE, "vec.vcvt_pair"},
      {PTOSIM_DT_I64, PTOSIM_DT_I16, PTOSIM_VRND_NONE, PTOSIM_VSAT_SAT, PTOSIM_VPART_P0, "vec.vcvt_pair"},
      {PTOSIM_DT_F32, PTOSIM_DT_I32, PTOSIM_VRND_NONE, PTOSIM_VSAT_SAT, PTOSIM_VPART_NONE, "vec.vcvt_rnd"},
      {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_VRND_R, PTOSIM_VSAT_NONE, PTOSIM_VPART_EVEN, "vec.vcvt_rnd"},
      {PTOSIM_DT_F32, PTOSIM_DT_I32, (ptosim_vrnd)9, PTOSIM_VSAT_SAT, PTOSIM_VPART_NONE, "vec.vcvt_rnd"},
      {PTOSIM_DT_F32, PTOSIM_DT_I32, PTOSIM_VRND_R, PTOSIM_VSAT_NONE, PTOSIM_VPART_NONE, "vec.vcvt_sat"},
      {PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_EVEN, "vec.vcvt_sat"},
      {PTOSIM_DT_I32, PTOSIM_DT_I16, PTOSIM_VRND_NONE, (ptosim_vsat)7, PTOSIM_VPART_EVEN, "vec.vcvt_sat"},
      {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_NONE, "vec.vcvt_part"},
      {PTOSIM_DT_I32, PTOSIM_DT_F32, PTOSIM_VRND_R, PTOSIM_VSAT_NONE, PTOSIM_VPART_EVEN, "vec.vcvt_part"},
      {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_P1, "vec.vcvt_part"},
      {PTOSIM_DT_U32, PTOSIM_DT_U8, PTOSIM_VRND_NONE, PTOSIM_VSAT_SAT, PTOSIM_VPART_ODD, "vec.vcvt_part"},
      {PTOSIM_DT_U32, PTOSIM_DT_U8, PTOSIM_VRND_NONE, PTOSIM_VSAT_SAT, (ptosim_vpart)12, "vec.vcvt_part"},
  };
  for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    ptosim_vcvt_params p = {&d, &s, &m, bad[k].a, bad[k].b, bad[k].r, bad[k].t, bad[k].p};
    CHECK_MSG(failed_with(ptosim_vcvt(core, &p), bad[k].rule), "case %u: %s", k, ptosim_last_diag(m5)->rule);
  }
  ptosim_vcvt_params nul = {&d, &s, NULL, PTOSIM_DT_I32, PTOSIM_DT_F32, PTOSIM_VRND_R, PTOSIM_VSAT_NONE, PTOSIM_VPART_NONE};
  CHECK(failed_with(ptosim_vcvt(core, &nul), "vec.operand"));
}

/* ---- low precision, 4-way parts: the 8-bit side holds byte 4i + k for part Pk (fp4: its low /
 * high nibble <-> bf16 lanes 2i / 2i + 1); other bytes of an 8-bit result are 0
 * (corpus vcvt-low-precision-special / -roundtrip golden.py). */

/* e4m3fn (0x7f / 0xff NaN, no inf) and e5m2 values from their fields. */
static float ref_f8(int e4, unsigned v) {
  int mb = e4 ? 3 : 2, bias = e4 ? 7 : 15, e = (int)(v & 0x7f) >> mb, m = (int)v & ((1 << mb) - 1);
  float mag = e == 0 ? ldexpf((float)m, 1 - bias - mb) : ldexpf((float)((1 << mb) + m), e - bias - mb);
  if (e4 && (v & 0x7f) == 0x7f) mag = NAN;
  if (!e4 && e == 31) mag = m ? NAN : INFINITY;
  return v & 0x80 ? -mag : mag;
}

/* fp4 codes as bf16 bits (golden.py tables) */
static const uint16_t ref_f4[2][16] = {
    {0x0000, 0x3E80, 0x3F00, 0x3F40, 0x3F80, 0x3FA0, 0x3FC0, 0x3FE0, 0x8000, 0xBE80, 0xBF00, 0xBF40, 0xBF80, 0xBFA0, 0xBFC0, 0xBFE0},
    {0x0000, 0x3F00, 0x3F80, 0x3FC0, 0x4000, 0x4040, 0x4080, 0x40C0, 0x8000, 0xBF00, 0xBF80, 0xBFC0, 0xC000, 0xC040, 0xC080, 0xC0C0}};

static float bf16f(unsigned b) {
  uint32_t w = (uint32_t)b << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}

/* Code of the finite value of x's sign nearest to x (ties: the even code; inf: the largest
 * magnitude; NaN: 0) among n codes decoded by vals. */
static unsigned ref_nearest(float x, const float *vals, unsigned n) {
  if (isnan(x)) return 0;
  float top = 0; /* beyond the largest finite value: saturates like an infinity (SAT) */
  for (unsigned c = 0; c < n; c++)
    if (isfinite(vals[c]) && fabsf(vals[c]) > top) top = fabsf(vals[c]);
  if (fabsf(x) > top) x = copysignf(INFINITY, x);
  unsigned best = 0;
  float bd = INFINITY;
  for (unsigned c = 0; c < n; c++) {
    if (!isfinite(vals[c]) || signbit(vals[c]) != signbit(x)) continue;
    float d = isinf(x) ? -fabsf(vals[c]) : fabsf(vals[c] - x);
    if (d < bd || (d == bd && !(c & 1))) bd = d, best = c;
  }
  return best;
}

static int same_f(float a, float b) { return isnan(a) ? isnan(b) : a == b && signbit(a) == signbit(b); }

/* f16 / bf16 -> f8E4M3FN / f8E5M2 (R, SAT) with EVEN / ODD: byte 2i + part = the nearest code
 * of source lane i (mask bit 2i), the other bytes 0. */
static float f16f(unsigned h) {
  int ex = (int)(h >> 10 & 31), m = (int)(h & 1023);
  float mag = ex == 31 ? (m ? NAN : INFINITY) : ex == 0 ? ldexpf((float)m, -24) : ldexpf((float)(1024 + m), ex - 25);
  return h >> 15 & 1 ? -mag : mag;
}

static void test_vcvt_half_to_f8(void) {
  int bad = 0;
  for (int e4 = 0; e4 < 2; e4++)
    for (int bf = 0; bf < 2; bf++)
      for (int odd = 0; odd < 2; odd++) {
        ptosim_dtype t = e4 ? PTOSIM_DT_F8E4M3 : PTOSIM_DT_F8E5M2, src = bf ? PTOSIM_DT_BF16 : PTOSIM_DT_F16;
        float vals[256];
        for (unsigned c = 0; c < 256; c++) vals[c] = ref_f8(e4, c);
        static const uint16_t sp16[] = {0x7E00, 0x7C00, 0xFC00, 0x0000, 0x8000, 0x7BFF, 0x5B00, 0x3C20, 0xBC60, 0x0001};
        static const uint16_t spbf[] = {0x7FC0, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x7F7F, 0x43E0, 0x3F84, 0xBF8C, 0x0001};
        ptosim_vreg h, out;
        for (int l = 0; l < 128; l++) {
          uint16_t b = l < 10 ? (bf ? spbf : sp16)[l] : (uint16_t)((bf ? 0x3B00 : 0x2000) + l * 337 % 0x1800 + (l & 1) * 0x8000);
          memcpy(h.b + 2 * l, &b, 2);
        }
        ptosim_vmask m = make_mask(2);
        memset(&out, 0xa5, sizeof out);
        ptosim_vcvt_params p = {&out, &h, &m, src, t, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, odd ? PTOSIM_VPART_ODD : PTOSIM_VPART_EVEN};
        CHECK_MSG(ptosim_vcvt(core, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m5)->msg);
        for (int j = 0; j < 256; j++) {
          int l = j / 2;
          unsigned b = h.b[2 * l] | h.b[2 * l + 1] << 8;
          unsigned want = j % 2 == odd && mbit(&m, 2 * l) ? ref_nearest(bf ? bf16f(b) : f16f(b), vals, 256) : 0;
          if (out.b[j] != want && bad++ < 3)
            CHECK_MSG(0, "%s -> %s %s byte %d: %02x want %02x", pt_dtype_name(src), pt_dtype_name(t), odd ? "ODD" : "EVEN", j, out.b[j], want);
        }
      }
  CHECK(bad == 0);
  /* the rounding letters of the pair: f16 -> hif8 takes A only */
  ptosim_vreg a, r;
  memset(&a, 0, sizeof a);
  ptosim_vmask all = make_mask(0);
  ptosim_vcvt_params hr = {&r, &a, &all, PTOSIM_DT_F16, PTOSIM_DT_HIF8, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_EVEN};
  CHECK(ptosim_vcvt(core, &hr) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, "vec.vcvt_rnd"));
  hr.rnd = PTOSIM_VRND_A;
  CHECK(ptosim_vcvt(core, &hr) == PTOSIM_OK);
}

static void test_vcvt_low_precision(void) {
  static const float special[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e10f, -1e10f, 1.0625f, -1.1875f, 448.0f, 57344.0f, 1.375f};
  int bad = 0;
  for (int e4 = 0; e4 < 2; e4++) {
    ptosim_dtype t = e4 ? PTOSIM_DT_F8E4M3 : PTOSIM_DT_F8E5M2;
    float vals[256];
    for (unsigned c = 0; c < 256; c++) vals[c] = ref_f8(e4, c);
    for (int k = 0; k < 4; k++)
      for (int mk = 0; mk < 2; mk++) {
        ptosim_vreg s8, f, back;
        for (int b = 0; b < 256; b++) s8.b[b] = (uint8_t)(b * 37 + k);
        ptosim_vmask m = make_mask(mk ? 2 : 0);
        ptosim_vpart part = (ptosim_vpart)(PTOSIM_VPART_P0 + k);
        ptosim_vcvt_params up = {&f, &s8, &m, t, PTOSIM_DT_F32, PTOSIM_VRND_NONE, PTOSIM_VSAT_NONE, part};
        CHECK(ptosim_vcvt(core, &up) == PTOSIM_OK);
        for (int i = 0; i < 64; i++) {
          float have, want = mbit(&m, 4 * i + k) ? vals[s8.b[4 * i + k]] : 0.0f;
          memcpy(&have, f.b + 4 * i, 4);
          if (!same_f(have, want) && bad++ < 3) CHECK_MSG(0, "%s -> f32 P%d lane %d", pt_dtype_name(t), k, i);
        }
        for (int i = 0; i < 64; i++) {
          float v = i < 12 ? special[i] : ldexpf((float)(i * 7919 % 1000) - 500.0f, i % 9 - 6);
          memcpy(f.b + 4 * i, &v, 4);
        }
        memset(&back, 0xa5, sizeof back);
        ptosim_vcvt_params down = {&back, &f, &m, PTOSIM_DT_F32, t, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, part};
        CHECK(ptosim_vcvt(core, &down) == PTOSIM_OK);
        for (int j = 0; j < 256; j++) {
          float v;
          memcpy(&v, f.b + 4 * (j / 4), 4);
          unsigned want = j % 4 == k && mbit(&m, 4 * (j / 4)) ? ref_nearest(v, vals, 256) : 0;
          if (back.b[j] != want && bad++ < 3) CHECK_MSG(0, "f32 -> %s P%d byte %d: %02x want %02x", pt_dtype_name(t), k, j, back.b[j], want);
        }
      }
  }
  /* hif8 specials (golden.py decode_hif8): 0x80 NaN, 0x6f / 0xef +-inf; SAT: NaN -> 0, inf -> +-0x6e */
  {
    ptosim_vreg s8, f, back;
    ptosim_vmask all = make_mask(0);
    memset(&s8, 0, sizeof s8);
    s8.b[4] = 0x80, s8.b[8] = 0x6f, s8.b[12] = 0xef;
    ptosim_vcvt_params up = {&f, &s8, &all, PTOSIM_DT_HIF8, PTOSIM_DT_F32, PTOSIM_VRND_NONE, PTOSIM_VSAT_NONE, PTOSIM_VPART_P0};
    CHECK(ptosim_vcvt(core, &up) == PTOSIM_OK);
    float v[4];
    memcpy(v, f.b, 16);
    CHECK(v[0] == 0 && isnan(v[1]) && v[2] == INFINITY && v[3] == -INFINITY);
    ptosim_vcvt_params down = {&back, &f, &all, PTOSIM_DT_F32, PTOSIM_DT_HIF8, PTOSIM_VRND_A, PTOSIM_VSAT_SAT, PTOSIM_VPART_P2};
    CHECK(ptosim_vcvt(core, &down) == PTOSIM_OK);
    CHECK(back.b[2] == 0 && back.b[6] == 0 && back.b[10] == 0x6e && back.b[14] == 0xee && back.b[0] == 0 && back.b[3] == 0);
  }
  /* fp4 <-> bf16 */
  for (int fmt = 0; fmt < 2; fmt++) {
    ptosim_dtype t = fmt ? PTOSIM_DT_F4E2M1X2 : PTOSIM_DT_F4E1M2X2;
    float vals[16];
    for (unsigned c = 0; c < 16; c++) vals[c] = bf16f(ref_f4[fmt][c]);
    for (int k = 0; k < 4; k++)
      for (int mk = 0; mk < 2; mk++) {
        ptosim_vreg s4, h, back;
        for (int b = 0; b < 256; b++) s4.b[b] = (uint8_t)(b * 29 + k);
        ptosim_vmask m = make_mask(mk ? 2 : 0);
        ptosim_vpart part = (ptosim_vpart)(PTOSIM_VPART_P0 + k);
        ptosim_vcvt_params up = {&h, &s4, &m, t, PTOSIM_DT_BF16, PTOSIM_VRND_NONE, PTOSIM_VSAT_NONE, part};
        CHECK(ptosim_vcvt(core, &up) == PTOSIM_OK);
        for (int l = 0; l < 128; l++) {
          unsigned byte = s4.b[4 * (l / 2) + k], want = mbit(&m, 4 * (l / 2) + k) ? ref_f4[fmt][(byte >> (4 * (l % 2))) & 15] : 0;
          unsigned have = h.b[2 * l] | h.b[2 * l + 1] << 8;
          if (have != want && bad++ < 3) CHECK_MSG(0, "%s -> bf16 P%d lane %d", pt_dtype_name(t), k, l);
        }
        for (int l = 0; l < 128; l++) { /* specials, ties, overflow, then a spread */
          static const uint16_t sp[] = {0x7FC0, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x3F20, 0x3F60, 0x3FA0, 0x3FE0, 0xBF20, 0x4100, 0x3E00};
          uint16_t b = l < 12 ? sp[l] : (uint16_t)(0x3C00 + l * 37 % 0x500 + (l & 1) * 0x8000);
          memcpy(h.b + 2 * l, &b, 2);
        }
        memset(&back, 0xa5, sizeof back);
        ptosim_vcvt_params down = {&back, &h, &m, PTOSIM_DT_BF16, t, PTOSIM_VRND_R, PTOSIM_VSAT_NONE, part};
        CHECK(ptosim_vcvt(core, &down) == PTOSIM_OK);
        for (int j = 0; j < 256; j++) {
          unsigned want = 0;
          for (int n = 0; n < 2 && j % 4 == k; n++) {
            int l = 2 * (j / 4) + n;
            if (mbit(&m, 2 * l)) want |= ref_nearest(bf16f(h.b[2 * l] | h.b[2 * l + 1] << 8), vals, 16) << (4 * n);
          }
          if (back.b[j] != want && bad++ < 3) CHECK_MSG(0, "bf16 -> %s P%d byte %d: %02x want %02x", pt_dtype_name(t), k, j, back.b[j], want);
        }
      }
  }
  CHECK_MSG(!bad, "%d bad lanes", bad);
  /* negative: a rounding letter the pair does not take, sat on bf16 -> fp4, a 2-way part */
  ptosim_vreg s, d;
  ptosim_vmask all = make_mask(0);
  memset(&s, 0, sizeof s);
  ptosim_vcvt_params p1 = {&d, &s, &all, PTOSIM_DT_F32, PTOSIM_DT_HIF8, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_P0};
  CHECK(failed_with(ptosim_vcvt(core, &p1), "vec.vcvt_rnd"));
  ptosim_vcvt_params p2 = {&d, &s, &all, PTOSIM_DT_BF16, PTOSIM_DT_F4E2M1X2, PTOSIM_VRND_R, PTOSIM_VSAT_SAT, PTOSIM_VPART_P0};
  CHECK(failed_with(ptosim_vcvt(core, &p2), "vec.vcvt_sat"));
  ptosim_vcvt_params p3 = {&d, &s, &all, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, PTOSIM_VRND_NONE, PTOSIM_VSAT_NONE, PTOSIM_VPART_EVEN};
  CHECK(failed_with(ptosim_vcvt(core, &p3), "vec.vcvt_part"));
}

/* ---- vtrc ------------------------------------------------------------------------------------ */

static void test_vtrc(void) {
  static const ptosim_dtype ts[3] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_BF16};
  for (int t = 0; t < 3; t++) {
    const kind *k = kind_of(ts[t]);
    for (int r = R_R; r <= R_Z; r++)
      for (int mk = 0; mk < 3; mk++) {
        ptosim_vreg s, d;
        fill(k, &s);
        ptosim_vmask m = make_mask(mk);
        ptosim_vtrc_params p = {&d, &s, &m, ts[t], (ptosim_vrnd)r};
        CHECK(ptosim_vtrc(core, &p) == PTOSIM_OK);
        int ok = 1;
        for (int i = 0; i < 256 / k->bytes; i++) {
          long double v = decode(k, s.b + i * k->bytes), have = decode(k, d.b + i * k->bytes);
          if (!mbit(&m, i * k->bytes)) {
            ok &= have == 0 && !signbit(have);
            continue;
          }
          long double want = isnan(v) || isinf(v) ? v : round_int(v, r);
          if (want == 0) want = copysignl(0, v);
          ok &= isnan(want) ? isnan(have) : have == want && signbit(have) == signbit(want);
        }
        CHECK_MSG(ok, "vtrc %s rnd %d mask %d", pt_dtype_name(ts[t]), r, mk);
      }
  }
  /* corpus vtrc-rounding-boundary: R / Z / F of the half-integers */
  static const float in[9] = {-3.5f, -3.0f, -2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3.5f};
  static const float gold[3][9] = {{-4, -3, -2, -2, -0.0f, 0, 2, 2, 4},
                                   {-3, -3, -2, -1, -0.0f, 0, 1, 2, 3},
                                   {-4, -3, -3, -2, -1, 0, 1, 2, 3}};
  static const ptosim_vrnd modes[3] = {PTOSIM_VRND_R, PTOSIM_VRND_Z, PTOSIM_VRND_F};
  ptosim_vreg s, d;
  ptosim_vmask all = make_mask(0);
  for (int i = 0; i < 64; i++) memcpy(s.b + 4 * i, &in[i % 9], 4);
  for (int md = 0; md < 3; md++) {
    ptosim_vtrc_params p = {&d, &s, &all, PTOSIM_DT_F32, modes[md]};
    CHECK(ptosim_vtrc(core, &p) == PTOSIM_OK);
    int ok = 1;
    for (int i = 0; i < 64; i++) {
      float v;
      memcpy(&v, d.b + 4 * i, 4);
      ok &= v == gold[md][i % 9] && signbit(v) == signbit(gold[md][i % 9]);
    }
    CHECK_MSG(ok, "vtrc golden mode %d", md);
  }
  ptosim_vtrc_params odd = {&d, &s, &all, PTOSIM_DT_F32, PTOSIM_VRND_O};
  CHECK(failed_with(ptosim_vtrc(core, &odd), "vec.vtrc_rnd"));
  ptosim_vtrc_params none = {&d, &s, &all, PTOSIM_DT_F32, PTOSIM_VRND_NONE};
  CHECK(failed_with(ptosim_vtrc(core, &none), "vec.vtrc_rnd"));
  ptosim_vtrc_params ity = {&d, &s, &all, PTOSIM_DT_I32, PTOSIM_VRND_R};
  CHECK(failed_with(ptosim_vtrc(core, &ity), "vec.dtype"));
}

/* ---- vci / vbitcast ---------------------------------------------------------------------------- */

static void test_vci(void) {
  static const ptosim_dtype ts[] = {PTOSIM_DT_I8, PTOSIM_DT_U8, PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32,
                                    PTOSIM_DT_F16, PTOSIM_DT_F32};
  static const uint64_t fbase[] = {0x0000, 0x3c00, 0xbc00, 0x7bf0, 0x0001, 0x6400, 0xd400}; /* f16 bits */
  static const float f32base[] = {0.0f, 1.5f, -100.25f, 16777215.0f, 1e30f, -3.0e-5f, 8388607.5f};
  for (unsigned t = 0; t < sizeof ts / sizeof ts[0]; t++) {
    const kind *k = kind_of(ts[t]);
    for (int b = 0; b < 7; b++)
      for (int ord = 0; ord < 2; ord++) {
        uint64_t bits = pt_rand_u64(&seed);
        if (ts[t] == PTOSIM_DT_F16) bits = fbase[b];
        if (ts[t] == PTOSIM_DT_F32) {
          uint32_t w;
          memcpy(&w, &f32base[b], 4);
          bits = w;
        }
        ptosim_vreg d;
        ptosim_vci_params p = {&d, {ts[t], bits}, (ptosim_vci_order)ord};
        CHECK(ptosim_vci(core, &p) == PTOSIM_OK);
        uint8_t bb[8];
        for (int q = 0; q < 8; q++) bb[q] = (uint8_t)(bits >> (8 * q));
        long double base = decode(k, bb);
        int ok = 1;
        for (int i = 0; i < 256 / k->bytes; i++) {
          long double want = base + (ord ? -i : i), have = decode(k, d.b + i * k->bytes);
          if (k->is_float)
            want = to_float(want, k, R_R, 0);
          else
            want = decode(k, (const uint8_t *)&(uint64_t){(uint64_t)(int64_t)want}); /* wrap to the width */
          ok &= have == want;
        }
        CHECK_MSG(ok, "vci %s base %d order %d", pt_dtype_name(ts[t]), b, ord);
      }
  }
  /* corpus vci-si8: base 0 ASC wraps: lane 200 = -56 */
  ptosim_vreg d;
  ptosim_vci_params p8 = {&d, {PTOSIM_DT_I8, 0}, PTOSIM_VCI_ASC};
  CHECK(ptosim_vci(core, &p8) == PTOSIM_OK && (int8_t)d.b[200] == -56 && d.b[127] == 127);
  ptosim_vci_params p64 = {&d, {PTOSIM_DT_I64, 0}, PTOSIM_VCI_ASC};
  CHECK(failed_with(ptosim_vci(core, &p64), "vec.dtype"));
  ptosim_vci_params pbf = {&d, {PTOSIM_DT_BF16, 0}, PTOSIM_VCI_ASC};
  CHECK(failed_with(ptosim_vci(core, &pbf), "vec.dtype"));
  ptosim_vci_params pord = {&d, {PTOSIM_DT_I32, 0}, (ptosim_vci_order)4};
  CHECK(failed_with(ptosim_vci(core, &pord), "vec.order"));
}

static void test_vbitcast(void) {
  ptosim_vreg s, d;
  fill(kind_of(PTOSIM_DT_F32), &s);
  ptosim_vbitcast_params p = {&d, &s};
  CHECK(ptosim_vbitcast(core, &p) == PTOSIM_OK && !memcmp(&d, &s, sizeof d));
  ptosim_vbitcast_params nul = {&d, NULL};
  CHECK(failed_with(ptosim_vbitcast(core, &nul), "vec.operand"));
}

static void test_target(void) {
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_core *c2 = ptosim_core_of(m2, 0, PTOSIM_AIV0);
  ptosim_vreg s, d;
  memset(&s, 0, sizeof s);
  ptosim_vmask m = make_mask(0);
  ptosim_vcvt_params pc = {&d, &s, &m, PTOSIM_DT_I32, PTOSIM_DT_F32, PTOSIM_VRND_R, PTOSIM_VSAT_NONE, PTOSIM_VPART_NONE};
  ptosim_vtrc_params pt = {&d, &s, &m, PTOSIM_DT_F32, PTOSIM_VRND_R};
  ptosim_vci_params pv = {&d, {PTOSIM_DT_I32, 0}, PTOSIM_VCI_ASC};
  ptosim_vbitcast_params pb = {&d, &s};
#define ON_A2A3(call) CHECK_MSG((call) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m2)->rule, "vec.target"), #call)
  ON_A2A3(ptosim_vcvt(c2, &pc));
  ON_A2A3(ptosim_vtrc(c2, &pt));
  ON_A2A3(ptosim_vci(c2, &pv));
  ON_A2A3(ptosim_vbitcast(c2, &pb));
#undef ON_A2A3
  ptosim_machine_free(m2);
}

int main(void) {
  m5 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  core = ptosim_core_of(m5, 0, PTOSIM_AIV0);
  RUN(test_vcvt_forms);
  RUN(test_vcvt_golden);
  RUN(test_vcvt_alias);
  RUN(test_vcvt_ctrl);
  RUN(test_vcvt_rules);
  RUN(test_vcvt_low_precision);
  RUN(test_vcvt_half_to_f8);
  RUN(test_vtrc);
  RUN(test_vci);
  RUN(test_vbitcast);
  RUN(test_target);
  ptosim_machine_free(m5);
  return pt_test_finish();
}
