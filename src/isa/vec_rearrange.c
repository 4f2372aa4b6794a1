/* A5 in-register data rearrangement (vpto micro-isa 12; pto-isa
 * docs/isa/vector/ops/data-rearrangement; include/ptosim/vec_reduce.h). N lanes of e bytes;
 * the ops move lane bits and never look at values, so one loop per lane width serves every
 * element type of that width.
 *   vintlv     low[2i] = a[i], low[2i+1] = b[i]; high the same for a[N/2 + i], b[N/2 + i]
 *   vdintlv    s = a ++ b: low[i] = s[2i], high[i] = s[2i+1]
 *   vintlvv2 / vdintlvv2   the low (LOWER) or high (HIGHER) result of the above
 *   vsqz       the active lanes in order, then 0
 *   vusqz      dst[i] = number of active lanes below i (signed 8- to 32-bit integers)
 *   vperm      dst[i] = src[idx[i] mod N] (idx unsigned of the lane width)
 *   vslide     dst[i] = (src1 ++ src0)[N - amount + i]; vshift: src1 = 0 (0 <= amount <= N)
 *   vpack      the `part` half of dst = src lanes truncated to half width, the other half 0
 *   vsunpack / vzunpack   dst[i] = sign / zero extension of src[part * N/2 + i], i < N/2 */
#include "isa/vec_lanes.h"

/* Call f(..., e) with e a constant 1, 2, 4 or 8 (the lane bytes), so that the lane copies
 * inside f have a constant size; `e` is checked to be one of them before. */
#define BY_WIDTH(e, call_e)                                                                \
  do {                                                                                     \
    switch (e) {                                                                           \
    case 1: call_e(1); break;                                                              \
    case 2: call_e(2); break;                                                              \
    case 4: call_e(4); break;                                                              \
    default: call_e(8); break;                                                             \
    }                                                                                      \
  } while (0)
#define INLINE static inline __attribute__((always_inline))

/* Lane i of r (e bytes). */
INLINE uint8_t *lane(ptosim_vreg *r, unsigned i, unsigned e) { return r->b + i * e; }
INLINE const uint8_t *clane(const ptosim_vreg *r, unsigned i, unsigned e) { return r->b + i * e; }

/* Every register element type a lane loop of width e can move. */
static int movable(ptosim_dtype dt) {
  unsigned e = pt_vl_esize(dt);
  return dt != PTOSIM_DT_NONE && (e == 1 || e == 2 || e == 4 || e == 8);
}

/* ---- interleave ------------------------------------------------------------------------ */

INLINE void intlv(ptosim_vreg *lo, ptosim_vreg *hi, const ptosim_vreg *a, const ptosim_vreg *b, unsigned e) {
  const unsigned n = PTOSIM_VREG_BYTES / e;
  ptosim_vreg l, h;
  for (unsigned i = 0; i < n / 2; i++) {
    memcpy(lane(&l, 2 * i, e), clane(a, i, e), e);
    memcpy(lane(&l, 2 * i + 1, e), clane(b, i, e), e);
    memcpy(lane(&h, 2 * i, e), clane(a, n / 2 + i, e), e);
    memcpy(lane(&h, 2 * i + 1, e), clane(b, n / 2 + i, e), e);
  }
  if (lo) *lo = l;
  if (hi) *hi = h;
}

INLINE void dintlv(ptosim_vreg *lo, ptosim_vreg *hi, const ptosim_vreg *a, const ptosim_vreg *b, unsigned e) {
  const unsigned n = PTOSIM_VREG_BYTES / e;
  ptosim_vreg l, h;
  for (unsigned i = 0; i < n / 2; i++) {
    memcpy(lane(&l, i, e), clane(a, 2 * i, e), e);
    memcpy(lane(&h, i, e), clane(a, 2 * i + 1, e), e);
    memcpy(lane(&l, n / 2 + i, e), clane(b, 2 * i, e), e);
    memcpy(lane(&h, n / 2 + i, e), clane(b, 2 * i + 1, e), e);
  }
  if (lo) *lo = l;
  if (hi) *hi = h;
}

/* The pair of results (low, high), or with `v2` only the half `part` names, into low. */
static ptosim_status pair_run(pt_ctx *x, const ptosim_vintlv_params *p, int inverse, int v2) {
  int parts_ok = !v2 || p->part == PTOSIM_PART_LOWER || p->part == PTOSIM_PART_HIGHER;
  PT_TRY(pt_vl_check(x, p->dtype, movable(p->dtype), p->low && (v2 || p->high) && p->src0 && p->src1, 0));
  PT_VERIFY(x, parts_ok, "vec.part", "use \"LOWER\" or \"HIGHER\"", "part %d out of range", (int)p->part);
  ptosim_vreg *lo = v2 && p->part == PTOSIM_PART_HIGHER ? NULL : p->low;
  ptosim_vreg *hi = !v2 ? p->high : p->part == PTOSIM_PART_HIGHER ? p->low : NULL;
#define PAIR_CALL(E) (inverse ? dintlv : intlv)(lo, hi, p->src0, p->src1, E)
  BY_WIDTH(pt_vl_esize(p->dtype), PAIR_CALL);
#undef PAIR_CALL
  return PTOSIM_OK;
}

