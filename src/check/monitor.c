/* The monitor: the machine's event listener. Per event it advances the synchronization
 * model (clocks.c: happens-before and per-pipe time), applies the op's byte ranges to the
 * shadow memory (shadow.c: races and reads of uninitialized bytes), mirrors the sync
 * state for the sync checker, and keeps statistics and trace slices. */
#include "check/monitor_impl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "cost/cost.h"

static const char *const kind_names[] = {"AIC", "AIV0", "AIV1"};

const char *pt_mon_kind_name(int k) { return k >= 0 && k < 3 ? kind_names[k] : "?"; }

ptosim_monitor_opts ptosim_monitor_defaults(void) {
  ptosim_monitor_opts o = {.checks = PTOSIM_CHECK_ALL, .timeline = 1};
  return o;
}

/* ---- sites -------------------------------------------------------------------------------- */

static uint64_t site_hash(const pt_event *ev) {
  uint64_t h = (uint64_t)(uintptr_t)ev->loc.file * 31 + (uint64_t)ev->loc.line * 1000003u + (uint64_t)ev->loc.col;
  h = h * 131 + (uint64_t)ev->op;
  h = h * 131 + (uint64_t)(uintptr_t)ev->core;
  return h ^ (h >> 29);
}

static int same_site(const pt_site *s, const pt_event *ev) {
  return s->loc.file == ev->loc.file && s->loc.line == ev->loc.line && s->loc.col == ev->loc.col && s->op == ev->op &&
         s->core == ev->core;
}

/* Site id of the event's op (1-based), interned by (location, op, core). C API calls
 * without a location all share one site per op and core. */
static uint32_t site_of(ptosim_monitor *mon, const pt_event *ev) {
  if (2 * (mon->nsite + 1) > mon->cap_hash) {
    uint32_t cap = mon->cap_hash ? mon->cap_hash * 2 : 1024;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h) return 0;
    for (uint32_t i = 1; i <= mon->nsite; i++) {
      uint32_t j = (uint32_t)mon->sites[i].hash & (cap - 1);
      while (h[j]) j = (j + 1) & (cap - 1);
      h[j] = i;
    }
    free(mon->hash);
    mon->hash = h;
    mon->cap_hash = cap;
  }
  uint64_t hv = site_hash(ev);
  uint32_t j = (uint32_t)hv & (mon->cap_hash - 1);
  for (; mon->hash[j]; j = (j + 1) & (mon->cap_hash - 1))
    if (same_site(&mon->sites[mon->hash[j]], ev)) return mon->hash[j];
  if (mon->nsite + 2 > mon->cap_site) {
    uint32_t cap = mon->cap_site ? mon->cap_site * 2 : 256;
    pt_site *s = realloc(mon->sites, cap * sizeof *s);
    if (!s) return 0;
    mon->sites = s;
    mon->cap_site = cap;
  }
  uint32_t id = ++mon->nsite;
  mon->sites[id] = (pt_site){.loc = ev->loc, .op = ev->op, .core = ev->core, .pipe = ev->pipe, .hash = hv};
  mon->hash[j] = id;
  return id;
}

/* ---- reports ------------------------------------------------------------------------------ */

static void loc_text(const ptosim_loc *l, char *buf, size_t n) {
  if (l->file) snprintf(buf, n, "%s:%d:%d", l->file, l->line, l->col);
  else snprintf(buf, n, "(C API call)");
}

/* Do two sites name the same op of the program (the same location, op and core kind,
 * whatever the block)? */
static int same_place(const ptosim_monitor *mon, uint32_t a, uint32_t b) {
  if (a == b) return 1;
  if (!a || !b) return 0;
  const pt_site *x = &mon->sites[a], *y = &mon->sites[b];
  return x->loc.file == y->loc.file && x->loc.line == y->loc.line && x->loc.col == y->loc.col && x->op == y->op &&
         x->core->kind == y->core->kind;
}

