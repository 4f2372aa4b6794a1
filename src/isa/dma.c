/* DMA family: burst copies between GM, UB and L1 (src/isa/ops.def "DMA" rows).
 *
 * Every op is lowered to one transfer description (`xfer`): a row of `len` bytes repeated
 * over up to 1 + PTOSIM_MAX_LOOPS levels, level 0 innermost, each level with a count and
 * a source / destination start-to-start stride in bytes. One engine (run) checks the
 * regions through the accessor layer and copies. Operand units per op:
 *   mte_gm_ub, mte_ub_gm, mte_gm_l1 and their legacy forms: bytes, start-to-start strides
 *     (vpto docs/isa/micro-isa/02-dma-copy.md "Grouped DMA Burst / Stride / Pad Model",
 *     16-cube-matmul.md "Cube Burst / Loop Addressing Model").
 *   mte_ub_ub, mte_ub_l1, copy_ubuf_to_{ubuf,cbuf}, copy_cbuf_to_ubuf: len and gaps in
 *     32-byte blocks; next burst = previous + (len + gap) * 32 (02-dma-copy.md "UB Copy
 *     Burst / Step Model").
 *   mte_l1_ub: nburst(...) in the same 32-byte block / gap units, loop(...) in bytes.
 *     16-cube-matmul.md says bytes throughout, but PTOAS lowers the nburst group
 *     unchanged to copy_cbuf_to_ubuf (VPTOExpandWrapperOps.cpp ExpandCubeStorePattern) and
 *     the hardware goldens need the block reading: the cv-mixed fixpipe-*-ub-cv cases move
 *     a 40 x 64 f16 tile with `mte_l1_ub ... 128 nburst(40, 0, 0)` (docs/spec-notes.md 7.1).
 *
 * Overlapping source and destination (UB -> UB) behave as the spec's loop of memcpy: row
 * after row, each row read completely before it is written. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "isa/fixpipe_quant.h"
#include "isa/isa.h"

#define BLK 32 /* bytes: UB/L1 block, unit of gap-model lengths, UB row alignment */
#define MAX_LEVELS (1 + PTOSIM_MAX_LOOPS)
#define FULL 63 /* field width meaning "any non-negative i64" */

typedef struct xfer {
  ptosim_core *src_core, *dst_core; /* cores owning the spaces (GM: the issuing core) */
  ptosim_space src_space, dst_space;
  uint64_t src_base, dst_base; /* operand addresses, checked for alignment */
  uint64_t src_addr, dst_addr; /* first byte of row 0 */
  int64_t len;    /* bytes read per row */
  int nd;         /* levels, [0] innermost */
  int64_t count[MAX_LEVELS];
  int64_t sstride[MAX_LEVELS], dstride[MAX_LEVELS]; /* bytes */
  unsigned salign, dalign; /* required multiple of a stride that is used (count > 1), 0: none */
  /* Row layout at the destination: data at data_off, `wlen` bytes written per row. With
   * fill, the bytes of [0, wlen) outside the data get the pad pattern, whose byte i is
   * pat[i % BLK] counted from the row start. */
  int64_t data_off, wlen;
  int fill;
  uint8_t pat[BLK];
  ptosim_atomic_op atomic;  /* MTE3 UB -> GM under the GM atomic mode: rows combine */
  ptosim_dtype atomic_type; /* element-wise, gm = op(gm, ub) (pt_fq_atomic) */
} xfer;

/* Field widths of one (count, src stride, dst stride) group, in bits. */
typedef struct widths {
  unsigned count, src, dst;
} widths;

/* ---- operand checks ------------------------------------------------------------------- */

static int fits(int64_t v, unsigned bits) {
  return v >= 0 && (uint64_t)v <= (bits >= FULL ? (uint64_t)INT64_MAX : (1ull << bits) - 1);
}

static ptosim_status field_fail(pt_ctx *x, const char *what, int64_t v, unsigned bits) {
  uint64_t max = bits >= FULL ? (uint64_t)INT64_MAX : (1ull << bits) - 1;
  return pt_fail(x, PTOSIM_E_VERIFY, "dma.field", "the value is encoded in a fixed-width unsigned field: split the transfer",
                 "%s = %" PRId64 " does not fit its %u-bit field [0, %" PRIu64 "]", what, v, bits, max);
}

static ptosim_status field(pt_ctx *x, const char *what, int64_t v, unsigned bits) {
  return fits(v, bits) ? PTOSIM_OK : field_fail(x, what, v, bits);
}

/* A (count, src, dst) group; `name` (with index `idx` >= 0, e.g. loop[3]) and `step`
 * ("stride" or "gap") name it in a message, which is formatted only on failure. */
static ptosim_status group(pt_ctx *x, const char *name, int idx, const char *step, int64_t count, int64_t src,
                           int64_t dst, widths w) {
  if (fits(count, w.count) && fits(src, w.src) && fits(dst, w.dst)) return PTOSIM_OK;
  char what[64], gname[24];
  if (idx >= 0) snprintf(gname, sizeof gname, "%s[%d]", name, idx);
  else snprintf(gname, sizeof gname, "%s", name);
  snprintf(what, sizeof what, "%s count", gname);
  PT_TRY(field(x, what, count, w.count));
  snprintf(what, sizeof what, "%s src %s", gname, step);
  PT_TRY(field(x, what, src, w.src));
  snprintf(what, sizeof what, "%s dst %s", gname, step);
  return field(x, what, dst, w.dst);
}

