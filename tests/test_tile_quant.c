/* pto.tquant.mx (MXFP8 from f32, grpAxis axis1; src/isa/tile_quant.c) against a reference
 * written from the OCP / NV formulas with float math (frexp / ldexp, nearest e4m3 code by
 * search over the 127 magnitudes), applied to an image of the whole UB, so the bytes the op
 * must leave alone are compared too. The layout facts the reference follows (packed max and
 * scaling, the exp row stride, the trailing +0 max of a run ending 32 into a register, the
 * flat form's rounded-up exp / scaling and doubled unrolled scaling) are pto-isa
 * TQuant.hpp's, listed in docs/spec-notes.md section 28. */
#include <math.h>
#include <stdio.h>

#include "tile_ub_env.h"

static unsigned long long seed = 0x5EED7A9Cull;

/* ---- reference ------------------------------------------------------------------------- */

static float f32_at(const uint8_t *p) {
  float f;
  memcpy(&f, p, 4);
  return f;
}

static void put_f32(uint8_t *p, float f) { memcpy(p, &f, 4); }

static float ld_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* Value of e4m3 (FN) magnitude code c < 0x7F. */
static double e4m3_value(int c) {
  int e = c >> 3 & 15, m = c & 7;
  return e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6);
}

/* Nearest e4m3 code to x (ties: even code), |x| beyond 448 (inf too) -> 448, NaN -> NaN
 * with x's sign. */
static uint8_t e4m3_of(float x) {
  uint8_t sign = signbit(x) ? 0x80 : 0;
  if (isnan(x)) return sign | 0x7F;
  double a = fabs((double)x);
  int best = 0;
  for (int c = 1; c < 0x7F; c++) {
    double d = fabs(a - e4m3_value(c)), db = fabs(a - e4m3_value(best));
    if (d < db || (d == db && c % 2 == 0)) best = c;
  }
  if (a > 448) best = 0x7E;
  return sign | (uint8_t)best;
}

/* a * s with the NaN rule of the model: a NaN element keeps its sign, a NaN scale alone gives
 * +NaN (written out: the C product of two NaNs may be either). */
static float mul(float a, float s) {
  if (isnan(a)) return a;
  if (isnan(s)) return NAN;
  return a * s;
}

/* Largest |a| of a group: a NaN beats numbers, the largest NaN payload beats other NaNs. */
static float group_abs_max(const float *a, int n) {
  float m = 0.0f;
  for (int i = 0; i < n; i++) {
    float v = fabsf(a[i]);
    if (isnan(v) ? !isnan(m) || bits(v) > bits(m) : !isnan(m) && v > m) m = v;
  }
  return m;
}

/* Biased exponent of a finite non-negative float (0 for zero and subnormals). */
static int biased_exp(float m) {
  int e;
  if (m < 0x1p-126f) return 0;
  frexpf(m, &e);
  return e - 1 + 127;
}

/* OCP: e = exp(m) - emin (e4m3 8, e2m1 2), 0 when exp(m) <= emin; inf: e = 0xFF - emin; NaN:
 * 0xFF. NV: e = the smallest biased exponent with 2^(e-127) >= m * d (d = 1/448, e2m1 1/6,
 * as f32; subnormal quotients: 1 above 2^-127); inf: 0xFE, NaN: 0xFF. Scale 2^(127 - e);
 * NV e = 0xFE scales by 0, NV inf by 2^-127. */
static void ref_scale4(int nv, int fp4, float m, uint8_t *e, float *s) {
  int emin = fp4 ? 2 : 8;
  if (isnan(m)) {
    *e = 0xFF;
    *s = NAN;
    return;
  }
  if (isinf(m)) {
    *e = (uint8_t)(nv ? 0xFE : 0xFF - emin);
    *s = nv ? 0x1p-127f : ldexpf(1.0f, 127 - (0xFF - emin));
    return;
  }
  int x;
  if (nv) {
    float q = m * (fp4 ? 1.0f / 6.0f : 1.0f / 448.0f);
    x = biased_exp(q);
    if (x == 0) x = q > 0x1p-127f;
    else if (x < 0xFE && q != ldexpf(1.0f, x - 127)) x++;
  } else {
    x = biased_exp(m) <= emin ? 0 : biased_exp(m) - emin;
  }
  *e = (uint8_t)x;
  *s = x == 0xFE ? 0.0f : ldexpf(1.0f, 127 - x);
}
static void ref_scale(int nv, float m, uint8_t *e, float *s) { ref_scale4(nv, 0, m, e, s); }

/* Group k of the run at a (n elements, fewer than 32 for none): max, exp, scale. */
typedef struct grp {
  float max, scale;
  uint8_t exp;
} grp;

static grp ref_group(int nv, const float *a, int n) {
  grp g;
  g.max = group_abs_max(a, n);
  ref_scale(nv, g.max, &g.exp, &g.scale);
  return g;
}

/* ---- cases ----------------------------------------------------------------------------- */

/* Source value kinds by group (so each group gets one flavour). */
static float sample(int kind, int i) {
  double u = (double)(pt_rand_u64(&seed) >> 11) / 9007199254740992.0 * 2 - 1;
  switch (kind % 11) {
    case 0: return (float)(u * 3.0);
    case 1: return (float)ldexp(u, (int)(pt_rand_u64(&seed) % 200) - 100);
    case 2: return 0.0f * (float)(i % 2 ? -1 : 1); /* all-zero group (+0 / -0) */
    case 3: return i == 5 ? NAN : (float)u;           /* NaN group */
    case 4: return i == 7 ? -INFINITY : (float)u;     /* inf group */
    case 5: return (float)(u * 0x1p-130);             /* subnormals */
    case 6: return (float)(u * 1e30);                 /* huge */
    case 7: return (float)ldexp((double)(int)(u * 16), -3 + (int)(pt_rand_u64(&seed) % 3)); /* ties */
    case 9: return i == 0 ? 0x1.cp-119f : (float)(u * 0x1p-121); /* NV: max / 448 = 2^-127 exactly */
    case 10: return i == 3 ? -0x1.8p-119f : (float)(u * 0x1p-120); /* OCP: biased exponent 8 */
    default: return (float)(u * 448.0 * 256.0);
  }
}

