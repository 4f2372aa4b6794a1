/* Tile operand checks and helpers shared by the tile op families (tile_check.h). */
#include <inttypes.h>
#include <stdio.h>

#include "isa/tile_check.h"

#define MAX_ELEMS (1ll << 40) /* elements of a tile: more than any local memory holds */

/* The rules of each family beyond the common ones. pto-isa pto_tile.hpp (struct Tile) and the
 * PTOAS tile_buf verifier (lib/PTO/IR/PTO.cpp) ask for fractals 512 / 1024 / 32, whole boxes
 * (rows free on vec tiles, one-row tiles and MX scale tiles) and 32-byte none_box lines; the
 * three families were written against different readings and keep them:
 *   layout: fractals 512 / 1024, whole boxes with those row exceptions, 32-byte lines;
 *   move:   fractals 512, 1024 (4-byte), 32 (1-byte), whole boxes, 32-byte lines unless the
 *           tile is one line or its lines one element;
 *   matrix: any fractal of whole 16-element box sides, storage rounded up to whole boxes
 *           (tile_geom.h), no line rule, and a one-row left tile is a dense GEMV vector. */
static const struct {
  bool boxes;     /* boxed tiles are whole boxes */
  bool rows_free; /* ... except the rows of vec tiles and one-row tiles */
  bool lines;     /* none_box lines are whole 32-byte blocks */
  bool one_line;  /* ... except a tile of one line or of one-element lines */
  bool gemv;      /* a one-row left (L0A) tile is the dense GEMV vector */
} k_rules[] = {
    [PT_TILE_LAYOUT] = {.boxes = true, .rows_free = true, .lines = true},
    [PT_TILE_MOVE] = {.boxes = true, .lines = true, .one_line = true},
    [PT_TILE_MATRIX] = {.gemv = true},
};

static const char *const k_kind_name[] = {"ND", "DN", "NZ", "ZN", "ZZ", "NN", "GEMV vector"};

pt_tile_kind pt_tile_kind_of(const ptosim_tile *t) {
  bool row = t->blayout == PTOSIM_BL_ROW_MAJOR, inner_row = t->slayout == PTOSIM_SL_ROW_MAJOR;
  if (t->slayout == PTOSIM_SL_NONE_BOX) return row ? PT_TK_ND : PT_TK_DN;
  if (row) return inner_row ? PT_TK_ZZ : PT_TK_ZN;
  return inner_row ? PT_TK_NZ : PT_TK_NN;
}

const char *pt_tile_kind_name(pt_tile_kind k) { return k_kind_name[k]; }

/* Box side across the fixed 16-element side, in elements, of a `fractal`-byte box of es-byte
 * elements (pto_tile.hpp getInnerRow / getInnerCol); 0 when family f does not model it. */
static int64_t box_side(pt_tile_family f, int32_t fractal, unsigned es) {
  int64_t line = 16 * (int64_t)es; /* bytes of 16 elements */
  switch (f) {
    case PT_TILE_LAYOUT: /* 16 x C0, or the 16 x 16 acc box whatever the element size */
      return fractal == 512 ? PT_C0 / es : fractal == 1024 ? 16 : 0;
    case PT_TILE_MOVE: /* 16 x C0, 16 x 16 of 4-byte accumulators, 16 x 2 of e8m0 MX scales */
      return fractal == 512 || (fractal == 1024 && es == 4) || (fractal == 32 && es == 1) ? fractal / line : 0;
    default: return fractal >= line && fractal % line == 0 ? fractal / line : 0;
  }
}

static ptosim_status check_boxes(pt_ctx *x, pt_tile_family f, const char *what, const ptosim_tile *t, pt_tile_info *i) {
  int64_t side = box_side(f, t->fractal, i->es);
  PT_VERIFY(x, side, "tile.fractal", "use fractal 512 (1024 for 4-byte acc tiles, 32 for e8m0 MX scales)",
            "%s tile: fractal %d is not a box size of %s elements", what, t->fractal, pt_dtype_name(t->dtype));
  i->in_col = t->slayout == PTOSIM_SL_COL_MAJOR;
  i->ir = i->in_col ? side : 16;
  i->ic = i->in_col ? 16 : side;
  if (!k_rules[f].boxes) return PTOSIM_OK;
  bool rows_free = k_rules[f].rows_free && (t->space == PTOSIM_UB || t->rows == 1);
  PT_VERIFY(x, t->cols % i->ic == 0 && (rows_free || t->rows % i->ir == 0), "tile.box",
            "make rows and cols whole numbers of fractal boxes",
            "%s %s tile %d x %d is not a whole number of %" PRId64 " x %" PRId64 " boxes", what,
            pt_tile_kind_name(pt_tile_kind_of(t)), t->rows, t->cols, i->ir, i->ic);
  return PTOSIM_OK;
}