/* Element type of a pointer must have a byte width, and source and destination widths
 * must match (PTOAS VPTO.cpp verifyCopyGmToUbufOp / verifyCopyUbufToGmOp /
 * verifyCopyCbufToUbufLikeOp). */
static ptosim_status elem_widths(pt_ctx *x, ptosim_ptr src, ptosim_ptr dst) {
  PT_VERIFY(x, pt_dtype_bits(src.dtype) && pt_dtype_bits(dst.dtype), "dma.dtype", "give both pointers an element type",
            "pointer element type is missing (src %s, dst %s)", pt_dtype_name(src.dtype), pt_dtype_name(dst.dtype));
  PT_VERIFY(x, pt_dtype_bits(src.dtype) == pt_dtype_bits(dst.dtype), "dma.elem_width",
            "use element types of the same width on both sides", "src element %s and dst element %s differ in width",
            pt_dtype_name(src.dtype), pt_dtype_name(dst.dtype));
  return PTOSIM_OK;
}

static ptosim_status spaces(pt_ctx *x, ptosim_ptr src, ptosim_space ss, ptosim_ptr dst, ptosim_space ds) {
  PT_TRY(pt_expect_space(x, "source", src, ss));
  return pt_expect_space(x, "destination", dst, ds);
}

/* UB <-> L1 moves exist on A5 only (docs/spec-notes.md 1.3: pto-isa never uses them on
 * A2/A3, whose TMOV has no Vec <-> Mat pair). */
static ptosim_status ub_l1_path(pt_ctx *x) {
  PT_VERIFY(x, x->m->prof->has_ub_l1, "dma.path", "stage through GM on this target",
            "target %s has no data path between UB and L1", x->m->prof->name);
  return PTOSIM_OK;
}

/* ---- transfer description --------------------------------------------------------------- */

/* The core whose memory `s` is: UB of vector sub-block `sub` seen from the cube core, L1
 * of the cluster's cube core seen from a vector core, else the issuing core. The owner
 * names the memory in the event stream. */
static ptosim_core *owner(pt_ctx *x, ptosim_space s, int sub) {
  ptosim_core_kind k = x->core->kind;
  if (s == PTOSIM_UB && k == PTOSIM_AIC) k = sub ? PTOSIM_AIV1 : PTOSIM_AIV0;
  if (s == PTOSIM_L1) k = PTOSIM_AIC;
  return k == x->core->kind ? x->core : ptosim_core_of(x->m, x->core->block, k);
}

/* The scalar fields; the level arrays are used up to nd and the pattern only with fill,
 * so they are left unset (clearing the whole description cost more than the copy). */
static void init(pt_ctx *x, xfer *t, ptosim_ptr src, ptosim_ptr dst, int64_t len, int sub) {
  t->nd = 0;
  t->salign = t->dalign = 0;
  t->data_off = 0;
  t->fill = 0;
  t->atomic = PTOSIM_ATOMIC_NONE;
  t->src_space = src.space;
  t->dst_space = dst.space;
  t->src_core = owner(x, src.space, sub);
  t->dst_core = owner(x, dst.space, sub);
  t->src_base = t->src_addr = src.addr;
  t->dst_base = t->dst_addr = dst.addr;
  t->len = t->wlen = len;
}

static void level(xfer *t, int64_t count, int64_t sstride, int64_t dstride) {
  t->count[t->nd] = count;
  t->sstride[t->nd] = sstride;
  t->dstride[t->nd] = dstride;
  t->nd++;
}

/* A burst group in 32-byte blocks with gaps, as level 0 of t (lengths already verified
 * to fit 16 bits, so no overflow). */
static void gap_burst(pt_ctx *x, xfer *t, ptosim_ptr src, ptosim_ptr dst, int64_t n, int64_t len, int64_t sgap,
                      int64_t dgap, int sub) {
  init(x, t, src, dst, len * BLK, sub);
  level(t, n, (len + sgap) * BLK, (len + dgap) * BLK);
}

/* Pad unit in bytes for a destination element type: the element size, except 64-bit
 * elements, which the hardware moves as pairs of 32-bit words (PTOAS picks
 * MOV_OUT_TO_UB_ALIGN_V2.s32 for them, VPTOLLVMEmitter.cpp buildCopyGmToUbCallee;
 * pto-isa A2/A3 TLoad doubles the pad count), 0 when padding is impossible (4-bit). */
static unsigned pad_unit(ptosim_dtype t) {
  unsigned bits = pt_dtype_bits(t);
  return bits == 64 ? 4 : bits >= 8 ? bits / 8 : 0;
}

/* GM -> UB row padding (02-dma-copy.md "Alignment Constraints", pto-isa
 * docs/isa/scalar/ops/dma-copy/copy-gm-to-ubuf.md "Mechanism"): each UB row is
 *   [left * u bytes of pad][len_burst bytes of data][right * u bytes of pad]
 * and, when padding is on, the row continues with pad up to the next 32-byte boundary
 * (u = pad_unit of the destination type). The counts are in elements, not bytes (pto-isa
 * A2/A3 TLoadGm2ubNd2nd passes right = (cols - valid) % (32 / es) elements; the legacy
 * page's "bytes" is not what the hardware takes). The micro-isa loop pseudo-code fills up
 * to dst_stride instead; the prose of both spec pages and the hardware usage (A5 TLOAD
 * relies on the 32-byte fill with zero counts) say 32-byte boundary, which is what we do.
 * With padding off (legacy data_select = false) the data still lands after the left count
 * and pad positions keep their old bytes (the hardware leaves them unspecified). */
