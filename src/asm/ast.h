/* AST of PTO text programs: the MLIR subset real PTO kernels use.
 *
 * Structure: module > ops > regions > blocks > ops. Every op is kept in one generic shape:
 *   results = name items... [: trailing-type-items...] [-> result types] [attributes {..}] regions...
 * so the custom syntaxes of pto ops (keyword clauses such as `nburst(%a, %b, %c)`, bare words
 * like `nd2nz`, `ins(%v : T) outs(...)`, `[..]` lists, `{..}` attribute dictionaries, clause
 * words inside the trailing type list like `shape i64, i64`) need no per-op grammar here; a
 * later stage binds them to op parameters using the kinds, names and order kept below.
 *
 * All nodes, arrays and strings live in the arena of their pa_ast (freed by pa_ast_free);
 * pa_str slices point into the AST's own copy of the source text. Lines and columns are
 * 1-based; columns count bytes. */
#ifndef PA_AST_H
#define PA_AST_H

#include <stddef.h>
#include <stdint.h>

typedef struct pa_str {
  const char *s; /* not NUL-terminated */
  size_t n;
} pa_str;

typedef struct pa_loc {
  uint32_t line, col;
} pa_loc;

/* '?' in a shape or a tile_buf valid dimension. */
#define PA_DYN ((int64_t)-1)

typedef struct pa_type pa_type;
typedef struct pa_item pa_item;
typedef struct pa_op pa_op;

/* ---- items: operands, literals, clauses, attributes ---------------------------------- */

typedef enum pa_item_kind {
  PA_IT_VALUE,  /* %name, %name#k; name = "name", result_no = k or -1; args = [subscripts] of %p[%i] */
  PA_IT_INT,    /* 42, -1, 0xFF: v.i (two's complement; 0x8000000000000000 and up keep their bits) */
  PA_IT_FLOAT,  /* 1.5, -8.000000e+00: v.f */
  PA_IT_STRING, /* "PIPE_V": name = text between the quotes, escapes not processed */
  PA_IT_WORD,   /* bare identifier: nd2nz, eq, true, to, else, '?' */
  PA_IT_SYMBOL, /* @name: name without '@' */
  PA_IT_ATTR,   /* #pto.pipe<PIPE_ALL>, #pto<round_mode ROUND>: name = "pto.pipe" / "pto";
                   body = raw text inside <..>; args = body parsed as items (pto attributes) */
  PA_IT_CALL,   /* word(...) with '(' touching the word, or bare (...) (name ""; so `@f(%a)` is a
                   SYMBOL then a CALL): args = entries; types = types after ':' inside the
                   parens, paired with args by position (`ins(%a, %b : T1, T2)`, `(%x: T)`) */
  PA_IT_ASSIGN, /* key = value (also `key: [..]`): args[0] = key item (word, string or value),
                   args[1] = value item; name = the key's name (word, string contents, value
                   name without '%') */
  PA_IT_LIST,   /* [a, b, c] */
  PA_IT_ANGLE,  /* <PIPE_FIX> (args), or word<...> (name = word, body = raw text; for dense<...>
                   also args) */
  PA_IT_LAUNCH, /* <<<%x, %y, %z>>> */
  PA_IT_DICT,   /* {key = value, unit_key, ...}: args = ASSIGN or WORD/STRING items */
  PA_IT_TYPE,   /* a type in item position (trailing type lists, `!pto...` operands): type */
  PA_IT_KIND_COUNT
} pa_item_kind;

struct pa_item {
  pa_item_kind kind;
  pa_loc loc;       /* first character */
  pa_str text;      /* whole spelling, e.g. "nburst(%a, %b, %c)" */
  pa_str name;      /* see the kinds above */
  pa_str body;      /* ATTR / ANGLE: raw text between '<' and the matching '>' */
  int32_t result_no; /* VALUE: k of %v#k, else -1 */
  uint32_t nargs, ntypes;
  pa_item *args;    /* children (see kinds) */
  const pa_type **types; /* CALL: types of a `( ... : T, ...)` list, or of a type clause `word(T, ...)` */
  const pa_type *type; /* TYPE: the type; a value typed in a {dict} or <..>, `16 : i32`: i32 */
  pa_item *attrs;   /* an item inside parens followed by `{...}` (argument attributes): that DICT */
  union {
    int64_t i;
    uint64_t u;
    double f;
  } v;
};

/* ---- types ---------------------------------------------------------------------------- */

