/* Predicate generation and logic, scalar materialization of the A5 vector core
 * (vpto docs/isa/micro-isa/05-materialization-predicate.md, VPTOOps.td; semantics settled
 * against the PTOAS corpus goldens in docs/spec-notes.md section 11).
 *
 * A predicate is 256 bits, one per byte of a vector register. A _b8 / _b16 / _b32 op sees
 * L = 256 / g lanes of g = 1 / 2 / 4 bits; it sets lane i by setting bit i * g only. */
#include <inttypes.h>
#include <string.h>

#include "isa/vec_lanes.h"

#define PRED_BITS 256u
#define PRED_BYTES (PRED_BITS / 8u)

/* Set lanes [0, n) of g-bit lanes in a zeroed mask: whole bytes first (a byte holds 8 / g
 * lanes: 0xff, 0x55 or 0x11), then the lanes of the last partial byte. */
static void first_lanes(ptosim_vmask *m, unsigned n, unsigned g) {
  static const uint8_t full[5] = {0, 0xff, 0x55, 0, 0x11};
  unsigned per = 8 / g, bytes = n / per;
  memset(m->b, full[g], bytes);
  for (unsigned i = bytes * per; i < n; i++) pt_vl_set(m, i * g, 1, 1);
}

/* ---- pset_b* / pge_b*: pattern predicates --------------------------------------------- */

/* Active lane count n and lane modulus of pattern pat over L lanes (lane i < n is active
 * when i % mod == 0). */
static ptosim_status pattern_lanes(pt_ctx *x, ptosim_pred_pattern pat, unsigned L, unsigned *n, unsigned *mod) {
  *mod = 1;
  switch (pat) {
    case PTOSIM_PAT_ALL: *n = L; break;
    case PTOSIM_PAT_ALLF: *n = 0; break;
    case PTOSIM_PAT_VL1: case PTOSIM_PAT_VL2: case PTOSIM_PAT_VL3: case PTOSIM_PAT_VL4: *n = (unsigned)pat; break;
    case PTOSIM_PAT_VL8: case PTOSIM_PAT_VL16: case PTOSIM_PAT_VL32: case PTOSIM_PAT_VL64: case PTOSIM_PAT_VL128:
      *n = 8u << (pat - PTOSIM_PAT_VL8);
      break;
    case PTOSIM_PAT_H: *n = L / 2; break;
    case PTOSIM_PAT_Q: *n = L / 4; break;
    case PTOSIM_PAT_M3: *n = L, *mod = 3; break;
    case PTOSIM_PAT_M4: *n = L, *mod = 4; break;
    default:
      return pt_fail(x, PTOSIM_E_VERIFY, "vec.pattern", "use PAT_ALL, PAT_ALLF, PAT_VL1..4/8/16/32/64/128, PAT_H, PAT_Q, PAT_M3 or PAT_M4",
                     "pattern code %d is not a predicate pattern", (int)pat);
  }
  PT_VERIFY(x, *n <= L, "vec.pattern", "a PAT_VLn pattern may not name more lanes than the granularity has",
            "the pattern names %u lanes, the predicate has %u", *n, L);
  return PTOSIM_OK;
}

static ptosim_status pset(pt_ctx *x, const ptosim_pset_params *p, unsigned g) {
  PT_TRY(pt_vl_begin(x, p->dst != NULL));
  unsigned n = 0, mod = 1;
  PT_TRY(pattern_lanes(x, p->pattern, PRED_BITS / g, &n, &mod));
  ptosim_vmask m = {{0}};
  if (mod == 1)
    first_lanes(&m, n, g);
  else
    for (unsigned i = 0; i < n; i += mod) pt_vl_set(&m, i * g, 1, 1);
  *p->dst = m;
  return PTOSIM_OK;
}

