/* Element types and conversions (src/core/dtype.c).
 *
 * Every reference below is written independently of the code under test:
 *   - f16 decode against gcc's _Float16 and an ldexp decoder; f32 -> f16 RINT against
 *     (_Float16)x; the other modes against a double-arithmetic reference (ilogb/ldexp/floor
 *     pick the two neighbouring representable values, then the mode chooses);
 *   - bf16 against the same double-arithmetic reference and an ldexp decoder;
 *   - 8-bit floats against a value table generated from the format definition in this file
 *     (HIF8: by enumerating dot / exponent / mantissa fields), and f32 -> f8 against a
 *     brute-force scan of all 256 encodings for the nearest values below and above x;
 *   - integers against the C library's nearbyint/round/floor/ceil/trunc. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "core/dtype.h"
#include "harness.h"

static const pt_round k_modes[] = {PT_RND_RINT, PT_RND_AWAY, PT_RND_FLOOR, PT_RND_CEIL, PT_RND_TRUNC, PT_RND_ODD};
static const char *const k_mode_name[] = {"rint", "away", "floor", "ceil", "trunc", "odd"};
static const pt_sat k_sats[] = {PT_SAT_OFF, PT_SAT_ON, PT_SAT_KEEPNAN};
#define NMODES 6
#define NSATS 3

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float bitsf(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* gcc defines __FLT16_MAX__ when it supports _Float16 (gcc >= 12 on x86_64). Without it the
 * f16 checks use only the ldexp decoder and the double-arithmetic reference. */
#if defined(__FLT16_MAX__)
#define HAVE_FLOAT16 1
static uint16_t h16bits(_Float16 h) {
  uint16_t u;
  memcpy(&u, &h, 2);
  return u;
}

static _Float16 bitsh16(uint16_t u) {
  _Float16 h;
  memcpy(&h, &u, 2);
  return h;
}
#else
#define HAVE_FLOAT16 0
#endif

/* Same value and sign (NaN == NaN). */
static int same_float(float a, float b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return fbits(a) == fbits(b);
}

/* ------------------------------------------------------------------------------------------ */
/* Generic double-arithmetic reference for binary formats with m mantissa bits, minimum normal
 * exponent emin, largest finite maxv and infinity (f16, bf16).
 * Returns the rounded value as a double (+-INFINITY on overflow to inf, NAN for NaN). */

static int mode_overflows_to_inf(pt_round r, int neg) {
  /* IEEE 754 7.4: nearest modes overflow to inf; directed modes to inf only when rounding
   * away from zero; round-to-odd keeps the largest finite value. */
  static const int pos[NMODES] = {1, 1, 0, 1, 0, 0};
  static const int negt[NMODES] = {1, 1, 1, 0, 0, 0};
  return neg ? negt[r] : pos[r];
}

static double ref_round_binary(float xf, pt_round r, pt_sat s, int m, int emin, double maxv) {
  double x = xf;
  if (isnan(x)) return s == PT_SAT_ON ? 0.0 : NAN;
  int neg = signbit(x) != 0;
  double ax = fabs(x);
  double res;
  if (isinf(x)) {
    res = s == PT_SAT_OFF ? INFINITY : maxv;
    return neg ? -res : res;
  }
  if (ax == 0) return x;
  int e = ilogb(ax);
  if (e < emin) e = emin;
  double q = ldexp(1.0, e - m);
  double lo = floor(ax / q) * q, hi = lo + q;
  if (lo == ax) {
    res = lo;
  } else {
    double dlo = ax - lo, dhi = hi - ax;
    int lo_even = fmod(lo / q, 2.0) == 0.0;
    switch (r) {
      case PT_RND_RINT: res = dlo < dhi ? lo : dhi < dlo ? hi : (lo_even ? lo : hi); break;
      case PT_RND_AWAY: res = dlo < dhi ? lo : hi; break;
      case PT_RND_FLOOR: res = neg ? hi : lo; break;
      case PT_RND_CEIL: res = neg ? lo : hi; break;
      case PT_RND_TRUNC: res = lo; break;
      default: res = lo_even ? hi : lo; break;
    }
  }
  if (res > maxv) res = (mode_overflows_to_inf(r, neg) && s == PT_SAT_OFF) ? INFINITY : maxv;
  return neg ? -res : res;
}

/* ------------------------------------------------------------------------------------------ */
/* Names */

static void test_names(void) {
  static const struct {
    ptosim_dtype t;
    unsigned bits, size;
    const char *name;
    int isf, iss;
  } tab[] = {
      {PTOSIM_DT_I8, 8, 1, "i8", 0, 1},           {PTOSIM_DT_U8, 8, 1, "ui8", 0, 0},
      {PTOSIM_DT_I16, 16, 2, "i16", 0, 1},        {PTOSIM_DT_U16, 16, 2, "ui16", 0, 0},
      {PTOSIM_DT_I32, 32, 4, "i32", 0, 1},        {PTOSIM_DT_U32, 32, 4, "ui32", 0, 0},
      {PTOSIM_DT_I64, 64, 8, "i64", 0, 1},        {PTOSIM_DT_U64, 64, 8, "ui64", 0, 0},
      {PTOSIM_DT_F16, 16, 2, "f16", 1, 0},        {PTOSIM_DT_BF16, 16, 2, "bf16", 1, 0},
      {PTOSIM_DT_F32, 32, 4, "f32", 1, 0},        {PTOSIM_DT_F8E4M3, 8, 1, "f8E4M3FN", 1, 0},
      {PTOSIM_DT_F8E5M2, 8, 1, "f8E5M2", 1, 0},   {PTOSIM_DT_HIF8, 8, 1, "hif8", 1, 0},
      {PTOSIM_DT_F8E8M0, 8, 1, "f8E8M0FNU", 1, 0}, {PTOSIM_DT_I4, 4, 0, "i4", 0, 1},
      {PTOSIM_DT_F64, 64, 8, "f64", 1, 0},        {PTOSIM_DT_F4E1M2X2, 8, 1, "f4E1M2x2", 0, 0},
      {PTOSIM_DT_F4E2M1X2, 8, 1, "f4E2M1x2", 0, 0}, {PTOSIM_DT_HIF8X2, 16, 2, "hif8x2", 0, 0},
      {PTOSIM_DT_BF16X2, 32, 4, "bf16x2", 0, 0},  {PTOSIM_DT_F16V2, 32, 4, "vector<2xf16>", 0, 0},
      {PTOSIM_DT_BF16V2, 32, 4, "vector<2xbf16>", 0, 0},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    CHECK(pt_dtype_bits(tab[i].t) == tab[i].bits);
    CHECK(pt_dtype_size(tab[i].t) == tab[i].size);
    CHECK(strcmp(pt_dtype_name(tab[i].t), tab[i].name) == 0);
    CHECK(pt_dtype_is_float(tab[i].t) == (tab[i].isf != 0));
    CHECK(pt_dtype_is_signed_int(tab[i].t) == (tab[i].iss != 0));
    CHECK(pt_dtype_parse(tab[i].name, (unsigned)strlen(tab[i].name)) == tab[i].t);
  }
  CHECK(pt_dtype_bits(PTOSIM_DT_NONE) == 0 && pt_dtype_size(PTOSIM_DT_NONE) == 0);
  static const struct {
    const char *s;
    ptosim_dtype t;
  } al[] = {
      {"si8", PTOSIM_DT_I8},   {"u8", PTOSIM_DT_U8},    {"b8", PTOSIM_DT_U8},     {"si16", PTOSIM_DT_I16},
      {"u16", PTOSIM_DT_U16},  {"b16", PTOSIM_DT_U16},  {"si32", PTOSIM_DT_I32},  {"u32", PTOSIM_DT_U32},
      {"b32", PTOSIM_DT_U32},  {"si64", PTOSIM_DT_I64}, {"u64", PTOSIM_DT_U64},   {"si4", PTOSIM_DT_I4},
      {"ui64", PTOSIM_DT_U64}, {"i4", PTOSIM_DT_I4},    {"f8E4M3FN", PTOSIM_DT_F8E4M3},
      {"!pto.f4E1M2x2", PTOSIM_DT_F4E1M2X2}, {"pto.f4E2M1x2", PTOSIM_DT_F4E2M1X2}, {"!pto.hif8x2", PTOSIM_DT_HIF8X2},
      {"pto.bf16x2", PTOSIM_DT_BF16X2}, {"!pto.f8E8M0", PTOSIM_DT_F8E8M0}, {"pto.f8E8M0", PTOSIM_DT_F8E8M0},
  };
  for (size_t i = 0; i < sizeof al / sizeof al[0]; i++)
    CHECK_MSG(pt_dtype_parse(al[i].s, (unsigned)strlen(al[i].s)) == al[i].t, "%s", al[i].s);
  CHECK(pt_dtype_parse("f8E4M3", 6) == PTOSIM_DT_NONE);
  CHECK(pt_dtype_parse("vector<2xf32>", 13) == PTOSIM_DT_NONE);
  /* f64 elements read and written as f32: exact both ways for f32 values */
  double d = -0.1;
  float back = pt_load_as_f32(PTOSIM_DT_F64, &d);
  CHECK(back == -0.1f);
  pt_store_from_f32(PTOSIM_DT_F64, &d, 3.0e38f, PT_RND_RINT, PT_SAT_ON);
  CHECK(d == (double)3.0e38f);
  CHECK(pt_dtype_parse("f1", 2) == PTOSIM_DT_NONE);
  CHECK(pt_dtype_parse("", 0) == PTOSIM_DT_NONE);
  CHECK(pt_dtype_parse("f16x", 3) == PTOSIM_DT_F16); /* length-delimited */
  CHECK(pt_dtype_parse("F16", 3) == PTOSIM_DT_NONE);
  CHECK(pt_dtype_parse("i128", 4) == PTOSIM_DT_NONE);
}

