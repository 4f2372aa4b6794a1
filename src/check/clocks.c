/* The synchronization model (see clocks.h). */
#include "check/clocks.h"

#include <stdlib.h>
#include <string.h>

#define NP PTOSIM_PIPE_COUNT

/* Entry BAR: the newest pto.syncall round (its machine-wide id) the agent has left or
 * heard of; it orders accesses of other blocks (see pt_clocks_ordered). */
#define BAR PT_NAGENT
typedef struct vclock {
  uint32_t c[PT_NAGENT + 1];
} vclock;

/* What a signal carries: the sender's knowledge and time, and a flow id for traces. */
typedef struct stamp {
  vclock vc;
  uint64_t t;
  uint32_t flow;
} stamp;

/* A signal sent and not consumed yet, keyed by flag or semaphore (few at any time). */
typedef struct pending {
  uint32_t key;
  stamp s;
} pending;

typedef struct block_clocks {
  vclock vc[PT_NAGENT];
  uint64_t t[PT_NAGENT];
  /* Changes of each core's S clock, and the count agent a has joined: when they are equal
   * a's clock already contains S's (clocks only grow), so issuing to a joins nothing. */
  uint32_t s_gen[3], s_seen[PT_NAGENT];
  stamp token[3][PTOSIM_BUF_IDS];
  pending *pend; /* in sending order */
  int npend, cap_pend;
} block_clocks;

static uint32_t flag_key(int kind, const pt_sync *y) {
  return (uint32_t)kind << 16 | (uint32_t)y->a << 12 | (uint32_t)y->b << 8 | (uint32_t)y->id;
}
static uint32_t sema_key(int kind, int64_t id) { return 0x80000000u | (uint32_t)kind << 8 | (uint32_t)id; }

/* A pto.syncall round: per block, what its participants knew when they arrived (joined),
 * and the latest time one arrived. */
typedef struct round {
  vclock *vc; /* blocks entries, allocated on the round's first arrival */
  uint64_t t;
} round;

struct pt_clocks {
  int blocks;
  block_clocks **b; /* allocated on first use */
  uint32_t next_flow;
  round *rounds; /* by id (index 0 unused) */
  uint32_t nrounds;
};

pt_clocks *pt_clocks_new(int blocks) {
  pt_clocks *k = calloc(1, sizeof *k);
  if (!k) return NULL;
  k->blocks = blocks;
  k->b = calloc((size_t)blocks, sizeof *k->b);
  if (!k->b) {
    free(k);
    return NULL;
  }
  return k;
}

void pt_clocks_free(pt_clocks *k) {
  if (!k) return;
  for (int i = 0; i < k->blocks; i++) {
    if (k->b[i]) free(k->b[i]->pend);
    free(k->b[i]);
  }
  for (uint32_t r = 0; r < k->nrounds; r++) free(k->rounds[r].vc);
  free(k->rounds);
  free(k->b);
  free(k);
}

static void join(vclock *d, const vclock *s) {
  for (int i = 0; i <= BAR; i++)
    if (s->c[i] > d->c[i]) d->c[i] = s->c[i];
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void push(block_clocks *bc, uint32_t key, const stamp *s) {
  if (bc->npend == bc->cap_pend) {
    int cap = bc->cap_pend ? bc->cap_pend * 2 : 8;
    pending *n = realloc(bc->pend, (size_t)cap * sizeof *n);
    if (!n) return; /* the wait then joins nothing: a possible false race, never a crash */
    bc->pend = n;
    bc->cap_pend = cap;
  }
  bc->pend[bc->npend++] = (pending){key, *s};
}

/* The oldest pending signal of `key` (the machine refuses a wait with none, so one exists
 * unless the monitor was attached after the set: then an empty stamp). */
static stamp pop(block_clocks *bc, uint32_t key) {
  stamp s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < bc->npend; i++)
    if (bc->pend[i].key == key) {
      s = bc->pend[i].s;
      memmove(bc->pend + i, bc->pend + i + 1, (size_t)(--bc->npend - i) * sizeof *bc->pend);
      break;
    }
  return s;
}

/* Pipe a of the core takes an op issued by S: it learns what S knows and starts when both
 * are ready. Returns the start time. */
