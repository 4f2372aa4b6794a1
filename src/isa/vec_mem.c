/* Vector and predicate loads and stores of the A5 vector core (vpto docs/isa/micro-isa/
 * 03-vector-load-store.md, 04-predicate-load-store.md): UB <-> registers through the
 * accessor layer, every distribution mode a copy of k-byte elements between a register
 * and the UB bytes (copy_elems), masked stores through pt_span_lanes so that an inactive
 * lane is neither written nor recorded. Units, alignment and the post-update forms are
 * documented in include/ptosim/vec_mem.h and docs/spec-notes.md section 9. */
#include <inttypes.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/vec_lanes.h"
#include "isa/vec_names.h"

#define VB PTOSIM_VREG_BYTES

/* ---- shared checks ---------------------------------------------------------------- */


/* Bytes of one element of the register's type: 1, 2, 4 or 8. */
static ptosim_status vec_elem_bytes(pt_ctx *x, ptosim_dtype dt, unsigned *es) {
  unsigned bits = pt_dtype_bits(dt);
  PT_VERIFY(x, bits == 8 || bits == 16 || bits == 32 || bits == 64, "vec.dtype",
            "use a register element type of 8, 16, 32 or 64 bits", "element type %s has no byte offset unit",
            pt_dtype_name(dt));
  *es = bits / 8;
  return PTOSIM_OK;
}

/* p + offset * unit bytes, a UB address (rule mem.bounds when it leaves [0, 2^62)). */
static ptosim_status vec_addr(pt_ctx *x, const char *what, ptosim_ptr p, int64_t offset, unsigned unit, uint64_t *ea) {
  PT_TRY(pt_expect_space(x, what, p, PTOSIM_UB));
  const int64_t lim = INT64_C(1) << 62;
  int64_t a = (int64_t)p.addr;
  if (!(p.addr < (uint64_t)lim && offset > -lim / 8 && offset < lim / 8 && a + offset * (int64_t)unit >= 0 &&
        a + offset * (int64_t)unit < lim))
    return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "check the base and the offset (vector offsets count elements)",
                   "%s address 0x%" PRIx64 " + %" PRId64 " x %u bytes is outside UB", what, p.addr, offset, unit);
  *ea = (uint64_t)(a + offset * (int64_t)unit);
  return PTOSIM_OK;
}

/* The post-update result: p advanced by offset * unit bytes. */
static ptosim_status vec_post(pt_ctx *x, ptosim_ptr p, int64_t offset, unsigned unit, ptosim_ptr *out) {
  uint64_t a = 0;
  PT_TRY(vec_addr(x, "updated base", p, offset, unit, &a));
  p.addr = a;
  *out = p;
  return PTOSIM_OK;
}

/* active[i] = mask lane i of the k-byte view (bit i * k), i < n. */
static void mask_lanes(const ptosim_vmask *m, unsigned k, unsigned n, uint8_t *active) {
  for (unsigned i = 0; i < n; i++) active[i] = m->b[i * k >> 3] >> (i * k & 7) & 1;
}

/* dst[i * ds, + k) = src[i * ss, + k) for i < n: the body of every distribution. */
#define COPY_LOOP(K)                                                                    \
  for (unsigned i = 0; i < n; i++) memcpy(dst + (size_t)i * ds, src + (size_t)i * ss, K); \
  break;
static void copy_elems(uint8_t *dst, unsigned ds, const uint8_t *src, unsigned ss, unsigned k, unsigned n) {
  switch (k) {
    case 1: COPY_LOOP(1)
    case 2: COPY_LOOP(2)
    case 4: COPY_LOOP(4)
    case 8: COPY_LOOP(8)
    default: COPY_LOOP(k)
  }
}
#undef COPY_LOOP

/* Channel split (split = 1) or merge (split = 0) inside each 32-byte block, c channels of
 * k-byte elements, m = 32 / (c * k) elements per channel and block: element j of channel h
 * sits at block byte h * m * k + j * k in the register (planes) and at block byte
 * (c * j + h) * k in UB (interleaved pixels). */
static void channels(uint8_t *dst, const uint8_t *src, unsigned c, unsigned k, int split) {
  unsigned m = 32 / (c * k);
  for (unsigned b = 0; b < VB; b += 32)
    for (unsigned h = 0; h < c; h++) {
      if (split) copy_elems(dst + b + h * m * k, k, src + b + h * k, c * k, k, m);
      else copy_elems(dst + b + h * k, c * k, src + b + h * m * k, k, k, m);
    }
}

