/* Cube data movement (ops.def section "cube data movement"):
 *   pto.mte_gm_l1_frac                   GM ND / DN matrices -> L1 NZ fractal groups (MTE2)
 *   pto.mte_l1_l0a / pto.mte_l1_l0b      L1 NZ fractals -> L0A / L0B operand tiles (MTE1)
 *   pto.load_cbuf_to_ca / _cb            the raw A5 "2Dv2" instruction behind those two
 *   pto.mte_l1_l0a_mx / pto.mte_l1_l0b_mx MX scale tiles -> L0A_MX / L0B_MX (A5)
 *   pto.mte_l1_bt / pto.mte_l1_fb        bias / FIXPIPE parameter payloads
 * Spec: /work/spec/vpto/docs/isa/micro-isa/16-cube-matmul.md "Cube Data Movement Ops".
 * Hardware readings and their evidence: docs/spec-notes.md sections 3 and 5. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/mx_layout.h"

/* Element size of an 8-, 16- or 32-bit element type (fp8 / hif8 are 8-bit), else 0. */
static unsigned cube_es(ptosim_dtype t) {
  unsigned es = pt_dtype_size(t);
  return es == 1 || es == 2 || es == 4 ? es : 0;
}

static ptosim_status check_range(pt_ctx *x, const char *rule, const char *name, int64_t v, int64_t lo, int64_t hi) {
  PT_VERIFY(x, v >= lo && v <= hi, rule, "keep the operand inside the range of the hardware field that encodes it",
            "%s = %" PRId64 " is outside [%" PRId64 ", %" PRId64 "]", name, v, lo, hi);
  return PTOSIM_OK;
}

static ptosim_status check_spaces(pt_ctx *x, ptosim_ptr src, ptosim_space s, ptosim_ptr dst, ptosim_space d) {
  PT_TRY(pt_expect_space(x, "src", src, s));
  return pt_expect_space(x, "dst", dst, d);
}

/* Source and destination element types: both 8-, 16- or 32-bit and of the same width
 * (PTOAS VPTO.cpp verifyCubeBridgeLoadLikeOp / verifyCopyGmToUbufOp). Returns the size. */
static ptosim_status check_same_width(pt_ctx *x, const char *rule, ptosim_ptr src, ptosim_ptr dst, unsigned *es) {
  *es = cube_es(src.dtype);
  PT_VERIFY(x, *es && pt_dtype_size(dst.dtype) == *es, rule, "use 8-, 16- or 32-bit element types of equal width",
            "element types %s -> %s are not an 8/16/32-bit pair of equal width", pt_dtype_name(src.dtype),
            pt_dtype_name(dst.dtype));
  return PTOSIM_OK;
}

/* ==== pto.mte_gm_l1_frac ================================================================
 * For group g < group_count, row n < n_value, column d < d_value (elements), es = element
 * bytes, C0 = 32 / es, strides L2/L3/L4 in 32-byte units, source strides in bytes:
 *   source  nd2nz: src + g*outer + n*inner + d*es       dn2nz: src + g*outer + d*inner + n*es
 *   dest    dst + g*L4*32 + (d / C0)*L3*32 + n*L2*32 + (d % C0)*es
 * L2 = stride between rows n, L3 = between C0 column blocks, L4 = between matrices
 * (MTE2_NZ_PARA fields, pto-isa common/arch/register/tload_common.hpp). Each written row
 * piece is a whole 32-byte C0 block: lanes d >= d_value of the last block are zero. Rows
 * n >= n_value are not written (CCE copy_gm_to_cbuf_multi_nd2nz: only the D tail is padded).
 *
 * Small-C0 mode (smallc0_en, A5 only, d_value <= 4): the C0 block shrinks to 4 channels.
 * Spec: "each destination burst is padded to 4 logical channels ... inner-N and C0
 * placement is fixed by that packing rule ... missing N rows and invalid D lanes are written
 * as zero, and the tail of a generated NZ matrix is padded to the 32-byte C0 boundary".
 * Reading chosen (no source gives the bytes; docs/spec-notes.md 3.2): row n of group g is
 * the 4*es bytes at dst + g*L4*32 + n*4*es (lanes d_value..3 zero), rows packed densely
 * (32/(4*es) rows per C0 block), then zeros up to the next 32-byte boundary; L2 and L3 are
 * not used.
 *
 * n_value == 0 or d_value == 0 is a no-op (the CCE intrinsic treats it as a NOP).
 * Overlapping destination pieces are a program error (spec: "must not overlap"; the
 * hardware gives no order): reported as frac.dst_overlap. */