static uint64_t issue_to(block_clocks *bc, int base, int a) {
  int s = base + PTOSIM_PIPE_S;
  uint32_t gen = bc->s_gen[base / NP];
  if (a != s && bc->s_seen[a] != gen) {
    join(&bc->vc[a], &bc->vc[s]);
    bc->s_seen[a] = gen;
  }
  return max64(bc->t[a], bc->t[s]);
}

/* Agent a's clock changed: note it when a is an S pipe. */
static void changed(block_clocks *bc, int a) {
  if (a % NP == PTOSIM_PIPE_S) bc->s_gen[a / NP]++;
}

static void finish(block_clocks *bc, int block, int a, uint64_t start, uint64_t dur, pt_step *out) {
  bc->vc[a].c[a]++;
  changed(bc, a);
  bc->t[a] = start + dur;
  out->agent = a;
  out->epoch = pt_epoch_make(block, a, bc->vc[a].c[a]);
  out->start = start;
  out->end = start + dur;
}

static stamp stamp_of(pt_clocks *k, block_clocks *bc, int a) {
  stamp s = {.vc = bc->vc[a], .t = bc->t[a], .flow = ++k->next_flow};
  return s;
}

/* Join a signal into pipe a (or every pipe of the core when all): returns the stall. */
static uint64_t receive(block_clocks *bc, int base, int a, int all, const stamp *s, uint64_t ready) {
  uint64_t after = max64(ready, s->t);
  for (int p = all ? 0 : a - base; p < (all ? NP : a - base + 1); p++) {
    join(&bc->vc[base + p], &s->vc);
    changed(bc, base + p);
    bc->t[base + p] = max64(bc->t[base + p], after);
  }
  return after - ready;
}

/* Round id (NULL when out of memory: the barrier then orders nothing, a possible false
 * race, never a crash). */
static round *round_of(pt_clocks *k, int64_t id) {
  if (id <= 0 || id > UINT32_MAX - 1) return NULL;
  if ((uint32_t)id >= k->nrounds) {
    uint32_t n = (uint32_t)id + 1 > 2 * k->nrounds ? (uint32_t)id + 1 : 2 * k->nrounds;
    round *r = realloc(k->rounds, (size_t)n * sizeof *r);
    if (!r) return NULL;
    memset(r + k->nrounds, 0, (size_t)(n - k->nrounds) * sizeof *r);
    k->rounds = r;
    k->nrounds = n;
  }
  round *r = &k->rounds[id];
  if (!r->vc && !(r->vc = calloc((size_t)k->blocks, sizeof *r->vc))) return NULL;
  return r;
}

/* What every pipe of the core knows and the time all are done (barrier(PIPE_ALL)). */
static stamp drained(const block_clocks *bc, int base) {
  stamp all = {.t = 0};
  for (int p = 0; p < NP; p++) {
    join(&all.vc, &bc->vc[base + p]);
    all.t = max64(all.t, bc->t[base + p]);
  }
  return all;
}