/* ------------------------------------------------------------------------------------------ */
/* f16 */

static float ldexp_f16(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (float)((h & 0x8000) ? -v : v);
}

static void test_f16_decode(void) {
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t h = (uint16_t)i;
    float got = pt_f16_to_f32(h);
#if HAVE_FLOAT16
    float ref = (float)bitsh16(h);
    CHECK_MSG(same_float(got, ref), "h=0x%04x got %a ref %a", h, (double)got, (double)ref);
#else
    float ref = ldexp_f16(h);
#endif
    CHECK_MSG(same_float(got, ldexp_f16(h)), "h=0x%04x", h);
    if (isnan(got)) CHECK(signbit(got) == signbit(ref));
  }
}

static int f16_is_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }

static void test_f16_roundtrip(void) {
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t h = (uint16_t)i;
    float f = pt_f16_to_f32(h);
    for (int mi = 0; mi < NMODES; mi++)
      for (int si = 0; si < NSATS; si++) {
        uint16_t back = pt_f32_to_f16(f, k_modes[mi], k_sats[si]);
        uint16_t want = h;
        if (f16_is_nan(h)) {
          if (k_sats[si] == PT_SAT_ON)
            CHECK(back == 0);
          else
            CHECK_MSG(f16_is_nan(back) && (back & 0x8000) == (h & 0x8000), "nan 0x%04x -> 0x%04x", h, back);
          continue;
        }
        if ((h & 0x7FFF) == 0x7C00 && k_sats[si] != PT_SAT_OFF) want = (uint16_t)((h & 0x8000) | 0x7BFF);
        CHECK_MSG(back == want, "h=0x%04x mode %s sat %d -> 0x%04x", h, k_mode_name[mi], si, back);
      }
  }
}

/* Expected f16 encoding from the reference value. */
static uint16_t f16_of_ref(double v) {
  if (isnan(v)) return 0x7E00;
#if HAVE_FLOAT16
  return h16bits((_Float16)v); /* exact: v is representable */
#else
  uint16_t sign = signbit(v) ? 0x8000 : 0, lo = 0, hi = 0x7C00; /* binary search of the encodings */
  double a = fabs(v);
  while (lo < hi) {
    uint16_t mid = (uint16_t)((lo + hi) / 2);
    if (ldexp_f16(mid) < a)
      lo = (uint16_t)(mid + 1);
    else
      hi = mid;
  }
  return (uint16_t)(sign | lo);
#endif
}

static int check_f16_one(float x, pt_round r, pt_sat s) {
  uint16_t got = pt_f32_to_f16(x, r, s);
  double rv = ref_round_binary(x, r, s, 10, -14, 65504.0);
  if (isnan(rv)) return f16_is_nan(got);
  uint16_t want = f16_of_ref(rv);
  if (got != want) {
    CHECK_MSG(got == want, "f32 %a (0x%08x) mode %s sat %d: got 0x%04x want 0x%04x", (double)x, fbits(x),
              k_mode_name[r], (int)s, got, want);
    return 0;
  }
  return 1;
}

static int check_f16_rint_native(float x) {
#if !HAVE_FLOAT16
  return check_f16_one(x, PT_RND_RINT, PT_SAT_OFF);
#else
  uint16_t got = pt_f32_to_f16(x, PT_RND_RINT, PT_SAT_OFF);
  uint16_t want = h16bits((_Float16)x);
  if (isnan(x)) return f16_is_nan(got) && f16_is_nan(want);
  if (got != want) {
    CHECK_MSG(got == want, "(_Float16)%a: got 0x%04x want 0x%04x", (double)x, got, want);
    return 0;
  }
  return 1;
#endif
}

