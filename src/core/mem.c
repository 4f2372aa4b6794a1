#include "core/mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/undo.h"

/* Verify-only runs: the GM bytes of an access are scratch (see ptosim_machine.gm_sink). */
static ptosim_status gm_sink(ptosim_machine *m, uint64_t len, uint8_t **out) {
  if (len > PT_SINK_MAX) return PT_E_STOP;
  if (len > m->gm_sink_size) {
    uint8_t *s = realloc(m->gm_sink, len);
    if (!s) return PT_E_STOP;
    memset(s + m->gm_sink_size, 0, len - m->gm_sink_size); /* deterministic scratch reads */
    m->gm_sink = s;
    m->gm_sink_size = len;
  }
  *out = m->gm_sink;
  return PTOSIM_OK;
}

/* The buffer holding GM address addr, or else the last one below it; -1 if none is. */
static int gm_find(const ptosim_machine *m, uint64_t addr) {
  int lo = 0, hi = m->ngm - 1, found = -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (m->gm[mid].base <= addr) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/* " (buffer NAME)" for messages about b, or "" when it has no name. */
static const char *gm_label(const pt_gm_buf *b, char *buf, size_t n) {
  if (!b || !b->name) return "";
  snprintf(buf, n, " (%s)", b->name);
  return buf;
}

static ptosim_status gm_span(pt_ctx *x, uint64_t addr, uint64_t len, pt_access acc, uint8_t **out) {
  ptosim_machine *m = x->m;
  if (m->verify_only) return gm_sink(m, len, out);
  int found = gm_find(m, addr);
  pt_gm_buf *b = found < 0 ? NULL : &m->gm[found];
  char label[160];
  if (!b || addr - b->base >= b->size) {
    if (!b)
      return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "check the GM pointer arithmetic (addptr offsets are in elements)",
                     "gm access [0x%" PRIx64 ", 0x%" PRIx64 ") is outside every mapped buffer (below the first)", addr,
                     addr + len);
    return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "check the GM pointer arithmetic (addptr offsets are in elements)",
                   "gm access [0x%" PRIx64 ", 0x%" PRIx64 ") is outside every mapped buffer: it starts %" PRIu64
                   " bytes past the end of buffer [0x%" PRIx64 ", 0x%" PRIx64 ")%s",
                   addr, addr + len, addr - b->base - b->size, b->base, b->base + b->size, gm_label(b, label, sizeof label));
  }
  uint64_t off = addr - b->base;
  if (len > b->size - off)
    return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "the transfer runs past the end of the buffer: check lengths and strides",
                   "gm access [0x%" PRIx64 ", 0x%" PRIx64 ") runs past the end of buffer [0x%" PRIx64 ", 0x%" PRIx64
                   ")%s by %" PRIu64 " bytes",
                   addr, addr + len, b->base, b->base + b->size, gm_label(b, label, sizeof label), len - (b->size - off));
  if (acc & PT_WRITE) b->written = 1;
  *out = b->host + off;
  return PTOSIM_OK;
}

uint8_t *pt_gm_host(const ptosim_machine *m, uint64_t addr, uint64_t len) {
  int i = m->verify_only ? -1 : gm_find(m, addr);
  if (i < 0 || addr - m->gm[i].base > m->gm[i].size || len > m->gm[i].size - (addr - m->gm[i].base)) return NULL;
  return m->gm[i].host + (addr - m->gm[i].base);
}

int pt_gm_index(const ptosim_machine *m, uint64_t base) {
  int i = gm_find(m, base);
  return i >= 0 && m->gm[i].base == base ? i : -1;
}

/* The core whose memory `space` is, as reached from core c: UB belongs to a vector core
 * (the cube core reaches sub-block 0's), every other local space to the cube core. */
static const ptosim_core *storage_owner(const ptosim_core *c, ptosim_space space) {
  const ptosim_core *base = c->m->cores + (size_t)c->block * 3;
  if (space == PTOSIM_UB) return c->kind == PTOSIM_AIC ? base + 1 : c;
  return base;
}