/* pset and pge build the same pattern predicates (corpus cases pset-pattern, pge-tail-mask). */
ptosim_status pt_exec_pset_b8(pt_ctx *x, const ptosim_pset_params *p) { return pset(x, p, 1); }
ptosim_status pt_exec_pset_b16(pt_ctx *x, const ptosim_pset_params *p) { return pset(x, p, 2); }
ptosim_status pt_exec_pset_b32(pt_ctx *x, const ptosim_pset_params *p) { return pset(x, p, 4); }
ptosim_status pt_exec_pge_b8(pt_ctx *x, const ptosim_pset_params *p) { return pset(x, p, 1); }
ptosim_status pt_exec_pge_b16(pt_ctx *x, const ptosim_pset_params *p) { return pset(x, p, 2); }
ptosim_status pt_exec_pge_b32(pt_ctx *x, const ptosim_pset_params *p) { return pset(x, p, 4); }

/* ---- plt_b*: tail predicate with the remaining-count carry-out -------------------------- */

static ptosim_status plt(pt_ctx *x, const ptosim_plt_params *p, unsigned g) {
  PT_TRY(pt_vl_begin(x, p->dst != NULL));
  PT_VERIFY(x, p->count >= INT32_MIN && p->count <= (int64_t)UINT32_MAX, "vec.plt_count", "pass an i32 lane count",
            "count %" PRId64 " is not a 32-bit value", p->count);
  uint32_t c = (uint32_t)p->count, L = PRED_BITS / g, n = c < L ? c : L;
  ptosim_vmask m = {{0}};
  first_lanes(&m, n, g);
  *p->dst = m;
  if (p->count_out) *p->count_out = (int32_t)(c - n);
  return PTOSIM_OK;
}

ptosim_status pt_exec_plt_b8(pt_ctx *x, const ptosim_plt_params *p) { return plt(x, p, 1); }
ptosim_status pt_exec_plt_b16(pt_ctx *x, const ptosim_plt_params *p) { return plt(x, p, 2); }
ptosim_status pt_exec_plt_b32(pt_ctx *x, const ptosim_plt_params *p) { return plt(x, p, 4); }

/* ---- pltm_b*: tail predicate of loop iteration `loop` ----------------------------------- */

static ptosim_status pltm(pt_ctx *x, const ptosim_pltm_params *p, unsigned g) {
  PT_TRY(pt_vl_begin(x, p->dst != NULL));
  PT_VERIFY(x, p->loop >= INT16_MIN && p->loop <= UINT16_MAX, "vec.plt_count", "pass an i16 loop index",
            "loop %" PRId64 " is not a 16-bit value", p->loop);
  PT_VERIFY(x, p->bound >= INT32_MIN && p->bound <= (int64_t)UINT32_MAX, "vec.plt_count", "pass an i32 bound",
            "bound %" PRId64 " is not a 32-bit value", p->bound);
  uint64_t L = PRED_BITS / g, first = (uint64_t)(uint16_t)p->loop * L, bound = (uint32_t)p->bound;
  uint64_t n = bound <= first ? 0 : bound - first < L ? bound - first : L; /* lanes first + i < bound */
  ptosim_vmask m = {{0}};
  first_lanes(&m, (unsigned)n, g);
  *p->dst = m;
  return PTOSIM_OK;
}

ptosim_status pt_exec_pltm_b8(pt_ctx *x, const ptosim_pltm_params *p) { return pltm(x, p, 1); }
ptosim_status pt_exec_pltm_b16(pt_ctx *x, const ptosim_pltm_params *p) { return pltm(x, p, 2); }
ptosim_status pt_exec_pltm_b32(pt_ctx *x, const ptosim_pltm_params *p) { return pltm(x, p, 4); }

/* ---- bitwise predicate logic under a governing mask ------------------------------------ */

