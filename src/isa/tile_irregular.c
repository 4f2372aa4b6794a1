/* Irregular tile ops (src/isa/ops.def "irregular tile ops" rows): index sequences (tci),
 * triangular masks (ttri), single-element access (tgetval, tsetval) and the partial
 * elementwise ops (tpartadd / tpartmul / tpartmax / tpartmin). Vec (UB) tiles; each op writes
 * only its destination's valid region (tci: its first row). Readings:
 * docs/spec-notes.md section 17. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "isa/tile_bcast.h"
#include "isa/tile_elem.h"
#include "isa/tile_geom.h"

static int is_nd(const ptosim_tile *t) { return pt_tile_kind_of(t) == PT_TK_ND; }

static ptosim_status nd_tile(pt_ctx *x, const char *op, const char *what, const ptosim_tile *t) {
  PT_TRY(pt_tile_vec(x, op, what, t));
  PT_VERIFY(x, is_nd(t), PT_TILE_RULE(op, "layout"), "use row_major none_box tiles", "%s is a %s tile", what,
            pt_tile_kind_name(pt_tile_kind_of(t)));
  return PTOSIM_OK;
}

#define T_UINT (PT_TB_T(U8) | PT_TB_T(U16) | PT_TB_T(U32))
#define T_B64 (PT_TB_T(I64) | PT_TB_T(U64))

/* ---- TCI -------------------------------------------------------------------------------------- */

/* dst(0, c) = start +- c wrapped to es bytes (little-endian), c < n. */
static void index_row(uint8_t *d, unsigned es, int64_t n, int64_t start, int64_t step) {
  uint64_t v = (uint64_t)start;
  if (es == 2)
    for (int64_t c = 0; c < n; c++, v += (uint64_t)step) {
      uint16_t w = (uint16_t)v;
      memcpy(d + 2 * c, &w, 2);
    }
  else
    for (int64_t c = 0; c < n; c++, v += (uint64_t)step) {
      uint32_t w = (uint32_t)v;
      memcpy(d + 4 * c, &w, 4);
    }
}

/* The tmp tile of tci (PTO.cpp TCIOp; a2a3 TCI.hpp TCI_b16_* / TCI_b32_* use up to 1792 bytes). */
static ptosim_status tci_tmp(pt_ctx *x, const ptosim_tci_params *p) {
  const ptosim_tile *t = &p->tmp;
  PT_VERIFY(x, !p->descending, "op.unsupported", "drop the tmp or the descending attribute",
            "not supported yet: tci descending with a tmp (pto-isa's tmp code does not give start - c: a2a3 negates start + c)");
  PT_TRY(pt_tile_vec(x, "tci", "tmp", t));
  if (x->m->target == PTOSIM_TARGET_A5) return PTOSIM_OK;
  uint32_t b32 = PT_TB_T(F32) | PT_TB_T(I32);
  PT_TRY(nd_tile(x, "tci", "tmp", t));
  PT_TRY(pt_tile_dtype_in(x, "tci", "tmp", t->dtype, b32, b32));
  int64_t need = pt_dtype_size(p->dst.dtype) == 4 ? 768 : 1792, have = (int64_t)t->rows * t->cols * 4;
  PT_VERIFY(x, have >= need, "tci.tmp", "give tmp at least 768 bytes (32-bit dst) or 1792 (16-bit dst)",
            "tmp has %" PRId64 " bytes < %" PRId64, have, need);
  return PTOSIM_OK;
}

ptosim_status pt_exec_tci(pt_ctx *x, const ptosim_tci_params *p) {
  const ptosim_tile *d = &p->dst;
  uint32_t types = PT_TB_T(I16) | PT_TB_T(U16) | PT_TB_T(I32) | PT_TB_T(U32); /* PTO.cpp TCIOp: 16/32-bit integers */
  PT_TRY(nd_tile(x, "tci", "dst", d));
  PT_TRY(pt_tile_dtype_in(x, "tci", "dst", d->dtype, types, types));
  PT_VERIFY(x, d->cols != 1, "tci.shape", "give dst more than one column", "dst has one column (PTOAS TCIOp)");
  if (p->has_tmp) PT_TRY(tci_tmp(x, p));
  /* a5 Tci with a tmp stores (uint16_t)(loop_cnt - 1) full repeats, loop_cnt = ceil(vc / lanes):
   * 65535 of them for vc = 0 (Tci.hpp:81). Without a tmp it loops over the valid columns. */
  PT_VERIFY(x, !p->has_tmp || d->valid_cols, "tci.empty", "drop the tmp tile or give dst a valid column",
            "dst has no valid columns: a5 Tci with a tmp runs 65535 full stores for 0 columns");
  uint8_t *dp;
  PT_TRY(pt_tile_rows(x, d, 1, d->valid_cols, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)d->valid_cols, d->dtype);
  index_row(dp, pt_dtype_size(d->dtype), d->valid_cols, p->start, p->descending ? -1 : 1);
  return PTOSIM_OK;
}

/* ---- TTRI --------------------------------------------------------------------------------------- */

ptosim_status pt_exec_ttri(pt_ctx *x, const ptosim_ttri_params *p) {
  const ptosim_tile *d = &p->dst;
  /* a2a3 TTri.hpp:93-97 (no bf16, no 8-bit), a5 TTri.hpp:99-107 (i64 / u64: Int64Tri, low word 0 / 1, high 0) */
  uint32_t a2a3 = PT_TB_BASE | PT_TB_T(U16) | PT_TB_T(U32), a5 = a2a3 | PT_TB_T(BF16) | PT_TB_T(I8) | PT_TB_T(U8) | T_B64;
  PT_TRY(nd_tile(x, "ttri", "dst", d));
  PT_TRY(pt_tile_dtype_in(x, "ttri", "dst", d->dtype, a2a3, a5));
  PT_TRY(pt_tile_cols64(x, "ttri", "dst", d->dtype, d->valid_cols));
  PT_VERIFY(x, p->upper == 0 || p->upper == 1, "ttri.mode", "upperOrLower is 0 (lower) or 1 (upper)",
            "upperOrLower %d", p->upper);
  unsigned es = pt_dtype_size(d->dtype);
  uint8_t one[8] = {0}, zero[8] = {0}, *dp;
  if (pt_dtype_is_float(d->dtype))
    pt_store_from_f32(d->dtype, one, 1.0f, PT_RND_RINT, PT_SAT_OFF);
  else
    one[0] = 1; /* little-endian integer 1 */
  int64_t h = d->valid_rows, w = d->valid_cols;
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), d->dtype);
  int64_t dg = p->diagonal < -(h + w) ? -(h + w) : p->diagonal > h + w ? h + w : p->diagonal; /* no overflow */
  /* Row i: ones on columns j <= i + diagonal (lower), zeros on j < i + diagonal (upper). */
  for (int64_t i = 0; i < h; i++) {
    uint8_t *row = dp + i * d->cols * es;
    int64_t edge = i + dg + (p->upper ? 0 : 1); /* first column of the second kind */
    edge = edge < 0 ? 0 : edge > w ? w : edge;
    const uint8_t *first = p->upper ? zero : one, *second = p->upper ? one : zero;
    for (int64_t j = 0; j < w; j++) memcpy(row + j * es, j < edge ? first : second, es);
  }
  return PTOSIM_OK;
}

/* ---- TGETVAL / TSETVAL ------------------------------------------------------------------------ */

/* The element at storage offset off of a vec tile (rule "<op>.offset"). */
static ptosim_status element(pt_ctx *x, const char *op, const char *what, const ptosim_tile *t, int64_t off,
                             pt_access acc, uint8_t **out) {
  PT_TRY(pt_tile_vec(x, op, what, t));
  int64_t n = (int64_t)t->rows * t->cols;
  PT_VERIFY(x, off >= 0 && off < n, PT_TILE_RULE(op, "offset"), "keep 0 <= offset < rows * cols",
            "offset %" PRId64 " outside the %" PRId64 " elements of %s", off, n, what);
  unsigned es = pt_dtype_size(t->dtype);
  PT_TRY(pt_tile_at(x, x->core, t->space, t->addr, 0, acc, out));
  return pt_span_on(x, x->core, t->space, t->addr + (uint64_t)off * es, es, 1, acc, out);
}

ptosim_status pt_exec_tgetval(pt_ctx *x, const ptosim_tgetval_params *p) {
  uint8_t *sp;
  PT_TRY(element(x, "tgetval", "src", &p->src, p->offset, PT_READ, &sp));
  if (pt_dtype_is_float(p->src.dtype)) {
    if (p->fvalue) *p->fvalue = pt_load_as_f32(p->src.dtype, sp);
  } else if (p->ivalue) {
    *p->ivalue = pt_load_int(p->src.dtype, sp);
  }
  return PTOSIM_OK;
}

ptosim_status pt_exec_tsetval(pt_ctx *x, const ptosim_tsetval_params *p) {
  uint8_t *dp;
  PT_VERIFY(x, p->value.dtype == p->dst.dtype, "tsetval.dtype", "give the value dst's element type",
            "value of type %s into a %s tile", pt_dtype_name(p->value.dtype), pt_dtype_name(p->dst.dtype));
  PT_TRY(element(x, "tsetval", "dst", &p->dst, p->offset, PT_WRITE, &dp));
  memcpy(dp, &p->value.bits, pt_dtype_size(p->dst.dtype)); /* little-endian host */
  return PTOSIM_OK;
}

/* ---- TPARTADD / TPARTMUL / TPARTMAX / TPARTMIN -------------------------------------------------- */

/* a lies inside b in both valid dimensions. */
static int inside(const ptosim_tile *a, const ptosim_tile *b) {
  return a->valid_rows <= b->valid_rows && a->valid_cols <= b->valid_cols;
}
static int same_valid(const ptosim_tile *a, const ptosim_tile *b) { return inside(a, b) && inside(b, a); }