/* A none_box tile is lines of len elements: ND rows, DN columns. */
static ptosim_status check_lines(pt_ctx *x, pt_tile_family f, const char *what, const ptosim_tile *t,
                                 const pt_tile_info *i) {
  if (!k_rules[f].lines) return PTOSIM_OK;
  int64_t len = i->in_col ? t->rows : t->cols, lines = i->in_col ? t->cols : t->rows;
  bool exempt = k_rules[f].one_line && (lines == 1 || len == 1);
  PT_VERIFY(x, exempt || len * i->es % PT_C0 == 0, "tile.align",
            "pad the tile's rows (DN: columns) to a multiple of 32 bytes",
            "%s %s tile %d x %d of %s: a line of %" PRId64 " bytes is not a multiple of 32", what,
            pt_tile_kind_name(pt_tile_kind_of(t)), t->rows, t->cols, pt_dtype_name(t->dtype), len * i->es);
  return PTOSIM_OK;
}

/* The ops that accept an empty valid region (valid_rows == 0 or valid_cols == 0) on every tile
 * operand, because pto-isa's NPU code runs it as zero loops or gives it a meaning; each op
 * refuses its own undefined cases ("<op>.empty"). docs/spec-notes.md, Empty valid regions. */
static bool may_be_empty(ptosim_opcode op) {
  switch (op) {
    case PTOSIM_OP_tload:       /* TLoad.hpp: nBurst / lenBurst of 0, nothing moved */
    case PTOSIM_OP_tstore:      /* TStore.hpp: the same on the way out */
    case PTOSIM_OP_tpartadd:    /* TPartOp.hpp / TPartBinOps.hpp: empty dst: nothing; empty */
    case PTOSIM_OP_tpartmul:    /* source: dst = the other source */
    case PTOSIM_OP_tpartmax:
    case PTOSIM_OP_tpartmin:
    case PTOSIM_OP_tpartargmax: /* TPartArgOp.hpp / TPartArgBinOps.hpp: the same (a2a3 asserts */
    case PTOSIM_OP_tpartargmin: /* on an empty dst: tpartarg*.empty) */
    case PTOSIM_OP_tcolsum:     /* TColSum.hpp & co.: return on an empty src (an empty dst */
    case PTOSIM_OP_tcolmax:     /* under a non-empty src is written: <op>.empty) */
    case PTOSIM_OP_tcolmin:
    case PTOSIM_OP_tcolprod:
    case PTOSIM_OP_tcolexpand:  /* empty dst: zero loops; empty src: a2a3 returns, a5 asserts */
    case PTOSIM_OP_treshape:    /* TReshape.hpp, TPrefetch.hpp: no valid extent is read, */
    case PTOSIM_OP_tprefetch:   /* the static tile shape is used */
    case PTOSIM_OP_tfillpad:    /* a2a3 TFillPad.hpp returns on an empty dst; a5 pads dst's */
    case PTOSIM_OP_tfillpad_inplace: /* valid rows (tfillpad.empty: a2a3 empty src, mat tiles) */
    case PTOSIM_OP_tfillpad_expand:
      return true;
    default:
      return false;
  }
}

/* The ops that take an empty valid region on A5 only: their a5 code loops over the valid rows
 * and CeilDivision(valid columns, lanes) repeats (or valid rows * columns / lanes), zero
 * iterations, with no early store, while the a2a3 code issues a repeat, count or mask of 0,
 * whose hardware meaning is not a no-op (PTOAS VPTOUbOps.td: repeat 0 in count mode takes the
 * count register). Each op refuses its own A5 exceptions ("<op>.empty"). */
