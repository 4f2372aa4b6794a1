/* Predicate tile ops: pto.tcmp / pto.tcmps write a packed predicate tile, pto.tsel / pto.tsels
 * read one (pto-isa docs/isa/tile/ops/elementwise-tile-tile/tcmp.md, tsel.md,
 * tile-scalar-and-immediate/tcmps.md, tsels.md; include/pto/npu/{a2a3,a5}/TCmp*.hpp, TSel*.hpp).
 *
 * Predicate tile (both targets): an 8-bit integer ND vec tile; element (r, c) of the compared
 * region is bit c % 8 of byte r * cols + c / 8 (a2a3 vcmpv packs one bit per element, repeats
 * back to back; a5 psts PK / NORM of the compare predicate, rows at RowStride bytes).
 *
 *   tcmp   m(r, c) = a(r, c) <mode> b(r, c)        for r < vr, c < vc (src0's valid region)
 *   tcmps  m(r, c) = a(r, c) <mode> s
 *   tsel   d(r, c) = m(r, c) ? a(r, c) : b(r, c)   over dst's valid region
 *   tsels  d(r, c) = m(r, c) ? a(r, c) : s
 *
 * tcmp / tcmps write whole vector repeats per row, as the NPU code does: ceil(vc / G) * G bits,
 * the bits past vc zero (a5: the tail lanes' predicate is off; a2a3 compares whatever follows
 * the valid columns, see docs/spec-notes.md section 19), G = the elements of one repeat (a2a3
 * 256 B / element size; a5 256 for 8-bit, 128 for 16- and 32-bit: TCmp_32B stores two
 * 64-lane compares at once; 256 for 64-bit, whose rows hold at most 64 elements: one 32-byte
 * predicate store per row). A5 64-bit compares are true 64-bit compares, signed for i64 and
 * unsigned for u64 (section 14.9). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "isa/tile_elem.h"

/* ---- compare rows: bits of n elements into ceil(n / 8) bytes, the last byte's tail 0 ----- */

/* Compare element i of a with b[i] (tile form) or with the scalar (b NULL). */
#define CMP_ROW(op, K, OPR)                                                                  \
  static void op##_##K(const te_row *g) {                                                    \
    uint8_t *d = g->d;                                                                       \
    const uint8_t *a = g->a, *b = g->b;                                                      \
    pt_vl_c_##K s = te_s_##K(g);                                                             \
    for (int64_t j = 0, n = g->n; j < (n + 7) / 8; j++) {                                    \
      unsigned v = 0;                                                                        \
      for (int64_t k = 0; k < 8 && 8 * j + k < n; k++) {                                     \
        pt_vl_c_##K x = te_ld_##K(a, 8 * j + k), y = b ? te_ld_##K(b, 8 * j + k) : s;        \
        v |= (unsigned)(x OPR y) << k;                                                       \
      }                                                                                      \
      d[j] = (uint8_t)v;                                                                     \
    }                                                                                        \
  }

#define CMP_KINDS(M, op, F) PT_VL_INTS(M, op, F) PT_VL_INTS64(M, op, F) PT_VL_FLOATS(M, op, F)
#define CMP_ENTRY(op, K, F) [PT_VL_DT_##K] = op##_##K,
#define CMP_LOOPS(op, OPR) CMP_KINDS(CMP_ROW, op, OPR) static const te_fn op##_loops[PTOSIM_DT_COUNT] = {CMP_KINDS(CMP_ENTRY, op, _)};
CMP_LOOPS(eq, ==)
CMP_LOOPS(ne, !=)
CMP_LOOPS(lt, <)
CMP_LOOPS(le, <=)
CMP_LOOPS(gt, >)
CMP_LOOPS(ge, >=)

static const te_fn *const k_cmp[] = {[PTOSIM_TCMP_EQ] = eq_loops, [PTOSIM_TCMP_NE] = ne_loops,
                                     [PTOSIM_TCMP_LT] = lt_loops, [PTOSIM_TCMP_LE] = le_loops,
                                     [PTOSIM_TCMP_GT] = gt_loops, [PTOSIM_TCMP_GE] = ge_loops};

/* ---- select rows: d[i] = bit i of c ? a[i] : (b ? b[i] : the scalar's bits) -------------- */

#define SEL_ROW(W, U)                                                                        \
  static void sel_##W(const te_row *g) {                                                     \
    uint8_t *d = g->d;                                                                       \
    const uint8_t *a = g->a, *b = g->b, *m = g->c;                                           \
    U s = (U)(uint64_t)g->s.i;                                                               \
    for (int64_t i = 0, n = g->n; i < n; i++) {                                              \
      U x, y = s;                                                                            \
      memcpy(&x, a + i * W, W);                                                              \
      if (b) memcpy(&y, b + i * W, W);                                                       \
      U v = (m[i >> 3] >> (i & 7) & 1u) ? x : y;                                             \
      memcpy(d + i * W, &v, W);                                                              \
    }                                                                                        \
  }