/* Append the accessed bytes to the op's event (only when someone listens). */
static void record(pt_ctx *x, const ptosim_core *c, ptosim_space space, uint64_t addr, int nd, const int64_t *count,
                   const int64_t *stride, uint64_t len, pt_access acc) {
  pt_event *ev = x->ev;
  if (!ev || len == 0) return;
  if (ev->nranges == PT_EVENT_MAX_RANGES || nd > PT_RANGE_MAX_DIMS) {
    ev->overflow = 1;
    return;
  }
  pt_range *r = &ev->ranges[ev->nranges++];
  r->space = space;
  r->owner = space == PTOSIM_GM ? NULL : storage_owner(c, space);
  r->access = (uint8_t)acc;
  r->nd = (uint8_t)nd;
  r->addr = addr;
  r->len = len;
  for (int i = 0; i < nd; i++) {
    r->count[i] = count[i];
    r->stride[i] = stride[i];
  }
}

static ptosim_status span_check(pt_ctx *x, ptosim_core *c, ptosim_space space, uint64_t addr, uint64_t len,
                                unsigned align, pt_access acc, uint8_t **out) {
  if (align > 1 && addr % align != 0)
    return pt_fail(x, PTOSIM_E_FAULT, "mem.align", "align the address (tile addresses are 32-byte aligned)",
                   "%s address 0x%" PRIx64 " is not %u-byte aligned", pt_space_name(space), addr, align);
  if (space == PTOSIM_GM) {
    if (len == 0) {
      *out = NULL;
      return PTOSIM_OK;
    }
    return gm_span(x, addr, len, acc, out);
  }
  if ((unsigned)space >= PTOSIM_SPACE_COUNT || !c->mem[space])
    return pt_fail(x, PTOSIM_E_FAULT, "mem.space", "use a space that exists on this core and target",
                   "space %s does not exist on %s core of target %s", pt_space_name(space),
                   c->kind == PTOSIM_AIC ? "the cube" : "a vector", x->m->prof->name);
  uint64_t cap = x->m->prof->capacity[space];
  if (!len && addr > cap) /* an empty access: no range to show */
    return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "keep the access inside the space's capacity",
                   "empty %s access at 0x%" PRIx64 " starts past the end of the %" PRIu64 "-byte capacity of target %s",
                   pt_space_name(space), addr, cap, x->m->prof->name);
  if (addr > cap || len > cap - addr)
    return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "keep the access inside the space's capacity",
                   "%s access [0x%" PRIx64 ", 0x%" PRIx64 ") exceeds the %" PRIu64 "-byte capacity of target %s",
                   pt_space_name(space), addr, addr + len, cap, x->m->prof->name);
  *out = c->mem[space] + addr;
  return PTOSIM_OK;
}

/* Save the bytes a write access exposes (the strided region at host, see pt_region) in the
 * eager schedule's undo log and, for GM, in the race checker's log of old GM bytes. */
static void note_write(const pt_ctx *x, ptosim_space space, uint8_t *host, int nd, const int64_t *count,
                       const int64_t *stride, uint64_t len) {
  if (x->m->undo) pt_undo_note(x->m->undo, host, nd, count, stride, len);
  if (x->m->gm_old && space == PTOSIM_GM) pt_undo_note(x->m->gm_old, host, nd, count, stride, len);
}

ptosim_status pt_span_on(pt_ctx *x, ptosim_core *c, ptosim_space space, uint64_t addr, uint64_t len,
                         unsigned align, pt_access acc, uint8_t **out) {
  PT_TRY(span_check(x, c, space, addr, len, align, acc, out));
  if (acc & PT_READ) x->m->state_read = 1;
  if ((acc & PT_WRITE) && len) note_write(x, space, *out, 0, NULL, NULL, len);
  record(x, c, space, addr, 0, NULL, NULL, len, acc);
  return PTOSIM_OK;
}