static bool a5_may_be_empty(ptosim_opcode op) {
  switch (op) {
    /* pt_exec_telem: a5 TBinOp.hpp, TBinSOp.hpp, TTernOp.hpp, TUnaryOp.hpp, TRsqrt.hpp, TPow.hpp,
     * TAxpy.hpp, TExpandS.hpp (BinaryInstr / Int64Fill), Int64Binary.hpp, Int64Div.hpp */
    case PTOSIM_OP_tadd: case PTOSIM_OP_tsub: case PTOSIM_OP_tmul: case PTOSIM_OP_tdiv:
    case PTOSIM_OP_tmax: case PTOSIM_OP_tmin: case PTOSIM_OP_tand: case PTOSIM_OP_tor:
    case PTOSIM_OP_txor: case PTOSIM_OP_tshl: case PTOSIM_OP_tshr: case PTOSIM_OP_tfmod:
    case PTOSIM_OP_trem: case PTOSIM_OP_tprelu: case PTOSIM_OP_taddrelu: case PTOSIM_OP_tsubrelu:
    case PTOSIM_OP_taddc: case PTOSIM_OP_tsubc: case PTOSIM_OP_tfusedmuladd:
    case PTOSIM_OP_tfusedmuladdrelu: case PTOSIM_OP_tmuladddst: case PTOSIM_OP_tadds:
    case PTOSIM_OP_tsubs: case PTOSIM_OP_tmuls: case PTOSIM_OP_tdivs: case PTOSIM_OP_tmaxs:
    case PTOSIM_OP_tmins: case PTOSIM_OP_tands: case PTOSIM_OP_tors: case PTOSIM_OP_txors:
    case PTOSIM_OP_tshls: case PTOSIM_OP_tshrs: case PTOSIM_OP_tfmods: case PTOSIM_OP_trems:
    case PTOSIM_OP_tlrelu: case PTOSIM_OP_taddsc: case PTOSIM_OP_tsubsc: case PTOSIM_OP_taxpy:
    case PTOSIM_OP_tabs: case PTOSIM_OP_tneg: case PTOSIM_OP_tnot: case PTOSIM_OP_texp:
    case PTOSIM_OP_tlog: case PTOSIM_OP_tsqrt: case PTOSIM_OP_trsqrt: case PTOSIM_OP_trecip:
    case PTOSIM_OP_trelu: case PTOSIM_OP_texpands: case PTOSIM_OP_tpow: case PTOSIM_OP_tpows:
    case PTOSIM_OP_tcmp: case PTOSIM_OP_tcmps: /* TCmp.hpp, TCmps.hpp (64-bit: a zero row store) */
    case PTOSIM_OP_tsel: case PTOSIM_OP_tsels: /* TSel.hpp, TSels.hpp */
    case PTOSIM_OP_ttri:                       /* TTri.hpp, Int64Tri */
    case PTOSIM_OP_tci:                        /* Tci.hpp: the valid columns only (tmp: tci.empty) */
    case PTOSIM_OP_trowexpandadd: case PTOSIM_OP_trowexpandsub: case PTOSIM_OP_trowexpandmul:
    case PTOSIM_OP_trowexpanddiv: case PTOSIM_OP_trowexpandmax: case PTOSIM_OP_trowexpandmin:
    case PTOSIM_OP_trowexpandexpdif:           /* TRowExpandBinOp.hpp */
    case PTOSIM_OP_tcolexpandadd: case PTOSIM_OP_tcolexpandsub: case PTOSIM_OP_tcolexpandmul:
    case PTOSIM_OP_tcolexpanddiv: case PTOSIM_OP_tcolexpandmax: case PTOSIM_OP_tcolexpandmin:
    case PTOSIM_OP_tcolexpandexpdif:           /* TColExpandBinOp.hpp */
      return true;
    default:
      return false;
  }
}

/* An empty valid region of the running op is refused: tile.empty, with A2/A3's reason when A5
 * takes it. */
static ptosim_status refuse_empty(pt_ctx *x, const char *what, const ptosim_tile *t) {
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  if (may_be_empty(x->op) || (a5 && a5_may_be_empty(x->op))) return PTOSIM_OK;
  return pt_fail(x, PTOSIM_E_VERIFY, "tile.empty",
                 a5_may_be_empty(x->op)
                     ? "A2/A3 issues a repeat, count or mask of 0 for it, which is not a no-op on that hardware; "
                       "A5 takes it (docs/spec-notes.md, Empty valid regions)"
                     : "give the tile a valid region of at least one element (docs/spec-notes.md, Empty valid regions)",
                 "%s tile valid %d x %d is empty; only the ops whose NPU code handles an empty region take one", what,
                 t->valid_rows, t->valid_cols);
}