typedef struct mx_case {
  int nv, rows, cols, vr, vc; /* source tile */
  int flat;                   /* exp tile [1, G] (tight source) else [M', >= N/32] */
} mx_case;

static ptosim_tile tile_at(ptosim_dtype t, uint64_t addr, int r, int c, int vr, int vc) {
  return ub_tile(t, addr, r, c, vr, vc, PTOSIM_BL_ROW_MAJOR);
}

static void mx_run(const mx_case *k) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  int vr = k->vr, vc = k->vc, g = vc / 32, G = vr * g, n = vr * vc;
  ptosim_tquant_mx_params p = {.quant = PTOSIM_QUANT_MXFP8, .alg = k->nv ? PTOSIM_MX_NV : PTOSIM_MX_OCP, .grp_axis = 1};
  p.src = tile_at(PTOSIM_DT_F32, 0x1000, k->rows, k->cols, vr, vc);
  p.dst = tile_at(PTOSIM_DT_U8, 0x20000, k->rows, k->cols, vr, vc);
  int ecols = k->flat ? (G + 32 + 31) / 32 * 32 : (g + 31) / 32 * 32 + 32;
  p.exp = tile_at(PTOSIM_DT_U8, 0x30000, k->flat ? 1 : vr + 1, ecols, k->flat ? 1 : vr, k->flat ? G : g);
  int fcols = (2 * G + 64 + 63) / 64 * 64;
  p.max = tile_at(PTOSIM_DT_F32, 0x34000, 1, fcols, 1, G);
  p.scaling = tile_at(PTOSIM_DT_F32, 0x38000, 1, fcols, 1, G);
  /* source values, group by group */
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) put_f32(at(&e, &p.src, r, c), sample((r * g + c / 32) * 7 + 3, c % 32));
  env_load(&e);
  /* reference */
  uint8_t *mx = e.img + p.max.addr, *sc = e.img + p.scaling.addr, *ex = e.img + p.exp.addr;
  float a[32];
  int phys = k->rows * k->cols, unroll = k->flat && phys > 1024 && phys % 256 == 0 && n % 256 == 0;
  for (int r = 0; r < vr; r++)
    for (int q = 0; q < g; q++) {
      for (int i = 0; i < 32; i++) a[i] = f32_at(at(&e, &p.src, r, q * 32 + i));
      grp x = ref_group(k->nv, a, 32);
      int idx = r * g + q;
      put_f32(mx + 4 * idx, x.max);
      if (unroll) {
        put_f32(sc + 8 * idx, x.scale);
        put_f32(sc + 8 * idx + 4, x.scale);
      } else {
        put_f32(sc + 4 * idx, x.scale);
      }
      ex[k->flat ? idx : r * p.exp.cols + q] = x.exp;
      for (int i = 0; i < 32; i++) *at(&e, &p.dst, r, q * 32 + i) = e4m3_of(mul(a[i], x.scale));
    }
  /* the trailing +0 max of a Naive run ending 32 elements into a register: after each row
   * (canonical; only the last row's stays), after the flat run's tail (n <= 1024: the whole
   * run; else the part after the last 256-element block) */
  int tail = k->flat ? (n <= 1024 ? n : n % 256) : vc;
  if (tail % 64 == 32) put_f32(mx + 4 * G, 0.0f);
  /* flat, not unrolled, more than 64 groups: exp and scaling up to a multiple of 64 from
   * whatever max bytes lie there */
  if (k->flat && !unroll && G > 64)
    for (int idx = G; idx < (G + 63) / 64 * 64; idx++) {
      float m;
      memcpy(&m, mx + 4 * idx, 4);
      uint8_t b[4];
      memcpy(b, &m, 4);
      b[3] &= 0x7F;
      memcpy(&m, b, 4);
      float s;
      ref_scale(k->nv, m, &ex[idx], &s);
      put_f32(sc + 4 * idx, s);
    }
  char what[128];
  snprintf(what, sizeof what, "tquant.mx %s %dx%d valid %dx%d %s", k->nv ? "nv" : "ocp", k->rows, k->cols, vr, vc,
           k->flat ? (unroll ? "flat unrolled" : "flat") : "canonical");
  ptosim_status st = ptosim_tquant_mx(e.c, &p);
  uint64_t ctrl = 0;
  ptosim_reg_read_params rp = {.out = &ctrl};
  CHECK(ptosim_get_ctrl(e.c, &rp) == PTOSIM_OK && ctrl == 1ull << 50); /* the op's set_ctrl stays */
  finish(&e, st, what);
}