/* One executor per operator; expr combines bytes a (src0), b (src1), m (mask). */
#define PRED_BINARY(name, expr)                                                          \
  ptosim_status pt_exec_##name(pt_ctx *x, const ptosim_pbin_params *p) {                 \
    PT_TRY(pt_vl_begin(x, p->dst && p->src0 && p->src1 && p->mask));                    \
    ptosim_vmask r;                                                                      \
    for (unsigned k = 0; k < PRED_BYTES; k++) {                                          \
      unsigned a = p->src0->b[k], b = p->src1->b[k], m = p->mask->b[k];                  \
      r.b[k] = (uint8_t)(expr);                                                          \
    }                                                                                    \
    *p->dst = r;                                                                         \
    return PTOSIM_OK;                                                                    \
  }

PRED_BINARY(pand, a & b & m)
PRED_BINARY(por, (a | b) & m)
PRED_BINARY(pxor, (a ^ b) & m)
PRED_BINARY(psel, (a & m) | (b & ~m))

ptosim_status pt_exec_pnot(pt_ctx *x, const ptosim_pnot_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst && p->src && p->mask));
  ptosim_vmask r;
  for (unsigned k = 0; k < PRED_BYTES; k++) r.b[k] = (uint8_t)(~p->src->b[k] & p->mask->b[k]);
  *p->dst = r;
  return PTOSIM_OK;
}

/* ---- pack / unpack / reinterpret --------------------------------------------------------- */

static ptosim_status ppart_begin(pt_ctx *x, const ptosim_ppart_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst && p->src));
  PT_VERIFY(x, p->part == PTOSIM_PART_LOWER || p->part == PTOSIM_PART_HIGHER, "vec.part", "use LOWER or HIGHER",
            "part %d is not LOWER or HIGHER", (int)p->part);
  return PTOSIM_OK;
}

ptosim_status pt_exec_ppack(pt_ctx *x, const ptosim_ppart_params *p) {
  PT_TRY(ppart_begin(x, p));
  ptosim_vmask r = {{0}};
  unsigned base = p->part == PTOSIM_PART_HIGHER ? PRED_BITS / 2 : 0;
  for (unsigned j = 0; j < PRED_BITS / 2; j++) pt_vl_set(&r, base + j, 1, pt_vl_active(p->src, 2 * j, 1));
  *p->dst = r;
  return PTOSIM_OK;
}

ptosim_status pt_exec_punpack(pt_ctx *x, const ptosim_ppart_params *p) {
  PT_TRY(ppart_begin(x, p));
  ptosim_vmask r = {{0}};
  unsigned base = p->part == PTOSIM_PART_HIGHER ? PRED_BITS / 2 : 0;
  for (unsigned i = 0; i < PRED_BITS / 2; i++) pt_vl_set(&r, 2 * i, 1, pt_vl_active(p->src, base + i, 1));
  *p->dst = r;
  return PTOSIM_OK;
}

ptosim_status pt_exec_pbitcast(pt_ctx *x, const ptosim_ppart_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst && p->src));
  *p->dst = *p->src;
  return PTOSIM_OK;
}

/* ---- interleave / de-interleave of two predicates at lane granularity ------------------- */

/* Lane k (g bits) of the 2L-lane sequence src0 lanes then src1 lanes (pdintlv) or src0 and
 * src1 lanes alternating (pintlv) goes to lane k of low (k < L) or k - L of high. */
static ptosim_status ppair(pt_ctx *x, const ptosim_ppair_params *p, unsigned g, int interleave) {
  PT_TRY(pt_vl_begin(x, p->low && p->high && p->src0 && p->src1));
  unsigned L = PRED_BITS / g;
  ptosim_vmask out[2] = {{{0}}, {{0}}};
  for (unsigned k = 0; k < 2 * L; k++) {
    /* source lane of sequence lane k */
    const ptosim_vmask *s = interleave ? (k & 1 ? p->src1 : p->src0) : (k < L ? p->src0 : p->src1);
    unsigned sl = interleave ? k / 2 : k % L;
    /* destination: pintlv fills low then high in order; pdintlv sends even k to low */
    unsigned half = interleave ? k / L : k & 1, dl = interleave ? k % L : k / 2;
    for (unsigned b = 0; b < g; b++) pt_vl_set(&out[half], dl * g + b, 1, pt_vl_active(s, sl * g + b, 1));
  }
  *p->low = out[0];
  *p->high = out[1];
  return PTOSIM_OK;
}