ptosim_status pt_exec_vintlv(pt_ctx *x, const ptosim_vintlv_params *p) { return pair_run(x, p, 0, 0); }
ptosim_status pt_exec_vdintlv(pt_ctx *x, const ptosim_vintlv_params *p) { return pair_run(x, p, 1, 0); }
ptosim_status pt_exec_vintlvv2(pt_ctx *x, const ptosim_vintlv_params *p) { return pair_run(x, p, 0, 1); }
ptosim_status pt_exec_vdintlvv2(pt_ctx *x, const ptosim_vintlv_params *p) { return pair_run(x, p, 1, 1); }

/* ---- compress, prefix count ------------------------------------------------------------ */

/* Returns the number of active lanes. */
INLINE unsigned sqz(ptosim_vreg *d, const ptosim_vreg *s, const ptosim_vmask *m, unsigned e) {
  ptosim_vreg r;
  memset(&r, 0, sizeof r);
  unsigned j = 0;
  for (unsigned i = 0; i < PTOSIM_VREG_BYTES / e; i++) {
    memcpy(lane(&r, j, e), clane(s, i, e), e); /* lane j is overwritten until an active lane */
    j += pt_vl_active(m, i, e);
  }
  if (j < PTOSIM_VREG_BYTES / e) memset(lane(&r, j, e), 0, e);
  *d = r;
  return j;
}

/* Also sets SQZN, the byte count of the kept lanes that pto.vstur stores (vec_mem.h). */
ptosim_status pt_exec_vsqz(pt_ctx *x, const ptosim_vunary_params *p) {
  PT_TRY(pt_vl_check(x, p->dtype, movable(p->dtype), p->dst && p->src && p->mask, p->mask_bits));
  unsigned e = pt_vl_esize(p->dtype), n = 0;
#define SQZ_CALL(E) n = sqz(p->dst, p->src, p->mask, E)
  BY_WIDTH(e, SQZ_CALL);
#undef SQZ_CALL
  x->core->vspr.sqzn = n * e;
  x->core->vspr.sqzn_set = 1;
  return PTOSIM_OK;
}

INLINE void usqz(ptosim_vreg *d, const ptosim_vmask *m, unsigned e) {
  ptosim_vreg r;
  uint64_t count = 0;
  for (unsigned i = 0; i < PTOSIM_VREG_BYTES / e; i++) {
    memcpy(lane(&r, i, e), &count, e); /* little-endian: the low e bytes */
    count += pt_vl_active(m, i, e);
  }
  *d = r;
}

ptosim_status pt_exec_vusqz(pt_ctx *x, const ptosim_vunary_params *p) {
  ptosim_dtype t = p->dtype;
  int legal = t == PTOSIM_DT_I8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32;
  PT_TRY(pt_vl_check(x, t, legal, p->dst && p->src && p->mask, p->mask_bits));
#define USQZ_CALL(E) usqz(p->dst, p->mask, E)
  BY_WIDTH(pt_vl_esize(t), USQZ_CALL);
#undef USQZ_CALL
  return PTOSIM_OK;
}

/* ---- permute, slide -------------------------------------------------------------------- */

INLINE void perm(ptosim_vreg *d, const ptosim_vreg *s, const ptosim_vreg *idx, unsigned e) {
  const unsigned n = PTOSIM_VREG_BYTES / e;
  ptosim_vreg r;
  for (unsigned i = 0; i < n; i++) {
    uint64_t j = 0;
    memcpy(&j, clane(idx, i, e), e);
    memcpy(lane(&r, i, e), clane(s, (unsigned)(j & (n - 1)), e), e); /* n is a power of 2 */
  }
  *d = r;
}

ptosim_status pt_exec_vperm(pt_ctx *x, const ptosim_vselr_params *p) {
  PT_TRY(pt_vl_check(x, p->dtype, movable(p->dtype), p->dst && p->src && p->idx, 0));
#define PERM_CALL(E) perm(p->dst, p->src, p->idx, E)
  BY_WIDTH(pt_vl_esize(p->dtype), PERM_CALL);
#undef PERM_CALL
  return PTOSIM_OK;
}

/* dst = lanes [n - amount, 2n - amount) of hi ++ lo, i.e. byte k of dst is byte
 * k + 256 - amount * e of the 512-byte concatenation (lo NULL: zeros). */
static ptosim_status slide_run(pt_ctx *x, const ptosim_vslide_params *p, int two) {
  unsigned e = pt_vl_esize(p->dtype), n = e ? PTOSIM_VREG_BYTES / e : 0;
  PT_TRY(pt_vl_check(x, p->dtype, movable(p->dtype), p->dst && p->src0 && (!two || p->src1), 0));
  PT_VERIFY(x, p->amount >= 0 && p->amount <= (int64_t)n, "vec.slide_amount", "keep the amount in [0, lanes]",
            "amount %lld is outside [0, %u]", (long long)p->amount, n);
  uint8_t cat[2 * PTOSIM_VREG_BYTES];
  if (two) memcpy(cat, p->src1->b, PTOSIM_VREG_BYTES);
  else memset(cat, 0, PTOSIM_VREG_BYTES);
  memcpy(cat + PTOSIM_VREG_BYTES, p->src0->b, PTOSIM_VREG_BYTES);
  memcpy(p->dst->b, cat + PTOSIM_VREG_BYTES - (unsigned)p->amount * e, PTOSIM_VREG_BYTES);
  return PTOSIM_OK;
}

