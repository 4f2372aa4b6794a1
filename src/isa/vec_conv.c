/* Conversion ops of the A5 vector core: vcvt, vtrc, vci, vbitcast
 * (vpto docs/isa/micro-isa/09-conversion-ops.md; legal type pairs and attribute contract of
 * PTOAS lib/PTO/IR/VPTO.cpp lookupVcvtContract; lane placement, rounding letters and
 * saturation settled in docs/spec-notes-vecconv.md).
 *
 * vcvt binds a plan once per op (lane stride and offset on each side, a loader, a converter
 * and an encoder chosen by the type pair) and then runs one loop over the conversions. */
#include <math.h>
#include <string.h>

#include "isa/vecconv_util.h"

/* ---- element loaders and encoders (little-endian lanes, ptosim/vreg.h) ------------------ */

static float ld_f32(const uint8_t *p) { float f; memcpy(&f, p, 4); return f; }
static float ld_f16(const uint8_t *p) { uint16_t h; memcpy(&h, p, 2); return pt_f16_to_f32(h); }
static float ld_bf16(const uint8_t *p) { uint16_t h; memcpy(&h, p, 2); return pt_bf16_to_f32(h); }
static int64_t ld_i8(const uint8_t *p) { return (int8_t)p[0]; }
static int64_t ld_u8(const uint8_t *p) { return p[0]; }
static int64_t ld_i16(const uint8_t *p) { int16_t v; memcpy(&v, p, 2); return v; }
static int64_t ld_u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static int64_t ld_i32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }
static int64_t ld_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static int64_t ld_i64(const uint8_t *p) { int64_t v; memcpy(&v, p, 8); return v; }

static void enc_f32(uint8_t *p, float x, pt_round r, pt_sat s) { (void)r, (void)s; memcpy(p, &x, 4); }
static void enc_f16(uint8_t *p, float x, pt_round r, pt_sat s) { uint16_t h = pt_f32_to_f16(x, r, s); memcpy(p, &h, 2); }
static void enc_bf16(uint8_t *p, float x, pt_round r, pt_sat s) { uint16_t h = pt_f32_to_bf16(x, r, s); memcpy(p, &h, 2); }

typedef float (*ldf_fn)(const uint8_t *);
typedef int64_t (*ldi_fn)(const uint8_t *);
typedef void (*enc_fn)(uint8_t *, float, pt_round, pt_sat);

static ldf_fn float_loader(ptosim_dtype t) {
  return t == PTOSIM_DT_F32 ? ld_f32 : t == PTOSIM_DT_F16 ? ld_f16 : t == PTOSIM_DT_BF16 ? ld_bf16 : NULL;
}

static enc_fn float_encoder(ptosim_dtype t) {
  return t == PTOSIM_DT_F32 ? enc_f32 : t == PTOSIM_DT_F16 ? enc_f16 : t == PTOSIM_DT_BF16 ? enc_bf16 : NULL;
}

static ldi_fn int_loader(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_I8: return ld_i8;
    case PTOSIM_DT_U8: return ld_u8;
    case PTOSIM_DT_I16: return ld_i16;
    case PTOSIM_DT_U16: return ld_u16;
    case PTOSIM_DT_I32: return ld_i32;
    case PTOSIM_DT_U32: return ld_u32;
    case PTOSIM_DT_I64: return ld_i64;
    default: return NULL;
  }
}

/* Integer v rounded to f32 with r (exact below 2^24): the top 24 significant bits of |v|
 * plus the rounding increment the dropped bits call for. */
static float i64_to_f32(int64_t v, pt_round r) {
  if (v > -(1 << 24) && v < (1 << 24)) return (float)v;
  int neg = v < 0;
  uint64_t mag = neg ? 0 - (uint64_t)v : (uint64_t)v;
  int drop = 64 - __builtin_clzll(mag) - 24; /* >= 1 */
  uint64_t q = mag >> drop, rem = mag & ((1ull << drop) - 1), half = 1ull << (drop - 1);
  switch (r) {
    case PT_RND_AWAY: q += rem >= half; break;
    case PT_RND_FLOOR: q += neg && rem; break;
    case PT_RND_CEIL: q += !neg && rem; break;
    case PT_RND_TRUNC: break;
    case PT_RND_ODD: q |= rem != 0; break;
    default: q += rem > half || (rem == half && (q & 1)); break;
  }
  float f = ldexpf((float)q, drop); /* q <= 2^24: exact */
  return neg ? -f : f;
}

