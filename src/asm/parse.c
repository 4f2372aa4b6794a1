/* Recursive-descent parser: statements, ops, regions, blocks and the generic item grammar.
 *
 * A statement is `[results =] op-name items... [: trailing types] [-> types] [regions]`.
 * It ends where the next one begins: a `%r [, %s] =` / `%r:N =` result list followed by an
 * op name, a dotted op name, `return`, `call`, `module`, a `^block` label, or the '}'
 * closing the region; so ops may span any number of lines (a value right after a comma is
 * always an operand). Items are separated by commas or blanks.
 *
 * Errors: the first error of a statement is reported, then tokens are skipped to the next
 * statement start at the beginning of a line (outside nested braces), so every broken
 * statement of a file gets its own diagnostic. */
#include <stdlib.h>
#include <string.h>

#include "asm/parser.h"

/* ---- statement boundaries ----------------------------------------------------------------- */

/* Op names are dotted; `return` and `call` are func ops written without the dialect inside a
 * function (func.func's default dialect), `module` is builtin. */
static int is_op_name(pa_parser *p, const pa_tok *t) {
  return t->kind == TK_IDENT && (memchr(p->src + t->off, '.', t->len) || pa_tok_is(p, t, "return") ||
                                 pa_tok_is(p, t, "call") || pa_tok_is(p, t, "module"));
}

/* A generic-form op name: a quoted dotted name directly followed by '(' (`"pto.tmov"(%a)`). */
static int is_generic_name(pa_parser *p, uint32_t k) {
  pa_tok t = pa_peek(p, k), paren = pa_peek(p, k + 1);
  return t.kind == TK_STRING && t.len > 2 && memchr(p->src + t.off + 1, '.', t.len - 2) && paren.kind == TK_LPAREN &&
         paren.off == t.off + t.len;
}

/* Longest result list recognized; the check looks ahead that far at most. */
enum { MAX_RESULTS = 1024 };

/* Does `%a[:N] (, %b[:N])* = op-name` start at lookahead token k? */
static int results_follow(pa_parser *p, uint32_t k) {
  for (uint32_t n = 0; n < MAX_RESULTS; n++) {
    pa_tok v = pa_peek(p, k++);
    if (v.kind != TK_VALUE || v.num >= 0) return 0;
    if (pa_peek(p, k).kind == TK_COLON && pa_peek(p, k + 1).kind == TK_INT) k += 2;
    if (pa_peek(p, k).kind != TK_COMMA) {
      if (pa_peek(p, k).kind != TK_EQ) return 0;
      pa_tok n = pa_peek(p, k + 1);
      return n.kind == TK_IDENT || n.kind == TK_STRING;
    }
    k++;
  }
  return 0;
}

/* Does the next token begin a new statement (or end the region)? */
static int at_stmt_start(pa_parser *p) {
  pa_tok t = pa_peek(p, 0);
  switch (t.kind) {
  case TK_EOF: case TK_RBRACE: case TK_BLOCK: return 1;
  case TK_IDENT: return is_op_name(p, &t);
  case TK_VALUE: return results_follow(p, 0);
  case TK_STRING: return is_generic_name(p, 0);
  default: return 0;
  }
}

static int brace_is_dict(pa_parser *p);
static int parse_region(pa_parser *p, pa_region *r);

/* After an error: skip to the next statement that starts a line at this brace level. A
 * region of the broken statement (a '{' that ends its line) is still parsed, for the errors
 * inside it, and then dropped. */
static void synchronize(pa_parser *p) {
  uint32_t depth = 0;
  p->panic = 0;
  for (;;) {
    pa_tok t = pa_peek(p, 0);
    if (t.kind == TK_EOF) break;
    if (t.kind == TK_RBRACE) {
      if (!depth) break;
      depth--;
    } else if (t.kind == TK_LBRACE) {
      if (!depth && pa_peek(p, 1).bol && !brace_is_dict(p)) {
        pa_region r;
        parse_region(p, &r);
        p->panic = 0;
        continue;
      }
      depth++;
    } else if (!depth && t.bol && at_stmt_start(p)) {
      break;
    }
    pa_next(p);
  }
  p->panic = 0;
}

/* ---- items --------------------------------------------------------------------------------- */

static int adjacent(pa_parser *p, pa_tok_kind k) {
  pa_tok t = pa_peek(p, 0);
  return t.kind == k && t.off == p->prev_end;
}

static pa_item *arena_item(pa_parser *p, const pa_item *it) {
  pa_item *r = pa_alloc(p, sizeof *r);
  if (r) *r = *it;
  return r;
}

static int parse_seq(pa_parser *p, pa_ctx ctx, pa_tok_kind close, pa_item *owner);