static void test_tquant_mx(void) {
  static const mx_case cases[] = {
      {0, 6, 128, 5, 96, 0},   /* canonical, 3 groups a row: a trailing +0 max */
      {0, 4, 256, 4, 256, 0},  /* canonical, 8 groups */
      {0, 3, 32, 1, 32, 0},    /* canonical, one row */
      {0, 3, 96, 3, 96, 1},    /* flat, small: 288 elements */
      {0, 4, 32, 3, 32, 1},    /* flat, small, run ending 32 into a register */
      {0, 11, 96, 11, 96, 1},  /* flat, 1056: 1024 in blocks + a 32-element tail */
      {0, 25, 96, 25, 96, 1},  /* flat, 75 groups: exp / scaling to 128 entries */
      {0, 32, 64, 32, 64, 1},  /* flat, unrolled (2048) */
      {0, 32, 64, 20, 64, 1},  /* flat, unrolled (1280 of 2048) */
      {0, 24, 64, 17, 64, 1},  /* flat, 1088: not unrolled (1536 physical, 1088 % 256) */
      {0, 16, 64, 16, 64, 1},  /* flat, 1024: not unrolled (1024 physical is not above 1024) */
  };
  for (int nv = 0; nv < 2; nv++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      mx_case k = cases[i];
      k.nv = nv;
      mx_run(&k);
    }
}

/* ---- bf16 / f16 sources (flat exp, OCP), MXFP8 and MXFP4 -------------------------------- */

/* Value of bf16 / f16 bits (f16 from its fields; NaN keeps its payload as the f32 NaN with
 * the same top bits, enough for the payload order of group_abs_max). */
static float b16_value(int f16, uint16_t v) {
  if (!f16) {
    uint32_t u = (uint32_t)v << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  int e = v >> 10 & 31, m = v & 1023;
  float a = e == 31 ? (m ? NAN : INFINITY) : e ? ldexpf(1.0f + m / 1024.0f, e - 15) : ldexpf((float)m, -24);
  return v & 0x8000 ? -a : a;
}

/* Nearest e2m1 code of x (magnitudes 0 .5 1 1.5 2 3 4 6, ties: even code), beyond 6 (inf
 * too) 6, sign bit 3; NaN: +6 (code 7). */
static unsigned e2m1_of(float x) {
  static const double mag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  if (isnan(x)) return 7;
  double a = fabs((double)x);
  int best = 0;
  for (int c = 1; c < 8; c++) {
    double d = fabs(a - mag[c]), db = fabs(a - mag[best]);
    if (d < db || (d == db && c % 2 == 0)) best = c;
  }
  if (a > 6) best = 7;
  return (signbit(x) ? 8u : 0u) | (unsigned)best;
}

/* Source bits by group flavour: sample()'s kinds brought into the format's range, plus NaN
 * payloads and subnormals written as bits. */
static uint16_t sample_b16(int f16, int kind, int i) {
  double u = (double)(pt_rand_u64(&seed) >> 11) / 9007199254740992.0 * 2 - 1;
  uint16_t sub = (uint16_t)(pt_rand_u64(&seed) & (f16 ? 0x83FF : 0x807F));
  float x;
  switch (kind % 11) {
    case 1: x = (float)ldexp(u, (int)(pt_rand_u64(&seed) % 30) - 15); break;
    case 3:
      if (i == 5) return f16 ? 0xFE01 : 0xFF81; /* a negative signalling NaN */
      if (i == 9) return f16 ? 0x7E00 : 0x7FC0;
      x = (float)u;
      break;
    case 4: if (i == 7) return f16 ? 0xFC00 : 0xFF80; x = (float)u; break; /* -inf */
    case 5: return sub;                                                    /* subnormals */
    case 6: x = (float)(u * (f16 ? 65504.0 : 1e38)); break;                 /* huge */
    case 8: x = (float)(u * (f16 ? 448.0 * 64 : 448.0 * 256)); break;
    case 9: x = f16 ? (float)(u * 0x1p-20) : i == 0 ? 0x1.cp-119f : (float)(u * 0x1p-121); break;
    case 10: x = f16 ? (float)(u * 0x1.ffcp-1) : i == 3 ? -0x1.8p-119f : (float)(u * 0x1p-120); break; /* bf16: E 8 */
    default: x = sample(kind, i);
  }
  return f16 ? pt_f32_to_f16(x, PT_RND_RINT, PT_SAT_OFF) : pt_f32_to_bf16(x, PT_RND_RINT, PT_SAT_OFF);
}

/* bf16 bits of the largest |a| of a group of b16 values: bf16 its bits; f16 the value cut to
 * bf16 toward zero, inf 0x7F80, every NaN 0x7FC0. */
static uint16_t ref_b16_max(int f16, const uint16_t *v) {
  float a[32];
  for (int i = 0; i < 32; i++) a[i] = b16_value(f16, v[i]);
  float m = group_abs_max(a, 32);
  if (f16 && isnan(m)) return 0x7FC0;
  return (uint16_t)(bits(m) >> 16);
}

typedef struct b16_case {
  int f16, fp4, rows, cols, vr; /* tight source: valid columns = cols */
} b16_case;

static void b16_run(const b16_case *k) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  int n = k->vr * k->cols, G = n / 32, emin = k->fp4 ? 2 : 8;
  ptosim_dtype st = k->f16 ? PTOSIM_DT_F16 : PTOSIM_DT_BF16;
  ptosim_tquant_mx_params p = {.quant = k->fp4 ? PTOSIM_QUANT_MXFP4_E2M1 : PTOSIM_QUANT_MXFP8, .grp_axis = 1};
  p.src = tile_at(st, 0x1000, k->rows, k->cols, k->vr, k->cols);
  p.dst = k->fp4 ? tile_at(PTOSIM_DT_F4E2M1X2, 0x20000, k->rows, k->cols / 2, k->vr, k->cols / 2)
                 : tile_at(PTOSIM_DT_I8, 0x20000, k->rows, k->cols, k->vr, k->cols);
  p.exp = tile_at(PTOSIM_DT_U8, 0x30000, 1, (G + 63) / 32 * 32, 1, G);
  int cap = (G + 127) / 128 * 128 + 128;
  p.max = tile_at(st, 0x34000, 1, cap, 1, G);
  p.scaling = tile_at(st, 0x38000, 1, cap, 1, G);
  uint16_t v[32];
  for (int q = 0; q < G; q++)
    for (int i = 0; i < 32; i++) {
      uint16_t b = sample_b16(k->f16, q * 7 + 3, i);
      memcpy(e.img + p.src.addr + 2 * (32 * q + i), &b, 2);
    }
  env_load(&e);
  for (int q = 0; q < G; q++) {
    memcpy(v, e.img + p.src.addr + 64 * q, 64);
    uint16_t m = ref_b16_max(k->f16, v), sb;
    float mv = b16_value(0, m);
    int ex = isnan(mv) ? 0xFF : isinf(mv) ? 0xFF - emin : biased_exp(mv) > emin ? biased_exp(mv) - emin : 0;
    sb = isnan(mv) ? (k->fp4 ? 0x7FC0 : 0x7F81) : (uint16_t)(bits(ldexpf(1.0f, 127 - ex)) >> 16);
    memcpy(e.img + p.max.addr + 2 * q, &m, 2);
    memcpy(e.img + p.scaling.addr + 2 * q, &sb, 2);
    e.img[p.exp.addr + q] = (uint8_t)ex;
    float s = b16_value(0, sb);
    for (int i = 0; i < 32; i++) {
      float y = mul(b16_value(k->f16, v[i]), s);
      if (!k->fp4)
        e.img[p.dst.addr + 32 * q + i] = e4m3_of(y);
      else if (i % 2)
        e.img[p.dst.addr + 16 * q + i / 2] |= (uint8_t)(e2m1_of(y) << 4);
      else
        e.img[p.dst.addr + 16 * q + i / 2] = (uint8_t)e2m1_of(y);
    }
  }
  /* more than one 256-element window: 8 maxes a window, +0 past G */
  if (n > 256)
    memset(e.img + p.max.addr + 2 * G, 0, (size_t)(2 * ((n + 255) / 256 * 8 - G)));
  char what[128];
  snprintf(what, sizeof what, "tquant.mx %s %s %dx%d valid %d rows", k->f16 ? "f16" : "bf16", k->fp4 ? "MXFP4" : "MXFP8",
           k->rows, k->cols, k->vr);
  finish(&e, ptosim_tquant_mx(e.c, &p), what);
}