ptosim_status pt_span(pt_ctx *x, ptosim_space space, uint64_t addr, uint64_t len, unsigned align,
                      pt_access acc, uint8_t **out) {
  return pt_span_on(x, x->core, space, addr, len, align, acc, out);
}

void pt_region_note(pt_ctx *x, const ptosim_core *c, ptosim_space space, uint64_t addr, int nd, const int64_t *count,
                    const int64_t *stride, uint64_t len, pt_access acc, uint8_t *host) {
  if (acc & PT_READ) x->m->state_read = 1;
  if (acc & PT_WRITE) note_write(x, space, host, nd, count, stride, len);
  record(x, c, space, addr, nd, count, stride, len, acc);
}

ptosim_status pt_region_on(pt_ctx *x, ptosim_core *c, ptosim_space space, uint64_t addr, int nd,
                           const int64_t *count, const int64_t *stride, uint64_t len, unsigned align,
                           pt_access acc, uint8_t **out) {
  uint64_t extent = len; /* bytes from addr to the end of the last piece */
  int empty = len == 0;
  for (int i = 0; i < nd; i++) {
    if (count[i] < 0 || stride[i] < 0)
      return pt_fail(x, PTOSIM_E_VERIFY, "op.range", "counts and strides are non-negative",
                     "negative count or stride (%" PRId64 ", %" PRId64 ")", count[i], stride[i]);
    if (count[i] == 0) empty = 1;
    uint64_t span = (uint64_t)(count[i] > 0 ? count[i] - 1 : 0);
    if (span && (uint64_t)stride[i] > (UINT64_MAX / 4) / span)
      return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "check counts and strides", "address range overflows");
    extent += span * (uint64_t)stride[i];
    if (extent > UINT64_MAX / 4)
      return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "check counts and strides", "address range overflows");
  }
  PT_TRY(span_check(x, c, space, addr, empty ? 0 : extent, align, acc, out));
  if (empty) x->m->state_read |= (acc & PT_READ) != 0;
  else pt_region_note(x, c, space, addr, nd, count, stride, len, acc, *out);
  return PTOSIM_OK;
}

ptosim_status pt_region(pt_ctx *x, ptosim_space space, uint64_t addr, int nd, const int64_t *count,
                        const int64_t *stride, uint64_t len, unsigned align, pt_access acc, uint8_t **out) {
  return pt_region_on(x, x->core, space, addr, nd, count, stride, len, align, acc, out);
}

ptosim_status pt_expect_space(pt_ctx *x, const char *what, ptosim_ptr p, ptosim_space want) {
  if (p.space == want) return PTOSIM_OK;
  return pt_fail(x, PTOSIM_E_VERIFY, "op.space", "pass a pointer of the space the op requires",
                 "%s must be a !pto.ptr<_, %s>, got space %s", what, pt_space_name(want), pt_space_name(p.space));
}

int pt_each_piece(uint64_t addr, int nd, const int64_t *count_in, const int64_t *stride_in, uint64_t len,
                  int (*fn)(void *, uint64_t, uint64_t), void *user) {
  int64_t count[PT_REGION_MAX_DIMS], stride[PT_REGION_MAX_DIMS];
  if (nd > PT_REGION_MAX_DIMS) return -1;
  for (int d = 0; d < nd; d++) {
    if (count_in[d] <= 0) return 0;
    count[d] = count_in[d];
    stride[d] = stride_in[d];
  }
  /* Merge dims whose pieces touch (or that repeat once) into longer pieces. */
  for (int d = 0; d < nd;) {
    if (count[d] == 1 || (uint64_t)stride[d] == len) {
      len *= (uint64_t)count[d];
      nd--;
      memmove(count + d, count + d + 1, (size_t)(nd - d) * sizeof count[0]);
      memmove(stride + d, stride + d + 1, (size_t)(nd - d) * sizeof stride[0]);
      d = 0;
    } else {
      d++;
    }
  }
  int64_t j[PT_REGION_MAX_DIMS];
  for (int d = 0; d < nd; d++) j[d] = 0; /* only the dims left (most regions merge to one piece) */
  for (;;) {
    uint64_t a = addr;
    for (int d = 0; d < nd; d++) a += (uint64_t)(j[d] * stride[d]);
    if (fn(user, a, len)) return -1;
    int d = 0;
    while (d < nd && ++j[d] == count[d]) j[d++] = 0;
    if (d == nd) return 0;
  }
}