SEL_ROW(1, uint8_t)
SEL_ROW(2, uint16_t)
SEL_ROW(4, uint32_t)
SEL_ROW(8, uint64_t)

/* ---- checks ------------------------------------------------------------------------------ */

#define B(t) TE_BIT(PTOSIM_DT_##t)
#define T_INTS (B(I8) | B(U8) | B(I16) | B(U16) | B(I32) | B(U32))
#define T_INT64 (B(I64) | B(U64))
#define T_B24 (B(I16) | B(U16) | B(I32) | B(U32) | B(F16) | B(BF16) | B(F32))
#define T_B8 (B(I8) | B(U8) | B(F8E4M3) | B(F8E5M2) | B(HIF8) | B(F8E8M0) | B(F4E1M2X2) | B(F4E2M1X2))

/* Element types per op and target ([0] A2/A3, [1] A5): the static_asserts of a2a3 / a5
 * TCmp.hpp, TCmps.hpp (TcmpsCheck), TSel.hpp, TSels.hpp (docs/spec-notes.md section 14.9).
 * a5 TSel takes any element of 1, 2, 4 or 8 bytes: every such tile type of pto-isa a5. */
#define T_A5CMP (T_INTS | T_INT64 | B(F16) | B(BF16) | B(F32))
static const uint32_t k_types[][2] = {
    [0] = {B(I32) | B(F16) | B(F32), T_A5CMP},                 /* tcmp */
    [1] = {B(I16) | B(U16) | B(I32) | B(F16) | B(F32), T_A5CMP}, /* tcmps */
    [2] = {T_B24, T_B24 | T_B8 | T_INT64},                     /* tsel */
    [3] = {T_B24, T_INTS | T_INT64 | B(F16) | B(F32)},         /* tsels */
};

/* Valid columns op `name` handles as its formula says on A5 for elements of es bytes
 * (0: any), checked as rule <op>.cols:
 * - 64-bit tcmp / tcmps / tsel / tsels (a5 Int64Binary.hpp Int64Compare, Int64CompareScalar,
 *   Int64Select, Int64SelectScalar) load one DINTLV_B32 register pair per row, the first 64
 *   elements, and have no column loop: later columns are neither compared nor selected;
 * - 8-bit tsel (a5 TSel.hpp TSel_b16_8) steps the mask 16 bytes per 256-element repeat, so
 *   from column 256 on it selects with the bits of other columns. */
static int64_t a5_max_cols(bool sel, bool scalar, unsigned es) {
  return es == 8 ? 64 : es == 1 && sel && !scalar ? 256 : 0;
}

static bool is_byte_int(ptosim_dtype t) { return t == PTOSIM_DT_I8 || t == PTOSIM_DT_U8; }

/* The predicate tile m of op `name` (`what`): an 8-bit integer vec ND tile of at least vr rows
 * of `bytes` bytes. */
static ptosim_status check_pred(pt_ctx *x, const char *name, const char *what, const ptosim_tile *m, int64_t vr,
                                int64_t bytes) {
  PT_TRY(pt_te_tile(x, name, what, m));
  PT_VERIFY(x, is_byte_int(m->dtype), PT_TILE_RULE(name, "mask"), "declare the predicate tile with dtype i8 or ui8",
            "%s element type %s is not an 8-bit integer (one bit per element, 8 per byte)", what,
            pt_dtype_name(m->dtype));
  PT_VERIFY(x, m->rows >= vr && m->cols >= bytes, PT_TILE_RULE(name, "mask"),
            "give the predicate tile a row per compared row and enough bytes per row",
            "%s is %d x %d bytes; the op needs %" PRId64 " rows of %" PRId64 " bytes", what, m->rows, m->cols, vr, bytes);
  return PTOSIM_OK;
}

/* Source s of op `name` has ref's element type and valid region. */
static ptosim_status check_like(pt_ctx *x, const char *name, const char *what, const ptosim_tile *s,
                                const ptosim_tile *ref, const char *refname) {
  PT_TRY(pt_te_tile(x, name, what, s));
  PT_VERIFY(x, s->dtype == ref->dtype, PT_TILE_RULE(name, "dtype"), "give both operands the same element type",
            "%s element type %s differs from %s's %s", what, pt_dtype_name(s->dtype), refname,
            pt_dtype_name(ref->dtype));
  PT_VERIFY(x, s->valid_rows == ref->valid_rows && s->valid_cols == ref->valid_cols, PT_TILE_RULE(name, "valid"),
            "give both operands the same valid shape (pto-isa asserts they are equal)",
            "%s valid region %d x %d differs from %s valid region %d x %d", what, s->valid_rows, s->valid_cols,
            refname, ref->valid_rows, ref->valid_cols);
  return PTOSIM_OK;
}

