/* libFuzzer harness for the .pto front end: parse arbitrary bytes, then exercise everything
 * that reads the result (diagnostic formatting, the walker, the dump, type printing and
 * equality), and verify it as `ptosim check` does (lowering and binding of every function).
 * Aborts on a broken invariant so the fuzzer reports it like a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "asm/asm.h"
#include "asm/diag_print.h"
#include "ptosim/program.h"

static void check(int ok) {
  if (!ok) abort();
}

static void visit_type(const pa_type *t) {
  char buf[128];
  size_t n = pa_type_print(t, buf, sizeof buf);
  check(n > 0 && pa_type_equal(t, t));
}

/* A slice of the AST's own text. */
static int in_text(const pa_ast *ast, pa_str s) {
  return s.n == 0 || (s.s >= ast->text && s.n <= ast->len && s.s + s.n <= ast->text + ast->len);
}

static void visit_items(const pa_ast *ast, const pa_item *its, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    const pa_item *it = &its[i];
    check(it->kind < PA_IT_KIND_COUNT && it->loc.line >= 1 && it->loc.col >= 1);
    check(in_text(ast, it->text) && in_text(ast, it->name) && in_text(ast, it->body));
    if (it->type) visit_type(it->type);
    for (uint32_t k = 0; k < it->ntypes; k++) visit_type(it->types[k]);
    if (it->kind == PA_IT_STRING) {
      char s[32];
      pa_string_decode(it, s, sizeof s);
    }
    visit_items(ast, it->args, it->nargs);
    if (it->attrs) visit_items(ast, it->attrs, 1);
  }
}

static int visit_op(const pa_op *op, int depth, void *user) {
  const pa_ast *ast = user;
  (void)depth;
  check(op->name.n > 0 && (op == ast->module || (in_text(ast, op->text) && in_text(ast, op->name))));
  visit_items(ast, op->items, op->nitems);
  visit_items(ast, op->types, op->ntypes);
  for (uint32_t i = 0; i < op->nrtypes; i++) visit_type(op->rtypes[i]);
  if (op->attrs) visit_items(ast, op->attrs, 1);
  if (op->func)
    for (uint32_t i = 0; i < op->func->nargs; i++) visit_type(op->func->args[i].type);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *null_out;
  if (!null_out) null_out = fopen("/dev/null", "w");
  pa_limits lim = {1u << 20, 64, 64}; /* small limits reach the limit paths quickly */
  pa_ast *ast;
  int nerr = pa_parse("fuzz.pto", (const char *)data, size, &lim, &ast);
  check(ast != NULL && nerr >= 0 && (uint32_t)nerr == ast->nerrors && ast->module != NULL);
  for (uint32_t i = 0; i < ast->ndiags; i++) {
    const pa_diag *d = &ast->diags[i];
    size_t len;
    const char *line = pa_source_line(ast->text, ast->len, d->loc.line, &len);
    check(line != NULL && (size_t)(line - ast->text) == d->line_off && d->loc.col <= len + 1);
    char buf[512];
    pa_diag_format(buf, sizeof buf, ast->file, d->loc.line, d->loc.col, "error", d->msg, d->rule, d->hint, line, len);
  }
  pa_walk(ast->module, visit_op, ast);
  if (null_out) {
    pa_dump(ast->module, null_out);
    pa_print_diags(ast, null_out);
  }
  pa_ast_free(ast);
  if (nerr == 0) {
    int unsupported = 0;
    check(ptosim_program_check("fuzz.pto", (const char *)data, size, -1, null_out, &unsupported) >= unsupported);
  }
  return 0;
}
