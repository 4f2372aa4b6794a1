/* Walking the AST and small accessors for later stages. */
#include <string.h>

#include "asm/asm.h"
#include "asm/diag_print.h"

int pa_str_is(pa_str s, const char *lit) {
  size_t n = strlen(lit);
  return s.n == n && (!n || !memcmp(s.s, lit, n));
}

int pa_str_eq(pa_str a, pa_str b) { return a.n == b.n && (!a.n || !memcmp(a.s, b.s, a.n)); }

static int walk(const pa_op *op, int depth, pa_op_fn fn, void *user) {
  int r = fn(op, depth, user);
  if (r) return r;
  for (uint32_t i = 0; i < op->nregions; i++)
    for (uint32_t b = 0; b < op->regions[i].nblocks; b++) {
      const pa_block *blk = &op->regions[i].blocks[b];
      for (uint32_t k = 0; k < blk->nops; k++)
        if ((r = walk(&blk->ops[k], depth + 1, fn, user))) return r;
    }
  return 0;
}

/* Recursion depth is bounded by the parser's nesting limit. */
int pa_walk(const pa_op *root, pa_op_fn fn, void *user) { return root ? walk(root, 0, fn, user) : 0; }

typedef struct find_op {
  pa_op_pred pred;
  const void *arg;
  const pa_op *found;
} find_op;

static int match_op(const pa_op *op, int depth, void *user) {
  find_op *f = user;
  (void)depth;
  return f->pred(op, f->arg) ? (f->found = op, 1) : 0;
}

const pa_op *pa_find_op(const pa_op *scope, pa_op_pred pred, const void *arg) {
  find_op f = {pred, arg, NULL};
  pa_walk(scope, match_op, &f);
  return f.found;
}

typedef struct find_func {
  const char *name;
  const pa_op *found, *decl;
} find_func;

static int match_func(const pa_op *op, int depth, void *user) {
  find_func *f = user;
  (void)depth;
  if (!op->func || !pa_str_is(op->func->name, f->name)) return 0;
  if (op->func->is_decl) {
    if (!f->decl) f->decl = op;
    return 0;
  }
  f->found = op;
  return 1;
}

/* A private declaration in one nested module is resolved by a definition of the same name
 * in another (PTOAS links its emitc and vpto modules that way): definitions win. */
const pa_op *pa_find_func(const pa_ast *ast, const char *name) {
  find_func f = {name, NULL, NULL};
  pa_walk(ast->module, match_func, &f);
  return f.found ? f.found : f.decl;
}

int pa_item_is_word(const pa_item *it, const char *w) { return it && it->kind == PA_IT_WORD && pa_str_is(it->name, w); }

const pa_item *pa_item_find(const pa_item *items, uint32_t n, const char *name) {
  for (uint32_t i = 0; i < n; i++) {
    const pa_item *it = &items[i];
    if ((it->kind == PA_IT_CALL || it->kind == PA_IT_ASSIGN || it->kind == PA_IT_WORD) && pa_str_is(it->name, name))
      return it;
  }
  return NULL;
}

const pa_item *pa_op_clause(const pa_op *op, const char *name) { return pa_item_find(op->items, op->nitems, name); }

const pa_item *pa_dict_get(const pa_item *dict, const char *key) {
  if (!dict || dict->kind != PA_IT_DICT) return NULL;
  for (uint32_t i = 0; i < dict->nargs; i++) {
    const pa_item *e = &dict->args[i];
    if (e->kind == PA_IT_ASSIGN && pa_str_is(e->name, key)) return &e->args[1];
    if ((e->kind == PA_IT_WORD || e->kind == PA_IT_STRING) && pa_str_is(e->name, key)) return e;
  }
  return NULL;
}

const pa_item *pa_op_attr(const pa_op *op, const char *key) {
  for (uint32_t k = 0; k < op->nitems; k++) {
    const pa_item *v = op->items[k].kind == PA_IT_DICT ? pa_dict_get(&op->items[k], key) : NULL;
    if (v) return v;
  }
  return NULL;
}