/* a5 TPartMul.hpp: 8- to 32-bit integers, f16, bf16, f32; TPartAdd.hpp / TPartMax.hpp /
 * TPartMin.hpp add i64 / u64 (Int64Part: a wrapping add, signed / unsigned max and min).
 * A2/A3 TPart*.hpp: i16 / i32 / f16 / f32. */
#define T_PART_A5 (PT_TB_BASE | PT_TB_T(I8) | PT_TB_T(BF16) | T_UINT)

static ptosim_status part(pt_ctx *x, const ptosim_texpand_params *p, const char *op, pt_tile_binop f, uint32_t a5) {
  const ptosim_tile *s0 = &p->src0, *s1 = &p->src1, *d = &p->dst;
  PT_TRY(nd_tile(x, op, "src0", s0));
  PT_TRY(nd_tile(x, op, "src1", s1));
  PT_TRY(nd_tile(x, op, "dst", d));
  PT_VERIFY(x, !p->has_tmp, PT_TILE_RULE(op, "tmp"), "drop the tmp tile", "%s takes no tmp tile", op);
  PT_TRY(pt_tile_same_dtype(x, op, "src0", s0, d));
  PT_TRY(pt_tile_same_dtype(x, op, "src1", s1, d));
  PT_TRY(pt_tile_dtype_in(x, op, "dst", d->dtype, PT_TB_BASE, a5));
  PT_VERIFY(x, inside(s0, d) && inside(s1, d) && (same_valid(s0, d) || same_valid(s1, d)), PT_TILE_RULE(op, "valid"),
            "give one source dst's valid region and the other one inside it",
            "valid regions src0 %d x %d, src1 %d x %d, dst %d x %d", s0->valid_rows, s0->valid_cols, s1->valid_rows,
            s1->valid_cols, d->valid_rows, d->valid_cols);
  PT_TRY(pt_tile_cols64(x, op, "dst", d->dtype, d->valid_cols));
  const ptosim_tile *full = same_valid(s0, d) ? s0 : s1, *small = full == s0 ? s1 : s0;
  int64_t h = d->valid_rows, w = d->valid_cols, sh = small->valid_rows, sw = small->valid_cols;
  unsigned es = pt_dtype_size(d->dtype);
  uint8_t *a, *b, *dp;
  PT_TRY(pt_tile_rows(x, s0, s0->valid_rows, s0->valid_cols, PT_READ, &a));
  PT_TRY(pt_tile_rows(x, s1, s1->valid_rows, s1->valid_cols, PT_READ, &b));
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), d->dtype);
  pt_tile_bc_fn both = pt_tile_bc_loop(f, d->dtype);
  const uint8_t *fp = full == s0 ? a : b;
  for (int64_t r = 0; r < h; r++) {
    uint8_t *dr = dp + r * d->cols * es;
    const uint8_t *fr = fp + r * full->cols * es;
    int64_t k = r < sh ? sw : 0; /* columns where both sources are valid */
    if (k) both(dr, a + r * s0->cols * es, -1, b + r * s1->cols * es, -1, k);
    /* the rest is a data move (a2a3 copy_ubuf_to_ubuf, a5 vlds / vsts): the bits, NaNs too */
    memmove(dr + k * es, fr + k * es, (size_t)((w - k) * (int64_t)es));
  }
  return PTOSIM_OK;
}

ptosim_status pt_exec_tpartadd(pt_ctx *x, const ptosim_texpand_params *p) {
  return part(x, p, "tpartadd", PT_TB_ADD, T_PART_A5 | T_B64);
}
ptosim_status pt_exec_tpartmul(pt_ctx *x, const ptosim_texpand_params *p) {
  return part(x, p, "tpartmul", PT_TB_MUL, T_PART_A5);
}
ptosim_status pt_exec_tpartmax(pt_ctx *x, const ptosim_texpand_params *p) {
  return part(x, p, "tpartmax", PT_TB_MAX, T_PART_A5 | T_B64);
}
ptosim_status pt_exec_tpartmin(pt_ctx *x, const ptosim_texpand_params *p) {
  return part(x, p, "tpartmin", PT_TB_MIN, T_PART_A5 | T_B64);
}

/* ---- TGATHER / TGATHERB / TSCATTER ----------------------------------------------------------- */

/* Index readers: element k of an index tile row, by index type (picked once per op). */
typedef int64_t (*idx_fn)(const uint8_t *row, int64_t k);
static int64_t idx_i16(const uint8_t *p, int64_t k) { int16_t v; memcpy(&v, p + 2 * k, 2); return v; }
static int64_t idx_u16(const uint8_t *p, int64_t k) { uint16_t v; memcpy(&v, p + 2 * k, 2); return v; }
static int64_t idx_i32(const uint8_t *p, int64_t k) { int32_t v; memcpy(&v, p + 4 * k, 4); return v; }
static int64_t idx_u32(const uint8_t *p, int64_t k) { uint32_t v; memcpy(&v, p + 4 * k, 4); return v; }

static idx_fn idx_reader(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_I16: return idx_i16;
    case PTOSIM_DT_U16: return idx_u16;
    case PTOSIM_DT_I32: return idx_i32;
    default: return idx_u32;
  }
}

/* The index tile covers the h x w region and has one of the types `types` (rules <op>.valid,
 * <op>.dtype); *rp: the host bytes of that region. */
static ptosim_status index_tile(pt_ctx *x, const char *op, const ptosim_tile *t, int64_t h, int64_t w, uint32_t types,
                                uint8_t **rp) {
  PT_TRY(nd_tile(x, op, "index", t));
  PT_TRY(pt_tile_dtype_in(x, op, "index", t->dtype, types, types));
  PT_VERIFY(x, t->valid_rows >= h && t->valid_cols >= w, PT_TILE_RULE(op, "valid"),
            "give the index tile at least the region it indexes",
            "index valid %d x %d, needs %" PRId64 " x %" PRId64, t->valid_rows, t->valid_cols, h, w);
  return pt_tile_rows(x, t, h, w, PT_READ, rp);
}

/* Every index of the h x w region is in [0, n) (rule <op>.index); *lo / *hi: the smallest and
 * largest (the span the op touches). */
static ptosim_status index_range(pt_ctx *x, const char *op, const ptosim_tile *t, const uint8_t *ip, int64_t h,
                                 int64_t w, int64_t n, int64_t *lo, int64_t *hi) {
  idx_fn rd = idx_reader(t->dtype);
  unsigned es = pt_dtype_size(t->dtype);
  *lo = n, *hi = 0;
  for (int64_t r = 0; r < h; r++)
    for (int64_t c = 0; c < w; c++) {
      int64_t k = rd(ip + r * t->cols * es, c);
      PT_VERIFY(x, k >= 0 && k < n, PT_TILE_RULE(op, "index"), "keep every index inside the tile's storage",
                "index (%" PRId64 ", %" PRId64 ") = %" PRId64 " outside the %" PRId64 " elements", r, c, k, n);
      *lo = k < *lo ? k : *lo, *hi = k > *hi ? k : *hi;
    }
  return PTOSIM_OK;
}

/* Host byte of element 0 of tile t after accessing its elements [lo, hi] with acc. */
static ptosim_status span_of(pt_ctx *x, const ptosim_tile *t, int64_t lo, int64_t hi, pt_access acc, uint8_t **out) {
  unsigned es = pt_dtype_size(t->dtype);
  PT_TRY(pt_tile_at(x, x->core, t->space, t->addr, 0, acc, out));
  if (hi < lo) return PTOSIM_OK;
  uint8_t *p;
  PT_TRY(pt_span_on(x, x->core, t->space, t->addr + (uint64_t)(lo * es), (uint64_t)((hi - lo + 1) * es), 1, acc, &p));
  *out = p - lo * es;
  return PTOSIM_OK;
}

/* Mask pattern m keeps one of every mask_times(m) columns (rows on the col axis), the
 * mask_offset(m)-th (pto-isa common/type.hpp MaskPattern, constants.hpp GetTimesByMask /
 * GetStrideByMask). */
static int64_t mask_times(ptosim_mask_pattern m) { return m == PTOSIM_MP_P1111 ? 1 : m <= PTOSIM_MP_P1010 ? 2 : 4; }
static int64_t mask_offset(ptosim_mask_pattern m) {
  return m == PTOSIM_MP_P1111 ? 0 : m <= PTOSIM_MP_P1010 ? m - PTOSIM_MP_P0101 : m - PTOSIM_MP_P0001;
}
static int selected(ptosim_mask_pattern m, int64_t c) { return c % mask_times(m) == mask_offset(m); }

#define T_B16B32 (PT_TB_T(I16) | PT_TB_T(U16) | PT_TB_T(F16) | PT_TB_T(BF16) | PT_TB_T(I32) | PT_TB_T(U32) | PT_TB_T(F32))
#define T_IDX32 (PT_TB_T(I32) | PT_TB_T(U32))
#define T_IDX (PT_TB_T(I16) | PT_TB_T(U16) | T_IDX32)
#define T_B8 (PT_TB_T(I8) | PT_TB_T(U8) | PT_TB_T(F8E4M3) | PT_TB_T(F8E5M2) | PT_TB_T(HIF8))

/* 64-bit mask form (a5 TGather.hpp Int64GatherPattern): pattern m selects every t-th column
 * from column o (t = 2, 4 or 1 for P1111; o = m's position in its group); row r < src valid
 * rows keeps k < w / t (rounded down) selections, at dst element r * (dst cols / t) + k. */
