/* A2/A3 UB-to-UB vector ops pto.ub.* (src/isa/ub_vec.c) against a naive reference written
 * here from the formula of include/ptosim/ub_vec.h: for every repeat r, lane k of e-byte
 * elements runs iff the mask (normal: bit k of MASK1:MASK0; count: r * 256/e + k < MASK0),
 * and element k lives at addr + (r * repeat_stride + k / (32/e) * block_stride) * 32 +
 * (k % (32/e)) * e. Every op x every legal dtype x strides, masks, count mode, aliasing;
 * the whole UB is compared (untouched bytes included); then illegal dtypes, one negative
 * test per rule, masked lanes outside UB, and .pto text. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

#define UB_AREA 32768 /* bytes of UB the tests use and compare */

static ptosim_machine *mach;
static ptosim_core *aiv;
static uint8_t ub[UB_AREA], want[UB_AREA], got[UB_AREA];
static unsigned long long seed = 0x9E3779B97F4A7C15ull;

static const char *rule(void) { return ptosim_last_diag(mach)->rule; }

/* ---- reference element formulas (double / int64, rounded once to the element type) ----- */

typedef enum { K_BIN, K_UN, K_SCALAR, K_SHIFT, K_DUP } kind;
typedef struct op_case {
  const char *name;
  ptosim_opcode op;
  kind k;
  ptosim_dtype types[8]; /* legal element types, NONE-terminated */
} op_case;

static const op_case OPS[] = {
    {"vadd", PTOSIM_OP_ub_vadd, K_BIN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vsub", PTOSIM_OP_ub_vsub, K_BIN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vmul", PTOSIM_OP_ub_vmul, K_BIN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vdiv", PTOSIM_OP_ub_vdiv, K_BIN, {PTOSIM_DT_F16, PTOSIM_DT_F32}},
    {"vmax", PTOSIM_OP_ub_vmax, K_BIN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vmin", PTOSIM_OP_ub_vmin, K_BIN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vand", PTOSIM_OP_ub_vand, K_BIN, {PTOSIM_DT_I16, PTOSIM_DT_U16}},
    {"vor", PTOSIM_OP_ub_vor, K_BIN, {PTOSIM_DT_I16, PTOSIM_DT_U16}},
    {"vaddrelu", PTOSIM_OP_ub_vaddrelu, K_BIN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16}},
    {"vnot", PTOSIM_OP_ub_vnot, K_UN, {PTOSIM_DT_I16, PTOSIM_DT_U16}},
    {"vabs", PTOSIM_OP_ub_vabs, K_UN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16}},
    {"vrelu", PTOSIM_OP_ub_vrelu, K_UN, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I32}},
    {"vexp", PTOSIM_OP_ub_vexp, K_UN, {PTOSIM_DT_F16, PTOSIM_DT_F32}},
    {"vln", PTOSIM_OP_ub_vln, K_UN, {PTOSIM_DT_F16, PTOSIM_DT_F32}},
    {"vsqrt", PTOSIM_OP_ub_vsqrt, K_UN, {PTOSIM_DT_F16, PTOSIM_DT_F32}},
    {"vrsqrt", PTOSIM_OP_ub_vrsqrt, K_UN, {PTOSIM_DT_F16, PTOSIM_DT_F32}},
    {"vshl", PTOSIM_OP_ub_vshl, K_SHIFT, {PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32}},
    {"vshr", PTOSIM_OP_ub_vshr, K_SHIFT, {PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32}},
    {"vmuls", PTOSIM_OP_ub_vmuls, K_SCALAR, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vadds", PTOSIM_OP_ub_vadds, K_SCALAR, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vmaxs", PTOSIM_OP_ub_vmaxs, K_SCALAR, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vmins", PTOSIM_OP_ub_vmins, K_SCALAR, {PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_I32}},
    {"vdup", PTOSIM_OP_ub_vdup, K_DUP,
     {PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32, PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32}},
};
#define NOPS (sizeof OPS / sizeof OPS[0])

