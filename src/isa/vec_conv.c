/* Conversion ops of the A5 vector core: vcvt, vtrc, vci, vbitcast
 * (vpto docs/isa/micro-isa/09-conversion-ops.md; legal type pairs and attribute contract of
 * PTOAS lib/PTO/IR/VPTO.cpp lookupVcvtContract; lane placement, rounding letters and
 * saturation settled in docs/spec-notes.md section 11).
 *
 * vcvt checks the pair's contract and binds a plan once per op (lane stride and offset on
 * each side, rounding, clamp range); vcvt, vtrc and vci then run the plan's three typed
 * passes: load, convert, store. */
#include <math.h>
#include <string.h>

#include "isa/fp4.h"
#include "isa/vec_lanes.h"

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
  const char *rnds;       /* rounding letters the pair takes (NULL: any) */
} cvt_pair;

static const cvt_pair cvt_pairs[] = {
    {PTOSIM_DT_F32, PTOSIM_DT_F16, 1, 1, 1, 0},  {PTOSIM_DT_F32, PTOSIM_DT_BF16, 1, 1, 1, 0},
    {PTOSIM_DT_F32, PTOSIM_DT_I16, 1, 1, 1, 0},  {PTOSIM_DT_F32, PTOSIM_DT_I64, 1, 1, 1, 0},
    {PTOSIM_DT_F32, PTOSIM_DT_I32, 1, 1, 0, 0},  {PTOSIM_DT_F16, PTOSIM_DT_F32, 0, 0, 1, 0},
    {PTOSIM_DT_F16, PTOSIM_DT_I32, 1, 0, 1, 0},  {PTOSIM_DT_F16, PTOSIM_DT_I16, 1, 1, 0, 0},
    {PTOSIM_DT_F16, PTOSIM_DT_I8, 1, 1, 1, 0},   {PTOSIM_DT_F16, PTOSIM_DT_U8, 1, 1, 1, 0},
    {PTOSIM_DT_BF16, PTOSIM_DT_F16, 1, 1, 0, 0}, {PTOSIM_DT_BF16, PTOSIM_DT_F32, 0, 0, 1, 0},
    {PTOSIM_DT_BF16, PTOSIM_DT_I32, 1, 1, 1, 0}, {PTOSIM_DT_U8, PTOSIM_DT_F16, 0, 0, 1, 0},
    {PTOSIM_DT_U8, PTOSIM_DT_U16, 0, 0, 1, 0},   {PTOSIM_DT_U8, PTOSIM_DT_U32, 0, 0, 1, 0},
    {PTOSIM_DT_I8, PTOSIM_DT_F16, 0, 0, 1, 0},   {PTOSIM_DT_I8, PTOSIM_DT_I16, 0, 0, 1, 0},
    {PTOSIM_DT_I8, PTOSIM_DT_I32, 0, 0, 1, 0},   {PTOSIM_DT_U16, PTOSIM_DT_U8, 0, 1, 1, 0},
    {PTOSIM_DT_U16, PTOSIM_DT_U32, 0, 0, 1, 0},  {PTOSIM_DT_I16, PTOSIM_DT_F16, 1, 0, 0, 0},
    {PTOSIM_DT_I16, PTOSIM_DT_F32, 0, 0, 1, 0},  {PTOSIM_DT_I16, PTOSIM_DT_U32, 0, 0, 1, 0},
    {PTOSIM_DT_I16, PTOSIM_DT_I32, 0, 0, 1, 0},  {PTOSIM_DT_I16, PTOSIM_DT_U8, 0, 1, 1, 0},
    {PTOSIM_DT_U32, PTOSIM_DT_U8, 0, 1, 1, 0},   {PTOSIM_DT_U32, PTOSIM_DT_U16, 0, 1, 1, 0},
    {PTOSIM_DT_U32, PTOSIM_DT_I16, 0, 1, 1, 0},  {PTOSIM_DT_I32, PTOSIM_DT_F32, 1, 0, 0, 0},
    {PTOSIM_DT_I32, PTOSIM_DT_U8, 0, 1, 1, 0},   {PTOSIM_DT_I32, PTOSIM_DT_U16, 0, 1, 1, 0},
    {PTOSIM_DT_I32, PTOSIM_DT_I16, 0, 1, 1, 0},  {PTOSIM_DT_I32, PTOSIM_DT_I64, 0, 0, 1, 0},
    {PTOSIM_DT_I64, PTOSIM_DT_F32, 1, 0, 1, 0},  {PTOSIM_DT_I64, PTOSIM_DT_I32, 0, 1, 1, 0},
    /* low precision, 4-way parts (PTOAS tonibohnlein VPTO.cpp lookupVcvtContract; the
     * rounding H it also allows for f32 -> f8 / hif8 is not modelled) */
    {PTOSIM_DT_F32, PTOSIM_DT_F8E4M3, 1, 1, 1, "RAZ"}, {PTOSIM_DT_F32, PTOSIM_DT_F8E5M2, 1, 1, 1, "RAZ"},
    {PTOSIM_DT_F32, PTOSIM_DT_HIF8, 1, 1, 1, "A"},     {PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, 0, 0, 1, 0},
    /* 2-way (EVEN / ODD): f16 / bf16 -> fp8 (same contract table) */
    {PTOSIM_DT_F16, PTOSIM_DT_F8E4M3, 1, 1, 1, "RAFZC"}, {PTOSIM_DT_F16, PTOSIM_DT_F8E5M2, 1, 1, 1, "RAFZC"},
    {PTOSIM_DT_F16, PTOSIM_DT_HIF8, 1, 1, 1, "A"},       {PTOSIM_DT_BF16, PTOSIM_DT_F8E4M3, 1, 1, 1, "RAFZC"},
    {PTOSIM_DT_BF16, PTOSIM_DT_F8E5M2, 1, 1, 1, "RAFZC"},
    {PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, 0, 0, 1, 0},        {PTOSIM_DT_HIF8, PTOSIM_DT_F32, 0, 0, 1, 0},
    {PTOSIM_DT_BF16, PTOSIM_DT_F4E1M2X2, 1, 0, 1, "RAFZC"}, {PTOSIM_DT_BF16, PTOSIM_DT_F4E2M1X2, 1, 0, 1, "RAFZC"},
    {PTOSIM_DT_F4E1M2X2, PTOSIM_DT_BF16, 0, 0, 1, 0},     {PTOSIM_DT_F4E2M1X2, PTOSIM_DT_BF16, 0, 0, 1, 0},
};