static ptosim_status set_pad(pt_ctx *x, xfer *t, ptosim_dtype dtype, int fill, uint64_t bits, int64_t left,
                             int64_t right) {
  unsigned u = pad_unit(dtype);
  PT_VERIFY(x, u || (!fill && !left && !right), "dma.pad_dtype", "pad 8-, 16-, 32- or 64-bit element types",
            "UB rows of %s elements cannot be padded", pt_dtype_name(dtype));
  PT_VERIFY(x, !fill || bits >> (8 * u) == 0, "dma.pad_value", "pass the bit pattern of one element",
            "pad value 0x%" PRIx64 " is wider than the %u-byte pad element", bits, u);
  t->fill = fill;
  if (!fill) {
    t->dst_addr += (uint64_t)(left * u);
    return PTOSIM_OK;
  }
  t->data_off = left * u;
  t->wlen = (int64_t)pt_align_up((uint64_t)(t->data_off + t->len + right * u), BLK);
  for (unsigned i = 0; i < BLK; i++) t->pat[i] = (uint8_t)(bits >> (8 * (i % u)));
  return PTOSIM_OK;
}

/* ---- the engine ---------------------------------------------------------------------------- */

static void remove_level(xfer *t, int i) {
  for (int j = i + 1; j < t->nd; j++) {
    t->count[j - 1] = t->count[j];
    t->sstride[j - 1] = t->sstride[j];
    t->dstride[j - 1] = t->dstride[j];
  }
  t->nd--;
}

/* Drop levels that run once (their strides are never used); keep at least one. */
static void squeeze(xfer *t) {
  for (int i = t->nd - 1; i >= 0 && t->nd > 1; i--)
    if (t->count[i] == 1) remove_level(t, i);
}

/* Rows are plain copies between memories that cannot overlap: their order and grouping
 * are unobservable. */
static int plain(const xfer *t) { return !t->fill && (t->src_space != t->dst_space || t->src_core != t->dst_core); }

/* Merge rows that are contiguous on both sides into longer rows, and adjacent levels that
 * continue each other, so long transfers become few large copies. Runs on a non-empty
 * transfer whose regions passed the accessor, so every count * stride is below 2^62;
 * only products of counts need a guard (zero strides chain at any count). */
static void coalesce(xfer *t) {
  if (!plain(t)) return;
  while (t->sstride[0] == t->len && t->dstride[0] == t->len) {
    t->len *= t->count[0];
    if (t->nd == 1) {
      t->count[0] = 1;
      break;
    }
    remove_level(t, 0);
  }
  t->wlen = t->len;
  for (int i = 0; i + 1 < t->nd;) {
    if (t->count[i] <= INT64_MAX / t->count[i + 1] && t->sstride[i + 1] == t->count[i] * t->sstride[i] &&
        t->dstride[i + 1] == t->count[i] * t->dstride[i]) {
      t->count[i] *= t->count[i + 1];
      remove_level(t, i + 1);
    } else {
      i++;
    }
  }
}

/* UB-side strides that are used (count > 1) keep every row 32-byte aligned (02-dma-copy.md
 * "UB addresses (both source and destination) must be 32-byte aligned"). */
static ptosim_status stride_align(pt_ctx *x, const xfer *t) {
  for (int i = 0; i < t->nd; i++) {
    if (t->count[i] <= 1) continue;
    PT_VERIFY(x, !t->salign || t->sstride[i] % t->salign == 0, "dma.stride_align",
              "every UB row starts on a 32-byte boundary: round the stride up",
              "source stride %" PRId64 " of level %d (0 = nburst) is not a multiple of %u", t->sstride[i], i, t->salign);
    PT_VERIFY(x, !t->dalign || t->dstride[i] % t->dalign == 0, "dma.stride_align",
              "every UB row starts on a 32-byte boundary: round the stride up",
              "destination stride %" PRId64 " of level %d (0 = nburst) is not a multiple of %u", t->dstride[i], i,
              t->dalign);
  }
  return PTOSIM_OK;
}

/* Bytes [from, to) of a destination row get the pad pattern. */
static void fill(uint8_t *row, int64_t from, int64_t to, const uint8_t *pat) {
  while (from < to) {
    int64_t n = BLK - from % BLK;
    if (n > to - from) n = to - from;
    memcpy(row + from, pat + from % BLK, (size_t)n);
    from += n;
  }
}

/* The level 0 rows at byte offsets so (source) and dof (destination). The source base is
 * not offset when nothing is read: a zero-length GM region has no host pointer. Returns
 * non-zero when the run was interrupted (a level may hold up to 2^63 rows of zero stride). */
static int rows(const pt_ctx *x, const xfer *t, uint8_t *d, const uint8_t *s, int64_t so, int64_t dof) {
  int64_t n = t->count[0], ss = t->sstride[0], ds = t->dstride[0], len = t->len;
  int copy_only = plain(t); /* decided once per transfer, not per row */
  unsigned es = t->atomic ? pt_dtype_size(t->atomic_type) : 0;
  for (int64_t r = 0; r < n; r++) {
    if (!(r & 0xFFFF) && *x->m->stop) return 1;
    if (es) {
      for (int64_t i = 0; i < len; i += es) pt_fq_atomic(t->atomic_type, t->atomic, d + dof + r * ds + i, s + so + r * ss + i);
      continue;
    }
    if (copy_only) {
      memcpy(d + dof + r * ds, s + so + r * ss, (size_t)len);
      continue;
    }
    uint8_t *row = d + dof + r * ds;
    if (len) memmove(row + t->data_off, s + so + r * ss, (size_t)len);
    if (!t->fill) continue;
    fill(row, 0, t->data_off, t->pat);
    fill(row, t->data_off + len, t->wlen, t->pat);
  }
  return 0;
}