/* ---- the vcvt contract: legal pairs and which attributes each requires ------------------- */

typedef struct cvt_pair {
  ptosim_dtype src, dst;
  uint8_t rnd, sat, part; /* 1: the attribute must be given, 0: it must not */
} cvt_pair;

static const cvt_pair cvt_pairs[] = {
    {PTOSIM_DT_F32, PTOSIM_DT_F16, 1, 1, 1},  {PTOSIM_DT_F32, PTOSIM_DT_BF16, 1, 1, 1},
    {PTOSIM_DT_F32, PTOSIM_DT_I16, 1, 1, 1},  {PTOSIM_DT_F32, PTOSIM_DT_I64, 1, 1, 1},
    {PTOSIM_DT_F32, PTOSIM_DT_I32, 1, 1, 0},  {PTOSIM_DT_F16, PTOSIM_DT_F32, 0, 0, 1},
    {PTOSIM_DT_F16, PTOSIM_DT_I32, 1, 0, 1},  {PTOSIM_DT_F16, PTOSIM_DT_I16, 1, 1, 0},
    {PTOSIM_DT_F16, PTOSIM_DT_I8, 1, 1, 1},   {PTOSIM_DT_F16, PTOSIM_DT_U8, 1, 1, 1},
    {PTOSIM_DT_BF16, PTOSIM_DT_F16, 1, 1, 0}, {PTOSIM_DT_BF16, PTOSIM_DT_F32, 0, 0, 1},
    {PTOSIM_DT_BF16, PTOSIM_DT_I32, 1, 1, 1}, {PTOSIM_DT_U8, PTOSIM_DT_F16, 0, 0, 1},
    {PTOSIM_DT_U8, PTOSIM_DT_U16, 0, 0, 1},   {PTOSIM_DT_U8, PTOSIM_DT_U32, 0, 0, 1},
    {PTOSIM_DT_I8, PTOSIM_DT_F16, 0, 0, 1},   {PTOSIM_DT_I8, PTOSIM_DT_I16, 0, 0, 1},
    {PTOSIM_DT_I8, PTOSIM_DT_I32, 0, 0, 1},   {PTOSIM_DT_U16, PTOSIM_DT_U8, 0, 1, 1},
    {PTOSIM_DT_U16, PTOSIM_DT_U32, 0, 0, 1},  {PTOSIM_DT_I16, PTOSIM_DT_F16, 1, 0, 0},
    {PTOSIM_DT_I16, PTOSIM_DT_F32, 0, 0, 1},  {PTOSIM_DT_I16, PTOSIM_DT_U32, 0, 0, 1},
    {PTOSIM_DT_I16, PTOSIM_DT_I32, 0, 0, 1},  {PTOSIM_DT_I16, PTOSIM_DT_U8, 0, 1, 1},
    {PTOSIM_DT_U32, PTOSIM_DT_U8, 0, 1, 1},   {PTOSIM_DT_U32, PTOSIM_DT_U16, 0, 1, 1},
    {PTOSIM_DT_U32, PTOSIM_DT_I16, 0, 1, 1},  {PTOSIM_DT_I32, PTOSIM_DT_F32, 1, 0, 0},
    {PTOSIM_DT_I32, PTOSIM_DT_U8, 0, 1, 1},   {PTOSIM_DT_I32, PTOSIM_DT_U16, 0, 1, 1},
    {PTOSIM_DT_I32, PTOSIM_DT_I16, 0, 1, 1},  {PTOSIM_DT_I32, PTOSIM_DT_I64, 0, 0, 1},
    {PTOSIM_DT_I64, PTOSIM_DT_F32, 1, 0, 1},  {PTOSIM_DT_I64, PTOSIM_DT_I32, 0, 1, 1},
};

