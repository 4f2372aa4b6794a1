/* Definedness: which reads of never-written local memory reach something observable.
 *
 * A cube kernel routinely loads fractal blocks whose padding rows nothing wrote; the rows
 * they produce are never stored, and the kernel is right. What matters is whether the
 * undefined bytes reach an output (GM) or a scalar (a branch, an address, a loop bound,
 * a sync id all come from scalars, and scalars get memory contents only through scalar
 * loads). Two mechanisms, together:
 *
 *  - Origins (shadow.c): every byte's shadow state names the first op that read
 *    never-written bytes its value may depend on, propagated op by op (an op's writes
 *    take the least origin of everything it read). This over-approximates dependence
 *    (a mad's padding rows taint its whole result), so it only names candidates and
 *    their first undefined read.
 *  - A second run (ptosim_monitor_run): the program runs again from the same inputs with
 *    every never-written byte the first run read filled with 0xFF instead of what it
 *    held (zero on a new machine): NaN in f16, bf16 and f32, -1 in signed integers, the
 *    maximum in unsigned ones; every bit differs. A GM byte or a scalar load that differs
 *    depends on those bytes; one that is equal does not reach them through any op that
 *    tells 0x00 from 0xFF bytes (limits: docs/checkers.md). Until the first scalar load
 *    that differs both runs take the same path, so the bytes read uninitialized are the
 *    same and the loads line up by index.
 *
 * Without the second run (ptosim_program_run called directly) every candidate is
 * reported: sound, with the false alarms of the over-approximation. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/monitor_impl.h"
#include "core/mem.h"

#define FILL_BYTE 0xFF
#define MAX_GROUPS 64

static int grow(void **p, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return 0;
  size_t c = *cap ? *cap * 2 : 16;
  void *q = realloc(*p, c * size);
  if (!q) return -1;
  *p = q;
  *cap = c;
  return 0;
}

void pt_def_free(pt_defined *d) {
  for (size_t i = 0; i < d->nhw; i++) free(d->hw[i].data);
  free(d->hw);
  free(d->fill);
  free(d->ld);
}

/* ---- what the first run records ------------------------------------------------------------ */

void pt_def_fill(ptosim_monitor *mon, const pt_range *r, uint64_t addr, uint64_t len) {
  pt_defined *d = &mon->def;
  if (!r->owner) return;
  pt_fill *last = d->nfill ? &d->fill[d->nfill - 1] : NULL;
  if (last && last->owner == r->owner && last->space == r->space && addr >= last->addr &&
      addr <= last->addr + last->len) {
    if (addr + len > last->addr + last->len) last->len = addr + len - last->addr;
    return;
  }
  if (grow((void **)&d->fill, &d->cap_fill, d->nfill, sizeof *d->fill)) {
    mon->oom = 1;
    return;
  }
  d->fill[d->nfill++] = (pt_fill){.owner = r->owner, .space = r->space, .addr = addr, .len = len};
}

typedef struct hw_ctx {
  ptosim_monitor *mon;
  const pt_range *r;
} hw_ctx;

static int keep_host_piece(void *u, uint64_t addr, uint64_t len) {
  hw_ctx *c = u;
  pt_defined *d = &c->mon->def;
  uint8_t *data = malloc(len);
  if (!data || grow((void **)&d->hw, &d->cap_hw, d->nhw, sizeof *d->hw)) {
    free(data);
    return -1;
  }
  memcpy(data, c->r->owner->mem[c->r->space] + addr, len);
  d->hw[d->nhw++] = (pt_hostw){.owner = c->r->owner, .space = c->r->space, .addr = addr, .len = len, .data = data};
  return 0;
}

/* Host writes to local memory are inputs: the second run starts from them too. */
void pt_def_host_write(ptosim_monitor *mon, const pt_event *ev) {
  if (!(mon->opts.checks & PTOSIM_CHECK_INIT)) return;
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    hw_ctx c = {mon, r};
    if (r->owner && pt_each_piece(r->addr, r->nd, r->count, r->stride, r->len, keep_host_piece, &c)) mon->oom = 1;
  }
}