/* Operand base address alignment (the profile's tile alignment, 32 bytes for UB and L1). */
static ptosim_status aligned(pt_ctx *x, ptosim_core *c, ptosim_space s, uint64_t addr) {
  uint8_t *unused;
  return pt_span_on(x, c, s, addr, 0, s == PTOSIM_GM ? 1 : x->m->prof->align[s], PT_READ, &unused);
}

static ptosim_status interrupted(pt_ctx *x) {
  return pt_fail(x, PTOSIM_E_FAULT, "run.interrupted", "the run was asked to stop", "interrupted inside the transfer");
}

/* The common transfer, one level of rows between local memories, when every check of
 * the general path below passes: the same checks without diagnostics (pt_local_span),
 * the same bookkeeping and the same rows. Returns 1 when done, -1 when interrupted, 0
 * when a check fails or the transfer is of another kind: then the general path runs and
 * reports. */
static int direct(pt_ctx *x, xfer *t) {
  int64_t n = t->count[0], ss = t->sstride[0], ds = t->dstride[0];
  if (t->nd != 1 || n <= 0 || t->wlen <= 0 || t->fill || t->atomic || x->m->verify_only) return 0;
  if (n > 1 && ((t->salign && ss % t->salign) || (t->dalign && ds % t->dalign))) return 0; /* stride_align */
  uint64_t rest = (uint64_t)(n - 1), lim = (UINT64_MAX / 4) / (rest ? rest : 1);
  if ((uint64_t)ss > lim || (uint64_t)ds > lim) return 0; /* pt_region_on's overflow guard */
  ptosim_space sp = t->src_space, dp = t->dst_space;
  const pt_profile *prof = x->m->prof;
  uint8_t *s = pt_local_span(x, t->src_core, sp, t->src_addr, (uint64_t)t->len + rest * (uint64_t)ss, 1);
  uint8_t *d = pt_local_span(x, t->dst_core, dp, t->dst_addr, (uint64_t)t->wlen + rest * (uint64_t)ds, 1);
  if (!s || !d || !pt_local_span(x, t->src_core, sp, t->src_base, 0, prof->align[sp]) ||
      !pt_local_span(x, t->dst_core, dp, t->dst_base, 0, prof->align[dp]))
    return 0;
  pt_region_note(x, t->src_core, sp, t->src_addr, 1, t->count, t->sstride, (uint64_t)t->len, PT_READ, s);
  pt_region_note(x, t->dst_core, dp, t->dst_addr, 1, t->count, t->dstride, (uint64_t)t->wlen, PT_WRITE, d);
  coalesce(t);
  return rows(x, t, d, s, 0, 0) ? -1 : 1;
}

/* Check both regions (bounding boxes through the accessor layer; the event records the
 * levels as the op states them, minus single-iteration ones), then copy level 0 rows for
 * every index of the outer levels, odometer style, with byte offsets from the bases. */
static ptosim_status run(pt_ctx *x, xfer *t) {
  int fast = direct(x, t);
  if (fast) return fast > 0 ? PTOSIM_OK : interrupted(x);
  PT_TRY(stride_align(x, t));
  int none = t->wlen == 0;
  for (int i = 0; i < t->nd; i++) none |= t->count[i] == 0;
  if (!none) squeeze(t);
  uint8_t *s, *d;
  PT_TRY(aligned(x, t->src_core, t->src_space, t->src_base));
  PT_TRY(aligned(x, t->dst_core, t->dst_space, t->dst_base));
  PT_TRY(pt_region_on(x, t->src_core, t->src_space, t->src_addr, t->nd, t->count, t->sstride, (uint64_t)t->len, 1,
                      PT_READ, &s));
  PT_TRY(pt_region_on(x, t->dst_core, t->dst_space, t->dst_addr, t->nd, t->count, t->dstride, (uint64_t)t->wlen, 1,
                      t->atomic ? PT_WRITE | PT_ATOMIC : PT_WRITE, &d));
  /* A verify-only run (ptosim check) has checked the regions: copying would only cost time
   * (16 loop groups of 2^21 - 1 iterations would never end). */
  if (none || x->m->verify_only) return PTOSIM_OK;
  coalesce(t);
  int64_t idx[MAX_LEVELS] = {0}, so = 0, dof = 0;
  for (;;) {
    if (rows(x, t, d, s, so, dof)) return interrupted(x); /* an interrupt reaches a transfer that long too */
    int l = 1;
    for (; l < t->nd; l++) {
      so += t->sstride[l];
      dof += t->dstride[l];
      if (++idx[l] < t->count[l]) break;
      so -= t->count[l] * t->sstride[l];
      dof -= t->count[l] * t->dstride[l];
      idx[l] = 0;
    }
    if (l == t->nd) return PTOSIM_OK;
  }
}

/* ---- grouped ops (v0.6 surface) --------------------------------------------------------- */