/* Rules whose findings do not change this run's results. */
static ptosim_severity severity_of(const char *rule) {
  static const char *const warnings[] = {"sync.unwaited", "sync.unreleased", "sync.rls_without_get", "init.read",
                                         "init.copied", "race.waw_same"};
  for (size_t i = 0; i < sizeof warnings / sizeof *warnings; i++)
    if (!strcmp(rule, warnings[i])) return PTOSIM_SEV_WARNING;
  return PTOSIM_SEV_ERROR;
}

static void count_block(ptosim_monitor *mon, int i, int block) {
  ptosim_report *r = &mon->rep[i];
  r->count++;
  if (block != mon->rep_last_block[i]) r->nblocks++;
  mon->rep_last_block[i] = block;
  if (block < r->first_block) r->first_block = block;
  if (block > r->last_block) r->last_block = block;
}

/* Add one occurrence of a finding; the same rule between the same two places of the
 * program is one report, whichever blocks it occurs in. */
void pt_mon_report(ptosim_monitor *mon, const char *rule, uint32_t site, uint32_t other, const char *hint,
                   const char *fmt, ...) {
  int block = site ? mon->sites[site].core->block : 0;
  for (int i = 0; i < mon->nrep; i++)
    if (same_place(mon, mon->rep_site[i], site) && same_place(mon, mon->rep_other[i], other) &&
        !strcmp(mon->rep[i].rule, rule)) {
      count_block(mon, i, block);
      return;
    }
  if ((uint64_t)mon->nrep >= mon->opts.max_reports) {
    mon->dropped++;
    return;
  }
  if (mon->nrep == mon->cap_rep) {
    int cap = mon->cap_rep ? mon->cap_rep * 2 : 16;
    ptosim_report *r = realloc(mon->rep, (size_t)cap * sizeof *r);
    uint32_t *a = realloc(mon->rep_site, (size_t)cap * sizeof *a);
    if (r) mon->rep = r;
    if (a) mon->rep_site = a;
    uint32_t *b = realloc(mon->rep_other, (size_t)cap * sizeof *b);
    if (b) mon->rep_other = b;
    int *c = realloc(mon->rep_last_block, (size_t)cap * sizeof *c);
    if (c) mon->rep_last_block = c;
    if (!r || !a || !b || !c) return;
    mon->cap_rep = cap;
  }
  ptosim_report *r = &mon->rep[mon->nrep];
  memset(r, 0, sizeof *r);
  snprintf(r->rule, sizeof r->rule, "%s", rule);
  snprintf(r->hint, sizeof r->hint, "%s", hint ? hint : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->msg, sizeof r->msg, fmt, ap);
  va_end(ap);
  if (site) r->loc = mon->sites[site].loc;
  if (other) r->other = mon->sites[other].loc;
  r->severity = severity_of(rule);
  r->first_block = r->last_block = block;
  mon->rep_site[mon->nrep] = site;
  mon->rep_other[mon->nrep] = other;
  mon->rep_last_block[mon->nrep] = -1;
  count_block(mon, mon->nrep++, block);
}

static const char *space_label(ptosim_space s) { return pt_space_name(s); }

/* Describe the site: "pto.mad (PIPE_M, block 0 AIC)" and, with_loc, " at k.pto:3:5". */
void pt_mon_site_text(const ptosim_monitor *mon, uint32_t id, int with_loc, char *buf, size_t n) {
  const pt_site *s = &mon->sites[id];
  char l[300];
  loc_text(&s->loc, l, sizeof l);
  snprintf(buf, n, "%s (%s, block %d %s)%s%s", s->op < PTOSIM_OP_COUNT ? ptosim_op_spelling(s->op) : "host access",
           ptosim_pipe_name(s->pipe), s->core->block, pt_mon_kind_name((int)s->core->kind), with_loc ? " at " : "",
           with_loc ? l : "");
}