/* Fill `width` bytes at t with `valid` elements read every `lane_step` source bytes, then zeros. */
static void fill_lanes(uint8_t *t, int64_t width, const uint8_t *s, int64_t lane_step, int64_t valid, unsigned es) {
  if (lane_step == (int64_t)es) {
    memcpy(t, s, (size_t)valid * es);
  } else {
    for (int64_t i = 0; i < valid; i++) memcpy(t + i * es, s + i * lane_step, es);
  }
  memset(t + valid * es, 0, (size_t)(width - valid * (int64_t)es));
}

/* nd2nz, one group: n source lines `inner` bytes apart -> rows `row` bytes apart, C0 blocks
 * `blk` bytes apart. Rows go in tiles of 16 so a tile's source lines stay cached while each
 * of its C0 blocks is written as one run. */
static void frac_nd(uint8_t *t, int64_t row, int64_t blk, const uint8_t *s, int64_t inner, int64_t n, int64_t d,
                    unsigned es) {
  int64_t cw = PT_C0 / es, full = d / cw;
  for (int64_t r0 = 0; r0 < n; r0 += PT_FRAC_ROWS) {
    int64_t r1 = n - r0 < (int64_t)PT_FRAC_ROWS ? n : r0 + PT_FRAC_ROWS;
    for (int64_t c = 0; c < full; c++)
      for (int64_t r = r0; r < r1; r++) memcpy(t + r * row + c * blk, s + r * inner + c * PT_C0, PT_C0);
    if (d % cw)
      for (int64_t r = r0; r < r1; r++)
        fill_lanes(t + r * row + full * blk, PT_C0, s + r * inner + full * PT_C0, es, d % cw, es);
  }
}

static void copy_elem(uint8_t *t, const uint8_t *s, unsigned es) {
  switch (es) {
    case 1:
      *t = *s;
      break;
    case 2:
      memcpy(t, s, 2);
      break;
    default:
      memcpy(t, s, 4);
      break;
  }
}

/* dn2nz, one group: d source lines (one per column, n elements contiguous) `inner` bytes
 * apart; each element goes to its row's lane, then the lanes past d of the last block are
 * zeroed. */
static void frac_dn(uint8_t *t, int64_t row, int64_t blk, const uint8_t *s, int64_t inner, int64_t n, int64_t d,
                    unsigned es) {
  int64_t cw = PT_C0 / es;
  for (int64_t k = 0; k < d; k++) {
    uint8_t *tk = t + (k / cw) * blk + (k % cw) * es;
    for (int64_t r = 0; r < n; r++) copy_elem(tk + r * row, s + k * inner + r * es, es);
  }
  if (d % cw)
    for (int64_t r = 0; r < n; r++) memset(t + (d / cw) * blk + r * row + (d % cw) * es, 0, PT_C0 - (d % cw) * es);
}

/* Whether two of the pieces [sum_i j_i*stride[i], + len), j_i < cnt[i], i < nd <= 3, share a
 * unit. First as a nest (each stride at least the extent of the smaller ones: disjoint),
 * else exactly on a bitmap of the bounding box. Sets *hit; fails only when out of memory. */
static ptosim_status pieces_overlap(pt_ctx *x, int nd, const int64_t *cnt, const int64_t *stride, int64_t len,
                                    bool *hit) {
  int idx[3], k = 0;
  for (int i = 0; i < nd; i++)
    if (cnt[i] > 1) idx[k++] = i;
  for (int a = 1; a < k; a++) /* insertion sort by stride */
    for (int b = a; b > 0 && stride[idx[b]] < stride[idx[b - 1]]; b--) {
      int t = idx[b];
      idx[b] = idx[b - 1];
      idx[b - 1] = t;
    }
  int64_t ext = len, pieces = 1;
  bool nested = true;
  for (int a = 0; a < k; a++) {
    nested = nested && stride[idx[a]] >= ext;
    ext += stride[idx[a]] * (cnt[idx[a]] - 1);
    pieces *= cnt[idx[a]];
  }
  *hit = !nested && pieces * len > ext; /* more units than room: some repeat */
  if (nested || *hit) return PTOSIM_OK;
  uint8_t *bits = calloc((size_t)ext / 8 + 1, 1);
  if (!bits) return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of memory in the overlap check");
  for (int64_t t = 0; t < pieces && !*hit; t++) {
    int64_t off = 0, r = t;
    for (int a = 0; a < k; a++) {
      off += (r % cnt[idx[a]]) * stride[idx[a]];
      r /= cnt[idx[a]];
    }
    for (int64_t u = off; u < off + len; u++) {
      *hit = *hit || (bits[u >> 3] >> (u & 7) & 1);
      bits[u >> 3] |= (uint8_t)(1u << (u & 7));
    }
  }
  free(bits);
  return PTOSIM_OK;
}

