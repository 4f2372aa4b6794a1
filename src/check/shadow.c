/* Shadow memory (see shadow.h).
 *
 * State 0 is "never accessed" (uninitialized in a local memory, host data in GM), state 1
 * "written by the host". A write replaces the state by {write = this op, no reads, origin
 * = the least origin among the op's reads}; a read adds this op to the state's readers,
 * dropping readers that happen before it (they happen before anything that is ordered
 * after this read: FastTrack's rule). A read of never-written local bytes keeps them
 * marked `never`; its origin is the reading op.
 *
 * An atomic read-modify-write adds this op to the state's atomic writers (dropping those
 * that happen before it, by the same rule) and keeps the plain write and the readers: a
 * later atomic is checked against those, not against the atomics, while a later plain
 * read or write must be ordered after every atomic writer. The writers are a set of their
 * own (table `at`, immutable like the states, collected with them), so a state without
 * atomics costs one index. At most NATOM are kept; when one more arrives the oldest is
 * dropped and the set marked `lost`, and every later plain access that checks such a set
 * is counted (pt_shadow_atomic_unchecked): it may miss a race with a dropped writer, never
 * reports a false one.
 *
 * Origins over-approximate dependence (every write of an op depends on every byte it
 * read): they name candidates and their first undefined read; the monitor decides which
 * candidates are observable (monitor.c, the second run with another fill). */
#include "check/shadow.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define PAGE_BITS 12
#define PAGE (1u << PAGE_BITS)
#define GRAN_BITS 6
#define GRAN (1u << GRAN_BITS)
#define NGRAN (PAGE / GRAN)
#define SPLIT UINT32_MAX /* a granule whose bytes differ (state indices stay below 2^31) */
#define NREAD 4 /* unordered readers kept per state; beyond that the oldest is dropped */
#define NATOM PT_SHADOW_NATOM /* unordered atomic writers kept per set (beyond: the oldest goes, `lost`) */
#define MEMO 16
#define GC_MIN (1u << 12) /* new states between collections, at least (288 KiB of states: cache-sized) */

typedef struct state {
  pt_epoch w;        /* last write (0: none since the host) */
  uint32_t wsite;
  uint32_t origin;   /* site of the first read of never-written bytes this value depends on */
  uint8_t never;     /* local bytes never written (read since the start) */
  uint8_t nread;
  uint32_t atom;     /* atomic writers since the last plain write: index in `at` (0: none) */
  pt_epoch r[NREAD];
  uint32_t rsite[NREAD];
} state;

typedef struct atoms {
  uint8_t n;         /* 1..NATOM, oldest first */
  uint8_t lost;      /* more were unordered than kept: the oldest were dropped */
  pt_epoch a[NATOM];
  uint32_t site[NATOM];
} atoms;

/* Three levels, each used only where the one above is not uniform: a page (4 KiB) holds one
 * state (gran == NULL: every byte in state `all`), or one per granule of 64 bytes; a granule
 * holds one state, or SPLIT: its bytes have their own states in `cell`. An access of whole
 * uniform granules updates one index per granule, not one per byte. */
typedef struct page {
  uint64_t key;      /* (mem << 40 | page number) + 1; 0 = empty slot */
  uint32_t all;
  uint32_t *gran;    /* NGRAN states or SPLIT, or NULL */
  uint32_t *cell;    /* PAGE states, allocated at the first split; valid in SPLIT granules only */
} page;

typedef struct memo {
  uint32_t from, to;
  uint32_t origin;   /* read: origin of the bytes read */
  uint8_t local;
  uint8_t hz_mask;   /* hazards found against `from` (bit per pt_hazard) */
  uint32_t hz_site[PT_HZ_COUNT];
} memo;