static void test_tquant_mx_b16(void) {
  static const b16_case cases[] = {
      {0, 0, 2, 64, 2},    /* 128 elements: one window, G maxes */
      {0, 0, 16, 64, 16},  /* 1024: four full windows */
      {0, 0, 4, 192, 3},   /* 576 of 768: 3 windows, 24 maxes for 18 groups */
      {0, 0, 5, 192, 5},   /* 960: 4 windows, 32 maxes for 30 groups */
      {0, 0, 32, 128, 32}, /* 4096: the largesizes path, exact */
      {0, 0, 33, 128, 33}, /* 4224: 17 windows, 136 maxes for 132 groups */
  };
  for (int f16 = 0; f16 < 2; f16++)
    for (int fp4 = 0; fp4 < 2; fp4++)
      for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        b16_case k = cases[i];
        k.f16 = f16;
        k.fp4 = fp4;
        b16_run(&k);
      }
}

/* ---- grpAxis axis0 (groups of 32 rows a column), f32 / bf16 / f16, OCP / NV, interleave -- */

/* The max tile bits of a column group v (32 source elements as bits of size es): f32: any
 * NaN -> the default NaN, else the largest |a|; b16 as ref_b16_max, except f16 NV, which
 * keeps f16 bits (the largest |a|'s, or the largest NaN bits). */
static uint32_t ref_dn_max(int es, int f16, int nv, const uint32_t *v) {
  if (es == 4) {
    float a[32], m = 0.0f;
    for (int i = 0; i < 32; i++) memcpy(&a[i], &v[i], 4);
    for (int i = 0; i < 32; i++) {
      if (isnan(a[i])) return 0x7FC00000u;
      m = fabsf(a[i]) > m ? fabsf(a[i]) : m;
    }
    return bits(m);
  }
  uint16_t h[32];
  for (int i = 0; i < 32; i++) h[i] = (uint16_t)v[i];
  if (!(f16 && nv)) return ref_b16_max(f16, h);
  uint16_t best = 0;
  float bm = 0.0f;
  int nan = 0;
  for (int i = 0; i < 32; i++) {
    uint16_t a = h[i] & 0x7FFF;
    float f = b16_value(1, a);
    if (isnan(f)) best = nan++ && best > a ? best : a;
    else if (!nan && f >= bm) bm = f, best = a;
  }
  return best;
}

typedef struct dn_case {
  ptosim_dtype st;
  int nv, fp4, il, rows, cols, vc, dcols; /* src rows x cols, valid rows = rows; dst cols (MXFP8) */
} dn_case;