/* The sync that would order `first` before `second`. */
static void order_hint(const ptosim_monitor *mon, uint32_t first, uint32_t second, char *buf, size_t n) {
  const pt_site *a = &mon->sites[first], *b = &mon->sites[second];
  if (a->core->block != b->core->block)
    snprintf(buf, n, "blocks run in parallel and never wait for each other: give each block its own bytes");
  else if (a->core != b->core)
    snprintf(buf, n, "signal with pto.sync.set <%s>, id on %s after the first access and pto.sync.wait <%s>, id on %s before the second",
             ptosim_pipe_name(a->pipe), pt_mon_kind_name((int)a->core->kind), ptosim_pipe_name(b->pipe),
             pt_mon_kind_name((int)b->core->kind));
  else
    snprintf(buf, n, "add pto.set_flag[\"%s\", \"%s\", \"EVENT_IDn\"] after the first access and the matching pto.wait_flag before the second",
             ptosim_pipe_name(a->pipe), ptosim_pipe_name(b->pipe));
}

/* ---- per-op hazard collection --------------------------------------------------------------- */

typedef struct found_ctx {
  ptosim_monitor *mon;
  uint32_t site;
  const pt_range *r;
} found_ctx;

/* Whether the current op's write of GM [addr, addr + len) changed those bytes: unknown
 * (1) outside GM and when the log of old GM bytes does not hold them all. */
static int write_changed(const ptosim_monitor *mon, const pt_range *r, uint64_t addr, uint64_t len) {
  const uint8_t *host = r->space == PTOSIM_GM && mon->m->gm_old ? pt_gm_host(mon->m, addr, len) : NULL;
  return !host || !pt_undo_unchanged(&mon->gm_old, host, len);
}

/* A hazard of the current op's access, merged over its bytes; the first read of
 * never-written bytes goes to the definedness fill list instead. */
static void found(void *user, pt_hazard h, uint32_t other, uint64_t addr, uint64_t len) {
  found_ctx *f = user;
  ptosim_monitor *mon = f->mon;
  if (h == PT_HZ_UNDEF) {
    pt_def_fill(mon, f->r, addr, len);
    return;
  }
  uint8_t changed = h == PT_HZ_WAW && (uint8_t)write_changed(mon, f->r, addr, len);
  for (int i = 0; i < mon->nhit; i++) {
    pt_hit *x = &mon->hit[i];
    if (x->h == h && x->other == other && x->space == f->r->space && x->owner == f->r->owner) {
      if (addr < x->lo) x->lo = addr;
      if (addr + len > x->hi) x->hi = addr + len;
      x->changed |= changed;
      return;
    }
  }
  if (mon->nhit == PT_MAX_HITS) return;
  mon->hit[mon->nhit++] =
      (pt_hit){.h = h, .other = other, .space = f->r->space, .owner = f->r->owner, .lo = addr, .hi = addr + len, .changed = changed};
}

static void flush_hits(ptosim_monitor *mon, uint32_t site) {
  static const char *const rules[] = {"race.raw", "race.war", "race.waw", "init.read"};
  static const char *const verbs[] = {"reads bytes that %s wrote", "overwrites bytes that %s reads",
                                      "overwrites bytes that %s wrote", ""};
  char me[400], other[400], what[500], hint[300];
  pt_mon_site_text(mon, site, 0, me, sizeof me);
  for (int i = 0; i < mon->nhit; i++) {
    const pt_hit *x = &mon->hit[i];
    char where[96];
    if (x->owner)
      snprintf(where, sizeof where, "%s of block %d %s", space_label(x->space), x->owner->block,
               pt_mon_kind_name((int)x->owner->kind));
    else
      snprintf(where, sizeof where, "GM");
    if (x->h == PT_HZ_INIT) {
      pt_mon_report(mon, rules[x->h], site, 0, "write these bytes first (a load, a fill or the pad of a DMA), or read fewer",
                    "%s reads %" PRIu64 " bytes of %s [0x%" PRIx64 ", 0x%" PRIx64 ") that nothing wrote since the kernel started", me,
                    x->hi - x->lo, where, x->lo, x->hi);
      continue;
    }
    pt_mon_site_text(mon, x->other, 1, other, sizeof other);
    snprintf(what, sizeof what, verbs[x->h], other);
    order_hint(mon, x->other, site, hint, sizeof hint);
    int same = x->h == PT_HZ_WAW && !x->changed; /* both stored the same bytes: the order does not show */
    pt_mon_report(mon, same ? "race.waw_same" : rules[x->h], site, x->other, hint,
                  "%s %s in %s [0x%" PRIx64 ", 0x%" PRIx64 ")%s, and no flag, barrier, buffer token or cross-core signal orders them",
                  me, what, where, x->lo, x->hi, same ? " with the same bytes" : "");
  }
  mon->nhit = 0;
}