/* ---- the plan of one vcvt ------------------------------------------------------------------ */

typedef struct cvt_plan cvt_plan;
typedef void (*cvt_fn)(const cvt_plan *c, const uint8_t *s, uint8_t *d);

struct cvt_plan {
  unsigned sw, dw;            /* element bytes of source and destination */
  unsigned n;                 /* conversions: 256 / max(sw, dw) */
  unsigned s_step, s_off;     /* conversion i reads source lane i * s_step + s_off */
  unsigned d_step, d_off;     /* and writes destination lane i * d_step + d_off */
  pt_round r;
  pt_sat fsat;                /* float destinations: PT_SAT_ON (SAT) or PT_SAT_OFF */
  int sat;                    /* integer destinations: clamp to [lo, hi], else keep the low dw bytes */
  int64_t lo, hi;
  ldf_fn ldf;
  ldi_fn ldi;
  enc_fn enc;
  cvt_fn cvt;
};

/* Store the low dw bytes of v (two's complement). */
static void st_int(uint8_t *d, int64_t v, unsigned dw) { memcpy(d, &v, dw); }

static int64_t clamp(const cvt_plan *c, int64_t v) { return v < c->lo ? c->lo : v > c->hi ? c->hi : v; }

static void cvt_ff(const cvt_plan *c, const uint8_t *s, uint8_t *d) { c->enc(d, c->ldf(s), c->r, c->fsat); }

static void cvt_if(const cvt_plan *c, const uint8_t *s, uint8_t *d) {
  c->enc(d, i64_to_f32(c->ldi(s), c->r), c->r, c->fsat); /* exact in f32 unless d is f32 */
}

/* NaN -> 0; without SAT the 64-bit rounded value wraps to the destination width. */
static void cvt_fi(const cvt_plan *c, const uint8_t *s, uint8_t *d) {
  st_int(d, c->sat ? pt_f32_to_int(c->ldf(s), c->r, c->lo, c->hi) : pt_f32_to_int(c->ldf(s), c->r, INT64_MIN, INT64_MAX),
         c->dw);
}

static void cvt_ii(const cvt_plan *c, const uint8_t *s, uint8_t *d) {
  st_int(d, c->sat ? clamp(c, c->ldi(s)) : c->ldi(s), c->dw);
}

static ptosim_status attr_given(pt_ctx *x, const char *rule, const char *what, int given, int wanted,
                                const ptosim_vcvt_params *p) {
  PT_VERIFY(x, given == wanted, rule, wanted ? "add the attribute: this type pair requires it" : "drop the attribute: this type pair does not take it",
            "vcvt %s -> %s: %s attribute %s", pt_dtype_name(p->src_type), pt_dtype_name(p->dst_type), what,
            wanted ? "missing" : "not allowed");
  return PTOSIM_OK;
}