/* ---- the plan of one conversion ------------------------------------------------------------
 * Three passes over the conversions, each a loop chosen once by a switch on the type:
 * load the source lanes as float or int64, convert them to destination bits, store the
 * active ones at their destination lanes (the rest of the register is 0). */

#define MAX_CONV 256 /* lanes of an 8-bit register (vci); vcvt converts at most 128 */

typedef struct cvt_plan {
  ptosim_dtype src, dst;
  unsigned sw, dw;            /* element bytes of source and destination */
  unsigned n;                 /* conversions: 256 / max(sw, dw) */
  unsigned s_step, s_off;     /* conversion i reads source lane i * s_step + s_off */
  unsigned d_step, d_off;     /* and writes destination lane i * d_step + d_off */
  pt_round r;
  int sat;                    /* saturate (the attribute, or CTRL: effective_sat) */
  pt_sat fsat;                /* float destinations: PT_SAT_ON (SAT) or PT_SAT_OFF */
  int64_t lo, hi;             /* integer destinations: clamp range (int64 range without SAT: wrap) */
  const float *f4;            /* fp4 pairs: the magnitudes; a conversion then moves one fp4 byte
                                 (2 codes) <-> 2 bf16 lanes (a 4-byte unit), so sw / dw are 1 and 4 */
} cvt_plan;

typedef struct cvt_lanes {
  float f[MAX_CONV];          /* float sources */
  int64_t i[MAX_CONV];        /* integer sources */
  uint64_t out[MAX_CONV];     /* destination bits */
  uint8_t act[MAX_CONV];      /* mask bit of the source lane */
} cvt_lanes;