struct pt_shadow {
  state *st;
  uint32_t nst, cap_st;
  page *pg;
  uint64_t npg, cap_pg;  /* cap is a power of two */
  page *recent[2];       /* the pages found last, most recent first (NULL: none) */
  memo memo[MEMO];
  int nmemo;
  uint32_t write_state;  /* the current op's write state (0: none yet) */
  uint32_t op_origin;    /* least origin of the current op's reads (0: none) */
  uint32_t gc_at;        /* collect when nst reaches this */
  atoms *at;             /* atomic writer sets; 0 unused */
  uint32_t nat, cap_at;
  uint64_t unchecked;    /* plain accesses checked against a set with dropped atomic writers */
};

pt_shadow *pt_shadow_new(void) {
  pt_shadow *sh = calloc(1, sizeof *sh);
  if (!sh) return NULL;
  sh->cap_st = 64; /* both grow by doubling */
  sh->st = calloc(sh->cap_st, sizeof *sh->st);
  sh->cap_pg = 64;
  sh->pg = calloc(sh->cap_pg, sizeof *sh->pg);
  sh->cap_at = 16;
  sh->at = calloc(sh->cap_at, sizeof *sh->at);
  if (!sh->st || !sh->pg || !sh->at) {
    pt_shadow_free(sh);
    return NULL;
  }
  sh->nst = 2; /* 0 never accessed, 1 host-written */
  sh->nat = 1;
  sh->gc_at = GC_MIN;
  return sh;
}

void pt_shadow_free(pt_shadow *sh) {
  if (!sh) return;
  for (uint64_t i = 0; sh->pg && i < sh->cap_pg; i++) {
    free(sh->pg[i].gran);
    free(sh->pg[i].cell);
  }
  free(sh->pg);
  free(sh->st);
  free(sh->at);
  free(sh);
}

static int collect(pt_shadow *sh);

int pt_shadow_begin_op(pt_shadow *sh) {
  sh->nmemo = 0;
  sh->write_state = 0;
  sh->op_origin = 0;
  return sh->nst >= sh->gc_at ? collect(sh) : 0;
}

uint32_t pt_shadow_op_origin(const pt_shadow *sh) { return sh->op_origin; }
uint32_t pt_shadow_nstates(const pt_shadow *sh) { return sh->nst; }
uint64_t pt_shadow_atomic_unchecked(const pt_shadow *sh) { return sh->unchecked; }

/* Room for element n of the array *p of *cap elements of `size` bytes (the capacity
 * doubles); -1 when out of memory. */
static inline int room(void **p, uint32_t *cap, uint32_t n, size_t size) {
  if (n < *cap) return 0;
  if (*cap > UINT32_MAX / 2) return -1;
  void *q = realloc(*p, (size_t)*cap * 2 * size);
  if (!q) return -1;
  *p = q;
  *cap *= 2;
  return 0;
}

/* The slot of the next new state (sh->st[sh->nst]), made room for; NULL when out of memory. */
static state *next_state(pt_shadow *sh) {
  return room((void **)&sh->st, &sh->cap_st, sh->nst, sizeof *sh->st) ? NULL : &sh->st[sh->nst];
}

/* The slot of the next new atomic writer set (sh->at[sh->nat]), as next_state. */
static atoms *next_atoms(pt_shadow *sh) {
  return room((void **)&sh->at, &sh->cap_at, sh->nat, sizeof *sh->at) ? NULL : &sh->at[sh->nat];
}

/* ---- pages ------------------------------------------------------------------------------ */

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

static int grow_pages(pt_shadow *sh) {
  uint64_t cap = sh->cap_pg * 2;
  page *n = calloc(cap, sizeof *n);
  if (!n) return -1;
  for (uint64_t i = 0; i < sh->cap_pg; i++) {
    if (!sh->pg[i].key) continue;
    uint64_t h = mix(sh->pg[i].key) & (cap - 1);
    while (n[h].key) h = (h + 1) & (cap - 1);
    n[h] = sh->pg[i];
  }
  free(sh->pg);
  sh->pg = n;
  sh->cap_pg = cap;
  sh->recent[0] = sh->recent[1] = NULL;
  return 0;
}