/* Bytes per row tcmp writes for vc valid columns: whole repeats of G elements (file comment),
 * ceil(vc / G) * G / 8; a5 64-bit: one 256-bit psts NORM per valid row (a5 Int64Binary.hpp
 * Int64Compare / Int64CompareScalar), bits 0..vc-1 the results, stored for vc = 0 too (all
 * zero bits). */
static int64_t row_bytes(bool a5, unsigned es, int64_t vc) {
  if (a5 && es == 8) return 32;
  int64_t g = a5 ? (es == 1 ? 256 : 128) : 256 / es;
  return (vc + g - 1) / g * g / 8;
}

/* On A5, vc valid columns of es-byte elements are within a5_max_cols. */
static ptosim_status check_cols(pt_ctx *x, const char *name, bool sel, bool scalar, unsigned es, int64_t vc) {
  int64_t max = x->m->target == PTOSIM_TARGET_A5 ? a5_max_cols(sel, scalar, es) : 0;
  PT_VERIFY(x, max == 0 || vc <= max, PT_TILE_RULE(name, "cols"),
            "split the op into pieces of at most that many columns (tile views / subsets)",
            "A5 handles %" PRId64 " valid columns of %u-byte elements at most, not %" PRId64
            " (the pto-isa a5 code does not loop over more: docs/spec-notes.md section 14.9)", max, es, vc);
  return PTOSIM_OK;
}

/* ---- tcmp / tcmps ------------------------------------------------------------------------ */

ptosim_status pt_exec_tcmp(pt_ctx *x, const ptosim_telem_params *p) {
  bool scalar = x->op == PTOSIM_OP_tcmps, a5 = x->m->target == PTOSIM_TARGET_A5;
  const char *name = scalar ? "tcmps" : "tcmp";
  const ptosim_tile *a = &p->src0, *d = &p->dst;
  PT_TRY(pt_te_tile(x, name, "src0", a));
  if (!scalar) PT_TRY(check_like(x, name, "src1", &p->src1, a, "src0"));
  PT_TRY(pt_te_dtype(x, name, "src0", a->dtype, k_types[scalar]));
  /* a5 TCmp_32B loads src1's even 64-lane halves of a repeat pair at src0's row stride and
   * src0's odd halves at src1's: the same stride, or one row, keeps each row its own. */
  PT_VERIFY(x, !a5 || scalar || pt_dtype_size(a->dtype) != 4 || a->valid_rows <= 1 || a->cols == p->src1.cols,
            PT_TILE_RULE(name, "stride"), "give src0 and src1 the same number of columns",
            "A5 compares 32-bit rows of tiles %d and %d columns wide with each other's row stride "
            "(a5 TCmp.hpp TCmp_32B)", a->cols, p->src1.cols);
  PT_VERIFY(x, (unsigned)p->cmp <= PTOSIM_TCMP_GE, PT_TILE_RULE(name, "mode"), "use eq ne lt le gt ge",
            "comparison %d is not a mode", (int)p->cmp);
  PT_VERIFY(x, a5 || a->dtype != PTOSIM_DT_I32 || p->cmp <= PTOSIM_TCMP_NE, PT_TILE_RULE(name, "mode"),
            "compare i32 for eq / ne only on A2/A3, or convert to f32 first",
            "A2/A3 compares i32 for equality only (a2a3 %s.hpp issues vcmpv%s_eq for every mode)",
            scalar ? "TCmps" : "TCmp", scalar ? "s" : "");
  int64_t vr = a->valid_rows, vc = a->valid_cols;
  PT_TRY(check_cols(x, name, false, scalar, pt_dtype_size(a->dtype), vc));
  int64_t wbytes = row_bytes(a5, pt_dtype_size(a->dtype), vc);
  PT_TRY(check_pred(x, name, "dst", d, vr, wbytes));
  PT_VERIFY(x, d->valid_rows == vr, PT_TILE_RULE(name, "valid"), "give dst src0's valid rows",
            "dst valid rows %d differ from src0's %" PRId64, d->valid_rows, vr);
  int64_t sa, sb = 0, sd;
  uint8_t *ap, *bp = NULL, *dp;
  PT_TRY(pt_te_rows(x, a, vr, vc, PT_READ, &ap, &sa));
  if (!scalar) PT_TRY(pt_te_rows(x, &p->src1, vr, vc, PT_READ, &bp, &sb));
  PT_TRY(pt_te_rows(x, d, vr, wbytes, PT_WRITE, &dp, &sd));
  if (!vr || !wbytes) return PTOSIM_OK; /* A5, an empty region: zero loops */
  /* A2/A3 TCmps compares 16-bit integers as the halves their bits spell (a reinterpret_cast). */
  ptosim_dtype kind = !a5 && scalar && pt_dtype_size(a->dtype) == 2 ? PTOSIM_DT_F16 : a->dtype;
  te_row r = {.n = vc, .s = pt_te_scalar_of(p->scalar, a->dtype)};
  if (kind != a->dtype) r.s.f = pt_vl_f16_to_f32((uint16_t)r.s.i);
  /* The result goes to a buffer first: dst may overlap a source in any way. */
  uint8_t *out = calloc((size_t)(vr * wbytes), 1);
  if (!out) return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory");
  te_fn fn = k_cmp[p->cmp][kind];
  for (int64_t i = 0; i < vr; i++) {
    r.d = out + i * wbytes, r.a = ap + i * sa, r.b = bp ? bp + i * sb : NULL;
    fn(&r);
  }
  for (int64_t i = 0; i < vr; i++) memcpy(dp + i * sd, out + i * wbytes, (size_t)wbytes);
  free(out);
  pt_record_work(x, (uint64_t)(vr * vc), a->dtype);
  return PTOSIM_OK;
}

