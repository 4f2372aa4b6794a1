/* Types: builtin scalars and shaped types, every !pto.* type in structured form, function
 * types, and a canonical printer.
 *
 * Shapes (`32x32xf32`, `?x16xf16`, `64xf32`) are scanned character by character from the
 * start of the shape, so a dimension list is read as one unit whatever the token lexer
 * would make of it. Identical type spellings are parsed once and share one node (cache
 * keyed by the exact text). */
#include <stdlib.h>
#include <string.h>

#include "asm/parser.h"
#include "asm/sbuf.h"

/* ---- builtin scalars ------------------------------------------------------------------ */

#define STR(lit) {lit, sizeof(lit) - 1}

static const struct {
  const char *name;
  pa_float_kind k;
} k_float_names[] = {
    {"f16", PA_F16}, {"bf16", PA_BF16}, {"f32", PA_F32}, {"f64", PA_F64}, {"tf32", PA_TF32},
    {"f8E4M3FN", PA_F8E4M3FN}, {"f8E5M2", PA_F8E5M2}, {"f8E4M3", PA_F8E4M3},
    {"f8E4M3FNUZ", PA_F8E4M3FNUZ}, {"f8E5M2FNUZ", PA_F8E5M2FNUZ}, {"f8E4M3B11FNUZ", PA_F8E4M3B11FNUZ},
    {"f8E8M0FNU", PA_F8E8M0FNU}, {"f4E2M1FN", PA_F4E2M1FN}, {"f6E2M3FN", PA_F6E2M3FN},
    {"f6E3M2FN", PA_F6E3M2FN}};

#define FLT(lit, k) {.kind = PA_TY_FLOAT, .text = STR(lit), .name = STR(lit), .fk = k}
static const pa_type k_floats[PA_FLOAT_KIND_COUNT] = {
    FLT("f16", PA_F16), FLT("bf16", PA_BF16), FLT("f32", PA_F32), FLT("f64", PA_F64),
    FLT("tf32", PA_TF32), FLT("f8E4M3FN", PA_F8E4M3FN), FLT("f8E5M2", PA_F8E5M2),
    FLT("f8E4M3", PA_F8E4M3), FLT("f8E4M3FNUZ", PA_F8E4M3FNUZ), FLT("f8E5M2FNUZ", PA_F8E5M2FNUZ),
    FLT("f8E4M3B11FNUZ", PA_F8E4M3B11FNUZ), FLT("f8E8M0FNU", PA_F8E8M0FNU),
    FLT("f4E2M1FN", PA_F4E2M1FN), FLT("f6E2M3FN", PA_F6E2M3FN), FLT("f6E3M2FN", PA_F6E3M2FN)};