/* All f32 values near every f16 rounding boundary (each f16 value, each midpoint, +-1 f32 ulp). */
static void test_f16_boundaries(void) {
  long n = 0, bad = 0;
  for (uint32_t i = 0; i < 0x7C00; i++) {
    double v = ldexp_f16((uint16_t)i);
    double next = i + 1 < 0x7C00 ? ldexp_f16((uint16_t)(i + 1)) : 65536.0; /* 65536: the next binade */
    float mid = (float)((v + next) / 2);
    float pts[] = {(float)v,
                   nextafterf((float)v, INFINITY),
                   nextafterf((float)v, -INFINITY),
                   mid,
                   nextafterf(mid, INFINITY),
                   nextafterf(mid, -INFINITY),
                   (float)(v + (next - v) / 4),
                   (float)(v + 3 * (next - v) / 4)};
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++)
      for (int sg = 0; sg < 2; sg++) {
        float x = sg ? -pts[k] : pts[k];
        n++;
        bad += !check_f16_rint_native(x);
        for (int mi = 0; mi < NMODES; mi++)
          for (int si = 0; si < NSATS; si++) bad += !check_f16_one(x, k_modes[mi], k_sats[si]);
      }
  }
  static const float extra[] = {65504.0f, 65519.0f, 65520.0f, 65536.0f, 1e10f, FLT_MAX, INFINITY, 0x1p-25f,
                                0x1.000002p-25f, 0x1p-26f, 0x1p-149f, 0x1p-126f, 0x1.8p-24f, 0x1.7ffffep-24f};
  for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++)
    for (int sg = 0; sg < 2; sg++) {
      float x = sg ? -extra[k] : extra[k];
      bad += !check_f16_rint_native(x);
      for (int mi = 0; mi < NMODES; mi++)
        for (int si = 0; si < NSATS; si++) bad += !check_f16_one(x, k_modes[mi], k_sats[si]);
    }
  /* A few by hand. */
  CHECK(pt_f32_to_f16(65520.0f, PT_RND_RINT, PT_SAT_OFF) == 0x7C00);
  CHECK(pt_f32_to_f16(65519.996f, PT_RND_RINT, PT_SAT_OFF) == 0x7BFF);
  CHECK(pt_f32_to_f16(65520.0f, PT_RND_RINT, PT_SAT_ON) == 0x7BFF);
  CHECK(pt_f32_to_f16(1e9f, PT_RND_TRUNC, PT_SAT_OFF) == 0x7BFF);
  CHECK(pt_f32_to_f16(-1e9f, PT_RND_FLOOR, PT_SAT_OFF) == 0xFC00);
  CHECK(pt_f32_to_f16(-1e9f, PT_RND_CEIL, PT_SAT_OFF) == 0xFBFF);
  CHECK(pt_f32_to_f16(0x1p-25f, PT_RND_RINT, PT_SAT_OFF) == 0x0000);
  CHECK(pt_f32_to_f16(0x1p-25f, PT_RND_AWAY, PT_SAT_OFF) == 0x0001);
  CHECK(pt_f32_to_f16(-0x1p-30f, PT_RND_FLOOR, PT_SAT_OFF) == 0x8001);
  CHECK(pt_f32_to_f16(-0x1p-30f, PT_RND_CEIL, PT_SAT_OFF) == 0x8000);
  CHECK(pt_f32_to_f16(0x1p-30f, PT_RND_ODD, PT_SAT_OFF) == 0x0001);
  CHECK(pt_f32_to_f16(1.0f + 0x1p-11f, PT_RND_RINT, PT_SAT_OFF) == 0x3C00);
  CHECK(pt_f32_to_f16(1.0f + 0x1p-11f, PT_RND_AWAY, PT_SAT_OFF) == 0x3C01);
  CHECK(pt_f32_to_f16(1.0f + 0x1p-12f, PT_RND_ODD, PT_SAT_OFF) == 0x3C01);
  CHECK(pt_f32_to_f16(NAN, PT_RND_RINT, PT_SAT_ON) == 0);
  CHECK(f16_is_nan(pt_f32_to_f16(NAN, PT_RND_RINT, PT_SAT_KEEPNAN)));
  CHECK(pt_f32_to_f16(-INFINITY, PT_RND_RINT, PT_SAT_KEEPNAN) == 0xFBFF);
  CHECK(n > 500000);
  fprintf(stderr, "  f16 boundaries: %ld inputs x %d modes x %d sats, %ld mismatches\n", n, NMODES, NSATS, bad);
}

static void test_f16_random(void) {
  unsigned long long s = 0x9E3779B97F4A7C15ULL;
  long bad = 0;
  const long N = 10000000;
  for (long i = 0; i < N; i++) {
    uint32_t u = (uint32_t)(pt_rand_u64(&s) >> 32);
    float x = bitsf(u);
    bad += !check_f16_rint_native(x);
    /* Other modes on every 4th input, steered into the f16 range half of the time. */
    if ((i & 3) == 0) {
      if (i & 4) x = bitsf((u & 0x87FFFFFFu) | 0x30000000u); /* 2^-31 .. 2^16 */
      pt_round r = k_modes[(i >> 3) % NMODES];
      pt_sat sat = k_sats[(i >> 6) % NSATS];
      bad += !check_f16_one(x, r, sat);
    }
  }
  fprintf(stderr, "  f16 random: %ld inputs, %ld mismatches\n", N, bad);
}

/* ------------------------------------------------------------------------------------------ */
/* bf16 */

static float ldexp_bf16(uint16_t b) {
  int e = (b >> 7) & 255, m = b & 127;
  double v = e == 0 ? ldexp(m, -133) : e == 255 ? (m ? NAN : INFINITY) : ldexp(128 + m, e - 134);
  return (float)((b & 0x8000) ? -v : v);
}

static int bf16_is_nan(uint16_t b) { return (b & 0x7F80) == 0x7F80 && (b & 0x7F); }

static const double k_bf16_max = 0x1.FEp127;

static int check_bf16_one(float x, pt_round r, pt_sat s) {
  uint16_t got = pt_f32_to_bf16(x, r, s);
  double rv = ref_round_binary(x, r, s, 7, -126, k_bf16_max);
  if (isnan(rv)) return bf16_is_nan(got);
  float rf = (float)rv; /* exact */
  uint16_t want = (uint16_t)(fbits(rf) >> 16);
  if ((fbits(rf) & 0xFFFF) != 0 || got != want) {
    CHECK_MSG(got == want, "bf16: f32 %a mode %s sat %d: got 0x%04x want 0x%04x", (double)x, k_mode_name[r], (int)s,
              got, want);
    return 0;
  }
  return 1;
}

static void test_bf16(void) {
  long bad = 0, n = 0;
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t b = (uint16_t)i;
    float f = pt_bf16_to_f32(b);
    CHECK_MSG(same_float(f, ldexp_bf16(b)), "bf16 0x%04x", b);
    for (int mi = 0; mi < NMODES; mi++)
      for (int si = 0; si < NSATS; si++) {
        uint16_t back = pt_f32_to_bf16(f, k_modes[mi], k_sats[si]);
        if (bf16_is_nan(b)) {
          CHECK(k_sats[si] == PT_SAT_ON ? back == 0 : bf16_is_nan(back));
          continue;
        }
        uint16_t want = b;
        if ((b & 0x7FFF) == 0x7F80 && k_sats[si] != PT_SAT_OFF) want = (uint16_t)((b & 0x8000) | 0x7F7F);
        if (back != want) bad++;
        CHECK_MSG(back == want, "bf16 0x%04x %s sat %d -> 0x%04x", b, k_mode_name[mi], si, back);
      }
    /* boundaries: the midpoint to the next value, +-1 f32 ulp, and quarter points */
    if ((b & 0x7FFF) < 0x7F80) {
      uint32_t base = (uint32_t)b << 16;
      uint32_t offs[] = {0x8000, 0x7FFF, 0x8001, 0x0001, 0xFFFF, 0x4000, 0xC000};
      for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
        float x = bitsf(base + offs[k]);
        if (isnan(x)) continue;
        n++;
        for (int mi = 0; mi < NMODES; mi++)
          for (int si = 0; si < NSATS; si++) bad += !check_bf16_one(x, k_modes[mi], k_sats[si]);
      }
    }
  }
  unsigned long long s = 12345;
  for (long i = 0; i < 3000000; i++) {
    float x = bitsf((uint32_t)(pt_rand_u64(&s) >> 32));
    n++;
    bad += !check_bf16_one(x, k_modes[i % NMODES], k_sats[(i / NMODES) % NSATS]);
  }
  CHECK(pt_f32_to_bf16(1.0f + 0x1p-8f, PT_RND_RINT, PT_SAT_OFF) == 0x3F80);
  CHECK(pt_f32_to_bf16(1.0f + 0x1p-8f, PT_RND_AWAY, PT_SAT_OFF) == 0x3F81);
  CHECK(pt_f32_to_bf16(FLT_MAX, PT_RND_RINT, PT_SAT_OFF) == 0x7F80);
  CHECK(pt_f32_to_bf16(FLT_MAX, PT_RND_RINT, PT_SAT_ON) == 0x7F7F);
  CHECK(pt_f32_to_bf16(FLT_MAX, PT_RND_TRUNC, PT_SAT_OFF) == 0x7F7F);
  CHECK(pt_f32_to_bf16(0x1p-149f, PT_RND_CEIL, PT_SAT_OFF) == 0x0001);
  CHECK(pt_f32_to_bf16(0x1p-149f, PT_RND_RINT, PT_SAT_OFF) == 0x0000);
  fprintf(stderr, "  bf16: %ld inputs, %ld mismatches\n", n, bad);
}

