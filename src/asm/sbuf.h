/* Bounded string builder with snprintf semantics: appends while room remains, always
 * keeps the buffer NUL-terminated, and counts the full length that was asked for. */
#ifndef PA_SBUF_H
#define PA_SBUF_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct pa_sbuf {
  char *buf;  /* may be NULL when cap == 0 */
  size_t cap; /* bytes available including the NUL */
  size_t len; /* full length requested so far */
} pa_sbuf;

static inline pa_sbuf pa_sbuf_init(char *buf, size_t cap) {
  pa_sbuf b = {buf, cap, 0};
  if (cap) buf[0] = 0;
  return b;
}

static inline void pa_sbuf_putn(pa_sbuf *b, const char *s, size_t n) {
  if (b->len + 1 < b->cap) {
    size_t room = b->cap - 1 - b->len;
    size_t k = n < room ? n : room;
    memcpy(b->buf + b->len, s, k);
    b->buf[b->len + k] = 0;
  }
  b->len += n;
}

static inline void pa_sbuf_puts(pa_sbuf *b, const char *s) { pa_sbuf_putn(b, s, strlen(s)); }

static inline void pa_sbuf_putc(pa_sbuf *b, char c) { pa_sbuf_putn(b, &c, 1); }

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void pa_sbuf_printf(pa_sbuf *b, const char *fmt, ...) {
  size_t room = b->len < b->cap ? b->cap - b->len : 0;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) b->len += (size_t)n;
}

#endif