static int is_float(ptosim_dtype t) { return t == PTOSIM_DT_F16 || t == PTOSIM_DT_F32 || t == PTOSIM_DT_BF16; }

static double rd_f(ptosim_dtype t, const uint8_t *p) {
  if (t == PTOSIM_DT_F32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  uint16_t h;
  memcpy(&h, p, 2);
  return pt_f16_to_f32(h);
}

/* Store x rounded once to t; every NaN as the type's positive quiet NaN. */
static void wr_f(ptosim_dtype t, uint8_t *p, double x) {
  if (t == PTOSIM_DT_F32) {
    uint32_t b = 0x7FC00000u;
    float f = (float)x;
    if (!isnan(x)) memcpy(&b, &f, 4);
    memcpy(p, &b, 4);
  } else {
    uint16_t h = isnan(x) ? 0x7E00u : pt_f32_to_f16((float)x, PT_RND_RINT, PT_SAT_OFF);
    /* (float)x then f16 is one rounding here: every reference value is an f32 result */
    memcpy(p, &h, 2);
  }
}

static uint64_t rd_u(unsigned e, const uint8_t *p) {
  uint64_t v = 0;
  memcpy(&v, p, e);
  return v;
}
static int64_t sext(uint64_t v, unsigned e) { return (int64_t)(v << (64 - 8 * e)) >> (64 - 8 * e); }

/* IEEE max / min with NaN -> NaN and -0 < +0. */
static double fmax0(double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static double fmin0(double a, double b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* One element: dst = op(a, b); a, b point at element bytes (b: the scalar's bytes for
 * scalar forms); s = the shift distance. */
static void ref_elem(const char *op, ptosim_dtype t, uint8_t *d, const uint8_t *a, const uint8_t *b, int64_t s) {
  unsigned e = pt_dtype_size(t);
  if (!strcmp(op, "vdup")) {
    memcpy(d, b, e);
    return;
  }
  if (is_float(t)) {
    if (!strcmp(op, "vabs")) { /* sign bit cleared, payload kept */
      memcpy(d, a, e);
      d[e - 1] &= 0x7F;
      return;
    }
    /* f32 arithmetic of f32 values, as the spec's "compute in f32, round once" */
    float x = (float)rd_f(t, a), y = b ? (float)rd_f(t, b) : 0, r = 0;
    if (!strcmp(op, "vadd") || !strcmp(op, "vadds")) r = x + y;
    else if (!strcmp(op, "vsub")) r = x - y;
    else if (!strcmp(op, "vmul") || !strcmp(op, "vmuls")) r = x * y;
    else if (!strcmp(op, "vdiv")) r = x / y;
    else if (!strcmp(op, "vmax") || !strcmp(op, "vmaxs")) r = (float)fmax0(x, y);
    else if (!strcmp(op, "vmin") || !strcmp(op, "vmins")) r = (float)fmin0(x, y);
    else if (!strcmp(op, "vaddrelu")) r = x + y > 0 ? x + y : 0;
    else if (!strcmp(op, "vrelu")) r = x > 0 ? x : 0;
    else if (!strcmp(op, "vexp")) r = pt_exp_ref(x);
    else if (!strcmp(op, "vln")) r = logf(x);
    else if (!strcmp(op, "vsqrt")) r = sqrtf(x);
    else if (!strcmp(op, "vrsqrt")) r = 1.0f / sqrtf(x);
    wr_f(t, d, r);
    return;
  }
  int sgn = t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32;
  uint64_t ua = rd_u(e, a), ub_ = b ? rd_u(e, b) : 0, mask = e == 8 ? ~0ull : (1ull << (8 * e)) - 1, r = 0;
  int64_t x = sgn ? sext(ua, e) : (int64_t)ua, y = sgn ? sext(ub_, e) : (int64_t)ub_;
  if (!strcmp(op, "vadd") || !strcmp(op, "vadds")) r = ua + ub_;
  else if (!strcmp(op, "vsub")) r = ua - ub_;
  else if (!strcmp(op, "vmul") || !strcmp(op, "vmuls")) r = ua * ub_;
  else if (!strcmp(op, "vmax") || !strcmp(op, "vmaxs")) r = (uint64_t)(x > y ? x : y);
  else if (!strcmp(op, "vmin") || !strcmp(op, "vmins")) r = (uint64_t)(x < y ? x : y);
  else if (!strcmp(op, "vand")) r = ua & ub_;
  else if (!strcmp(op, "vor")) r = ua | ub_;
  else if (!strcmp(op, "vnot")) r = ~ua;
  else if (!strcmp(op, "vabs")) r = (uint64_t)(x < 0 ? -x : x);
  else if (!strcmp(op, "vrelu")) r = (uint64_t)(x > 0 ? x : 0);
  else if (!strcmp(op, "vaddrelu")) r = sext((ua + ub_) & mask, e) > 0 ? ua + ub_ : 0;
  else if (!strcmp(op, "vshl")) r = s >= 8 * (int64_t)e ? 0 : ua << s;
  else if (!strcmp(op, "vshr")) r = s >= 8 * (int64_t)e ? 0 : ua >> s; /* logical */
  r &= mask;
  memcpy(d, &r, e);
}

/* ---- one configuration ------------------------------------------------------------------- */

typedef struct cfg {
  uint64_t d, s0, s1;                /* UB byte addresses */
  int64_t repeat, dbs, s0bs, s1bs;   /* repeat, block strides (32 B) */
  int64_t drs, s0rs, s1rs;           /* repeat strides (32 B) */
  uint64_t m0, m1;
  int count;                         /* count mode, MASK0 = element count */
  int64_t scalar;
} cfg;

/* The reference: want = ub after op c on dtype t. */
static void reference(const op_case *oc, ptosim_dtype t, const cfg *c) {
  unsigned e = pt_dtype_size(t), epr = 256 / e, per = 32 / e;
  memcpy(want, ub, UB_AREA);
  /* count mode: repeat 0 / 1 run the first MASK0 elements in ceil(MASK0 / epr) repeats; a
   * repeat of 2 or more runs the first MASK0 lanes of each repeat */
  int per_repeat = c->count && c->repeat >= 2;
  uint64_t nrep = c->count && !per_repeat ? (c->m0 + epr - 1) / epr : (uint64_t)c->repeat;
  uint8_t sb[8];
  int64_t s = c->scalar;
  memcpy(sb, &s, 8);
  if (oc->k == K_SHIFT) s = s > 8 * (int64_t)e ? 8 * (int64_t)e : s;
  for (uint64_t r = 0; r < nrep; r++) {
    /* gather all sources of the repeat first, then store (aliasing) */
    uint8_t res[256];
    int run[128];
    for (unsigned k = 0; k < epr; k++) {
      run[k] = c->count ? (per_repeat ? k : r * epr + k) < c->m0 : (int)((k < 64 ? c->m0 >> k : c->m1 >> (k - 64)) & 1);
      if (!run[k]) continue;
      unsigned bk = k / per, j = k % per;
      const uint8_t *a = want + c->s0 + (r * c->s0rs + bk * c->s0bs) * 32 + j * e;
      const uint8_t *b = want + c->s1 + (r * c->s1rs + bk * c->s1bs) * 32 + j * e;
      if (oc->k == K_UN || oc->k == K_SHIFT) b = NULL;
      if (oc->k == K_SCALAR || oc->k == K_DUP) b = sb;
      ref_elem(oc->name, t, res + k * e, a, b, s);
    }
    for (unsigned k = 0; k < epr; k++)
      if (run[k]) memcpy(want + c->d + (r * c->drs + k / per * c->dbs) * 32 + k % per * e, res + k * e, e);
  }
}

static ptosim_ptr up(uint64_t a, ptosim_dtype t) { return ptosim_ptr_make(PTOSIM_UB, t, a); }

static void set_mask_state(const cfg *c) {
  ptosim_ub_mask_params m = {c->m0, c->m1};
  CHECK(ptosim_ub_set_mask(aiv, &m) == PTOSIM_OK);
  CHECK((c->count ? ptosim_ub_set_mask_count(aiv, &m) : ptosim_ub_set_mask_norm(aiv, &m)) == PTOSIM_OK);
}

static ptosim_status exec(ptosim_core *core, const op_case *oc, ptosim_dtype t, const cfg *c) {
  if (oc->k == K_BIN) {
    ptosim_ub_binary_params p = {up(c->d, t), up(c->s0, t), up(c->s1, t), c->repeat, c->dbs, c->s0bs, c->s1bs,
                                 c->drs,      c->s0rs,      c->s1rs};
    return ptosim_exec(core, oc->op, &p, NULL);
  }
  ptosim_ub_unary_params p = {up(c->d, t), up(c->s0, t), c->scalar, c->repeat, c->dbs, c->s0bs, c->drs, c->s0rs};
  return ptosim_exec(core, oc->op, &p, NULL);
}

/* Random UB bytes; float elements with a share of specials, small ints sometimes. */
static void fill(ptosim_dtype t) {
  unsigned e = pt_dtype_size(t);
  for (unsigned i = 0; i < UB_AREA; i += e) {
    uint64_t v = pt_rand_u64(&seed);
    if (t == PTOSIM_DT_F16 && v % 4) v = pt_f32_to_f16((float)((int64_t)(v >> 8) % 2000) / 64.0f, PT_RND_RINT, PT_SAT_OFF);
    if (t == PTOSIM_DT_F32 && v % 4) {
      float f = (float)((int64_t)(v >> 8) % 200000) / 1024.0f;
      memcpy(&v, &f, 4);
    }
    memcpy(ub + i, &v, e);
  }
  CHECK(ptosim_mem_write(aiv, PTOSIM_UB, 0, ub, UB_AREA) == PTOSIM_OK);
}

static void run_case(const op_case *oc, ptosim_dtype t, const cfg *c, const char *what) {
  fill(t);
  set_mask_state(c);
  reference(oc, t, c);
  ptosim_status st = exec(aiv, oc, t, c);
  CHECK_MSG(st == PTOSIM_OK, "%s %s %s: %s", oc->name, pt_dtype_name(t), what, ptosim_last_diag(mach)->msg);
  CHECK(ptosim_mem_read(aiv, PTOSIM_UB, 0, got, UB_AREA) == PTOSIM_OK);
  size_t i = 0;
  while (i < UB_AREA && got[i] == want[i]) i++;
  CHECK_MSG(i == UB_AREA, "%s %s %s: byte %zu got %02x want %02x", oc->name, pt_dtype_name(t), what, i,
            i < UB_AREA ? got[i] : 0, i < UB_AREA ? want[i] : 0);
}

static void test_ops(void) {
  const uint64_t M = ~0ull;
  /* d, s0, s1, repeat, dbs, s0bs, s1bs, drs, s0rs, s1rs, m0, m1, count, scalar */
  const struct {
    const char *what;
    cfg c;
  } CFGS[] = {
      {"contiguous full", {0, 8192, 16384, 3, 1, 1, 1, 8, 8, 8, M, M, 0, 3}},
      {"strided", {1024, 8192 + 64, 16384 + 96, 2, 2, 1, 3, 16, 9, 24, M, M, 0, 5}},
      {"zero strides", {256, 9216, 17408, 4, 1, 0, 1, 8, 0, 1, M, M, 0, 1}},
      {"prefix mask", {0, 8192, 16384, 2, 1, 1, 1, 8, 8, 8, 0x1FFFFF, 0, 0, 2}},
      {"alternating mask", {0, 8192, 16384, 2, 1, 1, 1, 8, 8, 8, 0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull, 0, 7}},
      {"high half", {512, 8192, 16384, 1, 1, 2, 1, 8, 8, 8, 0, 0xF0F0F0F0F0F00F0Full, 0, 15}},
      {"random mask", {0, 8192, 16384, 3, 1, 1, 1, 10, 8, 8, 0x8421F00FC3A5126Bull, 0x0123456789ABCDEFull, 0, 31}},
      {"repeat 0", {0, 8192, 16384, 0, 1, 1, 1, 8, 8, 8, M, M, 0, 1}},
      {"in place", {8192, 8192, 16384, 2, 1, 1, 1, 8, 8, 8, M, M, 0, 4}},
      {"count 2 repeats + tail", {0, 8192, 16384, 1, 1, 1, 1, 8, 8, 8, 0, 0, 1, 9}},
      {"count strided", {2048, 8192, 16384, 0, 2, 1, 1, 16, 8, 8, 0, 0, 1, 33}},
      {"count 0", {0, 8192, 16384, 1, 1, 1, 1, 8, 8, 8, 0, M, 1, 1}},
      {"count per repeat", {1024, 8192 + 32, 16384, 5, 1, 1, 2, 3, 9, 16, 0, 0, 1, 6}},
  };
  for (size_t i = 0; i < NOPS; i++)
    for (const ptosim_dtype *t = OPS[i].types; *t; t++)
      for (size_t k = 0; k < sizeof CFGS / sizeof CFGS[0]; k++) {
        cfg c = CFGS[k].c;
        unsigned epr = 256 / pt_dtype_size(*t);
        if (c.count && k == 9) c.m0 = 2 * epr + 7;
        if (c.count && k == 10) c.m0 = 3 * epr - 1;
        if (c.count && k == 11) c.m0 = 0;
        if (c.count && k == 12) c.m0 = epr / 4 + 3; /* a2a3 TInsert.hpp NZ tails: rows repeats of a short count */
        if (OPS[i].k == K_SCALAR && is_float(*t)) { /* the scalar's bits: 1.5 */
          float h = 1.5f;
          uint32_t b;
          memcpy(&b, &h, 4);
          c.scalar = *t == PTOSIM_DT_F32 ? (int64_t)b : (int64_t)pt_f32_to_f16(h, PT_RND_RINT, PT_SAT_OFF);
        }
        if (OPS[i].k == K_SCALAR && !is_float(*t)) c.scalar = -c.scalar * 1000 - 1; /* negative, wide */
        run_case(&OPS[i], *t, &c, CFGS[k].what);
      }
  /* the scalar forms take the low E bytes of the i64 (upper bits ignored) */
  cfg c = CFGS[0].c;
  c.scalar = 0x7FFF00000005ll;
  run_case(&OPS[19], PTOSIM_DT_I16, &c, "vadds wide scalar");
  /* shift distances: 0, width - 1, width, beyond */
  const int64_t dist[] = {0, 15, 16, 31, 32, 1000};
  for (size_t k = 0; k < sizeof dist / sizeof dist[0]; k++)
    for (int sh = 16; sh <= 17; sh++)
      for (const ptosim_dtype *t = OPS[sh].types; *t; t++) {
        c = CFGS[0].c;
        c.scalar = dist[k];
        run_case(&OPS[sh], *t, &c, "shift distance");
      }
}

/* Every other element type is ubvec.dtype. */
static void test_dtypes(void) {
  const ptosim_dtype all[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32,
                              PTOSIM_DT_I64, PTOSIM_DT_U64, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};
  cfg c = {0, 8192, 16384, 1, 1, 1, 1, 8, 8, 8, ~0ull, ~0ull, 0, 1};
  set_mask_state(&c);
  for (size_t i = 0; i < NOPS; i++)
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
      int legal = 0;
      for (const ptosim_dtype *t = OPS[i].types; *t; t++) legal |= *t == all[k];
      if (legal) continue;
      ptosim_status st = exec(aiv, &OPS[i], all[k], &c);
      CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(rule(), "ubvec.dtype"), "%s on %s: %s", OPS[i].name,
                pt_dtype_name(all[k]), rule());
    }
}

/* ---- rules and masked lanes ------------------------------------------------------------ */

static void expect(ptosim_status st, ptosim_status want_st, const char *r) {
  CHECK_MSG(st == want_st && !strcmp(rule(), r), "want %s, got status %d rule %s (%s)", r, st, rule(),
            ptosim_last_diag(mach)->msg);
}

static void test_rules(void) {
  const op_case *vadd = &OPS[0], *vshl = &OPS[16];
  cfg c = {0, 8192, 16384, 1, 1, 1, 1, 8, 8, 8, ~0ull, ~0ull, 0, 1};
  set_mask_state(&c);
  cfg bad = c;
  bad.s1rs = 256;
  expect(exec(aiv, vadd, PTOSIM_DT_F32, &bad), PTOSIM_E_VERIFY, "ubvec.field");
  bad = c;
  bad.repeat = -1;
  expect(exec(aiv, vadd, PTOSIM_DT_F32, &bad), PTOSIM_E_VERIFY, "ubvec.field");
  bad = c;
  bad.scalar = -1;
  expect(exec(aiv, vshl, PTOSIM_DT_I16, &bad), PTOSIM_E_VERIFY, "ubvec.shift");
  /* mixed element types */
  ptosim_ub_binary_params mix = {up(0, PTOSIM_DT_F32), up(8192, PTOSIM_DT_F16), up(16384, PTOSIM_DT_F32), 1, 1, 1, 1, 8, 8, 8};
  expect(ptosim_ub_vadd(aiv, &mix), PTOSIM_E_VERIFY, "ubvec.dtype");
  /* a GM operand */
  mix.src0 = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F32, 0);
  expect(ptosim_ub_vadd(aiv, &mix), PTOSIM_E_VERIFY, "op.space");
  /* base alignment: 32 bytes */
  bad = c;
  bad.s0 = 8192 + 16;
  expect(exec(aiv, vadd, PTOSIM_DT_F32, &bad), PTOSIM_E_FAULT, "mem.align");
  /* count beyond the UB in elements */
  ptosim_ub_mask_params m = {192 * 1024 / 4 + 1, 0};
  CHECK(ptosim_ub_set_mask(aiv, &m) == PTOSIM_OK && ptosim_ub_set_mask_count(aiv, &m) == PTOSIM_OK);
  expect(exec(aiv, vadd, PTOSIM_DT_F32, &c), PTOSIM_E_VERIFY, "ubvec.count");
  /* more than one repeat's lanes per repeat (repeat >= 2): undefined */
  m.mask0 = 65;
  cfg two = c;
  two.repeat = 2;
  CHECK(ptosim_ub_set_mask(aiv, &m) == PTOSIM_OK);
  expect(exec(aiv, vadd, PTOSIM_DT_F32, &two), PTOSIM_E_VERIFY, "ubvec.count_repeat");
  m.mask0 = 64;
  CHECK(ptosim_ub_set_mask(aiv, &m) == PTOSIM_OK && exec(aiv, vadd, PTOSIM_DT_F32, &two) == PTOSIM_OK);
  CHECK(ptosim_ub_set_mask_norm(aiv, &m) == PTOSIM_OK);
  /* the a5 profile: every op names the profile */
  ptosim_machine *m5 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *c5 = ptosim_core_of(m5, 0, PTOSIM_AIV0);
  for (size_t i = 0; i < NOPS; i++) {
    CHECK(exec(c5, &OPS[i], OPS[i].types[0], &c) == PTOSIM_E_VERIFY);
    CHECK_MSG(!strcmp(ptosim_last_diag(m5)->rule, "ubvec.target") && strstr(ptosim_last_diag(m5)->msg, "a5"), "%s: %s",
              OPS[i].name, ptosim_last_diag(m5)->msg);
  }
  CHECK(ptosim_ub_set_mask(c5, &m) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, "ubvec.target"));
  CHECK(ptosim_ub_set_mask_count(c5, &m) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, "ubvec.target"));
  CHECK(ptosim_ub_set_mask_norm(c5, &m) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, "ubvec.target"));
  ptosim_machine_free(m5);
}