typedef enum pa_type_kind {
  PA_TY_INT,       /* iN (signless), siN, uiN: width, sign */
  PA_TY_INDEX,
  PA_TY_FLOAT,     /* fk */
  PA_TY_NONE,
  PA_TY_VECTOR,    /* vector<dims x elem> */
  PA_TY_TENSOR,    /* tensor<dims x elem [, encoding]>: extra = encoding items */
  PA_TY_MEMREF,    /* memref<dims x elem [, layout] [, space]>: extra = layout/space items */
  PA_TY_FUNC,      /* (in...) -> out / (out...) */
  PA_TY_TUPLE,     /* (a, b) not followed by '->' */
  PA_TY_PTR,       /* !pto.ptr<elem [, space]> (also elided: <f16, ub>) */
  PA_TY_TILE_BUF,  /* !pto.tile_buf<...> (also elided: <loc=vec, ...>, <left, 16x16xf16>) */
  PA_TY_TENSOR_VIEW,    /* !pto.tensor_view<dims x elem> */
  PA_TY_PART_VIEW,      /* !pto.partition_tensor_view<dims x elem> */
  PA_TY_TILE_VIEW,      /* !pto.tile_view<dims x elem> (legacy spelling) */
  PA_TY_VREG,      /* !pto.vreg<N x elem>: dims[0] = N */
  PA_TY_MASK,      /* !pto.mask<b8|b16|b32>: mask_bits */
  PA_TY_ALIGN,     /* !pto.align */
  PA_TY_MULTI_TILE_BUF, /* !pto.multi_tile_buf<slot, count=N> (toni PTOOps.td AllocMultiTileOp): tb = the
                      slot tile_buf (its body or a !pto.tile_buf type), count = N */
  PA_TY_LOCAL_ARRAY,   /* !pto.local_array<dims x elem>: a stack array of scalars (static dims) */
  PA_TY_EVENTID_ARRAY, /* !pto.eventid_array<N>: dims[0] = N, elem = index */
  PA_TY_DIALECT,   /* any other !dialect.name[<body>]: name, body kept raw (e.g. !pto.hif8) */
  PA_TY_KIND_COUNT
} pa_type_kind;

typedef enum pa_sign { PA_SIGNLESS, PA_SIGNED, PA_UNSIGNED } pa_sign;

typedef enum pa_float_kind {
  PA_F16, PA_BF16, PA_F32, PA_F64, PA_TF32, PA_F8E4M3FN, PA_F8E5M2, PA_F8E4M3, PA_F8E4M3FNUZ,
  PA_F8E5M2FNUZ, PA_F8E4M3B11FNUZ, PA_F8E8M0FNU, PA_F4E2M1FN, PA_F6E2M3FN, PA_F6E3M2FN,
  PA_FLOAT_KIND_COUNT
} pa_float_kind;

/* PTO address spaces (tile_buf loc= and !pto.ptr spaces; PTOIR manual §3.1). The ptr spellings
 * l1/l0a/l0b/l0c/ub/bt/fb are aliases of mat/left/right/acc/vec/bias/scaling. */
typedef enum pa_aspace {
  PA_AS_GM, PA_AS_MAT, PA_AS_LEFT, PA_AS_RIGHT, PA_AS_ACC, PA_AS_VEC, PA_AS_BIAS, PA_AS_SCALING,
  PA_AS_COUNT
} pa_aspace;

typedef enum pa_blayout { PA_BL_ROW_MAJOR, PA_BL_COL_MAJOR } pa_blayout;
typedef enum pa_slayout { PA_SL_NONE_BOX, PA_SL_ROW_MAJOR, PA_SL_COL_MAJOR } pa_slayout;

/* Bits of pa_tile_buf.given: which fields were spelled (the others hold the defaults of
 * TileBufConfigAttr::getDefault — row_major, none_box, fractal 512, pad 0, compact 0 — and
 * v_row/v_col = rows/cols). */
enum {
  PA_TB_LOC = 1u << 0, PA_TB_DTYPE = 1u << 1, PA_TB_ROWS = 1u << 2, PA_TB_COLS = 1u << 3,
  PA_TB_VROW = 1u << 4, PA_TB_VCOL = 1u << 5, PA_TB_BLAYOUT = 1u << 6, PA_TB_SLAYOUT = 1u << 7,
  PA_TB_FRACTAL = 1u << 8, PA_TB_PAD = 1u << 9, PA_TB_COMPACT = 1u << 10
};

/* blayout is kept as spelled: PTOAS overrides it for loc=left by target (A3 row_major, A5
 * col_major; PTOTypeDefs.cpp resolveTileBufBLayout), which is left to the target-aware stage. */
typedef struct pa_tile_buf {
  pa_aspace loc;
  const pa_type *dtype;
  int64_t rows, cols;
  int64_t v_row, v_col; /* PA_DYN for '?' */
  pa_blayout blayout;
  pa_slayout slayout;
  int64_t fractal;
  uint32_t pad, compact;
  uint32_t given;       /* PA_TB_* */
  uint8_t compact_form; /* 0: key=value list; 1: <loc, RxCxT, key=value...>;
                           2: <RxCxT, #pto.address_space<loc>> (older samples) */
} pa_tile_buf;