/* Memory id of a range for the shadow: 0 for GM, else one per (core, space). */
static uint32_t mem_id(const ptosim_monitor *mon, const pt_range *r) {
  if (!r->owner) return 0;
  return 1 + (uint32_t)(r->owner - mon->m->cores) * PTOSIM_SPACE_COUNT + (uint32_t)r->space;
}

typedef struct piece_ctx {
  ptosim_monitor *mon;
  const pt_range *r;
  int access;
  const pt_accessor *who;
} piece_ctx;

static int piece(void *u, uint64_t addr, uint64_t len) {
  piece_ctx *p = u;
  uint32_t mem = mem_id(p->mon, p->r);
  if (!p->who) return pt_shadow_host_write(p->mon->sh, mem, addr, len);
  return pt_shadow_access(p->mon->sh, mem, p->r->owner != NULL, addr, len, p->access, p->who);
}

/* Bytes of a range that is one run (each level in order repeats once or abuts the levels
 * inside it: the one piece pt_each_piece would merge it to), or 0 (several pieces, or none). */
static uint64_t run_bytes(const pt_range *r) {
  uint64_t len = r->len;
  for (int d = 0; d < r->nd; d++) {
    if (r->count[d] <= 0 || (r->count[d] != 1 && (uint64_t)r->stride[d] != len)) return 0;
    len *= (uint64_t)r->count[d];
  }
  return len;
}

/* Every read of the op, then every write (the writes carry the origin of the reads). An
 * atomic read-modify-write range is one atomic access of the write pass (shadow.h). */
static void apply_ranges(ptosim_monitor *mon, const pt_event *ev, const pt_accessor *who) {
  if (pt_shadow_begin_op(mon->sh)) mon->oom = 1;
  for (int pass = PT_READ; pass <= PT_WRITE; pass++)
    for (int i = 0; i < ev->nranges; i++) {
      const pt_range *r = &ev->ranges[i];
      int acc = r->access & PT_ATOMIC ? (pass == PT_WRITE ? PT_ATOMIC : 0) : r->access & pass;
      if (!acc) continue;
      found_ctx *f = who ? (found_ctx *)who->user : NULL;
      if (f) f->r = r;
      piece_ctx pc = {.mon = mon, .r = r, .access = acc, .who = who};
      uint64_t n = run_bytes(r);
      if (n ? piece(&pc, r->addr, n) : pt_each_piece(r->addr, r->nd, r->count, r->stride, r->len, piece, &pc))
        mon->oom = 1;
    }
}

/* ---- the listener ---------------------------------------------------------------------------- */