ptosim_status pt_exec_pintlv_b8(pt_ctx *x, const ptosim_ppair_params *p) { return ppair(x, p, 1, 1); }
ptosim_status pt_exec_pintlv_b16(pt_ctx *x, const ptosim_ppair_params *p) { return ppair(x, p, 2, 1); }
ptosim_status pt_exec_pintlv_b32(pt_ctx *x, const ptosim_ppair_params *p) { return ppair(x, p, 4, 1); }
ptosim_status pt_exec_pdintlv_b8(pt_ctx *x, const ptosim_ppair_params *p) { return ppair(x, p, 1, 0); }
ptosim_status pt_exec_pdintlv_b16(pt_ctx *x, const ptosim_ppair_params *p) { return ppair(x, p, 2, 0); }
ptosim_status pt_exec_pdintlv_b32(pt_ctx *x, const ptosim_ppair_params *p) { return ppair(x, p, 4, 0); }

/* ---- vbr / vdup: scalar and lane broadcast ------------------------------------------------ */

/* Lane width in bytes of a broadcast element type: 1, 2 or 4 (rule vec.dtype). */
static ptosim_status bcast_width(pt_ctx *x, ptosim_dtype t, unsigned *w) {
  *w = pt_dtype_size(t);
  PT_VERIFY(x, *w == 1 || *w == 2 || *w == 4, "vec.dtype", "broadcast an 8-, 16- or 32-bit element type",
            "element type %s is not 8, 16 or 32 bits wide", pt_dtype_name(t));
  return PTOSIM_OK;
}

/* dst lane i = v (w bytes) where lane i is active in mask (NULL: every lane), else 0. */
static void bcast(ptosim_vreg *dst, const uint8_t *v, unsigned w, const ptosim_vmask *mask) {
  ptosim_vreg r;
  for (unsigned o = 0; o < PTOSIM_VREG_BYTES; o += w) {
    if (!mask || pt_vl_active(mask, o, 1))
      memcpy(r.b + o, v, w);
    else
      memset(r.b + o, 0, w);
  }
  *dst = r;
}

ptosim_status pt_exec_vbr(pt_ctx *x, const ptosim_vbr_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst != NULL));
  unsigned w;
  PT_TRY(bcast_width(x, p->value.dtype, &w));
  uint8_t v[8];
  memcpy(v, &p->value.bits, sizeof v); /* little-endian host: the low w bytes are the value */
  bcast(p->dst, v, w, NULL);
  pt_record_work(x, PTOSIM_VREG_BYTES / w, p->value.dtype);
  return PTOSIM_OK;
}

ptosim_status pt_exec_vdup(pt_ctx *x, const ptosim_vdup_params *p) {
  PT_TRY(pt_vl_begin(x, p->dst && p->mask));
  unsigned w;
  PT_TRY(bcast_width(x, p->dtype, &w));
  uint8_t v[8];
  if (p->src) {
    PT_VERIFY(x, p->position == PTOSIM_VDUP_LOWEST || p->position == PTOSIM_VDUP_HIGHEST, "vec.position",
              "use LOWEST or HIGHEST", "position %d is not LOWEST or HIGHEST", (int)p->position);
    memcpy(v, p->src->b + (p->position == PTOSIM_VDUP_HIGHEST ? PTOSIM_VREG_BYTES - w : 0), w);
  } else {
    PT_VERIFY(x, pt_dtype_size(p->value.dtype) == w, "vec.dtype", "pass a scalar of the result element type",
              "scalar of type %s for %s lanes", pt_dtype_name(p->value.dtype), pt_dtype_name(p->dtype));
    memcpy(v, &p->value.bits, sizeof v);
  }
  bcast(p->dst, v, w, p->mask);
  pt_record_work(x, PTOSIM_VREG_BYTES / w, p->dtype);
  return PTOSIM_OK;
}