static ptosim_status gather_mask64(pt_ctx *x, const ptosim_tgather_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  int64_t t = mask_times(p->pattern), o = mask_offset(p->pattern);
  int64_t h = s->valid_rows, n = s->valid_cols / t, oc = d->cols / t, cap = (int64_t)d->rows * d->cols;
  PT_TRY(pt_tile_cols64(x, "tgather", "the selection", s->dtype, n));
  PT_VERIFY(x, h == 0 || n == 0 || (h - 1) * oc + n <= cap, "tgather.shape", "give dst room for the selected elements",
            "%" PRId64 " rows of %" PRId64 " selections %" PRId64 " elements apart pass dst's %" PRId64 " elements", h, n,
            oc, cap);
  uint8_t *sp, *dp;
  int64_t st = oc * 8; /* dst row pitch, bytes */
  PT_TRY(pt_tile_rows(x, s, h, s->valid_cols, PT_READ, &sp));
  if (n == 0) return PTOSIM_OK;
  PT_TRY(pt_region(x, d->space, d->addr, 1, &h, &st, (uint64_t)(n * 8), 8, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * n), s->dtype);
  for (int64_t r = 0; r < h; r++)
    for (int64_t k = 0; k < n; k++) memcpy(dp + (r * oc + k) * 8, sp + (r * s->cols + k * t + o) * 8, 8);
  return PTOSIM_OK;
}

/* Col axis (a2a3 / a5 TGather.hpp GATHER_COL): dst row i = src row t * i + o, src's valid
 * columns, i < dst valid rows. The NPU loop runs over src's valid rows (t times dst's), so
 * with t > 1 it also writes dst rows past dst's valid ones from src rows past src's valid
 * ones; ptosim writes dst's valid rows only (what pto-isa's tcolgather golden checks). */
static ptosim_status gather_col(pt_ctx *x, const ptosim_tgather_params *p, unsigned es) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  int64_t t = mask_times(p->pattern), h = d->valid_rows, w = s->valid_cols;
  PT_VERIFY(x, es != 8, "tgather.axis", "use the row axis for 64-bit data",
            "a5 TGather.hpp gathers 64-bit data by mask along rows only");
  PT_VERIFY(x, s->valid_rows == t * h && w <= d->valid_cols, "tgather.shape",
            "give src the pattern's step times dst's valid rows, and dst src's valid columns",
            "src valid %d x %d, dst valid %d x %d, step %" PRId64, s->valid_rows, s->valid_cols, d->valid_rows,
            d->valid_cols, t);
  int64_t st = t * s->cols * es; /* src bytes from one selected row to the next */
  uint8_t *sp, *dp;
  if (h == 0 || w == 0) return PTOSIM_OK;
  PT_TRY(pt_region(x, s->space, s->addr + (uint64_t)(mask_offset(p->pattern) * s->cols * es), 1, &h, &st,
                   (uint64_t)(w * es), es, PT_READ, &sp));
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  for (int64_t r = 0; r < h; r++) memcpy(dp + r * d->cols * es, sp + r * st, (size_t)(w * es));
  return PTOSIM_OK;
}