static void check_event(ptosim_monitor *mon, const pt_event *ev) {
  if (ev->op == PTOSIM_OP_COUNT) { /* host write: initialized data */
    apply_ranges(mon, ev, NULL);
    pt_def_host_write(mon, ev);
    return;
  }
  uint64_t issue = 0, dur = mon->opts.timeline ? pt_cost_step(mon->cost, mon->m->prof, ev, &issue) : 0;
  pt_step st;
  pt_clocks_step(mon->k, ev, dur, issue, &st);
  mon->last = st;
  uint32_t site = site_of(mon, ev);
  if (!site) {
    mon->oom = 1;
    return;
  }
  pt_mon_sync_event(mon, ev, site);
  int race = (mon->opts.checks & PTOSIM_CHECK_RACE) && !mon->opts.program_order;
  int taint = (mon->opts.checks & PTOSIM_CHECK_INIT) != 0;
  int init = (mon->opts.checks & PTOSIM_CHECK_INIT_READS) != 0;
  if (ev->nranges && (race || init || taint)) { /* the shadow memory costs nothing when unused */
    found_ctx f = {.mon = mon, .site = site};
    pt_accessor who = {.k = mon->k, .block = ev->core->block, .agent = st.agent, .epoch = st.epoch, .site = site,
                       .race = race, .init = init, .taint = taint, .found = found, .user = &f};
    apply_ranges(mon, ev, &who);
    if (mon->nhit) flush_hits(mon, site);
  }
  pt_def_event(mon, ev, site);
  pt_mon_account(mon, ev, site, &st);
}

/* Every event; the old GM bytes its writes exposed are forgotten after it. */
static void on_event(void *user, const pt_event *ev) {
  ptosim_monitor *mon = user;
  check_event(mon, ev);
  pt_bytes_clear(&mon->gm_old);
}

ptosim_monitor *ptosim_monitor_attach(ptosim_machine *m, const ptosim_monitor_opts *o) {
  if (!m || m->listener) return NULL;
  ptosim_monitor *mon = calloc(1, sizeof *mon);
  if (!mon) return NULL;
  mon->m = m;
  mon->opts = o ? *o : ptosim_monitor_defaults();
  if (!mon->opts.max_reports) mon->opts.max_reports = 1000;
  mon->k = pt_clocks_new(m->blocks);
  mon->cost = pt_cost_timeline_new(m->blocks);
  mon->sh = pt_shadow_new();
  mon->sync = calloc((size_t)m->blocks * 3, sizeof *mon->sync);
  mon->busy = calloc((size_t)m->blocks * PT_NAGENT, sizeof *mon->busy);
  mon->nops = calloc(PTOSIM_OP_COUNT, sizeof *mon->nops);
  if (!mon->k || !mon->cost || !mon->sh || !mon->sync || !mon->busy || !mon->nops) {
    ptosim_monitor_free(mon);
    return NULL;
  }
  if (mon->opts.schedule == PTOSIM_SCHEDULE_EAGER && !mon->opts.program_order) {
    mon->opts.timeline = 1; /* the schedule runs on the timeline */
    if (!(mon->sched = pt_sched_new(mon))) {
      ptosim_monitor_free(mon);
      return NULL;
    }
    m->sched = mon->sched;
    m->sched_ops = &pt_eager_ops;
  }
  /* Old GM bytes for telling a write-after-write of the same bytes (program order only: the
   * eager schedule lands writes later). */
  if ((mon->opts.checks & PTOSIM_CHECK_RACE) && !mon->opts.program_order && !mon->sched) m->gm_old = &mon->gm_old;
  m->listener = on_event;
  m->listener_user = mon;
  return mon;
}

int ptosim_monitor_nreports(const ptosim_monitor *mon) { return mon ? mon->nrep : 0; }

const ptosim_report *ptosim_monitor_report(const ptosim_monitor *mon, int i) {
  return mon && i >= 0 && i < mon->nrep ? &mon->rep[i] : NULL;
}

void ptosim_monitor_print_reports(const ptosim_monitor *mon, FILE *f) {
  for (int i = 0; i < mon->nrep; i++) {
    const ptosim_report *r = &mon->rep[i];
    char l[300];
    loc_text(&r->loc, l, sizeof l);
    fprintf(f, "%s: %s: %s [%s]", l, r->severity == PTOSIM_SEV_ERROR ? "error" : "warning", r->msg, r->rule);
    if (r->nblocks > 1)
      fprintf(f, " (%" PRIu64 " times in %d blocks, %d..%d)", r->count, r->nblocks, r->first_block, r->last_block);
    else if (r->count > 1) fprintf(f, " (%" PRIu64 " times)", r->count);
    fprintf(f, "\n");
    if (r->hint[0]) fprintf(f, "  hint: %s\n", r->hint);
  }
  if (mon->dropped) fprintf(f, "ptosim: %" PRIu64 " more findings not shown\n", mon->dropped);
  if (mon->oom) fprintf(f, "ptosim: the checkers ran out of memory; some accesses were not checked\n");
  uint64_t lost = pt_shadow_atomic_unchecked(mon->sh);
  if (lost)
    fprintf(f, "ptosim: %" PRIu64 " accesses followed more unordered atomic writes of the same bytes than the race checker keeps"
               " (%d); they were checked against the newest %d only\n", lost, PT_SHADOW_NATOM, PT_SHADOW_NATOM);
}

