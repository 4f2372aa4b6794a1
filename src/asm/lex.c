/* Lexer, arena, scratch stacks and diagnostics of the front end.
 *
 * Tokens follow the MLIR lexical rules PTO programs use: %values (with #n result numbers),
 * @symbols, ^blocks, #attributes, !types, bare identifiers (letters, digits, '_', '$', '.'),
 * decimal/hex integers, floats with a '.' (optional exponent), "strings", '//' comments.
 * Dimension lists such as 32x32xf32 are not split here: the type parser re-scans them
 * character by character (type.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/parser.h"

/* ---- arena ----------------------------------------------------------------------------- */

typedef struct pa_chunk {
  struct pa_chunk *next;
  size_t cap, used;
  _Alignas(16) unsigned char data[];
} pa_chunk;

struct pa_arena {
  pa_chunk *head;
  size_t next_cap; /* size of the next chunk: doubles from 64 KiB up to 8 MiB */
};

pa_arena *pa_arena_new(void) {
  pa_arena *a = calloc(1, sizeof *a);
  if (a) a->next_cap = (size_t)64 << 10;
  return a;
}

void *pa_arena_alloc(pa_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  pa_chunk *c = a->head;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > a->next_cap ? n : a->next_cap;
    c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->cap = cap;
    c->used = 0;
    if (a->head && n > a->next_cap) { /* oversized: keep the current chunk as the bump chunk */
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = a->head;
      a->head = c;
      if (a->next_cap < ((size_t)8 << 20)) a->next_cap *= 2;
    }
  }
  void *r = c->data + c->used;
  c->used += n;
  return r;
}