/* The last item pushed (a list entry that a following `{...}` or `: type` attaches to). */
static pa_item *stack_top(pa_parser *p) { return (pa_item *)(void *)(p->items.p + p->items.n - sizeof(pa_item)); }

/* Types of `( ... : T1, T2)`: a comma continues the list only if a type follows it. */
static int parse_paren_types(pa_parser *p) {
  do {
    const pa_type *t = pa_parse_type(p);
    if (!t) return 0;
    pa_push(p, &p->ptrs, &t, sizeof t);
  } while (pa_peek(p, 0).kind == TK_COMMA && pa_is_type_start(p, 1) && pa_accept(p, TK_COMMA));
  return 1;
}

/* A list left open: the next line starts a new statement (a dotted op name that is not a
 * dictionary key, or `%r = op`). */
static int seq_interrupted(pa_parser *p, const pa_tok *t, pa_tok_kind close) {
  if (!t->bol) return 0;
  if (t->kind == TK_VALUE) return results_follow(p, 0);
  if (!is_op_name(p, t)) return 0;
  pa_tok_kind n = pa_peek(p, 1).kind;
  return n != TK_EQ && n != TK_COMMA && n != close;
}

/* Items up to the closing token `close` (consumed) into owner->args. Inside parentheses a
 * `: T, ...` list goes to owner->types and a `{...}` dictionary after an entry becomes that
 * entry's attrs; inside a dictionary or <...> `value : type` gives the value a type. */
static int parse_seq(pa_parser *p, pa_ctx ctx, pa_tok_kind close, pa_item *owner) {
  size_t base = p->items.n, tbase = p->ptrs.n;
  int ok = 1, after_comma = 0;
  for (;;) {
    pa_tok t = pa_peek(p, 0);
    if (t.kind == close && !after_comma) {
      pa_next(p);
      break;
    }
    if (t.kind == TK_EOF || t.kind == TK_RBRACE || t.kind == close || p->panic || seq_interrupted(p, &t, close)) {
      pa_expected(p, after_comma ? "an entry after ','" : pa_tok_desc(close),
                  after_comma ? "remove the trailing ','" : "close the list");
      ok = 0;
      break;
    }
    if (ctx == PA_CTX_PAREN && t.kind == TK_COLON) {
      pa_next(p);
      if (!(ok = parse_paren_types(p))) break;
    } else if (ctx == PA_CTX_PAREN && t.kind == TK_LBRACE && p->items.n > base) {
      pa_item d;
      if (!(ok = pa_parse_item(p, PA_CTX_PAREN, &d))) break;
      pa_item *top = stack_top(p);
      top->attrs = arena_item(p, &d);
    } else {
      pa_item it;
      if (!(ok = pa_parse_item(p, ctx, &it))) break;
      pa_push(p, &p->items, &it, sizeof it);
      if ((ctx == PA_CTX_DICT || ctx == PA_CTX_ANGLE) && pa_accept(p, TK_COLON)) {
        const pa_type *ty = pa_parse_type(p);
        if (!(ok = ty != NULL)) break;
        pa_item *top = stack_top(p);
        if (top->kind == PA_IT_ASSIGN) top->args[1].type = ty;
        else top->type = ty;
      }
    }
    after_comma = pa_accept(p, TK_COMMA);
  }
  owner->args = pa_take(p, &p->items, base, sizeof(pa_item), &owner->nargs);
  owner->types = pa_take(p, &p->ptrs, tbase, sizeof(pa_type *), &owner->ntypes);
  return ok;
}

/* Body of `#pto...<...>` or `dense<...>` as items when it reads as items; otherwise it is
 * kept raw only (no diagnostic): attribute bodies of other shapes stay legal. */
static void parse_angle_body(pa_parser *p, pa_item *it, int as_items) {
  pa_tok lt = pa_peek(p, 0);
  uint32_t end = pa_match_angle(p, lt.off);
  if (!end) {
    pa_error(p, &lt, "parse.expected_token", "close the attribute parameters with '>'", "'<' is never closed");
    return;
  }
  it->body.s = p->src + lt.off + 1;
  it->body.n = end - lt.off - 2;
  if (as_items) {
    uint32_t nd = p->ndiags, ne = p->nerrors, lex_end = p->lex_err_end;
    pa_next(p); /* '<' */
    if (parse_seq(p, PA_CTX_ANGLE, TK_GT, it) && p->prev_end == end) return;
    if (p->stop) return;
    p->ndiags = nd; /* not item-shaped: forget the attempt */
    p->nerrors = ne;
    p->lex_err_end = lex_end;
    p->panic = 0;
    it->args = NULL;
    it->nargs = it->ntypes = 0;
    pa_seek_tok(p, &lt);
  }
  pa_skip_to(p, end);
}