/* Host bytes of GM address addr (NULL if unmapped). */
static const uint8_t *gm_host(const ptosim_machine *m, uint64_t addr) {
  for (int i = 0; i < m->ngm; i++)
    if (addr - m->gm[i].base < m->gm[i].size) return m->gm[i].host + (addr - m->gm[i].base);
  return NULL;
}

/* Scalar loads: the first run keeps those whose bytes have an origin, the second run
 * compares its loads of the same index with them. */
void pt_def_event(ptosim_monitor *mon, const pt_event *ev, uint32_t site) {
  if (ev->op != PTOSIM_OP_load_scalar || !ev->nranges) return;
  pt_defined *d = &mon->def;
  const pt_range *r = &ev->ranges[0];
  const uint8_t *v = r->owner ? r->owner->mem[r->space] + r->addr : gm_host(mon->m, r->addr);
  uint8_t len = (uint8_t)(r->len < 8 ? r->len : 8);
  uint64_t seq = d->nloads++;
  if (!v) return;
  if (d->ref) {
    const pt_defined *a = d->ref;
    if (d->next < a->nld && a->ld[d->next].seq == seq) {
      if (d->diverged < 0 && memcmp(a->ld[d->next].v, v, len)) d->diverged = (int64_t)d->next;
      d->next++;
    }
    return;
  }
  uint32_t origin = (mon->opts.checks & PTOSIM_CHECK_INIT) ? pt_shadow_op_origin(mon->sh) : 0;
  if (!origin) return;
  if (grow((void **)&d->ld, &d->cap_ld, d->nld, sizeof *d->ld)) {
    mon->oom = 1;
    return;
  }
  pt_sload *l = &d->ld[d->nld++];
  *l = (pt_sload){.seq = seq, .site = site, .origin = origin, .len = len};
  memcpy(l->v, v, len);
}

/* ---- reports -------------------------------------------------------------------------------- */

/* GM bytes of one buffer with the same last writer and origin (offsets in the buffer). */
typedef struct group {
  uint32_t wsite, origin;
  int buf;
  int copied; /* every byte is a verbatim copy of never-written memory (0x00, then FILL_BYTE) */
  uint64_t lo, hi, n;
} group;

static void add_byte(group *g, int *ng, uint32_t wsite, uint32_t origin, int buf, int copied, uint64_t addr) {
  for (int i = *ng - 1; i >= 0; i--)
    if (g[i].wsite == wsite && g[i].origin == origin && g[i].buf == buf && g[i].copied == copied) {
      if (addr < g[i].lo) g[i].lo = addr;
      if (addr >= g[i].hi) g[i].hi = addr + 1;
      g[i].n++;
      return;
    }
  if (*ng < MAX_GROUPS) g[(*ng)++] = (group){wsite, origin, buf, copied, addr, addr + 1, 1};
}

static const char *const OUTPUT_HINT =
    "write these bytes before they are read (a DMA pad, a fill, a zeroed accumulator), or keep their results out of the output";

/* Bytes that are verbatim copies of never-written memory (a DMA moving a block whose tail no
 * op computed, as a masked tail loop leaves it) carry no computed value: a warning,
 * init.copied. Bytes computed from never-written memory are errors, init.output. */
static void report_groups(ptosim_monitor *mon, const group *g, int ng, int verified) {
  for (int i = 0; i < ng; i++) {
    char w[400] = "no op of the first run (another path wrote them)", o[400];
    if (g[i].wsite) pt_mon_site_text(mon, g[i].wsite, 1, w, sizeof w);
    if (g[i].origin) pt_mon_site_text(mon, g[i].origin, 0, o, sizeof o);
    if (g[i].copied) {
      pt_mon_report(mon, "init.copied", g[i].wsite ? g[i].wsite : g[i].origin, 0,
                    "store only the bytes the kernel computed, or write the rest first",
                    "%" PRIu64 " bytes in [0x%" PRIx64 ", 0x%" PRIx64 ") of GM buffer %d (offsets in the buffer) written by %s "
                    "are copies of local memory nothing wrote: on a chip they hold whatever that memory held",
                    g[i].n, g[i].lo, g[i].hi, g[i].buf, w);
      continue;
    }
    pt_mon_report(mon, "init.output", g[i].origin ? g[i].origin : g[i].wsite, g[i].origin ? g[i].wsite : 0, OUTPUT_HINT,
                  "%s%s reads never-written local memory, and %" PRIu64 " bytes in [0x%" PRIx64 ", 0x%" PRIx64
                  ") of GM buffer %d (offsets in the buffer) written by %s %s",
                  g[i].origin ? o : "an op", g[i].origin ? "" : " (through a scalar)", g[i].n, g[i].lo, g[i].hi, g[i].buf, w,
                  verified ? "depend on it: filled with 0xFF instead of 0x00 it gives other output bytes"
                           : "may depend on it (ptosim_monitor_run decides whether they do)");
  }
}