/* ---- vlds ------------------------------------------------------------------------- */

static ptosim_status read_span(pt_ctx *x, uint64_t ea, uint64_t len, unsigned align, uint8_t **h) {
  return pt_span(x, PTOSIM_UB, ea, len, align, PT_READ, h);
}

/* r = distribution `d` of the UB bytes at ea. */
static ptosim_status vld_body(pt_ctx *x, ptosim_vld_dist d, uint64_t ea, uint8_t *r) {
  uint8_t *h;
  unsigned k;
  switch (d) {
    case PTOSIM_VLD_NORM:
      PT_TRY(read_span(x, ea, VB, 32, &h));
      memcpy(r, h, VB);
      return PTOSIM_OK;
    case PTOSIM_VLD_BRC_B8: case PTOSIM_VLD_BRC_B16: case PTOSIM_VLD_BRC_B32:
      k = 1u << (d - PTOSIM_VLD_BRC_B8);
      PT_TRY(read_span(x, ea, k, k, &h));
      copy_elems(r, k, h, 0, k, VB / k);
      return PTOSIM_OK;
    case PTOSIM_VLD_US_B8: case PTOSIM_VLD_US_B16:
      k = 1u << (d - PTOSIM_VLD_US_B8);
      PT_TRY(read_span(x, ea, VB / 2, 32, &h));
      copy_elems(r, 2 * k, h, k, k, VB / 2 / k);
      copy_elems(r + k, 2 * k, h, k, k, VB / 2 / k);
      return PTOSIM_OK;
    case PTOSIM_VLD_DS_B8: case PTOSIM_VLD_DS_B16: { /* reads the even elements of 512 B */
      k = 1u << (d - PTOSIM_VLD_DS_B8);
      int64_t count = VB / k, stride = 2 * k;
      PT_TRY(pt_region(x, PTOSIM_UB, ea, 1, &count, &stride, k, 32, PT_READ, &h));
      copy_elems(r, k, h, 2 * k, k, VB / k);
      return PTOSIM_OK;
    }
    case PTOSIM_VLD_UNPK_B8: case PTOSIM_VLD_UNPK_B16: case PTOSIM_VLD_UNPK_B32:
      k = d == PTOSIM_VLD_UNPK_B32 ? 4 : 1u << (d - PTOSIM_VLD_UNPK_B8);
      PT_TRY(read_span(x, ea, VB / 2, 32, &h));
      memset(r, 0, VB);
      copy_elems(r, 2 * k, h, k, k, VB / 2 / k);
      return PTOSIM_OK;
    case PTOSIM_VLD_BRC_BLK:
      PT_TRY(read_span(x, ea, 32, 32, &h));
      copy_elems(r, 32, h, 0, 32, VB / 32);
      return PTOSIM_OK;
    case PTOSIM_VLD_E2B_B16: case PTOSIM_VLD_E2B_B32: /* element e fills block e */
      k = d == PTOSIM_VLD_E2B_B16 ? 2 : 4;
      PT_TRY(read_span(x, ea, 8 * k, 8 * k, &h));
      for (unsigned e = 0; e < 8; e++) copy_elems(r + 32 * e, k, h + e * k, 0, k, 32 / k);
      return PTOSIM_OK;
    case PTOSIM_VLD_UNPK4:
      PT_TRY(read_span(x, ea, VB / 4, 32, &h));
      memset(r, 0, VB);
      copy_elems(r, 4, h, 1, 1, VB / 4);
      return PTOSIM_OK;
    default: /* SPLT4CHN, SPLT2CHN_B8 / B16 */
      PT_TRY(read_span(x, ea, VB, 32, &h));
      channels(r, h, d == PTOSIM_VLD_SPLT4CHN ? 4 : 2, d == PTOSIM_VLD_SPLT2CHN_B16 ? 2 : 1, 1);
      return PTOSIM_OK;
  }
}