static int starts_with(pa_str s, const char *lit) {
  size_t n = strlen(lit);
  return s.n >= n && !memcmp(s.s, lit, n);
}

/* `<<<` opens a launch configuration when the three '<' touch. */
static int launch_follows(pa_parser *p) {
  pa_tok a = pa_peek(p, 0), b = pa_peek(p, 1), c = pa_peek(p, 2);
  return a.kind == TK_LT && b.kind == TK_LT && c.kind == TK_LT && b.off == a.off + 1 && c.off == b.off + 1;
}

static int parse_launch(pa_parser *p, pa_item *it) {
  it->kind = PA_IT_LAUNCH;
  pa_next(p), pa_next(p), pa_next(p);
  if (!parse_seq(p, PA_CTX_ANGLE, TK_GT, it)) return 0;
  for (int i = 0; i < 2; i++)
    if (!adjacent(p, TK_GT) || !pa_accept(p, TK_GT)) {
      pa_expected(p, "'>>>'", "close the launch configuration with '>>>'");
      return 0;
    }
  return 1;
}

static int make_assign(pa_parser *p, pa_ctx ctx, pa_item *it, const pa_tok *t);

/* The opening token is next: consume it and the entries up to `close`. */
static int bracketed(pa_parser *p, pa_item *it, pa_item_kind k, pa_ctx ctx, pa_tok_kind close) {
  pa_next(p);
  it->kind = k;
  return parse_seq(p, ctx, close, it);
}

static int parse_item_inner(pa_parser *p, pa_ctx ctx, pa_item *it, const pa_tok *t) {
  switch (t->kind) {
  case TK_VALUE: {
    pa_next(p);
    it->kind = PA_IT_VALUE;
    it->name.s = p->src + t->off + 1;
    const char *hash = t->num >= 0 ? memchr(it->name.s, '#', t->len - 1) : NULL;
    it->name.n = hash ? (size_t)(hash - it->name.s) : t->len - 1;
    it->result_no = t->num;
    if (adjacent(p, TK_LBRACK)) { /* %ptr[%off] */
      pa_next(p);
      if (!parse_seq(p, PA_CTX_LIST, TK_RBRACK, it)) return 0;
    }
    break;
  }
  case TK_INT: case TK_FLOAT:
    pa_next(p);
    it->kind = t->kind == TK_INT ? PA_IT_INT : PA_IT_FLOAT;
    it->v.u = t->v.u;
    return 1;
  case TK_STRING:
    pa_next(p);
    it->kind = PA_IT_STRING;
    it->name.s = p->src + t->off + 1;
    it->name.n = t->len >= 2 && p->src[t->off + t->len - 1] == '"' ? t->len - 2 : t->len - 1;
    break;
  case TK_SYMBOL: {
    pa_next(p);
    it->kind = PA_IT_SYMBOL;
    int quoted = p->src[t->off + 1] == '"';
    it->name.s = p->src + t->off + 1 + quoted;
    it->name.n = t->len - 1 - (quoted ? (p->src[t->off + t->len - 1] == '"' && t->len > 2 ? 2 : 1) : 0);
    return 1;
  }
  case TK_IDENT:
    pa_next(p);
    it->kind = PA_IT_WORD;
    it->name = pa_tok_str(p, t);
    if (adjacent(p, TK_LPAREN)) /* clause call: nburst(...), ins(...) */
      return bracketed(p, it, PA_IT_CALL, PA_CTX_PAREN, TK_RPAREN);
    if (adjacent(p, TK_COLON)) { /* keyword operand `offset: [%c0]` (memref.reinterpret_cast) */
      pa_tok v = pa_peek(p, 1);
      if (v.kind == TK_LBRACK || v.kind == TK_VALUE || v.kind == TK_INT) {
        pa_next(p);
        return make_assign(p, ctx, it, t);
      }
    }
    if (adjacent(p, TK_LT)) { /* dense<...>, strided<...> */
      it->kind = PA_IT_ANGLE;
      parse_angle_body(p, it, pa_str_is(it->name, "dense"));
      return !p->panic;
    }
    break;
  case TK_HASH:
    pa_next(p);
    it->kind = PA_IT_ATTR;
    it->name.s = p->src + t->off + 1;
    it->name.n = t->len - 1;
    if (adjacent(p, TK_LT)) {
      int pto = pa_str_is(it->name, "pto") || starts_with(it->name, "pto.");
      parse_angle_body(p, it, pto);
    }
    return !p->panic;
  case TK_BANG: {
    const pa_type *ty = pa_parse_type(p);
    it->kind = PA_IT_TYPE;
    it->type = ty;
    return ty != NULL;
  }
  case TK_LPAREN: return bracketed(p, it, PA_IT_CALL, PA_CTX_PAREN, TK_RPAREN);
  case TK_LBRACK: return bracketed(p, it, PA_IT_LIST, PA_CTX_LIST, TK_RBRACK);
  case TK_LBRACE: return bracketed(p, it, PA_IT_DICT, PA_CTX_DICT, TK_RBRACE);
  case TK_LT:
    if (launch_follows(p)) return parse_launch(p, it);
    return bracketed(p, it, PA_IT_ANGLE, PA_CTX_ANGLE, TK_GT);
  case TK_QUESTION:
    pa_next(p);
    it->kind = PA_IT_WORD;
    it->name = pa_tok_str(p, t);
    return 1;
  default:
    pa_expected(p, "an operand or attribute", NULL);
    return 0;
  }
  /* a value, string or word may be the key of `key = value` */
  if (pa_accept(p, TK_EQ)) return make_assign(p, ctx, it, t);
  return 1;
}