/* ------------------------------------------------------------------------------------------ */
/* 8-bit floats: value tables written from the format definitions */

typedef struct f8_table {
  ptosim_dtype t;
  const char *name;
  double val[256]; /* NAN for NaN encodings */
  int has_negzero;  /* 0x80 is -0 */
  int has_inf;
  uint8_t posinf, maxcode, nan_pos; /* positive inf (if any), positive max finite, a NaN code */
  double maxv;                      /* largest finite */
  double vnext;                     /* the value the next encoding after max would have */
  int unsigned_only;                /* E8M0 */
} f8_table;

static f8_table g_e4m3, g_e5m2, g_hif8, g_e8m0;

static void build_tables(void) {
  /* E4M3FN: bias 7, subnormals 2^-6 * m/8, S.1111.111 NaN, no inf. */
  f8_table *t = &g_e4m3;
  t->t = PTOSIM_DT_F8E4M3;
  t->name = "e4m3";
  for (int c = 0; c < 256; c++) {
    int e = (c >> 3) & 15, m = c & 7;
    double v = (e == 15 && m == 7) ? NAN : e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6);
    t->val[c] = (c & 0x80) ? -v : v;
  }
  t->has_negzero = 1;
  t->has_inf = 0;
  t->maxcode = 0x7E;
  t->nan_pos = 0x7F;
  t->maxv = 448;
  t->vnext = 480;

  /* E5M2: bias 15, subnormals 2^-14 * m/4, exponent 31: inf / NaN. */
  t = &g_e5m2;
  t->t = PTOSIM_DT_F8E5M2;
  t->name = "e5m2";
  for (int c = 0; c < 256; c++) {
    int e = (c >> 2) & 31, m = c & 3;
    double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1.0 + m / 4.0, e - 15) : ldexp(m / 4.0, -14);
    t->val[c] = (c & 0x80) ? -v : v;
  }
  t->has_negzero = 1;
  t->has_inf = 1;
  t->posinf = 0x7C;
  t->maxcode = 0x7B;
  t->nan_pos = 0x7E;
  t->maxv = 57344;
  t->vnext = 65536;

  /* E8M0FNU: 2^(c-127), 0xFF NaN. */
  t = &g_e8m0;
  t->t = PTOSIM_DT_F8E8M0;
  t->name = "e8m0";
  for (int c = 0; c < 256; c++) t->val[c] = c == 255 ? NAN : ldexp(1.0, c - 127);
  t->has_negzero = 0;
  t->has_inf = 0;
  t->maxcode = 0xFE;
  t->nan_pos = 0xFF;
  t->maxv = 0x1p127;
  t->vnext = 0x1p128;
  t->unsigned_only = 1;

  /* HiFloat8, generated from the field definitions: sign | dot | exponent (D bits, sign-magnitude,
   * implicit top magnitude bit) | mantissa (7 - |dot| - D bits). */
  t = &g_hif8;
  t->t = PTOSIM_DT_HIF8;
  t->name = "hif8";
  int seen[256] = {0};
  for (int c = 0; c < 256; c++) t->val[c] = -12345.0; /* sentinel: must all be overwritten */
  static const struct {
    int dot, dotlen, D;
  } dots[] = {{3, 2, 4}, {2, 2, 3}, {1, 2, 2}, {1, 3, 1}, {1, 4, 0}};
  for (size_t k = 0; k < 5; k++) {
    int D = dots[k].D, mb = 7 - dots[k].dotlen - D;
    for (int ef = 0; ef < (1 << D); ef++)
      for (int mf = 0; mf < (1 << mb); mf++) {
        int E = 0;
        if (D > 0) {
          int mag = (1 << (D - 1)) + (ef & ((1 << (D - 1)) - 1));
          E = (ef >> (D - 1)) ? -mag : mag;
        }
        int code = (dots[k].dot << (D + mb)) | (ef << mb) | mf;
        double v = ldexp(1.0 + (double)mf / (1 << mb), E);
        if (D == 4 && E == 15 && mf == 1) v = INFINITY;
        CHECK(code < 128 && !seen[code]);
        seen[code] = 1;
        t->val[code] = v;
        t->val[code | 0x80] = -v;
        seen[code | 0x80] = 1;
      }
  }
  for (int M = 1; M < 8; M++) { /* denormal: dot 0000 */
    CHECK(!seen[M]);
    seen[M] = seen[M | 0x80] = 1;
    t->val[M] = ldexp(1.0, M - 23);
    t->val[M | 0x80] = -ldexp(1.0, M - 23);
  }
  t->val[0x00] = 0.0;
  t->val[0x80] = NAN;
  seen[0] = seen[0x80] = 1;
  for (int c = 0; c < 256; c++) CHECK_MSG(seen[c] && t->val[c] != -12345.0, "hif8 code 0x%02x not generated", c);
  t->has_negzero = 0;
  t->has_inf = 1;
  t->posinf = 0x6F;
  t->maxcode = 0x6E;
  t->nan_pos = 0x80;
  t->maxv = 32768;
  t->vnext = 49152;
}

static int f8_is_nan(const f8_table *t, uint8_t c) { return isnan(t->val[c]); }