ptosim_status pt_exec_vlds(pt_ctx *x, const ptosim_vlds_params *p) {
  unsigned es = 0;
  uint64_t ea = 0;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_elem_bytes(x, p->dtype, &es));
  PT_VERIFY(x, (unsigned)p->dist < PTOSIM_VLD_COUNT, "vec.dist", "use a dist of the vlds table", "vlds dist %d out of range",
            (int)p->dist);
  PT_VERIFY(x, (p->dist != PTOSIM_VLD_UNPK4 && p->dist != PTOSIM_VLD_SPLT4CHN) || es == 1, "vec.dist",
            "UNPK4 and SPLT4CHN load a b8 register", "vlds %s on a %u-byte element type", pt_vld_dist_names[p->dist], es);
  PT_TRY(vec_addr(x, "vlds source", p->src, p->updated_base ? 0 : p->offset, es, &ea));
  ptosim_vreg r;
  PT_TRY(vld_body(x, p->dist, ea, r.b));
  if (p->updated_base) PT_TRY(vec_post(x, p->src, p->offset, es, p->updated_base));
  *p->dst = r;
  return PTOSIM_OK;
}

ptosim_status pt_exec_uvld(pt_ctx *x, const ptosim_vlds_params *p) {
  unsigned es = 0;
  uint64_t ea = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_elem_bytes(x, p->dtype, &es));
  PT_VERIFY(x, p->dist == PTOSIM_VLD_NORM && !p->updated_base, "vec.dist", "uvld has no dist and no post-update form",
            "uvld with dist %d%s", (int)p->dist, p->updated_base ? " and an updated base" : "");
  PT_TRY(vec_addr(x, "uvld source", p->src, p->offset, es, &ea));
  uint64_t lo = ea & ~(uint64_t)31, hi = (ea + VB + 31) & ~(uint64_t)31; /* whole blocks */
  PT_TRY(read_span(x, lo, hi - lo, 32, &h));
  memcpy(p->dst->b, h + (ea - lo), VB);
  return PTOSIM_OK;
}

/* ---- vldsx2 / vstsx2: 512 B split into / merged from two registers ------------------ */

/* Element size of a dual distribution: 32-byte blocks (BDINTLV) or k-byte elements. */
static unsigned dual_elem(unsigned dist_index) { return dist_index == 0 ? 32 : 1u << (dist_index - 1); }

ptosim_status pt_exec_vldsx2(pt_ctx *x, const ptosim_vldsx2_params *p) {
  unsigned es = 0;
  uint64_t ea = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_elem_bytes(x, p->dtype, &es));
  PT_VERIFY(x, (unsigned)p->dist < PTOSIM_VLDX2_COUNT, "vec.dist", "use BDINTLV or DINTLV_B8/B16/B32",
            "vldsx2 dist %d out of range", (int)p->dist);
  PT_TRY(vec_addr(x, "vldsx2 source", p->src, p->updated_base ? 0 : p->offset, es, &ea));
  PT_TRY(read_span(x, ea, 2 * VB, 32, &h));
  if (p->updated_base) PT_TRY(vec_post(x, p->src, p->offset, es, p->updated_base));
  unsigned k = dual_elem((unsigned)p->dist);
  ptosim_vreg lo, hi;
  copy_elems(lo.b, k, h, 2 * k, k, VB / k);
  copy_elems(hi.b, k, h + k, 2 * k, k, VB / k);
  *p->low = lo;
  *p->high = hi;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vstsx2(pt_ctx *x, const ptosim_vstsx2_params *p) {
  unsigned es = 0;
  uint64_t ea = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_elem_bytes(x, p->dtype, &es));
  PT_VERIFY(x, (unsigned)p->dist < PTOSIM_VSTX2_COUNT, "vec.dist", "use INTLV_B8/B16/B32", "vstsx2 dist %d out of range",
            (int)p->dist);
  PT_TRY(vec_addr(x, "vstsx2 destination", p->dst, p->offset, es, &ea));
  ptosim_vreg lo = *p->low, hi = *p->high; /* the registers may alias nothing in UB, but copy once */
  PT_TRY(pt_span(x, PTOSIM_UB, ea, 2 * VB, 32, PT_WRITE, &h));
  unsigned k = 1u << p->dist;
  copy_elems(h, 2 * k, lo.b, k, k, VB / k);
  copy_elems(h + k, 2 * k, hi.b, k, k, VB / k);
  return PTOSIM_OK;
}

/* ---- vsts --------------------------------------------------------------------------- */

/* Is every lane of the k-byte view active (bits i * k of the mask all set)? */
static int mask_full(const ptosim_vmask *m, unsigned k) {
  const uint64_t pat = k == 1 ? ~UINT64_C(0) : k == 2 ? UINT64_C(0x5555555555555555)
                     : k == 4 ? UINT64_C(0x1111111111111111) : UINT64_C(0x0101010101010101);
  uint64_t wd[4];
  memcpy(wd, m->b, sizeof wd);
  return (wd[0] & wd[1] & wd[2] & wd[3] & pat) == pat;
}