/* `key = value` (or `key: value`) with `it` the parsed key (token t); the separator is consumed. */
static int make_assign(pa_parser *p, pa_ctx ctx, pa_item *it, const pa_tok *t) {
  pa_item kv[2];
  kv[0] = *it;
  kv[0].text.s = p->src + t->off;
  kv[0].text.n = p->prev_end > t->off ? p->prev_end - t->off - 1 : 0; /* without the separator */
  while (kv[0].text.n && (kv[0].text.s[kv[0].text.n - 1] == ' ' || kv[0].text.s[kv[0].text.n - 1] == '\t')) kv[0].text.n--;
  if (!pa_parse_item(p, ctx, &kv[1])) return 0;
  pa_item *args = pa_alloc(p, sizeof kv);
  if (!args) return 0;
  memcpy(args, kv, sizeof kv);
  pa_str key = it->name;
  memset(it, 0, sizeof *it);
  it->kind = PA_IT_ASSIGN;
  it->loc = pa_tok_loc(t);
  it->result_no = -1;
  it->name = key;
  it->args = args;
  it->nargs = 2;
  return 1;
}

int pa_parse_item(pa_parser *p, pa_ctx ctx, pa_item *it) {
  pa_tok t = pa_peek(p, 0);
  memset(it, 0, sizeof *it);
  it->loc = pa_tok_loc(&t);
  it->result_no = -1;
  if (!pa_enter(p, &t)) return 0;
  int ok = parse_item_inner(p, ctx, it, &t);
  pa_leave(p);
  it->text.s = p->src + t.off;
  it->text.n = p->prev_end > t.off ? p->prev_end - t.off : 0;
  return ok;
}

/* ---- ops ------------------------------------------------------------------------------------ */

/* `{` opens an attribute dictionary (not a region) when it reads `{key = ...`, `{key, ...`,
 * `{word}` or a one-line `{dotted.word}` such as {pto.kernel}. */
static int brace_is_dict(pa_parser *p) {
  pa_tok open = pa_peek(p, 0), a = pa_peek(p, 1), b = pa_peek(p, 2);
  if (a.kind != TK_IDENT && a.kind != TK_STRING) return 0;
  if (b.kind == TK_EQ || b.kind == TK_COMMA) return 1;
  if (b.kind != TK_RBRACE) return 0;
  return !is_op_name(p, &a) || (b.line == open.line && !pa_tok_is(p, &a, "return"));
}

/* The trailing type list after ':': types, clause words (`nd2nz`, `shape i64, i64`) and
 * type clauses (`src_layout(i64, i64)`), separated by commas or blanks. Pushed with tag 1. */
static void parse_trailing_types(pa_parser *p) {
  static const unsigned char tag = 1;
  for (;;) {
    pa_tok t = pa_peek(p, 0);
    if (t.kind == TK_LBRACE || t.kind == TK_ARROW || at_stmt_start(p)) return;
    pa_item it;
    memset(&it, 0, sizeof it);
    it.loc = pa_tok_loc(&t);
    it.result_no = -1;
    if (pa_is_type_start(p, 0)) {
      it.kind = PA_IT_TYPE;
      if (!(it.type = pa_parse_type(p))) return;
    } else if (t.kind == TK_IDENT) {
      pa_next(p);
      it.kind = PA_IT_WORD;
      it.name = pa_tok_str(p, &t);
      if (adjacent(p, TK_LPAREN)) {
        pa_next(p);
        it.kind = PA_IT_CALL;
        size_t base = p->ptrs.n;
        if (!pa_accept(p, TK_RPAREN) &&
            !(parse_paren_types(p) && pa_expect(p, TK_RPAREN, "close the type clause with ')'")))
          return;
        it.types = pa_take(p, &p->ptrs, base, sizeof(pa_type *), &it.ntypes);
      }
    } else {
      pa_expected(p, "a type", NULL);
      return;
    }
    it.text.s = p->src + t.off;
    it.text.n = p->prev_end > t.off ? p->prev_end - t.off : 0;
    pa_push(p, &p->items, &it, sizeof it);
    pa_push(p, &p->tags, &tag, 1);
    pa_accept(p, TK_COMMA);
  }
}

