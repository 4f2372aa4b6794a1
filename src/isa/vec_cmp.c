/* Compare and select (vpto docs/isa/micro-isa/11-compare-select.md).
 *   vcmp / vcmps  predicate lane i = seed[i] && (src0[i] mode src1[i] or scalar); the other
 *                 bits of the result are 0. Floats compare as IEEE (a NaN satisfies only ne),
 *                 f16 / bf16 through their exact f32 values, integers by their signedness.
 *   vsel          dst[i] = mask[i] ? src0[i] : src1[i] on every lane (bits copied as is).
 *   vselr         dst[i] = src[idx[i]], idx lanes unsigned of the element width.
 *   vselrv2       no lane semantics published (see docs/spec-notes.md section 10): refused. */
#include "isa/vec_arith.h"

/* ---- vcmp: one loop per (mode, kind) so the mode is chosen once per op ---------------- */

/* Every lane's result bit is set at bit i * E, then the predicate is ANDed with the seed's
 * lane bits (vec_lanes.h pt_vl_lane_bits), which clears the other bits too. */
#define PT_VL_CMP_LOOP(op, K, CMP)                                                         \
  static void op##_##K(const pt_vl_args *g) {                                              \
    ptosim_vmask r;                                                                        \
    memset(&r, 0, sizeof r);                                                               \
    for (unsigned i = 0; i < PTOSIM_VREG_BYTES / PT_VL_E_##K; i++)                         \
      pt_vl_set(&r, i, PT_VL_E_##K, pt_vl_ld_##K(g->a, i) CMP pt_vl_ld_##K(g->b, i));      \
    for (unsigned j = 0; j < sizeof r.b; j++)                                              \
      r.b[j] = (uint8_t)(r.b[j] & g->mask->b[j] & pt_vl_lane_bits(PT_VL_E_##K));           \
    *g->pdst = r;                                                                          \
  }

#define CMP_KINDS(M, op, CMP) PT_VL_INTS(M, op, CMP) PT_VL_FLOATS(M, op, CMP)
CMP_KINDS(PT_VL_CMP_LOOP, eq, ==)
CMP_KINDS(PT_VL_CMP_LOOP, ne, !=)
CMP_KINDS(PT_VL_CMP_LOOP, lt, <)
CMP_KINDS(PT_VL_CMP_LOOP, le, <=)
CMP_KINDS(PT_VL_CMP_LOOP, gt, >)
CMP_KINDS(PT_VL_CMP_LOOP, ge, >=)

static const pt_vl_fn cmp_loops[PTOSIM_VCMP_COUNT][PTOSIM_DT_COUNT] = {
    [PTOSIM_VCMP_EQ] = {CMP_KINDS(PT_VL_ENTRY, eq, _)}, [PTOSIM_VCMP_NE] = {CMP_KINDS(PT_VL_ENTRY, ne, _)},
    [PTOSIM_VCMP_LT] = {CMP_KINDS(PT_VL_ENTRY, lt, _)}, [PTOSIM_VCMP_LE] = {CMP_KINDS(PT_VL_ENTRY, le, _)},
    [PTOSIM_VCMP_GT] = {CMP_KINDS(PT_VL_ENTRY, gt, _)}, [PTOSIM_VCMP_GE] = {CMP_KINDS(PT_VL_ENTRY, ge, _)},
};

static ptosim_status cmp_run(pt_ctx *x, ptosim_vmask *dst, const ptosim_vreg *a, const ptosim_vreg *b,
                             const ptosim_vmask *seed, ptosim_vcmp_mode mode, ptosim_dtype dt, unsigned mask_bits) {
  PT_VERIFY(x, (unsigned)mode < PTOSIM_VCMP_COUNT, "vec.cmp_mode", "use eq, ne, lt, le, gt or ge",
            "compare mode %d out of range", (int)mode);
  pt_vl_args g = {.pdst = dst, .a = a, .b = b, .mask = seed};
  return pt_vl_run(x, cmp_loops[mode], dt, &g, dst && a && b && seed, mask_bits);
}

ptosim_status pt_exec_vcmp(pt_ctx *x, const ptosim_vcmp_params *p) {
  return cmp_run(x, p->dst, p->src0, p->src1, p->seed, p->mode, p->dtype, p->mask_bits);
}

/* vcmps: the scalar must fit the lanes (pt_vl_scalar_fits). */
ptosim_status pt_exec_vcmps(pt_ctx *x, const ptosim_vcmps_params *p) {
  unsigned e = pt_vl_esize(p->dtype);
  PT_VERIFY(x, pt_vl_scalar_fits(p->dtype, p->scalar.dtype), "vec.scalar_type",
            "give the scalar the vector's element type", "scalar of type %s on %s lanes",
            pt_dtype_name(p->scalar.dtype), pt_dtype_name(p->dtype));
  ptosim_vreg s;
  pt_vl_broadcast(&s, p->scalar.bits, e ? e : 1);
  return cmp_run(x, p->dst, p->src, &s, p->seed, p->mode, p->dtype, p->mask_bits);
}

/* ---- vsel: bit select per lane width --------------------------------------------------- */

/* dst = src0 where the lane is active, src1 elsewhere; 8 register bytes per mask byte. */
static void vsel_bytes(const pt_vl_args *g, unsigned e) {
  unsigned lanes = pt_vl_lane_bits(e);
  ptosim_vreg r;
  for (unsigned j = 0; j < PTOSIM_VREG_BYTES / 8; j++) {
    unsigned bits = g->mask->b[j] & lanes;
    for (unsigned k = 0; k < 8; k += e) memcpy(r.b + 8 * j + k, (bits >> k & 1 ? g->a : g->b)->b + 8 * j + k, e);
  }
  *g->dst = r;
}
#define PT_VL_SEL_LOOP(op, K, _) \
  static void op##_##K(const pt_vl_args *g) { vsel_bytes(g, PT_VL_E_##K); }
PT_VL_SEL_LOOP(vsel, u8, _)
PT_VL_SEL_LOOP(vsel, u16, _)
PT_VL_SEL_LOOP(vsel, u32, _)
PT_VL_SEL_LOOP(vsel, u64, _)

/* The loop of the lane width of dt from a table of 1-, 2-, 4- and 8-byte loops; any element
 * type a register holds (integers, f16, bf16, f32, the 8-bit floats) has one. */
static pt_vl_fn width_loop(const pt_vl_fn by_width[4], ptosim_dtype dt) {
  switch (pt_vl_esize(dt)) {
  case 1: return by_width[0];
  case 2: return by_width[1];
  case 4: return by_width[2];
  case 8: return by_width[3];
  default: return NULL;
  }
}

ptosim_status pt_exec_vsel(pt_ctx *x, const ptosim_vbinary_params *p) {
  static const pt_vl_fn loops[4] = {vsel_u8, vsel_u16, vsel_u32, vsel_u64};
  pt_vl_fn fn = width_loop(loops, p->dtype);
  PT_TRY(pt_vl_check(x, p->dtype, fn != NULL, p->dst && p->src0 && p->src1 && p->mask, p->mask_bits));
  pt_vl_args g = {.dst = p->dst, .a = p->src0, .b = p->src1, .mask = p->mask};
  fn(&g);
  return PTOSIM_OK;
}

/* ---- vselr: lane gather ---------------------------------------------------------------- */

/* dst[i] = src[idx[i]]; returns the first lane whose index is out of range, or n. */
#define PT_VL_GATHER(K)                                                                    \
  static unsigned vselr_##K(ptosim_vreg *d, const ptosim_vreg *src, const ptosim_vreg *idx) { \
    const unsigned n = PTOSIM_VREG_BYTES / PT_VL_E_##K;                                    \
    ptosim_vreg r;                                                                         \
    for (unsigned i = 0; i < n; i++) {                                                     \
      uint64_t j = pt_vl_ld_##K(idx, i);                                                   \
      if (j >= n) return i;                                                                \
      pt_vl_st_##K(&r, i, pt_vl_ld_##K(src, (unsigned)j));                                 \
    }                                                                                      \
    *d = r;                                                                                \
    return n;                                                                              \
  }
PT_VL_GATHER(u8)
PT_VL_GATHER(u16)
PT_VL_GATHER(u32)

ptosim_status pt_exec_vselr(pt_ctx *x, const ptosim_vselr_params *p) {
  typedef unsigned (*gather_fn)(ptosim_vreg *, const ptosim_vreg *, const ptosim_vreg *);
  unsigned e = pt_vl_esize(p->dtype);
  gather_fn fn = e == 1 ? vselr_u8 : e == 2 ? vselr_u16 : e == 4 ? vselr_u32 : NULL;
  PT_TRY(pt_vl_check(x, p->dtype, fn != NULL, p->dst && p->src && p->idx, 0));
  unsigned n = PTOSIM_VREG_BYTES / e, bad = fn(p->dst, p->src, p->idx);
  if (bad == n) return PTOSIM_OK;
  return pt_fail(x, PTOSIM_E_FAULT, "vec.index", "keep every index below the lane count",
                 "vselr index in lane %u is out of range (%u lanes)", bad, n);
}

ptosim_status pt_exec_vselrv2(pt_ctx *x, const ptosim_vselr_params *p) {
  PT_TRY(pt_vl_check(x, p->dtype, pt_vl_esize(p->dtype) != 0, p->dst && p->src && p->idx, 0));
  return pt_fail(x, PTOSIM_E_UNSUPPORTED, "vec.unspecified", "use pto.vselr",
                 "pto.vselrv2 has no published lane semantics (micro-isa 11 records its shape only)");
}