static ptosim_status gather_mask(pt_ctx *x, const ptosim_tgather_params *p, unsigned es) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_VERIFY(x, (unsigned)p->pattern <= PTOSIM_MP_P1111, "tgather.pattern", "use a pattern P0101 .. P1111",
            "mask pattern %d", (int)p->pattern);
  if (p->axis == PTOSIM_AXIS_COL) return gather_col(x, p, es);
  if (es == 8) return gather_mask64(x, p);
  PT_VERIFY(x, d->valid_cols == d->cols, "tgather.valid", "give dst v_col = cols (the result is packed)",
            "dst valid cols %d of %d", d->valid_cols, d->cols);
  int64_t per = 0, h = s->valid_rows, w = s->valid_cols;
  for (int64_t c = 0; c < w; c++) per += selected(p->pattern, c);
  PT_VERIFY(x, h * per <= (int64_t)d->valid_rows * d->cols, "tgather.shape", "give dst room for the selected elements",
            "%" PRId64 " selected elements, dst valid region holds %" PRId64, h * per, (int64_t)d->valid_rows * d->cols);
  uint8_t *sp, *dp;
  PT_TRY(pt_tile_rows(x, s, h, w, PT_READ, &sp));
  PT_TRY(pt_tile_rows(x, d, (h * per + d->cols - 1) / d->cols, d->cols, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  for (int64_t r = 0; r < h; r++)
    for (int64_t c = 0; c < w; c++)
      if (selected(p->pattern, c)) memcpy(dp, sp + (r * s->cols + c) * es, es), dp += es;
  return PTOSIM_OK;
}

/* TGATHER. Data: 2- and 4-byte types; A5 adds the 1-byte ones (a5 TGather.hpp CheckValid and
 * TGATHER_IMPL take every 1-, 2- and 4-byte type, TGather_b8 for the 8-bit ones) and i64 / u64
 * (Int64Gather, Int64GatherPattern). Index form: 4-byte indexes (A2/A3 always; A5 for 4- and
 * 8-byte data, as TGather_b32 and Int64Gather read them as u32), A5 2-byte data also 2-byte
 * indexes (TGather_b16), A5 1-byte data 2-byte indexes (TGather_b8). */
ptosim_status pt_exec_tgather(pt_ctx *x, const ptosim_tgather_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_TRY(nd_tile(x, "tgather", "src", s));
  PT_TRY(nd_tile(x, "tgather", "dst", d));
  PT_TRY(pt_tile_dtype_in(x, "tgather", "src", s->dtype, T_B16B32, T_B16B32 | T_B8 | T_B64));
  PT_TRY(pt_tile_same_dtype(x, "tgather", "dst", d, s));
  unsigned es = pt_dtype_size(s->dtype), is = pt_dtype_size(p->indices.dtype);
  if (p->pattern != PTOSIM_MP_INDEX) return gather_mask(x, p, es);
  int64_t h = d->valid_rows, w = d->valid_cols, n = (int64_t)s->rows * s->cols;
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  /* CheckValid takes these pairs, but TGather_b8 reads a u32 index register as u16 lanes and
   * TGather_b32 a u16 one as u32 lanes: each lane then holds half an index or two. */
  PT_VERIFY(x, !a5 || !((T_IDX >> p->indices.dtype) & 1) || (es == 1 ? is == 2 : es != 4 || is == 4),
            "tgather.dtype", "use 2-byte indices for 1-byte data and 4-byte indices for 4-byte data",
            "%s data with %s indices: a5 TGather.hpp %s reads the index register as %u-byte lanes, not a gather by "
            "index", pt_dtype_name(s->dtype), pt_dtype_name(p->indices.dtype), es == 1 ? "TGather_b8" : "TGather_b32",
            es == 1 ? 2u : 4u);
  uint32_t itypes_a5 = es == 2 ? T_IDX : es == 1 ? PT_TB_T(I16) | PT_TB_T(U16) : T_IDX32;
  uint8_t *ip, *sp, *dp;
  PT_TRY(pt_tile_cols64(x, "tgather", "dst", s->dtype, w));
  PT_TRY(index_tile(x, "tgather", &p->indices, h, w, a5 ? itypes_a5 : T_IDX32, &ip));
  if (p->has_tmp) {
    PT_TRY(pt_tile_vec(x, "tgather", "tmp", &p->tmp));
    PT_VERIFY(x, p->tmp.valid_rows == p->indices.valid_rows && p->tmp.valid_cols == p->indices.valid_cols,
              "tgather.tmp", "give tmp the index tile's valid shape", "tmp valid %d x %d, indices %d x %d",
              p->tmp.valid_rows, p->tmp.valid_cols, p->indices.valid_rows, p->indices.valid_cols);
  }
  int64_t lo, hi;
  PT_TRY(index_range(x, "tgather", &p->indices, ip, h, w, n, &lo, &hi));
  PT_TRY(span_of(x, s, lo, hi, PT_READ, &sp));
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  idx_fn rd = idx_reader(p->indices.dtype);
  for (int64_t r = 0; r < h; r++)
    for (int64_t c = 0; c < w; c++)
      memcpy(dp + (r * d->cols + c) * es, sp + rd(ip + r * p->indices.cols * is, c) * es, es);
  return PTOSIM_OK;
}

ptosim_status pt_exec_tgatherb(pt_ctx *x, const ptosim_tindex_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  uint32_t types = T_B16B32 | PT_TB_T(I8) | PT_TB_T(U8); /* tgatherb.md: 1-, 2- and 4-byte types */
  PT_TRY(nd_tile(x, "tgatherb", "src", s));
  PT_TRY(nd_tile(x, "tgatherb", "dst", d));
  PT_TRY(pt_tile_dtype_in(x, "tgatherb", "dst", d->dtype, types, types));
  PT_TRY(pt_tile_same_dtype(x, "tgatherb", "src", s, d));
  unsigned es = pt_dtype_size(d->dtype);
  int64_t h = d->valid_rows, bytes = (int64_t)d->valid_cols * es, nb = (bytes + PT_C0 - 1) / PT_C0;
  int64_t size = (int64_t)s->rows * s->cols * es; /* src storage, bytes */
  uint8_t *op, *sp, *dp;
  PT_TRY(index_tile(x, "tgatherb", &p->index, h, nb, PT_TB_T(U32) | PT_TB_T(I32), &op));
  int64_t lo = size, hi = 0; /* the source bytes read: [lo, hi) */
  for (int64_t r = 0; r < h; r++)
    for (int64_t b = 0; b < nb; b++) {
      int64_t o = idx_u32(op + r * p->index.cols * 4, b);
      PT_VERIFY(x, o + PT_C0 <= size, "tgatherb.offset", "keep every 32-byte block inside src",
                "offset (%" PRId64 ", %" PRId64 ") = %" PRId64 ": the block passes the %" PRId64 " bytes of src", r, b,
                o, size);
      lo = o < lo ? o : lo, hi = o + PT_C0 > hi ? o + PT_C0 : hi;
    }
  PT_TRY(pt_tile_at(x, x->core, s->space, s->addr, 0, PT_READ, &sp));
  PT_TRY(pt_span_on(x, x->core, s->space, s->addr + (uint64_t)lo, (uint64_t)(hi - lo), 1, PT_READ, &sp));
  sp -= lo;
  PT_TRY(pt_tile_rows(x, d, h, d->valid_cols, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * d->valid_cols), d->dtype);
  for (int64_t r = 0; r < h; r++)
    for (int64_t b = 0; b < nb; b++) {
      int64_t len = bytes - b * PT_C0 < PT_C0 ? bytes - b * PT_C0 : PT_C0;
      memcpy(dp + r * d->cols * es + b * PT_C0, sp + idx_u32(op + r * p->index.cols * 4, b), (size_t)len);
    }
  return PTOSIM_OK;
}

/* Mask form of TSCATTER (a2a3 / a5 TScatter.hpp TSCATTER_IMPL<mask, axis>, a5 Int64Rearrange.hpp
 * Int64ScatterPattern): P1111 is a TMOV of src's valid region; the other patterns zero dst's whole
 * storage, then spread src's valid elements one every t columns (ROW) or rows (COL) from o. */
static ptosim_status scatter_mask(pt_ctx *x, const ptosim_tindex_params *p, unsigned es) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_VERIFY(x, (unsigned)p->pattern <= PTOSIM_MP_P1111, "tscatter.pattern", "use a pattern P0101 .. P1111",
            "mask pattern %d", (int)p->pattern);
  bool col = p->axis == PTOSIM_AXIS_COL, a5 = x->m->target == PTOSIM_TARGET_A5;
  int64_t t = mask_times(p->pattern), o = mask_offset(p->pattern), h = s->valid_rows, w = s->valid_cols;
  int64_t dh = col ? t * h : h, dw = col ? w : t * w, n = (int64_t)d->rows * d->cols;
  PT_VERIFY(x, d->valid_rows == dh && d->valid_cols == dw, "tscatter.valid",
            "give dst src's valid shape times the pattern's step along the axis",
            "dst valid %d x %d, the pattern needs %" PRId64 " x %" PRId64, d->valid_rows, d->valid_cols, dh, dw);
  PT_VERIFY(x, a5 || !col || es != 1 || t == 1, "tscatter.dtype", "use the row axis or 2- / 4-byte data on A2/A3",
            "a2a3 TScatter.hpp copies the rows of 1-byte data as 2-byte lanes on the col axis (twice the valid "
            "columns)");
  PT_TRY(pt_tile_cols64(x, "tscatter", "src", s->dtype, w));
  if (!a5 && !col && t > 1) pt_set_pipe(x, PTOSIM_PIPE_S); /* a2a3: a scalar loop */
  uint8_t *sp, *dp;
  PT_TRY(pt_tile_rows(x, s, h, w, PT_READ, &sp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  if (t == 1) { /* TMOV */
    PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
    for (int64_t r = 0; r < h; r++) memcpy(dp + r * d->cols * es, sp + r * s->cols * es, (size_t)(w * es));
    return PTOSIM_OK;
  }
  PT_TRY(pt_tile_at(x, x->core, d->space, d->addr, (uint64_t)n * es, PT_WRITE, &dp));
  memset(dp, 0, (size_t)n * es);
  for (int64_t r = 0; r < h; r++)
    for (int64_t c = 0; c < w; c++)
      memcpy(dp + (col ? (t * r + o) * d->cols + c : r * d->cols + t * c + o) * es, sp + (r * s->cols + c) * es, es);
  return PTOSIM_OK;
}

/* TSCATTER (a2a3 / a5 TScatter.hpp): dst's whole storage (rows x cols elements) set to 0, then
 * dst_flat[idx(i, j)] = src(i, j) over the index tile's valid region in row-major order (the last
 * write to an element wins). Index elements are 4 bytes for 4- and 8-byte data (A5 i64 / u64:
 * Int64Scatter, the two 32-bit halves scattered alike), 2 bytes for 2- and 1-byte data. A scalar loop on A2/A3 (pipe S), a vector scatter on A5 (PTOOps.td TScatterOp). */
ptosim_status pt_exec_tscatter(pt_ctx *x, const ptosim_tindex_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst, *it = &p->index;
  uint32_t types = T_B16B32 | PT_TB_T(I8) | PT_TB_T(U8);
  PT_TRY(nd_tile(x, "tscatter", "src", s));
  PT_TRY(nd_tile(x, "tscatter", "dst", d));
  PT_TRY(pt_tile_dtype_in(x, "tscatter", "src", s->dtype, types, types | T_B64));
  PT_TRY(pt_tile_same_dtype(x, "tscatter", "dst", d, s));
  if (p->pattern != PTOSIM_MP_INDEX) return scatter_mask(x, p, pt_dtype_size(s->dtype));
  if (x->m->target != PTOSIM_TARGET_A5) pt_set_pipe(x, PTOSIM_PIPE_S);
  unsigned es = pt_dtype_size(s->dtype), is = pt_dtype_size(it->dtype);
  uint32_t itypes = es >= 4 ? T_IDX32 : PT_TB_T(I16) | PT_TB_T(U16);
  int64_t h = it->valid_rows, w = it->valid_cols, n = (int64_t)d->rows * d->cols;
  PT_TRY(pt_tile_cols64(x, "tscatter", "index", s->dtype, w));
  PT_VERIFY(x, h <= s->rows && w <= s->cols, "tscatter.valid", "give src storage for the index tile's valid region",
            "index valid %d x %d, src tile %d x %d", it->valid_rows, it->valid_cols, s->rows, s->cols);
  uint8_t *ip, *sp, *dp;
  PT_TRY(index_tile(x, "tscatter", it, h, w, itypes, &ip));
  int64_t lo, hi;
  PT_TRY(index_range(x, "tscatter", it, ip, h, w, n, &lo, &hi));
  PT_TRY(pt_tile_rows(x, s, h, w, PT_READ, &sp));
  PT_TRY(pt_tile_at(x, x->core, d->space, d->addr, (uint64_t)n * es, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  idx_fn rd = idx_reader(it->dtype);
  memset(dp, 0, (size_t)n * es);
  for (int64_t r = 0; r < h; r++)
    for (int64_t c = 0; c < w; c++) memcpy(dp + rd(ip + r * it->cols * is, c) * es, sp + (r * s->cols + c) * es, es);
  return PTOSIM_OK;
}

/* ---- TCONCATIDX ----------------------------------------------------------------------------- */

static int64_t idx_i8(const uint8_t *p, int64_t k) { return (int8_t)p[k]; }
static int64_t idx_u8(const uint8_t *p, int64_t k) { return p[k]; }

#define T_IDX_ALL (T_IDX | PT_TB_T(I8) | PT_TB_T(U8))
#define T_DATA_ALL (T_B16B32 | PT_TB_T(I8) | PT_TB_T(U8))

/* The count of row r of index tile t: its element (r, 0) / sizeof(element). */
static int64_t count_of(const ptosim_tile *t, const uint8_t *ip, int64_t r) {
  unsigned is = pt_dtype_size(t->dtype);
  idx_fn rd = is == 1 ? (t->dtype == PTOSIM_DT_I8 ? idx_i8 : idx_u8) : idx_reader(t->dtype);
  return rd(ip + r * t->cols * is, 0) / (int64_t)is;
}

ptosim_status pt_exec_tconcatidx(pt_ctx *x, const ptosim_tconcatidx_params *p) {
  const char *op = "tconcatidx";
  const ptosim_tile *d = &p->dst, *src[2] = {&p->src0, &p->src1}, *idx[2] = {&p->idx0, &p->idx1};
  PT_TRY(nd_tile(x, op, "dst", d));
  PT_TRY(pt_tile_dtype_in(x, op, "dst", d->dtype, T_DATA_ALL, T_DATA_ALL));
  int64_t h = d->valid_rows, w = d->valid_cols;
  unsigned es = pt_dtype_size(d->dtype);
  uint8_t *sp[2], *ip[2], *dp;
  for (int k = 0; k < 2; k++) {
    PT_TRY(nd_tile(x, op, k ? "src1" : "src0", src[k]));
    PT_TRY(pt_tile_same_dtype(x, op, k ? "src1" : "src0", src[k], d));
    PT_TRY(index_tile(x, op, idx[k], h, 1, T_IDX_ALL, &ip[k]));
    PT_VERIFY(x, src[k]->rows >= h, PT_TILE_RULE(op, "valid"), "give the sources dst's valid rows",
              "%s has %d rows, dst %" PRId64 " valid", k ? "src1" : "src0", src[k]->rows, h);
  }
  PT_TRY(pt_tile_same_dtype(x, op, "idx1", idx[1], idx[0]));
  int64_t maxn[2] = {0, 0}; /* the most columns read from each source */
  for (int64_t r = 0; r < h; r++) {
    int64_t k0 = count_of(idx[0], ip[0], r), k1 = count_of(idx[1], ip[1], r);
    k0 = k0 < w ? k0 : w, k1 = k1 < w - k0 ? k1 : w - k0;
    PT_VERIFY(x, k0 >= 0 && k1 >= 0 && k0 <= src[0]->cols && k1 <= src[1]->cols, PT_TILE_RULE(op, "count"),
              "keep the counts (idx / element size) between 0 and the source's columns",
              "row %" PRId64 ": %" PRId64 " columns of src0 (%d), %" PRId64 " of src1 (%d)", r, k0, src[0]->cols, k1,
              src[1]->cols);
    maxn[0] = k0 > maxn[0] ? k0 : maxn[0], maxn[1] = k1 > maxn[1] ? k1 : maxn[1];
  }
  for (int k = 0; k < 2; k++) PT_TRY(pt_tile_rows(x, src[k], h, maxn[k], PT_READ, &sp[k]));
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), d->dtype);
  for (int64_t r = 0; r < h; r++) {
    int64_t k0 = count_of(idx[0], ip[0], r), k1 = count_of(idx[1], ip[1], r);
    k0 = k0 < w ? k0 : w, k1 = k1 < w - k0 ? k1 : w - k0;
    uint8_t *dr = dp + r * d->cols * es;
    memcpy(dr, sp[0] + r * src[0]->cols * es, (size_t)(k0 * es));
    memcpy(dr + k0 * es, sp[1] + r * src[1]->cols * es, (size_t)(k1 * es));
  }
  return PTOSIM_OK;
}

/* ---- TPARTARGMAX / TPARTARGMIN ------------------------------------------------------------- */

static float val_f16(const uint8_t *p) { uint16_t h; memcpy(&h, p, 2); return pt_f16_to_f32(h); }
static float val_f32(const uint8_t *p) { float f; memcpy(&f, p, 4); return f; }

/* Whether src1's value wins at an element: A5 selects src1 when src1 > src0 (vcmp_gt; min:
 * src1 < src0), A2/A3 keeps src0 when src0 >= src1 (vcmp_ge; min: <=). They differ on NaN only. */
static int wins1(bool a5, bool max, float a, float b) {
  if (a5) return max ? b > a : b < a;
  return !(max ? a >= b : a <= b);
}

static ptosim_status part_arg(pt_ctx *x, const ptosim_tconcatidx_params *p, const char *op, bool max) {
  const ptosim_tile *s[2] = {&p->src0, &p->src1}, *ix[2] = {&p->idx0, &p->idx1}, *d = &p->dst, *di = &p->dst_idx;
  PT_TRY(nd_tile(x, op, "dst", d));
  PT_TRY(nd_tile(x, op, "dst_idx", di));
  uint32_t vt = PT_TB_T(F16) | PT_TB_T(F32);
  PT_TRY(pt_tile_dtype_in(x, op, "dst", d->dtype, vt, vt));
  uint32_t it = d->dtype == PTOSIM_DT_F16 ? T_IDX : T_IDX32; /* a5 TPartArgBinOps.hpp static_assert */
  PT_TRY(pt_tile_dtype_in(x, op, "dst_idx", di->dtype, it, it));
  int64_t h = d->valid_rows, w = d->valid_cols;
  PT_VERIFY(x, (h && w) || x->m->target == PTOSIM_TARGET_A5, PT_TILE_RULE(op, "empty"),
            "give dst a valid region of at least one element on a2a3 (a5 makes an empty dst a no-op)",
            "dst valid %" PRId64 " x %" PRId64 " is empty: a2a3 TPartArgOp.hpp checkTiles asserts a non-zero dst", h,
            w);
  PT_VERIFY(x, di->valid_rows == h && di->valid_cols == w, PT_TILE_RULE(op, "valid"),
            "give dst_idx dst's valid region", "dst_idx valid %d x %d, dst %" PRId64 " x %" PRId64, di->valid_rows,
            di->valid_cols, h, w);
  uint8_t *sp[2], *ip[2], *dp, *dip;
  for (int k = 0; k < 2; k++) {
    PT_TRY(nd_tile(x, op, k ? "src1" : "src0", s[k]));
    PT_TRY(pt_tile_same_dtype(x, op, k ? "src1" : "src0", s[k], d));
    PT_TRY(index_tile(x, op, ix[k], s[k]->valid_rows, s[k]->valid_cols, it, &ip[k]));
    PT_TRY(pt_tile_same_dtype(x, op, k ? "idx1" : "idx0", ix[k], di));
    PT_VERIFY(x, s[k]->valid_rows <= h && s[k]->valid_cols <= w, PT_TILE_RULE(op, "valid"),
              "keep the sources' valid regions inside dst's", "%s valid %d x %d, dst %" PRId64 " x %" PRId64,
              k ? "src1" : "src0", s[k]->valid_rows, s[k]->valid_cols, h, w);
    PT_TRY(pt_tile_rows(x, s[k], s[k]->valid_rows, s[k]->valid_cols, PT_READ, &sp[k]));
  }
  int full = s[0]->valid_rows == h && s[0]->valid_cols == w ? 0 : 1;
  PT_VERIFY(x, s[full]->valid_rows == h && s[full]->valid_cols == w, PT_TILE_RULE(op, "valid"),
            "give one source dst's valid region", "neither source covers dst's valid %" PRId64 " x %" PRId64, h, w);
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  PT_TRY(pt_tile_rows(x, di, h, w, PT_WRITE, &dip));
  pt_record_work(x, (uint64_t)(h * w), d->dtype);
  unsigned es = pt_dtype_size(d->dtype), is = pt_dtype_size(di->dtype);
  float (*val)(const uint8_t *) = es == 2 ? val_f16 : val_f32;
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  int64_t sh = s[1 - full]->valid_rows, sw = s[1 - full]->valid_cols; /* where both are valid */
  for (int64_t r = 0; r < h; r++)
    for (int64_t c = 0; c < w; c++) {
      int k = full;
      if (r < sh && c < sw)
        k = wins1(a5, max, val(sp[0] + (r * s[0]->cols + c) * es), val(sp[1] + (r * s[1]->cols + c) * es));
      memcpy(dp + (r * d->cols + c) * es, sp[k] + (r * s[k]->cols + c) * es, es);
      memcpy(dip + (r * di->cols + c) * is, ip[k] + (r * ix[k]->cols + c) * is, is);
    }
  return PTOSIM_OK;
}

ptosim_status pt_exec_tpartargmax(pt_ctx *x, const ptosim_tconcatidx_params *p) {
  return part_arg(x, p, "tpartargmax", true);
}
ptosim_status pt_exec_tpartargmin(pt_ctx *x, const ptosim_tconcatidx_params *p) {
  return part_arg(x, p, "tpartargmin", false);
}

/* ---- TSORT32 --------------------------------------------------------------------------------- */

typedef struct sort_item {
  float v;
  uint32_t idx;
  const uint8_t *raw; /* the value's bytes */
} sort_item;

/* a comes before b: larger value first, NaN before every number, then the smaller index
 * (tsort32.md "ties broken by smaller index first"); a NaN ties with a NaN, -0 with +0. */
static int before(const sort_item *a, const sort_item *b) {
  int an = a->v != a->v, bn = b->v != b->v;
  if (an != bn) return an;
  if (!an && a->v != b->v) return a->v > b->v;
  return a->idx < b->idx;
}

/* Sort the n <= 32 items of one block (stable insertion sort: equal keys keep their order) and
 * write them as 8-byte tuples [value, zero padding to 4 bytes, u32 index] from d. */
static void sort_block(sort_item *it, int64_t n, unsigned es, uint8_t *d) {
  for (int64_t i = 1; i < n; i++) {
    sort_item t = it[i];
    int64_t j = i;
    for (; j > 0 && before(&t, &it[j - 1]); j--) it[j] = it[j - 1];
    it[j] = t;
  }
  for (int64_t i = 0; i < n; i++) {
    memset(d + 8 * i, 0, 4);
    memcpy(d + 8 * i, it[i].raw, es);
    memcpy(d + 8 * i + 4, &it[i].idx, 4);
  }
}

/* pto.tsort32 ins(%src, %idx [, %tmp]) outs(%dst): params src0 = the values, src1 = the u32
 * index tile (R x C, or one row for every row), tmp = the padding tile of a partial last block. */
ptosim_status pt_exec_tsort32(pt_ctx *x, const ptosim_texpand_params *p) {
  const char *op = "tsort32";
  const ptosim_tile *s = &p->src0, *ix = &p->src1, *d = &p->dst;
  uint32_t vt = PT_TB_T(F16) | PT_TB_T(F32);
  PT_TRY(nd_tile(x, op, "src", s));
  PT_TRY(nd_tile(x, op, "dst", d));
  PT_TRY(pt_tile_dtype_in(x, op, "src", s->dtype, vt, vt));
  PT_TRY(pt_tile_same_dtype(x, op, "dst", d, s));
  unsigned es = pt_dtype_size(s->dtype);
  int64_t h = s->valid_rows, w = s->valid_cols, coef = 8 / es; /* dst elements per tuple */
  int64_t need = w * es <= 8160 ? (w + 31) / 32 * 32 : 32;  /* tsort32.md tmpSize */
  PT_VERIFY(x, p->has_tmp || w % 32 == 0, PT_TILE_RULE(op, "tmp"), "pass a tmp tile for a partial last block",
            "src valid cols %" PRId64 " are not whole 32-element blocks and there is no tmp tile", w);
  if (p->has_tmp) {
    PT_TRY(pt_tile_vec(x, op, "tmp", &p->tmp));
    PT_TRY(pt_tile_same_dtype(x, op, "tmp", &p->tmp, s));
    PT_VERIFY(x, (int64_t)p->tmp.rows * p->tmp.cols >= need, PT_TILE_RULE(op, "tmp_size"), "enlarge the tmp tile",
              "tmp holds %" PRId64 " elements, the padded row needs %" PRId64, (int64_t)p->tmp.rows * p->tmp.cols, need);
  }
  PT_VERIFY(x, d->valid_rows == h && d->valid_cols >= coef * w, PT_TILE_RULE(op, "valid"),
            "give dst src's valid rows and 8 bytes per source element",
            "dst valid %d x %d, needs %" PRId64 " x %" PRId64, d->valid_rows, d->valid_cols, h, coef * w);
  uint8_t *sp, *ip, *dp;
  int64_t ih = ix->valid_rows == 1 ? 1 : h; /* one index row for every row */
  PT_TRY(index_tile(x, op, ix, ih, w, PT_TB_T(U32), &ip));
  PT_TRY(pt_tile_rows(x, s, h, w, PT_READ, &sp));
  PT_TRY(pt_tile_rows(x, d, h, coef * w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  float (*val)(const uint8_t *) = es == 2 ? val_f16 : val_f32;
  sort_item it[32];
  for (int64_t r = 0; r < h; r++) {
    const uint8_t *sr = sp + r * s->cols * es, *ir = ip + (ih == 1 ? 0 : r) * ix->cols * 4;
    for (int64_t b = 0; b < w; b += 32) {
      int64_t n = w - b < 32 ? w - b : 32;
      for (int64_t k = 0; k < n; k++)
        it[k] = (sort_item){val(sr + (b + k) * es), (uint32_t)idx_u32(ir, b + k), sr + (b + k) * es};
      sort_block(it, n, es, dp + r * d->cols * es + 8 * b);
    }
  }
  return PTOSIM_OK;
}

/* ---- TMRGSORT -------------------------------------------------------------------------------- */

/* A list of n 8-byte tuples at p; value of tuple i read by val from its first es bytes. */
typedef struct mlist {
  const uint8_t *p;
  int64_t n, at;
} mlist;

/* Tuple value a goes before b: larger first, NaN before every number (as tsort32). */
static int precedes(float a, float b) {
  int an = a != a, bn = b != b;
  return an != bn ? an : !an && a > b;
}

/* Merge lists l[0, k) into d (8-byte tuples) until all are used up, or with `stop` until one
 * is; returns the tuples written. */
static int64_t merge(mlist *l, int k, float (*val)(const uint8_t *), bool stop, uint8_t *d) {
  int64_t out = 0;
  for (;;) {
    int best = -1;
    for (int i = 0; i < k; i++) {
      if (l[i].at == l[i].n) {
        if (stop) return out;
        continue;
      }
      if (best < 0 || precedes(val(l[i].p + 8 * l[i].at), val(l[best].p + 8 * l[best].at))) best = i;
    }
    if (best < 0) return out;
    memcpy(d + 8 * out++, l[best].p + 8 * l[best].at++, 8);
  }
}

/* One-row f16 / f32 vec tile of the op (rules <op>.layout, <op>.dtype, tmrgsort.shape). */
static ptosim_status list_tile(pt_ctx *x, const char *what, const ptosim_tile *t, const ptosim_tile *like) {
  PT_TRY(nd_tile(x, "tmrgsort", what, t));
  PT_TRY(pt_tile_dtype_in(x, "tmrgsort", what, t->dtype, PT_TB_T(F16) | PT_TB_T(F32), PT_TB_T(F16) | PT_TB_T(F32)));
  PT_TRY(pt_tile_same_dtype(x, "tmrgsort", what, t, like));
  PT_VERIFY(x, t->rows == 1, "tmrgsort.shape", "use tiles of one row", "%s has %d rows", what, t->rows);
  return PTOSIM_OK;
}

ptosim_status pt_exec_tmrgsort(pt_ctx *x, const ptosim_tmrgsort_params *p) {
  const ptosim_tile *d = &p->dst;
  int k = p->nsrc;
  PT_VERIFY(x, k >= 1 && k <= 4, "tmrgsort.lists", "merge 1 (with blockLen) to 4 lists", "%d source lists", k);
  PT_TRY(list_tile(x, "dst", d, d));
  for (int i = 0; i < k; i++) PT_TRY(list_tile(x, "src", &p->src[i], d));
  unsigned es = pt_dtype_size(d->dtype);
  int64_t coef = 8 / es, total = 0, bl = p->block_len, groups = 1; /* elements per tuple, elements merged */
  if (k == 1) {
    int64_t w = p->src[0].valid_cols;
    groups = bl > 0 ? w / (4 * bl) : 0;
    PT_VERIFY(x, bl > 0 && bl % 64 == 0 && w % (4 * bl) == 0 && groups >= 1 && groups <= 255, "tmrgsort.block",
              "blockLen a multiple of 64, src valid cols 1..255 groups of 4 blocks",
              "blockLen %" PRId64 " and src valid cols %" PRId64, bl, w);
  } else if (!p->no_tmp) {
    PT_TRY(pt_tile_vec(x, "tmrgsort", "tmp", &p->tmp));
    PT_TRY(pt_tile_same_dtype(x, "tmrgsort", "tmp", &p->tmp, d));
  }
  uint8_t *sp[4], *dp;
  for (int i = 0; i < k; i++) {
    int64_t w = p->src[i].valid_cols;
    PT_VERIFY(x, w % coef == 0, "tmrgsort.valid", "give each list whole 8-byte tuples", "src %d valid cols %" PRId64, i, w);
    PT_TRY(pt_tile_rows(x, &p->src[i], 1, w, PT_READ, &sp[i]));
    total += w;
  }
  PT_VERIFY(x, d->valid_cols >= total, "tmrgsort.valid", "give dst room for every source element",
            "dst valid cols %d < %" PRId64, d->valid_cols, total);
  /* The NPU merges into tmp, then copies to dst (a2a3 TMrgSort.hpp). */
  PT_VERIFY(x, k == 1 || p->no_tmp || p->tmp.cols >= total, "tmrgsort.tmp",
            "give tmp at least as many columns as the lists' valid total", "tmp has %d columns < %" PRId64,
            p->tmp.cols, total);
  /* Merge into a staging copy (dst may be a source), group by group (format 2: one group). */
  uint8_t *out = malloc((size_t)total * es);
  if (!out) return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory merging %" PRId64 " elements", total);
  float (*val)(const uint8_t *) = es == 2 ? val_f16 : val_f32;
  mlist l[4];
  int64_t n = 0; /* tuples written */
  for (int64_t g = 0; g < groups; g++) {
    for (int i = 0; i < (k == 1 ? 4 : k); i++)
      l[i] = k == 1 ? (mlist){sp[0] + (g * 4 + i) * bl * es, bl / coef, 0}
                    : (mlist){sp[i], p->src[i].valid_cols / coef, 0};
    n += merge(l, k == 1 ? 4 : k, val, k > 1 && p->exhausted, out + 8 * n);
  }
  ptosim_status st = pt_tile_rows(x, d, 1, n * coef, PT_WRITE, &dp);
  if (st == PTOSIM_OK) memcpy(dp, out, (size_t)(n * 8));
  free(out);
  PT_TRY(st);
  pt_record_work(x, (uint64_t)total, d->dtype);
  for (int i = 0; p->executed && i < 4; i++) p->executed[i] = (uint16_t)(k > 1 && i < k ? l[i].at : 0);
  return PTOSIM_OK;
}

/* ---- THISTOGRAM ------------------------------------------------------------------------------ */

ptosim_status pt_exec_thistogram(pt_ctx *x, const ptosim_thistogram_params *p) {
  const char *op = "thistogram";
  const ptosim_tile *s = &p->src, *ix = &p->idx, *d = &p->dst;
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "thistogram.target", "run it on the a5 target",
            "thistogram exists on A5 only (PTO.cpp THistogramOp), not on %s", x->m->prof->name);
  PT_TRY(nd_tile(x, op, "src", s));
  PT_TRY(nd_tile(x, op, "dst", d));
  PT_TRY(pt_tile_vec(x, op, "idx", ix));
  PT_TRY(pt_tile_dtype_in(x, op, "src", s->dtype, PT_TB_T(U16) | PT_TB_T(I16), PT_TB_T(U16) | PT_TB_T(I16)));
  PT_TRY(pt_tile_dtype_in(x, op, "idx", ix->dtype, PT_TB_T(U8) | PT_TB_T(I8), PT_TB_T(U8) | PT_TB_T(I8)));
  PT_TRY(pt_tile_dtype_in(x, op, "dst", d->dtype, PT_TB_T(U32) | PT_TB_T(I32), PT_TB_T(U32) | PT_TB_T(I32)));
  PT_VERIFY(x, pt_tile_kind_of(ix) == PT_TK_DN && ix->cols == 1, "thistogram.layout",
            "use a col_major none_box idx tile of one column", "idx is a %s tile of %d columns",
            pt_tile_kind_name(pt_tile_kind_of(ix)), ix->cols);
  int64_t h = s->valid_rows, w = s->valid_cols;
  PT_VERIFY(x, ix->valid_rows == h && d->valid_rows == h && d->valid_cols >= 256, "thistogram.valid",
            "give idx and dst src's valid rows and dst 256 valid columns", "src %" PRId64 " rows, idx %d, dst %d x %d", h,
            ix->valid_rows, d->valid_rows, d->valid_cols);
  uint8_t *sp, *ip, *dp;
  PT_TRY(pt_tile_rows(x, s, h, w, PT_READ, &sp));
  PT_TRY(pt_tile_at(x, x->core, ix->space, ix->addr, 0, PT_READ, &ip));
  PT_TRY(pt_span_on(x, x->core, ix->space, ix->addr, (uint64_t)h, 1, PT_READ, &ip));
  PT_TRY(pt_tile_rows(x, d, h, 256, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  for (int64_t r = 0; r < h; r++) {
    uint32_t bins[256] = {0};
    const uint8_t *row = sp + r * s->cols * 2; /* little-endian: byte 0 low, byte 1 high */
    for (int64_t c = 0; c < w; c++) {
      uint8_t lo = row[2 * c], hi = row[2 * c + 1];
      if (p->is_msb)
        bins[hi]++;
      else if (hi == ip[r])
        bins[lo]++;
    }
    for (int b = 1; b < 256; b++) bins[b] += bins[b - 1]; /* cumulative: bin b = #values <= b (chistv2) */
    memcpy(dp + r * d->cols * 4, bins, sizeof bins);
  }
  return PTOSIM_OK;
}

/* ---- TQUANT / TDEQUANT ----------------------------------------------------------------------- */

/* An f32 result; NaN as the canonical quiet NaN. */
static void st_f32(uint8_t *p, float v) {
  uint32_t b;
  memcpy(&b, &v, 4);
  b = v != v ? 0x7FC00000u : b;
  memcpy(p, &b, 4);
}

/* One f32 per row r < h: element (r, 0) of tile t (ND or DN); *out its host row 0, *step the
 * elements between rows. dn: t must be a one-column DN tile (rule <op>.layout). */
static ptosim_status per_row(pt_ctx *x, const char *op, const char *what, const ptosim_tile *t, int64_t h, bool dn,
                             const uint8_t **out, int64_t *step) {
  PT_TRY(pt_tile_vec(x, op, what, t));
  PT_TRY(pt_tile_dtype_in(x, op, what, t->dtype, PT_TB_T(F32), PT_TB_T(F32)));
  bool is_dn = pt_tile_kind_of(t) == PT_TK_DN;
  PT_VERIFY(x, dn ? is_dn && t->cols == 1 : is_dn || is_nd(t), PT_TILE_RULE(op, "layout"),
            dn ? "use a col_major none_box tile of one column" : "use a none_box tile",
            "%s is a %s tile of %d columns", what, pt_tile_kind_name(pt_tile_kind_of(t)), t->cols);
  PT_VERIFY(x, t->valid_rows >= h, PT_TILE_RULE(op, "valid"), "give it a value per row",
            "%s has %d valid rows, needs %" PRId64, what, t->valid_rows, h);
  uint8_t *p;
  *step = is_dn ? 1 : t->cols;
  PT_TRY(pt_tile_at(x, x->core, t->space, t->addr, 0, PT_READ, &p));
  int64_t n = h, st = *step * 4;
  PT_TRY(pt_region(x, t->space, t->addr, 1, &n, &st, 4, 1, PT_READ, &p));
  *out = p;
  return PTOSIM_OK;
}

static void st_i32(uint8_t *p, int32_t v) { memcpy(p, &v, 4); }

/* tquant's tmp (PTO.cpp TQuantOp: f32): a vec tile holding src.rows x src.cols elements;
 * on A2/A3 *tp = its bytes (written), on A5 NULL (unused). */
static ptosim_status quant_tmp(pt_ctx *x, const ptosim_tquant_params *p, bool a2a3, uint8_t **tp) {
  const ptosim_tile *t = &p->tmp, *s = &p->src;
  PT_TRY(nd_tile(x, "tquant", "tmp", t));
  PT_TRY(pt_tile_dtype_in(x, "tquant", "tmp", t->dtype, PT_TB_T(F32), PT_TB_T(F32)));
  PT_VERIFY(x, (int64_t)t->rows * t->cols >= (int64_t)s->rows * s->cols, "tquant.tmp",
            "give tmp at least src's rows x cols elements", "tmp %d x %d, src %d x %d", t->rows, t->cols, s->rows,
            s->cols);
  return a2a3 ? pt_tile_rows(x, t, t->rows, t->cols, PT_WRITE, tp) : PTOSIM_OK;
}

ptosim_status pt_exec_tquant(pt_ctx *x, const ptosim_tquant_params *p) {
  const char *op = "tquant";
  const ptosim_tile *s = &p->src, *d = &p->dst;
  bool asym = p->quant == PTOSIM_QUANT_INT8_ASYM;
  PT_VERIFY(x, p->quant == PTOSIM_QUANT_INT8_SYM || asym, "tquant.mode", "use INT8_SYM or INT8_ASYM",
            "quant type %d", (int)p->quant);
  PT_TRY(nd_tile(x, op, "src", s));
  PT_TRY(nd_tile(x, op, "dst", d));
  PT_TRY(pt_tile_dtype_in(x, op, "src", s->dtype, PT_TB_T(F32), PT_TB_T(F32)));
  uint32_t out = asym ? PT_TB_T(U8) : PT_TB_T(I8); /* TQuant.hpp static_assert */
  PT_TRY(pt_tile_dtype_in(x, op, "dst", d->dtype, out, out));
  int64_t h = d->valid_rows, w = d->valid_cols, ss, os = 0;
  PT_VERIFY(x, s->valid_rows == h && s->valid_cols == w, "tquant.valid", "give src dst's valid region",
            "src valid %d x %d, dst %" PRId64 " x %" PRId64, s->valid_rows, s->valid_cols, h, w);
  const uint8_t *sc, *of = NULL;
  PT_TRY(per_row(x, op, "scale", &p->scale, h, true, &sc, &ss));
  if (asym) PT_TRY(per_row(x, op, "offset", &p->offset, h, true, &of, &os));
  bool a2a3 = x->m->target != PTOSIM_TARGET_A5;
  uint8_t *sp, *dp, *tp = NULL;
  if (p->has_tmp) PT_TRY(quant_tmp(x, p, a2a3, &tp));
  PT_TRY(pt_tile_rows(x, s, h, w, a2a3 ? PT_RW : PT_READ, &sp));
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), s->dtype);
  int64_t lo = asym ? 0 : -128, hi = asym ? 255 : 127;
  for (int64_t r = 0; r < h; r++) {
    float scale = val_f32(sc + r * ss * 4), off = asym ? val_f32(of + r * os * 4) : 0.0f;
    uint8_t *srow = sp + r * s->cols * 4, *drow = dp + r * d->cols;
    for (int64_t c = 0; c < w; c++) {
      float y = val_f32(srow + 4 * c) * scale;
      if (asym) y = y + off;
      drow[c] = (uint8_t)pt_f32_to_int(y, PT_RND_RINT, lo, hi);
      if (a2a3) st_f32(srow + 4 * c, y);
      if (tp) st_i32(tp + 4 * (r * s->cols + c), (int32_t)pt_f32_to_int(y, PT_RND_RINT, INT32_MIN, INT32_MAX));
    }
  }
  /* tmp form on A2/A3: src's bytes become the f16 tile of the s32 values (|v| <= 2^24 is
   * exact in f32; larger values overflow f16 either way). */
  int64_t pad = (s->cols + 15) / 16 * 16;
  for (int64_t r = 0; tp && r < h; r++)
    for (int64_t c = 0; c < w; c++) {
      int32_t v;
      memcpy(&v, tp + 4 * (r * s->cols + c), 4);
      uint16_t f = pt_f32_to_f16((float)v, PT_RND_RINT, PT_SAT_OFF);
      memcpy(sp + 2 * (r * pad + c), &f, 2);
    }
  return PTOSIM_OK;
}

/* Source element readers of tdequant (exact in f32). */
static float deq_i8(const uint8_t *p, int64_t c) { return (float)(int8_t)p[c]; }
static float deq_i16(const uint8_t *p, int64_t c) { int16_t v; memcpy(&v, p + 2 * c, 2); return (float)v; }

ptosim_status pt_exec_tdequant(pt_ctx *x, const ptosim_tquant_params *p) {
  const char *op = "tdequant";
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_TRY(nd_tile(x, op, "src", s));
  PT_TRY(nd_tile(x, op, "dst", d));
  PT_TRY(pt_tile_dtype_in(x, op, "src", s->dtype, PT_TB_T(I8) | PT_TB_T(I16), PT_TB_T(I8) | PT_TB_T(I16)));
  PT_TRY(pt_tile_dtype_in(x, op, "dst", d->dtype, PT_TB_T(F32), PT_TB_T(F32)));
  int64_t h = d->valid_rows, w = d->valid_cols, ss, os;
  PT_VERIFY(x, s->valid_rows == h && s->valid_cols == w, "tdequant.valid", "give src dst's valid region",
            "src valid %d x %d, dst %" PRId64 " x %" PRId64, s->valid_rows, s->valid_cols, h, w);
  const uint8_t *sc, *of;
  PT_TRY(per_row(x, op, "scale", &p->scale, h, false, &sc, &ss));
  PT_TRY(per_row(x, op, "offset", &p->offset, h, false, &of, &os));
  uint8_t *sp, *dp;
  PT_TRY(pt_tile_rows(x, s, h, w, PT_READ, &sp));
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), d->dtype);
  unsigned es = pt_dtype_size(s->dtype);
  float (*ld)(const uint8_t *, int64_t) = es == 1 ? deq_i8 : deq_i16;
  for (int64_t r = 0; r < h; r++) {
    float scale = val_f32(sc + r * ss * 4), off = val_f32(of + r * os * 4);
    const uint8_t *srow = sp + r * s->cols * es;
    uint8_t *drow = dp + r * d->cols * 4;
    for (int64_t c = 0; c < w; c++)
      st_f32(drow + 4 * c, (ld(srow, c) - off) * scale);
  }
  return PTOSIM_OK;
}

/* ---- TRANDOM --------------------------------------------------------------------------------- */

/* c += v as a 128-bit number, c[0] least significant. */
static void ctr_add(uint32_t c[4], uint32_t v) {
  for (int i = 0; i < 4 && v; i++) {
    uint64_t s = (uint64_t)c[i] + v;
    c[i] = (uint32_t)s;
    v = (uint32_t)(s >> 32);
  }
}

/* Philox4x32 of counter c under key k with `rounds` rounds (a5 TRandom.hpp TRandomKernel). */
static void philox(const uint32_t c[4], const uint32_t k[2], int rounds, uint32_t out[4]) {
  uint32_t x0 = c[0], x1 = c[1], x2 = c[2], x3 = c[3], k0 = k[0], k1 = k[1];
  for (int i = 0; i < rounds; i++) {
    uint64_t p0 = (uint64_t)x0 * 0xD2511F53u, p1 = (uint64_t)x2 * 0xCD9E8D57u;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1;
    x1 = (uint32_t)p1, x3 = (uint32_t)p0, x0 = n0, x2 = n2;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  out[0] = x0, out[1] = x1, out[2] = x2, out[3] = x3;
}

ptosim_status pt_exec_trandom(pt_ctx *x, const ptosim_trandom_params *p) {
  const ptosim_tile *d = &p->dst;
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "trandom.target", "run it on the a5 target",
            "trandom exists on A5 only (PTO.cpp TRandomOp), not on %s", x->m->prof->name);
  PT_TRY(nd_tile(x, "trandom", "dst", d));
  PT_TRY(pt_tile_dtype_in(x, "trandom", "dst", d->dtype, T_IDX32, T_IDX32));
  PT_VERIFY(x, p->rounds == 7 || p->rounds == 10, "trandom.rounds", "use rounds = 7 or 10",
            "rounds %d (a5 TRandom.hpp allows 7 or 10)", p->rounds);
  int64_t h = d->valid_rows, w = d->valid_cols;
  uint8_t *dp;
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), d->dtype);
  uint32_t c[4] = {p->counter[0], p->counter[1], p->counter[2], p->counter[3]}, lane[4], out[4];
  for (int64_t r = 0; r < h; r++) {
    uint8_t *row = dp + r * d->cols * 4;
    for (int64_t j = 0; j * 256 < w; j++) {
      for (int64_t l = 0; l < 64 && 256 * j + 4 * l < w; l++) {
        memcpy(lane, c, sizeof lane);
        ctr_add(lane, (uint32_t)l);
        philox(lane, p->key, p->rounds, out);
        int64_t at = 256 * j + 4 * l, n = w - at < 4 ? w - at : 4;
        memcpy(row + 4 * at, out, (size_t)(4 * n));
      }
      ctr_add(c, (j + 1) * 256 < w ? 64u : (uint32_t)((w - 1) % 64 + 1));
    }
  }
  return PTOSIM_OK;
}