ptosim_status pt_tile_check(pt_ctx *x, pt_tile_family f, const char *what, const ptosim_tile *t, pt_tile_info *out) {
  unsigned es = pt_dtype_size(t->dtype);
  PT_VERIFY(x, es, "tile.dtype", "give the tile a byte-sized element type", "%s tile has element type %s", what,
            pt_dtype_name(t->dtype));
  PT_VERIFY(x,
            (unsigned)t->blayout <= PTOSIM_BL_COL_MAJOR && (unsigned)t->slayout <= PTOSIM_SL_COL_MAJOR &&
                (unsigned)t->pad <= PTOSIM_PAD_MIN && (uint32_t)t->compact <= 3,
            "tile.enum", "use the enumerators of ptosim/tile.h (compact 0..3)",
            "%s tile: blayout %d, slayout %d, pad %d or compact %d is not an enumerator", what, (int)t->blayout,
            (int)t->slayout, (int)t->pad, t->compact);
  PT_VERIFY(x, t->rows >= 1 && t->cols >= 1 && (int64_t)t->rows * t->cols <= MAX_ELEMS, "tile.shape",
            "tile rows and cols are positive and the tile fits a local memory", "%s tile shape %d x %d", what, t->rows,
            t->cols);
  PT_VERIFY(x, t->valid_rows >= 0 && t->valid_rows <= t->rows && t->valid_cols >= 0 && t->valid_cols <= t->cols,
            "tile.valid", "keep 0 <= valid <= shape in both dimensions", "%s tile valid %d x %d outside shape %d x %d",
            what, t->valid_rows, t->valid_cols, t->rows, t->cols);
  if (!t->valid_rows || !t->valid_cols) PT_TRY(refuse_empty(x, what, t));
  bool vector = k_rules[f].gemv && t->space == PTOSIM_L0A && t->rows == 1;
  pt_tile_info i = {.es = es, .boxed = t->slayout != PTOSIM_SL_NONE_BOX && !vector, .ir = 1, .ic = 1};
  if (i.boxed) {
    PT_TRY(check_boxes(x, f, what, t, &i));
  } else {
    i.in_col = t->blayout == PTOSIM_BL_COL_MAJOR && !vector;
    PT_TRY(check_lines(x, f, what, t, &i));
  }
  if (out) *out = i;
  return PTOSIM_OK;
}

ptosim_status pt_tile_in(pt_ctx *x, const char *rule, const char *hint, const char *what, const ptosim_tile *t,
                         ptosim_space want) {
  PT_VERIFY(x, t->space == want, rule, hint ? hint : "place the tile in the memory the op works on",
            "%s tile is in %s, not %s", what, pt_space_name(t->space), pt_space_name(want));
  return PTOSIM_OK;
}

ptosim_status pt_tile_at(pt_ctx *x, ptosim_core *c, ptosim_space sp, uint64_t addr, uint64_t len, pt_access acc,
                         uint8_t **out) {
  unsigned align = (unsigned)sp < PTOSIM_SPACE_COUNT ? x->m->prof->align[sp] : 1; /* else mem.space */
  return pt_span_on(x, c, sp, addr, len, align, acc, out);
}

ptosim_status pt_tile_in_op(pt_ctx *x, const char *op, const char *rule, const char *hint, const char *what,
                            const ptosim_tile *t, ptosim_space want) {
  return t->space == want ? PTOSIM_OK : pt_tile_in(x, PT_TILE_RULE(op, rule), hint, what, t, want);
}

ptosim_status pt_tile_cols64(pt_ctx *x, const char *op, const char *what, ptosim_dtype dt, int64_t w) {
  PT_VERIFY(x, pt_dtype_size(dt) != 8 || w <= 64, PT_TILE_RULE(op, "cols64"),
            "split the op into pieces of at most 64 valid columns",
            "%s has %" PRId64 " valid columns of %s; a5 handles a 64-bit row as one 64-lane register pair", what, w,
            pt_dtype_name(dt));
  return PTOSIM_OK;
}

const char *pt_tile_rule(char *buf, const char *op, const char *rule) {
  snprintf(buf, 64, "%s.%s", op, rule);
  return buf;
}

/* Bit pattern of pad value v in element type t (tile_check.h). */
static uint64_t pad_bits(ptosim_dtype t, ptosim_pad_value v) {
  if (v != PTOSIM_PAD_MAX && v != PTOSIM_PAD_MIN) return 0;
  bool max = v == PTOSIM_PAD_MAX;
  switch (t) {
    case PTOSIM_DT_F32: return max ? 0x7f800000u : 0xff800000u;
    case PTOSIM_DT_F16: return max ? 0x7c00u : 0xfc00u;
    case PTOSIM_DT_BF16: return max ? 0x7f80u : 0xff80u;
    case PTOSIM_DT_I8:
    case PTOSIM_DT_U8:
    case PTOSIM_DT_I16:
    case PTOSIM_DT_U16:
    case PTOSIM_DT_I32:
    case PTOSIM_DT_U32: {
      uint64_t mask = (1ull << pt_dtype_bits(t)) - 1;
      return (uint64_t)(max ? pt_int_max(t) : pt_int_min(t)) & mask;
    }
    default: return 0; /* 64-bit integers, 8-bit floats */
  }
}

void pt_tile_pad_pattern(ptosim_dtype t, ptosim_pad_value v, uint8_t pat[PT_C0]) {
  uint64_t bits = pad_bits(t, v);
  unsigned es = pt_dtype_size(t);
  for (unsigned i = 0; i < PT_C0; i++) pat[i] = es ? (uint8_t)(bits >> (8 * (i % es))) : 0;
}