static int is_f8(ptosim_dtype t) { return t == PTOSIM_DT_F8E4M3 || t == PTOSIM_DT_F8E5M2 || t == PTOSIM_DT_HIF8; }
static int is_float(ptosim_dtype t) { return t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16 || is_f8(t); }

#define LOAD(T, field, expr)                                                              \
  for (unsigned i = 0; i < c->n; i++) {                                                   \
    T v;                                                                                  \
    memcpy(&v, src->b + (i * c->s_step + c->s_off) * sizeof(T), sizeof v);                \
    L->field[i] = (expr);                                                                 \
  }                                                                                       \
  break

static void load_lanes(const cvt_plan *c, const ptosim_vreg *src, const ptosim_vmask *mask, cvt_lanes *L) {
  switch (c->src) {
    case PTOSIM_DT_F32: LOAD(float, f, v);
    case PTOSIM_DT_F16: LOAD(uint16_t, f, pt_f16_to_f32(v));
    case PTOSIM_DT_BF16:
      if (c->f4) {
        LOAD(uint32_t, i, v); /* two bf16 bound for one fp4 byte */
      }
      LOAD(uint16_t, f, pt_bf16_to_f32(v));
    case PTOSIM_DT_F8E4M3:
    case PTOSIM_DT_F8E5M2:
    case PTOSIM_DT_HIF8: LOAD(uint8_t, f, pt_f8_to_f32(c->src, v));
    case PTOSIM_DT_I8: LOAD(int8_t, i, v);
    case PTOSIM_DT_F4E1M2X2:
    case PTOSIM_DT_F4E2M1X2:
    case PTOSIM_DT_U8: LOAD(uint8_t, i, v);
    case PTOSIM_DT_I16: LOAD(int16_t, i, v);
    case PTOSIM_DT_U16: LOAD(uint16_t, i, v);
    case PTOSIM_DT_I32: LOAD(int32_t, i, v);
    case PTOSIM_DT_U32: LOAD(uint32_t, i, v);
    default: LOAD(int64_t, i, v);
  }
  for (unsigned i = 0; i < c->n; i++) L->act[i] = (uint8_t)pt_vl_active(mask, (i * c->s_step + c->s_off) * c->sw, 1);
  if (c->f4 && c->sw == 4) /* bit 1: the mask bit of the upper bf16 lane of the unit */
    for (unsigned i = 0; i < c->n; i++) L->act[i] |= (uint8_t)(pt_vl_active(mask, i * 4 + 2, 1) << 1);
}

/* fp4 byte <-> 2 bf16 lanes (low nibble <-> lower lane); a bf16 lane whose mask bit is
 * clear gives a 0 nibble. */
static void convert_f4(const cvt_plan *c, cvt_lanes *L) {
  for (unsigned i = 0; i < c->n; i++) {
    unsigned v = (unsigned)L->i[i];
    if (c->sw == 1) {
      L->out[i] = f4_to_bf16(c->f4, v & 15) | (uint32_t)f4_to_bf16(c->f4, (v >> 4) & 15) << 16;
      continue;
    }
    unsigned lo = L->act[i] & 1 ? f4_from_f32(c->f4, pt_bf16_to_f32((uint16_t)v), c->r) : 0;
    unsigned hi = L->act[i] & 2 ? f4_from_f32(c->f4, pt_bf16_to_f32((uint16_t)(v >> 16)), c->r) : 0;
    L->out[i] = lo | hi << 4;
  }
}

/* Destination bits of every loaded lane. Integer sources bound for a float destination are
 * first rounded to f32 (exact below 2^24, so an f16 destination is rounded once). */