/* Page `pno` of memory `mem` from the table, created uniform in state 0 on first use (NULL:
 * no memory). */
static page *find_page_slow(pt_shadow *sh, uint32_t mem, uint64_t pno) {
  uint64_t key = (((uint64_t)mem << 40) | pno) + 1;
  uint64_t h = mix(key) & (sh->cap_pg - 1);
  while (sh->pg[h].key) {
    if (sh->pg[h].key == key) {
      sh->recent[1] = sh->recent[0];
      return sh->recent[0] = &sh->pg[h];
    }
    h = (h + 1) & (sh->cap_pg - 1);
  }
  if (2 * (sh->npg + 1) > sh->cap_pg) {
    if (grow_pages(sh)) return NULL;
    return find_page_slow(sh, mem, pno);
  }
  sh->pg[h] = (page){.key = key};
  sh->npg++;
  return &sh->pg[h];
}

/* Page `pno` of memory `mem` (find_page_slow), first among the two found last. */
static inline page *find_page(pt_shadow *sh, uint32_t mem, uint64_t pno) {
  uint64_t key = (((uint64_t)mem << 40) | pno) + 1;
  if (sh->recent[0] && sh->recent[0]->key == key) return sh->recent[0];
  if (sh->recent[1] && sh->recent[1]->key == key) { /* an op's source and destination alternate */
    page *p = sh->recent[1];
    sh->recent[1] = sh->recent[0];
    return sh->recent[0] = p;
  }
  return find_page_slow(sh, mem, pno);
}

/* Page `pno` of memory `mem` if it exists. */
static const page *peek_page(const pt_shadow *sh, uint32_t mem, uint64_t pno) {
  uint64_t key = (((uint64_t)mem << 40) | pno) + 1;
  for (uint64_t h = mix(key) & (sh->cap_pg - 1); sh->pg[h].key; h = (h + 1) & (sh->cap_pg - 1))
    if (sh->pg[h].key == key) return &sh->pg[h];
  return NULL;
}

/* The state of byte i of page p. */
static uint32_t state_at(const page *p, uint64_t i) {
  if (!p->gran) return p->all;
  uint32_t g = p->gran[i >> GRAN_BITS];
  return g == SPLIT ? p->cell[i] : g;
}

uint32_t pt_shadow_origin_at(pt_shadow *sh, uint32_t mem, uint64_t addr, uint32_t *wsite) {
  const page *p = peek_page(sh, mem, addr >> PAGE_BITS);
  const state *s = &sh->st[p ? state_at(p, addr & (PAGE - 1)) : 0];
  *wsite = s->atom ? sh->at[s->atom].site[sh->at[s->atom].n - 1] : s->wsite;
  return s->origin;
}

/* Every state index page p holds: marked in map (rename 0) or replaced by map[index]. */
static void map_states(page *p, uint32_t *map, int rename) {
  uint32_t *x = &p->all, n = 1;
  if (p->gran) x = p->gran, n = NGRAN;
  for (uint32_t g = 0; g < n; g++) {
    if (x[g] != SPLIT) {
      if (rename) x[g] = map[x[g]];
      else map[x[g]] = 1;
      continue;
    }
    for (uint32_t *c = p->cell + g * GRAN, *e = c + GRAN; c < e; c++)
      if (rename) *c = map[*c];
      else map[*c] = 1;
  }
}

/* The atomic writer sets the kept states refer to, renumbered in order (after collect's
 * compaction of the states). */
static int collect_atoms(pt_shadow *sh) {
  uint32_t *map = calloc(sh->nat, sizeof *map);
  if (!map) return -1;
  for (uint32_t i = 0; i < sh->nst; i++) map[sh->st[i].atom] = 1;
  uint32_t n = 1;
  for (uint32_t i = 1; i < sh->nat; i++)
    if (map[i]) {
      sh->at[n] = sh->at[i];
      map[i] = n++;
    }
  map[0] = 0;
  for (uint32_t i = 0; i < sh->nst; i++) sh->st[i].atom = map[sh->st[i].atom];
  free(map);
  sh->nat = n;
  return 0;
}