ptosim_status pt_exec_vslide(pt_ctx *x, const ptosim_vslide_params *p) { return slide_run(x, p, 1); }
ptosim_status pt_exec_vshift(pt_ctx *x, const ptosim_vslide_params *p) { return slide_run(x, p, 0); }

/* ---- pack, unpack ---------------------------------------------------------------------- */

/* The narrow lanes (e / 2 bytes) of src lanes (e bytes): little-endian, the low half bytes. */
INLINE void pack(ptosim_vreg *d, const ptosim_vreg *s, unsigned half, unsigned e) {
  const unsigned n = PTOSIM_VREG_BYTES / e, h = e / 2;
  ptosim_vreg r;
  memset(&r, 0, sizeof r);
  for (unsigned i = 0; i < n; i++) memcpy(r.b + (half * n + i) * h, clane(s, i, e), h);
  *d = r;
}

ptosim_status pt_exec_vpack(pt_ctx *x, const ptosim_vpack_params *p) {
  ptosim_dtype t = p->src_type;
  ptosim_dtype out = t == PTOSIM_DT_I32 || t == PTOSIM_DT_U32 ? PTOSIM_DT_U16
                     : t == PTOSIM_DT_I16 || t == PTOSIM_DT_U16 ? PTOSIM_DT_U8
                                                                : PTOSIM_DT_NONE;
  PT_TRY(pt_vl_check(x, t, out != PTOSIM_DT_NONE, p->dst && p->src, 0));
  PT_VERIFY(x, p->dst_type == PTOSIM_DT_NONE || p->dst_type == out, "vec.result_type",
            "vpack narrows i32/u32 to ui16 and i16/u16 to ui8", "result element type %s, expected %s",
            pt_dtype_name(p->dst_type), pt_dtype_name(out));
  PT_VERIFY(x, p->part == PTOSIM_PART_LOWER || p->part == PTOSIM_PART_HIGHER, "vec.part", "use \"LOWER\" or \"HIGHER\"",
            "part %d out of range", (int)p->part);
#define PACK_CALL(E) pack(p->dst, p->src, (unsigned)p->part, E)
  BY_WIDTH(pt_vl_esize(t), PACK_CALL);
#undef PACK_CALL
  return PTOSIM_OK;
}

/* dst lane i (2e bytes) = src lane part * n/2 + i (e bytes) extended; n = 256 / e. */
INLINE void unpack(ptosim_vreg *d, const ptosim_vreg *s, unsigned part, int sign, unsigned e) {
  const unsigned n = PTOSIM_VREG_BYTES / e;
  ptosim_vreg r;
  for (unsigned i = 0; i < n / 2; i++) {
    const uint8_t *v = clane(s, part * n / 2 + i, e);
    uint8_t fill = sign && (v[e - 1] & 0x80) ? 0xFF : 0x00;
    memcpy(r.b + 2 * e * i, v, e);
    memset(r.b + 2 * e * i + e, fill, e);
  }
  *d = r;
}

static ptosim_status unpack_run(pt_ctx *x, const ptosim_vunpack_params *p, int sign) {
  ptosim_dtype t = p->src_type;
  unsigned e = pt_vl_esize(t);
  int legal = !pt_dtype_is_float(t) && (e == 1 || e == 2 || e == 4);
  int out_ok = p->dst_type == PTOSIM_DT_NONE ||
               (!pt_dtype_is_float(p->dst_type) && pt_vl_esize(p->dst_type) == 2 * e);
  PT_TRY(pt_vl_check(x, t, legal && t != PTOSIM_DT_NONE, p->dst && p->src, 0));
  PT_VERIFY(x, out_ok, "vec.result_type", "unpack to the integer type of twice the source width",
            "result element type %s for %s source", pt_dtype_name(p->dst_type), pt_dtype_name(t));
  PT_VERIFY(x, p->part == 0 || p->part == 1, "vec.part", "pass part 0 (lower half) or 1 (upper half)",
            "part %lld out of range", (long long)p->part);
#define UNPACK_CALL(E) unpack(p->dst, p->src, (unsigned)p->part, sign, E)
  BY_WIDTH(e, UNPACK_CALL);
#undef UNPACK_CALL
  return PTOSIM_OK;
}

ptosim_status pt_exec_vsunpack(pt_ctx *x, const ptosim_vunpack_params *p) { return unpack_run(x, p, 1); }
ptosim_status pt_exec_vzunpack(pt_ctx *x, const ptosim_vunpack_params *p) { return unpack_run(x, p, 0); }