/* ---- TPRINT ---------------------------------------------------------------------------------- */

ptosim_status pt_exec_tprint(pt_ctx *x, const ptosim_tprint_params *p) {
  const ptosim_tile *t = &p->src;
  tg_geom g;
  uint8_t *base;
  PT_VERIFY(x, !p->has_tmp || t->space == PTOSIM_UB, "op.unsupported", "print a vec tile (tmov it there first)",
            "not supported yet: tprint of a %s tile through a GM tmp (the NPU copies it there)", pt_space_name(t->space));
  PT_TRY(pt_tile_geom(x, "src", t, &g));
  PT_TRY(pt_tile_map(x, x->core, &g, 0, 0, t->valid_rows, t->valid_cols, PT_READ, &base));
  if (x->m->quiet || x->m->verify_only) return PTOSIM_OK;
  bool fl = pt_dtype_is_float(t->dtype);
  printf("tprint %s %dx%d valid %dx%d %s+0x%" PRIx64 "\n", pt_dtype_name(t->dtype), t->rows, t->cols, t->valid_rows,
         t->valid_cols, pt_space_name(t->space), t->addr);
  for (int64_t r = 0; r < t->valid_rows; r++) {
    printf("[%" PRId64 "]", r);
    for (int64_t c = 0; c < t->valid_cols; c++) {
      const uint8_t *e = base + tg_off(&g, r, c) * g.es;
      if (fl)
        printf(" %.9g", (double)pt_load_as_f32(t->dtype, e));
      else if (t->dtype == PTOSIM_DT_U64)
        printf(" %" PRIu64, (uint64_t)pt_load_int(t->dtype, e));
      else
        printf(" %" PRId64, pt_load_int(t->dtype, e));
    }
    putchar('\n');
  }
  return PTOSIM_OK;
}