/* Operand ranges: the fields of copy_gm_to_cbuf_multi_{nd2nz,dn2nz} and MTE2_NZ_PARA
 * (PTOAS VPTOLLVMEmitter.cpp packCopyGmToCbufMultiConfig0/1, VPTOExpandWrapperOps.cpp
 * packMte2NzPara; group_count > 0 and non-negative strides: VPTO.cpp MteGmL1FracOp::verify). */
static ptosim_status check_frac_fields(pt_ctx *x, const ptosim_frac_params *p) {
  const int64_t u16 = 65535, b40 = ((int64_t)1 << 40) - 1;
  PT_TRY(check_range(x, "frac.range", "n_value", p->n_value, 0, u16));
  PT_TRY(check_range(x, "frac.range", "d_value", p->d_value, 0, ((int64_t)1 << 21) - 1));
  PT_TRY(check_range(x, "frac.range", "src_inner_stride", p->src_inner_stride, 0, b40));
  PT_TRY(check_range(x, "frac.range", "src_outer_stride", p->src_outer_stride, 0, b40));
  PT_TRY(check_range(x, "frac.range", "group_count", p->group_count, 1, u16));
  PT_TRY(check_range(x, "frac.range", "dst_loop2_stride", p->dst_loop2_stride, 0, u16));
  PT_TRY(check_range(x, "frac.range", "dst_loop3_stride", p->dst_loop3_stride, 0, u16));
  PT_TRY(check_range(x, "frac.range", "dst_loop4_stride", p->dst_loop4_stride, 0, u16));
  return check_range(x, "frac.range", "l2_cache_ctrl", p->l2_cache_ctrl, 0, 15);
}

ptosim_status pt_exec_mte_gm_l1_frac(pt_ctx *x, const ptosim_frac_params *p) {
  unsigned es;
  PT_TRY(check_spaces(x, p->src, PTOSIM_GM, p->dst, PTOSIM_L1));
  PT_TRY(check_same_width(x, "frac.dtype", p->src, p->dst, &es));
  PT_VERIFY(x, p->mode == PTOSIM_ND2NZ || p->mode == PTOSIM_DN2NZ, "frac.mode", "use nd2nz or dn2nz",
            "unknown layout mode %d", (int)p->mode);
  PT_TRY(check_frac_fields(x, p));
  if (p->smallc0_en) {
    PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "frac.smallc0_target", "small-C0 packing exists on A5 only",
              "smallc0_en is not supported on target %s", x->m->prof->name);
    PT_VERIFY(x, p->d_value <= 4, "frac.smallc0_d", "small-C0 mode packs at most 4 channels; clear smallc0_en",
              "smallc0_en requires d_value <= 4, got d_value = %" PRId64, p->d_value);
  }
  int64_t g = p->group_count, n = p->n_value, d = p->d_value;
  if (n == 0 || d == 0) return PTOSIM_OK;

  bool nd = p->mode == PTOSIM_ND2NZ;
  int64_t row_step = nd ? p->src_inner_stride : es, lane_step = nd ? es : p->src_inner_stride;
  int64_t scnt[2] = {g, nd ? n : d}, sstr[2] = {p->src_outer_stride, p->src_inner_stride};
  uint8_t *s, *t;
  PT_TRY(pt_region(x, PTOSIM_GM, p->src.addr, 2, scnt, sstr, (uint64_t)(nd ? d : n) * es, x->m->prof->align[PTOSIM_GM],
                   PT_READ, &s));

  /* Destination pieces in 32-byte units: (group, row, C0 block) or small-C0 (group). */
  int64_t small_bytes = (int64_t)pt_align_up((uint64_t)(n * 4 * es), PT_C0);
  int64_t dcnt[3] = {g, n, (int64_t)pt_ceil_div((uint64_t)d, PT_C0 / es)};
  int64_t dstr[3] = {p->dst_loop4_stride, p->dst_loop2_stride, p->dst_loop3_stride};
  int dn = p->smallc0_en ? 1 : 3;
  int64_t unit_len = p->smallc0_en ? small_bytes / PT_C0 : 1;
  int64_t bstr[3] = {dstr[0] * PT_C0, dstr[1] * PT_C0, dstr[2] * PT_C0};
  PT_TRY(pt_region(x, PTOSIM_L1, p->dst.addr, dn, dcnt, bstr, (uint64_t)unit_len * PT_C0, x->m->prof->align[PTOSIM_L1],
                   PT_WRITE, &t));
  bool hit;
  PT_TRY(pieces_overlap(x, dn, dcnt, dstr, unit_len, &hit));
  PT_VERIFY(x, !hit, "frac.dst_overlap", "choose dst_group strides that keep rows, C0 blocks and groups apart",
            "destination pieces overlap: group_count %" PRId64 " n_value %" PRId64 " C0 blocks %" PRId64
            " with loop4 %" PRId64 ", loop2 %" PRId64 ", loop3 %" PRId64 " (32-byte units)%s",
            g, n, dcnt[2], dstr[0], dstr[1], dstr[2], p->smallc0_en ? ", small-C0" : "");

  for (int64_t gi = 0; gi < g; gi++) {
    const uint8_t *sg = s + gi * p->src_outer_stride;
    uint8_t *tg = t + gi * bstr[0];
    if (p->smallc0_en) {
      for (int64_t r = 0; r < n; r++) fill_lanes(tg + r * 4 * es, 4 * es, sg + r * row_step, lane_step, d, es);
      memset(tg + n * 4 * es, 0, (size_t)(small_bytes - n * 4 * es));
    } else {
      (nd ? frac_nd : frac_dn)(tg, bstr[1], bstr[2], sg, p->src_inner_stride, n, d, es);
    }
  }
  return PTOSIM_OK;
}