/* Mark-compact collection of the state table: keep the states some byte (page, granule or
 * cell) refers to, renumber them in order, rewrite the pages. Called between ops (no memo,
 * no write state alive). */
static int collect(pt_shadow *sh) {
  uint32_t *map = calloc(sh->nst, sizeof *map);
  if (!map) return -1;
  map[0] = map[1] = 1;
  for (uint64_t i = 0; i < sh->cap_pg; i++)
    if (sh->pg[i].key) map_states(&sh->pg[i], map, 0);
  uint32_t n = 0;
  for (uint32_t i = 0; i < sh->nst; i++)
    if (map[i]) {
      sh->st[n] = sh->st[i];
      map[i] = n++;
    }
  for (uint64_t i = 0; i < sh->cap_pg; i++)
    if (sh->pg[i].key) map_states(&sh->pg[i], map, 1);
  free(map);
  sh->nst = n;
  if (sh->nat > 1 && collect_atoms(sh)) return -1;
  /* Collect again after max(live, GC_MIN, a granule per page) new states: the next
   * collection's work (states and granules scanned) stays proportional to the states made. */
  uint64_t more = sh->npg * NGRAN > GC_MIN ? sh->npg * NGRAN : GC_MIN;
  if (more < n) more = n;
  sh->gc_at = n + more > UINT32_MAX ? UINT32_MAX : (uint32_t)(n + more);
  return 0;
}

/* Do cells [i, j) all hold c[i]? The run compared with itself shifted by one cell: the C
 * library's memcmp runs at the host's full vector width. */
static int uniform(const uint32_t *c, uint64_t i, uint64_t j) {
  return j - i < 2 || !memcmp(c + i, c + i + 1, (j - i - 1) * sizeof *c);
}

/* Cells [i, j) = v (state indices stay below 2^31, so v fits a wchar_t where it is 32 bits
 * wide, and the C library's wmemset stores at full width). */
static void fill_cells(uint32_t *c, uint64_t i, uint64_t j, uint32_t v) {
  if (sizeof(wchar_t) == sizeof(uint32_t)) {
    wmemset((wchar_t *)(c + i), (wchar_t)v, j - i);
    return;
  }
  for (uint64_t q = i; q < j; q++) c[q] = v;
}

/* The granules of a page (expanding a uniform page); -1 when out of memory. */
static int expand(page *p) {
  if (p->gran) return 0;
  if (!(p->gran = malloc(NGRAN * sizeof *p->gran))) return -1;
  fill_cells(p->gran, 0, NGRAN, p->all);
  return 0;
}

/* Back to a uniform page in state v. */
static void collapse(page *p, uint32_t v) {
  free(p->gran);
  free(p->cell);
  p->gran = p->cell = NULL;
  p->all = v;
}

/* Bytes [i, j) of one granule of an expanded page = state v, not the whole granule: the
 * granule gets its own cells (split), and loses them again (merge) when they all end up
 * equal. */
static int set_part(page *p, uint64_t i, uint64_t j, uint32_t v) {
  uint32_t g = (uint32_t)(i >> GRAN_BITS);
  uint64_t gs = (uint64_t)g << GRAN_BITS;
  if (p->gran[g] == v) return 0;
  if (p->gran[g] != SPLIT) {
    if (!p->cell && !(p->cell = malloc(PAGE * sizeof *p->cell))) return -1;
    fill_cells(p->cell, gs, gs + GRAN, p->gran[g]);
    p->gran[g] = SPLIT;
  }
  fill_cells(p->cell, i, j, v);
  if (uniform(p->cell, gs, gs + GRAN)) p->gran[g] = v;
  return 0;
}