/* Split the op-level items pushed since `base` into op->items (tag 0) and op->types (tag 1). */
static void split_items(pa_parser *p, pa_op *op, size_t base, size_t tbase) {
  uint32_t n = (uint32_t)(p->tags.n - tbase), n1 = 0;
  if (!n) return;
  for (uint32_t i = 0; i < n; i++) n1 += p->tags.p[tbase + i];
  pa_item *all = (pa_item *)(void *)(p->items.p + base);
  pa_item *a0 = n > n1 ? pa_alloc(p, (n - n1) * sizeof *a0) : NULL;
  pa_item *a1 = n1 ? pa_alloc(p, n1 * sizeof *a1) : NULL;
  if ((n > n1 && !a0) || (n1 && !a1)) n = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (p->tags.p[tbase + i])
      a1[op->ntypes++] = all[i];
    else
      a0[op->nitems++] = all[i];
  }
  op->items = a0;
  op->types = a1;
  p->items.n = base;
  p->tags.n = tbase;
}

static void parse_op_body(pa_parser *p, pa_op *op) {
  static const unsigned char tag0 = 0;
  size_t ibase = p->items.n, tbase = p->tags.n, rbase = p->ptrs.n, gbase = p->misc.n;
  int after_comma = 0, after_value = 0; /* the last item was an SSA value with no ',' after it */
  while (!p->panic) {
    pa_tok t = pa_peek(p, 0);
    if (after_comma && (t.kind == TK_EOF || t.kind == TK_RBRACE || t.kind == TK_COLON || t.kind == TK_ARROW ||
                        t.kind == TK_LBRACE || t.kind == TK_BLOCK || is_op_name(p, &t))) {
      pa_expected(p, "an operand after ','", "remove the trailing ','");
      break;
    }
    if (t.kind == TK_EOF || t.kind == TK_RBRACE || (!after_comma && at_stmt_start(p))) break;
    if (after_value && t.kind == TK_VALUE) {
      /* `%a %b`: MLIR separates operands by commas (words and clauses may follow blanks) */
      pa_expected(p, "',' between operands", "separate the operands with commas");
      break;
    }
    after_comma = 0;
    if (t.kind == TK_COLON) {
      pa_next(p);
      parse_trailing_types(p);
      continue;
    }
    if (t.kind == TK_ARROW) {
      pa_next(p);
      pa_parse_result_types(p, 1);
      continue;
    }
    if (t.kind == TK_IDENT && pa_tok_is(p, &t, "attributes") && pa_peek(p, 1).kind == TK_LBRACE) {
      pa_next(p);
      pa_item d;
      if (pa_parse_item(p, PA_CTX_OP, &d)) op->attrs = arena_item(p, &d);
      continue;
    }
    if (t.kind == TK_LBRACE && !brace_is_dict(p)) {
      pa_region r;
      if (parse_region(p, &r)) pa_push(p, &p->misc, &r, sizeof r);
      continue;
    }
    pa_item it;
    if (!pa_parse_item(p, PA_CTX_OP, &it)) break;
    pa_push(p, &p->items, &it, sizeof it);
    pa_push(p, &p->tags, &tag0, 1);
    after_comma = pa_accept(p, TK_COMMA);
    after_value = it.kind == PA_IT_VALUE && !after_comma;
  }
  split_items(p, op, ibase, tbase);
  op->rtypes = pa_take(p, &p->ptrs, rbase, sizeof(pa_type *), &op->nrtypes);
  op->regions = pa_take(p, &p->misc, gbase, sizeof(pa_region), &op->nregions);
}