static void convert_lanes(const cvt_plan *c, cvt_lanes *L) {
  unsigned n = c->n;
  if (c->f4) {
    convert_f4(c, L);
    return;
  }
  if (!is_float(c->dst)) {
    if (is_float(c->src))
      for (unsigned i = 0; i < n; i++) L->out[i] = (uint64_t)pt_f32_to_int(L->f[i], c->r, c->lo, c->hi);
    else
      for (unsigned i = 0; i < n; i++) L->out[i] = (uint64_t)(L->i[i] < c->lo ? c->lo : L->i[i] > c->hi ? c->hi : L->i[i]);
    return;
  }
  if (!is_float(c->src))
    for (unsigned i = 0; i < n; i++) L->f[i] = i64_to_f32(L->i[i], c->r);
  switch (c->dst) {
    case PTOSIM_DT_F16:
      for (unsigned i = 0; i < n; i++) L->out[i] = pt_f32_to_f16(L->f[i], c->r, c->fsat);
      break;
    case PTOSIM_DT_BF16:
      for (unsigned i = 0; i < n; i++) L->out[i] = pt_f32_to_bf16(L->f[i], c->r, c->fsat);
      break;
    case PTOSIM_DT_F8E4M3:
    case PTOSIM_DT_F8E5M2:
    case PTOSIM_DT_HIF8:
      for (unsigned i = 0; i < n; i++) L->out[i] = pt_f32_to_f8(c->dst, L->f[i], c->r, c->fsat);
      break;
    default:
      for (unsigned i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &L->f[i], 4);
        L->out[i] = b;
      }
  }
}

#define STORE(T)                                                                          \
  for (unsigned i = 0; i < c->n; i++)                                                     \
    if (L->act[i]) {                                                                      \
      T v = (T)L->out[i];                                                                 \
      memcpy(r.b + (i * c->d_step + c->d_off) * sizeof(T), &v, sizeof v);                 \
    }                                                                                     \
  break

/* dst = the active results at their lanes, 0 elsewhere (the low dw bytes of each result). */
static void store_lanes(const cvt_plan *c, const cvt_lanes *L, ptosim_vreg *dst) {
  ptosim_vreg r;
  memset(&r, 0, sizeof r);
  switch (c->dw) {
    case 1: STORE(uint8_t);
    case 2: STORE(uint16_t);
    case 4: STORE(uint32_t);
    default: STORE(uint64_t);
  }
  *dst = r;
}

static void run_plan(const cvt_plan *c, const ptosim_vreg *src, const ptosim_vmask *mask, ptosim_vreg *dst) {
  cvt_lanes L;
  load_lanes(c, src, mask, &L);
  convert_lanes(c, &L);
  store_lanes(c, &L, dst);
}

static ptosim_status attr_given(pt_ctx *x, const char *rule, const char *what, int given, int wanted,
                                const ptosim_vcvt_params *p) {
  PT_VERIFY(x, given == wanted, rule, wanted ? "add the attribute: this type pair requires it" : "drop the attribute: this type pair does not take it",
            "vcvt %s -> %s: %s attribute %s", pt_dtype_name(p->src_type), pt_dtype_name(p->dst_type), what,
            wanted ? "missing" : "not allowed");
  return PTOSIM_OK;
}

/* Saturation of the conversion: the sat attribute; where a pair takes none, integer results
 * saturate (f16 -> s32 of an infinity) and float results cannot overflow. Unless CTRL[60] is set for a conversion pto-isa drives through it (a5 TCvt.hpp
 * SaturationCtrlTraits: destination not f32, and float -> int, int -> narrower-or-equal int
 * or float, or f32 -> f16 / bf16); then CTRL[59] decides (0: saturate). PTOAS clears
 * CTRL[60] on entry of every VPTO function (VPTOLLVMEmitter.cpp forceV300CtrlModeForVPTOFuncs),
 * so there the attribute decides. */
static int effective_sat(pt_ctx *x, const ptosim_vcvt_params *p, const cvt_plan *c) {
  int sf = is_float(p->src_type), df = is_float(p->dst_type);
  int sat = p->sat == PTOSIM_VSAT_SAT || (p->sat == PTOSIM_VSAT_NONE && !df);
  int ctrl_driven = p->dst_type != PTOSIM_DT_F32 &&
                    ((sf && !df) || (!sf && c->sw >= c->dw) || (p->src_type == PTOSIM_DT_F32 && df));
  if (ctrl_driven) {
    uint64_t ctrl = pt_sreg_get(x, PT_SREG_CTRL);
    if (ctrl >> 60 & 1) sat = !(ctrl >> 59 & 1);
  }
  return sat;
}