/* The field widths and unit rules of one grouped op. */
typedef struct grouped_rules {
  ptosim_space src, dst;
  unsigned len_bits;
  widths nburst, loop;
  int gap_burst;           /* nburst(...) in 32-byte blocks with gaps (mte_l1_ub) */
  int has_cache_pad;       /* l2_cache_ctl and pad(...) exist (mte_gm_ub) */
  unsigned salign, dalign; /* stride multiples on each side */
} grouped_rules;

static ptosim_status grouped(pt_ctx *x, const ptosim_dma_params *p, const grouped_rules *r, xfer *t) {
  PT_TRY(spaces(x, p->src, r->src, p->dst, r->dst));
  PT_TRY(elem_widths(x, p->src, p->dst));
  PT_VERIFY(x, p->nloops >= 0 && p->nloops <= PTOSIM_MAX_LOOPS, "dma.nloops", "use at most 16 loop(...) groups",
            "%d loop groups (at most %d)", p->nloops, PTOSIM_MAX_LOOPS);
  PT_VERIFY(x, r->has_cache_pad || (!p->has_pad && !p->left_pad && !p->right_pad && !p->l2_cache_ctl), "dma.clause",
            "pad(...) and l2_cache_ctl belong to pto.mte_gm_ub only", "this op has no pad(...) clause or cache control");
  PT_TRY(field(x, "len_burst", p->len_burst, r->len_bits));
  PT_TRY(group(x, "nburst", -1, r->gap_burst ? "gap" : "stride", p->nburst.count, p->nburst.src_stride,
               p->nburst.dst_stride, r->nburst));
  for (int i = 0; i < p->nloops; i++)
    PT_TRY(group(x, "loop", i, "stride", p->loops[i].count, p->loops[i].src_stride, p->loops[i].dst_stride, r->loop));
  if (r->gap_burst)
    gap_burst(x, t, p->src, p->dst, p->nburst.count, p->len_burst, p->nburst.src_stride, p->nburst.dst_stride, 0);
  else {
    init(x, t, p->src, p->dst, p->len_burst, 0);
    level(t, p->nburst.count, p->nburst.src_stride, p->nburst.dst_stride);
  }
  for (int i = 0; i < p->nloops; i++) level(t, p->loops[i].count, p->loops[i].src_stride, p->loops[i].dst_stride);
  t->salign = r->salign;
  t->dalign = r->dalign;
  return PTOSIM_OK;
}

/* Widths: 02-dma-copy.md parameter tables (GM strides 40 bits, UB strides and loop
 * counts 21 bits, burst count and length 16 bits, pad counts 8 bits, cache control 2). */
ptosim_status pt_exec_mte_gm_ub(pt_ctx *x, const ptosim_dma_params *p) {
  static const grouped_rules r = {PTOSIM_GM, PTOSIM_UB, 16, {16, 40, 21}, {21, 40, 21}, 0, 1, 0, BLK};
  xfer t;
  PT_TRY(grouped(x, p, &r, &t));
  PT_TRY(field(x, "l2_cache_ctl", p->l2_cache_ctl, 2));
  PT_TRY(field(x, "left_padding_count", p->left_pad, 8));
  PT_TRY(field(x, "right_padding_count", p->right_pad, 8));
  PT_VERIFY(x, p->has_pad || (!p->left_pad && !p->right_pad), "dma.pad_counts", "add pad(%value, %left, %right)",
            "padding counts (%" PRId64 ", %" PRId64 ") without a pad(...) clause", p->left_pad, p->right_pad);
  PT_TRY(set_pad(x, &t, p->dst.dtype, p->has_pad, p->pad_bits, p->left_pad, p->right_pad));
  return run(x, &t);
}

/* The GM atomic mode (PT_SREG_ATOMIC, pto.set_atomic_*) of an MTE3 UB -> GM copy: with an
 * operation set, every row is combined element-wise into GM, so rows and their GM
 * addresses are whole elements of the atomic type. */
static ptosim_status gm_atomic(pt_ctx *x, xfer *t) {
  if (x->m->verify_only) return PTOSIM_OK; /* ptosim check does not know the register: its rules wait for the run */
  uint64_t v = pt_sreg_get(x, PT_SREG_ATOMIC);
  t->atomic = (ptosim_atomic_op)(v & 0xFF);
  if (t->atomic == PTOSIM_ATOMIC_NONE) return PTOSIM_OK;
  t->atomic_type = (ptosim_dtype)(v >> 8 & 0xFF);
  unsigned es = pt_dtype_size(t->atomic_type);
  PT_VERIFY(x, es, "dma.atomic", "set the element type with pto.set_atomic_f32 / _f16 / _bf16 / _s32 / _s16 / _s8",
            "an atomic operation is set without an element type");
  int whole = t->len % es == 0 && t->dst_addr % es == 0;
  for (int i = 0; i < t->nd; i++) whole &= t->dstride[i] % (int64_t)es == 0;
  PT_VERIFY(x, whole, "dma.atomic", "use lengths, GM addresses and strides that are whole elements of the atomic type",
            "an atomic %s copy of %" PRId64 "-byte rows at GM 0x%" PRIx64 " splits elements", pt_dtype_name(t->atomic_type), t->len,
            t->dst_addr);
  return PTOSIM_OK;
}

ptosim_status pt_exec_mte_ub_gm(pt_ctx *x, const ptosim_dma_params *p) {
  static const grouped_rules r = {PTOSIM_UB, PTOSIM_GM, 16, {16, 21, 40}, {21, 21, 40}, 0, 0, BLK, 0};
  xfer t;
  PT_TRY(grouped(x, p, &r, &t));
  PT_TRY(gm_atomic(x, &t));
  return run(x, &t);
}

