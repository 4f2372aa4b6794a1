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

void pt_bytes_free(pt_bytes *b) {
  free(b->p);
  free(b->data);
  memset(b, 0, sizeof *b);
}