static const pt_round rnd_of[] = {PT_RND_RINT, PT_RND_RINT, PT_RND_AWAY, PT_RND_FLOOR, PT_RND_CEIL, PT_RND_TRUNC, PT_RND_ODD};

/* Check the attributes against the pair's contract and bind the plan. */
static ptosim_status vcvt_plan(pt_ctx *x, const ptosim_vcvt_params *p, cvt_plan *c) {
  const cvt_pair *pr = NULL;
  for (unsigned k = 0; k < sizeof cvt_pairs / sizeof cvt_pairs[0] && !pr; k++)
    if (cvt_pairs[k].src == p->src_type && cvt_pairs[k].dst == p->dst_type) pr = &cvt_pairs[k];
  PT_VERIFY(x, pr != NULL, "vec.vcvt_pair", "convert a type pair of the A5 matrix (micro-isa 09)",
            "vcvt %s -> %s is not a supported conversion", pt_dtype_name(p->src_type), pt_dtype_name(p->dst_type));
  PT_VERIFY(x, p->rnd >= PTOSIM_VRND_NONE && p->rnd <= PTOSIM_VRND_O, "vec.vcvt_rnd", "use R, A, F, C, Z or O",
            "rounding code %d", (int)p->rnd);
  PT_VERIFY(x, p->sat >= PTOSIM_VSAT_NONE && p->sat <= PTOSIM_VSAT_NOSAT, "vec.vcvt_sat", "use SAT or NOSAT",
            "saturation code %d", (int)p->sat);
  PT_TRY(attr_given(x, "vec.vcvt_rnd", "rnd", p->rnd != PTOSIM_VRND_NONE, pr->rnd, p));
  PT_TRY(attr_given(x, "vec.vcvt_sat", "sat", p->sat != PTOSIM_VSAT_NONE, pr->sat, p));
  PT_TRY(attr_given(x, "vec.vcvt_part", "part", p->part != PTOSIM_VPART_NONE, pr->part, p));
  PT_VERIFY(x, !pr->rnds || p->rnd == PTOSIM_VRND_NONE || strchr(pr->rnds, "-RAFCZO"[p->rnd]), "vec.vcvt_rnd",
            "use one of the rounding letters the pair takes", "vcvt %s -> %s: rounding %c is not one of %s",
            pt_dtype_name(p->src_type), pt_dtype_name(p->dst_type), "-RAFCZO"[p->rnd], pr->rnds);
  c->src = p->src_type, c->dst = p->dst_type;
  const float *f4s = f4_mags(p->src_type), *f4d = f4_mags(p->dst_type);
  c->f4 = f4s ? f4s : f4d;
  c->sw = f4d ? 4 : pt_dtype_size(p->src_type); /* bf16 pairs against fp4 bytes */
  c->dw = f4s ? 4 : pt_dtype_size(p->dst_type);
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
  c->r = rnd_of[p->rnd];
  int sat = c->sat = effective_sat(x, p, c);
  c->fsat = sat ? PT_SAT_ON : PT_SAT_OFF;
  /* without SAT an integer result keeps its low bytes; NaN -> 0 either way */
  c->lo = sat ? pt_int_min(p->dst_type) : INT64_MIN, c->hi = sat ? pt_int_max(p->dst_type) : INT64_MAX;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vcvt(pt_ctx *x, const ptosim_vcvt_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst && p->src && p->mask));
  cvt_plan c = {0};
  PT_TRY(vcvt_plan(x, p, &c));
  run_plan(&c, p->src, p->mask, p->dst);
  pt_record_work(x, c.n, p->src_type);
  return PTOSIM_OK;
}

/* ---- vtrc: round to an integral value in the same float type ------------------------------- */