static void test_f8_decode(void) {
  const f8_table *tabs[] = {&g_e4m3, &g_e5m2, &g_hif8, &g_e8m0};
  for (size_t k = 0; k < 4; k++) {
    const f8_table *t = tabs[k];
    int nnan = 0;
    for (int c = 0; c < 256; c++) {
      float got = pt_f8_to_f32(t->t, (uint8_t)c);
      float want = (float)t->val[c];
      nnan += isnan(want) != 0;
      CHECK_MSG(same_float(got, want), "%s 0x%02x: got %a want %a", t->name, c, (double)got, (double)want);
    }
    CHECK(nnan == (t->t == PTOSIM_DT_F8E5M2 ? 6 : t->t == PTOSIM_DT_F8E4M3 ? 2 : 1));
  }
  /* Spot values from the format descriptions. */
  CHECK(pt_f8_to_f32(PTOSIM_DT_F8E4M3, 0x7E) == 448.0f && pt_f8_to_f32(PTOSIM_DT_F8E4M3, 0x01) == 0x1p-9f);
  CHECK(pt_f8_to_f32(PTOSIM_DT_F8E4M3, 0x38) == 1.0f && pt_f8_to_f32(PTOSIM_DT_F8E4M3, 0xC0) == -2.0f);
  CHECK(pt_f8_to_f32(PTOSIM_DT_F8E5M2, 0x7B) == 57344.0f && pt_f8_to_f32(PTOSIM_DT_F8E5M2, 0x01) == 0x1p-16f);
  CHECK(isinf(pt_f8_to_f32(PTOSIM_DT_F8E5M2, 0xFC)) && pt_f8_to_f32(PTOSIM_DT_F8E5M2, 0x3C) == 1.0f);
  CHECK(pt_f8_to_f32(PTOSIM_DT_F8E8M0, 127) == 1.0f && pt_f8_to_f32(PTOSIM_DT_F8E8M0, 0) == 0x1p-127f);
  CHECK(pt_f8_to_f32(PTOSIM_DT_F8E8M0, 254) == 0x1p127f && isnan(pt_f8_to_f32(PTOSIM_DT_F8E8M0, 255)));
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x08) == 1.0f);          /* 0 0001 000: 2^0 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x6E) == 32768.0f);      /* 0 11 0111 0: 2^15 */
  CHECK(isinf(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x6F)));           /* 0 11 0111 1 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x7E) == 0x1p-15f);      /* 0 11 1111 0 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x01) == 0x1p-22f);      /* 0 0000 001 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x07) == 0x1p-16f);      /* 0 0000 111 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x1F) == 0x1.Ep-1f);     /* 0 001 1 111: 1.875 * 2^-1 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x17) == 0x1.Ep1f);      /* 0 001 0 111: 1.875 * 2^1 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x3D) == 0x1.Ap-3f);      /* 0 01 11 101: 1.625 * 2^-3 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x28) == 8.0f);          /* 0 01 01 000: 2^3 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x5F) == 0x1.Cp-7f);     /* 0 10 111 11: 1.75 * 2^-7 */
  CHECK(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x88) == -1.0f);
  CHECK(isnan(pt_f8_to_f32(PTOSIM_DT_HIF8, 0x80)) && pt_f8_to_f32(PTOSIM_DT_HIF8, 0x00) == 0.0f);
}

/* Expected encoding by brute force: scan all encodings for the nearest finite values below
 * and above x, then choose per mode and saturation. */
static uint8_t f8_ref(const f8_table *t, float xf, pt_round r, pt_sat s) {
  double x = xf;
  int neg = signbit(x) != 0;
  uint8_t posmax = t->maxcode, negmax = (uint8_t)(t->maxcode | 0x80);
  if (isnan(x)) return s == PT_SAT_ON ? 0x00 : (uint8_t)(t->nan_pos | (t->has_negzero && neg ? 0x80 : 0));
  if (t->unsigned_only) {
    if (x == 0) return 0x00;
    if (neg) return s == PT_SAT_ON ? 0x00 : 0xFF;
  }
  if (isinf(x)) {
    if (s != PT_SAT_OFF) return neg ? negmax : posmax;
    if (!t->has_inf) return (uint8_t)(t->nan_pos | (t->has_negzero && neg ? 0x80 : 0));
    return (uint8_t)(t->posinf | (neg ? 0x80 : 0));
  }
  if (x == 0) return (neg && t->has_negzero) ? 0x80 : 0x00;
  int lo = -1, hi = -1;
  for (int c = 0; c < 256; c++) {
    double v = t->val[c];
    if (isnan(v) || isinf(v)) continue;
    if (v == 0 && t->has_negzero && c != (neg ? 0x80 : 0x00)) continue; /* zero of x's sign */
    if (v <= x && (lo < 0 || v > t->val[lo])) lo = c;
    if (v >= x && (hi < 0 || v < t->val[hi])) hi = c;
  }
  if (lo >= 0 && t->val[lo] == x) return (uint8_t)lo;
  /* Candidates as values; beyond the largest finite value the next candidate is vnext. */
  double vlo, vhi;
  int ovf_lo = 0, ovf_hi = 0;
  if (hi < 0) {
    vlo = t->val[lo];
    vhi = t->vnext;
    ovf_hi = 1;
    if (x > vhi) vlo = vhi; /* both candidates overflow */
  } else if (lo < 0) {
    if (t->unsigned_only) return 0x00; /* below the smallest E8M0 value: clamp */
    vhi = t->val[hi];
    vlo = -t->vnext;
    ovf_lo = 1;
    if (x < vlo) vhi = vlo;
  } else {
    vlo = t->val[lo];
    vhi = t->val[hi];
  }
  double sp = vhi - vlo;
  double alo = fabs(vlo), ahi = fabs(vhi);
  int lo_even = sp > 0 ? fmod(alo / sp, 2.0) == 0.0 : 1;
  int hi_even = sp > 0 ? fmod(ahi / sp, 2.0) == 0.0 : 1;
  /* "toward zero" candidate and "away" candidate */
  int pick_hi;
  double dlo = x - vlo, dhi = vhi - x;
  switch (r) {
    case PT_RND_RINT:
      pick_hi = dhi < dlo ? 1 : dlo < dhi ? 0 : hi_even;
      (void)lo_even;
      break;
    case PT_RND_AWAY: pick_hi = dhi < dlo ? 1 : dlo < dhi ? 0 : !neg; break;
    case PT_RND_FLOOR: pick_hi = 0; break;
    case PT_RND_CEIL: pick_hi = 1; break;
    case PT_RND_TRUNC: pick_hi = neg; break;
    default: pick_hi = !hi_even; break; /* odd */
  }
  int ovf = pick_hi ? ovf_hi : ovf_lo;
  if (ovf_hi && vlo == vhi) ovf = 1;
  if (ovf_lo && vlo == vhi) ovf = 1;
  if (ovf) {
    /* IEEE: to inf unless the mode rounds toward zero here; round-to-odd keeps max */
    int to_inf = mode_overflows_to_inf(r, neg);
    if (s != PT_SAT_OFF || !to_inf) return neg ? negmax : posmax;
    if (!t->has_inf) return (uint8_t)(t->nan_pos | (t->has_negzero && neg ? 0x80 : 0));
    return (uint8_t)(t->posinf | (neg ? 0x80 : 0));
  }
  int c = pick_hi ? hi : lo;
  if (t->val[c] == 0) return (neg && t->has_negzero) ? 0x80 : 0x00;
  return (uint8_t)c;
}

static long g_f8_bad;