/* ==== L1 -> L0A / L0B ====================================================================
 * The A5 instruction (load_cbuf_to_ca / _cb, "LOAD.L1.TO.L0A/B.2Dv2") works on 512-byte
 * fractals (16 rows x 32 bytes) of the L1 NZ source image; unit meanings in ops.h
 * ptosim_l0_raw_params (evidence: pto-isa npu/a5/TExtract.hpp call sites, docs/spec-notes.md 3.3).
 *   not transposed: for j < k_step, i < m_step, source fractal
 *     S(i, j) = src + ((k_start + j)*src_stride + m_start + i)*512
 *   is copied unchanged to destination fractal (row block i, column block j).
 *   transposed: element (r, c) of S(i, j), i.e. source row k = i*16 + r and column
 *     n = j*C0 + c (C0 = 32/es elements), goes to destination row n, column k:
 *     fractal (row block n / 16, column block k / C0) + (n % 16)*32 + (k % C0)*es.
 *     The hardware transposes whole 16x16 (b16), 16x16 = two 16x8 fractals (b32: k_step
 *     even) or 32x32 = two 16x32 fractals (b8: m_step even) blocks.
 * Destination fractal (row block rb, column block cb): NZ (both L0B, and L0A on A5)
 * (cb*dst_stride + rb)*512; ZZ (L0A on A2/A3, src/core/layout.h) (rb*dst_stride + cb)*512. */
typedef struct l0_ctl {
  int64_t m_start, k_start, m_step, k_step, src_stride, dst_stride;
  bool transpose;
  bool zz;
} l0_ctl;

static int64_t l0_frac_off(const l0_ctl *c, int64_t rb, int64_t cb) {
  return (c->zz ? rb * c->dst_stride + cb : cb * c->dst_stride + rb) * (int64_t)PT_FRAC_BYTES;
}

static void l0_transpose_frac(uint8_t *d, const l0_ctl *c, const uint8_t *sf, int64_t i, int64_t j, unsigned es) {
  int64_t cw = PT_C0 / es;
  for (int64_t r = 0; r < (int64_t)PT_FRAC_ROWS; r++)
    for (int64_t e = 0; e < cw; e++) {
      int64_t k = i * PT_FRAC_ROWS + r, n = j * cw + e;
      memcpy(d + l0_frac_off(c, n / PT_FRAC_ROWS, k / cw) + (n % PT_FRAC_ROWS) * PT_C0 + (k % cw) * es,
             sf + r * PT_C0 + e * es, es);
    }
}

/* Field ranges of the instruction (PTOAS VPTOLLVMEmitter.cpp packLoadCbufToCaConfig0/1:
 * 16-bit starts and strides, 8-bit steps). */