/* dst lane i (w bytes) = the low w bytes of src lane i (k bytes), i < n. */
static void narrow(uint8_t *dst, unsigned w, const uint8_t *src, unsigned k, unsigned n) {
  if (w == k) memcpy(dst, src, (size_t)n * k);
  else copy_elems(dst, w, src, k, w, n);
}

/* Store the low w bytes of every active k-byte lane i of src to ea + i * w. */
static ptosim_status store_lanes(pt_ctx *x, const uint8_t *src, const ptosim_vmask *mask, unsigned k, unsigned w,
                                 uint64_t ea) {
  uint8_t active[VB], *h;
  unsigned n = VB / k;
  if (mask_full(mask, k)) { /* the common case: one span */
    PT_TRY(pt_span(x, PTOSIM_UB, ea, (uint64_t)n * w, 32, PT_WRITE, &h));
    narrow(h, w, src, k, n);
    return PTOSIM_OK;
  }
  mask_lanes(mask, k, n, active);
  PT_TRY(pt_span_lanes(x, PTOSIM_UB, ea, w, n, active, 32, PT_WRITE, &h));
  for (unsigned i = 0; i < n;) { /* one copy per run of active lanes */
    unsigned s = i;
    while (i < n && active[i]) i++;
    narrow(h + (size_t)s * w, w, src + (size_t)s * k, k, i - s);
    while (i < n && !active[i]) i++;
  }
  return PTOSIM_OK;
}

static ptosim_status vst_body(pt_ctx *x, const ptosim_vsts_params *p, const uint8_t *src, uint64_t ea) {
  ptosim_vst_dist d = p->dist;
  uint8_t *h;
  unsigned k;
  switch (d) {
    case PTOSIM_VST_NORM_B8: case PTOSIM_VST_NORM_B16: case PTOSIM_VST_NORM_B32:
      k = 1u << (d - PTOSIM_VST_NORM_B8);
      return store_lanes(x, src, p->mask, k, k, ea);
    case PTOSIM_VST_1PT_B8: case PTOSIM_VST_1PT_B16: case PTOSIM_VST_1PT_B32:
      k = 1u << (d - PTOSIM_VST_1PT_B8);
      PT_TRY(pt_span(x, PTOSIM_UB, ea, k, k, PT_WRITE, &h));
      memcpy(h, src, k);
      return PTOSIM_OK;
    case PTOSIM_VST_PK_B16: case PTOSIM_VST_PK_B32: case PTOSIM_VST_PK_B64:
      k = 2u << (d - PTOSIM_VST_PK_B16);
      return store_lanes(x, src, p->mask, k, k / 2, ea);
    case PTOSIM_VST_PK4_B32:
      return store_lanes(x, src, p->mask, 4, 1, ea);
    default: { /* MRG4CHN_B8, MRG2CHN_B8 / B16: merged pixels of c * k bytes, masked per pixel */
      unsigned c = d == PTOSIM_VST_MRG4CHN_B8 ? 4 : 2;
      k = d == PTOSIM_VST_MRG2CHN_B16 ? 2 : 1;
      uint8_t merged[VB];
      channels(merged, src, c, k, 0);
      return store_lanes(x, merged, p->mask, c * k, c * k, ea);
    }
  }
}

ptosim_status pt_exec_vsts(pt_ctx *x, const ptosim_vsts_params *p) {
  unsigned es = 0;
  uint64_t ea = 0;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_elem_bytes(x, p->dtype, &es));
  PT_VERIFY(x, (unsigned)p->dist < PTOSIM_VST_COUNT, "vec.dist", "use a dist of the vsts table", "vsts dist %d out of range",
            (int)p->dist);
  PT_VERIFY(x, p->dist != PTOSIM_VST_MRG4CHN_B8 || es == 1, "vec.dist", "MRG4CHN_B8 stores a b8 register",
            "vsts MRG4CHN_B8 on a %u-byte element type", es);
  PT_TRY(vec_addr(x, "vsts destination", p->dst, p->updated_base ? 0 : p->offset, es, &ea));
  ptosim_vreg v = *p->src;
  PT_TRY(vst_body(x, p, v.b, ea));
  if (p->updated_base) PT_TRY(vec_post(x, p->dst, p->offset, es, p->updated_base));
  return PTOSIM_OK;
}