/* GM bytes reached by never-written bytes: those that differ from `first` (the first
 * run's output), or with first == NULL every byte with an origin. Bytes without one got
 * their value through a scalar: `via` is the origin of the first scalar load that
 * differed (0: none). */
static void report_gm(ptosim_monitor *mon, uint8_t *const *first, uint32_t via) {
  const ptosim_machine *m = mon->m;
  group g[MAX_GROUPS];
  int ng = 0;
  for (int b = 0; b < m->ngm; b++) {
    const pt_gm_buf *buf = &m->gm[b];
    for (uint64_t j = 0; j < buf->size; j++) {
      if (first && !(j & 63) && buf->size - j >= 64 && !memcmp(first[b] + j, buf->host + j, 64)) {
        j += 63; /* 64 equal bytes */
        continue;
      }
      if (first && first[b][j] == buf->host[j]) continue;
      uint32_t wsite = 0, origin = pt_shadow_origin_at(mon->sh, 0, buf->base + j, &wsite);
      if (!first && !origin) continue;
      if (!origin) origin = via;
      add_byte(g, &ng, wsite, origin, b, first && first[b][j] == 0 && buf->host[j] == FILL_BYTE, j);
    }
  }
  report_groups(mon, g, ng, first != NULL);
}

static void report_load(ptosim_monitor *mon, const pt_sload *l, int verified) {
  char who[400];
  pt_mon_site_text(mon, l->site, 1, who, sizeof who);
  pt_mon_report(mon, "init.scalar", l->origin, l->site, "write these bytes before the scalar reads them",
                "this op reads never-written local memory, and %s reads a value that %s (a scalar decides branches, "
                "addresses, loop bounds and sync ids)",
                who, verified ? "depends on it: filled with 0xFF instead of 0x00 it reads another value"
                              : "may depend on it (ptosim_monitor_run decides whether it does)");
}

/* End of the kernel without a second run: every candidate (none when no op read
 * never-written bytes). */
void pt_def_finish(ptosim_monitor *mon) {
  if (!(mon->opts.checks & PTOSIM_CHECK_INIT) || mon->def.verified || mon->def.ref || !mon->def.nfill) return;
  for (size_t i = 0; i < mon->def.nld; i++) report_load(mon, &mon->def.ld[i], 0);
  report_gm(mon, NULL, 0);
}

/* ---- the second run ------------------------------------------------------------------------- */

/* What a run changes besides local memory: core state and GM contents. */
typedef struct snap {
  ptosim_core *cores;
  uint8_t **gm;
  int ngm;
  ptosim_diag diag;
  uint64_t ops;
} snap;

static void snap_free(snap *s) {
  for (int i = 0; s->gm && i < s->ngm; i++) free(s->gm[i]);
  free(s->gm);
  free(s->cores);
  memset(s, 0, sizeof *s);
}

static int snap_take(snap *s, const ptosim_machine *m) {
  size_t nc = (size_t)m->blocks * 3;
  s->ngm = m->ngm;
  s->cores = malloc(nc * sizeof *s->cores);
  s->gm = calloc((size_t)m->ngm + 1, sizeof *s->gm);
  if (!s->cores || !s->gm) return -1;
  memcpy(s->cores, m->cores, nc * sizeof *s->cores);
  for (int i = 0; i < m->ngm; i++) {
    if (!(s->gm[i] = malloc(m->gm[i].size ? m->gm[i].size : 1))) return -1;
    memcpy(s->gm[i], m->gm[i].host, m->gm[i].size);
  }
  s->diag = m->diag;
  s->ops = m->ops_executed;
  return 0;
}