/* ---- TINTERLEAVE / TDEINTERLEAVE (A5) ------------------------------------------------------- */

/* Both ops as one row permutation through a stream s of 2 w elements per row (w = dst valid
 * cols): tinterleave s = a0 b0 a1 b1 ..., dst0 = s[0, w), dst1 = s[w, 2w); tdeinterleave
 * s = a row ++ b row (or the single src row of 2 w), dst0 = s[0], s[2], ..., dst1 = s[1],
 * s[3], ... (TINTERLEAVE.md, TDEINTERLEAVE.md; a5 TInterleave.hpp vintlv, TDeInterleave.hpp
 * vdintlv). Every source row is read into s before any destination byte is written. */
#define IL_TYPES                                                                                                   \
  (TE_BIT(PTOSIM_DT_I8) | TE_BIT(PTOSIM_DT_U8) | TE_BIT(PTOSIM_DT_I16) | TE_BIT(PTOSIM_DT_U16) |                  \
   TE_BIT(PTOSIM_DT_I32) | TE_BIT(PTOSIM_DT_U32) | TE_BIT(PTOSIM_DT_F16) | TE_BIT(PTOSIM_DT_BF16) | TE_BIT(PTOSIM_DT_F32))

/* d[i] = s[i * step] for i < n, elements of es bytes. */
static void il_pick(uint8_t *d, const uint8_t *s, int64_t n, int64_t step, unsigned es) {
  if (es == 1)
    for (int64_t i = 0; i < n; i++) d[i] = s[i * step];
  else if (es == 2)
    for (int64_t i = 0; i < n; i++) memcpy(d + 2 * i, s + 2 * i * step, 2);
  else
    for (int64_t i = 0; i < n; i++) memcpy(d + 4 * i, s + 4 * i * step, 4);
}