/* ---- block-strided vsldb / vsstb ----------------------------------------------------- */

/* UB address of block b: base + (rep + b * blk) * 32, the strides the 16-bit fields. */
static ptosim_status block_addr(pt_ctx *x, ptosim_ptr base, int64_t blk, int64_t rep, unsigned b, uint64_t *a) {
  int64_t blocks = (rep & 0xFFFF) + (int64_t)b * (blk & 0xFFFF);
  return vec_addr(x, "block-strided address", base, blocks, 32, a);
}

ptosim_status pt_exec_vsldb(pt_ctx *x, const ptosim_vsldb_params *p) {
  uint64_t a = 0;
  uint8_t active[VB / 32], *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_addr(x, "vsldb source", p->src, 0, 1, &a));
  PT_VERIFY(x, a % 32 == 0, "mem.align", "align the base to 32 bytes", "vsldb base 0x%" PRIx64 " is not 32-byte aligned", a);
  mask_lanes(p->mask, 4, VB / 32, active);
  ptosim_vreg r;
  int64_t rep = p->updated_base ? 0 : p->repeat_stride;
  for (unsigned b = 0; b < VB / 32; b++) {
    memset(r.b + 32 * b, 0, 32);
    if (!active[b]) continue;
    PT_TRY(block_addr(x, p->src, p->block_stride, rep, b, &a));
    PT_TRY(read_span(x, a, 32, 32, &h));
    memcpy(r.b + 32 * b, h, 32);
  }
  if (p->updated_base) PT_TRY(vec_post(x, p->src, p->repeat_stride & 0xFFFF, 32, p->updated_base));
  *p->dst = r;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vsstb(pt_ctx *x, const ptosim_vsstb_params *p) {
  uint64_t a = 0;
  uint8_t active[VB / 32], *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_addr(x, "vsstb destination", p->dst, 0, 1, &a));
  PT_VERIFY(x, a % 32 == 0, "mem.align", "align the base to 32 bytes", "vsstb base 0x%" PRIx64 " is not 32-byte aligned", a);
  mask_lanes(p->mask, 4, VB / 32, active);
  ptosim_vreg v = *p->src;
  int64_t rep = p->updated_base ? 0 : p->repeat_stride;
  for (unsigned b = 0; b < VB / 32; b++) {
    if (!active[b]) continue;
    PT_TRY(block_addr(x, p->dst, p->block_stride, rep, b, &a));
    PT_TRY(pt_span(x, PTOSIM_UB, a, 32, 32, PT_WRITE, &h));
    memcpy(h, v.b + 32 * b, 32);
  }
  if (p->updated_base) PT_TRY(vec_post(x, p->dst, p->repeat_stride & 0xFFFF, 32, p->updated_base));
  return PTOSIM_OK;
}

/* ---- predicate loads and stores ------------------------------------------------------ */

static int bit_of(const uint8_t *b, unsigned j) { return b[j >> 3] >> (j & 7) & 1; }

/* Predicate load at src + offset * unit bytes (post-update form: at src, returning that address). */
static ptosim_status pred_load(pt_ctx *x, const ptosim_plds_params *p, unsigned unit) {
  static const unsigned bytes[PTOSIM_PLD_COUNT] = {32, 16, 64};
  uint64_t ea = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, (unsigned)p->dist < PTOSIM_PLD_COUNT, "vec.dist", "use NORM, US or DS", "predicate load dist %d out of range",
            (int)p->dist);
  PT_TRY(vec_addr(x, "predicate load source", p->src, p->updated_base ? 0 : p->offset, unit, &ea));
  PT_TRY(read_span(x, ea, bytes[p->dist], 8, &h));
  if (p->updated_base) PT_TRY(vec_post(x, p->src, p->offset, unit, p->updated_base));
  ptosim_vmask m;
  if (p->dist == PTOSIM_PLD_NORM) {
    memcpy(m.b, h, sizeof m.b);
  } else {
    memset(m.b, 0, sizeof m.b);
    for (unsigned j = 0; j < VB; j++) /* US: bit j = payload bit j/2; DS: bit j = payload bit 2j */
      m.b[j >> 3] |= (uint8_t)(bit_of(h, p->dist == PTOSIM_PLD_US ? j / 2 : 2 * j) << (j & 7));
  }
  *p->dst = m;
  return PTOSIM_OK;
}