static ptosim_status check_l0_ctl(pt_ctx *x, const l0_ctl *c) {
  PT_TRY(check_range(x, "l0.range", "m_start (start_row)", c->m_start, 0, 65535));
  PT_TRY(check_range(x, "l0.range", "k_start (start_col)", c->k_start, 0, 65535));
  PT_TRY(check_range(x, "l0.range", "m_step", c->m_step, 0, 255));
  PT_TRY(check_range(x, "l0.range", "k_step", c->k_step, 0, 255));
  PT_TRY(check_range(x, "l0.range", "src_stride", c->src_stride, 0, 65535));
  return check_range(x, "l0.range", "dst_stride", c->dst_stride, 0, 65535);
}

static ptosim_status l0_run(pt_ctx *x, ptosim_ptr src, ptosim_ptr dst, unsigned es, const l0_ctl *c) {
  int64_t cw = PT_C0 / es;
  PT_TRY(check_l0_ctl(x, c));
  PT_VERIFY(x, !c->transpose || ((es != 1 || c->m_step % 2 == 0) && (es != 4 || c->k_step % 2 == 0)),
            "l0.transpose_granularity", "transpose whole blocks: 32x32 for 8-bit, 16x16 for 32-bit elements",
            "transposed %u-bit load needs an even %s, got m_step %" PRId64 ", k_step %" PRId64, es * 8,
            es == 1 ? "m_step" : "k_step", c->m_step, c->k_step);
  int64_t rb = c->transpose ? c->k_step * cw / PT_FRAC_ROWS : c->m_step; /* destination 16-row blocks */
  int64_t cb = c->transpose ? c->m_step * PT_FRAC_ROWS / cw : c->k_step; /* destination 32-byte blocks */
  int64_t scnt[2] = {c->k_step, c->m_step}, sstr[2] = {c->src_stride * PT_FRAC_BYTES, PT_FRAC_BYTES};
  int64_t dcnt[2] = {c->zz ? rb : cb, c->zz ? cb : rb}, dstr[2] = {c->dst_stride * PT_FRAC_BYTES, PT_FRAC_BYTES};
  uint8_t *s, *d;
  PT_TRY(pt_region(x, PTOSIM_L1, src.addr + (uint64_t)(c->k_start * c->src_stride + c->m_start) * PT_FRAC_BYTES, 2,
                   scnt, sstr, PT_FRAC_BYTES, x->m->prof->align[PTOSIM_L1], PT_READ, &s));
  PT_TRY(pt_region(x, dst.space, dst.addr, 2, dcnt, dstr, PT_FRAC_BYTES, x->m->prof->align[dst.space], PT_WRITE, &d));
  for (int64_t j = 0; j < c->k_step; j++)
    for (int64_t i = 0; i < c->m_step; i++) {
      const uint8_t *sf = s + (j * c->src_stride + i) * (int64_t)PT_FRAC_BYTES;
      if (c->transpose)
        l0_transpose_frac(d, c, sf, i, j, es);
      else
        memcpy(d + l0_frac_off(c, i, j), sf, PT_FRAC_BYTES);
    }
  return PTOSIM_OK;
}

/* pto.mte_l1_l0a (outer = m, kext = k) / pto.mte_l1_l0b (outer = n, kext = k). The control
 * is derived as PTOAS lowers the op (VPTOExpandWrapperOps.cpp deriveLoadCbufToCaControl /
 * deriveLoadCbufToCbControl), with start_row -> m_start and start_col -> k_start unchanged,
 * so both are in source fractal units (16 rows / 32 bytes), not elements:
 *   not transposed: m_step = src_stride = dst_stride = ceil(outer/16), k_step = ceil(kext*es/32).
 *     The source is the NZ image of the destination matrix (A for l0a, B^T for l0b) with
 *     16*ceil(outer/16) rows per column block; the destination is a fractal copy.
 *   transposed: G = max(16, C0); O = outer and K = kext rounded up to G;
 *     m_step = src_stride = K/16, k_step = O*es/32, dst_stride = O/16.
 *     The source is the NZ image of the transposed matrix (A^T for l0a, B for l0b) with K
 *     rows per column block.
 * Consequence for 8-bit transposes with outer % 32 != 0: dst_stride = O/16 spaces the
 * destination K blocks 32*O bytes apart (not 32*ceil16(outer)); the corpus fp8/hif8 MAD
 * goldens (n = 16) are only met with that spacing.
 * A2/A3 (no PTOAS lowering; by analogy): l0a is ZZ, its row pitch dst_stride = the number
 * of destination K blocks; transposed tiles must have both extents multiples of G
 * (pto-isa common/arch/memory/textract_common.hpp static_asserts), which keeps the ZZ
 * pitch equal to ceil(K/C0) as src/core/layout.h states. */