/* Lanes that do not run are not accessed: a source whose masked blocks lie past the end of
 * UB is fine, one more running lane is mem.bounds. Count mode likewise. */
static void test_masked_outside(void) {
  uint64_t cap = 192 * 1024;
  cfg c = {0, cap - 32, 16384, 1, 1, 1, 1, 8, 8, 8, 0xFF, 0, 0, 1};
  set_mask_state(&c);
  CHECK(exec(aiv, &OPS[0], PTOSIM_DT_F32, &c) == PTOSIM_OK);
  c.m0 = 0x1FF;
  set_mask_state(&c);
  expect(exec(aiv, &OPS[0], PTOSIM_DT_F32, &c), PTOSIM_E_FAULT, "mem.bounds");
  c.count = 1;
  c.m0 = 8;
  set_mask_state(&c);
  CHECK(exec(aiv, &OPS[0], PTOSIM_DT_F32, &c) == PTOSIM_OK);
  c.m0 = 9;
  set_mask_state(&c);
  expect(exec(aiv, &OPS[0], PTOSIM_DT_F32, &c), PTOSIM_E_FAULT, "mem.bounds");
  c.count = 0;
  c.m0 = c.m1 = ~0ull;
  set_mask_state(&c);
}

/* The mask registers: reset all ones; set_mask_count / norm flip CTRL bit 56 only. */
static void test_mask_state(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  cfg k = {0, 8192, 16384, 1, 1, 1, 1, 8, 8, 8, ~0ull, ~0ull, 0, 1};
  uint8_t a[256], b[256], d[256];
  for (int i = 0; i < 256; i++) a[i] = (uint8_t)i, b[i] = 1;
  ptosim_mem_write(c, PTOSIM_UB, 8192, a, 256);
  ptosim_mem_write(c, PTOSIM_UB, 16384, b, 256);
  CHECK(exec(c, &OPS[7], PTOSIM_DT_U16, &k) == PTOSIM_OK); /* vor with the reset mask: every lane */
  ptosim_mem_read(c, PTOSIM_UB, 0, d, 256);
  int ok = 1;
  for (int i = 0; i < 256; i++) ok &= d[i] == (uint8_t)(a[i] | b[i]);
  CHECK(ok);
  uint64_t ctrl = 0;
  ptosim_reg_read_params rp = {&ctrl};
  ptosim_ub_mask_params mp = {0, 0};
  CHECK(ptosim_get_ctrl(c, &rp) == PTOSIM_OK);
  uint64_t before = ctrl;
  CHECK(ptosim_ub_set_mask_count(c, &mp) == PTOSIM_OK && ptosim_get_ctrl(c, &rp) == PTOSIM_OK);
  CHECK(ctrl == (before | 1ull << 56));
  CHECK(ptosim_ub_set_mask_norm(c, &mp) == PTOSIM_OK && ptosim_get_ctrl(c, &rp) == PTOSIM_OK);
  CHECK(ctrl == before);
  ptosim_machine_free(m);
}