static void dn_run(const dn_case *k) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  int es = (int)pt_dtype_size(k->st), f16 = k->st == PTOSIM_DT_F16, C = k->cols, vr = k->rows, gr = vr / 32, vc = k->vc;
  ptosim_tquant_mx_params p = {.quant = k->fp4 ? PTOSIM_QUANT_MXFP4_E2M1 : PTOSIM_QUANT_MXFP8,
                               .alg = k->nv ? PTOSIM_MX_NV : PTOSIM_MX_OCP, .grp_axis = 0, .interleave = k->il};
  p.src = tile_at(k->st, 0x1000, vr, C, vr, vc);
  p.dst = k->fp4 ? tile_at(PTOSIM_DT_F4E2M1X2, 0x20000, vr, C / 2, vr, vc / 2)
                 : tile_at(PTOSIM_DT_U8, 0x20000, vr, k->dcols, vr, vc);
  int ec = (2 * C + 31) / 32 * 32;
  p.exp = k->il ? tile_at(PTOSIM_DT_U8, 0x30000, vr / 64, ec, vr / 64, 2 * vc) : tile_at(PTOSIM_DT_U8, 0x30000, gr, C, gr, vc);
  p.max = tile_at(k->st, 0x34000, gr, C, gr, vc);
  p.scaling = tile_at(k->st, 0x38000, gr, C, gr, vc);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < C; c++) {
      int kind = (r / 32 * C + c) * 7 + 3;
      if (es == 4) /* NaN groups get a second NaN with a payload and the sign set */
        put_f32(at(&e, &p.src, r, c), kind % 11 == 3 && r % 32 == 9 ? ld_bits(0xFFC12345u) : sample(kind, r % 32));
      else {
        uint16_t b = sample_b16(f16, kind, r % 32);
        memcpy(at(&e, &p.src, r, c), &b, 2);
      }
    }
  env_load(&e);
  if (es == 2) /* the padding columns of the valid rows become zeros */
    for (int r = 0; r < vr; r++) memset(at(&e, &p.src, r, vc), 0, (size_t)(2 * (C - vc)));
  for (int j = 0; j < gr; j++)
    for (int c = 0; c < vc; c++) {
      uint32_t v[32] = {0}, m;
      for (int i = 0; i < 32; i++) memcpy(&v[i], at(&e, &p.src, 32 * j + i, c), (size_t)es);
      m = ref_dn_max(es, f16, k->nv, v);
      memcpy(at(&e, &p.max, j, c), &m, (size_t)es);
      float mv = es == 4 ? ld_bits(m) : b16_value(f16 && k->nv, (uint16_t)m), s;
      uint8_t ex;
      ref_scale4(k->nv, k->fp4, mv, &ex, &s);
      if (k->il)
        *at(&e, &p.exp, j / 2, 2 * c + j % 2) = ex;
      else
        *at(&e, &p.exp, j, c) = ex;
      uint16_t sb = isnan(s) ? (k->fp4 ? 0x7FC0 : 0x7F81) : (uint16_t)(bits(s) >> 16);
      if (es == 4)
        put_f32(at(&e, &p.scaling, j, c), s);
      else
        memcpy(at(&e, &p.scaling, j, c), &sb, 2);
      float sv = es == 4 ? s : b16_value(0, sb);
      for (int i = 0; i < 32; i++) {
        int r = 32 * j + i;
        float a = es == 4 ? ld_bits(v[i]) : b16_value(f16, (uint16_t)v[i]), y = mul(a, sv);
        if (!k->fp4)
          *at(&e, &p.dst, r, c) = e4m3_of(y);
        else if (c % 2)
          *at(&e, &p.dst, r, c / 2) = (uint8_t)((*at(&e, &p.dst, r, c / 2) & 0x0F) | e2m1_of(y) << 4);
        else
          *at(&e, &p.dst, r, c / 2) = (uint8_t)((*at(&e, &p.dst, r, c / 2) & 0xF0) | e2m1_of(y));
      }
    }
  char what[128];
  snprintf(what, sizeof what, "tquant.mx axis0 %s %s %s%s %dx%d valid cols %d", pt_dtype_name(k->st), k->nv ? "nv" : "ocp",
           k->fp4 ? "MXFP4" : "MXFP8", k->il ? " interleave" : "", vr, C, vc);
  finish(&e, ptosim_tquant_mx(e.c, &p), what);
}

static void test_tquant_mx_axis0(void) {
  static const dn_case f32[] = {
      {PTOSIM_DT_F32, 0, 0, 0, 64, 64, 40, 64}, /* 2 group rows, padding columns left alone */
      {PTOSIM_DT_F32, 0, 0, 0, 32, 32, 32, 96}, /* dst rows wider than the source's */
  };
  static const dn_case b16[] = {
      {PTOSIM_DT_BF16, 0, 0, 0, 64, 32, 20, 32},  /* padding columns zeroed */
      {PTOSIM_DT_BF16, 0, 0, 0, 96, 128, 128, 160},
      {PTOSIM_DT_BF16, 0, 1, 0, 64, 64, 40, 0},   /* MXFP4, dst 32 bytes a row */
      {PTOSIM_DT_BF16, 0, 0, 1, 128, 32, 24, 32}, /* interleaved exp [2, 64] */
      {PTOSIM_DT_BF16, 0, 1, 1, 128, 64, 64, 0},
  };
  for (int nv = 0; nv < 2; nv++) {
    for (size_t i = 0; i < sizeof f32 / sizeof *f32; i++) {
      dn_case k = f32[i];
      k.nv = nv;
      dn_run(&k);
    }
    for (int h = 0; h < 2; h++)
      for (size_t i = 0; i < sizeof b16 / sizeof *b16; i++) {
        dn_case k = b16[i];
        k.nv = nv;
        k.st = h ? PTOSIM_DT_F16 : PTOSIM_DT_BF16;
        dn_run(&k);
      }
  }
}

/* ---- rules ----------------------------------------------------------------------------- */

