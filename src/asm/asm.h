/* PTO text front end: parse a .pto buffer into an arena-allocated AST (src/asm/ast.h).
 *
 *   pa_ast *ast;
 *   int nerr = pa_parse("k.pto", text, len, NULL, &ast);
 *   if (nerr) pa_print_diags(ast, stderr);   // file:line:col: error: ... [rule] + source + caret
 *   ... pa_walk(ast->module, fn, user) ...
 *   pa_ast_free(ast);
 *
 * No global state: parses of different buffers may run concurrently. The AST owns a copy
 * of the text, so the caller's buffer may be freed right after pa_parse. */
#ifndef PA_ASM_H
#define PA_ASM_H

#include <stdio.h>

#include "asm/ast.h"

/* Limits (0 = default). The AST takes about 15 bytes per input byte on real programs and up
 * to about 60 on pathological ones (a list of millions of one-character operands). */
typedef struct pa_limits {
  size_t max_bytes;    /* larger inputs are rejected with parse.too_large */
  uint32_t max_depth;  /* nesting of regions, brackets and types (parse.too_deep) */
  uint32_t max_errors; /* diagnostics kept before parse.too_many_errors stops the parse */
} pa_limits;

#define PA_DEFAULT_MAX_BYTES ((size_t)64 << 20)
#define PA_DEFAULT_MAX_DEPTH 200u
#define PA_DEFAULT_MAX_ERRORS 500u

/* Parse text[0..len) (need not be NUL-terminated; may contain any bytes). lim may be NULL
 * (defaults above). Returns the number of errors (0 = success) and stores the AST in *out,
 * which holds every diagnostic and a best-effort tree even when errors were found. Returns
 * -1 with *out = NULL only if the AST itself could not be allocated. */
int pa_parse(const char *file, const char *text, size_t len, const pa_limits *lim, pa_ast **out);

/* Free the AST and everything it owns (one call). NULL is fine. */
void pa_ast_free(pa_ast *ast);

/* Print every diagnostic in the three-line form of diag_print.h. Returns the count. */
uint32_t pa_print_diags(const pa_ast *ast, FILE *f);

/* ---- walking -------------------------------------------------------------------------- */

/* Called for every op in pre-order (an op before the ops of its regions); depth 0 is the
 * op passed to pa_walk. A non-zero return stops the walk and is returned by pa_walk. */
typedef int (*pa_op_fn)(const pa_op *op, int depth, void *user);
int pa_walk(const pa_op *root, pa_op_fn fn, void *user);

/* The first op of scope's tree, scope included, in pre-order, for which pred(op, arg) is
 * non-zero; NULL if none. */
typedef int (*pa_op_pred)(const pa_op *op, const void *arg);
const pa_op *pa_find_op(const pa_op *scope, pa_op_pred pred, const void *arg);

/* The func.func op named `name` (without '@') anywhere in the module tree, or NULL. */
const pa_op *pa_find_func(const pa_ast *ast, const char *name);

/* Print the op tree, one op per line (location, results, name, items with their kinds,
 * trailing types, result types, regions), for debugging and tests. */
void pa_dump(const pa_op *root, FILE *f);

/* ---- small accessors -------------------------------------------------------------------- */

int pa_str_is(pa_str s, const char *lit);          /* exact match */
int pa_str_eq(pa_str a, pa_str b);                 /* the same bytes (either may be empty) */
int pa_item_is_word(const pa_item *it, const char *w);
/* The first item of the list whose head is `name`: a CALL `name(...)`, an ASSIGN `name = v`
 * or a WORD `name`. NULL if absent. */
const pa_item *pa_item_find(const pa_item *items, uint32_t n, const char *name);
const pa_item *pa_op_clause(const pa_op *op, const char *name); /* pa_item_find on op->items */
/* Value of a dictionary entry `key = v` (or the WORD `key` itself for a unit attribute). */
const pa_item *pa_dict_get(const pa_item *dict, const char *key);
/* The value of `key` in the first of the op's {...} dictionaries that has it, or NULL. */
const pa_item *pa_op_attr(const pa_op *op, const char *key);
/* Decode a STRING item's escapes (\\ \" \n \t \XX) into buf (NUL-terminated, truncated to
 * cap). Returns the decoded length. */
size_t pa_string_decode(const pa_item *it, char *buf, size_t cap);

const char *pa_item_kind_name(pa_item_kind k);
const char *pa_type_kind_name(pa_type_kind k);
const char *pa_aspace_name(pa_aspace s); /* tile_buf spelling: gm, mat, left, ... */
const char *pa_float_name(pa_float_kind k);

/* ---- types ---------------------------------------------------------------------------- */

/* Print a type in canonical form (tile_buf always in the full key=value form with every
 * field, ptr with its space if one was spelled). snprintf-like: writes at most cap bytes
 * including the NUL and returns the length the full text needs. */
size_t pa_type_print(const pa_type *t, char *buf, size_t cap);

/* Structural equality (same canonical print). */
int pa_type_equal(const pa_type *a, const pa_type *b);

#endif