#define INT3(w) \
  {.kind = PA_TY_INT, .text = STR("i" #w), .width = w, .sign = PA_SIGNLESS}, \
  {.kind = PA_TY_INT, .text = STR("si" #w), .width = w, .sign = PA_SIGNED},  \
  {.kind = PA_TY_INT, .text = STR("ui" #w), .width = w, .sign = PA_UNSIGNED}
static const pa_type k_ints[] = {INT3(1), INT3(4), INT3(8), INT3(16), INT3(32), INT3(64), INT3(128)};
static const pa_type k_index = {.kind = PA_TY_INDEX, .text = STR("index")};
static const pa_type k_none = {.kind = PA_TY_NONE, .text = STR("none")};

const char *pa_float_name(pa_float_kind k) {
  return (unsigned)k < PA_FLOAT_KIND_COUNT ? k_floats[k].text.s : "?";
}

/* iN / siN / uiN: width and sign, or 0 if `s` is not an integer type name. */
static uint32_t int_name(pa_str s, pa_sign *sign) {
  size_t i = 0;
  *sign = PA_SIGNLESS;
  if (s.n > 2 && s.s[0] == 's' && s.s[1] == 'i') *sign = PA_SIGNED, i = 2;
  else if (s.n > 2 && s.s[0] == 'u' && s.s[1] == 'i') *sign = PA_UNSIGNED, i = 2;
  else if (s.n > 1 && s.s[0] == 'i') i = 1;
  else return 0;
  if (s.n - i > 7 || s.s[i] == '0') return 0;
  uint32_t w = 0;
  for (; i < s.n; i++) {
    if (s.s[i] < '0' || s.s[i] > '9') return 0;
    w = w * 10 + (uint32_t)(s.s[i] - '0');
  }
  return w <= (1u << 24) ? w : 0; /* MLIR's integer width limit */
}

const pa_type *pa_builtin_scalar(pa_str name) {
  if (pa_str_is(name, "index")) return &k_index;
  if (pa_str_is(name, "none")) return &k_none;
  for (size_t i = 0; i < sizeof k_float_names / sizeof k_float_names[0]; i++)
    if (pa_str_is(name, k_float_names[i].name)) return &k_floats[k_float_names[i].k];
  pa_sign sign;
  uint32_t w = int_name(name, &sign);
  for (size_t i = 0; w && i < sizeof k_ints / sizeof k_ints[0]; i++)
    if (k_ints[i].width == w && k_ints[i].sign == sign) return &k_ints[i];
  return NULL;
}

static int is_shaped_word(pa_str s) {
  return pa_str_is(s, "vector") || pa_str_is(s, "tensor") || pa_str_is(s, "memref") ||
         pa_str_is(s, "complex") || pa_str_is(s, "tuple");
}

/* '<' immediately after token t (no blank between a type name and its parameters). */
static int angle_follows(pa_parser *p, const pa_tok *t) {
  return t->off + t->len < p->len && p->src[t->off + t->len] == '<';
}

int pa_is_type_start(pa_parser *p, uint32_t k) {
  pa_tok t = pa_peek(p, k);
  if (t.kind == TK_BANG || t.kind == TK_LPAREN || t.kind == TK_LT) return 1;
  if (t.kind != TK_IDENT) return 0;
  pa_str s = pa_tok_str(p, &t);
  pa_sign sign;
  return pa_builtin_scalar(s) || int_name(s, &sign) || (is_shaped_word(s) && angle_follows(p, &t));
}

/* ---- type cache ------------------------------------------------------------------------- */

static uint32_t hash_text(const char *s, uint32_t n) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (uint32_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static const pa_type *cache_get(pa_parser *p, uint32_t off, uint32_t len) {
  if (!p->tc_cap) return NULL;
  uint32_t mask = p->tc_cap - 1;
  for (uint32_t i = hash_text(p->src + off, len) & mask;; i = (i + 1) & mask) {
    pa_tcache_ent *e = &p->tc[i];
    if (!e->t) return NULL;
    if (e->len == len && !memcmp(p->src + e->off, p->src + off, len)) return e->t;
  }
}

static void cache_put(pa_parser *p, uint32_t off, uint32_t len, const pa_type *t) {
  if (2 * (p->tc_n + 1) > p->tc_cap) {
    uint32_t cap = p->tc_cap ? p->tc_cap * 2 : 256;
    pa_tcache_ent *nt = calloc(cap, sizeof *nt);
    if (!nt) return; /* the cache is only an optimization */
    for (uint32_t i = 0; i < p->tc_cap; i++) {
      pa_tcache_ent *e = &p->tc[i];
      if (!e->t) continue;
      uint32_t j = hash_text(p->src + e->off, e->len) & (cap - 1);
      while (nt[j].t) j = (j + 1) & (cap - 1);
      nt[j] = *e;
    }
    free(p->tc);
    p->tc = nt;
    p->tc_cap = cap;
  }
  uint32_t mask = p->tc_cap - 1, i = hash_text(p->src + off, len) & mask;
  while (p->tc[i].t) i = (i + 1) & mask;
  p->tc[i].off = off;
  p->tc[i].len = len;
  p->tc[i].t = t;
  p->tc_n++;
}

/* ---- pieces ----------------------------------------------------------------------------- */

static pa_type *new_type(pa_parser *p, pa_type_kind k, uint32_t off, uint32_t end) {
  pa_type *t = pa_alloc(p, sizeof *t);
  if (!t) return NULL;
  t->kind = k;
  t->text.s = p->src + off;
  t->text.n = end - off;
  return t;
}

static int bad_type(pa_parser *p, const pa_tok *at, const char *hint, const char *what) {
  pa_error(p, at, "parse.bad_type", hint, "%s", what);
  return 0;
}

/* Dimension list `d x d x ... x` at the next token (each d a decimal or '?'; with
 * allow_unranked a leading `*x`); stops before the element type. With `trailing_x` = 0 the
 * list is `d x d` (tile_buf valid=) and must not end in 'x'. Sets t->dims / t->rank. */
static int parse_dims(pa_parser *p, pa_type *t, int allow_unranked, int trailing_x) {
  pa_tok first = pa_peek(p, 0);
  const char *s = p->src;
  uint32_t i = first.off, n = p->len;
  size_t base = p->misc.n;
  uint32_t rank = 0;
  if (allow_unranked && i + 1 < n && s[i] == '*' && s[i + 1] == 'x') {
    t->rank = -1;
    pa_seek(p, i + 2, first.line, first.off - (first.col - 1), 1);
    p->prev_end = i + 2;
    return 1;
  }
  for (;;) {
    int64_t d;
    uint32_t j = i;
    if (j < n && s[j] == '?') {
      d = PA_DYN;
      j++;
    } else {
      uint64_t v = 0;
      while (j < n && s[j] >= '0' && s[j] <= '9' && v <= (uint64_t)INT64_MAX / 16) v = v * 10 + (uint64_t)(s[j++] - '0');
      if (j == i) break;
      if (j < n && s[j] >= '0' && s[j] <= '9') {
        pa_tok at = first;
        p->misc.n = base;
        return bad_type(p, &at, NULL, "dimension too large");
      }
      d = (int64_t)v;
    }
    uint32_t k = j; /* MLIR also reads `8 x 128 x f32`: blanks around the 'x' (within the line) */
    while (k < n && (s[k] == ' ' || s[k] == '\t')) k++;
    int x = k < n && s[k] == 'x';
    if (trailing_x && !x) break; /* a number not followed by 'x' is not a dimension */
    pa_push(p, &p->misc, &d, sizeof d);
    rank++;
    i = x ? k + 1 : j;
    while (x && i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (!x) break;
  }
  t->rank = (int32_t)rank;
  uint32_t cnt;
  t->dims = pa_take(p, &p->misc, base, sizeof(int64_t), &cnt);
  pa_seek(p, i, first.line, first.off - (first.col - 1), 1);
  if (rank) p->prev_end = i; /* the dimensions are consumed */
  return 1;
}

static int expect_gt(pa_parser *p, const char *what) {
  if (pa_accept(p, TK_GT)) return 1;
  pa_expected(p, what, "close the type parameters with '>'");
  return 0;
}

/* dims x elem, as in vector<4xf32>, !pto.tensor_view<?x?xf16>, !pto.vreg<64xf32>. */
static int parse_shape_elem(pa_parser *p, pa_type *t, int allow_unranked) {
  if (!parse_dims(p, t, allow_unranked, 1)) return 0;
  t->elem = pa_parse_type(p);
  return t->elem != NULL;
}

static int lookup_name(pa_str s, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (pa_str_is(s, names[i])) return i;
  return -1;
}

/* !pto.ptr spaces (PTOAS lib/PTO/IR/PTO.cpp parsePtrAddressSpaceKeyword): both the tile_buf
 * names and the hardware buffer names are accepted. */
static const char *const k_ptr_spaces[] = {"gm", "mat", "left", "right", "acc", "vec", "bias", "scaling",
                                           "zero", "l1", "l0a", "l0b", "l0c", "ub", "bt", "fb"};
static const pa_aspace k_ptr_space_of[] = {PA_AS_GM, PA_AS_MAT, PA_AS_LEFT, PA_AS_RIGHT, PA_AS_ACC, PA_AS_VEC,
                                           PA_AS_BIAS, PA_AS_SCALING, PA_AS_GM, PA_AS_MAT, PA_AS_LEFT,
                                           PA_AS_RIGHT, PA_AS_ACC, PA_AS_VEC, PA_AS_BIAS, PA_AS_SCALING};
/* Printed names of the ptr spaces (the PTOAS printer's choice). */
static const char *const k_ptr_space_print[PA_AS_COUNT] = {"gm", "l1", "l0a", "l0b", "l0c", "ub", "bt", "fb"};
/* tile_buf loc= names (PTOAS lib/PTO/IR/PTOTypeDefs.cpp resolveTileBufMemorySpace). */
static const char *const k_locs[PA_AS_COUNT] = {"gm", "mat", "left", "right", "acc", "vec", "bias", "scaling"};

const char *pa_aspace_name(pa_aspace s) { return (unsigned)s < PA_AS_COUNT ? k_locs[s] : "?"; }

static int parse_ptr(pa_parser *p, pa_type *t) {
  t->elem = pa_parse_type(p);
  if (!t->elem) return 0;
  t->space = PA_AS_GM; /* PTOIR manual §2.2: the space defaults to gm */
  if (pa_accept(p, TK_COMMA)) {
    pa_tok sp = pa_peek(p, 0);
    int i = sp.kind == TK_IDENT ? lookup_name(pa_tok_str(p, &sp), k_ptr_spaces, 16) : -1;
    if (i < 0)
      return bad_type(p, &sp, "use gm, ub, l1, l0a, l0b, l0c, bt or fb (or mat/left/right/acc/vec/bias/scaling)",
                      "unknown !pto.ptr memory space");
    pa_next(p);
    t->space = k_ptr_space_of[i];
    t->space_name = pa_tok_str(p, &sp);
  }
  return expect_gt(p, "',' or '>'");
}

static int parse_mask(pa_parser *p, pa_type *t) {
  pa_tok g = pa_peek(p, 0);
  static const char *const grans[] = {"b8", "b16", "b32"};
  int i = g.kind == TK_IDENT ? lookup_name(pa_tok_str(p, &g), grans, 3) : -1;
  if (i < 0) return bad_type(p, &g, "write !pto.mask<b8>, <b16> or <b32>", "unknown mask granularity");
  pa_next(p);
  t->mask_bits = 8u << i;
  return expect_gt(p, "'>'");
}

/* ---- tile_buf ----------------------------------------------------------------------------- */

static int tile_int(pa_parser *p, int64_t *out, int allow_dyn) {
  pa_tok v = pa_peek(p, 0);
  if (allow_dyn && v.kind == TK_QUESTION) {
    pa_next(p);
    *out = PA_DYN;
    return 1;
  }
  if (v.kind != TK_INT || v.v.i < 0)
    return bad_type(p, &v, allow_dyn ? "write a non-negative integer or '?'" : "write a non-negative integer",
                    "expected a non-negative integer tile_buf field");
  pa_next(p);
  *out = v.v.i;
  return 1;
}

static int tile_u32(pa_parser *p, uint32_t *out, const char *const *names, int nnames) {
  pa_tok v = pa_peek(p, 0);
  int i = v.kind == TK_IDENT && names ? lookup_name(pa_tok_str(p, &v), names, nnames) : -1;
  if (i >= 0) {
    pa_next(p);
    *out = (uint32_t)i;
    return 1;
  }
  int64_t x;
  if (!tile_int(p, &x, 0)) return 0;
  if (x > (int64_t)UINT32_MAX) return bad_type(p, &v, NULL, "tile_buf field exceeds 32 bits");
  *out = (uint32_t)x;
  return 1;
}

static int tile_word(pa_parser *p, const char *const *names, int n, int *out, const char *hint) {
  pa_tok v = pa_peek(p, 0);
  pa_str s = pa_tok_str(p, &v);
  if (v.kind == TK_STRING) s.s++, s.n = s.n >= 2 ? s.n - 2 : 0;
  int i = v.kind == TK_IDENT || v.kind == TK_STRING ? lookup_name(s, names, n) : -1;
  if (i < 0) return bad_type(p, &v, hint, "unknown tile_buf layout or location name");
  pa_next(p);
  *out = i;
  return 1;
}

static const char *const k_blayouts[] = {"row_major", "col_major"};
static const char *const k_slayouts[] = {"none_box", "row_major", "col_major"};
static const char *const k_pads[] = {"null", "zero", "max", "min"}; /* PTOIR manual §3.4 PadValue */
static const char *const k_tb_keys[] = {"loc", "dtype", "rows", "cols", "v_row", "v_col", "blayout",
                                        "slayout", "fractal", "pad", "compact", "valid"};
enum { KEY_VALID = 11 };

/* One `key=value` field of a tile_buf; `bit` gets the PA_TB_* bit(s) set. */
static int tile_field(pa_parser *p, pa_tile_buf *tb, int key) {
  int w;
  switch (key) {
  case 0:
    if (!tile_word(p, k_locs + 1, PA_AS_COUNT - 1, &w, "loc is one of mat, left, right, acc, vec, bias, scaling"))
      return 0;
    tb->loc = (pa_aspace)(w + 1);
    return 1;
  case 1: return (tb->dtype = pa_parse_type(p)) != NULL;
  case 2: return tile_int(p, &tb->rows, 0);
  case 3: return tile_int(p, &tb->cols, 0);
  case 4: return tile_int(p, &tb->v_row, 1);
  case 5: return tile_int(p, &tb->v_col, 1);
  case 6:
    if (!tile_word(p, k_blayouts, 2, &w, "blayout is row_major or col_major")) return 0;
    tb->blayout = (pa_blayout)w;
    return 1;
  case 7:
    if (!tile_word(p, k_slayouts, 3, &w, "slayout is none_box, row_major or col_major")) return 0;
    tb->slayout = (pa_slayout)w;
    return 1;
  case 8: return tile_int(p, &tb->fractal, 0);
  case 9: return tile_u32(p, &tb->pad, k_pads, 4);
  case 10: return tile_u32(p, &tb->compact, NULL, 0);
  default: { /* valid=RxC, the compact form's valid shape */
    pa_type dims = {0};
    pa_tok at = pa_peek(p, 0);
    if (!parse_dims(p, &dims, 0, 0)) return 0;
    if (dims.rank != 2) return bad_type(p, &at, "write valid=ROWSxCOLS, e.g. valid=16x?", "tile_buf valid needs two dims");
    tb->v_row = dims.dims[0];
    tb->v_col = dims.dims[1];
    return 1;
  }
  }
}

/* ROWSxCOLSxTYPE of a tile_buf into tb (static sizes). */
static int tile_shape(pa_parser *p, pa_tile_buf *tb) {
  pa_type shape = {0};
  pa_tok sh = pa_peek(p, 0);
  if (!parse_shape_elem(p, &shape, 0)) return 0;
  if (shape.rank != 2 || shape.dims[0] < 0 || shape.dims[1] < 0)
    return bad_type(p, &sh, "write ROWSxCOLSxTYPE with static sizes", "tile_buf shape needs two static dims");
  tb->rows = tb->v_row = shape.dims[0];
  tb->cols = tb->v_col = shape.dims[1];
  tb->dtype = shape.elem;
  tb->given = PA_TB_LOC | PA_TB_DTYPE | PA_TB_ROWS | PA_TB_COLS;
  return 1;
}

/* Older memref-like form kept by some PTOAS samples (test/samples/Subset), default
 * configuration: !pto.tile_buf<ROWSxCOLSxTYPE[, strided<...>], #pto.address_space<loc>>;
 * the extra attributes are kept in t->extra. */
static int parse_extra(pa_parser *p, pa_type *t);

static int parse_tile_buf_shaped(pa_parser *p, pa_type *t) {
  pa_tile_buf *tb = &t->tb;
  tb->compact_form = 2;
  pa_tok at = pa_peek(p, 0);
  if (!tile_shape(p, tb) || !parse_extra(p, t) || !expect_gt(p, "',' or '>'")) return 0;
  for (uint32_t i = 0; i < t->nextra; i++) {
    const pa_item *e = &t->extra[i];
    int w = e->kind == PA_IT_ATTR && pa_str_is(e->name, "pto.address_space") && e->nargs == 1
                ? lookup_name(e->args[0].name, k_locs + 1, PA_AS_COUNT - 1) : -1;
    if (w >= 0) {
      tb->loc = (pa_aspace)(w + 1);
      return 1;
    }
  }
  return bad_type(p, &at, "add #pto.address_space<vec> (or mat, left, right, acc, bias, scaling)",
                  "tile_buf without an address space");
}

/* Body of !pto.tile_buf<...> after '<'. Two spellings (PTOAS PTOTypeDefs.cpp TileBufType::parse):
 *   key=value list: loc=vec, dtype=f16, rows=16, cols=16, v_row=?, v_col=16, blayout=...,
 *                   slayout=..., fractal=512, pad=0[, compact=1]  (any order accepted here)
 *   compact:        left, 32x32xf32[, valid=RxC][, blayout=..][, slayout=..][, fractal=..]... */
/* `, count=N` of a multi_tile_buf, then its '>'. */
static int parse_count(pa_parser *p, pa_type *t) {
  pa_tok k = pa_peek(p, 1), eq = pa_peek(p, 2), v = pa_peek(p, 3);
  if (!pa_accept(p, TK_COMMA) || k.kind != TK_IDENT || !pa_tok_is(p, &k, "count") || eq.kind != TK_EQ ||
      v.kind != TK_INT || v.v.i < 1 || v.v.i > UINT32_MAX)
    return bad_type(p, &k, "end with count=N, e.g. !pto.multi_tile_buf<vec, 16x16xf16, count=2>",
                    "multi_tile_buf needs a positive count");
  pa_next(p), pa_next(p), pa_next(p);
  t->count = (uint32_t)v.v.i;
  return expect_gt(p, "'>'");
}

static int count_follows(pa_parser *p) {
  pa_tok c = pa_peek(p, 0), k = pa_peek(p, 1);
  return c.kind == TK_COMMA && k.kind == TK_IDENT && pa_tok_is(p, &k, "count");
}

static int parse_tile_buf(pa_parser *p, pa_type *t, const pa_tok *at) {
  pa_tile_buf *tb = &t->tb;
  int multi = t->kind == PA_TY_MULTI_TILE_BUF; /* the slot's fields, then `, count=N` */
  tb->fractal = 512; /* TileBufConfigAttr::getDefault (PTOAS lib/PTO/IR/PTOAttrs.cpp) */
  pa_tok first = pa_peek(p, 0);
  int keyed = first.kind == TK_IDENT && pa_tok_is(p, &first, "loc") && pa_peek(p, 1).kind == TK_EQ;
  if (first.kind == TK_INT) return parse_tile_buf_shaped(p, t);
  if (!keyed) {
    int w;
    if (!tile_word(p, k_locs + 1, PA_AS_COUNT - 1, &w, "start with loc=... or a location such as vec")) return 0;
    tb->loc = (pa_aspace)(w + 1);
    tb->compact_form = 1;
    if (!pa_expect(p, TK_COMMA, "write <loc, ROWSxCOLSxTYPE, ...>") || !tile_shape(p, tb)) return 0;
  }
  while (keyed || (!(multi && count_follows(p)) && pa_accept(p, TK_COMMA))) {
    keyed = 0;
    pa_tok k = pa_peek(p, 0);
    int key = k.kind == TK_IDENT ? lookup_name(pa_tok_str(p, &k), k_tb_keys, 12) : -1;
    uint32_t bit = key == KEY_VALID ? (PA_TB_VROW | PA_TB_VCOL) : key >= 0 ? 1u << key : 0;
    if (key < 0 || (tb->compact_form && key <= 5) || (!tb->compact_form && key == KEY_VALID))
      return bad_type(p, &k, "keys are loc, dtype, rows, cols, v_row, v_col, blayout, slayout, fractal, pad, compact",
                      "unknown tile_buf key");
    if (tb->given & bit) return bad_type(p, &k, "give each key once", "duplicate tile_buf key");
    pa_next(p);
    if (!pa_expect(p, TK_EQ, "write key=value")) return 0;
    if (!tile_field(p, tb, key)) return 0;
    tb->given |= bit;
  }
  if (multi ? !parse_count(p, t) : !expect_gt(p, "',' or '>'")) return 0;
  uint32_t need = PA_TB_LOC | PA_TB_DTYPE | PA_TB_ROWS | PA_TB_COLS;
  if ((tb->given & need) != need)
    return bad_type(p, at, "a tile_buf needs loc, dtype, rows and cols", "tile_buf misses a required field");
  if (!(tb->given & PA_TB_VROW)) tb->v_row = tb->rows;
  if (!(tb->given & PA_TB_VCOL)) tb->v_col = tb->cols;
  return 1;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

static const char *const k_pto_names[] = {"pto.ptr", "pto.tile_buf", "pto.tensor_view", "pto.partition_tensor_view",
                                          "pto.tile_view", "pto.vreg", "pto.mask", "pto.align", "pto.multi_tile_buf",
                                          "pto.local_array", "pto.eventid_array"};
static const pa_type_kind k_pto_kinds[] = {PA_TY_PTR, PA_TY_TILE_BUF, PA_TY_TENSOR_VIEW, PA_TY_PART_VIEW,
                                           PA_TY_TILE_VIEW, PA_TY_VREG, PA_TY_MASK, PA_TY_ALIGN, PA_TY_MULTI_TILE_BUF,
                                           PA_TY_LOCAL_ARRAY, PA_TY_EVENTID_ARRAY};

/* Items after the element type of tensor/memref: `, strided<[16, 1]>, #pto.address_space<vec>`. */
static int parse_extra(pa_parser *p, pa_type *t) {
  size_t base = p->items.n;
  while (pa_accept(p, TK_COMMA)) {
    pa_item it;
    if (!pa_parse_item(p, PA_CTX_ANGLE, &it)) {
      p->items.n = base;
      return 0;
    }
    pa_push(p, &p->items, &it, sizeof it);
  }
  t->extra = pa_take(p, &p->items, base, sizeof(pa_item), &t->nextra);
  return 1;
}

/* The parameters of a structured type after its '<' (name is the type's first token). */
static int parse_params(pa_parser *p, pa_type *t, const pa_tok *name) {
  switch (t->kind) {
  case PA_TY_PTR: return parse_ptr(p, t);
  case PA_TY_TILE_BUF: return parse_tile_buf(p, t, name);
  case PA_TY_MULTI_TILE_BUF: {
    if (pa_peek(p, 0).kind != TK_BANG) return parse_tile_buf(p, t, name);
    pa_tok at = pa_peek(p, 0);
    const pa_type *slot = pa_parse_type(p);
    if (!slot) return 0;
    if (slot->kind != PA_TY_TILE_BUF) return bad_type(p, &at, "write !pto.multi_tile_buf<!pto.tile_buf<...>, count=N>", "the slot of a multi_tile_buf is a tile_buf");
    t->tb = slot->tb;
    return parse_count(p, t);
  }
  case PA_TY_MASK: return parse_mask(p, t);
  case PA_TY_VREG: {
    pa_tok at = pa_peek(p, 0);
    if (!parse_shape_elem(p, t, 0)) return 0;
    if (t->rank != 1 || t->dims[0] <= 0)
      return bad_type(p, &at, "write !pto.vreg<NxT>, e.g. !pto.vreg<64xf32>", "vreg needs one static lane count");
    return expect_gt(p, "'>'");
  }
  case PA_TY_LOCAL_ARRAY: case PA_TY_EVENTID_ARRAY: { /* static dims x scalar / one count */
    pa_tok at = pa_peek(p, 0);
    int ev = t->kind == PA_TY_EVENTID_ARRAY;
    if (ev ? !parse_dims(p, t, 0, 0) : !parse_shape_elem(p, t, 0)) return 0;
    if (ev) t->elem = &k_index;
    int ok = t->rank > 0 && (ev ? t->rank == 1 : t->elem->kind == PA_TY_INT || t->elem->kind == PA_TY_FLOAT);
    for (int32_t i = 0; ok && i < t->rank; i++) ok = t->dims[i] > 0;
    if (!ok)
      return bad_type(p, &at, ev ? "write !pto.eventid_array<N>" : "write !pto.local_array<16xi32> (static dims, scalar elements)",
                      ev ? "an eventid_array needs one positive count" : "a local_array needs positive static dims and a scalar element type");
    return expect_gt(p, "'>'");
  }
  case PA_TY_TENSOR_VIEW: case PA_TY_PART_VIEW: case PA_TY_TILE_VIEW: case PA_TY_VECTOR:
    return parse_shape_elem(p, t, 0) && expect_gt(p, "'x' or '>'");
  default: /* tensor, memref */
    return parse_shape_elem(p, t, 1) && parse_extra(p, t) && expect_gt(p, "',' or '>'");
  }
}

/* A custom op syntax may print a pto type without its `!pto.name` prefix (PTOAS does for
 * tile_buf operands of ins/outs and for pto.addptr pointers). Recognized elided bodies:
 *   <loc=...>, <vec, 16x16xf16...>, <RxCxT, ..., #pto.address_space<..>>  tile_buf
 *   <T> or <T, space> with T a builtin scalar                            ptr
 * anything else is kept raw. The '<' at lt is the next token; end is past its '>'. */
static pa_type_kind elided_kind(pa_parser *p, uint32_t lt, uint32_t end) {
  pa_tok a = pa_peek(p, 1), b = pa_peek(p, 2), c = pa_peek(p, 3), d = pa_peek(p, 4);
  static const char kas[] = "#pto.address_space<";
  if (a.kind == TK_IDENT && pa_tok_is(p, &a, "loc") && b.kind == TK_EQ) return PA_TY_TILE_BUF;
  if (a.kind == TK_IDENT && b.kind == TK_COMMA && lookup_name(pa_tok_str(p, &a), k_locs + 1, PA_AS_COUNT - 1) >= 0)
    return PA_TY_TILE_BUF;
  if (a.kind == TK_INT)
    for (uint32_t i = lt; i + sizeof kas - 1 < end; i++)
      if (!memcmp(p->src + i, kas, sizeof kas - 1)) return PA_TY_TILE_BUF;
  if (a.kind == TK_IDENT && pa_builtin_scalar(pa_tok_str(p, &a)) &&
      (b.kind == TK_GT || (b.kind == TK_COMMA && c.kind == TK_IDENT && d.kind == TK_GT &&
                           lookup_name(pa_tok_str(p, &c), k_ptr_spaces, 16) >= 0)))
    return PA_TY_PTR;
  return PA_TY_DIALECT;
}

/* !name[<...>], vector<...>/tensor<...>/memref<...>, or an elided <...>: parsed once per spelling. */
static const pa_type *parse_named(pa_parser *p, const pa_tok *name) {
  int elided = name->kind == TK_LT;
  int has_body = elided || angle_follows(p, name);
  uint32_t lt = elided ? name->off : name->off + name->len;
  uint32_t end = has_body ? pa_match_angle(p, lt) : name->off + name->len;
  if (!end) {
    pa_error(p, name, "parse.bad_type", "close the type parameters with '>'", "'<' of this type is never closed");
    return NULL;
  }
  const pa_type *hit = cache_get(p, name->off, end - name->off);
  if (hit) {
    pa_skip_to(p, end);
    return hit;
  }
  pa_str nm = {p->src + name->off + 1, name->len - 1}; /* without '!' */
  pa_type_kind k = PA_TY_DIALECT;
  if (elided) {
    k = elided_kind(p, lt, end);
    nm.n = 0;
  } else if (name->kind == TK_IDENT) {
    nm = pa_tok_str(p, name);
    k = pa_str_is(nm, "vector") ? PA_TY_VECTOR : pa_str_is(nm, "tensor") ? PA_TY_TENSOR
        : pa_str_is(nm, "memref") ? PA_TY_MEMREF : PA_TY_DIALECT;
  } else {
    for (size_t i = 0; i < sizeof k_pto_kinds / sizeof k_pto_kinds[0]; i++)
      if (pa_str_is(nm, k_pto_names[i])) k = k_pto_kinds[i];
  }
  if (k == PA_TY_ALIGN && has_body) {
    pa_error(p, name, "parse.bad_type", "write !pto.align", "!pto.align takes no parameters");
    return NULL;
  }
  if (!has_body && k != PA_TY_ALIGN && k != PA_TY_DIALECT) {
    pa_error(p, name, "parse.bad_type", "give the type its <...> parameters", "type '%.*s' needs parameters",
             (int)name->len, p->src + name->off);
    return NULL;
  }
  pa_type *t = new_type(p, k, name->off, end);
  if (!t) return NULL;
  t->name = nm;
  t->elided = (uint8_t)elided;
  pa_tok nt = pa_next(p); /* the name (or the elided '<') */
  if (has_body && !elided) pa_next(p); /* '<' */
  if (has_body && k != PA_TY_DIALECT && !parse_params(p, t, &nt)) return NULL;
  if (has_body && k == PA_TY_DIALECT) { /* kept raw */
    t->body.s = p->src + lt + 1;
    t->body.n = end - 1 - (lt + 1);
    pa_skip_to(p, end);
  }
  if (p->prev_end == end || !has_body) cache_put(p, name->off, end - name->off, t);
  return t;
}

/* (A, B) -> R, (A) -> (R, S), or a tuple (A, B) when no '->' follows. */
static const pa_type *parse_paren_type(pa_parser *p) {
  pa_tok open = pa_next(p);
  size_t base = p->ptrs.n;
  if (!pa_accept(p, TK_RPAREN)) {
    do {
      const pa_type *e = pa_parse_type(p);
      if (!e) {
        p->ptrs.n = base;
        return NULL;
      }
      pa_push(p, &p->ptrs, &e, sizeof e);
    } while (pa_accept(p, TK_COMMA));
    if (!pa_expect(p, TK_RPAREN, "close the type list with ')'")) {
      p->ptrs.n = base;
      return NULL;
    }
  }
  uint32_t nin;
  const pa_type **in = pa_take(p, &p->ptrs, base, sizeof *in, &nin);
  int fn = pa_peek(p, 0).kind == TK_ARROW;
  pa_type *t = new_type(p, fn ? PA_TY_FUNC : PA_TY_TUPLE, open.off, p->prev_end);
  if (!t) return NULL;
  t->in = in;
  t->nin = nin;
  if (fn) {
    pa_next(p);
    base = p->ptrs.n;
    if (!pa_parse_result_types(p, 0)) return NULL;
    t->out = pa_take(p, &p->ptrs, base, sizeof *t->out, &t->nout);
    t->text.n = p->prev_end - open.off;
  }
  return t;
}

static const pa_type *parse_type_inner(pa_parser *p, const pa_tok *t) {
  switch (t->kind) {
  case TK_IDENT: {
    pa_str s = pa_tok_str(p, t);
    const pa_type *b = pa_builtin_scalar(s);
    if (b) {
      pa_next(p);
      return b;
    }
    pa_sign sign;
    uint32_t w = int_name(s, &sign);
    if (w) { /* an integer width without a shared node */
      pa_next(p);
      pa_type *it = new_type(p, PA_TY_INT, t->off, t->off + t->len);
      if (it) it->width = w, it->sign = sign;
      return it;
    }
    if (is_shaped_word(s) && angle_follows(p, t)) return parse_named(p, t);
    pa_error(p, t, "parse.bad_type", "builtin types are iN, siN, uiN, index, f16, bf16, f32, f64, f8E4M3FN, ...",
             "unknown type '%.*s'", (int)(t->len > 40 ? 40 : t->len), p->src + t->off);
    return NULL;
  }
  case TK_BANG: case TK_LT: return parse_named(p, t);
  case TK_LPAREN: return parse_paren_type(p);
  default: pa_expected(p, "a type", NULL); return NULL;
  }
}

const pa_type *pa_parse_type(pa_parser *p) {
  pa_tok t = pa_peek(p, 0);
  if (!pa_enter(p, &t)) return NULL;
  const pa_type *r = parse_type_inner(p, &t);
  pa_leave(p);
  return r;
}

int pa_parse_result_types(pa_parser *p, int bare_list) {
  if (pa_peek(p, 0).kind != TK_LPAREN) { /* T, or T1, T2 after an op's '->' */
    do {
      const pa_type *t = pa_parse_type(p);
      if (!t) return 0;
      pa_push(p, &p->ptrs, &t, sizeof t);
    } while (bare_list && pa_peek(p, 0).kind == TK_COMMA && pa_is_type_start(p, 1) && pa_accept(p, TK_COMMA));
    return 1;
  }
  pa_next(p);
  if (pa_accept(p, TK_RPAREN)) return 1;
  do {
    const pa_type *t = pa_parse_type(p);
    if (!t) return 0;
    pa_push(p, &p->ptrs, &t, sizeof t);
  } while (pa_accept(p, TK_COMMA));
  return pa_expect(p, TK_RPAREN, "close the result type list with ')'");
}

/* ---- printing ----------------------------------------------------------------------------- */

static void print_type(pa_sbuf *b, const pa_type *t);

static void print_list(pa_sbuf *b, const pa_type **ts, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (i) pa_sbuf_puts(b, ", ");
    print_type(b, ts[i]);
  }
}

static void print_dim(pa_sbuf *b, int64_t d) {
  if (d == PA_DYN)
    pa_sbuf_putc(b, '?');
  else
    pa_sbuf_printf(b, "%lld", (long long)d);
}

static void print_shape(pa_sbuf *b, const pa_type *t) {
  if (t->rank < 0) pa_sbuf_puts(b, "*x");
  for (int32_t i = 0; i < t->rank; i++) {
    print_dim(b, t->dims[i]);
    pa_sbuf_putc(b, 'x');
  }
  print_type(b, t->elem);
}

static void print_tile_buf(pa_sbuf *b, const pa_tile_buf *tb) {
  pa_sbuf_printf(b, "!pto.tile_buf<loc=%s, dtype=", pa_aspace_name(tb->loc));
  print_type(b, tb->dtype);
  pa_sbuf_printf(b, ", rows=%lld, cols=%lld, v_row=", (long long)tb->rows, (long long)tb->cols);
  print_dim(b, tb->v_row);
  pa_sbuf_puts(b, ", v_col=");
  print_dim(b, tb->v_col);
  pa_sbuf_printf(b, ", blayout=%s, slayout=%s, fractal=%lld, pad=%u", k_blayouts[tb->blayout],
                 k_slayouts[tb->slayout], (long long)tb->fractal, (unsigned)tb->pad);
  if (tb->compact) pa_sbuf_printf(b, ", compact=%u", (unsigned)tb->compact);
  pa_sbuf_putc(b, '>');
}

static void print_type(pa_sbuf *b, const pa_type *t) {
  if (!t) {
    pa_sbuf_puts(b, "<null>");
    return;
  }
  switch (t->kind) {
  case PA_TY_INT:
    pa_sbuf_printf(b, "%si%u", t->sign == PA_SIGNED ? "s" : t->sign == PA_UNSIGNED ? "u" : "", (unsigned)t->width);
    break;
  case PA_TY_INDEX: pa_sbuf_puts(b, "index"); break;
  case PA_TY_NONE: pa_sbuf_puts(b, "none"); break;
  case PA_TY_FLOAT: pa_sbuf_puts(b, pa_float_name(t->fk)); break;
  case PA_TY_VECTOR: case PA_TY_TENSOR: case PA_TY_MEMREF:
    pa_sbuf_puts(b, t->kind == PA_TY_VECTOR ? "vector<" : t->kind == PA_TY_TENSOR ? "tensor<" : "memref<");
    print_shape(b, t);
    for (uint32_t i = 0; i < t->nextra; i++) {
      pa_sbuf_puts(b, ", ");
      pa_sbuf_putn(b, t->extra[i].text.s, t->extra[i].text.n);
    }
    pa_sbuf_putc(b, '>');
    break;
  case PA_TY_FUNC: case PA_TY_TUPLE:
    pa_sbuf_putc(b, '(');
    print_list(b, t->in, t->nin);
    pa_sbuf_putc(b, ')');
    if (t->kind == PA_TY_TUPLE) break;
    pa_sbuf_puts(b, " -> ");
    if (t->nout == 1 && t->out[0]->kind != PA_TY_FUNC && t->out[0]->kind != PA_TY_TUPLE) {
      print_type(b, t->out[0]);
    } else {
      pa_sbuf_putc(b, '(');
      print_list(b, t->out, t->nout);
      pa_sbuf_putc(b, ')');
    }
    break;
  case PA_TY_PTR:
    pa_sbuf_puts(b, "!pto.ptr<");
    print_type(b, t->elem);
    pa_sbuf_printf(b, ", %s>", k_ptr_space_print[t->space]);
    break;
  case PA_TY_TILE_BUF: print_tile_buf(b, &t->tb); break;
  case PA_TY_MULTI_TILE_BUF:
    pa_sbuf_puts(b, "!pto.multi_tile_buf<");
    print_tile_buf(b, &t->tb);
    pa_sbuf_printf(b, ", count=%u>", (unsigned)t->count);
    break;
  case PA_TY_TENSOR_VIEW: case PA_TY_PART_VIEW: case PA_TY_TILE_VIEW: case PA_TY_VREG:
    pa_sbuf_puts(b, t->kind == PA_TY_TENSOR_VIEW ? "!pto.tensor_view<" : t->kind == PA_TY_PART_VIEW ? "!pto.partition_tensor_view<"
                    : t->kind == PA_TY_TILE_VIEW ? "!pto.tile_view<" : "!pto.vreg<");
    print_shape(b, t);
    pa_sbuf_putc(b, '>');
    break;
  case PA_TY_LOCAL_ARRAY:
    pa_sbuf_puts(b, "!pto.local_array<");
    print_shape(b, t);
    pa_sbuf_putc(b, '>');
    break;
  case PA_TY_EVENTID_ARRAY: pa_sbuf_printf(b, "!pto.eventid_array<%lld>", (long long)t->dims[0]); break;
  case PA_TY_MASK: pa_sbuf_printf(b, "!pto.mask<b%u>", (unsigned)t->mask_bits); break;
  case PA_TY_ALIGN: pa_sbuf_puts(b, "!pto.align"); break;
  default:
    if (t->name.n) {
      if (t->text.s[0] == '!') pa_sbuf_putc(b, '!');
      pa_sbuf_putn(b, t->name.s, t->name.n);
    }
    if (t->body.s) {
      pa_sbuf_putc(b, '<');
      pa_sbuf_putn(b, t->body.s, t->body.n);
      pa_sbuf_putc(b, '>');
    }
  }
}

size_t pa_type_print(const pa_type *t, char *buf, size_t cap) {
  pa_sbuf b = pa_sbuf_init(buf, cap);
  print_type(&b, t);
  return b.len;
}


static int list_equal(const pa_type **a, const pa_type **b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (!pa_type_equal(a[i], b[i])) return 0;
  return 1;
}

int pa_type_equal(const pa_type *a, const pa_type *b) {
  if (a == b) return 1;
  if (!a || !b || a->kind != b->kind) return 0;
  switch (a->kind) {
  case PA_TY_INT: return a->width == b->width && a->sign == b->sign;
  case PA_TY_FLOAT: return a->fk == b->fk;
  case PA_TY_INDEX: case PA_TY_NONE: case PA_TY_ALIGN: return 1;
  case PA_TY_MASK: return a->mask_bits == b->mask_bits;
  case PA_TY_PTR: return a->space == b->space && pa_type_equal(a->elem, b->elem);
  case PA_TY_FUNC: case PA_TY_TUPLE:
    return a->nin == b->nin && a->nout == b->nout && list_equal(a->in, b->in, a->nin) &&
           list_equal(a->out, b->out, a->nout);
  case PA_TY_TILE_BUF: case PA_TY_MULTI_TILE_BUF: {
    const pa_tile_buf *x = &a->tb, *y = &b->tb;
    return a->count == b->count && x->loc == y->loc && x->rows == y->rows && x->cols == y->cols && x->v_row == y->v_row &&
           x->v_col == y->v_col && x->blayout == y->blayout && x->slayout == y->slayout &&
           x->fractal == y->fractal && x->pad == y->pad && x->compact == y->compact &&
           pa_type_equal(x->dtype, y->dtype);
  }
  case PA_TY_DIALECT: return pa_str_eq(a->name, b->name) && pa_str_eq(a->body, b->body);
  default: /* shaped */
    if (a->rank != b->rank || a->nextra != b->nextra || !pa_type_equal(a->elem, b->elem)) return 0;
    for (int32_t i = 0; i < a->rank; i++)
      if (a->dims[i] != b->dims[i]) return 0;
    for (uint32_t i = 0; i < a->nextra; i++)
      if (!pa_str_eq(a->extra[i].text, b->extra[i].text)) return 0;
    return 1;
  }
}
