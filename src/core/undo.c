#include "core/undo.h"

#include <stdlib.h>
#include <string.h>

#include "core/mem.h"

static int grow(void **buf, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap : 16;
  while (c < need) c *= 2;
  void *n = realloc(*buf, c * elem);
  if (!n) return -1;
  *buf = n;
  *cap = c;
  return 0;
}

/* Append one piece and the len bytes at src. */
static int append(pt_bytes *b, uint8_t *host, uint64_t len, const uint8_t *src) {
  if (b->oom || grow((void **)&b->p, &b->cap_p, b->np + 1, sizeof *b->p) ||
      grow((void **)&b->data, &b->cap_data, b->ndata + len, 1)) {
    b->oom = 1;
    return -1;
  }
  b->p[b->np++] = (pt_piece){host, len};
  memcpy(b->data + b->ndata, src, len);
  b->ndata += len;
  return 0;
}

typedef struct note_ctx {
  pt_undo *u;
  uint8_t *host;
} note_ctx;

static int note_piece(void *user, uint64_t off, uint64_t len) {
  note_ctx *n = user;
  return append(n->u, n->host + off, len, n->host + off);
}

/* A region whose pieces fill or overlap their bounding extent (pieces x len >= extent) is
 * saved as that one extent: the same bytes when dense, and one copy instead of one per
 * piece when pieces repeat (an overlapping destination with millions of pieces costs no
 * more than its extent; such an op is refused by its verifier anyway). Sparse regions are
 * saved piece by piece, so bytes between pieces never land. Count and stride values were
 * bounds-checked by the accessor (extent < 2^62). */
void pt_undo_note(pt_undo *u, uint8_t *host, int nd, const int64_t *count, const int64_t *stride, uint64_t len) {
  uint64_t extent = len, pieces = 1;
  for (int i = 0; i < nd; i++) {
    if (count[i] <= 0) return;
    extent += (uint64_t)(count[i] - 1) * (uint64_t)stride[i];
    pieces = pieces > UINT64_MAX / (uint64_t)count[i] ? UINT64_MAX : pieces * (uint64_t)count[i];
  }
  if (nd && (pieces >= UINT64_MAX / (len ? len : 1) || pieces * len >= extent)) {
    if (append(u, host, extent, host)) u->oom = 1;
    return;
  }
  note_ctx n = {u, host};
  if (pt_each_piece(0, nd, count, stride, len, note_piece, &n)) u->oom = 1;
}

void pt_undo_restore(pt_undo *u) {
  size_t off = u->ndata;
  for (size_t i = u->np; i-- > 0;) {
    off -= u->p[i].len;
    memcpy(u->p[i].host, u->data + off, u->p[i].len);
  }
  u->np = u->ndata = 0;
  u->oom = 0;
}

int pt_undo_take(pt_undo *u, pt_bytes *w) {
  int bad = u->oom;
  for (size_t i = 0; i < u->np && !bad; i++) bad = append(w, u->p[i].host, u->p[i].len, u->p[i].host) != 0;
  pt_undo_restore(u);
  return bad ? -1 : 0;
}

void pt_bytes_apply(const pt_bytes *w) {
  size_t off = 0;
  for (size_t i = 0; i < w->np; i++) {
    memcpy(w->p[i].host, w->data + off, w->p[i].len);
    off += w->p[i].len;
  }
}

int pt_undo_unchanged(const pt_undo *u, const uint8_t *host, uint64_t len) {
  if (u->oom || !len || len > PT_UNDO_CMP_MAX) return 0;
  uint8_t *seen = calloc(len, 1); /* 1: the byte's oldest saved value was compared */
  if (!seen) return 0;
  uint64_t covered = 0;
  size_t off = 0;
  int same = 1;
  for (size_t i = 0; i < u->np && same; off += u->p[i].len, i++) { /* oldest first */
    const pt_piece *p = &u->p[i];
    if (p->host >= host + len || p->host + p->len <= host) continue;
    uint64_t a = p->host > host ? (uint64_t)(p->host - host) : 0;
    uint64_t b = p->host + p->len < host + len ? (uint64_t)(p->host + p->len - host) : len;
    for (uint64_t j = a; j < b && same; j++) {
      if (seen[j]) continue;
      seen[j] = 1, covered++;
      same = u->data[off + (uint64_t)(host + j - p->host)] == host[j];
    }
  }
  free(seen);
  return same && covered == len;
}

void pt_bytes_clear(pt_bytes *b) {
  b->np = b->ndata = 0;
  b->oom = 0;
}

void pt_bytes_free(pt_bytes *b) {
  free(b->p);
  free(b->data);
  memset(b, 0, sizeof *b);
}
