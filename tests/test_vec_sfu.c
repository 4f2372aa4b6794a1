/* DSA/SFU vreg ops (src/isa/vec_sfu.c) against references written here lane by lane from the
 * chapter 13 formulas, in double precision and rounded once (or twice where the op rounds
 * twice): vprelu, vaxpy, vmula (f16 / f32 and the wrapping integers), vmull (i32 / u32),
 * vmadd (f16 / bf16 / f32), vexpdif (f32, f16 with both parts; exp within 1 ulp of the
 * correctly rounded value, special values exact), vmulscvt (every rounding, both parts,
 * against the f16 neighbours found by search), vaddreluconv / vmulconv (every pair, lane
 * placement, saturation, the mask-less form), chistv2 / dhistv2 (counts per lane,
 * empty masks, wrapping accumulators),
 * with every mask shape, special values (NaN, +-inf, -0, overflow), results aliasing sources,
 * and one negative test per rule. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x5f0c0ffeeULL;
static unsigned rnd(unsigned n) { return (unsigned)(pt_rand_u64(&seed) % n); }

static void make_mask(ptosim_vmask *m, int kind) {
  unsigned n = rnd(257);
  memset(m->b, 0, sizeof m->b);
  for (unsigned j = 0; j < 256; j++) {
    int bit = kind == 0 ? 1 : kind == 1 ? 0 : kind == 2 ? j < n : kind == 3 ? (j / 8) % 2 == 0 : (int)rnd(2);
    m->b[j / 8] |= (uint8_t)(bit << (j % 8));
  }
}
static int lane_on(const ptosim_vmask *m, unsigned i, unsigned e) { return m->b[i * e / 8] >> (i * e % 8) & 1; }

/* Float lane values: mostly ordinary numbers, sometimes NaN, +-inf, +-0, huge. */
static float special(void) {
  static const float v[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 65504.0f, -65504.0f, 3.0e38f, 1e-7f};
  return rnd(4) ? ((float)rnd(20001) - 10000.0f) / 64.0f : v[rnd(sizeof v / sizeof v[0])];
}

/* Lane i of a register as float / from float (f16 via core/dtype.c, round to nearest even). */
static double getf(const ptosim_vreg *r, ptosim_dtype dt, unsigned i) {
  if (dt == PTOSIM_DT_F32) {
    float f;
    memcpy(&f, r->b + 4 * i, 4);
    return f;
  }
  uint16_t h;
  memcpy(&h, r->b + 2 * i, 2);
  return dt == PTOSIM_DT_BF16 ? pt_bf16_to_f32(h) : pt_f16_to_f32(h);
}
static void putf(ptosim_vreg *r, ptosim_dtype dt, unsigned i, double v) {
  if (dt == PTOSIM_DT_F32) {
    float f = (float)v;
    memcpy(r->b + 4 * i, &f, 4);
  } else {
    uint16_t h = dt == PTOSIM_DT_BF16 ? pt_f32_to_bf16((float)v, PT_RND_RINT, PT_SAT_OFF)
                                      : pt_f32_to_f16((float)v, PT_RND_RINT, PT_SAT_OFF);
    memcpy(r->b + 2 * i, &h, 2);
  }
}
/* v rounded to the lane type, compared bitwise with lane i (every NaN equal). */
static int same(const ptosim_vreg *r, ptosim_dtype dt, unsigned i, double v) {
  ptosim_vreg t;
  putf(&t, dt, i, v);
  unsigned e = dt == PTOSIM_DT_F32 ? 4 : 2;
  if (isnan(v)) return isnan(getf(r, dt, i));
  return !memcmp(t.b + e * i, r->b + e * i, e);
}
/* The result lane is 0 when inactive. */
static int zero_lane(const ptosim_vreg *r, unsigned i, unsigned e) {
  for (unsigned b = 0; b < e; b++)
    if (r->b[i * e + b]) return 0;
  return 1;
}

static const ptosim_dtype fts[2] = {PTOSIM_DT_F16, PTOSIM_DT_F32};

static void fill_float(ptosim_vreg *r, ptosim_dtype dt) {
  unsigned e = dt == PTOSIM_DT_F32 ? 4 : 2;
  for (unsigned i = 0; i < 256 / e; i++) putf(r, dt, i, special());
}

static ptosim_machine *m;
static ptosim_core *v;