/* |x| >= 2^23, inf and NaN are already integral; the sign of a zero result is x's. */
static float round_integral(float x, pt_round r) {
  if (!(fabsf(x) < 0x1p23f)) return x;
  return copysignf((float)pt_f32_to_int(x, r, INT64_MIN, INT64_MAX), x);
}

/* A plan of n same-width lanes of type t, every lane in place. */
static cvt_plan same_width_plan(ptosim_dtype src, ptosim_dtype dst, pt_round r) {
  cvt_plan c = {src, dst, pt_dtype_size(dst), pt_dtype_size(dst), 0, 1, 0, 1, 0, r, 0, PT_SAT_OFF, INT64_MIN, INT64_MAX, NULL};
  c.n = PTOSIM_VREG_BYTES / c.dw;
  return c;
}

ptosim_status pt_exec_vtrc(pt_ctx *x, const ptosim_vtrc_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst && p->src && p->mask));
  PT_VERIFY(x, is_float(p->dtype), "vec.dtype", "vtrc takes f16, bf16 or f32", "vtrc on %s lanes", pt_dtype_name(p->dtype));
  PT_VERIFY(x, p->rnd >= PTOSIM_VRND_R && p->rnd <= PTOSIM_VRND_Z, "vec.vtrc_rnd", "use R, A, F, C or Z",
            "rounding code %d is not one of R A F C Z", (int)p->rnd);
  cvt_plan c = same_width_plan(p->dtype, p->dtype, rnd_of[p->rnd]);
  cvt_lanes L;
  load_lanes(&c, p->src, p->mask, &L);
  for (unsigned i = 0; i < c.n; i++) L.f[i] = round_integral(L.f[i], c.r);
  convert_lanes(&c, &L); /* integral values: exact in their own type */
  store_lanes(&c, &L, p->dst);
  pt_record_work(x, c.n, p->dtype);
  return PTOSIM_OK;
}

/* ---- vci: lane-index vector ------------------------------------------------------------------ */

ptosim_status pt_exec_vci(pt_ctx *x, const ptosim_vci_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst != NULL));
  ptosim_dtype t = p->base.dtype;
  int fl = t == PTOSIM_DT_F16 || t == PTOSIM_DT_F32;
  PT_VERIFY(x, fl || t == PTOSIM_DT_I8 || t == PTOSIM_DT_U8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_U16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_U32,
            "vec.dtype", "vci takes an i8/i16/i32 (or unsigned), f16 or f32 base", "vci with a %s base", pt_dtype_name(t));
  PT_VERIFY(x, p->order == PTOSIM_VCI_ASC || p->order == PTOSIM_VCI_DESC, "vec.order", "use ASC or DESC",
            "order %d is not ASC or DESC", (int)p->order);
  int64_t dir = p->order == PTOSIM_VCI_DESC ? -1 : 1;
  cvt_plan c = same_width_plan(fl ? PTOSIM_DT_F32 : t, t, PT_RND_RINT);
  cvt_lanes L;
  memset(L.act, 1, c.n);
  if (fl) {
    float b32;
    memcpy(&b32, &p->base.bits, 4);
    /* base + i is exact in double; rounded to f32 (to f16 after: exact or a single rounding) */
    double base = t == PTOSIM_DT_F32 ? b32 : pt_f16_to_f32((uint16_t)p->base.bits);
    for (unsigned i = 0; i < c.n; i++) L.f[i] = (float)(base + (double)(dir * (int64_t)i));
    convert_lanes(&c, &L);
  } else {
    for (unsigned i = 0; i < c.n; i++) L.out[i] = p->base.bits + (uint64_t)(dir * (int64_t)i); /* wraps at store */
  }
  store_lanes(&c, &L, p->dst);
  pt_record_work(x, c.n, t);
  return PTOSIM_OK;
}

/* ---- vbitcast ------------------------------------------------------------------------------- */

ptosim_status pt_exec_vbitcast(pt_ctx *x, const ptosim_vbitcast_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst && p->src));
  *p->dst = *p->src;
  return PTOSIM_OK;
}