ptosim_status pt_exec_plds(pt_ctx *x, const ptosim_plds_params *p) {
  return pred_load(x, p, 1);
}

/* pldi: one offset unit is the distribution's alignment unit, VL/8 = 32 B (NORM), VL/16 = 16 B
 * (US), min(32, VL/4) = 32 B (DS) (tonibohnlein/PTOAS docs/isa/micro-isa/04, table). */
ptosim_status pt_exec_pldi(pt_ctx *x, const ptosim_plds_params *p) {
  return pred_load(x, p, p->dist == PTOSIM_PLD_US ? 16 : 32);
}

/* Predicate store at dst + offset * unit bytes (post-update form: at dst, returning that address). */
static ptosim_status pred_store(pt_ctx *x, const ptosim_psts_params *p, unsigned unit) {
  uint64_t ea = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, (unsigned)p->dist < PTOSIM_PST_COUNT, "vec.dist", "use NORM or PK", "predicate store dist %d out of range",
            (int)p->dist);
  PT_TRY(vec_addr(x, "predicate store destination", p->dst, p->updated_base ? 0 : p->offset, unit, &ea));
  ptosim_vmask m = *p->src;
  if (p->dist == PTOSIM_PST_NORM) {
    PT_TRY(pt_span(x, PTOSIM_UB, ea, sizeof m.b, 8, PT_WRITE, &h));
    memcpy(h, m.b, sizeof m.b);
  } else {
    PT_TRY(pt_span(x, PTOSIM_UB, ea, sizeof m.b / 2, 8, PT_WRITE, &h));
    memset(h, 0, sizeof m.b / 2);
    for (unsigned j = 0; j < VB / 2; j++) h[j >> 3] |= (uint8_t)(bit_of(m.b, 2 * j) << (j & 7)); /* PK: bit j = mask bit 2j */
  }
  return p->updated_base ? vec_post(x, p->dst, p->offset, unit, p->updated_base) : PTOSIM_OK;
}

ptosim_status pt_exec_psts(pt_ctx *x, const ptosim_psts_params *p) {
  return pred_store(x, p, 1);
}

/* psti: one offset unit is VL/8 = 32 B (NORM) or VL/16 = 16 B (PK) (04, table). */
ptosim_status pt_exec_psti(pt_ctx *x, const ptosim_psts_params *p) {
  return pred_store(x, p, p->dist == PTOSIM_PST_NORM ? 32 : 16);
}

/* ---- unaligned streams ---------------------------------------------------------------- */

ptosim_status pt_exec_init_align(pt_ctx *x, const ptosim_init_align_params *p) {
  PT_TRY(pt_vl_a5(x));
  memset(p->dst, 0, sizeof *p->dst);
  return PTOSIM_OK;
}

ptosim_status pt_exec_vldas(pt_ctx *x, const ptosim_vldas_params *p) {
  uint64_t a = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_addr(x, "vldas source", p->src, 0, 1, &a));
  a &= ~(uint64_t)31;
  PT_TRY(read_span(x, a, 32, 32, &h));
  ptosim_valign s = {{0}, 32, a};
  memcpy(s.b, h, 32);
  *p->dst = s;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vldus(pt_ctx *x, const ptosim_vldus_params *p) {
  uint64_t src = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_addr(x, "vldus source", p->src, 0, 1, &src));
  uint64_t blk = src & ~(uint64_t)31, head = 0; /* head: bytes taken from the primed block */
  if (p->align_in->nbytes == 32 && p->align_in->addr == blk) head = blk + 32 - src;
  PT_VERIFY(x, head || src % 32 == 0, "vec.align_stream", "prime the stream with pto.vldas on this address",
            "vldus at 0x%" PRIx64 " needs the block 0x%" PRIx64 " in its align state, which holds %u bytes at 0x%" PRIx64,
            src, blk, p->align_in->nbytes, p->align_in->addr);
  ptosim_vreg r;
  ptosim_valign out = {{0}, 0, 0};
  memcpy(r.b, p->align_in->b + (src - blk), head);
  uint64_t from = src + head, end = (src + VB + 31) & ~(uint64_t)31; /* whole blocks */
  PT_TRY(read_span(x, from, end - from, 32, &h));
  memcpy(r.b + head, h, VB - head);
  if (src % 32) {
    out.addr = end - 32, out.nbytes = 32;
    memcpy(out.b, h + (end - 32 - from), 32);
  }
  if (p->updated_base) {
    unsigned es = 0;
    PT_TRY(vec_elem_bytes(x, p->src.dtype, &es));
    PT_TRY(vec_post(x, p->src, p->increment, es, p->updated_base));
  }
  *p->dst = r;
  *p->align_out = out;
  return PTOSIM_OK;
}