static ptosim_tquant_mx_params mx_ok(void) {
  ptosim_tquant_mx_params p = {.quant = PTOSIM_QUANT_MXFP8, .grp_axis = 1};
  p.src = tile_at(PTOSIM_DT_F32, 0x1000, 4, 64, 4, 64);
  p.dst = tile_at(PTOSIM_DT_I8, 0x4000, 4, 64, 4, 64);
  p.exp = tile_at(PTOSIM_DT_U8, 0x5000, 4, 32, 4, 2);
  p.max = tile_at(PTOSIM_DT_F32, 0x6000, 1, 64, 1, 8);
  p.scaling = tile_at(PTOSIM_DT_F32, 0x7000, 1, 64, 1, 8);
  return p;
}

/* A case the edits of a rule test start from runs (so the refusal is the edit's). */
static void mx_accept(ptosim_tquant_mx_params p) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  env_load(&e);
  CHECK_MSG(ptosim_tquant_mx(e.c, &p) == PTOSIM_OK, "%s [%s]", ptosim_last_diag(e.m)->msg, ptosim_last_diag(e.m)->rule);
  env_free(&e);
}

static void mx_refuse(ptosim_target tg, ptosim_tquant_mx_params p, const char *rule) {
  env e = env_new_seeded(tg, &seed);
  env_load(&e);
  refuse(&e, ptosim_tquant_mx(e.c, &p), rule);
}

static void test_tquant_mx_errors(void) {
  const ptosim_tquant_mx_params ok = mx_ok();
  ptosim_tquant_mx_params p;
#define EDIT(...) (p = ok, __VA_ARGS__, p)
  mx_accept(ok); /* the edits below break a working case */
  mx_refuse(PTOSIM_TARGET_A2A3, ok, "tquant_mx.target");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.quant = PTOSIM_QUANT_INT8_SYM), "tquant_mx.mode");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.alg = (ptosim_mx_scale_alg)2), "tquant_mx.mode");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.grp_axis = 2), "tquant_mx.mode");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.interleave = true), "tquant_mx.mode");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.max.space = PTOSIM_L1), "tquant_mx.space");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.src.blayout = PTOSIM_BL_COL_MAJOR, p.src.rows = 64, p.src.cols = 8,
                                   p.src.valid_rows = 64, p.src.valid_cols = 4), "tquant_mx.layout");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.quant = PTOSIM_QUANT_MXFP4_E2M1), "tquant_mx.dtype"); /* MXFP4 from f32 */
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.grp_axis = 0), "tquant_mx.valid"); /* 4 rows: not groups of 32 */
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.has_exp_zz = true, p.exp_zz = p.exp), "tquant_mx.form");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.src.dtype = p.max.dtype = p.scaling.dtype = PTOSIM_DT_BF16),
            "tquant_mx.form"); /* b16 with a canonical exp tile */
  /* b16 flat forms: 4 x 64 bf16, flat exp [1, 8], scaling needs align128(8) = 128 entries */
  ptosim_tquant_mx_params b16 = ok;
  b16.src.dtype = b16.max.dtype = b16.scaling.dtype = PTOSIM_DT_BF16;
  b16.exp = tile_at(PTOSIM_DT_U8, 0x5000, 1, 32, 1, 8);
  b16.scaling.cols = 128;
  mx_accept(b16);
#define EDIT16(...) (p = b16, __VA_ARGS__, p)
  mx_refuse(PTOSIM_TARGET_A5, EDIT16(p.alg = PTOSIM_MX_NV), "tquant_mx.form");
  mx_refuse(PTOSIM_TARGET_A5, EDIT16(p.scaling.cols = 112), "tquant_mx.capacity");
  mx_refuse(PTOSIM_TARGET_A5, EDIT16(p.src.dtype = p.max.dtype = p.scaling.dtype = PTOSIM_DT_I16), "tquant_mx.dtype");
  mx_refuse(PTOSIM_TARGET_A5, EDIT16(p.quant = PTOSIM_QUANT_MXFP4_E2M1), "tquant_mx.dtype"); /* i8 dst */
  p = b16;
  p.quant = PTOSIM_QUANT_MXFP4_E2M1;
  p.dst = tile_at(PTOSIM_DT_F4E2M1X2, 0x4000, 4, 32, 4, 32);
  mx_accept(p);
  b16 = p;
  mx_refuse(PTOSIM_TARGET_A5, EDIT16(p.dst.valid_cols = 16), "tquant_mx.valid");
  mx_refuse(PTOSIM_TARGET_A5, EDIT16(p.dst.cols = 64), "tquant_mx.valid");
#undef EDIT16
  /* axis0: 64 x 64 bf16 source, [2, 64] exp / max / scaling */
  ptosim_tquant_mx_params dn = {.quant = PTOSIM_QUANT_MXFP8, .grp_axis = 0};
  dn.src = tile_at(PTOSIM_DT_BF16, 0x1000, 64, 64, 64, 64);
  dn.dst = tile_at(PTOSIM_DT_I8, 0x4000, 64, 64, 64, 64);
  dn.exp = tile_at(PTOSIM_DT_U8, 0x6000, 2, 64, 2, 64);
  dn.max = tile_at(PTOSIM_DT_BF16, 0x7000, 2, 64, 2, 64);
  dn.scaling = tile_at(PTOSIM_DT_BF16, 0x8000, 2, 64, 2, 64);
  mx_accept(dn);