/* func.func [visibility] @name(%a: T {attrs}, ...) [-> results] [attributes {...}] [{body}] */
static void decode_func(pa_parser *p, pa_op *op) {
  pa_func *f = pa_alloc(p, sizeof *f);
  if (!f) return;
  uint32_t i = 0;
  if (i < op->nitems && op->items[i].kind == PA_IT_WORD) f->visibility = op->items[i++].name;
  const pa_item *sym = i < op->nitems ? &op->items[i++] : NULL;
  const pa_item *args = i < op->nitems ? &op->items[i++] : NULL;
  pa_tok at = {0};
  at.kind = TK_IDENT;
  at.line = op->loc.line;
  at.col = op->loc.col;
  at.off = (uint32_t)(op->name.s - p->src);
  at.len = (uint32_t)op->name.n;
  if (!sym || sym->kind != PA_IT_SYMBOL || !args || args->kind != PA_IT_CALL || args->name.n || i != op->nitems) {
    pa_error(p, &at, "parse.bad_func", "write func.func [private] @name(%arg: type, ...) [-> types] {...}",
             "malformed func.func signature");
    return;
  }
  f->name = sym->name;
  op->sym = sym->name;
  f->nargs = args->nargs;
  f->args = args->nargs ? pa_alloc(p, args->nargs * sizeof *f->args) : NULL;
  if (args->nargs && !f->args) return;
  int named = args->ntypes == args->nargs; /* `%a: T` pairs; else a declaration's bare types */
  for (uint32_t k = 0; k < args->nargs; k++) {
    const pa_item *a = &args->args[k];
    pa_arg *d = &f->args[k];
    d->loc = a->loc;
    d->attrs = a->attrs;
    if (named && a->kind == PA_IT_VALUE && a->result_no < 0) {
      d->name = a->name;
      d->type = args->types[k];
    } else if (!args->ntypes && a->kind == PA_IT_TYPE) {
      d->type = a->type;
    } else if (!args->ntypes && a->kind == PA_IT_WORD) {
      d->type = pa_builtin_scalar(a->name);
    }
    if (!d->type) {
      at.line = a->loc.line;
      at.col = a->loc.col;
      at.off = (uint32_t)(a->text.s - p->src);
      pa_error(p, &at, "parse.bad_func", "give every argument a type: %name: type", "function argument without a type");
      return;
    }
  }
  f->results = op->rtypes;
  f->nresults = op->nrtypes;
  f->is_decl = op->nregions == 0;
  op->func = f;
}

/* One statement; the op is pushed onto p->misc. */
static void statement(pa_parser *p) {
  pa_op op;
  memset(&op, 0, sizeof op);
  pa_tok first = pa_peek(p, 0);
  op.start = pa_tok_loc(&first);
  if (first.kind == TK_VALUE) {
    size_t base = p->misc.n;
    do {
      pa_tok v = pa_peek(p, 0);
      if (v.kind != TK_VALUE || v.num >= 0) {
        pa_expected(p, "a result name such as %0 or %sum", NULL);
        p->misc.n = base;
        return;
      }
      pa_next(p);
      pa_result r = {{p->src + v.off + 1, v.len - 1}, pa_tok_loc(&v), 1};
      if (pa_accept(p, TK_COLON)) {
        pa_tok c = pa_peek(p, 0);
        if (c.kind != TK_INT || c.v.i < 1 || c.v.i > INT32_MAX) {
          pa_error(p, &c, "parse.expected_token", "write %name:N with N >= 1", "expected a result count");
          p->misc.n = base;
          return;
        }
        pa_next(p);
        r.count = (uint32_t)c.v.i;
      }
      pa_push(p, &p->misc, &r, sizeof r);
    } while (pa_accept(p, TK_COMMA));
    op.results = pa_take(p, &p->misc, base, sizeof(pa_result), &op.nresults);
    if (!pa_expect(p, TK_EQ, "results are followed by '=' and the op")) return;
  }
  pa_tok name = pa_peek(p, 0);
  if (is_generic_name(p, 0)) {
    op.generic = 1;
    name.off++; /* the name between the quotes */
    name.len -= 2;
  } else if (!is_op_name(p, &name)) {
    if (name.kind == TK_IDENT)
      pa_error(p, &name, "parse.expected_op", "ops are spelled dialect.name, e.g. pto.vadd or arith.addi",
               "unknown statement '%.*s'", (int)(name.len > 40 ? 40 : name.len), p->src + name.off);
    else
      pa_error(p, &name, "parse.expected_op", "a statement starts with %result =, an op name or '}'",
               "expected an operation but found %s", pa_tok_desc(name.kind));
    return;
  }
  pa_next(p);
  if (p->stop) return; /* the error limit: the parser consumes nothing more (every peek is EOF) */
  op.name = pa_tok_str(p, &name);
  op.loc = pa_tok_loc(&name);
  p->cur_op = op.name;
  parse_op_body(p, &op);
  op.text.s = p->src + first.off;
  op.text.n = p->prev_end - first.off; /* >= the name's length: pa_skip_to never goes back past a consumed token */
  if (pa_str_is(op.name, "func.func") && !p->panic) decode_func(p, &op);
  if (op.generic && !p->panic) pa_generic_to_custom(p, &op);
  if (pa_str_is(op.name, "module") && op.nitems && op.items[0].kind == PA_IT_SYMBOL) op.sym = op.items[0].name;
  pa_push(p, &p->misc, &op, sizeof op);
}