static void snap_put(const snap *s, ptosim_machine *m) {
  memcpy(m->cores, s->cores, (size_t)m->blocks * 3 * sizeof *m->cores);
  for (int i = 0; i < s->ngm; i++) memcpy(m->gm[i].host, s->gm[i], m->gm[i].size);
  m->diag = s->diag;
  m->ops_executed = s->ops;
}

/* Local memory as the first run found it, with every never-written byte it read filled. */
static void prepare_locals(const pt_defined *d) {
  for (size_t i = 0; i < d->nhw; i++) {
    const pt_hostw *h = &d->hw[i];
    memcpy(h->owner->mem[h->space] + h->addr, h->data, h->len);
  }
  for (size_t i = 0; i < d->nfill; i++) {
    const pt_fill *f = &d->fill[i];
    memset(f->owner->mem[f->space] + f->addr, FILL_BYTE, f->len);
  }
}

/* Run again with a helper monitor that only follows the schedule and compares scalar
 * loads (with neither, no monitor at all); returns its status and the first load that
 * differed. */
static ptosim_status run_filled(ptosim_monitor *mon, const ptosim_program *p, const ptosim_arg *args, int64_t *diverged) {
  ptosim_machine *m = mon->m;
  m->listener = NULL;
  m->listener_user = NULL;
  m->sched = NULL;
  if (!mon->def.nld && mon->opts.schedule != PTOSIM_SCHEDULE_EAGER) return ptosim_program_run(p, m, args);
  ptosim_monitor_opts o = {.checks = 0, .program_order = mon->opts.program_order, .schedule = mon->opts.schedule,
                           .timeline = mon->opts.schedule == PTOSIM_SCHEDULE_EAGER};
  ptosim_monitor *b = ptosim_monitor_attach(m, &o);
  ptosim_status st = PTOSIM_E_NOMEM;
  if (b) {
    b->def.ref = &mon->def;
    b->def.diverged = -1;
    st = ptosim_program_run(p, m, args);
    *diverged = b->def.diverged;
    ptosim_monitor_free(b);
  }
  return st;
}

static void reattach(ptosim_monitor *mon, void (*listener)(void *, const pt_event *)) {
  mon->m->listener = listener;
  mon->m->listener_user = mon;
  mon->m->sched = mon->sched;
}

ptosim_status ptosim_monitor_run(ptosim_monitor *mon, const ptosim_program *p, const ptosim_arg *args) {
  if (!mon || !p) return PTOSIM_E_USAGE;
  ptosim_machine *m = mon->m;
  if (!(mon->opts.checks & PTOSIM_CHECK_INIT)) return ptosim_program_run(p, m, args);
  snap start = {0}, end = {0};
  int saved = snap_take(&start, m) == 0;
  ptosim_status st = ptosim_program_run(p, m, args);
  if (st != PTOSIM_OK || !saved || !mon->def.nfill || snap_take(&end, m)) {
    snap_free(&start);
    snap_free(&end);
    return st; /* nothing read uninitialized, or no second run: pt_def_finish reports candidates */
  }
  void (*listener)(void *, const pt_event *) = m->listener;
  snap_put(&start, m);
  prepare_locals(&mon->def);
  int64_t diverged = -1;
  m->quiet = 1; /* tprint printed in the first run */
  ptosim_status st2 = run_filled(mon, p, args, &diverged);
  m->quiet = 0;
  char why[700] = "";
  if (st2 != PTOSIM_OK) ptosim_diag_format(&m->diag, why, sizeof why);
  reattach(mon, listener);
  if (st2 != PTOSIM_E_NOMEM) {
    mon->def.verified = 1;
    report_gm(mon, end.gm, diverged >= 0 ? mon->def.ld[diverged].origin : 0);
    if (diverged >= 0) report_load(mon, &mon->def.ld[diverged], 1);
    if (st2 != PTOSIM_OK)
      pt_mon_report(mon, "init.decision", 0, 0, "write the bytes the kernel reads before it reads them",
                    "the kernel fails when its never-written local bytes hold 0xFF instead of 0x00: %s", why);
  }
  snap_put(&end, m);
  snap_free(&start);
  snap_free(&end);
  return st;
}