/* Bytes [i, j) of an expanded page = state v: the whole granules [a, b) take v, the partial
 * ones at either end go through set_part. */
static int set_run(page *p, uint64_t i, uint64_t j, uint32_t v) {
  uint64_t a = (i + GRAN - 1) & ~(uint64_t)(GRAN - 1), b = j & ~(uint64_t)(GRAN - 1);
  if (a > b) return set_part(p, i, j, v); /* inside one granule */
  if (i < a && set_part(p, i, a, v)) return -1;
  for (uint64_t g = a >> GRAN_BITS; g < b >> GRAN_BITS; g++) p->gran[g] = v;
  return b < j ? set_part(p, b, j, v) : 0;
}

/* The end of the run of bytes in state s from i (the first byte in [i, end) in another
 * state, or end), on an expanded page: a granule at a time, bytes only in split granules. */
static uint64_t run_end(const page *p, uint64_t i, uint64_t end, uint32_t s) {
  while (i < end) {
    uint64_t ge = (i | (GRAN - 1)) + 1;
    uint32_t g = p->gran[i >> GRAN_BITS];
    if (g != SPLIT) {
      if (g != s) return i;
      i = ge;
      continue;
    }
    for (; i < ge && i < end; i++)
      if (p->cell[i] != s) return i;
  }
  return end;
}

/* ---- transitions ------------------------------------------------------------------------ */

/* Is the earlier access at e unordered with `who`? Same pipe = program order. */
static int unordered(const pt_accessor *who, pt_epoch e) {
  if (!e) return 0;
  if (pt_epoch_block(e) == who->block && pt_epoch_agent(e) == who->agent) return 0;
  return !pt_clocks_ordered(who->k, who->block, who->agent, e);
}

static void flag(memo *m, pt_hazard h, uint32_t site) {
  if (m->hz_mask & (1u << h)) return;
  m->hz_mask |= (uint8_t)(1u << h);
  m->hz_site[h] = site;
}

/* The atomic writer set after `who`'s atomic read-modify-write of bytes whose set is
 * `from` (0: none): the writers `who` is not ordered after, only the newest NATOM - 1 of
 * them when more (the set is marked `lost`), then `who`. Returns its index, 0 when out of
 * memory. */
static uint32_t add_atomic(pt_shadow *sh, uint32_t from, const pt_accessor *who) {
  atoms *n = next_atoms(sh);
  if (!n) return 0;
  const atoms *s = from ? &sh->at[from] : NULL;
  uint32_t k = 0;
  n->lost = s && s->lost;
  for (uint32_t i = 0; s && i < s->n; i++) {
    if (!unordered(who, s->a[i])) continue;
    if (k == NATOM - 1) { /* full: the oldest goes */
      memmove(n->a, n->a + 1, (k - 1) * sizeof *n->a);
      memmove(n->site, n->site + 1, (k - 1) * sizeof *n->site);
      k--;
      n->lost = 1;
    }
    n->a[k] = s->a[i];
    n->site[k++] = s->site[i];
  }
  n->a[k] = who->epoch;
  n->site[k++] = who->site;
  n->n = (uint8_t)k;
  return sh->nat++;
}

/* A plain access of `who` must be ordered after every atomic writer of set `atom` too (h:
 * PT_HZ_RAW for a read, PT_HZ_WAW for a write). Out of line: most states have none. */
static void check_atomics(pt_shadow *sh, uint32_t atom, const pt_accessor *who, pt_hazard h, memo *m) {
  const atoms *a = &sh->at[atom];
  for (uint32_t i = 0; i < a->n; i++)
    if (unordered(who, a->a[i])) flag(m, h, a->site[i]);
  sh->unchecked += a->lost;
}

/* A write or an atomic of `who` must be ordered after the readers of s. */
static void check_readers(const state *s, const pt_accessor *who, memo *m) {
  for (uint32_t i = 0; i < s->nread; i++)
    if (unordered(who, s->r[i])) flag(m, PT_HZ_WAR, s->rsite[i]);
}

