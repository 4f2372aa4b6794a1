/* DSA/SFU vreg ops (src/isa/vec_sfu.c) against references written here lane by lane from the
 * chapter 13 formulas, in double precision and rounded once (or twice where the op rounds
 * twice): vprelu, vaxpy, vmula (f16 / f32 and the wrapping integers), vmull (i32 / u32),
 * with every mask shape, special values (NaN, +-inf, -0, overflow), results aliasing sources,
 * and one negative test per rule. */
#include <math.h>
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
  return pt_f16_to_f32(h);
}
static void putf(ptosim_vreg *r, ptosim_dtype dt, unsigned i, double v) {
  if (dt == PTOSIM_DT_F32) {
    float f = (float)v;
    memcpy(r->b + 4 * i, &f, 4);
  } else {
    uint16_t h = pt_f32_to_f16((float)v, PT_RND_RINT, PT_SAT_OFF);
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
  RUN(test_int_ops);
  RUN(test_rules);
  ptosim_machine_free(m);
  return pt_test_finish();
}