static void parse_statement(pa_parser *p) {
  pa_str outer = p->cur_op; /* the enclosing op, restored after this statement */
  p->cur_op.s = NULL;
  p->cur_op.n = 0;
  statement(p);
  p->cur_op = outer;
}

/* ---- regions and blocks ------------------------------------------------------------------- */

/* `^label[(%a: T, ...)]:` */
static int parse_block_header(pa_parser *p, pa_block *b) {
  pa_tok l = pa_next(p);
  b->label.s = p->src + l.off + 1;
  b->label.n = l.len - 1;
  b->loc = pa_tok_loc(&l);
  if (adjacent(p, TK_LPAREN)) {
    pa_item args;
    if (!pa_parse_item(p, PA_CTX_OP, &args)) return 0;
    if (args.ntypes != args.nargs) {
      pa_error(p, &l, "parse.expected_token", "write ^bb0(%x: i64, ...):", "block arguments need types");
      return 0;
    }
    b->args = args.nargs ? pa_alloc(p, args.nargs * sizeof *b->args) : NULL;
    for (uint32_t i = 0; b->args && i < args.nargs; i++) {
      b->args[i].name = args.args[i].name;
      b->args[i].loc = args.args[i].loc;
      b->args[i].type = args.types[i];
      b->args[i].attrs = args.args[i].attrs;
    }
    b->nargs = b->args ? args.nargs : 0;
  }
  return pa_expect(p, TK_COLON, "a block label ends with ':'");
}

/* Statements until '}' (consumed) or, at top level, the end of file; grouped into blocks at
 * ^labels. Blocks are pushed onto p->misc. */
static void parse_blocks(pa_parser *p, int top, const pa_tok *open) {
  pa_block cur;
  memset(&cur, 0, sizeof cur);
  cur.loc = open ? pa_tok_loc(open) : (pa_loc){1, 1};
  size_t obase = p->misc.n;
  for (;;) {
    pa_tok t = pa_peek(p, 0);
    if (t.kind == TK_EOF) {
      if (!top && !p->eof_reported) { /* for the innermost open region only */
        pa_error(p, &t, "parse.unterminated_region", "add the missing '}'",
                 "missing '}' for the region opened at %u:%u", (unsigned)open->line, (unsigned)open->col);
        p->eof_reported = 1;
      }
      break;
    }
    if (t.kind == TK_RBRACE) {
      if (!top) {
        pa_next(p);
        break;
      }
      pa_error(p, &t, "parse.unexpected_rbrace", "remove the extra '}'", "'}' without a matching '{'");
      pa_next(p);
      p->panic = 0;
      continue;
    }
    if (t.kind == TK_BLOCK) {
      cur.ops = pa_take(p, &p->misc, obase, sizeof(pa_op), &cur.nops);
      if (cur.nops || cur.label.n) pa_push(p, &p->misc, &cur, sizeof cur);
      memset(&cur, 0, sizeof cur);
      parse_block_header(p, &cur);
      obase = p->misc.n;
    } else {
      parse_statement(p);
    }
    if (p->panic) {
      synchronize(p);
      pa_tok now = pa_peek(p, 0);
      if (now.off == t.off && now.kind == t.kind && now.kind != TK_RBRACE && now.kind != TK_EOF) pa_next(p);
    }
  }
  cur.ops = pa_take(p, &p->misc, obase, sizeof(pa_op), &cur.nops);
  pa_push(p, &p->misc, &cur, sizeof cur);
}

static int parse_region(pa_parser *p, pa_region *r) {
  pa_tok open = pa_next(p);
  memset(r, 0, sizeof *r);
  r->loc = pa_tok_loc(&open);
  if (!pa_enter(p, &open)) return 0;
  size_t base = p->misc.n;
  parse_blocks(p, 0, &open);
  r->blocks = pa_take(p, &p->misc, base, sizeof(pa_block), &r->nblocks);
  pa_leave(p);
  return 1;
}

/* ---- driver ---------------------------------------------------------------------------------- */

static int diag_before(const pa_diag *a, const pa_diag *b) {
  return a->loc.line < b->loc.line || (a->loc.line == b->loc.line && a->loc.col < b->loc.col);
}