/* 16-cube-matmul.md types every operand i64; the widths are those of the instruction PTOAS
 * emits, MOV_OUT_TO_L1_ALIGN_V2 (VPTOLLVMEmitter.cpp packCopyGmToCbufConfig0/1: burst count
 * and length 21 bits, GM stride 40, L1 stride 21; loops in the LOOP*_OUTTOL1 layout). */
ptosim_status pt_exec_mte_gm_l1(pt_ctx *x, const ptosim_dma_params *p) {
  static const grouped_rules r = {PTOSIM_GM, PTOSIM_L1, 21, {21, 40, 21}, {21, 40, 21}, 0, 0, 0, 0};
  xfer t;
  PT_TRY(grouped(x, p, &r, &t));
  return run(x, &t);
}

/* Widths of copy_cbuf_to_ubuf (packCopyCbufToUbConfig: burst count 12 bits, length and
 * gaps 16); loops are software loops in bytes over 32-byte aligned addresses. The UB is
 * the one of vector sub-block 0 (PTOAS passes sid 0). */
ptosim_status pt_exec_mte_l1_ub(pt_ctx *x, const ptosim_dma_params *p) {
  static const grouped_rules r = {PTOSIM_L1, PTOSIM_UB, 16, {12, 16, 16}, {FULL, FULL, FULL}, 1, 0, BLK, BLK};
  xfer t;
  PT_TRY(ub_l1_path(x));
  PT_TRY(grouped(x, p, &r, &t));
  return run(x, &t);
}

/* mte_ub_ub / mte_ub_l1: 02-dma-copy.md tables, every field 16 bits. */
static ptosim_status gap_op(pt_ctx *x, const ptosim_gap_copy_params *p, ptosim_space dst) {
  static const widths w = {16, 16, 16};
  PT_TRY(spaces(x, p->src, PTOSIM_UB, p->dst, dst));
  PT_TRY(field(x, "len_burst", p->len_burst, 16));
  PT_TRY(group(x, "nburst", -1, "gap", p->count, p->src_gap, p->dst_gap, w));
  xfer t;
  gap_burst(x, &t, p->src, p->dst, p->count, p->len_burst, p->src_gap, p->dst_gap, 0);
  return run(x, &t);
}

ptosim_status pt_exec_mte_ub_ub(pt_ctx *x, const ptosim_gap_copy_params *p) { return gap_op(x, p, PTOSIM_UB); }

ptosim_status pt_exec_mte_ub_l1(pt_ctx *x, const ptosim_gap_copy_params *p) {
  PT_TRY(ub_l1_path(x));
  return gap_op(x, p, PTOSIM_L1);
}

/* ---- loop registers ---------------------------------------------------------------------- *
 * Stride registers hold the GM-side stride in bits [39:0] and the UB/L1-side stride in bits
 * [60:40] (pto-isa a5 TLoad.hpp / TStore.hpp). Size registers hold loop1 in [20:0] and
 * loop2 in [41:21]; WRITTEN marks a size register that was set (an unwritten one reads as
 * the reset value 1 x 1, which pto-isa restores after every use). */
#define WRITTEN (1ull << 63)
#define LOW40 ((1ull << 40) - 1)
#define LOW21 ((1ull << 21) - 1)

static uint64_t stride_reg(uint64_t gm, uint64_t local) { return local << 40 | gm; }

/* Append the two hardware loops (loop1 inner, loop2 outer) of a register set to t.
 * gm_is_src: the GM-side stride is the source stride. */
static void reg_loops(pt_ctx *x, xfer *t, pt_sreg size, pt_sreg l1, pt_sreg l2, int gm_is_src) {
  uint64_t sz = pt_sreg_get(x, size);
  if (!(sz & WRITTEN)) sz = 1ull << 21 | 1;
  const pt_sreg strides[2] = {l1, l2};
  for (int i = 0; i < 2; i++) {
    uint64_t r = pt_sreg_get(x, strides[i]);
    int64_t gm = (int64_t)(r & LOW40), local = (int64_t)(r >> 40);
    level(t, (int64_t)(sz >> (21 * i) & LOW21), gm_is_src ? gm : local, gm_is_src ? local : gm);
  }
}

static ptosim_status set_size(pt_ctx *x, const ptosim_loop_size_params *p, pt_sreg r) {
  PT_TRY(field(x, "loop1 count", p->loop1_count, 21));
  PT_TRY(field(x, "loop2 count", p->loop2_count, 21));
  x->core->sreg[r] = WRITTEN | (uint64_t)p->loop2_count << 21 | (uint64_t)p->loop1_count;
  return PTOSIM_OK;
}

/* Widths from docs/isa-legacy/02-dma-copy.md (GM 40 bits, UB 21 bits). */
static ptosim_status set_stride(pt_ctx *x, const ptosim_loop_stride_params *p, pt_sreg r, int gm_is_src) {
  PT_TRY(field(x, "src stride", p->src_stride, gm_is_src ? 40 : 21));
  PT_TRY(field(x, "dst stride", p->dst_stride, gm_is_src ? 21 : 40));
  uint64_t s = (uint64_t)p->src_stride, d = (uint64_t)p->dst_stride;
  x->core->sreg[r] = gm_is_src ? stride_reg(s, d) : stride_reg(d, s);
  return PTOSIM_OK;
}

