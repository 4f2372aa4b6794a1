/* DSA/SFU vreg -> vreg ops of the A5 vector core (vpto docs/isa/micro-isa/13-dsa-sfu-ops.md):
 * vprelu, vaxpy, vmula, vmull, on the lane loops and zeroing predication of vec_lanes.h.
 * Roundings are documented in include/ptosim/vec_sfu.h and docs/spec-notes.md section 13. */
#include "isa/vec_arith.h"

/* ---- three-source loops: dst = F(K, x, y, z), x = a[i], y = b[i], z = c[i] ------------- */

typedef struct sfu_args {
  ptosim_vreg *dst;
  const ptosim_vreg *a, *b, *c;
  const ptosim_vmask *mask;
} sfu_args;

typedef void (*sfu_fn)(const sfu_args *g);

#define MAP3(op, K, F)                                                                     \
  static void op##_##K(const sfu_args *g) {                                                \
    ptosim_vreg r;                                                                         \
    for (unsigned i = 0; i < PTOSIM_VREG_BYTES / PT_VL_E_##K; i++) {                       \
      pt_vl_c_##K x = pt_vl_ld_##K(g->a, i), y = pt_vl_ld_##K(g->b, i), z = pt_vl_ld_##K(g->c, i); \
      pt_vl_st_##K(&r, i, F(K, x, y, z));                                                  \
    }                                                                                      \
    pt_vl_zero_inactive(&r, g->mask, PT_VL_E_##K);                                         \
    *g->dst = r;                                                                           \
  }
#define ENTRY3(op, K, F) [PT_VL_DT_##K] = op##_##K,

/* ---- element formulas --------------------------------------------------------------------- */

#define PRELU_F(K, x, a) ((x) >= 0.0f ? (x) : (x) * (a))
#define AXPY_F(K, x, y, alpha) ((alpha) * (x) + (y)) /* two roundings (C11: no contraction) */
#define MULA_F(K, acc, x, y) fmaf(x, y, acc)
#define MULA_I(K, acc, x, y) PT_VL_WRAP(K, acc, +, PT_VL_WRAP(K, x, *, y))

PT_VL_F16F32(PT_VL_MAP2, vprelu, PRELU_F)
static const pt_vl_fn vprelu_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vprelu, PRELU_F)};

PT_VL_F16F32(MAP3, vaxpy, AXPY_F)
static const sfu_fn vaxpy_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(ENTRY3, vaxpy, AXPY_F)};

#define VMULA_INTS(M) M(vmula, i16, MULA_I) M(vmula, u16, MULA_I) M(vmula, i32, MULA_I) M(vmula, u32, MULA_I)
PT_VL_F16F32(MAP3, vmula, MULA_F) VMULA_INTS(MAP3)
static const sfu_fn vmula_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(ENTRY3, vmula, MULA_F) VMULA_INTS(ENTRY3)};

/* Check, then run the three-source loop of dt. */
static ptosim_status run3(pt_ctx *x, const sfu_fn *loops, ptosim_dtype dt, const sfu_args *g, unsigned mask_bits) {
  sfu_fn fn = (unsigned)dt < PTOSIM_DT_COUNT ? loops[dt] : NULL;
  PT_TRY(pt_vl_check(x, dt, fn != NULL, g->dst && g->a && g->b && g->c && g->mask, mask_bits));
  fn(g);
  return PTOSIM_OK;
}

/* ---- executors ------------------------------------------------------------------------------ */

ptosim_status pt_exec_vprelu(pt_ctx *x, const ptosim_vbinary_params *p) { return pt_vbinary_run(x, vprelu_loops, p); }

ptosim_status pt_exec_vaxpy(pt_ctx *x, const ptosim_vaxpy_params *p) {
  PT_VERIFY(x, p->alpha.dtype == p->dtype, "vec.scalar_type", "give alpha the vector's element type",
            "vaxpy alpha of type %s on %s lanes", pt_dtype_name(p->alpha.dtype), pt_dtype_name(p->dtype));
  ptosim_vreg alpha;
  unsigned e = pt_vl_esize(p->dtype);
  if (e) pt_vl_broadcast(&alpha, p->alpha.bits, e);
  sfu_args g = {p->dst, p->src0, p->src1, &alpha, p->mask};
  return run3(x, vaxpy_loops, p->dtype, &g, p->mask_bits);
}

ptosim_status pt_exec_vmula(pt_ctx *x, const ptosim_vmula_params *p) {
  sfu_args g = {p->dst, p->acc, p->src0, p->src1, p->mask};
  return run3(x, vmula_loops, p->dtype, &g, p->mask_bits);
}

/* 64-bit product of 32-bit lanes, signed or unsigned, split into its halves. */
ptosim_status pt_exec_vmull(pt_ctx *x, const ptosim_vmull_params *p) {
  int is_signed = p->dtype == PTOSIM_DT_I32;
  PT_TRY(pt_vl_check(x, p->dtype, is_signed || p->dtype == PTOSIM_DT_U32,
                     p->low && p->high && p->src0 && p->src1 && p->mask, p->mask_bits));
  ptosim_vreg lo, hi;
  for (unsigned i = 0; i < PTOSIM_VREG_BYTES / 4; i++) {
    uint32_t a = pt_vl_ld_u32(p->src0, i), b = pt_vl_ld_u32(p->src1, i);
    uint64_t r = is_signed ? (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) : (uint64_t)a * b;
    pt_vl_st_u32(&lo, i, (uint32_t)r);
    pt_vl_st_u32(&hi, i, (uint32_t)(r >> 32));
  }
  pt_vl_zero_inactive(&lo, p->mask, 4);
  pt_vl_zero_inactive(&hi, p->mask, 4);
  *p->low = lo;
  *p->high = hi;
  return PTOSIM_OK;
}