/* Types carry no location: scalar types are shared static objects and identical spellings
 * share one node; the enclosing item gives the place. Compare with pa_type_equal. */
struct pa_type {
  pa_type_kind kind;
  pa_str text;          /* spelling as written (canonical name for builtin scalars) */
  pa_str name;          /* FLOAT: "f16"...; DIALECT: "pto.hif8" */
  uint32_t width;       /* INT: bits */
  pa_sign sign;         /* INT */
  pa_float_kind fk;     /* FLOAT */
  int32_t rank;         /* shaped kinds: number of dims (-1: unranked memref<*x..>) */
  int64_t *dims;        /* shaped kinds: PA_DYN for '?' */
  const pa_type *elem;  /* shaped kinds and PTR */
  pa_aspace space;      /* PTR (PA_AS_GM when omitted) */
  pa_str space_name;    /* PTR: spelling of the space, empty when omitted */
  uint32_t mask_bits;   /* MASK: 8, 16 or 32 */
  pa_tile_buf tb;       /* TILE_BUF; MULTI_TILE_BUF: one slot */
  uint32_t count;       /* MULTI_TILE_BUF: slots */
  uint32_t nin, nout;   /* FUNC: inputs and results; TUPLE: nin elements */
  const pa_type **in, **out;
  uint32_t nextra;      /* TENSOR/MEMREF (and TILE_BUF of compact_form 2): the attributes
                           after the element type (encoding, layout, space) */
  pa_item *extra;
  pa_str body;          /* DIALECT: raw text between '<' and '>' (empty if none) */
  uint8_t elided;       /* spelled `<...>` without its `!pto.name` prefix (custom op syntax) */
};

/* ---- ops, regions, blocks --------------------------------------------------------------- */

typedef struct pa_arg { /* function or block argument */
  pa_str name;          /* without '%' */
  pa_loc loc;
  const pa_type *type;
  pa_item *attrs;       /* argument attribute DICT or NULL */
} pa_arg;

typedef struct pa_result { /* %name or %name:count */
  pa_str name;
  pa_loc loc;
  uint32_t count;
} pa_result;

typedef struct pa_block {
  pa_str label;         /* "bb0" of ^bb0, empty for an unlabeled entry block */
  pa_loc loc;
  uint32_t nargs, nops;
  pa_arg *args;
  pa_op *ops;
} pa_block;

typedef struct pa_region {
  pa_loc loc;           /* the '{' */
  uint32_t nblocks;
  pa_block *blocks;
} pa_region;

typedef struct pa_func { /* decoded signature of a func.func op */
  pa_str name;          /* without '@' */
  pa_str visibility;    /* "private", "public", "nested" or empty */
  uint32_t nargs, nresults;
  pa_arg *args;
  const pa_type **results;
  int is_decl;          /* no body */
} pa_func;

struct pa_op {
  pa_str name;          /* "pto.mte_gm_ub", "scf.for", "return", "module" */
  pa_loc loc;           /* the op name */
  pa_loc start;         /* first token of the statement (first result, or the name) */
  pa_str text;          /* whole statement spelling, regions included */
  uint32_t nresults, nitems, ntypes, nrtypes, nregions;
  pa_result *results;
  pa_item *items;       /* operands, clauses and attributes in source order */
  pa_item *types;       /* trailing list after ':': TYPE items, plus WORD/CALL items for
                           clause words such as `shape i64, i64` or `src_layout(i64)` */
  const pa_type **rtypes; /* after '->' */
  pa_item *attrs;       /* `attributes {...}` DICT (module, func.func) or NULL */
  pa_region *regions;
  pa_str sym;           /* module @name / func.func @name, empty otherwise */
  pa_func *func;        /* func.func only */
  int generic;          /* written in MLIR's generic form `"pto.op"(%a, ...) <{...}> : (T...) -> (...)` */
};

/* ---- diagnostics and the whole file ---------------------------------------------------- */

typedef struct pa_diag {
  pa_loc loc;
  uint32_t line_off;    /* byte offset of the start of loc.line in the text */
  const char *rule;     /* stable id, e.g. "parse.expected_token" */
  const char *msg;
  const char *hint;     /* may be empty */
  pa_str op;            /* name of the op whose statement failed, when known */
} pa_diag;

typedef struct pa_arena pa_arena;

typedef struct pa_ast {
  const char *file;     /* copy of the file name */
  const char *text;     /* copy of the source, NUL-terminated */
  size_t len;
  pa_op *module;        /* the top-level module (implicit if the file had bare ops) */
  int implicit_module;
  uint32_t ndiags;
  uint32_t nerrors;     /* == ndiags; every diagnostic of the front end is an error */
  pa_diag *diags;
  pa_arena *arena;
} pa_ast;

#endif