/* Append n bytes of data to the store stream `in` at UB address `at` (see vec_mem.h). */
static ptosim_status stream_put(pt_ctx *x, const ptosim_valign *in, ptosim_valign *out, uint64_t at, const uint8_t *data,
                                uint64_t n) {
  PT_VERIFY(x, !in->nbytes || in->addr + in->nbytes == at, "vec.align_stream",
            "continue the stream where it ended, or flush it and start from pto.init_align",
            "unaligned store at 0x%" PRIx64 " does not continue the stream, whose pending bytes end at 0x%" PRIx64, at,
            in->addr + in->nbytes);
  uint8_t buf[32 + VB], *h;
  uint64_t start = in->nbytes ? in->addr : at, end = at + n, cut = end & ~(uint64_t)31, total = end - start;
  memcpy(buf, in->b, in->nbytes);
  memcpy(buf + in->nbytes, data, n);
  uint64_t done = cut > start ? cut - start : 0; /* bytes before the last block boundary */
  if (done) {
    PT_TRY(pt_span(x, PTOSIM_UB, start, done, 1, PT_WRITE, &h));
    memcpy(h, buf, done);
  }
  ptosim_valign s = {{0}, (uint32_t)(total - done), start + done};
  memcpy(s.b, buf + done, total - done);
  *out = s;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vstus(pt_ctx *x, const ptosim_vstus_params *p) {
  unsigned es = 0;
  uint64_t at = 0;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_elem_bytes(x, p->dtype, &es));
  PT_VERIFY(x, p->offset >= 0 && p->offset * (int64_t)es <= VB, "vec.range", "advance by 0 .. one register of elements",
            "vstus advances by %" PRId64 " elements of %u bytes", p->offset, es);
  PT_TRY(vec_addr(x, "vstus base", p->base, 0, 1, &at));
  if (p->updated_base) PT_TRY(vec_post(x, p->base, p->offset, es, p->updated_base));
  ptosim_vreg v = *p->src;
  return stream_put(x, p->align_in, p->align_out, at, v.b, (uint64_t)p->offset * es);
}

/* Write the pending bytes of store stream s, whose flush point `at` must be its end. */
static ptosim_status stream_flush(pt_ctx *x, const char *op, const ptosim_valign *s, uint64_t at) {
  uint8_t *h;
  if (!s->nbytes) return PTOSIM_OK;
  PT_VERIFY(x, s->addr + s->nbytes == at, "vec.align_stream",
            "flush where the stream ended (vstas: dst + offset elements; vstar: dst + AR)",
            "%s flush point 0x%" PRIx64 " is not the end of the stream's pending bytes 0x%" PRIx64, op, at,
            s->addr + s->nbytes);
  PT_TRY(pt_span(x, PTOSIM_UB, s->addr, s->nbytes, 1, PT_WRITE, &h));
  memcpy(h, s->b, s->nbytes);
  return PTOSIM_OK;
}

ptosim_status pt_exec_vstas(pt_ctx *x, const ptosim_vstas_params *p) {
  unsigned es = 0;
  uint64_t at = 0;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_elem_bytes(x, p->dst.dtype, &es));
  PT_TRY(vec_addr(x, "vstas flush point", p->dst, p->updated_base ? 0 : p->offset, es, &at));
  if (p->updated_base) PT_TRY(vec_post(x, p->dst, p->offset, es, p->updated_base));
  return stream_flush(x, "vstas", p->align, at);
}

/* ---- AR-addressed stores and the special registers (vec_mem.h) ------------------------ */

/* AR of the running core. The static check does not know it (state_read). */
static uint64_t *spr_ar(pt_ctx *x) {
  x->m->state_read = 1;
  return &x->core->vspr.ar;
}