/* ---- tsel / tsels ------------------------------------------------------------------------ */

/* The scalar of tsels as the bits of an element of type t. */
static int64_t scalar_bits(ptosim_scalar s, ptosim_dtype t) {
  te_scalar v = pt_te_scalar_of(s, t);
  if (!pt_dtype_is_float(t)) return v.i;
  uint64_t b = 0;
  pt_store_from_f32(t, &b, v.f, PT_RND_RINT, PT_SAT_OFF); /* exact: v.f is a value of t */
  return (int64_t)b;
}

ptosim_status pt_exec_tsel(pt_ctx *x, const ptosim_telem_params *p) {
  bool scalar = x->op == PTOSIM_OP_tsels;
  const char *name = scalar ? "tsels" : "tsel";
  const ptosim_tile *d = &p->dst, *src[2] = {&p->src0, &p->src1};
  static const char *const names[] = {"src0", "src1"};
  int ns = scalar ? 1 : 2;
  PT_TRY(pt_te_tile(x, name, "dst", d));
  for (int i = 0; i < ns; i++) PT_TRY(check_like(x, name, names[i], src[i], d, "dst"));
  if (p->has_tmp) PT_TRY(pt_te_tile(x, name, "tmp", &p->tmp));
  PT_TRY(pt_te_dtype(x, name, "dst", d->dtype, k_types[2 + scalar]));
  int64_t vr = d->valid_rows, vc = d->valid_cols, mbytes = (vc + 7) / 8, sm, sd, ss[2] = {0, 0};
  PT_TRY(check_cols(x, name, true, scalar, pt_dtype_size(d->dtype), vc));
  PT_TRY(check_pred(x, name, "mask", &p->mask, vr, mbytes));
  uint8_t *mp, *dp, *q, *copy[2] = {NULL, NULL};
  const uint8_t *sp[2] = {NULL, NULL};
  PT_TRY(pt_te_rows(x, &p->mask, vr, mbytes, PT_READ, &mp, &sm));
  for (int i = 0; i < ns; i++) {
    PT_TRY(pt_te_rows(x, src[i], vr, vc, PT_READ, &q, &ss[i]));
    sp[i] = q;
  }
  PT_TRY(pt_te_rows(x, d, vr, vc, PT_WRITE, &dp, &sd));
  if (!vr || !vc) return PTOSIM_OK; /* A5, an empty region: zero loops */
  /* The mask is small: a private copy keeps it intact whatever dst overlaps. */
  uint8_t *mask = malloc((size_t)(vr * mbytes));
  ptosim_status st = mask ? PTOSIM_OK : pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory");
  for (int64_t i = 0; i < vr && mask; i++) memcpy(mask + i * mbytes, mp + i * sm, (size_t)mbytes);
  for (int i = 0; i < ns && st == PTOSIM_OK; i++) st = pt_te_stage(x, src[i], d, vr, vc, &sp[i], &copy[i]);
  if (st == PTOSIM_OK) {
    static const te_fn by_size[9] = {[1] = sel_1, [2] = sel_2, [4] = sel_4, [8] = sel_8};
    te_fn fn = by_size[pt_dtype_size(d->dtype)];
    te_row r = {.n = vc, .s.i = scalar ? scalar_bits(p->scalar, d->dtype) : 0};
    for (int64_t i = 0; i < vr; i++) {
      r.d = dp + i * sd, r.a = sp[0] + i * ss[0], r.b = sp[1] ? sp[1] + i * ss[1] : NULL, r.c = mask + i * mbytes;
      fn(&r);
    }
    pt_record_work(x, (uint64_t)(vr * vc), d->dtype);
  }
  free(mask);
  for (int i = 0; i < 2; i++) free(copy[i]);
  return st;
}