static void check_f8_all_modes(const f8_table *t, float x) {
  for (int mi = 0; mi < NMODES; mi++)
    for (int si = 0; si < NSATS; si++) {
      uint8_t got = pt_f32_to_f8(t->t, x, k_modes[mi], k_sats[si]);
      uint8_t want = f8_ref(t, x, k_modes[mi], k_sats[si]);
      int ok = got == want || (f8_is_nan(t, got) && f8_is_nan(t, want) && !t->has_negzero);
      if (!ok) {
        g_f8_bad++;
        CHECK_MSG(ok, "%s: f32 %a (0x%08x) mode %s sat %d: got 0x%02x (%g) want 0x%02x (%g)", t->name, (double)x,
                  fbits(x), k_mode_name[mi], si, got, t->val[got], want, t->val[want]);
      }
    }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void test_f8_convert(void) {
  const f8_table *tabs[] = {&g_e4m3, &g_e5m2, &g_hif8, &g_e8m0};
  for (size_t k = 0; k < 4; k++) {
    const f8_table *t = tabs[k];
    long before = g_f8_bad, n = 0;
    /* round trip of every encoding */
    for (int c = 0; c < 256; c++) {
      float f = pt_f8_to_f32(t->t, (uint8_t)c);
      for (int mi = 0; mi < NMODES; mi++)
        for (int si = 0; si < NSATS; si++) {
          uint8_t back = pt_f32_to_f8(t->t, f, k_modes[mi], k_sats[si]);
          if (isnan(f))
            CHECK(k_sats[si] == PT_SAT_ON ? back == 0 : f8_is_nan(t, back));
          else if (isinf(f) && k_sats[si] != PT_SAT_OFF)
            CHECK(back == (uint8_t)(t->maxcode | (c & 0x80)));
          else
            CHECK_MSG(back == c, "%s round trip 0x%02x -> 0x%02x (%s)", t->name, c, back, k_mode_name[mi]);
        }
    }
    /* sorted finite values, the virtual next value and its negative */
    double vals[300];
    int nv = 0;
    for (int c = 0; c < 256; c++)
      if (isfinite(t->val[c])) vals[nv++] = t->val[c];
    vals[nv++] = t->vnext;
    vals[nv++] = 2 * t->vnext;
    if (!t->unsigned_only) {
      vals[nv++] = -t->vnext;
      vals[nv++] = -2 * t->vnext;
    }
    qsort(vals, (size_t)nv, sizeof vals[0], cmp_double);
    for (int i = 0; i < nv; i++) {
      double a = vals[i], b = i + 1 < nv ? vals[i + 1] : a * 2;
      double pts[] = {a, (a + b) / 2, a + (b - a) / 4, a + 3 * (b - a) / 4, a + (b - a) / 8};
      for (size_t j = 0; j < sizeof pts / sizeof pts[0]; j++) {
        float p = (float)pts[j];
        if (!isfinite(p)) continue;
        float q[] = {p, nextafterf(p, INFINITY), nextafterf(p, -INFINITY), -p};
        for (size_t l = 0; l < 4; l++) {
          n++;
          check_f8_all_modes(t, q[l]);
        }
      }
    }
    static const float extra[] = {0.0f,      -0.0f,     INFINITY,   -INFINITY, NAN,        -NAN,       FLT_MAX,
                                  -FLT_MAX,  0x1p-149f, -0x1p-149f, 0x1p-127f, 0x1.8p-127f, 0x1p-126f, 0x1.8p-128f,
                                  0x1p-128f, 0x1p-23f,  -0x1p-23f,  0x1p-24f,  0x1.000002p-23f, 0x1p-10f,
                                  0x1p-17f,  0x1p20f,   1e30f,      -1e30f,    0x1.8p127f, 0x1.7ffffep127f};
    for (size_t j = 0; j < sizeof extra / sizeof extra[0]; j++) {
      n++;
      check_f8_all_modes(t, extra[j]);
    }
    /* random: bit patterns, and values steered into the format's range */
    unsigned long long s = 777 + k;
    for (long i = 0; i < 200000; i++) {
      uint32_t u = (uint32_t)(pt_rand_u64(&s) >> 32);
      float x;
      if (i & 1) {
        x = bitsf(u);
      } else {
        int lo_e = t->t == PTOSIM_DT_F8E8M0 ? -130 : -26, hi_e = t->t == PTOSIM_DT_F8E8M0 ? 129 : 18;
        int e = lo_e + (int)((u >> 8) % (unsigned)(hi_e - lo_e + 1));
        x = ldexpf(1.0f + (float)(u & 0x7FFFFF) * 0x1p-23f, e);
        if (u & 0x80000000u) x = -x;
      }
      n++;
      check_f8_all_modes(t, x);
    }
    fprintf(stderr, "  %s: %ld inputs x %d modes x %d sats, %ld mismatches\n", t->name, n, NMODES, NSATS,
            g_f8_bad - before);
  }
  /* A few by hand. */
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E4M3, 464.0f, PT_RND_RINT, PT_SAT_OFF) == 0x7E);  /* tie -> even 448 */
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E4M3, 465.0f, PT_RND_RINT, PT_SAT_OFF) == 0x7F);  /* overflow -> NaN */
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E4M3, 465.0f, PT_RND_RINT, PT_SAT_ON) == 0x7E);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E4M3, -1e6f, PT_RND_TRUNC, PT_SAT_OFF) == 0xFE);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E4M3, -INFINITY, PT_RND_RINT, PT_SAT_OFF) == 0xFF);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E4M3, 0x1p-10f, PT_RND_RINT, PT_SAT_OFF) == 0x00); /* half of 2^-9: even */
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E4M3, 0x1.8p-9f, PT_RND_RINT, PT_SAT_OFF) == 0x02);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E5M2, 61440.0f, PT_RND_RINT, PT_SAT_OFF) == 0x7C); /* tie 57344|65536 -> inf */
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E5M2, 61439.0f, PT_RND_RINT, PT_SAT_OFF) == 0x7B);
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 40960.0f, PT_RND_RINT, PT_SAT_OFF) == 0x6E);  /* tie -> 2^15 (even) */
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 40960.0f, PT_RND_AWAY, PT_SAT_OFF) == 0x6F);  /* -> inf */
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 40961.0f, PT_RND_RINT, PT_SAT_ON) == 0x6E);
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, -0.0f, PT_RND_RINT, PT_SAT_OFF) == 0x00);     /* no -0 */
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, -0x1p-30f, PT_RND_RINT, PT_SAT_OFF) == 0x00);
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 0x1p-23f, PT_RND_AWAY, PT_SAT_OFF) == 0x01);
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 0x1p-23f, PT_RND_RINT, PT_SAT_OFF) == 0x00);
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 1.0625f, PT_RND_AWAY, PT_SAT_OFF) == 0x09);   /* 1 + 1/16 -> 1.125 */
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 1.0625f, PT_RND_RINT, PT_SAT_OFF) == 0x08);
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, 15.5f, PT_RND_RINT, PT_SAT_OFF) == 0x40);     /* 0 10 000 00: 16 */
  CHECK(pt_f32_to_f8(PTOSIM_DT_HIF8, NAN, PT_RND_RINT, PT_SAT_OFF) == 0x80);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E8M0, 1.5f, PT_RND_RINT, PT_SAT_OFF) == 128);    /* tie -> 2 */
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E8M0, 1.5f, PT_RND_FLOOR, PT_SAT_OFF) == 127);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E8M0, 0.0f, PT_RND_RINT, PT_SAT_OFF) == 0);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E8M0, -1.0f, PT_RND_RINT, PT_SAT_OFF) == 0xFF);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E8M0, FLT_MAX, PT_RND_RINT, PT_SAT_OFF) == 0xFF);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E8M0, FLT_MAX, PT_RND_RINT, PT_SAT_ON) == 0xFE);
  CHECK(pt_f32_to_f8(PTOSIM_DT_F8E8M0, FLT_MAX, PT_RND_TRUNC, PT_SAT_OFF) == 0xFE);
}