int ptosim_monitor_count(const ptosim_monitor *mon, ptosim_severity sev) {
  int n = 0;
  for (int i = 0; mon && i < mon->nrep; i++) n += mon->rep[i].severity == sev;
  return n;
}

/* "E errors from C contexts (rule n, ...)" for one severity: occurrences, distinct
 * reports, and distinct reports per rule in order of first appearance. */
static void summary_part(const ptosim_monitor *mon, FILE *f, ptosim_severity sev, const char *noun) {
  uint64_t occ = 0;
  int ctx = 0;
  for (int i = 0; i < mon->nrep; i++)
    if (mon->rep[i].severity == sev) {
      occ += mon->rep[i].count;
      ctx++;
    }
  fprintf(f, "%" PRIu64 " %s%s from %d context%s", occ, noun, occ == 1 ? "" : "s", ctx, ctx == 1 ? "" : "s");
  const char *sep = " (";
  for (int i = 0; i < mon->nrep; i++) {
    const char *rule = mon->rep[i].rule;
    if (mon->rep[i].severity != sev) continue;
    int seen = 0, n = 0;
    for (int j = 0; j < i; j++) seen |= !strcmp(mon->rep[j].rule, rule);
    if (seen) continue;
    for (int j = i; j < mon->nrep; j++) n += !strcmp(mon->rep[j].rule, rule);
    fprintf(f, "%s%s %d", sep, rule, n);
    sep = ", ";
  }
  if (ctx) fprintf(f, ")");
}

void ptosim_monitor_print_summary(const ptosim_monitor *mon, FILE *f) {
  fprintf(f, "ptosim: FINDINGS: ");
  summary_part(mon, f, PTOSIM_SEV_ERROR, "error");
  fprintf(f, ", ");
  summary_part(mon, f, PTOSIM_SEV_WARNING, "warning");
  if (mon->dropped) fprintf(f, ", %" PRIu64 " not kept", mon->dropped);
  fprintf(f, "\n");
}

ptosim_status ptosim_monitor_drain(ptosim_monitor *mon) {
  return mon && mon->sched ? pt_sched_drain(mon->sched) : PTOSIM_OK;
}

uint64_t ptosim_monitor_total_cycles(const ptosim_monitor *mon) { return mon ? pt_clocks_makespan(mon->k) : 0; }

void ptosim_monitor_free(ptosim_monitor *mon) {
  if (!mon) return;
  if (mon->m && mon->m->listener_user == mon) {
    mon->m->listener = NULL;
    mon->m->listener_user = NULL;
  }
  if (mon->m && mon->sched && mon->m->sched == mon->sched) mon->m->sched = NULL;
  if (mon->m && mon->m->gm_old == &mon->gm_old) mon->m->gm_old = NULL;
  pt_bytes_free(&mon->gm_old);
  pt_sched_free(mon->sched);
  pt_clocks_free(mon->k);
  pt_cost_timeline_free(mon->cost);
  pt_shadow_free(mon->sh);
  free(mon->sync);
  free(mon->busy);
  free(mon->nops);
  free(mon->stalls);
  free(mon->slices);
  free(mon->sites);
  free(mon->hash);
  free(mon->rep);
  free(mon->rep_site);
  free(mon->rep_other);
  free(mon->rep_last_block);
  pt_def_free(&mon->def);
  free(mon);
}