#define EDITDN(...) (p = dn, __VA_ARGS__, p)
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.src.valid_rows = p.dst.valid_rows = 48), "tquant_mx.valid");
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.src.valid_rows = p.dst.valid_rows = 0, p.exp.valid_rows = p.max.valid_rows = 0,
                                     p.scaling.valid_rows = 0), "tile.empty"); /* empty: tquant_mx does not take one */
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.exp.cols = 96), "tquant_mx.shape");
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.max.valid_rows = 1), "tquant_mx.shape");
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.scaling.valid_cols = 32), "tquant_mx.shape");
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.interleave = true), "tquant_mx.shape"); /* exp not [1, 128] valid [1, 128] */
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.interleave = true, p.src.dtype = p.max.dtype = p.scaling.dtype = PTOSIM_DT_F32,
                                     p.max.cols = p.scaling.cols = 64), "tquant_mx.form"); /* f32 interleave */
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.interleave = true, p.exp = tile_at(PTOSIM_DT_U8, 0x6000, 1, 128, 1, 128),
                                     p.src.valid_rows = p.dst.valid_rows = 32, p.max.valid_rows = p.scaling.valid_rows = 1),
            "tquant_mx.shape"); /* 32 valid rows: no whole pair of groups */
  p = dn;
  p.interleave = true;
  p.exp = tile_at(PTOSIM_DT_U8, 0x6000, 1, 128, 1, 128);
  mx_accept(p); /* the interleaved form the edits above break */
  mx_refuse(PTOSIM_TARGET_A5, EDITDN(p.quant = PTOSIM_QUANT_MXFP4_E2M1, p.dst = tile_at(PTOSIM_DT_F4E2M1X2, 0x4000, 64, 32, 64, 16),
                                     p.src.valid_cols = 33, p.exp.valid_cols = p.max.valid_cols = p.scaling.valid_cols = 33),
            "tquant_mx.valid"); /* MXFP4: odd valid columns */
#undef EDITDN
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.dtype = PTOSIM_DT_F8E5M2), "tquant_mx.dtype");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.exp.dtype = PTOSIM_DT_I16, p.exp.cols = 16), "tquant_mx.dtype");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.max.dtype = PTOSIM_DT_I32), "tquant_mx.dtype");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.scaling.dtype = PTOSIM_DT_F16, p.scaling.cols = 64), "tquant_mx.dtype");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.src.valid_cols = p.dst.valid_cols = 48), "tquant_mx.valid");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.valid_rows = 3), "tquant_mx.valid");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.cols = 96), "tquant_mx.valid");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.exp.valid_cols = 3), "tquant_mx.shape");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.max.valid_cols = 7), "tquant_mx.shape");
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.exp.rows = 1, p.exp.valid_rows = 1, p.exp.valid_cols = 8, p.src.cols = 96,
                                   p.dst.cols = 96), "tquant_mx.shape"); /* flat exp, padded source */
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.max.rows = 4, p.max.cols = 8, p.max.valid_rows = 4, p.max.valid_cols = 2),
            "tquant_mx.shape"); /* max with padding columns */
  mx_refuse(PTOSIM_TARGET_A5, EDIT(p.exp.rows = 1, p.exp.valid_rows = 1, p.exp.valid_cols = 8, p.scaling.cols = 32),
            "tquant_mx.capacity"); /* flat: 8 scaling values need a 64-entry tile */
  env b = env_new_seeded(PTOSIM_TARGET_A5, &seed); /* the exp rows reach past the UB */
  p = ok;
  p.exp.addr = 0x3FFE0;
  ptosim_status st = ptosim_tquant_mx(b.c, &p);
  CHECK(st != PTOSIM_OK && !strcmp(ptosim_last_diag(b.m)->rule, "mem.bounds"));
  env_free(&b);
#undef EDIT
}

/* ---- text ------------------------------------------------------------------------------ */

/* pto.tquant.mx from .pto text (NV, canonical exp): GM src 8 x 64 f32 -> dst, exp back to GM. */
#define MXT(dt, r, c, vr, vc) \
  "!pto.tile_buf<loc=vec, dtype=" dt ", rows=" #r ", cols=" #c ", v_row=" #vr ", v_col=" #vc \
  ", blayout=row_major, slayout=none_box, fractal=512, pad=0>"