static ptosim_status il_check(pt_ctx *x, const char *op, const ptosim_tinterleave_params *p, bool single) {
  static const uint32_t types[2] = {0, IL_TYPES};
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, PT_TILE_RULE(op, "target"), "run it on the a5 target",
            "%s is an A5 op (pto-isa has no A2/A3 implementation)", op);
  const ptosim_tile *t[4] = {&p->dst0, &p->dst1, &p->src0, &p->src1};
  static const char *const names[4] = {"dst0", "dst1", "src0", "src1"};
  int n = single ? 3 : 4;
  for (int i = 0; i < n; i++) {
    PT_TRY(pt_te_tile(x, op, names[i], t[i]));
    PT_TRY(pt_te_dtype(x, op, names[i], t[i]->dtype, types));
    PT_VERIFY(x, t[i]->dtype == p->dst0.dtype, PT_TILE_RULE(op, "dtype"), "give every tile dst0's element type",
              "%s element type %s differs from dst0's %s", names[i], pt_dtype_name(t[i]->dtype), pt_dtype_name(p->dst0.dtype));
  }
  PT_TRY(pt_te_valid(x, op, "dst1", &p->dst1, &p->dst0));
  const ptosim_tile *s = &p->src0;
  int64_t even = single ? s->valid_cols : p->dst0.valid_cols;
  PT_VERIFY(x, even % 2 == 0, PT_TILE_RULE(op, "valid"), "use an even number of valid columns",
            "%s has %d valid columns; the op pairs them", single ? "src" : "dst0", (int)even);
  if (single)
    PT_VERIFY(x, s->valid_rows == p->dst0.valid_rows && s->valid_cols == 2 * p->dst0.valid_cols,
              PT_TILE_RULE(op, "valid"), "give dst0 and dst1 src's valid rows and half its valid columns",
              "src valid region %d x %d, dst0 %d x %d", s->valid_rows, s->valid_cols, p->dst0.valid_rows,
              p->dst0.valid_cols);
  else
    for (int i = 2; i < 4; i++) PT_TRY(pt_te_valid(x, op, names[i], t[i], &p->dst0));
  return PTOSIM_OK;
}