static void test_float_ops(void) {
  for (int it = 0; it < 300; it++) {
    ptosim_dtype dt = fts[it % 2];
    unsigned e = dt == PTOSIM_DT_F32 ? 4 : 2, n = 256 / e;
    int kind = it / 2 % 5, op = it / 10 % 3, alias = it % 7 == 0;
    ptosim_vreg a, b, c, d;
    ptosim_vmask k;
    fill_float(&a, dt), fill_float(&b, dt), fill_float(&c, dt);
    make_mask(&k, kind);
    ptosim_vreg a0 = a, b0 = b, c0 = c;
    double alpha = getf(&c, dt, 0);
    ptosim_vreg *out = alias ? &a : &d;
    ptosim_status st;
    if (op == 0) {
      ptosim_vbinary_params p = {out, &a, &b, &k, dt, 8 * e};
      st = ptosim_vprelu(v, &p);
    } else if (op == 1) {
      ptosim_scalar s = {dt, 0};
      memcpy(&s.bits, c.b, e);
      ptosim_vaxpy_params p = {out, &a, &b, s, &k, dt, 8 * e};
      st = ptosim_vaxpy(v, &p);
    } else {
      ptosim_vmula_params p = {out, &c, &a, &b, &k, dt, 8 * e};
      st = ptosim_vmula(v, &p);
    }
    CHECK_MSG(st == PTOSIM_OK, "op %d: %s", op, ptosim_last_diag(m)->msg);
    for (unsigned i = 0; i < n; i++) {
      if (!lane_on(&k, i, e)) {
        CHECK(zero_lane(out, i, e));
        continue;
      }
      double x = getf(&a0, dt, i), y = getf(&b0, dt, i), z = getf(&c0, dt, i), want;
      if (op == 0) want = x >= 0 ? x : (double)(float)(x * y);                   /* one product, rounded */
      else if (op == 1) want = (double)(float)((double)(float)(alpha * x) + y); /* two roundings */
      else want = (double)(float)(z + x * y);                                  /* exact in double, once */
      CHECK_MSG(same(out, dt, i, want), "op %d %s lane %u: %g %g %g -> %g, want %g", op, pt_dtype_name(dt), i, x, y, z,
                getf(out, dt, i), want);
    }
  }
}

/* vmadd: dst = acc * src0 + src1, the product exact in double, rounded once to f32 (then to
 * the 16-bit type), on f16 / bf16 / f32. */