void pa_arena_free(pa_arena *a) {
  if (!a) return;
  for (pa_chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

/* Out of memory: record it once and stop. Returns NULL for convenient use. */
static void *out_of_memory(pa_parser *p) {
  if (!p->oom) {
    p->oom = 1;
    p->nerrors++;
    if (p->ndiags < p->dcap) { /* room was reserved when the vector grew */
      pa_diag *d = &p->diags[p->ndiags++];
      memset(d, 0, sizeof *d);
      d->loc.line = p->line;
      d->loc.col = 1;
      d->line_off = p->line_off;
      d->rule = "parse.out_of_memory";
      d->msg = "out of memory while parsing";
      d->hint = "";
    }
  }
  p->stop = 1;
  return NULL;
}

void *pa_alloc(pa_parser *p, size_t n) {
  void *r = pa_arena_alloc(p->A, n);
  if (!r) return out_of_memory(p);
  memset(r, 0, n);
  return r;
}

void pa_push(pa_parser *p, pa_stack *s, const void *elem, size_t size) {
  if (s->cap - s->n < size) {
    size_t cap = s->cap ? s->cap * 2 : 4096;
    while (cap - s->n < size) cap *= 2;
    unsigned char *np = realloc(s->p, cap);
    if (!np) {
      out_of_memory(p);
      return;
    }
    s->p = np;
    s->cap = cap;
  }
  memcpy(s->p + s->n, elem, size);
  s->n += size;
}

void *pa_take(pa_parser *p, pa_stack *s, size_t base, size_t size, uint32_t *count) {
  size_t bytes = s->n > base ? s->n - base : 0;
  *count = 0;
  s->n = base < s->n ? base : s->n;
  if (!bytes) return NULL;
  void *r = pa_arena_alloc(p->A, bytes);
  if (!r) return out_of_memory(p);
  memcpy(r, s->p + base, bytes);
  *count = (uint32_t)(bytes / size);
  return r;
}

int pa_enter(pa_parser *p, const pa_tok *at) {
  if (p->depth >= p->lim.max_depth) {
    pa_error(p, at, "parse.too_deep", "split the construct or flatten the nesting",
             "nesting deeper than %u levels", (unsigned)p->lim.max_depth);
    return 0;
  }
  p->depth++;
  return 1;
}

/* ---- diagnostics ------------------------------------------------------------------------ */

static void add_diag(pa_parser *p, pa_loc loc, uint32_t line_off, const char *rule, const char *hint,
                     const char *msg) {
  if (p->stop) return;
  if (p->ndiags + 2 > p->dcap) { /* keep one slot spare for a final out-of-memory note */
    uint32_t cap = p->dcap ? p->dcap * 2 : 16;
    pa_diag *nd = realloc(p->diags, cap * sizeof *nd);
    if (!nd) {
      out_of_memory(p);
      return;
    }
    p->diags = nd;
    p->dcap = cap;
  }
  size_t n = strlen(msg);
  char *m = pa_arena_alloc(p->A, n + 1);
  if (!m) {
    out_of_memory(p);
    return;
  }
  memcpy(m, msg, n + 1);
  pa_diag *d = &p->diags[p->ndiags++];
  d->loc = loc;
  d->line_off = line_off;
  d->rule = rule;
  d->msg = m;
  d->hint = hint ? hint : "";
  d->op = p->cur_op;
  p->nerrors++;
  if (p->ndiags >= p->lim.max_errors) {
    d = &p->diags[p->ndiags++];
    d->loc = loc;
    d->line_off = line_off;
    d->rule = "parse.too_many_errors";
    d->msg = "too many errors; parsing stopped";
    d->hint = "fix the errors above first";
    d->op.n = 0;
    p->nerrors++;
    p->stop = 1;
  }
}

/* Report at a byte offset, always. */
static void error_at(pa_parser *p, uint32_t off, uint32_t line, uint32_t line_off, const char *rule,
                     const char *hint, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  pa_loc loc = {line, off - line_off + 1};
  add_diag(p, loc, line_off, rule, hint, msg);
}

void pa_error(pa_parser *p, const pa_tok *t, const char *rule, const char *hint, const char *fmt, ...) {
  if (p->panic || t->kind == TK_ERROR) { /* cascade, or a lexer error already reported */
    p->panic = 1;
    return;
  }
  p->panic = 1;
  va_list ap;
  va_start(ap, fmt);
  error_at(p, t->off, t->line, t->off - (t->col - 1), rule, hint, fmt, ap);
  va_end(ap);
}

/* Lexer errors are reported once per offset even when the text is lexed again after a seek. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void lex_error(pa_parser *p, uint32_t off, const char *rule, const char *hint, const char *fmt, ...) {
  if (off < p->lex_err_end) return;
  p->lex_err_end = off + 1;
  va_list ap;
  va_start(ap, fmt);
  error_at(p, off, p->line, p->line_off, rule, hint, fmt, ap);
  va_end(ap);
}

const char *pa_tok_desc(pa_tok_kind k) {
  static const char *const names[] = {
      [TK_EOF] = "end of file", [TK_ERROR] = "invalid text", [TK_VALUE] = "a %value",
      [TK_SYMBOL] = "an @symbol", [TK_BLOCK] = "a ^block label", [TK_HASH] = "a #attribute",
      [TK_BANG] = "a !type", [TK_IDENT] = "an identifier", [TK_INT] = "an integer",
      [TK_FLOAT] = "a float", [TK_STRING] = "a string", [TK_LPAREN] = "'('", [TK_RPAREN] = "')'",
      [TK_LBRACK] = "'['", [TK_RBRACK] = "']'", [TK_LBRACE] = "'{'", [TK_RBRACE] = "'}'",
      [TK_LT] = "'<'", [TK_GT] = "'>'", [TK_COMMA] = "','", [TK_COLON] = "':'", [TK_EQ] = "'='",
      [TK_ARROW] = "'->'", [TK_QUESTION] = "'?'", [TK_STAR] = "'*'", [TK_PLUS] = "'+'"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "token";
}

void pa_expected(pa_parser *p, const char *what, const char *hint) {
  pa_tok t = pa_peek(p, 0);
  if (t.kind == TK_EOF)
    pa_error(p, &t, "parse.expected_token", hint, "expected %s but reached the end of file", what);
  else
    pa_error(p, &t, "parse.expected_token", hint, "expected %s but found '%.*s'", what,
             (int)(t.len > 40 ? 40 : t.len), p->src + t.off);
}

int pa_expect(pa_parser *p, pa_tok_kind k, const char *hint) {
  if (pa_accept(p, k)) return 1;
  pa_expected(p, pa_tok_desc(k), hint);
  return 0;
}

/* ---- character classes ------------------------------------------------------------------ */

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static int is_id_start(int c) { return is_alpha(c) || c == '_'; }
static int is_id_char(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$' || c == '.'; }
static int is_suffix_char(int c) { return is_id_char(c) || c == '-'; }

/* ---- scanning --------------------------------------------------------------------------- */

static void skip_space(pa_parser *p) {
  const char *s = p->src;
  uint32_t i = p->pos, n = p->len;
  while (i < n) {
    char c = s[i];
    if (c == '\n') {
      p->line++;
      p->line_off = ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      i++;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      const char *nl = memchr(s + i, '\n', n - i);
      i = nl ? (uint32_t)(nl - s) : n;
    } else {
      break;
    }
  }
  p->pos = i;
}

static uint32_t scan_while(const pa_parser *p, uint32_t i, int (*cls)(int)) {
  while (i < p->len && cls((unsigned char)p->src[i])) i++;
  return i;
}

/* Integer or float starting at src[i] ('-' allowed when a digit follows). */
static pa_tok_kind lex_number(pa_parser *p, pa_tok *t) {
  const char *s = p->src;
  uint32_t i = t->off, n = p->len;
  int neg = s[i] == '-';
  if (neg) i++;
  if (i + 2 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') && is_hex((unsigned char)s[i + 2])) {
    uint32_t j = scan_while(p, i + 2, is_hex);
    uint64_t u = 0;
    int over = 0;
    for (uint32_t k = i + 2; k < j; k++) {
      int c = (unsigned char)s[k];
      uint64_t d = (uint64_t)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
      if (u >> 60) over = 1;
      u = u << 4 | d;
    }
    t->len = j - t->off;
    if (over) lex_error(p, t->off, "parse.bad_number", "use at most 16 hex digits", "hex literal exceeds 64 bits");
    t->v.u = neg ? 0 - u : u;
    return TK_INT;
  }
  uint32_t j = scan_while(p, i, is_digit);
  if (j < n && s[j] == '.') { /* float: digits '.' digits* ([eE][+-]?digits)? */
    j = scan_while(p, j + 1, is_digit);
    if (j < n && (s[j] == 'e' || s[j] == 'E')) {
      uint32_t k = j + 1;
      if (k < n && (s[k] == '+' || s[k] == '-')) k++;
      if (k < n && is_digit((unsigned char)s[k])) j = scan_while(p, k, is_digit);
    }
    t->len = j - t->off;
    char buf[128];
    if (t->len >= sizeof buf) {
      lex_error(p, t->off, "parse.bad_number", "write the float with fewer digits",
                "float literal longer than %u characters", (unsigned)sizeof buf - 1);
      t->v.f = 0;
      return TK_FLOAT;
    }
    memcpy(buf, s + t->off, t->len);
    buf[t->len] = 0;
    t->v.f = strtod(buf, NULL); /* correctly rounded (glibc); out-of-range gives +-inf */
    return TK_FLOAT;
  }
  uint64_t u = 0;
  int over = 0;
  for (uint32_t k = i; k < j; k++) {
    uint64_t d = (uint64_t)(s[k] - '0');
    if (u > (UINT64_MAX - d) / 10) over = 1;
    u = u * 10 + d;
  }
  t->len = j - t->off;
  if (over || (neg && u > (uint64_t)1 << 63))
    lex_error(p, t->off, "parse.bad_number", "integer literals must fit in 64 bits",
              "integer literal '%.*s' out of range", (int)(t->len > 40 ? 40 : t->len), s + t->off);
  t->v.u = neg ? 0 - u : u;
  return TK_INT;
}

/* String body after the opening quote; ends at the closing quote. Reports a missing quote
 * (the token then runs to the end of the line) and unknown escapes. */
static void lex_string(pa_parser *p, pa_tok *t, uint32_t i) {
  const char *s = p->src;
  uint32_t n = p->len;
  while (i < n && s[i] != '"' && s[i] != '\n') {
    if (s[i] == '\\') {
      char c = i + 1 < n ? s[i + 1] : 0;
      if (c == '\\' || c == '"' || c == 'n' || c == 't') {
        i += 2;
        continue;
      }
      if (i + 2 < n && is_hex((unsigned char)c) && is_hex((unsigned char)s[i + 2])) {
        i += 3;
        continue;
      }
      lex_error(p, i, "parse.bad_string", "escapes are \\\\ \\\" \\n \\t and \\XX (two hex digits)",
                "unknown escape sequence in string");
      i++;
      continue;
    }
    i++;
  }
  if (i < n && s[i] == '"') {
    t->len = i + 1 - t->off;
    return;
  }
  if (i > 0 && s[i - 1] == '\r') i--;
  lex_error(p, t->off, "parse.unterminated_string", "close the string with '\"' on the same line",
            "string literal is not terminated");
  t->len = i - t->off;
}

/* MLIR source locations (`loc("name")`, `loc(fused[...])`, `loc(#alias)`) carry debug names
 * only: when src[i] starts one, return the offset just past its closing ')', else i. Strings
 * are skipped as the lexer skips them; an unclosed location is left to the parser. */
static uint32_t skip_location(const pa_parser *p, uint32_t i) {
  const char *s = p->src;
  uint32_t n = p->len;
  if (n - i < 4 || memcmp(s + i, "loc(", 4) || (i > 0 && (is_id_char((unsigned char)s[i - 1]) || strchr("@%#^!", s[i - 1]))))
    return i; /* part of a name: @loc(...) is a call of a function named loc */
  uint32_t depth = 0;
  for (uint32_t j = i + 3; j < n; j++) {
    if (s[j] == '(') {
      depth++;
    } else if (s[j] == ')') {
      if (--depth == 0) return j + 1;
    } else if (s[j] == '"') { /* a string ends on its line, or the location is not one */
      for (j++; j < n && s[j] != '"'; j++)
        if (s[j] == '\n' || (s[j] == '\\' && (j + 1 >= n || s[++j] == '\n'))) return i;
      if (j >= n) return i;
    } else if (s[j] == '\n') {
      return i; /* locations printed by MLIR stay on one line */
    }
  }
  return i;
}

static void lex_one(pa_parser *p, pa_tok *t) {
  skip_space(p);
  for (uint32_t e; (e = skip_location(p, p->pos)) != p->pos;) {
    p->pos = e;
    skip_space(p);
  }
  const char *s = p->src;
  uint32_t i = p->pos, n = p->len;
  memset(t, 0, sizeof *t);
  t->off = i;
  t->line = p->line;
  t->col = i - p->line_off + 1;
  t->bol = p->line != p->last_tok_line;
  t->num = -1;
  t->len = 1;
  p->last_tok_line = p->line;
  if (i >= n) {
    t->kind = TK_EOF;
    t->len = 0;
    return;
  }
  unsigned char c = (unsigned char)s[i];
  unsigned char c1 = i + 1 < n ? (unsigned char)s[i + 1] : 0;
  switch (c) {
  case '(': t->kind = TK_LPAREN; break;
  case ')': t->kind = TK_RPAREN; break;
  case '[': t->kind = TK_LBRACK; break;
  case ']': t->kind = TK_RBRACK; break;
  case '{': t->kind = TK_LBRACE; break;
  case '}': t->kind = TK_RBRACE; break;
  case '<': t->kind = TK_LT; break;
  case '>': t->kind = TK_GT; break;
  case ',': t->kind = TK_COMMA; break;
  case ':': t->kind = TK_COLON; break;
  case '=': t->kind = TK_EQ; break;
  case '?': t->kind = TK_QUESTION; break;
  case '*': t->kind = TK_STAR; break;
  case '+': t->kind = TK_PLUS; break;
  case '"':
    t->kind = TK_STRING;
    lex_string(p, t, i + 1);
    break;
  case '%': case '^': {
    uint32_t j = scan_while(p, i + 1, is_suffix_char);
    t->kind = c == '%' ? TK_VALUE : TK_BLOCK;
    if (j == i + 1) {
      lex_error(p, i, "parse.bad_char", c == '%' ? "value names look like %x, %arg0 or %0" : "block labels look like ^bb0",
                "expected a name after '%c'", c);
      t->kind = TK_ERROR;
      break;
    }
    if (c == '%' && j + 1 < n && s[j] == '#' && is_digit((unsigned char)s[j + 1])) { /* %r#k */
      uint32_t k = scan_while(p, j + 1, is_digit);
      uint64_t num = 0;
      for (uint32_t q = j + 1; q < k && num <= INT32_MAX; q++) num = num * 10 + (uint64_t)(s[q] - '0');
      if (num > INT32_MAX) lex_error(p, j, "parse.bad_number", NULL, "result number too large");
      t->num = num > INT32_MAX ? INT32_MAX : (int32_t)num;
      j = k;
    }
    t->len = j - i;
    break;
  }
  case '@':
    t->kind = TK_SYMBOL;
    if (c1 == '"') {
      lex_string(p, t, i + 2);
    } else {
      uint32_t j = scan_while(p, i + 1, is_suffix_char);
      if (j == i + 1) {
        lex_error(p, i, "parse.bad_char", "symbols look like @name", "expected a name after '@'");
        t->kind = TK_ERROR;
      }
      t->len = j - i;
    }
    break;
  case '#': case '!': {
    uint32_t j = is_id_start(c1) ? scan_while(p, i + 1, is_id_char) : i + 1;
    t->kind = c == '#' ? TK_HASH : TK_BANG;
    if (j == i + 1) {
      lex_error(p, i, "parse.bad_char", c == '#' ? "attributes look like #pto.pipe<PIPE_ALL>" : "dialect types look like !pto.ptr<f32, gm>",
                "expected a name after '%c'", c);
      t->kind = TK_ERROR;
    }
    t->len = j - i;
    break;
  }
  case '-':
    if (c1 == '>') {
      t->kind = TK_ARROW;
      t->len = 2;
    } else if (is_digit(c1)) {
      t->kind = lex_number(p, t);
    } else {
      lex_error(p, i, "parse.bad_char", "'-' only starts a negative number or '->'", "unexpected '-'");
      t->kind = TK_ERROR;
    }
    break;
  default:
    if (is_digit(c)) {
      t->kind = lex_number(p, t);
    } else if (is_id_start(c)) {
      t->kind = TK_IDENT;
      t->len = scan_while(p, i, is_id_char) - i;
    } else {
      uint32_t j = i + 1;
      if (c >= 0xC0)
        while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80 && j - i < 4) j++;
      if (c >= 0x20 && c < 0x7F)
        lex_error(p, i, "parse.bad_char", "remove the character", "unexpected character '%c'", c);
      else
        lex_error(p, i, "parse.bad_char", "remove the character (the file must be plain text)",
                  "unexpected byte 0x%02X", c);
      t->kind = TK_ERROR;
      t->len = j - i;
    }
  }
  p->pos = i + t->len;
}

/* ---- lookahead -------------------------------------------------------------------------- */

pa_tok pa_peek(pa_parser *p, uint32_t k) {
  if (p->stop) {
    p->eof.kind = TK_EOF;
    p->eof.off = p->pos;
    p->eof.len = 0;
    p->eof.line = p->line;
    p->eof.col = p->pos - p->line_off + 1;
    return p->eof;
  }
  while (p->la_n - p->la_head <= k) {
    if (p->la_n == p->la_cap) {
      if (p->la_head) { /* slide the unconsumed tokens down */
        memmove(p->la, p->la + p->la_head, (p->la_n - p->la_head) * sizeof *p->la);
        p->la_n -= p->la_head;
        p->la_head = 0;
      } else {
        uint32_t cap = p->la_cap ? p->la_cap * 2 : 64;
        pa_tok *nl = realloc(p->la, cap * sizeof *nl);
        if (!nl) {
          out_of_memory(p);
          return pa_peek(p, 0);
        }
        p->la = nl;
        p->la_cap = cap;
      }
    }
    lex_one(p, &p->la[p->la_n++]);
    if (p->stop) return pa_peek(p, 0);
  }
  return p->la[p->la_head + k];
}

pa_tok pa_next(pa_parser *p) {
  pa_tok t = pa_peek(p, 0);
  if (t.kind != TK_EOF) {
    p->la_head++;
    if (p->la_head == p->la_n) p->la_head = p->la_n = 0;
    p->prev_end = t.off + t.len;
  }
  return t;
}

int pa_accept(pa_parser *p, pa_tok_kind k) {
  if (pa_peek(p, 0).kind != k) return 0;
  pa_next(p);
  return 1;
}

void pa_seek(pa_parser *p, uint32_t off, uint32_t line, uint32_t line_off, int mid_line) {
  p->la_head = p->la_n = 0;
  p->pos = off;
  p->line = line;
  p->line_off = line_off;
  p->last_tok_line = mid_line ? line : 0;
}

void pa_seek_tok(pa_parser *p, const pa_tok *t) {
  pa_tok c = *t; /* t may point into the lookahead that the seek drops */
  pa_seek(p, c.off, c.line, c.off - (c.col - 1), !c.bol);
}

void pa_skip_to(pa_parser *p, uint32_t off) {
  if (p->la_n > p->la_head) { /* back to the first unconsumed token; nothing new is lexed */
    pa_tok t = p->la[p->la_head];
    pa_seek_tok(p, &t);
  }
  if (off > p->len) off = p->len;
  for (uint32_t i = p->pos; i < off; i++) /* forward: count the lines passed */
    if (p->src[i] == '\n') {
      p->line++;
      p->line_off = i + 1;
    }
  if (off < p->pos) { /* backward (the next token lay past off): recount */
    for (uint32_t i = off; i < p->pos; i++) p->line -= p->src[i] == '\n';
    uint32_t ls = off;
    while (ls > 0 && p->src[ls - 1] != '\n') ls--;
    p->line_off = ls;
  }
  p->pos = off;
  p->last_tok_line = p->line;
  p->prev_end = off; /* the skipped text counts as consumed */
}

/* Longest raw '<...>' body scanned; a real type or attribute is far shorter. */
enum { PA_MAX_ANGLE = 1 << 16 };

uint32_t pa_match_angle(const pa_parser *p, uint32_t lt) {
  const char *s = p->src;
  uint32_t end = p->len - lt > PA_MAX_ANGLE ? lt + PA_MAX_ANGLE : p->len;
  int depth = 0;
  for (uint32_t i = lt; i < end; i++) {
    char c = s[i];
    if (c == '<') {
      depth++;
    } else if (c == '>' && !(i > lt && s[i - 1] == '-')) {
      if (--depth == 0) return i + 1;
    } else if (c == '"') {
      for (i++; i < end && s[i] != '"' && s[i] != '\n'; i++)
        if (s[i] == '\\') i++;
    } else if (c == '/' && i + 1 < end && s[i + 1] == '/') { /* comment, as the lexer skips it */
      while (i + 1 < end && s[i + 1] != '\n') i++;
    } else if (c == '{' || c == '}') {
      return 0; /* a region brace: the '<' was never closed */
    }
  }
  return 0;
}

int pa_tok_is(const pa_parser *p, const pa_tok *t, const char *lit) {
  size_t n = strlen(lit);
  return t->len == n && !memcmp(p->src + t->off, lit, n);
}

pa_str pa_tok_str(const pa_parser *p, const pa_tok *t) {
  pa_str s = {p->src + t->off, t->len};
  return s;
}

pa_loc pa_tok_loc(const pa_tok *t) {
  pa_loc l = {t->line, t->col};
  return l;
}