static ptosim_status il_run(pt_ctx *x, const char *op, const ptosim_tinterleave_params *p, bool inter) {
  bool single = !inter && p->single;
  PT_TRY(il_check(x, op, p, single));
  unsigned es = pt_dtype_size(p->dst0.dtype);
  int64_t vr = p->dst0.valid_rows, w = p->dst0.valid_cols, rs = 2 * w * es, sst[2], dst[2];
  uint8_t *sp[2] = {NULL, NULL}, *dp[2];
  PT_TRY(pt_te_rows(x, &p->src0, vr, single ? 2 * w : w, PT_READ, &sp[0], &sst[0]));
  if (!single) PT_TRY(pt_te_rows(x, &p->src1, vr, w, PT_READ, &sp[1], &sst[1]));
  PT_TRY(pt_te_rows(x, &p->dst0, vr, w, PT_WRITE, &dp[0], &dst[0]));
  PT_TRY(pt_te_rows(x, &p->dst1, vr, w, PT_WRITE, &dp[1], &dst[1]));
  uint8_t *s = malloc((size_t)(vr * rs));
  if (!s && vr) return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory for %" PRId64 " rows", vr);
  for (int64_t r = 0; r < vr; r++) { /* the streams of every row */
    uint8_t *sr = s + r * rs;
    if (single) memcpy(sr, sp[0] + r * sst[0], (size_t)rs);
    for (int k = 0; k < 2 && !single; k++) {
      const uint8_t *a = sp[k] + r * sst[k];
      if (inter)
        for (int64_t c = 0; c < w; c++) memcpy(sr + (2 * c + k) * es, a + c * es, es);
      else
        memcpy(sr + k * w * es, a, (size_t)(w * es));
    }
  }
  for (int64_t r = 0; r < vr; r++)
    for (int k = 0; k < 2; k++) {
      const uint8_t *sr = s + r * rs;
      if (inter) memcpy(dp[k] + r * dst[k], sr + k * w * es, (size_t)(w * es));
      else il_pick(dp[k] + r * dst[k], sr + k * es, w, 2, es);
    }
  free(s);
  pt_record_work(x, (uint64_t)(2 * vr * w), p->dst0.dtype);
  return PTOSIM_OK;
}

ptosim_status pt_exec_tinterleave(pt_ctx *x, const ptosim_tinterleave_params *p) {
  return il_run(x, "tinterleave", p, true);
}
ptosim_status pt_exec_tdeinterleave(pt_ctx *x, const ptosim_tinterleave_params *p) {
  return il_run(x, "tdeinterleave", p, false);
}