ptosim_status pt_exec_vstur(pt_ctx *x, const ptosim_vstur_params *p) {
  uint64_t at = 0, *ar = spr_ar(x);
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, (unsigned)p->mode < PTOSIM_VSTUR_COUNT, "vec.mode", "use POST_UPDATE or NO_POST_UPDATE",
            "vstur mode %d out of range", (int)p->mode);
  PT_VERIFY(x, x->core->vspr.sqzn_set, "vec.sqzn", "run pto.vsqz first: it sets the byte count (SQZN) vstur stores",
            "vstur before any pto.vsqz on this core: SQZN holds no byte count");
  PT_TRY(vec_addr(x, "vstur address (base + AR)", p->base, (int64_t)*ar, 1, &at));
  ptosim_vreg v = *p->src;
  uint32_t n = x->core->vspr.sqzn;
  PT_TRY(stream_put(x, p->align_in, p->align_out, at, v.b, n));
  if (p->mode == PTOSIM_VSTUR_POST_UPDATE) *ar += n;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vstar(pt_ctx *x, const ptosim_vstar_params *p) {
  uint64_t at = 0, *ar = spr_ar(x);
  PT_TRY(pt_vl_a5(x));
  PT_TRY(vec_addr(x, "vstar flush point (dst + AR)", p->dst, (int64_t)*ar, 1, &at));
  return stream_flush(x, "vstar", p->align, at);
}

static ptosim_status spr_check(pt_ctx *x, ptosim_spr r) {
  PT_VERIFY(x, r == PTOSIM_SPR_AR, "vec.spr", "only \"AR\" is supported", "special register %d is not AR", (int)r);
  return PTOSIM_OK;
}

ptosim_status pt_exec_sprclr(pt_ctx *x, const ptosim_sprclr_params *p) {
  PT_TRY(pt_vl_a5(x));
  PT_TRY(spr_check(x, p->spr));
  *spr_ar(x) = 0;
  return PTOSIM_OK;
}

/* The low 32 bits of AR -> UB[ea, ea + 4), ea = dst + offset * unit bytes (post form: dst);
 * unit 4 (sprsti): the offset is a signed 8-bit immediate. */
static ptosim_status spr_store(pt_ctx *x, const ptosim_sprst_params *p, unsigned unit) {
  uint64_t ea = 0;
  uint8_t *h;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(spr_check(x, p->spr));
  PT_VERIFY(x, unit == 1 || (p->offset >= -128 && p->offset <= 127), "vec.range", "sprsti takes a signed 8-bit word offset",
            "sprsti offset %" PRId64 " is outside -128 .. 127", p->offset);
  PT_VERIFY(x, p->dst.dtype == PTOSIM_DT_U32 || p->dst.dtype == PTOSIM_DT_I32, "vec.dtype",
            "store the register through a ui32 or i32 UB pointer", "spr store destination of type %s",
            pt_dtype_name(p->dst.dtype));
  PT_TRY(vec_addr(x, "spr store destination", p->dst, p->updated_base ? 0 : p->offset, unit, &ea));
  uint32_t v = (uint32_t)*spr_ar(x);
  PT_TRY(pt_span(x, PTOSIM_UB, ea, 4, 4, PT_WRITE, &h));
  memcpy(h, &v, 4); /* little-endian, as UB */
  if (p->updated_base) PT_TRY(vec_post(x, p->dst, p->offset, unit, p->updated_base));
  return PTOSIM_OK;
}

ptosim_status pt_exec_sprsti(pt_ctx *x, const ptosim_sprst_params *p) { return spr_store(x, p, 4); }

ptosim_status pt_exec_sprsts(pt_ctx *x, const ptosim_sprst_params *p) { return spr_store(x, p, 1); }

ptosim_status pt_exec_pstu(pt_ctx *x, const ptosim_pstu_params *p) {
  uint64_t at = 0;
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, p->base.dtype == PTOSIM_DT_U16 || p->base.dtype == PTOSIM_DT_U32, "vec.dtype",
            "pstu stores through a ui16 (b16 mask) or ui32 (b32 mask) pointer", "pstu base of type %s",
            pt_dtype_name(p->base.dtype));
  unsigned g = p->base.dtype == PTOSIM_DT_U16 ? 2 : 4, n = VB / g / 8; /* payload bytes */
  PT_TRY(vec_addr(x, "pstu base", p->base, 0, 1, &at));
  uint8_t payload[VB / 16] = {0};
  for (unsigned i = 0; i < VB / g; i++) payload[i >> 3] |= (uint8_t)(bit_of(p->src->b, i * g) << (i & 7));
  PT_TRY(stream_put(x, p->align_in, p->align_out, at, payload, n));
  return vec_post(x, p->base, n, 1, p->base_out);
}
