/* DSA/SFU ops of the A5 vector core (vpto docs/isa/micro-isa/13-dsa-sfu-ops.md): the vreg ops
 * vprelu, vaxpy, vmula, vmadd, vmull, vexpdif on the lane loops and zeroing predication of
 * vec_lanes.h, the fused narrowing ops vmulscvt, vaddreluconv and vmulconv (a first step in
 * the source type, then vcvt), and the UB sort helpers vbitsort, vmrgsort4 and get_vms4_sr.
 * Roundings and orders are documented in include/ptosim/vec_sfu.h, docs/spec-notes.md
 * sections 13 and 16 and docs/spec-notes.md section 22. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/vec_arith.h"
#include "isa/vec_formulas.h"

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
#define MADD_F(K, acc, x, y) fmaf(acc, x, y)

PT_VL_F16F32(PT_VL_MAP2, vprelu, PRELU_F)
static const pt_vl_fn vprelu_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vprelu, PRELU_F)};

PT_VL_F16F32(MAP3, vaxpy, AXPY_F)
static const sfu_fn vaxpy_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(ENTRY3, vaxpy, AXPY_F)};

#define VMULA_INTS(M) M(vmula, i16, MULA_I) M(vmula, u16, MULA_I) M(vmula, i32, MULA_I) M(vmula, u32, MULA_I)
PT_VL_F16F32(MAP3, vmula, MULA_F) VMULA_INTS(MAP3)
static const sfu_fn vmula_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(ENTRY3, vmula, MULA_F) VMULA_INTS(ENTRY3)};

PT_VL_FLOATS(MAP3, vmadd, MADD_F)
static const sfu_fn vmadd_loops[PTOSIM_DT_COUNT] = {PT_VL_FLOATS(ENTRY3, vmadd, MADD_F)};

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

ptosim_status pt_exec_vmadd(pt_ctx *x, const ptosim_vmula_params *p) {
  sfu_args g = {p->dst, p->acc, p->src0, p->src1, p->mask};
  return run3(x, vmadd_loops, p->dtype, &g, p->mask_bits);
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

/* ---- vexpdif: f32 lane j = exp(src[k] - max[k]), k = j * S + part (S = 2 for f16 sources) -- */