/* ---- .pto text ------------------------------------------------------------------------- */

/* A kernel of every op shape in text, on a2a3: its UB result equals the C API's. */
static const char TEXT[] =
    "module attributes {pto.target_arch = \"a3\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "func.func @k() attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n  %c1 = arith.constant 1 : i64\n  %c2 = arith.constant 2 : i64\n"
    "  %c3 = arith.constant 3 : i64\n  %c8 = arith.constant 8 : i64\n  %m = arith.constant -1 : i64\n"
    "  %lo = arith.constant 1048575 : i64\n  %n = arith.constant 200 : i64\n  %one = arith.constant 1065353216 : i64\n"
    "  %a0 = arith.constant 8192 : i64\n  %a1 = arith.constant 16384 : i64\n  %a2 = arith.constant 4096 : i64\n"
    "  %d = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n  %s0 = pto.castptr %a0 : i64 -> !pto.ptr<f32, ub>\n"
    "  %s1 = pto.castptr %a1 : i64 -> !pto.ptr<f32, ub>\n  %d2 = pto.castptr %a2 : i64 -> !pto.ptr<f32, ub>\n"
    "  pto.ub.set_mask %lo, %c0 : i64, i64\n"
    "  pto.ub.vadd %d, %s0, %s1, %c3, %c1, %c1, %c1, %c8, %c8, %c8 : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, "
    "!pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64\n"
    "  pto.ub.set_mask %m, %m : i64, i64\n"
    "  pto.ub.vexp %s1, %s0, %c2, %c1, %c1, %c8, %c8 : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n"
    "  pto.ub.set_mask_count\n"
    "  pto.ub.set_mask %n, %c0 : i64, i64\n"
    "  pto.ub.vmuls %d2, %s1, %one, %c1, %c1, %c1, %c8, %c8 : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, "
    "i64, i64, i64\n"
    "  pto.ub.vdup %s0, %one, %c1, %c1, %c1, %c8, %c8 : !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64\n"
    "  pto.ub.set_mask_norm\n"
    "  return\n}\n}\n";