void pt_clocks_step(pt_clocks *k, const pt_event *ev, uint64_t dur, uint64_t issue, pt_step *out) {
  const ptosim_core *c = ev->core;
  memset(out, 0, sizeof *out);
  if (c->block < 0 || c->block >= k->blocks) return;
  block_clocks *bc = k->b[c->block];
  if (!bc && !(bc = k->b[c->block] = calloc(1, sizeof *bc))) return;
  int kind = (int)c->kind, base = kind * NP, s = base + PTOSIM_PIPE_S;
  const pt_sync *y = &ev->sync;
  bc->t[s] += issue;
  int a = base + (int)ev->pipe;
  uint64_t start = issue_to(bc, base, a);
  switch (y->kind) {
  case PT_SYNC_NONE: break;
  case PT_SYNC_SET_FLAG: {
    finish(bc, c->block, a, start, dur, out);
    stamp st = stamp_of(k, bc, a);
    out->flow_out = st.flow;
    push(bc, flag_key(kind, y), &st);
    return;
  }
  case PT_SYNC_WAIT_FLAG: {
    stamp st = pop(bc, flag_key(kind, y));
    out->stall = receive(bc, base, a, 0, &st, start);
    out->flow_in = st.flow;
    start = bc->t[a];
    break;
  }
  case PT_SYNC_BARRIER:
    if (y->a == PTOSIM_PIPE_ALL) {
      stamp all = drained(bc, base);
      out->stall = receive(bc, base, a, 1, &all, start);
      start = bc->t[a];
    }
    break;
  case PT_SYNC_ALL_ARRIVE: { /* the core drains, then its knowledge joins the round's */
    stamp all = drained(bc, base);
    out->stall = receive(bc, base, a, 1, &all, start);
    start = bc->t[a];
    round *r = round_of(k, y->id);
    if (r) {
      join(&r->vc[c->block], &bc->vc[a]);
      r->t = max64(r->t, bc->t[a]);
    }
    break;
  }
  case PT_SYNC_ALL_DEPART: { /* every pipe learns its block's arrivals and the round */
    round *r = round_of(k, y->id);
    if (!r) break;
    stamp st = {.vc = r->vc[c->block], .t = r->t};
    st.vc.c[BAR] = st.vc.c[BAR] > (uint32_t)y->id ? st.vc.c[BAR] : (uint32_t)y->id;
    out->stall = receive(bc, base, a, 1, &st, start);
    start = bc->t[a];
    break;
  }
  case PT_SYNC_GET_BUF:
    if (y->mode == 0) {
      out->stall = receive(bc, base, a, 0, &bc->token[kind][y->id], start);
      start = bc->t[a];
    }
    break;
  case PT_SYNC_RLS_BUF: {
    finish(bc, c->block, a, start, dur, out);
    stamp *tok = &bc->token[kind][y->id];
    /* mode 0 releases for this pipe only; mode 1 waits for every pipe of the core. */
    for (int p = y->mode ? 0 : (int)ev->pipe; p < (y->mode ? NP : (int)ev->pipe + 1); p++) {
      join(&tok->vc, &bc->vc[base + p]);
      tok->t = max64(tok->t, bc->t[base + p]);
    }
    return;
  }
  case PT_SYNC_MEM_BAR:
    if (y->id >= PTOSIM_MB_VS_ALL && y->id <= PTOSIM_MB_VST_ST) {
      stamp v = {.vc = bc->vc[base + PTOSIM_PIPE_V], .t = bc->t[base + PTOSIM_PIPE_V]};
      out->stall = receive(bc, base, s, 0, &v, bc->t[s]);
    }
    break;
  case PT_SYNC_CORE_SET: {
    finish(bc, c->block, a, start, dur, out);
    stamp st = stamp_of(k, bc, a);
    out->flow_out = st.flow;
    push(bc, sema_key(y->peer ? (int)y->peer->kind : 0, y->id), &st);
    return;
  }
  case PT_SYNC_CORE_WAIT: {
    stamp st = pop(bc, sema_key(kind, y->id));
    out->stall = receive(bc, base, a, y->a == PTOSIM_PIPE_ALL, &st, start);
    out->flow_in = st.flow;
    start = bc->t[a];
    break;
  }
  }
  finish(bc, c->block, a, start, dur, out);
}

/* Another block's access is ordered when it happened before that block's participants
 * arrived at the newest syncall round the agent knows (rounds of one barrier only grow). */
int pt_clocks_ordered(const pt_clocks *k, int block, int agent, pt_epoch e) {
  if (block < 0 || block >= k->blocks || !k->b[block]) return 0;
  const vclock *v = &k->b[block]->vc[agent];
  int eb = pt_epoch_block(e);
  if (eb == block) return (uint32_t)e <= v->c[pt_epoch_agent(e)];
  uint32_t g = v->c[BAR];
  if (!g || g >= k->nrounds || !k->rounds[g].vc || eb >= k->blocks) return 0;
  return (uint32_t)e <= k->rounds[g].vc[eb].c[pt_epoch_agent(e)];
}

uint64_t pt_clocks_time(const pt_clocks *k, int block, int agent) {
  return block >= 0 && block < k->blocks && k->b[block] ? k->b[block]->t[agent] : 0;
}

uint64_t pt_clocks_makespan(const pt_clocks *k) {
  uint64_t m = 0;
  for (int b = 0; b < k->blocks; b++)
    for (int a = 0; k->b[b] && a < PT_NAGENT; a++) m = max64(m, k->b[b]->t[a]);
  return m;
}