/* Check the attributes against the pair's contract and bind the plan. */
static ptosim_status vcvt_plan(pt_ctx *x, const ptosim_vcvt_params *p, cvt_plan *c) {
  const cvt_pair *pr = NULL;
  for (unsigned k = 0; k < sizeof cvt_pairs / sizeof cvt_pairs[0] && !pr; k++)
    if (cvt_pairs[k].src == p->src_type && cvt_pairs[k].dst == p->dst_type) pr = &cvt_pairs[k];
  PT_VERIFY(x, pr != NULL, "vec.vcvt_pair", "convert a type pair of the A5 matrix (micro-isa 09)",
            "vcvt %s -> %s is not a supported conversion", pt_dtype_name(p->src_type), pt_dtype_name(p->dst_type));
  PT_VERIFY(x, p->rnd >= PTOSIM_VRND_NONE && p->rnd <= PTOSIM_VRND_O, "vec.vcvt_rnd", "use R, A, F, C, Z or O",
            "vcvt: rounding code %d", (int)p->rnd);
  PT_VERIFY(x, p->sat >= PTOSIM_VSAT_NONE && p->sat <= PTOSIM_VSAT_NOSAT, "vec.vcvt_sat", "use SAT or NOSAT",
            "vcvt: saturation code %d", (int)p->sat);
  PT_TRY(attr_given(x, "vec.vcvt_rnd", "rnd", p->rnd != PTOSIM_VRND_NONE, pr->rnd, p));
  PT_TRY(attr_given(x, "vec.vcvt_sat", "sat", p->sat != PTOSIM_VSAT_NONE, pr->sat, p));
  PT_TRY(attr_given(x, "vec.vcvt_part", "part", p->part != PTOSIM_VPART_NONE, pr->part, p));
  c->sw = pt_dtype_size(p->src_type);
  c->dw = pt_dtype_size(p->dst_type);
  unsigned wide = c->sw > c->dw ? c->sw : c->dw, ratio = wide / (c->sw + c->dw - wide), k = 0;
  if (ratio == 2) {
    PT_VERIFY(x, p->part == PTOSIM_VPART_EVEN || p->part == PTOSIM_VPART_ODD, "vec.vcvt_part",
              "a 2:1 width change takes part EVEN or ODD", "vcvt %s -> %s: part must be EVEN or ODD",
              pt_dtype_name(p->src_type), pt_dtype_name(p->dst_type));
    k = p->part == PTOSIM_VPART_ODD;
  } else if (ratio == 4) {
    PT_VERIFY(x, p->part >= PTOSIM_VPART_P0 && p->part <= PTOSIM_VPART_P3, "vec.vcvt_part",
              "a 4:1 width change takes part P0, P1, P2 or P3", "vcvt %s -> %s: part must be P0..P3",
              pt_dtype_name(p->src_type), pt_dtype_name(p->dst_type));
    k = (unsigned)(p->part - PTOSIM_VPART_P0);
  }
  c->n = PTOSIM_VREG_BYTES / wide;
  int narrow = c->sw > c->dw;
  c->s_step = narrow ? 1 : ratio, c->s_off = narrow ? 0 : k;
  c->d_step = narrow ? ratio : 1, c->d_off = narrow ? k : 0;
  static const pt_round rnd_of[] = {PT_RND_RINT, PT_RND_RINT, PT_RND_AWAY, PT_RND_FLOOR, PT_RND_CEIL, PT_RND_TRUNC, PT_RND_ODD};
  c->r = rnd_of[p->rnd];
  c->sat = p->sat == PTOSIM_VSAT_SAT;
  c->fsat = c->sat ? PT_SAT_ON : PT_SAT_OFF;
  c->lo = pt_int_min(p->dst_type), c->hi = pt_int_max(p->dst_type);
  c->ldf = float_loader(p->src_type), c->ldi = int_loader(p->src_type), c->enc = float_encoder(p->dst_type);
  c->cvt = c->ldf ? (c->enc ? cvt_ff : cvt_fi) : (c->enc ? cvt_if : cvt_ii);
  return PTOSIM_OK;
}

ptosim_status pt_exec_vcvt(pt_ctx *x, const ptosim_vcvt_params *p) {
  PT_TRY(pt_vec_begin(x, p->dst && p->src && p->mask));
  cvt_plan c;
  PT_TRY(vcvt_plan(x, p, &c));
  ptosim_vreg r;
  memset(&r, 0, sizeof r);
  for (unsigned i = 0; i < c.n; i++) {
    unsigned so = (i * c.s_step + c.s_off) * c.sw; /* byte offsets */
    if (pt_pbit(p->mask, so)) c.cvt(&c, p->src->b + so, r.b + (i * c.d_step + c.d_off) * c.dw);
  }
  *p->dst = r;
  pt_record_work(x, c.n, p->src_type);
  return PTOSIM_OK;
}

/* ---- vtrc: round to an integral value in the same float type ------------------------------- */

/* |x| >= 2^23, inf and NaN are already integral; the sign of a zero result is x's. */
static float round_integral(float x, pt_round r) {
  if (!(fabsf(x) < 0x1p23f)) return x;
  return copysignf((float)pt_f32_to_int(x, r, INT64_MIN, INT64_MAX), x);
}