static void test_text(void) {
  ptosim_program *p = pt_test_load(TEXT, strlen(TEXT));
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  fill(PTOSIM_DT_F32);
  CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, ub, UB_AREA) == PTOSIM_OK);
  CHECK_MSG(ptosim_program_run(p, m, NULL) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
  /* the same ops through the C API on the test machine */
  CHECK(ptosim_mem_write(aiv, PTOSIM_UB, 0, ub, UB_AREA) == PTOSIM_OK);
  cfg k1 = {0, 8192, 16384, 3, 1, 1, 1, 8, 8, 8, 1048575, 0, 0, 0};
  set_mask_state(&k1);
  CHECK(exec(aiv, &OPS[0], PTOSIM_DT_F32, &k1) == PTOSIM_OK);
  cfg k2 = {16384, 8192, 0, 2, 1, 1, 0, 8, 8, 0, ~0ull, ~0ull, 0, 0};
  set_mask_state(&k2);
  CHECK(exec(aiv, &OPS[12], PTOSIM_DT_F32, &k2) == PTOSIM_OK);
  cfg k3 = {4096, 16384, 0, 1, 1, 1, 0, 8, 8, 0, 200, 0, 1, 1065353216};
  set_mask_state(&k3);
  CHECK(exec(aiv, &OPS[18], PTOSIM_DT_F32, &k3) == PTOSIM_OK);
  cfg k4 = {8192, 0, 0, 1, 1, 1, 0, 8, 8, 0, 200, 0, 1, 1065353216};
  CHECK(exec(aiv, &OPS[22], PTOSIM_DT_F32, &k4) == PTOSIM_OK);
  k4.count = 0;
  k4.m0 = k4.m1 = ~0ull;
  set_mask_state(&k4);
  CHECK(ptosim_mem_read(aiv, PTOSIM_UB, 0, want, UB_AREA) == PTOSIM_OK);
  CHECK(ptosim_mem_read(c, PTOSIM_UB, 0, got, UB_AREA) == PTOSIM_OK);
  CHECK(!memcmp(got, want, UB_AREA));
  CHECK(memcmp(got, ub, UB_AREA)); /* something ran */
  ptosim_machine_free(m);
  /* on a5 the same kernel stops at the first pto.ub op, naming the profile */
  ptosim_machine *m5 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  CHECK(ptosim_program_run(p, m5, NULL) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, "ubvec.target"));
  ptosim_machine_free(m5);
  ptosim_program_free(p);
}

int main(void) {
  mach = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  aiv = ptosim_core_of(mach, 0, PTOSIM_AIV0);
  RUN(test_ops);
  RUN(test_dtypes);
  RUN(test_rules);
  RUN(test_masked_outside);
  RUN(test_mask_state);
  RUN(test_text);
  ptosim_machine_free(mach);
  return pt_test_finish();
}