/* ------------------------------------------------------------------------------------------ */
/* Integers */

static double ref_int(float xf, pt_round r) {
  double x = xf;
  switch (r) {
    case PT_RND_RINT: return nearbyint(x); /* default FE_TONEAREST */
    case PT_RND_AWAY: return round(x);
    case PT_RND_FLOOR: return floor(x);
    case PT_RND_CEIL: return ceil(x);
    case PT_RND_TRUNC: return trunc(x);
    default: {
      double f = floor(x);
      if (f == x) return x;
      return fmod(f, 2.0) != 0.0 ? f : f + 1.0;
    }
  }
}

static int64_t ref_clamp(double v, int64_t lo, int64_t hi) {
  if (isnan(v)) return 0;
  if (v <= (double)lo) return lo; /* (double)INT64_MIN is exact */
  if (v >= 0x1p63 || v >= (double)hi) {
    if (v >= 0x1p63) return hi;
    int64_t iv = (int64_t)v;
    return iv > hi ? hi : iv;
  }
  return (int64_t)v;
}

static void test_int(void) {
  static const int64_t ranges[][2] = {{-128, 127},      {0, 255},         {-32768, 32767},   {0, 65535},
                                      {INT32_MIN, INT32_MAX}, {0, UINT32_MAX}, {INT64_MIN, INT64_MAX}, {-8, 7}};
  unsigned long long s = 99;
  long n = 0;
  for (long i = 0; i < 400000; i++) {
    float x;
    uint32_t u = (uint32_t)(pt_rand_u64(&s) >> 32);
    switch (i % 4) {
      case 0: x = (float)((int32_t)(u % 2001) - 1000) / 4.0f; break;     /* quarters incl. ties */
      case 1: x = ldexpf((float)(u & 0xFFFFFF), (int)((u >> 24) % 70) - 30); break;
      case 2: x = bitsf(u); break;
      default: x = (float)((int32_t)(u % 601) - 300) / 2.0f + ((u & 1) ? 0x1p-20f : -0x1p-20f); break;
    }
    if ((i & 8) && !isnan(x)) x = -x;
    for (int mi = 0; mi < NMODES; mi++)
      for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
        int64_t got = pt_f32_to_int(x, k_modes[mi], ranges[k][0], ranges[k][1]);
        int64_t want = ref_clamp(ref_int(x, k_modes[mi]), ranges[k][0], ranges[k][1]);
        n++;
        CHECK_MSG(got == want, "int: %a mode %s [%lld,%lld]: got %lld want %lld", (double)x, k_mode_name[mi],
                  (long long)ranges[k][0], (long long)ranges[k][1], (long long)got, (long long)want);
      }
  }
  CHECK(pt_f32_to_int(2.5f, PT_RND_RINT, -100, 100) == 2 && pt_f32_to_int(3.5f, PT_RND_RINT, -100, 100) == 4);
  CHECK(pt_f32_to_int(-2.5f, PT_RND_AWAY, -100, 100) == -3 && pt_f32_to_int(-2.5f, PT_RND_TRUNC, -100, 100) == -2);
  CHECK(pt_f32_to_int(-2.5f, PT_RND_FLOOR, -100, 100) == -3 && pt_f32_to_int(-2.5f, PT_RND_CEIL, -100, 100) == -2);
  CHECK(pt_f32_to_int(2.2f, PT_RND_ODD, -100, 100) == 3 && pt_f32_to_int(3.2f, PT_RND_ODD, -100, 100) == 3);
  CHECK(pt_f32_to_int(-0.1f, PT_RND_ODD, -100, 100) == -1 && pt_f32_to_int(4.0f, PT_RND_ODD, -100, 100) == 4);
  CHECK(pt_f32_to_int(NAN, PT_RND_RINT, -100, 100) == 0 && pt_f32_to_int(-NAN, PT_RND_RINT, 5, 100) == 0);
  CHECK(pt_f32_to_int(INFINITY, PT_RND_RINT, -100, 100) == 100);
  CHECK(pt_f32_to_int(-INFINITY, PT_RND_RINT, -100, 100) == -100);
  CHECK(pt_f32_to_int(0x1p63f, PT_RND_RINT, INT64_MIN, INT64_MAX) == INT64_MAX);
  CHECK(pt_f32_to_int(-0x1p63f, PT_RND_RINT, INT64_MIN, INT64_MAX) == INT64_MIN);
  CHECK(pt_f32_to_int(0x1p62f, PT_RND_RINT, INT64_MIN, INT64_MAX) == (INT64_C(1) << 62));
  CHECK(pt_f32_to_int(300.0f, PT_RND_RINT, -128, 127) == 127 && pt_f32_to_int(-1.0f, PT_RND_RINT, 0, 255) == 0);
  CHECK(pt_int_min(PTOSIM_DT_I8) == -128 && pt_int_max(PTOSIM_DT_I8) == 127);
  CHECK(pt_int_min(PTOSIM_DT_U8) == 0 && pt_int_max(PTOSIM_DT_U8) == 255);
  CHECK(pt_int_min(PTOSIM_DT_I16) == -32768 && pt_int_max(PTOSIM_DT_U16) == 65535);
  CHECK(pt_int_min(PTOSIM_DT_I32) == INT32_MIN && pt_int_max(PTOSIM_DT_U32) == 4294967295LL);
  CHECK(pt_int_min(PTOSIM_DT_I64) == INT64_MIN && pt_int_max(PTOSIM_DT_I64) == INT64_MAX);
  CHECK(pt_int_min(PTOSIM_DT_I4) == -8 && pt_int_max(PTOSIM_DT_I4) == 7);
  fprintf(stderr, "  int: %ld conversions\n", n);
}

/* ------------------------------------------------------------------------------------------ */
/* Load / store */