/* The state after `who` accesses bytes in state `from`, and the hazards found (written to m).
 * access: 1 read, 2 write, 4 atomic read-modify-write. A new state is written straight into
 * the table's next slot. */
static int transition(pt_shadow *sh, uint32_t from, int local, int access, const pt_accessor *who, memo *m) {
  state *n = next_state(sh);
  if (!n) return -1;
  const state *s = &sh->st[from];
  *m = (memo){.from = from, .local = (uint8_t)local};
  int never = local && (from == 0 || s->never);
  if (access == 2) {
    if (who->race) {
      if (unordered(who, s->w)) flag(m, PT_HZ_WAW, s->wsite);
      if (s->atom) check_atomics(sh, s->atom, who, PT_HZ_WAW, m);
      check_readers(s, who, m);
    }
    if (!sh->write_state) { /* field by field: the readers past nread are never read */
      n->w = who->epoch, n->wsite = who->site, n->origin = sh->op_origin;
      n->never = n->nread = 0;
      n->atom = 0;
      sh->write_state = sh->nst++;
    }
    m->to = sh->write_state;
    return 0;
  }
  /* a read, or an atomic (which reads the old bytes too) */
  if (who->init && never) flag(m, PT_HZ_INIT, 0);
  if (who->taint && local && from == 0) flag(m, PT_HZ_UNDEF, 0);
  uint32_t origin = never ? who->site : s->origin; /* of the bytes read */
  if (access == 4) { /* not checked against the other atomics; the new value depends on the old bytes and the op's reads */
    if (who->race) {
      if (unordered(who, s->w)) flag(m, PT_HZ_WAW, s->wsite);
      check_readers(s, who, m);
    }
    uint32_t atom = add_atomic(sh, s->atom, who), o = who->taint ? origin : 0;
    if (!atom) return -1;
    *n = *s;
    n->never = 0;
    n->origin = sh->op_origin && (!o || sh->op_origin < o) ? sh->op_origin : o;
    n->atom = atom;
    m->to = sh->nst++;
    return 0;
  }
  if (who->taint) m->origin = origin;
  if (who->race && unordered(who, s->w)) flag(m, PT_HZ_RAW, s->wsite);
  if (who->race && s->atom) check_atomics(sh, s->atom, who, PT_HZ_RAW, m);
  uint32_t k = 0;
  for (uint32_t i = 0; i < s->nread; i++) /* keep readers this read is not ordered after */
    if (unordered(who, s->r[i]) && k < NREAD - 1) {
      n->r[k] = s->r[i];
      n->rsite[k++] = s->rsite[i];
    }
  n->r[k] = who->epoch;
  n->rsite[k++] = who->site;
  n->nread = (uint8_t)k;
  n->w = s->w;
  n->wsite = s->wsite;
  n->origin = s->origin;
  n->never = (uint8_t)never;
  n->atom = s->atom;
  m->to = sh->nst++;
  return 0;
}

static void note_origin(pt_shadow *sh, uint32_t origin) {
  if (origin && (!sh->op_origin || origin < sh->op_origin)) sh->op_origin = origin;
}

/* The memoized transition of this op from `from`, or a new one in the next memo slot. */
static const memo *lookup(pt_shadow *sh, uint32_t from, int local, int access, const pt_accessor *who) {
  for (int i = sh->nmemo - 1; i >= 0; i--)
    if (sh->memo[i].from == from && sh->memo[i].local == local) {
      note_origin(sh, sh->memo[i].origin);
      return &sh->memo[i];
    }
  if (sh->nmemo == MEMO) sh->nmemo = 0;
  memo *m = &sh->memo[sh->nmemo];
  if (transition(sh, from, local, access, who, m)) return NULL;
  note_origin(sh, m->origin);
  sh->nmemo++;
  return m;
}