ptosim_status pt_exec_vtrc(pt_ctx *x, const ptosim_vtrc_params *p) {
  PT_TRY(pt_vec_begin(x, p->dst && p->src && p->mask));
  ldf_fn ld = float_loader(p->dtype);
  enc_fn enc = float_encoder(p->dtype);
  PT_VERIFY(x, ld != NULL, "vec.dtype", "vtrc takes f16, bf16 or f32", "vtrc on %s lanes", pt_dtype_name(p->dtype));
  PT_VERIFY(x, p->rnd >= PTOSIM_VRND_R && p->rnd <= PTOSIM_VRND_Z, "vec.vtrc_rnd", "use R, A, F, C or Z",
            "vtrc: rounding code %d is not one of R A F C Z", (int)p->rnd);
  static const pt_round rnd_of[] = {PT_RND_RINT, PT_RND_RINT, PT_RND_AWAY, PT_RND_FLOOR, PT_RND_CEIL, PT_RND_TRUNC};
  pt_round r = rnd_of[p->rnd];
  unsigned w = pt_dtype_size(p->dtype);
  ptosim_vreg out;
  memset(&out, 0, sizeof out);
  for (unsigned o = 0; o < PTOSIM_VREG_BYTES; o += w)
    if (pt_pbit(p->mask, o)) enc(out.b + o, round_integral(ld(p->src->b + o), r), PT_RND_RINT, PT_SAT_OFF);
  *p->dst = out;
  pt_record_work(x, PTOSIM_VREG_BYTES / w, p->dtype);
  return PTOSIM_OK;
}

/* ---- vci: lane-index vector ------------------------------------------------------------------ */

ptosim_status pt_exec_vci(pt_ctx *x, const ptosim_vci_params *p) {
  PT_TRY(pt_vec_begin(x, p->dst != NULL));
  ptosim_dtype t = p->base.dtype;
  enc_fn enc = t == PTOSIM_DT_F16 || t == PTOSIM_DT_F32 ? float_encoder(t) : NULL;
  unsigned w = pt_dtype_size(t);
  PT_VERIFY(x, enc || (int_loader(t) && w <= 4), "vec.dtype", "vci takes an i8/i16/i32 (or unsigned), f16 or f32 base",
            "vci with a %s base", pt_dtype_name(t));
  PT_VERIFY(x, p->order == PTOSIM_VCI_ASC || p->order == PTOSIM_VCI_DESC, "vec.order", "use ASC or DESC",
            "vci: order %d is not ASC or DESC", (int)p->order);
  int64_t dir = p->order == PTOSIM_VCI_DESC ? -1 : 1;
  uint8_t b[8];
  memcpy(b, &p->base.bits, sizeof b);
  ptosim_vreg out;
  if (enc) {
    /* base + i is exact in double; one rounding to f32, then (f16) an exact-or-once rounding */
    double base = t == PTOSIM_DT_F32 ? ld_f32(b) : ld_f16(b);
    for (unsigned i = 0; i < PTOSIM_VREG_BYTES / w; i++)
      enc(out.b + i * w, (float)(base + (double)(dir * (int64_t)i)), PT_RND_RINT, PT_SAT_OFF);
  } else {
    uint64_t base = p->base.bits;
    for (unsigned i = 0; i < PTOSIM_VREG_BYTES / w; i++) st_int(out.b + i * w, (int64_t)(base + (uint64_t)(dir * (int64_t)i)), w);
  }
  *p->dst = out;
  pt_record_work(x, PTOSIM_VREG_BYTES / w, t);
  return PTOSIM_OK;
}

/* ---- vbitcast ------------------------------------------------------------------------------- */

ptosim_status pt_exec_vbitcast(pt_ctx *x, const ptosim_vbitcast_params *p) {
  PT_TRY(pt_vec_begin(x, p->dst && p->src));
  *p->dst = *p->src;
  return PTOSIM_OK;
}