/* Packed OUTTOL1 images: bits above the fields must be zero. */
static ptosim_status set_reg(pt_ctx *x, uint64_t v, unsigned used_bits, pt_sreg r, int is_size) {
  PT_VERIFY(x, v >> used_bits == 0, "dma.reg_value", "keep the reserved high bits zero",
            "register value 0x%" PRIx64 " sets bits above bit %u", v, used_bits - 1);
  x->core->sreg[r] = is_size ? v | WRITTEN : v;
  return PTOSIM_OK;
}

ptosim_status pt_exec_set_loop_size_outtoub(pt_ctx *x, const ptosim_loop_size_params *p) {
  return set_size(x, p, PT_SREG_LOOP_SIZE_OUTTOUB);
}
ptosim_status pt_exec_set_loop_size_ubtoout(pt_ctx *x, const ptosim_loop_size_params *p) {
  return set_size(x, p, PT_SREG_LOOP_SIZE_UBTOOUT);
}
ptosim_status pt_exec_set_loop1_stride_outtoub(pt_ctx *x, const ptosim_loop_stride_params *p) {
  return set_stride(x, p, PT_SREG_LOOP1_STRIDE_OUTTOUB, 1);
}
ptosim_status pt_exec_set_loop2_stride_outtoub(pt_ctx *x, const ptosim_loop_stride_params *p) {
  return set_stride(x, p, PT_SREG_LOOP2_STRIDE_OUTTOUB, 1);
}
ptosim_status pt_exec_set_loop1_stride_ubtoout(pt_ctx *x, const ptosim_loop_stride_params *p) {
  return set_stride(x, p, PT_SREG_LOOP1_STRIDE_UBTOOUT, 0);
}
ptosim_status pt_exec_set_loop2_stride_ubtoout(pt_ctx *x, const ptosim_loop_stride_params *p) {
  return set_stride(x, p, PT_SREG_LOOP2_STRIDE_UBTOOUT, 0);
}
ptosim_status pt_exec_set_loop_size_outtol1(pt_ctx *x, const ptosim_loop_reg_params *p) {
  return set_reg(x, p->value, 42, PT_SREG_LOOP_SIZE_OUTTOL1, 1);
}
ptosim_status pt_exec_set_loop1_stride_outtol1(pt_ctx *x, const ptosim_loop_reg_params *p) {
  return set_reg(x, p->value, 61, PT_SREG_LOOP1_STRIDE_OUTTOL1, 0);
}
ptosim_status pt_exec_set_loop2_stride_outtol1(pt_ctx *x, const ptosim_loop_reg_params *p) {
  return set_reg(x, p->value, 61, PT_SREG_LOOP2_STRIDE_OUTTOL1, 0);
}

/* Legal pad scalars: PTOAS VPTO.cpp isSupportedMovPadScalarType (signless i8/i16/i32,
 * f16, bf16, f32); the register holds the zero-extended bit pattern (legacy 02 page). */
ptosim_status pt_exec_set_mov_pad_val(pt_ctx *x, const ptosim_pad_val_params *p) {
  ptosim_dtype t = p->dtype;
  PT_VERIFY(x, t == PTOSIM_DT_I8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_F16 ||
                   t == PTOSIM_DT_BF16 || t == PTOSIM_DT_F32,
            "dma.pad_type", "use an i8, i16, i32, f16, bf16 or f32 pad value", "pad value of type %s",
            pt_dtype_name(t));
  unsigned bits = pt_dtype_bits(t);
  x->core->sreg[PT_SREG_PAD_VAL_OUTTOUB] = p->bits & ((1ull << bits) - 1);
  return PTOSIM_OK;
}

/* ---- legacy copies ----------------------------------------------------------------------- */

/* The legacy GM <-> UB copies: one burst group under the two register loops, loop2 {
 * loop1 { nburst } }. Raw instruction widths (VPTOLLVMEmitter.cpp packCopyGmToUbConfig0/1,
 * packCopyUbToGmConfig0/1): sid 4 bits, burst count and length 21, GM stride 40, UB
 * stride 21; UB rows 32-byte aligned. */
static ptosim_status legacy_burst(pt_ctx *x, xfer *t, int load, ptosim_ptr src, ptosim_ptr dst, int64_t sid,
                                  int64_t n, int64_t len, int64_t sstride, int64_t dstride) {
  const widths w = {21, load ? 40 : 21, load ? 21 : 40};
  PT_TRY(load ? spaces(x, src, PTOSIM_GM, dst, PTOSIM_UB) : spaces(x, src, PTOSIM_UB, dst, PTOSIM_GM));
  PT_TRY(elem_widths(x, src, dst));
  PT_TRY(field(x, "sid", sid, 4));
  PT_TRY(field(x, "len_burst", len, 21));
  PT_TRY(group(x, "nburst", -1, "stride", n, sstride, dstride, w));
  init(x, t, src, dst, len, 0);
  level(t, n, sstride, dstride);
  if (load)
    reg_loops(x, t, PT_SREG_LOOP_SIZE_OUTTOUB, PT_SREG_LOOP1_STRIDE_OUTTOUB, PT_SREG_LOOP2_STRIDE_OUTTOUB, 1);
  else
    reg_loops(x, t, PT_SREG_LOOP_SIZE_UBTOOUT, PT_SREG_LOOP1_STRIDE_UBTOOUT, PT_SREG_LOOP2_STRIDE_UBTOOUT, 0);
  *(load ? &t->dalign : &t->salign) = BLK;
  return PTOSIM_OK;
}