static ptosim_status l0_load(pt_ctx *x, const ptosim_l0_load_params *p, ptosim_space dspace, int64_t outer,
                             int64_t kext) {
  unsigned es;
  PT_TRY(check_spaces(x, p->src, PTOSIM_L1, p->dst, dspace));
  PT_TRY(check_same_width(x, "l0.dtype", p->src, p->dst, &es));
  PT_VERIFY(x, p->rows > 0 && p->cols > 0, "l0.shape", "tile extents are positive element counts",
            "tile extents %" PRId64 " x %" PRId64 " must be positive", p->rows, p->cols);
  /* Extents beyond 16 bits need more than the 8-bit steps of the instruction anyway
   * (255 fractals); refusing them first keeps the step arithmetic below from overflowing. */
  PT_VERIFY(x, p->rows <= 65535 && p->cols <= 65535, "l0.range", "tile extents fit the instruction's 8-bit fractal steps",
            "tile extents %" PRId64 " x %" PRId64 " exceed 65535", p->rows, p->cols);
  int64_t cw = PT_C0 / es, g = cw > 16 ? cw : 16;
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  PT_VERIFY(x, a5 || !p->transpose || (outer % g == 0 && kext % g == 0), "l0.transpose_granularity",
            "on A2/A3 transposed tiles are whole 16x16 (32x32 for 8-bit) blocks",
            "transposed %" PRId64 " x %" PRId64 " tile is not a multiple of %" PRId64 " on target %s", p->rows, p->cols,
            g, x->m->prof->name);
  l0_ctl c = {.m_start = p->start_row,
              .k_start = p->start_col,
              .transpose = p->transpose,
              .zz = dspace == PTOSIM_L0A && x->m->prof->l0a_zz};
  if (!p->transpose) {
    c.m_step = c.src_stride = c.dst_stride = (int64_t)pt_ceil_div((uint64_t)outer, PT_FRAC_ROWS);
    c.k_step = (int64_t)pt_ceil_div((uint64_t)(kext * es), PT_C0);
  } else {
    int64_t o = (int64_t)pt_align_up((uint64_t)outer, (uint64_t)g),
            k = (int64_t)pt_align_up((uint64_t)kext, (uint64_t)g);
    c.m_step = c.src_stride = k / PT_FRAC_ROWS;
    c.k_step = o * es / PT_C0;
    c.dst_stride = o / PT_FRAC_ROWS;
  }
  if (c.zz) c.dst_stride = p->transpose ? c.m_step * PT_FRAC_ROWS / cw : c.k_step;
  return l0_run(x, p->src, p->dst, es, &c);
}

ptosim_status pt_exec_mte_l1_l0a(pt_ctx *x, const ptosim_l0_load_params *p) {
  return l0_load(x, p, PTOSIM_L0A, p->rows, p->cols);
}

ptosim_status pt_exec_mte_l1_l0b(pt_ctx *x, const ptosim_l0_load_params *p) {
  return l0_load(x, p, PTOSIM_L0B, p->cols, p->rows);
}

/* Raw form: the operands are the instruction's control, A5 only (the A2/A3 load_cbuf_to_ca
 * has a different encoding: pto-isa common/arch/memory/textract_common.hpp). */
static ptosim_status l0_raw(pt_ctx *x, const ptosim_l0_raw_params *p, ptosim_space dspace) {
  unsigned es;
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "l0.raw_target",
            "this operand form is the A5 instruction; use pto.mte_l1_l0a / pto.mte_l1_l0b",
            "%s is not available on target %s", ptosim_op_spelling(x->op), x->m->prof->name);
  PT_TRY(check_spaces(x, p->src, PTOSIM_L1, p->dst, dspace));
  PT_TRY(check_same_width(x, "l0.dtype", p->src, p->dst, &es));
  l0_ctl c = {p->m_start, p->k_start, p->m_step, p->k_step, p->src_stride, p->dst_stride, p->transpose, false};
  return l0_run(x, p->src, p->dst, es, &c);
}

ptosim_status pt_exec_load_cbuf_to_ca(pt_ctx *x, const ptosim_l0_raw_params *p) { return l0_raw(x, p, PTOSIM_L0A); }