static void test_load_store(void) {
  unsigned char buf[16];
  /* I4: element 0 is the low nibble, sign-extended; a store keeps the high nibble. */
  for (int hi = 0; hi < 16; hi++)
    for (int lo = 0; lo < 16; lo++) {
      buf[0] = (unsigned char)(hi << 4 | lo);
      float f = pt_load_as_f32(PTOSIM_DT_I4, buf);
      CHECK(f == (float)(lo < 8 ? lo : lo - 16));
      for (int v = -10; v <= 10; v++) {
        buf[0] = (unsigned char)(hi << 4 | lo);
        pt_store_from_f32(PTOSIM_DT_I4, buf, (float)v, PT_RND_RINT, PT_SAT_OFF);
        int sat = v < -8 ? -8 : v > 7 ? 7 : v;
        CHECK(buf[0] >> 4 == hi);
        CHECK((buf[0] & 15) == (sat & 15));
        CHECK(pt_load_as_f32(PTOSIM_DT_I4, buf) == (float)sat);
      }
    }
  buf[0] = 0xA0;
  pt_store_from_f32(PTOSIM_DT_I4, buf, 2.5f, PT_RND_AWAY, PT_SAT_OFF);
  CHECK(buf[0] == 0xA3);
  pt_store_from_f32(PTOSIM_DT_I4, buf, -2.5f, PT_RND_RINT, PT_SAT_OFF);
  CHECK(buf[0] == 0xAE);

  /* Integer stores saturate; loads read back. */
  static const struct {
    ptosim_dtype t;
    float in;
    double want;
  } cases[] = {
      {PTOSIM_DT_I8, 1000.f, 127},          {PTOSIM_DT_I8, -1000.f, -128},
      {PTOSIM_DT_I8, -5.5f, -6},            {PTOSIM_DT_U8, -3.f, 0},
      {PTOSIM_DT_U8, 255.4f, 255},          {PTOSIM_DT_U8, 300.f, 255},
      {PTOSIM_DT_I16, 40000.f, 32767},      {PTOSIM_DT_I16, -40000.f, -32768},
      {PTOSIM_DT_U16, 70000.f, 65535},      {PTOSIM_DT_U16, 1234.5f, 1234},
      {PTOSIM_DT_I32, 3e9f, 2147483647.0},  {PTOSIM_DT_I32, -3e9f, -2147483648.0},
      {PTOSIM_DT_U32, 5e9f, 4294967295.0},  {PTOSIM_DT_U32, -1.f, 0},
      {PTOSIM_DT_I64, 1e19f, 9223372036854775807.0}, {PTOSIM_DT_I64, -1e19f, -9223372036854775808.0},
      {PTOSIM_DT_U64, 2e19f, 18446744073709551615.0}, {PTOSIM_DT_U64, -7.f, 0},
      {PTOSIM_DT_I32, NAN, 0},              {PTOSIM_DT_U8, NAN, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memset(buf, 0x5A, sizeof buf);
    pt_store_from_f32(cases[i].t, buf, cases[i].in, PT_RND_RINT, PT_SAT_OFF);
    unsigned sz = pt_dtype_size(cases[i].t);
    CHECK(buf[sz] == 0x5A); /* nothing written past the element */
    double got;
    switch (cases[i].t) {
      case PTOSIM_DT_I8: { int8_t v; memcpy(&v, buf, 1); got = v; break; }
      case PTOSIM_DT_U8: got = buf[0]; break;
      case PTOSIM_DT_I16: { int16_t v; memcpy(&v, buf, 2); got = v; break; }
      case PTOSIM_DT_U16: { uint16_t v; memcpy(&v, buf, 2); got = v; break; }
      case PTOSIM_DT_I32: { int32_t v; memcpy(&v, buf, 4); got = v; break; }
      case PTOSIM_DT_U32: { uint32_t v; memcpy(&v, buf, 4); got = v; break; }
      case PTOSIM_DT_I64: { int64_t v; memcpy(&v, buf, 8); got = (double)v; break; }
      default: { uint64_t v; memcpy(&v, buf, 8); got = (double)v; break; }
    }
    CHECK_MSG(got == cases[i].want, "store %s %g: got %.17g", pt_dtype_name(cases[i].t), (double)cases[i].in, got);
    CHECK(pt_load_as_f32(cases[i].t, buf) == (float)cases[i].want);
  }
  uint64_t u64;
  pt_store_from_f32(PTOSIM_DT_U64, &u64, 1e19f, PT_RND_RINT, PT_SAT_OFF);
  CHECK(u64 == (uint64_t)1e19f);
  int64_t i64;
  pt_store_from_f32(PTOSIM_DT_I64, &i64, -0x1p40f, PT_RND_RINT, PT_SAT_OFF);
  CHECK(i64 == -(INT64_C(1) << 40));
  /* Integers up to 2^24 load exactly. */
  int32_t i32 = 16777216;
  CHECK(pt_load_as_f32(PTOSIM_DT_I32, &i32) == 16777216.0f);
  i32 = -16777215;
  CHECK(pt_load_as_f32(PTOSIM_DT_I32, &i32) == -16777215.0f);

  /* Every float dtype: store/load round trip of a representable value, and rounding on store. */
  static const ptosim_dtype fts[] = {PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32, PTOSIM_DT_F8E4M3,
                                     PTOSIM_DT_F8E5M2, PTOSIM_DT_HIF8, PTOSIM_DT_F8E8M0};
  for (size_t i = 0; i < sizeof fts / sizeof fts[0]; i++) {
    ptosim_dtype t = fts[i];
    memset(buf, 0x5A, sizeof buf);
    pt_store_from_f32(t, buf, 1.5f, PT_RND_RINT, PT_SAT_OFF);
    CHECK(buf[pt_dtype_size(t)] == 0x5A);
    CHECK_MSG(pt_load_as_f32(t, buf) == (t == PTOSIM_DT_F8E8M0 ? 2.0f : 1.5f), "%s", pt_dtype_name(t));
    pt_store_from_f32(t, buf, -0.25f, PT_RND_RINT, PT_SAT_OFF);
    if (t == PTOSIM_DT_F8E8M0)
      CHECK(isnan(pt_load_as_f32(t, buf)));
    else
      CHECK(pt_load_as_f32(t, buf) == -0.25f);
    pt_store_from_f32(t, buf, 1.0f + 0x1p-20f, PT_RND_CEIL, PT_SAT_OFF);
    float up = pt_load_as_f32(t, buf);
    CHECK_MSG(t == PTOSIM_DT_F32 ? up == 1.0f + 0x1p-20f : up > 1.0f, "%s", pt_dtype_name(t));
    pt_store_from_f32(t, buf, 1.0f + 0x1p-20f, PT_RND_FLOOR, PT_SAT_OFF);
    CHECK(pt_load_as_f32(t, buf) == (t == PTOSIM_DT_F32 ? 1.0f + 0x1p-20f : 1.0f));
    pt_store_from_f32(t, buf, INFINITY, PT_RND_RINT, PT_SAT_ON);
    float m = pt_load_as_f32(t, buf);
    CHECK(isfinite(m) && m > 1.0f);
    pt_store_from_f32(t, buf, NAN, PT_RND_RINT, PT_SAT_KEEPNAN);
    CHECK(isnan(pt_load_as_f32(t, buf)));
  }
  float f;
  pt_store_from_f32(PTOSIM_DT_F32, &f, -INFINITY, PT_RND_RINT, PT_SAT_ON);
  CHECK(f == -FLT_MAX);
  pt_store_from_f32(PTOSIM_DT_F32, &f, NAN, PT_RND_RINT, PT_SAT_ON);
  CHECK(f == 0.0f && !signbit(f));
  pt_store_from_f32(PTOSIM_DT_F32, &f, INFINITY, PT_RND_RINT, PT_SAT_OFF);
  CHECK(isinf(f));
  uint16_t h16;
  pt_store_from_f32(PTOSIM_DT_F16, &h16, 65504.0f, PT_RND_RINT, PT_SAT_OFF);
  CHECK(h16 == 0x7BFF);
  CHECK(pt_load_as_f32(PTOSIM_DT_F16, &h16) == 65504.0f);
}

int main(void) {
  build_tables();
  RUN(test_names);
  RUN(test_f16_decode);
  RUN(test_f16_roundtrip);
  RUN(test_f16_boundaries);
  RUN(test_f16_random);
  RUN(test_bf16);
  RUN(test_f8_decode);
  RUN(test_f8_convert);
  RUN(test_int);
  RUN(test_load_store);
  return pt_test_finish();
}
