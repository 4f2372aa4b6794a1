/* Diagnostic text: "file:line:col: severity: msg [rule]", the source line, a caret line and
 * "  hint: ..." (see diag_print.h). */
#include "asm/diag_print.h"

#include <stdlib.h>
#include <string.h>

#include "asm/sbuf.h"

const char *pa_source_line(const char *text, size_t len, uint32_t line, size_t *line_len) {
  const char *p = text, *end = text + len;
  for (uint32_t l = 1; l < line; l++) {
    const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
    if (!nl) return NULL;
    p = nl + 1;
  }
  if (line == 0) return NULL;
  const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
  size_t n = (size_t)((nl ? nl : end) - p);
  if (nl && n && p[n - 1] == '\r') n--; /* CRLF line end */
  *line_len = n;
  return p;
}

/* Long lines are shown as a window of about WINDOW bytes around the column. */
enum { WINDOW = 160, LEAD = 60 };

/* Source line and caret line: one blank per source column before `col` (tabs kept, UTF-8
 * continuation bytes skipped so a multi-byte character takes one column), then '^'. */
static void put_source(pa_sbuf *b, const char *src, size_t n, uint32_t col) {
  size_t c0 = col ? (size_t)col - 1 : 0; /* byte index of the column */
  size_t start = 0, stop = n;
  if (n > WINDOW) {
    start = c0 > LEAD ? c0 - LEAD : 0;
    while (start < n && start < c0 && ((unsigned char)src[start] & 0xC0) == 0x80) start++;
    stop = start + WINDOW < n ? start + WINDOW : n;
    while (stop < n && ((unsigned char)src[stop] & 0xC0) == 0x80) stop++;
  }
  const char *dots = start ? "..." : "";
  pa_sbuf_puts(b, "  ");
  pa_sbuf_puts(b, dots);
  pa_sbuf_putn(b, src + start, stop - start);
  pa_sbuf_puts(b, stop < n ? "...\n  " : "\n  ");
  pa_sbuf_puts(b, start ? "   " : "");
  for (size_t i = start; i < c0 && i < stop; i++) {
    unsigned char c = (unsigned char)src[i];
    if (c == '\t')
      pa_sbuf_putc(b, '\t');
    else if ((c & 0xC0) != 0x80)
      pa_sbuf_putc(b, ' ');
  }
  for (size_t i = stop; i < c0; i++) pa_sbuf_putc(b, ' '); /* column past the shown text */
  pa_sbuf_puts(b, "^\n");
}

size_t pa_diag_format(char *buf, size_t cap, const char *file, uint32_t line, uint32_t col,
                      const char *severity, const char *msg, const char *rule, const char *hint,
                      const char *src_line, size_t src_line_len) {
  pa_sbuf b = pa_sbuf_init(buf, cap);
  pa_sbuf_printf(&b, "%s:%u:%u: ", file ? file : "<input>", (unsigned)line, (unsigned)col);
  pa_sbuf_puts(&b, severity ? severity : "error");
  pa_sbuf_puts(&b, ": ");
  pa_sbuf_puts(&b, msg ? msg : "");
  if (rule && *rule) {
    pa_sbuf_puts(&b, " [");
    pa_sbuf_puts(&b, rule);
    pa_sbuf_putc(&b, ']');
  }
  pa_sbuf_putc(&b, '\n');
  if (src_line) put_source(&b, src_line, src_line_len, col);
  if (hint && *hint) {
    pa_sbuf_puts(&b, "  hint: ");
    pa_sbuf_puts(&b, hint);
    pa_sbuf_putc(&b, '\n');
  }
  return b.len;
}

void pa_diag_print(FILE *f, const char *file, uint32_t line, uint32_t col, const char *severity,
                   const char *msg, const char *rule, const char *hint, const char *src_line,
                   size_t src_line_len) {
  char small[1024];
  size_t n = pa_diag_format(small, sizeof small, file, line, col, severity, msg, rule, hint, src_line,
                            src_line_len);
  if (n < sizeof small) {
    fputs(small, f);
    return;
  }
  char *big = malloc(n + 1);
  if (!big) {
    fputs(small, f);
    return;
  }
  pa_diag_format(big, n + 1, file, line, col, severity, msg, rule, hint, src_line, src_line_len);
  fputs(big, f);
  free(big);
}