ptosim_status pt_exec_load_cbuf_to_cb(pt_ctx *x, const ptosim_l0_raw_params *p) { return l0_raw(x, p, PTOSIM_L0B); }

/* ==== MX scale loads (A5) ==================================================================
 * Copies the scale tile of `rows` rows (m for l0a_mx, n for l0b_mx) and K extent kext,
 * pt_mx_tile_bytes(rows, kext) bytes, unchanged from L1 to the scale buffer; layout and
 * addressing in src/isa/mx_layout.h. The pointer is spelled l0a / l0b (spec), the bytes go
 * to L0A_MX / L0B_MX at the same address. Scale bytes are carried in an 8-bit element type
 * (the spec's example uses f8E4M3FN). PTOAS lowers the op with steps that move more
 * boxes than the tile holds (VPTOCANN900LLVMEmitter.cpp LowerLoadCbufToCaMxOpPattern, and
 * the l0b form in VPTOExpandWrapperOps.cpp); ptosim moves exactly the tile
 * (docs/spec-notes.md 3.4).
 * The six-operand form (tonibohnlein/PTOAS) adds start_row / start_col, which its lowering
 * passes unchanged as the LOAD.MX x / y start (VPTOExpandWrapperOps.cpp
 * deriveLoadCbufToCaMxControl), with the source pitch = the tile's own boxes per row block
 * B = ceil(k / 64): the tile's box (i, j) comes from source box
 * ((start_row + i) * B + start_col + j), i.e. the tile is read contiguously from byte
 * (start_row * B + start_col) * 32 of the source (docs/spec-notes.md section 22). */
static ptosim_status mx_load(pt_ctx *x, const ptosim_mx_load_params *p, ptosim_space spelled, ptosim_space scale,
                             int64_t rows, int64_t kext) {
  PT_VERIFY(x, x->m->prof->has_mx, "mx.target", "MX scale buffers exist on A5 only", "%s is not available on target %s",
            ptosim_op_spelling(x->op), x->m->prof->name);
  PT_TRY(check_spaces(x, p->src, PTOSIM_L1, p->dst, spelled));
  PT_VERIFY(x, pt_dtype_size(p->src.dtype) == 1 && pt_dtype_size(p->dst.dtype) == 1, "mx.dtype",
            "carry the E8M0 scale bytes in an 8-bit element type", "scale element types %s -> %s are not 8-bit",
            pt_dtype_name(p->src.dtype), pt_dtype_name(p->dst.dtype));
  PT_TRY(check_range(x, "mx.range", "scale rows", rows, 1, 255 * 16));
  PT_TRY(check_range(x, "mx.range", "K extent", kext, 1, 255 * 32));
  PT_TRY(check_range(x, "mx.range", "start_row", p->start_row, 0, 65535));
  PT_TRY(check_range(x, "mx.range", "start_col", p->start_col, 0, 65535));
  uint64_t bytes = pt_mx_tile_bytes((uint64_t)rows, (uint64_t)kext);
  uint64_t from = ((uint64_t)p->start_row * pt_mx_boxes_per_row((uint64_t)kext) + (uint64_t)p->start_col) * PT_MX_BOX_BYTES;
  uint8_t *s, *d;
  PT_TRY(pt_span(x, PTOSIM_L1, p->src.addr + from, bytes, x->m->prof->align[PTOSIM_L1], PT_READ, &s));
  PT_TRY(pt_span(x, scale, p->dst.addr, bytes, x->m->prof->align[scale], PT_WRITE, &d));
  memcpy(d, s, bytes);
  return PTOSIM_OK;
}

ptosim_status pt_exec_mte_l1_l0a_mx(pt_ctx *x, const ptosim_mx_load_params *p) {
  return mx_load(x, p, PTOSIM_L0A, PTOSIM_L0A_MX, p->a, p->b);
}

ptosim_status pt_exec_mte_l1_l0b_mx(pt_ctx *x, const ptosim_mx_load_params *p) {
  return mx_load(x, p, PTOSIM_L0B, PTOSIM_L0B_MX, p->b, p->a);
}