#define EXPDIF_LOOP(K, S)                                                                         \
  static void vexpdif_##K(ptosim_vreg *r, const ptosim_vexpdif_params *p) {                    \
    for (unsigned j = 0; j < PTOSIM_VREG_BYTES / 4; j++) {                                       \
      unsigned k = j * (S) + p->part * ((S) - 1);                                                \
      float d = pt_vl_ld_##K(p->src, k) - pt_vl_ld_##K(p->max, k);                               \
      pt_vl_st_f32(r, j, pt_vl_active(p->mask, k, PT_VL_E_##K) ? pt_exp_f32(d) : 0.0f);              \
    }                                                                                            \
  }
EXPDIF_LOOP(f32, 1)
EXPDIF_LOOP(f16, 2)

ptosim_status pt_exec_vexpdif(pt_ctx *x, const ptosim_vexpdif_params *p) {
  int f16 = p->dtype == PTOSIM_DT_F16;
  PT_TRY(pt_vl_check(x, p->dtype, f16 || p->dtype == PTOSIM_DT_F32, p->dst && p->src && p->max && p->mask,
                     p->mask_bits));
  PT_VERIFY(x, p->part <= 1, "vec.part", "part is \"EVEN\" (0) or \"ODD\" (1)", "vexpdif part %u", p->part);
  ptosim_vreg r;
  (f16 ? vexpdif_f16 : vexpdif_f32)(&r, p);
  *p->dst = r;
  return PTOSIM_OK;
}

/* ---- vmulscvt: vcvt f32 -> f16 (rnd, part, no saturation) of the f32 products ------------- */

ptosim_status pt_exec_vmulscvt(pt_ctx *x, const ptosim_vmulscvt_params *p) {
  PT_VERIFY(x, p->dst && p->src && p->mask, "vec.operand", "pass every register operand of the op",
            "a register operand pointer is NULL");
  PT_VERIFY(x, p->src_type == PTOSIM_DT_F32 && p->dst_type == PTOSIM_DT_F16 && p->scalar.dtype == PTOSIM_DT_F32,
            "vec.dtype", "vmulscvt takes f32 lanes and an f32 scalar to f16 lanes", "vmulscvt %s * %s -> %s",
            pt_dtype_name(p->src_type), pt_dtype_name(p->scalar.dtype), pt_dtype_name(p->dst_type));
  PT_VERIFY(x, p->mask_bits == 0 || p->mask_bits == 32, "vec.mask_gran", "use !pto.mask<b32> (the f32 source lanes)",
            "vmulscvt with a b%u mask", p->mask_bits);
  ptosim_vreg s, prod;
  pt_vl_broadcast(&s, p->scalar.bits, 4);
  pt_vl_args g = {&prod, NULL, p->src, &s, p->mask};
  pt_vmul_loops[PTOSIM_DT_F32](&g);
  ptosim_vcvt_params c = {p->dst, &prod, p->mask, PTOSIM_DT_F32, PTOSIM_DT_F16, p->rnd, PTOSIM_VSAT_NOSAT, p->part};
  return pt_exec_vcvt(x, &c);
}

/* ---- vaddreluconv / vmulconv: the source-type add + ReLU (or multiply), then vcvt part EVEN -- */

/* max(a + b, 0): floats in f32 (f16 lanes round the result once; a NaN sum gives 0), the i16
 * sum wrapped and clamped to [0, 127], the i8 range its s16 -> u8 vcvt keeps (pto-isa a5
 * TAddReluConv.hpp: vmins 127 before the narrowing). */
#define RELUSUM_S8(K, x, y) (ADD_I(K, x, y) < 0 ? 0 : ADD_I(K, x, y) > 127 ? 127 : ADD_I(K, x, y))
PT_VL_F16F32(PT_VL_MAP2, vaddreluconv, ADDRELU_F)
PT_VL_MAP2(vaddreluconv, i16, RELUSUM_S8)

/* A legal pair: the first-step loop (NULL: vmul) and the vcvt that narrows (u8 for i16 -> i8,
 * which takes no rounding attribute: the vcvt contract of vec_conv.c). */
typedef struct fused_pair {
  ptosim_dtype src, dst, cvt_dst;
  ptosim_vrnd rnd;
  pt_vl_fn first;
} fused_pair;

static const fused_pair k_addrelu_pairs[] = {
    {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_VRND_R, vaddreluconv_f32},
    {PTOSIM_DT_F16, PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_VRND_R, vaddreluconv_f16},
    {PTOSIM_DT_I16, PTOSIM_DT_I8, PTOSIM_DT_U8, PTOSIM_VRND_NONE, vaddreluconv_i16},
};
static const fused_pair k_mul_pairs[] = {
    {PTOSIM_DT_F16, PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_VRND_R, NULL},
    {PTOSIM_DT_F16, PTOSIM_DT_U8, PTOSIM_DT_U8, PTOSIM_VRND_R, NULL},
};

static ptosim_status fused_cvt(pt_ctx *x, const ptosim_vfusedcvt_params *p, const fused_pair *pairs, size_t n,
                               const char *list) {
  const fused_pair *f = NULL;
  for (size_t i = 0; i < n && !f; i++)
    if (pairs[i].src == p->src_type && pairs[i].dst == p->dst_type) f = &pairs[i];
  PT_TRY(pt_vl_a5(x));
  PT_VERIFY(x, p->dst && p->src0 && p->src1, "vec.operand", "pass every register operand of the op",
            "a register operand pointer is NULL");
  PT_VERIFY(x, f != NULL, "vec.dtype", list, "%s -> %s is not a pair of %s", pt_dtype_name(p->src_type),
            pt_dtype_name(p->dst_type), ptosim_op_spelling(x->op));
  PT_TRY(pt_vl_check(x, p->src_type, 1, 1, p->mask_bits));
  ptosim_vmask all;
  if (!p->mask) memset(all.b, 0xFF, sizeof all.b);
  ptosim_vreg t;
  pt_vl_args g = {&t, NULL, p->src0, p->src1, p->mask ? p->mask : &all};
  (f->first ? f->first : pt_vmul_loops[p->src_type])(&g);
  ptosim_vcvt_params c = {p->dst, &t, g.mask, p->src_type, f->cvt_dst, f->rnd, PTOSIM_VSAT_SAT,
                          PTOSIM_VPART_EVEN};
  return pt_exec_vcvt(x, &c);
}

ptosim_status pt_exec_vaddreluconv(pt_ctx *x, const ptosim_vfusedcvt_params *p) {
  return fused_cvt(x, p, k_addrelu_pairs, sizeof k_addrelu_pairs / sizeof k_addrelu_pairs[0],
                   "vaddreluconv takes f32 -> f16, f16 -> i8 or i16 -> i8");
}

ptosim_status pt_exec_vmulconv(pt_ctx *x, const ptosim_vfusedcvt_params *p) {
  return fused_cvt(x, p, k_mul_pairs, sizeof k_mul_pairs / sizeof k_mul_pairs[0], "vmulconv takes f16 -> i8 or f16 -> u8");
}

/* ---- chistv2 / dhistv2: 128 bins of the byte histogram of the active source lanes ---------- */

static ptosim_status hist(pt_ctx *x, const ptosim_vhist_params *p, int cumulative) {
  int types_ok = pt_dtype_size(p->src_type) == 1 && !pt_dtype_is_float(p->src_type) &&
                 pt_dtype_size(p->acc_type) == 2 && !pt_dtype_is_float(p->acc_type);
  PT_TRY(pt_vl_check(x, p->src_type, types_ok, p->dst && p->acc && p->src && p->mask, p->mask_bits));
  PT_VERIFY(x, p->bin == 0 || p->bin == 1, "vec.bin", "bin 0 counts values 0..127, bin 1 values 128..255",
            "histogram bin %lld", (long long)p->bin);
  uint16_t count[256] = {0}; /* count[v]: active lanes holding byte v (at most 256) */
  for (unsigned j = 0; j < PTOSIM_VREG_BYTES; j++) count[p->src->b[j]] += (uint16_t)pt_vl_active(p->mask, j, 1);
  uint16_t below = 0; /* chistv2: active lanes below the first value of the half */
  for (unsigned v = 0; v < 128 * (unsigned)p->bin; v++) below = (uint16_t)(below + count[v]);
  ptosim_vreg r;
  for (unsigned i = 0; i < 128; i++) {
    uint16_t n = count[128 * p->bin + i];
    if (cumulative) n = below = (uint16_t)(below + n);
    pt_vl_st_u16(&r, i, (uint16_t)(pt_vl_ld_u16(p->acc, i) + n));
  }
  *p->dst = r;
  return PTOSIM_OK;
}

ptosim_status pt_exec_chistv2(pt_ctx *x, const ptosim_vhist_params *p) { return hist(x, p, 1); }
ptosim_status pt_exec_dhistv2(pt_ctx *x, const ptosim_vhist_params *p) { return hist(x, p, 0); }

/* ---- UB sort helpers: 8-byte proposal records (score low, u32 index high) ------------------ */

#define REC 8u      /* bytes of a record */
#define SORT_GROUP 32u /* scores per vbitsort repeat */

/* Sort key of a score: its IEEE totalOrder position as an unsigned integer (greater key =
 * greater score; -NaN lowest, +NaN highest, -0 below +0). es: score bytes (2 or 4). */
static uint32_t score_key(const uint8_t *s, unsigned es) {
  uint32_t b = 0, sign = es == 4 ? 0x80000000u : 0x8000u;
  memcpy(&b, s, es);
  return b & sign ? ~b & (sign | (sign - 1)) : b | sign;
}

static ptosim_status sort_types(pt_ctx *x, const char *op, ptosim_ptr p, unsigned *es) {
  PT_TRY(pt_expect_space(x, op, p, PTOSIM_UB));
  PT_VERIFY(x, p.dtype == PTOSIM_DT_F16 || p.dtype == PTOSIM_DT_F32, "vec.dtype", "sort scores are f16 or f32",
            "%s on %s scores", op, pt_dtype_name(p.dtype));
  *es = pt_dtype_size(p.dtype);
  return PTOSIM_OK;
}

/* One vbitsort group: 32 records ordered by descending key, equal keys by position (an
 * insertion sort, stable). */
static void sort_group(uint8_t *dst, const uint8_t *src, const uint8_t *idx, unsigned es) {
  uint32_t key[SORT_GROUP];
  unsigned ord[SORT_GROUP];
  for (unsigned i = 0; i < SORT_GROUP; i++) {
    key[i] = score_key(src + i * es, es);
    unsigned j = i;
    for (; j > 0 && key[ord[j - 1]] < key[i]; j--) ord[j] = ord[j - 1];
    ord[j] = i;
  }
  memset(dst, 0, SORT_GROUP * REC);
  for (unsigned i = 0; i < SORT_GROUP; i++) {
    memcpy(dst + i * REC, src + ord[i] * es, es);
    memcpy(dst + i * REC + 4, idx + ord[i] * 4, 4);
  }
}

ptosim_status pt_exec_vbitsort(pt_ctx *x, const ptosim_vbitsort_params *p) {
  unsigned es = 0;
  PT_TRY(sort_types(x, "vbitsort", p->src, &es));
  PT_TRY(pt_expect_space(x, "vbitsort", p->dst, PTOSIM_UB));
  PT_TRY(pt_expect_space(x, "vbitsort", p->idx, PTOSIM_UB));
  PT_VERIFY(x, p->repeat <= 255, "vec.repeat", "vbitsort repeats 0..255 groups of 32 (split longer sorts)",
            "vbitsort repeat %" PRIu64, p->repeat);
  uint64_t n = p->repeat;
  uint8_t *d, *s, *ix;
  PT_TRY(pt_span(x, PTOSIM_UB, p->src.addr, n * SORT_GROUP * es, 32, PT_READ, &s));
  PT_TRY(pt_span(x, PTOSIM_UB, p->idx.addr, n * SORT_GROUP * 4, 32, PT_READ, &ix));
  PT_TRY(pt_span(x, PTOSIM_UB, p->dst.addr, n * SORT_GROUP * REC, 32, PT_WRITE, &d));
  pt_record_work(x, n * SORT_GROUP, p->src.dtype);
  for (uint64_t r = 0; r < n; r++) {
    uint8_t out[SORT_GROUP * REC]; /* the group's inputs are read before its records land */
    sort_group(out, s + r * SORT_GROUP * es, ix + r * SORT_GROUP * 4, es);
    memcpy(d + r * SORT_GROUP * REC, out, sizeof out);
  }
  return PTOSIM_OK;
}

/* One vmrgsort4 group: merge the lists (n[i] records at in[i]) into out by descending key,
 * equal keys from the lowest list; with `exhausted`, stop once a list that takes part
 * (mask bit i) is used up. taken[i]: records taken from list i. Returns the records written. */
static uint64_t merge4(uint8_t *out, uint8_t *const in[4], const unsigned n[4], unsigned mask, int exhausted,
                       unsigned es, unsigned taken[4]) {
  uint64_t k = 0;
  memset(taken, 0, 4 * sizeof taken[0]);
  for (;;) {
    int best = -1;
    uint32_t bk = 0;
    for (int i = 0; i < 4; i++) {
      if (!(mask >> i & 1)) continue;
      if (taken[i] == n[i]) {
        if (exhausted) return k;
        continue;
      }
      uint32_t key = score_key(in[i] + (size_t)taken[i] * REC, es);
      if (best < 0 || key > bk) best = i, bk = key;
    }
    if (best < 0) return k;
    memcpy(out + k++ * REC, in[best] + (size_t)taken[best]++ * REC, REC);
  }
}

ptosim_status pt_exec_vmrgsort4(pt_ctx *x, const ptosim_vmrgsort4_params *p) {
  unsigned es = 0, n[4], mask = (unsigned)(p->config >> 8 & 0xF), repeat = (unsigned)(p->config & 0xFF), taken[4] = {0};
  int exhausted = (int)(p->config >> 12 & 1);
  PT_TRY(sort_types(x, "vmrgsort4", p->dst, &es));
  uint64_t total = 0;
  for (int i = 0; i < 4; i++) {
    PT_TRY(pt_expect_space(x, "vmrgsort4", p->src[i], PTOSIM_UB));
    PT_VERIFY(x, p->src[i].dtype == p->dst.dtype, "vec.dtype", "give the destination and every list one element type",
              "vmrgsort4 list %d of %s into %s", i, pt_dtype_name(p->src[i].dtype), pt_dtype_name(p->dst.dtype));
    n[i] = mask >> i & 1 ? (unsigned)(p->count >> 16 * i & 0xFFFF) : 0;
    total += n[i];
  }
  PT_VERIFY(x, !exhausted || repeat <= 1, "vec.repeat", "an exhausted merge (config bit 12) runs one repeat",
            "vmrgsort4 exhausted with repeat %u", repeat);
  uint8_t *buf = malloc(total * REC * 5 + 1), *in[4], *out = buf + total * REC * 4;
  PT_VERIFY(x, buf != NULL, "sys.memory", "free host memory", "vmrgsort4 scratch of %" PRIu64 " bytes", total * REC * 5);
  in[0] = buf; /* copies of the lists, so records may land on their own lists */
  for (int i = 1; i < 4; i++) in[i] = in[i - 1] + (size_t)n[i - 1] * REC;
  ptosim_status st = PTOSIM_OK;
  for (unsigned r = 0; r < repeat && st == PTOSIM_OK; r++) {
    uint64_t shift = (uint64_t)r * total * REC; /* groups follow each other */
    uint8_t *h;
    for (int i = 0; i < 4 && st == PTOSIM_OK; i++) {
      st = pt_span(x, PTOSIM_UB, p->src[i].addr + shift, (uint64_t)n[i] * REC, REC, PT_READ, &h);
      if (st == PTOSIM_OK) memcpy(in[i], h, (size_t)n[i] * REC);
    }
    uint64_t got = st == PTOSIM_OK ? merge4(out, in, n, mask, exhausted, es, taken) : 0;
    if (st == PTOSIM_OK) st = pt_span(x, PTOSIM_UB, p->dst.addr + shift, got * REC, REC, PT_WRITE, &h);
    if (st == PTOSIM_OK) memcpy(h, out, got * REC);
  }
  free(buf);
  PT_TRY(st);
  pt_record_work(x, total * repeat, p->dst.dtype);
  x->core->vms4_sr = (uint64_t)taken[0] | (uint64_t)taken[1] << 16 | (uint64_t)taken[2] << 32 | (uint64_t)taken[3] << 48;
  return PTOSIM_OK;
}

ptosim_status pt_exec_get_vms4_sr(pt_ctx *x, const ptosim_vms4_sr_params *p) {
  for (int i = 0; i < 4; i++)
    if (p->list[i]) *p->list[i] = (int16_t)(x->core->vms4_sr >> 16 * i);
  return PTOSIM_OK;
}