static void test_vmadd(void) {
  static const ptosim_dtype dts[3] = {PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};
  for (int it = 0; it < 150; it++) {
    ptosim_dtype dt = dts[it % 3];
    unsigned e = dt == PTOSIM_DT_F32 ? 4 : 2, n = 256 / e;
    ptosim_vreg a, b, c, d;
    ptosim_vmask k;
    fill_float(&a, dt), fill_float(&b, dt), fill_float(&c, dt);
    make_mask(&k, it / 3 % 5);
    ptosim_vreg a0 = a, b0 = b, c0 = c;
    ptosim_vreg *out = it % 4 == 0 ? &c : &d; /* the result may replace acc */
    ptosim_vmula_params p = {out, &c, &a, &b, &k, dt, 8 * e};
    CHECK_MSG(ptosim_vmadd(v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    for (unsigned i = 0; i < n; i++) {
      if (!lane_on(&k, i, e)) {
        CHECK(zero_lane(out, i, e));
        continue;
      }
      double x = getf(&a0, dt, i), y = getf(&b0, dt, i), z = getf(&c0, dt, i);
      double want = (double)(float)(z * x + y);
      CHECK_MSG(same(out, dt, i, want), "vmadd %s lane %u: %g * %g + %g -> %g, want %g", pt_dtype_name(dt), i, z, x, y,
                getf(out, dt, i), want);
    }
  }
}

/* f32 lane i of r within one ulp of v (v: the exact value; infinities, zeros, NaN exact). */
static int near_f32(const ptosim_vreg *r, unsigned i, double v) {
  float g;
  memcpy(&g, r->b + 4 * i, 4);
  if (isnan(v)) return isnan(g);
  float w = (float)v;
  if (isinf(w) || w == 0.0f || isinf(g) || g == 0.0f) return g == w || fabs(v) < 1e-38;
  return fabs((double)g - v) <= fabs((double)nextafterf(w, 0.0f) - (double)w) * 1.01;
}

/* vexpdif: lane j = exp(src[k] - max[k]) in f32, k = j (f32) or 2j + part (f16); the
 * difference of the f32 values rounded to f32 first; 0 where source lane k is inactive. */
static void test_vexpdif(void) {
  for (int it = 0; it < 120; it++) {
    ptosim_dtype dt = fts[it % 2];
    unsigned e = dt == PTOSIM_DT_F32 ? 4 : 2, part = (unsigned)it / 2 % 2;
    ptosim_vreg a, b, d;
    ptosim_vmask k;
    fill_float(&a, dt), fill_float(&b, dt);
    for (unsigned i = 0; i < 256 / e; i += 3) putf(&b, dt, i, getf(&a, dt, i) - (double)(rnd(40)) / 4.0); /* small differences */
    make_mask(&k, it / 4 % 5);
    ptosim_vreg a0 = a;
    ptosim_vreg *out = it % 5 == 0 ? &a : &d;
    ptosim_vexpdif_params p = {out, &a, &b, &k, dt, e * 8, part};
    CHECK_MSG(ptosim_vexpdif(v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    for (unsigned j = 0; j < 64; j++) {
      unsigned src = e == 4 ? j : 2 * j + part;
      if (!lane_on(&k, src, e)) {
        CHECK(zero_lane(out, j, 4));
        continue;
      }
      double diff = (double)(float)(getf(&a0, dt, src) - getf(&b, dt, src));
      CHECK_MSG(near_f32(out, j, exp(diff)), "vexpdif %s part %u lane %u: exp(%g)", pt_dtype_name(dt), part, j, diff);
    }
  }
}

/* The f16 value of v under rounding r (R A F C Z O), no saturation: the two neighbours of v
 * among every finite f16 (binary search over the ordered non-negative patterns). */
static double f16_of(int neg, uint16_t bits) { return (neg ? -1 : 1) * (double)pt_f16_to_f32(bits); }
static double round_f16(double v, ptosim_vrnd r) {
  if (isnan(v) || isinf(v) || v == 0) return v;
  int neg = v < 0;
  double a = fabs(v);
  unsigned lo = 0, hi = 0x7BFF; /* largest pattern with value <= a */
  if (a >= 65504.0) lo = 0x7BFF;
  else
    while (lo < hi) {
      unsigned mid = (lo + hi + 1) / 2;
      if (pt_f16_to_f32((uint16_t)mid) <= a) lo = mid;
      else hi = mid - 1;
    }
  double dn = pt_f16_to_f32((uint16_t)lo), up = lo == 0x7BFF ? INFINITY : pt_f16_to_f32((uint16_t)(lo + 1));
  if (dn == a) return neg ? -a : a;
  if (lo == 0x7BFF && a >= 65520.0 && (r == PTOSIM_VRND_R || r == PTOSIM_VRND_A)) return neg ? -INFINITY : INFINITY;
  int toward_up; /* pick the neighbour of larger magnitude */
  switch (r) {
    case PTOSIM_VRND_Z: toward_up = 0; break;
    case PTOSIM_VRND_F: toward_up = neg; break;
    case PTOSIM_VRND_C: toward_up = !neg; break;
    case PTOSIM_VRND_O: toward_up = !(lo & 1); break;
    default: /* nearest; ties: A away, R to the even pattern */
      toward_up = a - dn > up - a || (a - dn == up - a && (r == PTOSIM_VRND_A || (lo & 1)));
  }
  return toward_up ? (isinf(up) ? (neg ? -INFINITY : INFINITY) : f16_of(neg, (uint16_t)(lo + 1))) : f16_of(neg, (uint16_t)lo);
}

static void test_vmulscvt(void) {
  static const ptosim_vrnd rs[6] = {PTOSIM_VRND_R, PTOSIM_VRND_A, PTOSIM_VRND_F, PTOSIM_VRND_C, PTOSIM_VRND_Z, PTOSIM_VRND_O};
  for (int it = 0; it < 120; it++) {
    ptosim_vrnd r = rs[it % 6];
    ptosim_vpart part = it / 6 % 2 ? PTOSIM_VPART_ODD : PTOSIM_VPART_EVEN;
    ptosim_vreg a, d;
    ptosim_vmask k;
    fill_float(&a, PTOSIM_DT_F32);
    for (unsigned i = 0; i < 64; i += 4) putf(&a, PTOSIM_DT_F32, i, (double)(rnd(1 << 16)) / 4096.0); /* ties of f16 */
    make_mask(&k, it / 12 % 5);
    float sc = it % 3 ? 1.0f : -0.75f + (float)rnd(8);
    ptosim_scalar s = {PTOSIM_DT_F32, 0};
    memcpy(&s.bits, &sc, 4);
    ptosim_vmulscvt_params p = {&d, &a, s, &k, PTOSIM_DT_F32, PTOSIM_DT_F16, r, part, 32};
    CHECK_MSG(ptosim_vmulscvt(v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    for (unsigned i = 0; i < 64; i++) {
      uint16_t h[2];
      memcpy(h, d.b + 4 * i, 4);
      unsigned at = part == PTOSIM_VPART_ODD;
      if (!lane_on(&k, i, 4)) {
        CHECK(h[0] == 0 && h[1] == 0);
        continue;
      }
      double want = round_f16((double)(float)(getf(&a, PTOSIM_DT_F32, i) * sc), r);
      double g = pt_f16_to_f32(h[at]);
      CHECK_MSG(h[1 - at] == 0 && (isnan(want) ? isnan(g) : g == want && signbit(g) == signbit(want)),
                "vmulscvt rnd %d lane %u: %g * %g -> %g, want %g", (int)r, i, getf(&a, PTOSIM_DT_F32, i), sc, g, want);
    }
  }
}

/* vaddreluconv / vmulconv: the result of source lane i (e bytes) sits in the low e/2 bytes
 * of the lane, the high half 0, inactive lanes all 0. The reference reads the lanes with
 * memcpy, adds or multiplies in double (exact for f16 operands) and rounds with round_f16
 * and nearbyint (nearest even), then saturates by hand. */
typedef struct fused_case {
  int mul;
  ptosim_dtype s, d;
} fused_case;

static int64_t sat_int(double v, int64_t lo, int64_t hi) {
  if (isnan(v)) return 0;
  double r = nearbyint(v);
  return r < (double)lo ? lo : r > (double)hi ? hi : (int64_t)r;
}

static uint64_t fused_ref(const fused_case *c, const ptosim_vreg *a, const ptosim_vreg *b, unsigned i) {
  if (c->s == PTOSIM_DT_I16) {
    int16_t x, y;
    memcpy(&x, a->b + 2 * i, 2), memcpy(&y, b->b + 2 * i, 2);
    int32_t v = (int16_t)(uint16_t)((uint32_t)(int32_t)x + (uint32_t)(int32_t)y);
    return (uint8_t)(v < 0 ? 0 : v > 127 ? 127 : v);
  }
  double x = getf(a, c->s, i), y = getf(b, c->s, i);
  if (c->s == PTOSIM_DT_F32) { /* f32 sum, ReLU, to f16 saturating */
    float sum = (float)(x + y);
    double r = round_f16(sum > 0 ? sum : 0.0, PTOSIM_VRND_R);
    if (isinf(r)) r = 65504.0;
    ptosim_vreg t;
    putf(&t, PTOSIM_DT_F16, 0, r);
    uint16_t h;
    memcpy(&h, t.b, 2);
    return h;
  }
  double v = round_f16(c->mul ? x * y : x + y, PTOSIM_VRND_R); /* the f16 add / multiply */
  if (!c->mul) v = v > 0 ? v : 0.0;
  return c->d == PTOSIM_DT_U8 ? (uint8_t)sat_int(v, 0, 255) : (uint8_t)(int8_t)sat_int(v, -128, 127);
}

static void test_fused_cvt(void) {
  static const fused_case cases[5] = {{0, PTOSIM_DT_F32, PTOSIM_DT_F16}, {0, PTOSIM_DT_F16, PTOSIM_DT_I8},
                                      {0, PTOSIM_DT_I16, PTOSIM_DT_I8}, {1, PTOSIM_DT_F16, PTOSIM_DT_I8},
                                      {1, PTOSIM_DT_F16, PTOSIM_DT_U8}};
  for (int it = 0; it < 150; it++) {
    const fused_case *c = &cases[it % 5];
    unsigned e = pt_dtype_size(c->s), n = 256 / e;
    ptosim_vreg a, b, d;
    ptosim_vmask k;
    if (c->s == PTOSIM_DT_I16)
      for (int j = 0; j < 256; j++) a.b[j] = (uint8_t)pt_rand_u64(&seed), b.b[j] = (uint8_t)(it % 2 ? rnd(256) : 0);
    else {
      fill_float(&a, c->s), fill_float(&b, c->s);
      if (c->mul) /* products near the i8 / u8 range and its rounding ties */
        for (unsigned i = 0; i < n; i += 2) putf(&a, c->s, i, ((double)rnd(1200) - 600.0) / 4.0), putf(&b, c->s, i, 0.5);
    }
    int kind = it / 5 % 6; /* 5: the mask-less form */
    make_mask(&k, kind % 5);
    memset(d.b, 0xA5, sizeof d.b);
    ptosim_vfusedcvt_params p = {&d, &a, &b, kind == 5 ? NULL : &k, c->s, c->d, kind == 5 ? 0 : 8 * e};
    ptosim_status st = c->mul ? ptosim_vmulconv(v, &p) : ptosim_vaddreluconv(v, &p);
    CHECK_MSG(st == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    for (unsigned i = 0; i < n; i++) {
      uint64_t got = 0, want = kind == 5 || lane_on(&k, i, e) ? fused_ref(c, &a, &b, i) : 0, high = 0;
      memcpy(&got, d.b + i * e, e / 2);
      memcpy(&high, d.b + i * e + e / 2, e / 2);
      CHECK_MSG(got == want && high == 0, "%s %s -> %s lane %u: got %llx (high %llx) want %llx", c->mul ? "vmulconv" : "vaddreluconv",
                pt_dtype_name(c->s), pt_dtype_name(c->d), i, (unsigned long long)got, (unsigned long long)high,
                (unsigned long long)want);
    }
  }
}

/* chistv2 / dhistv2: lane i against a count over every source lane. */
static void test_hist(void) {
  for (int it = 0; it < 80; it++) {
    int cumulative = it % 2, bin = it / 2 % 2;
    ptosim_vreg acc, src, d;
    ptosim_vmask k;
    for (int j = 0; j < 256; j++) acc.b[j] = (uint8_t)pt_rand_u64(&seed), src.b[j] = (uint8_t)(it % 3 ? rnd(256) : rnd(4) * 85);
    make_mask(&k, it / 4 % 5);
    ptosim_vreg acc0 = acc;
    ptosim_vhist_params p = {it % 7 ? &d : &acc, &acc, &src, &k, bin, PTOSIM_DT_U16, it % 5 ? PTOSIM_DT_U8 : PTOSIM_DT_I8, 8};
    CHECK_MSG((cumulative ? ptosim_chistv2 : ptosim_dhistv2)(v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    for (unsigned i = 0; i < 128; i++) {
      unsigned val = 128 * (unsigned)bin + i, n = 0;
      for (unsigned j = 0; j < 256; j++) n += lane_on(&k, j, 1) && (cumulative ? src.b[j] <= val : src.b[j] == val);
      uint16_t a0, r;
      memcpy(&a0, acc0.b + 2 * i, 2), memcpy(&r, p.dst->b + 2 * i, 2);
      CHECK_MSG(r == (uint16_t)(a0 + n), "%s bin %d lane %u: %u, want %u + %u", cumulative ? "chistv2" : "dhistv2", bin, i,
                r, a0, n);
    }
  }
}

/* Integer vmula wraps; vmull splits the 64-bit product. */
static void test_int_ops(void) {
  static const ptosim_dtype its[4] = {PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32};
  for (int it = 0; it < 200; it++) {
    ptosim_dtype dt = its[it % 4];
    unsigned e = pt_dtype_size(dt), n = 256 / e;
    int kind = it / 4 % 5;
    ptosim_vreg a, b, c, d, hi;
    ptosim_vmask k;
    for (int j = 0; j < 256; j++) a.b[j] = (uint8_t)pt_rand_u64(&seed), b.b[j] = (uint8_t)pt_rand_u64(&seed),
                                 c.b[j] = (uint8_t)pt_rand_u64(&seed);
    make_mask(&k, kind);
    ptosim_vmula_params p = {&d, &c, &a, &b, &k, dt, 8 * e};
    CHECK(ptosim_vmula(v, &p) == PTOSIM_OK);
    for (unsigned i = 0; i < n; i++) {
      uint64_t x = 0, y = 0, z = 0, r = 0;
      memcpy(&x, a.b + i * e, e), memcpy(&y, b.b + i * e, e), memcpy(&z, c.b + i * e, e), memcpy(&r, d.b + i * e, e);
      uint64_t want = lane_on(&k, i, e) ? (z + x * y) & (e == 2 ? 0xFFFFu : 0xFFFFFFFFu) : 0;
      CHECK_MSG(r == want, "vmula %s lane %u", pt_dtype_name(dt), i);
    }
    if (e != 4) continue;
    ptosim_vmull_params q = {&d, &hi, &a, &b, &k, dt, 32};
    CHECK(ptosim_vmull(v, &q) == PTOSIM_OK);
    for (unsigned i = 0; i < n; i++) {
      uint32_t x, y, lo32, hi32;
      memcpy(&x, a.b + 4 * i, 4), memcpy(&y, b.b + 4 * i, 4), memcpy(&lo32, d.b + 4 * i, 4), memcpy(&hi32, hi.b + 4 * i, 4);
      /* the product from 16-bit halves, sign corrected: no 64-bit multiply of the executor's kind */
      uint64_t pu = (uint64_t)(x & 0xFFFF) * y + (((uint64_t)(x >> 16) * y) << 16);
      if (dt == PTOSIM_DT_I32) pu -= ((x >> 31) ? (uint64_t)y << 32 : 0) + ((y >> 31) ? (uint64_t)x << 32 : 0);
      int on = lane_on(&k, i, 4);
      CHECK_MSG(lo32 == (on ? (uint32_t)pu : 0) && hi32 == (on ? (uint32_t)(pu >> 32) : 0), "vmull %s lane %u",
                pt_dtype_name(dt), i);
    }
  }
}

/* From text: the binders of vexpdif (f16 "ODD"), vmulscvt ("Z", "ODD"), chistv2 and dhistv2
 * (bin from an i32 value), vmadd; UB in, UB out. */
static const char prog_src[] =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "  func.func @k() attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %bin = arith.constant 1 : i32\n"
    "    %s = arith.constant 3.0 : f32\n"
    "    %a0 = arith.constant 0 : i64\n"
    "    %c0_u16 = arith.constant 0 : i16\n"
    "    %a1 = arith.constant 1024 : i64\n"
    "    %in16 = pto.castptr %a0 : i64 -> !pto.ptr<f16, ub>\n"
    "    %in32 = pto.castptr %a0 : i64 -> !pto.ptr<f32, ub>\n"
    "    %in8 = pto.castptr %a0 : i64 -> !pto.ptr<ui8, ub>\n"
    "    %o32 = pto.castptr %a1 : i64 -> !pto.ptr<f32, ub>\n"
    "    %o16 = pto.castptr %a1 : i64 -> !pto.ptr<f16, ub>\n"
    "    %o16u = pto.castptr %a1 : i64 -> !pto.ptr<ui16, ub>\n"
    "    %c128 = arith.constant 128 : index\n"
    "    %c256 = arith.constant 256 : index\n"
    "    %c384 = arith.constant 384 : index\n"
    "    %c512 = arith.constant 512 : index\n"
    "    %c1280 = arith.constant 1280 : index\n"
    "    %o8 = pto.castptr %a1 : i64 -> !pto.ptr<i8, ub>\n"
    "    pto.vecscope {\n"
    "      %m16 = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
    "      %m32 = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      %m8 = pto.pset_b8 \"PAT_ALL\" : !pto.mask<b8>\n"
    "      %h = pto.vlds %in16[%c0] : !pto.ptr<f16, ub> -> !pto.vreg<128xf16>\n"
    "      %e = pto.vexpdif %h, %h, %m16, \"ODD\" : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<64xf32>\n"
    "      pto.vsts %e, %o32[%c0], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      %f = pto.vlds %in32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "      %c = pto.vmulscvt %f, %s, %m32, \"Z\", \"ODD\" : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<128xf16>\n"
    "      pto.vsts %c, %o16[%c128], %m16 : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>\n"
    "      %b = pto.vlds %in8[%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<256xui8>\n"
    "      %z = pto.vbr %c0_u16 : i16 -> !pto.vreg<128xui16>\n"
    "      %ch = pto.chistv2 %z, %b, %m8, %bin : !pto.vreg<128xui16>, !pto.vreg<256xui8>, !pto.mask<b8>, i32 -> !pto.vreg<128xui16>\n"
    "      %dh = pto.dhistv2 %ch, %b, %m8, %bin : !pto.vreg<128xui16>, !pto.vreg<256xui8>, !pto.mask<b8>, i32 -> !pto.vreg<128xui16>\n"
    "      pto.vsts %dh, %o16u[%c256], %m16 : !pto.vreg<128xui16>, !pto.ptr<ui16, ub>, !pto.mask<b16>\n"
    "      %md = pto.vmadd %f, %f, %f, %m32 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "      pto.vsts %md, %o32[%c384], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      %rc = pto.vaddreluconv %f, %f : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<128xf16>\n"
    "      pto.vsts %rc, %o16[%c512], %m16 : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>\n"
    "      %mc = pto.vmulconv %h, %h, %m16 : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<256xi8>\n"
    "      pto.vsts %mc, %o8[%c1280], %m8 : !pto.vreg<256xi8>, !pto.ptr<i8, ub>, !pto.mask<b8>\n"
    "    }\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_text(void) {
  ptosim_program *p = pt_test_load(prog_src, sizeof prog_src - 1);
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *v2 = ptosim_core_of(m2, 0, PTOSIM_AIV0);
  uint8_t in[256], out[2048];
  for (int j = 0; j < 256; j++) in[j] = (uint8_t)(j * 7 % 64); /* as f16 / f32: small numbers */
  CHECK(ptosim_mem_write(v2, PTOSIM_UB, 0, in, sizeof in) == PTOSIM_OK);
  CHECK_MSG(ptosim_program_run(p, m2, NULL) == PTOSIM_OK, "%s", ptosim_last_diag(m2)->msg);
  CHECK(ptosim_mem_read(v2, PTOSIM_UB, 1024, out, sizeof out) == PTOSIM_OK);
  ptosim_vreg a;
  memcpy(a.b, in, 256);
  for (unsigned j = 0; j < 64; j++) { /* exp(x - x) = 1 for the finite odd f16 lanes */
    double x = getf(&a, PTOSIM_DT_F16, 2 * j + 1);
    float g;
    memcpy(&g, out + 4 * j, 4);
    CHECK_MSG(isnan(x) || isinf(x) ? isnan(g) : g == 1.0f, "vexpdif lane %u: %g", j, g);
    uint16_t h[2];
    memcpy(h, out + 256 + 4 * j, 4);
    double want = round_f16((double)(float)(getf(&a, PTOSIM_DT_F32, j) * 3.0f), PTOSIM_VRND_Z);
    CHECK_MSG(h[0] == 0 && (isnan(want) ? isnan(pt_f16_to_f32(h[1])) : pt_f16_to_f32(h[1]) == want), "vmulscvt lane %u", j);
    float md, f = (float)getf(&a, PTOSIM_DT_F32, j);
    memcpy(&md, out + 1536 + 4 * j, 4);
    CHECK_MSG(isnan(f) ? isnan(md) : md == (float)((double)f * f + f), "vmadd lane %u", j);
  }
  static const fused_case addf32 = {0, PTOSIM_DT_F32, PTOSIM_DT_F16}, mulf16 = {1, PTOSIM_DT_F16, PTOSIM_DT_I8};
  for (unsigned i = 0; i < 128; i++) { /* vaddreluconv (mask-less) f32 lanes, vmulconv f16 lanes */
    uint16_t h[2];
    memcpy(h, out + 1024 + 4 * i, 4);
    CHECK_MSG(i >= 64 || (h[0] == fused_ref(&addf32, &a, &a, i) && h[1] == 0), "vaddreluconv text lane %u", i);
    CHECK_MSG(out[1280 + 2 * i] == fused_ref(&mulf16, &a, &a, i) && out[1281 + 2 * i] == 0, "vmulconv text lane %u", i);
  }
  for (unsigned i = 0; i < 128; i++) { /* every byte is below 128: chist counts 256, dhist 0 */
    uint16_t r;
    memcpy(&r, out + 512 + 2 * i, 2);
    CHECK_MSG(r == 256, "hist lane %u: %u", i, r);
  }
  ptosim_machine_free(m2);
  ptosim_program_free(p);
  /* bind.keyword: an unknown part or rounding word is a load error */
  static const char *const bad[][2] = {{"\"ODD\" : !pto.vreg<128xf16>", "\"MID\" : !pto.vreg<128xf16>"}, {"\"Z\"", "\"Q\""}};
  for (int k = 0; k < 2; k++) {
    char src[sizeof prog_src + 8];
    const char *at = strstr(prog_src, bad[k][0]);
    CHECK(at != NULL);
    if (!at) continue;
    snprintf(src, sizeof src, "%.*s%s%s", (int)(at - prog_src), prog_src, bad[k][1], at + strlen(bad[k][0]));
    ptosim_program *q = pt_test_load(src, strlen(src));
    CHECK_MSG(q == NULL, "bad word %d accepted", k);
    ptosim_program_free(q);
  }
}

#define FAILS(call, id) \
  CHECK_MSG((call) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m)->rule, id), "%s: %s", id, ptosim_last_diag(m)->rule)

static void test_rules(void) {
  ptosim_vreg a, d;
  ptosim_vmask k;
  memset(a.b, 0, sizeof a.b), memset(k.b, 0xFF, sizeof k.b);
  ptosim_vbinary_params pr = {&d, &a, &a, &k, PTOSIM_DT_BF16, 0};
  FAILS(ptosim_vprelu(v, &pr), "vec.dtype");
  pr.dtype = PTOSIM_DT_F32, pr.mask_bits = 16;
  FAILS(ptosim_vprelu(v, &pr), "vec.mask_gran");
  ptosim_vaxpy_params ax = {&d, &a, &a, {PTOSIM_DT_F16, 0}, &k, PTOSIM_DT_F32, 32};
  FAILS(ptosim_vaxpy(v, &ax), "vec.scalar_type");
  ax.alpha.dtype = PTOSIM_DT_I32, ax.dtype = PTOSIM_DT_I32;
  FAILS(ptosim_vaxpy(v, &ax), "vec.dtype");
  ptosim_vmula_params ma = {&d, NULL, &a, &a, &k, PTOSIM_DT_F32, 32};
  FAILS(ptosim_vmula(v, &ma), "vec.operand");
  ma.acc = &a, ma.dtype = PTOSIM_DT_I8, ma.mask_bits = 8;
  FAILS(ptosim_vmula(v, &ma), "vec.dtype");
  ptosim_vmull_params ml = {&d, &d, &a, &a, &k, PTOSIM_DT_I16, 16};
  FAILS(ptosim_vmull(v, &ml), "vec.dtype");
  ptosim_vmula_params md = {&d, &a, &a, &a, &k, PTOSIM_DT_I16, 16};
  FAILS(ptosim_vmadd(v, &md), "vec.dtype");
  ptosim_vexpdif_params ex = {&d, &a, &a, &k, PTOSIM_DT_BF16, 16, 0};
  FAILS(ptosim_vexpdif(v, &ex), "vec.dtype");
  ex.dtype = PTOSIM_DT_F16, ex.mask_bits = 32;
  FAILS(ptosim_vexpdif(v, &ex), "vec.mask_gran");
  ex.mask_bits = 16, ex.part = 2;
  FAILS(ptosim_vexpdif(v, &ex), "vec.part");
  ptosim_vmulscvt_params sc = {&d, &a, {PTOSIM_DT_F32, 0}, &k, PTOSIM_DT_F32, PTOSIM_DT_BF16, PTOSIM_VRND_A, PTOSIM_VPART_EVEN, 32};
  FAILS(ptosim_vmulscvt(v, &sc), "vec.dtype");
  sc.dst_type = PTOSIM_DT_F16, sc.mask_bits = 16;
  FAILS(ptosim_vmulscvt(v, &sc), "vec.mask_gran");
  sc.mask_bits = 32, sc.part = PTOSIM_VPART_P1;
  FAILS(ptosim_vmulscvt(v, &sc), "vec.vcvt_part");
  ptosim_vfusedcvt_params fc = {&d, &a, &a, &k, PTOSIM_DT_F32, PTOSIM_DT_I8, 32};
  FAILS(ptosim_vaddreluconv(v, &fc), "vec.dtype");
  fc.src_type = PTOSIM_DT_F16, fc.dst_type = PTOSIM_DT_U8, fc.mask_bits = 16;
  FAILS(ptosim_vaddreluconv(v, &fc), "vec.dtype");
  CHECK(ptosim_vmulconv(v, &fc) == PTOSIM_OK);
  fc.mask_bits = 32;
  FAILS(ptosim_vmulconv(v, &fc), "vec.mask_gran");
  fc.src1 = NULL;
  FAILS(ptosim_vmulconv(v, &fc), "vec.operand");
  ptosim_vhist_params hi = {&d, &a, &a, &k, 2, PTOSIM_DT_U16, PTOSIM_DT_U8, 8};
  FAILS(ptosim_chistv2(v, &hi), "vec.bin");
  hi.bin = 0, hi.acc_type = PTOSIM_DT_U32;
  FAILS(ptosim_dhistv2(v, &hi), "vec.dtype");
  hi.acc_type = PTOSIM_DT_U16, hi.mask_bits = 16;
  FAILS(ptosim_dhistv2(v, &hi), "vec.mask_gran");
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ml.dtype = PTOSIM_DT_I32, ml.mask_bits = 32;
  CHECK(ptosim_vmull(ptosim_core_of(m2, 0, PTOSIM_AIV0), &ml) == PTOSIM_E_VERIFY &&
        !strcmp(ptosim_last_diag(m2)->rule, "vec.target"));
  ptosim_machine_free(m2);
}

int main(void) {
  m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  v = ptosim_core_of(m, 0, PTOSIM_AIV0);
  RUN(test_float_ops);
  RUN(test_vmadd);
  RUN(test_vexpdif);
  RUN(test_vmulscvt);
  RUN(test_fused_cvt);
  RUN(test_hist);
  RUN(test_text);
  RUN(test_int_ops);
  RUN(test_rules);
  ptosim_machine_free(m);
  return pt_test_finish();
}