/* ==== pto.mte_l1_bt / pto.mte_l1_fb ========================================================
 * Burst copy with gaps: burst b < count moves len_burst units; source and destination
 * advance by (len_burst + gap) units per burst (spec). Field ranges: 12-bit count, 16-bit
 * len and gaps (PTOAS VPTOLLVMEmitter.cpp packCopyCbufToBtConfig / packCopyCbufToFbufConfig).
 * Unit sizes follow the hardware code, not the spec sentence "each unit is the bias-element
 * width" (docs/spec-notes.md 5; PTOAS passes len_burst unchanged to the instruction):
 *   bias-load unit      = 32 bytes of source on A5 (pto-isa npu/a5/TMov.hpp TMovToBt, shift 5),
 *                         64 bytes on A2/A3 (npu/a2a3/TMov.hpp BURST_LEN_UNIT);
 *   parameter-load unit = 64 bytes on A5 (TMovToFb, shift 6), 128 bytes on A2/A3.
 * BT holds one 32-bit value per channel: a unit of u = unit / es source elements fills
 * u*4 destination bytes, f16 / bf16 widened exactly to f32 (PTOAS sets the f16 conversion
 * bit for every f16 source; bf16 is always widened), 32-bit values copied. */
static ptosim_status gap_copy(pt_ctx *x, const ptosim_gap_copy_params *p, ptosim_space dspace, const char *rule,
                              int64_t src_unit, int64_t dst_unit, ptosim_dtype widen_from) {
  PT_TRY(check_spaces(x, p->src, PTOSIM_L1, p->dst, dspace));
  PT_TRY(check_range(x, rule, "len_burst", p->len_burst, 0, 65535));
  PT_TRY(check_range(x, rule, "nburst count", p->count, 0, 4095));
  PT_TRY(check_range(x, rule, "src_gap", p->src_gap, 0, 65535));
  PT_TRY(check_range(x, rule, "dst_gap", p->dst_gap, 0, 65535));
  int64_t slen = p->len_burst * src_unit, sadv = (p->len_burst + p->src_gap) * src_unit;
  int64_t dlen = p->len_burst * dst_unit, dadv = (p->len_burst + p->dst_gap) * dst_unit;
  uint8_t *s, *d;
  PT_TRY(pt_region(x, PTOSIM_L1, p->src.addr, 1, &p->count, &sadv, (uint64_t)slen, x->m->prof->align[PTOSIM_L1],
                   PT_READ, &s));
  PT_TRY(
      pt_region(x, dspace, p->dst.addr, 1, &p->count, &dadv, (uint64_t)dlen, x->m->prof->align[dspace], PT_WRITE, &d));
  for (int64_t b = 0; b < p->count; b++) {
    const uint8_t *sb = s + b * sadv;
    uint8_t *db = d + b * dadv;
    if (widen_from == PTOSIM_DT_NONE) {
      memcpy(db, sb, (size_t)slen);
      continue;
    }
    for (int64_t e = 0; e < slen / 2; e++) {
      uint16_t h;
      memcpy(&h, sb + 2 * e, 2);
      float f = widen_from == PTOSIM_DT_F16 ? pt_f16_to_f32(h) : pt_bf16_to_f32(h);
      memcpy(db + 4 * e, &f, 4);
    }
  }
  return PTOSIM_OK;
}

static bool is_i32(ptosim_dtype t) { return t == PTOSIM_DT_I32 || t == PTOSIM_DT_U32; }

ptosim_status pt_exec_mte_l1_bt(pt_ctx *x, const ptosim_gap_copy_params *p) {
  ptosim_dtype s = p->src.dtype, d = p->dst.dtype;
  PT_VERIFY(x,
            (is_i32(s) && is_i32(d)) ||
                (d == PTOSIM_DT_F32 && (s == PTOSIM_DT_F32 || s == PTOSIM_DT_F16 || s == PTOSIM_DT_BF16)),
            "bt.dtype", "supported pairs: f32->f32, i32->i32, f16->f32, bf16->f32",
            "bias type pair %s -> %s is not supported", pt_dtype_name(s), pt_dtype_name(d));
  int64_t unit = x->m->target == PTOSIM_TARGET_A5 ? 32 : 64, es = pt_dtype_size(s);
  return gap_copy(x, p, PTOSIM_BT, "bt.range", unit, unit / es * 4, es == 2 ? s : PTOSIM_DT_NONE);
}

/* The destination is located by pt_fb_addr (16-bit FB address field), as for the FIXPIPE
 * payloads that read it. */
ptosim_status pt_exec_mte_l1_fb(pt_ctx *x, const ptosim_gap_copy_params *p) {
  int64_t unit = x->m->target == PTOSIM_TARGET_A5 ? 64 : 128;
  ptosim_gap_copy_params q = *p;
  q.dst.addr = pt_fb_addr(q.dst.addr);
  return gap_copy(x, &q, PTOSIM_FB, "fb.range", unit, unit, PTOSIM_DT_NONE);
}