/* Diagnostics in source order (stable), copied into the arena. */
static void finish_diags(pa_parser *p, pa_ast *ast) {
  for (uint32_t i = 1; i < p->ndiags; i++) {
    pa_diag d = p->diags[i];
    uint32_t j = i;
    for (; j > 0 && diag_before(&d, &p->diags[j - 1]); j--) p->diags[j] = p->diags[j - 1];
    p->diags[j] = d;
  }
  ast->nerrors = p->nerrors;
  if (p->ndiags) {
    ast->diags = pa_arena_alloc(p->A, p->ndiags * sizeof *ast->diags);
    if (ast->diags) {
      memcpy(ast->diags, p->diags, p->ndiags * sizeof *ast->diags);
      ast->ndiags = p->ndiags;
    }
  }
}

/* The module: the file's only top-level op if that is a module, else an implicit module
 * around everything at top level. */
static void make_module(pa_parser *p, pa_ast *ast, pa_block *top) {
  if (top->nops == 1 && pa_str_is(top->ops[0].name, "module")) {
    ast->module = top->ops;
    return;
  }
  pa_op *m = pa_alloc(p, sizeof *m);
  pa_region *r = pa_alloc(p, sizeof *r);
  pa_block *b = pa_alloc(p, sizeof *b);
  if (!m || !r || !b) return;
  static const char kmodule[] = "module";
  m->name.s = kmodule;
  m->name.n = sizeof kmodule - 1;
  m->loc = m->start = top->loc;
  m->text.s = p->src;
  m->text.n = p->len;
  *b = *top;
  r->loc = top->loc;
  r->blocks = b;
  r->nblocks = 1;
  m->regions = r;
  m->nregions = 1;
  ast->module = m;
  ast->implicit_module = 1;
}

int pa_parse(const char *file, const char *text, size_t len, const pa_limits *lim, pa_ast **out) {
  *out = NULL;
  pa_arena *A = pa_arena_new();
  if (!A) return -1;
  pa_ast *ast = pa_arena_alloc(A, sizeof *ast);
  if (!ast) {
    pa_arena_free(A);
    return -1;
  }
  memset(ast, 0, sizeof *ast);
  ast->arena = A;
  *out = ast;

  pa_parser P;
  memset(&P, 0, sizeof P);
  pa_parser *p = &P;
  p->ast = ast;
  p->A = A;
  p->lim.max_bytes = lim && lim->max_bytes ? lim->max_bytes : PA_DEFAULT_MAX_BYTES;
  p->lim.max_depth = lim && lim->max_depth ? lim->max_depth : PA_DEFAULT_MAX_DEPTH;
  p->lim.max_errors = lim && lim->max_errors ? lim->max_errors : PA_DEFAULT_MAX_ERRORS;
  if (p->lim.max_bytes > (size_t)UINT32_MAX - 1) p->lim.max_bytes = (size_t)UINT32_MAX - 1;
  p->line = 1;

  const char *fname = file ? file : "<input>";
  size_t fn = strlen(fname);
  char *fcopy = pa_arena_alloc(A, fn + 1);
  int too_large = len > p->lim.max_bytes;
  char *tcopy = pa_arena_alloc(A, (too_large ? 0 : len) + 1);
  if (!fcopy || !tcopy) {
    pa_ast_free(ast);
    *out = NULL;
    return -1;
  }
  memcpy(fcopy, fname, fn + 1);
  if (!too_large && len) memcpy(tcopy, text, len);
  tcopy[too_large ? 0 : len] = 0;
  ast->file = fcopy;
  ast->text = tcopy;
  ast->len = too_large ? 0 : len;
  p->src = tcopy;
  p->len = (uint32_t)ast->len;

  pa_block top;
  memset(&top, 0, sizeof top);
  top.loc.line = top.loc.col = 1;
  if (too_large) {
    pa_tok at = {0};
    at.line = at.col = 1;
    pa_error(p, &at, "parse.too_large", "split the program into smaller files",
             "input of %zu bytes exceeds the limit of %zu bytes", len, p->lim.max_bytes);
  } else {
    if (p->len >= 3 && !memcmp(p->src, "\xEF\xBB\xBF", 3)) p->pos = 3; /* UTF-8 byte order mark */
    size_t base = p->misc.n;
    parse_blocks(p, 1, NULL);
    uint32_t n;
    pa_block *blocks = pa_take(p, &p->misc, base, sizeof(pa_block), &n);
    if (n) top = blocks[0];
  }
  make_module(p, ast, &top);
  finish_diags(p, ast);
  free(p->la);
  free(p->items.p);
  free(p->ptrs.p);
  free(p->misc.p);
  free(p->tags.p);
  free(p->diags);
  free(p->tc);
  return (int)ast->nerrors;
}

void pa_ast_free(pa_ast *ast) {
  if (ast) pa_arena_free(ast->arena);
}