static const char *text_src =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @k(%a: !pto.ptr<f32>, %d: !pto.ptr<ui8>, %x: !pto.ptr<ui8>) attributes {pto.kernel} {\n"
    "  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n  %c8 = arith.constant 8 : index\n"
    "  %c32 = arith.constant 32 : index\n  %c64 = arith.constant 64 : index\n"
    "  %va = pto.make_tensor_view %a, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %vd = pto.make_tensor_view %d, shape = [%c8, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xui8>\n"
    "  %vx = pto.make_tensor_view %x, shape = [%c8, %c2], strides = [%c32, %c1] : !pto.tensor_view<?x?xui8>\n"
    "  %s = pto.alloc_tile : " MXT("f32", 8, 64, 8, 64) "\n  %t = pto.alloc_tile : " MXT("ui8", 8, 64, 8, 64) "\n"
    "  %e = pto.alloc_tile : " MXT("ui8", 8, 32, 8, 2) "\n  %m = pto.alloc_tile : " MXT("f32", 1, 64, 1, 16) "\n"
    "  %f = pto.alloc_tile : " MXT("f32", 1, 64, 1, 16) "\n"
    "  pto.tload ins(%va : !pto.tensor_view<?x?xf32>) outs(%s : " MXT("f32", 8, 64, 8, 64) ")\n"
    "  pto.tquant.mx ins(%s : " MXT("f32", 8, 64, 8, 64) ") outs(%t, %e, %m, %f : " MXT("ui8", 8, 64, 8, 64) ", "
    MXT("ui8", 8, 32, 8, 2) ", " MXT("f32", 1, 64, 1, 16) ", " MXT("f32", 1, 64, 1, 16) ")"
    " {quant_type = #pto<quant_type MXFP8>, quantScaleAlg = #pto<quant_scale_alg nv>, grpAxis = #pto<mx_group_axis axis1>}\n"
    "  pto.tstore ins(%t : " MXT("ui8", 8, 64, 8, 64) ") outs(%vd : !pto.tensor_view<?x?xui8>)\n"
    "  pto.tstore ins(%e : " MXT("ui8", 8, 32, 8, 2) ") outs(%vx : !pto.tensor_view<?x?xui8>)\n"
    "  return\n}\n}\n";

static void test_text(void) {
  static float a[8 * 64];
  static uint8_t d[8 * 64], x[8 * 32];
  for (int i = 0; i < 8 * 64; i++) a[i] = sample(i / 32 * 7 + 3, i % 32);
  void *bufs[] = {a, d, x};
  size_t sizes[] = {sizeof a, sizeof d, sizeof x};
  run_text(text_src, PTOSIM_TARGET_A5, bufs, sizes, 3);
  int bad = 0;
  for (int q = 0; q < 16; q++) {
    grp g = ref_group(1, a + 32 * q, 32);
    bad += x[q / 2 * 32 + q % 2] != g.exp;
    for (int i = 0; i < 32; i++) bad += d[32 * q + i] != e4m3_of(mul(a[32 * q + i], g.scale));
  }
  CHECK(bad == 0);
}

/* axis0 from .pto text: bf16 src 128 x 64 (OCP, MXFP4, interleaved exp [2, 128]) -> dst and
 * exp back to GM. */
static const char *text_dn =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @k(%a: !pto.ptr<bf16>, %d: !pto.ptr<ui8>, %x: !pto.ptr<ui8>) attributes {pto.kernel} {\n"
    "  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n  %c16 = arith.constant 16 : index\n"
    "  %c32 = arith.constant 32 : index\n  %c64 = arith.constant 64 : index\n  %c128 = arith.constant 128 : index\n"
    "  %va = pto.make_tensor_view %a, shape = [%c128, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xbf16>\n"
    "  %vd = pto.make_tensor_view %d, shape = [%c128, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui8>\n"
    "  %vx = pto.make_tensor_view %x, shape = [%c2, %c128], strides = [%c128, %c1] : !pto.tensor_view<?x?xui8>\n"
    "  %s = pto.alloc_tile : " MXT("bf16", 128, 64, 128, 64) "\n  %t = pto.alloc_tile : " MXT("!pto.f4E2M1x2", 128, 32, 128, 32) "\n"
    "  %u = pto.alloc_tile : " MXT("ui8", 128, 32, 128, 32) "\n"
    "  %e = pto.alloc_tile : " MXT("ui8", 2, 128, 2, 128) "\n  %m = pto.alloc_tile : " MXT("bf16", 4, 64, 4, 64) "\n"
    "  %f = pto.alloc_tile : " MXT("bf16", 4, 64, 4, 64) "\n"
    "  pto.tload ins(%va : !pto.tensor_view<?x?xbf16>) outs(%s : " MXT("bf16", 128, 64, 128, 64) ")\n"
    "  pto.tquant.mx ins(%s : " MXT("bf16", 128, 64, 128, 64) ") outs(%t, %e, %m, %f : " MXT("!pto.f4E2M1x2", 128, 32, 128, 32) ", "
    MXT("ui8", 2, 128, 2, 128) ", " MXT("bf16", 4, 64, 4, 64) ", " MXT("bf16", 4, 64, 4, 64) ")"
    " {quant_type = #pto<quant_type MXFP4_E2M1>, grpAxis = #pto<mx_group_axis axis0>, interleave = true}\n"
    "  %v = pto.bitcast %t : " MXT("!pto.f4E2M1x2", 128, 32, 128, 32) " -> " MXT("ui8", 128, 32, 128, 32) "\n"
    "  pto.tstore ins(%v : " MXT("ui8", 128, 32, 128, 32) ") outs(%vd : !pto.tensor_view<?x?xui8>)\n"
    "  pto.tstore ins(%e : " MXT("ui8", 2, 128, 2, 128) ") outs(%vx : !pto.tensor_view<?x?xui8>)\n"
    "  return\n}\n}\n";

static void test_text_axis0(void) {
  static uint16_t a[128 * 64];
  static uint8_t d[128 * 32], x[2 * 128];
  for (int i = 0; i < 128 * 64; i++) a[i] = sample_b16(0, (i / 64 / 32 * 64 + i % 64) * 7 + 3, i / 64 % 32);
  void *bufs[] = {a, d, x};
  size_t sizes[] = {sizeof a, sizeof d, sizeof x};
  run_text(text_dn, PTOSIM_TARGET_A5, bufs, sizes, 3);
  int bad = 0;
  for (int j = 0; j < 4; j++)
    for (int c = 0; c < 64; c++) {
      uint16_t v[32];
      for (int i = 0; i < 32; i++) v[i] = a[(32 * j + i) * 64 + c];
      uint8_t ex;
      float sc;
      ref_scale4(0, 1, b16_value(0, ref_b16_max(0, v)), &ex, &sc);
      bad += x[j / 2 * 128 + 2 * c + j % 2] != ex;
      for (int i = 0; i < 32; i++) {
        unsigned code = e2m1_of(mul(b16_value(0, v[i]), sc));
        bad += (d[(32 * j + i) * 32 + c / 2] >> (c % 2 * 4) & 15) != code;
      }
    }
  CHECK(bad == 0);
}

int main(void) {
  RUN(test_tquant_mx);
  RUN(test_tquant_mx_b16);
  RUN(test_tquant_mx_axis0);
  RUN(test_tquant_mx_errors);
  RUN(test_text);
  RUN(test_text_axis0);
  return pt_test_finish();
}