static int hex_val(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t pa_string_decode(const pa_item *it, char *buf, size_t cap) {
  size_t n = 0;
  const char *s = it->name.s;
  for (size_t i = 0; i < it->name.n; i++) {
    char c = s[i];
    if (c == '\\' && i + 1 < it->name.n) {
      char e = s[++i];
      if (e == 'n') c = '\n';
      else if (e == 't') c = '\t';
      else if (i + 1 < it->name.n && hex_val(e) >= 0 && hex_val(s[i + 1]) >= 0) c = (char)(hex_val(e) * 16 + hex_val(s[++i]));
      else c = e;
    }
    if (n + 1 < cap) buf[n] = c;
    n++;
  }
  if (cap) buf[n < cap ? n : cap - 1] = 0;
  return n;
}

const char *pa_item_kind_name(pa_item_kind k) {
  static const char *const names[PA_IT_KIND_COUNT] = {"value", "int",   "float", "string", "word",   "symbol", "attr",
                                                      "call",  "assign", "list", "angle",  "launch", "dict",   "type"};
  return (unsigned)k < PA_IT_KIND_COUNT ? names[k] : "?";
}

const char *pa_type_kind_name(pa_type_kind k) {
  static const char *const names[PA_TY_KIND_COUNT] = {
      "int", "index", "float", "none", "vector", "tensor", "memref", "func", "tuple", "ptr", "tile_buf",
      "tensor_view", "partition_tensor_view", "tile_view", "vreg", "mask", "align", "multi_tile_buf",
      "local_array", "eventid_array", "dialect"};
  return (unsigned)k < PA_TY_KIND_COUNT ? names[k] : "?";
}

uint32_t pa_print_diags(const pa_ast *ast, FILE *f) {
  for (uint32_t i = 0; i < ast->ndiags; i++) {
    const pa_diag *d = &ast->diags[i];
    const char *line = NULL;
    size_t n = 0;
    if (d->line_off <= ast->len) { /* the line starting at line_off */
      line = ast->text + d->line_off;
      const char *nl = memchr(line, '\n', ast->len - d->line_off);
      n = nl ? (size_t)(nl - line) : ast->len - d->line_off;
      if (nl && n && line[n - 1] == '\r') n--; /* CRLF line end */
    }
    pa_diag_print(f, ast->file, d->loc.line, d->loc.col, "error", d->msg, d->rule, d->hint, line, n);
  }
  return ast->ndiags;
}

/* ---- dump ------------------------------------------------------------------------------ */

static void dump_str(FILE *f, pa_str s) {
  if (s.n) fwrite(s.s, 1, s.n, f);
}

static void dump_type(FILE *f, const pa_type *t) {
  char small[256];
  size_t n = pa_type_print(t, small, sizeof small);
  fputs(small, f);
  if (n >= sizeof small) fputs("...", f);
}

static void dump_items(FILE *f, const pa_item *its, uint32_t n);

static void dump_types(FILE *f, const pa_type **ts, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    fputs(i ? ", " : "", f);
    dump_type(f, ts[i]);
  }
}

static void dump_item(FILE *f, const pa_item *it) {
  fprintf(f, "%s", pa_item_kind_name(it->kind));
  switch (it->kind) {
  case PA_IT_INT: fprintf(f, "(%lld)", (long long)it->v.i); break;
  case PA_IT_FLOAT: fprintf(f, "(%.17g)", it->v.f); break;
  case PA_IT_TYPE: fputc('(', f), dump_type(f, it->type), fputc(')', f); break;
  case PA_IT_VALUE:
    fputs("(%", f), dump_str(f, it->name);
    if (it->result_no >= 0) fprintf(f, "#%d", it->result_no);
    fputc(')', f);
    break;
  default:
    if (it->name.n || it->kind == PA_IT_STRING) fputc('(', f), dump_str(f, it->name), fputc(')', f);
  }
  if (it->nargs || it->kind == PA_IT_CALL || it->kind == PA_IT_LIST || it->kind == PA_IT_DICT) {
    fputc('[', f);
    dump_items(f, it->args, it->nargs);
    if (it->ntypes) fputs(" : ", f), dump_types(f, it->types, it->ntypes);
    fputc(']', f);
  } else if (it->body.s) {
    fputs("<", f), dump_str(f, it->body), fputs(">", f);
  }
  if (it->kind != PA_IT_TYPE && it->type) fputs(" : ", f), dump_type(f, it->type);
  if (it->attrs) fputc(' ', f), dump_item(f, it->attrs);
}

static void dump_items(FILE *f, const pa_item *its, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    fputs(i ? " " : "", f);
    dump_item(f, &its[i]);
  }
}

static int dump_op(const pa_op *op, int depth, void *user) {
  FILE *f = user;
  fprintf(f, "%*s%u:%u ", 2 * depth, "", (unsigned)op->loc.line, (unsigned)op->loc.col);
  for (uint32_t i = 0; i < op->nresults; i++) {
    fprintf(f, "%s%%", i ? ", " : "");
    dump_str(f, op->results[i].name);
    if (op->results[i].count != 1) fprintf(f, ":%u", (unsigned)op->results[i].count);
  }
  if (op->nresults) fputs(" = ", f);
  dump_str(f, op->name);
  if (op->nitems) fputc(' ', f), dump_items(f, op->items, op->nitems);
  if (op->ntypes) fputs(" : ", f), dump_items(f, op->types, op->ntypes);
  if (op->nrtypes) fputs(" -> ", f), dump_types(f, op->rtypes, op->nrtypes);
  if (op->attrs) fputs(" attributes ", f), dump_item(f, op->attrs);
  for (uint32_t r = 0; r < op->nregions; r++) {
    fprintf(f, " {region %u:", (unsigned)r);
    for (uint32_t b = 0; b < op->regions[r].nblocks; b++) {
      const pa_block *blk = &op->regions[r].blocks[b];
      fprintf(f, " block ^");
      dump_str(f, blk->label);
      fprintf(f, "(%u args) %u ops;", (unsigned)blk->nargs, (unsigned)blk->nops);
    }
    fputc('}', f);
  }
  fputc('\n', f);
  return 0;
}

void pa_dump(const pa_op *root, FILE *f) { pa_walk(root, dump_op, f); }
