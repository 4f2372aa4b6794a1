/* Internal interface of the front end: arena, lexer, scratch stacks and the parser state
 * shared by lex.c, type.c and parse.c. Not part of the library API. */
#ifndef PA_PARSER_H
#define PA_PARSER_H

#include "asm/asm.h"

/* ---- arena: bump allocation in chunks, freed at once ---------------------------------- */

pa_arena *pa_arena_new(void);
void *pa_arena_alloc(pa_arena *a, size_t n); /* 16-byte aligned, NULL when out of memory */
void pa_arena_free(pa_arena *a);

/* ---- tokens --------------------------------------------------------------------------- */

typedef enum pa_tok_kind {
  TK_EOF, TK_ERROR,
  TK_VALUE,  /* %id or %id#n (num = n, else -1) */
  TK_SYMBOL, /* @id or @"str" */
  TK_BLOCK,  /* ^id */
  TK_HASH,   /* #id (attribute name or alias) */
  TK_BANG,   /* !id (dialect type name) */
  TK_IDENT, TK_INT, TK_FLOAT, TK_STRING,
  TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK, TK_LBRACE, TK_RBRACE, TK_LT, TK_GT,
  TK_COMMA, TK_COLON, TK_EQ, TK_ARROW, TK_QUESTION, TK_STAR, TK_PLUS
} pa_tok_kind;

typedef struct pa_tok {
  pa_tok_kind kind;
  uint32_t off, len;   /* spelling src[off, off+len) */
  uint32_t line, col;
  uint32_t bol;        /* first token of its line */
  int32_t num;         /* TK_VALUE: #n, else -1 */
  union {
    int64_t i;
    uint64_t u;
    double f;
  } v;
} pa_tok;

/* ---- scratch stacks: lists are collected here, then copied into the arena ----------- */

typedef struct pa_stack {
  unsigned char *p;
  size_t n, cap;
} pa_stack;

/* Type cache: identical type spellings share one node. */
typedef struct pa_tcache_ent {
  uint32_t off, len;
  const pa_type *t;
} pa_tcache_ent;

typedef struct pa_parser {
  pa_ast *ast;
  pa_arena *A;
  const char *src; /* == ast->text */
  uint32_t len;
  pa_limits lim;

  /* lexer position and token lookahead (la[la_head .. la_n) are lexed, not consumed) */
  uint32_t pos, line, line_off, last_tok_line;
  pa_tok *la;
  uint32_t la_head, la_n, la_cap;
  uint32_t prev_end;   /* end offset of the last consumed token */
  uint32_t lex_err_end; /* lexer errors are reported once: only past this offset */
  pa_tok eof;          /* returned by pa_peek once the parse stops */
  int oom;
  int eof_reported;    /* a region left open at the end of file was reported */
  pa_str cur_op;       /* op of the statement being parsed (for diagnostics) */

  pa_stack items, ptrs, misc, tags;

  pa_diag *diags;      /* malloc'd while parsing, copied to the arena at the end */
  uint32_t ndiags, dcap, nerrors;
  int panic;           /* an error was reported in the current statement: skip to the next */
  int stop;            /* out of memory or too many errors: the parse ends */
  uint32_t depth;

  pa_tcache_ent *tc;
  uint32_t tc_n, tc_cap;
} pa_parser;

/* ---- lexer (lex.c) -------------------------------------------------------------------- */

pa_tok pa_peek(pa_parser *p, uint32_t k); /* k-th unconsumed token (0 = next), by value */
pa_tok pa_next(pa_parser *p);                    /* consume */
int pa_accept(pa_parser *p, pa_tok_kind k);      /* consume if next is k */
/* Drop the lookahead and continue lexing at byte `off`, which lies on line `line` starting at
 * `line_off`; `mid_line` says a token precedes `off` on that line. */
void pa_seek(pa_parser *p, uint32_t off, uint32_t line, uint32_t line_off, int mid_line);
/* pa_seek to the start of token t. */
void pa_seek_tok(pa_parser *p, const pa_tok *t);
/* Consume the text up to byte `off` (usually past the next token start) and continue
 * lexing there, keeping line numbers. */
void pa_skip_to(pa_parser *p, uint32_t off);
/* Offset just past the '>' matching the '<' at src[lt], or 0 if a brace or the scan limit
 * comes first. Strings, comments and '->' are skipped as the lexer skips them. */
uint32_t pa_match_angle(const pa_parser *p, uint32_t lt);

int pa_tok_is(const pa_parser *p, const pa_tok *t, const char *lit);
pa_str pa_tok_str(const pa_parser *p, const pa_tok *t);
pa_loc pa_tok_loc(const pa_tok *t);
const char *pa_tok_desc(pa_tok_kind k); /* "')'", "identifier", ... */

/* ---- diagnostics (lex.c) --------------------------------------------------------------- */

/* Report at token t unless the statement already failed (panic) or t is a lexer error that
 * was reported already; enters panic mode. hint may be NULL. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
void pa_error(pa_parser *p, const pa_tok *t, const char *rule, const char *hint, const char *fmt, ...);
/* "expected X but found Y" at the next token. */
void pa_expected(pa_parser *p, const char *what, const char *hint);

/* Consume a token of kind k or report parse.expected_token. */
int pa_expect(pa_parser *p, pa_tok_kind k, const char *hint);

/* ---- allocation helpers (lex.c) --------------------------------------------------------- */

void *pa_alloc(pa_parser *p, size_t n); /* zeroed arena memory; NULL (parse.out_of_memory) on failure */
void pa_push(pa_parser *p, pa_stack *s, const void *elem, size_t size);
/* Copy the elements pushed since `base` into the arena, pop them, return the array (NULL
 * when empty) and their count. */
void *pa_take(pa_parser *p, pa_stack *s, size_t base, size_t size, uint32_t *count);

/* Nesting guard: returns 0 (after parse.too_deep) when the limit is hit. */
int pa_enter(pa_parser *p, const pa_tok *at);
static inline void pa_leave(pa_parser *p) { p->depth--; }

/* ---- types (type.c) -------------------------------------------------------------------- */

int pa_is_type_start(pa_parser *p, uint32_t k); /* can the k-th token begin a type? */
const pa_type *pa_builtin_scalar(pa_str name);   /* i32, index, f16, ... or NULL */
/* Parse one type at the next token; NULL after reporting an error. */
const pa_type *pa_parse_type(pa_parser *p);
/* Result types after '->': `T` or `(T, ...)`, and with bare_list (an op's results in custom
 * syntax, not a function type) also `T1, T2`. Pushes onto p->ptrs; 0 on error. */
int pa_parse_result_types(pa_parser *p, int bare_list);

/* ---- items (parse.c, used by type.c for memref/tensor attributes) ---------------------- */

typedef enum pa_ctx { PA_CTX_OP, PA_CTX_PAREN, PA_CTX_LIST, PA_CTX_DICT, PA_CTX_ANGLE } pa_ctx;
int pa_parse_item(pa_parser *p, pa_ctx ctx, pa_item *out); /* 0 on error */

/* ---- generic form (generic.c) ----------------------------------------------------------- */

/* A generic-form op of a known assemblyFormat into its custom form's items (parse.generic
 * when its operands do not fit); other ops keep generic = 1. */
void pa_generic_to_custom(pa_parser *p, pa_op *op);

#endif