/* Pad counts 6 bits and cache control 4 bits (packCopyGmToUbConfig0). */
ptosim_status pt_exec_copy_gm_to_ubuf(pt_ctx *x, const ptosim_copy_gm_ub_params *p) {
  xfer t;
  PT_TRY(legacy_burst(x, &t, 1, p->src, p->dst, p->sid, p->n_burst, p->len_burst, p->src_stride, p->dst_stride));
  PT_TRY(field(x, "left_padding", p->left_pad, 6));
  PT_TRY(field(x, "right_padding", p->right_pad, 6));
  PT_TRY(field(x, "l2_cache_ctl", p->l2_cache_ctl, 4));
  /* The typed instruction takes the low pad-unit bytes of the pad register. */
  unsigned u = pad_unit(p->dst.dtype);
  uint64_t pad = pt_sreg_get(x, PT_SREG_PAD_VAL_OUTTOUB) & (u ? (1ull << (8 * u)) - 1 : 0);
  PT_TRY(set_pad(x, &t, p->dst.dtype, p->data_select, pad, p->left_pad, p->right_pad));
  return run(x, &t);
}

/* The reserved field must be 0 (legacy 02 page). */
ptosim_status pt_exec_copy_ubuf_to_gm(pt_ctx *x, const ptosim_copy_ub_gm_params *p) {
  xfer t;
  PT_TRY(legacy_burst(x, &t, 0, p->src, p->dst, p->sid, p->n_burst, p->len_burst, p->src_stride, p->dst_stride));
  PT_VERIFY(x, p->reserved == 0, "dma.reserved", "pass 0", "reserved operand is %" PRId64, p->reserved);
  PT_TRY(gm_atomic(x, &t));
  return run(x, &t);
}

/* MOV_OUT_TO_L1_ALIGN_V2 fields as for mte_gm_l1; loops from the OUTTOL1 registers (the
 * wrapper's first two loop groups go there, VPTOExpandWrapperOps.cpp ExpandCubeLoadPattern). */
ptosim_status pt_exec_copy_gm_to_cbuf(pt_ctx *x, const ptosim_copy_gm_l1_params *p) {
  static const widths w = {21, 40, 21};
  PT_TRY(spaces(x, p->src, PTOSIM_GM, p->dst, PTOSIM_L1));
  PT_TRY(field(x, "len_burst", p->len_burst, 21));
  PT_TRY(group(x, "nburst", -1, "stride", p->n_burst, p->src_stride, p->dst_stride, w));
  xfer t;
  init(x, &t, p->src, p->dst, p->len_burst, 0);
  level(&t, p->n_burst, p->src_stride, p->dst_stride);
  reg_loops(x, &t, PT_SREG_LOOP_SIZE_OUTTOL1, PT_SREG_LOOP1_STRIDE_OUTTOL1, PT_SREG_LOOP2_STRIDE_OUTTOL1, 1);
  return run(x, &t);
}

/* Gap-model raw copies. Widths: copy_ubuf_to_ubuf per the legacy 02 table (all 16 bits;
 * sid is not encoded, packCopyUbToUbConfig); copy_{ubuf_to_cbuf,cbuf_to_ubuf} per
 * packCopyUbToCbufConfig / packCopyCbufToUbConfig (sid 4, burst count 12, length and gaps
 * 16). sub: sub-block whose UB an L1 -> UB copy writes. */
static ptosim_status legacy_gap(pt_ctx *x, const ptosim_copy_gap_params *p, ptosim_space ss, ptosim_space ds,
                                unsigned sid_bits, unsigned count_bits, int sub) {
  const widths w = {count_bits, 16, 16};
  PT_TRY(spaces(x, p->src, ss, p->dst, ds));
  PT_TRY(field(x, "sid", p->sid, sid_bits));
  PT_TRY(field(x, "len_burst", p->len_burst, 16));
  PT_TRY(group(x, "nburst", -1, "gap", p->n_burst, p->src_gap, p->dst_gap, w));
  xfer t;
  gap_burst(x, &t, p->src, p->dst, p->n_burst, p->len_burst, p->src_gap, p->dst_gap, sub);
  return run(x, &t);
}

ptosim_status pt_exec_copy_ubuf_to_ubuf(pt_ctx *x, const ptosim_copy_gap_params *p) {
  return legacy_gap(x, p, PTOSIM_UB, PTOSIM_UB, 16, 16, 0);
}

ptosim_status pt_exec_copy_ubuf_to_cbuf(pt_ctx *x, const ptosim_copy_gap_params *p) {
  PT_TRY(ub_l1_path(x));
  return legacy_gap(x, p, PTOSIM_UB, PTOSIM_L1, 4, 12, 0);
}

/* The sid field names the destination vector sub-block: the cube core reaches the UB of
 * either AIV only through it (corpus cbuf-ubuf-roundtrip-mixed issues the copy with sid 0
 * and 1; docs/spec-notes.md 7.1 and open question 8 -- no document states it). */
ptosim_status pt_exec_copy_cbuf_to_ubuf(pt_ctx *x, const ptosim_copy_gap_params *p) {
  PT_TRY(ub_l1_path(x));
  PT_VERIFY(x, p->sid == 0 || p->sid == 1, "dma.sid", "sid selects vector sub-block 0 or 1",
            "sid = %" PRId64 " names no vector sub-block", p->sid);
  return legacy_gap(x, p, PTOSIM_L1, PTOSIM_UB, 4, 12, (int)p->sid);
}