static void report(const pt_accessor *who, const memo *m, uint64_t addr, uint64_t len) {
  for (int h = 0; h < PT_HZ_COUNT; h++)
    if (m->hz_mask & (1u << h)) who->found(who->user, (pt_hazard)h, m->hz_site[h], addr, len);
}

/* One transition for bytes [addr, addr + len), all in state `from`, with its reports:
 * the state they go to (0: out of memory; new states are never 0). */
static uint32_t run_to(pt_shadow *sh, uint32_t from, int local, int access, const pt_accessor *who, uint64_t addr,
                       uint64_t len) {
  const memo *m = lookup(sh, from, local, access, who);
  if (!m) return 0;
  if (m->hz_mask) report(who, m, addr, len);
  return m->to;
}

/* The general path, on an expanded page: one transition per run of equal states. */
static int access_runs(pt_shadow *sh, page *p, uint64_t base, uint64_t off, uint64_t n, int local, int access,
                       const pt_accessor *who) {
  for (uint64_t i = off, end = off + n; i < end;) {
    uint32_t from = state_at(p, i);
    uint64_t j = run_end(p, i + 1, end, from);
    uint32_t to = run_to(sh, from, local, access, who, base + i, j - i);
    if (!to || set_run(p, i, j, to)) return -1;
    i = j;
  }
  return 0;
}

/* The state of granules [g, e) of an expanded page when they all have the same one (none
 * split), else SPLIT. */
static uint32_t granules_state(const page *p, uint64_t g, uint64_t e) {
  uint32_t s = p->gran[g];
  while (++g < e)
    if (p->gran[g] != s) return SPLIT;
  return s;
}

/* Apply the access to bytes [off, off + n) of page p (at memory address base + off). The
 * common cases take one transition: a uniform page accessed whole, whole granules in one
 * state. */
static int access_page(pt_shadow *sh, page *p, uint64_t base, uint64_t off, uint64_t n, int local, int access,
                       const pt_accessor *who) {
  if (!p->gran && n == PAGE) return (p->all = run_to(sh, p->all, local, access, who, base, PAGE)) ? 0 : -1;
  if (expand(p)) return -1;
  uint64_t g = off >> GRAN_BITS, e = (off + n) >> GRAN_BITS;
  uint32_t from = (off | n) & (GRAN - 1) ? SPLIT : granules_state(p, g, e), to = 0;
  int r = 0;
  if (from == SPLIT) r = access_runs(sh, p, base, off, n, local, access, who);
  else if ((to = run_to(sh, from, local, access, who, base + off, n)))
    for (; g < e; g++) p->gran[g] = to;
  else r = -1;
  if (access == 2 && n == PAGE) collapse(p, sh->write_state); /* a whole-page write: uniform again */
  return r;
}

int pt_shadow_access(pt_shadow *sh, uint32_t mem, int local, uint64_t addr, uint64_t len, int access,
                     const pt_accessor *who) {
  /* Reads, writes and atomics of one op memoize separately: a write's memo maps to its own state. */
  if (access != 1) sh->nmemo = 0;
  while (len) {
    uint64_t off = addr & (PAGE - 1), n = PAGE - off < len ? PAGE - off : len;
    page *p = find_page(sh, mem, addr >> PAGE_BITS);
    if (!p || access_page(sh, p, addr - off, off, n, local, access, who)) return -1;
    addr += n;
    len -= n;
  }
  if (access != 1) sh->nmemo = 0;
  return 0;
}

int pt_shadow_host_write(pt_shadow *sh, uint32_t mem, uint64_t addr, uint64_t len) {
  while (len) {
    uint64_t off = addr & (PAGE - 1), n = PAGE - off < len ? PAGE - off : len;
    page *p = find_page(sh, mem, addr >> PAGE_BITS);
    if (!p) return -1;
    if (n == PAGE) collapse(p, 1);
    else if (expand(p) || set_run(p, off, off + n, 1)) return -1;
    addr += n;
    len -= n;
  }
  return 0;
}