/* One group of pt_span_lanes: count runs of len lanes, stride lanes apart. */
typedef struct lane_group {
  uint64_t first, len, stride, count;
} lane_group;

/* Note the group for the undo log (always exactly) and record it. When the event has room
 * for one range only and more lanes follow, record instead the span from the group to the
 * last active lane `end` and mark the event overflowed (the widening event.h describes);
 * returns 1 once that happened, so the caller stops recording. */
static int lanes_flush(pt_ctx *x, ptosim_core *c, ptosim_space space, uint64_t addr, unsigned lane, uint8_t *host,
                       const lane_group *g, uint64_t end, int widened, pt_access acc) {
  int64_t count = (int64_t)g->count, stride = (int64_t)(g->stride * lane);
  uint64_t off = g->first * lane, len = g->len * lane, last = g->first + (g->count - 1) * g->stride + g->len;
  if (acc & PT_WRITE) note_write(x, space, host + off, 1, &count, &stride, len);
  if (widened || !x->ev) return widened;
  if (x->ev->nranges == PT_EVENT_MAX_RANGES - 1 && last < end) {
    record(x, c, space, addr + off, 0, NULL, NULL, (end - g->first) * lane, acc);
    x->ev->overflow = 1;
    return 1;
  }
  record(x, c, space, addr + off, 1, &count, &stride, len, acc);
  return 0;
}

ptosim_status pt_span_lanes(pt_ctx *x, ptosim_space space, uint64_t addr, unsigned lane, unsigned nlanes,
                            const uint8_t *active, unsigned align, pt_access acc, uint8_t **out) {
  ptosim_core *c = x->core;
  unsigned lo = 0, hi = nlanes;
  while (lo < nlanes && !active[lo]) lo++;
  while (hi > lo && !active[hi - 1]) hi--;
  uint8_t *host;
  PT_TRY(span_check(x, c, space, addr, 0, align, acc, &host)); /* the base: alignment, inside the space */
  *out = host;
  if (lo == hi) return PTOSIM_OK;
  if (addr > UINT64_MAX / 4)
    return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "check the address", "address range overflows");
  PT_TRY(span_check(x, c, space, addr + (uint64_t)lo * lane, (uint64_t)(hi - lo) * lane, 1, acc, &host));
  *out = host - (uint64_t)lo * lane;
  if (acc & PT_READ) x->m->state_read = 1;
  if (!x->ev && !((acc & PT_WRITE) && (x->m->undo || x->m->gm_old))) return PTOSIM_OK;
  /* Runs of active lanes; equal-length runs at an equal spacing share one strided range. */
  lane_group g = {0, 0, 0, 0};
  int widened = 0;
  for (unsigned i = lo; i < hi;) {
    unsigned s = i;
    while (i < hi && active[i]) i++;
    uint64_t len = i - s;
    if (g.count && len == g.len && (g.count == 1 || s - (g.first + (g.count - 1) * g.stride) == g.stride)) {
      if (g.count == 1) g.stride = s - g.first;
      g.count++;
    } else {
      if (g.count) widened = lanes_flush(x, c, space, addr, lane, *out, &g, hi, widened, acc);
      g = (lane_group){s, len, 0, 1};
    }
    while (i < hi && !active[i]) i++;
  }
  lanes_flush(x, c, space, addr, lane, *out, &g, hi, widened, acc);
  return PTOSIM_OK;
}
