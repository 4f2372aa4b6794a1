/* The eager schedule: each op runs when its pipe would run it on the chip, not when the
 * scalar unit issues it, so a missing flag gives the wrong numbers hardware could give.
 *
 * Every op is first executed at issue as a dry run: its event goes to the monitor, whose
 * timeline (clocks.c, cost model) gives its start and end in cycles, and the undo log
 * (core/undo.h) takes its writes back out of memory. An op that wrote nothing is done
 * then (sync ops, register writes, ops that only read). Any other op is queued with a
 * copy of its parameters and of the core's special registers as issued, and later runs
 * again for real at its start time: it reads memory as it is at `start`, and its writes
 * are held back and land at `end`. A queued item at time t is processed once no core
 * can still issue anything earlier: every later op of a core starts no earlier than the
 * core's scalar unit has reached (its S time), so items before the least S time of the
 * cores still running are final. Writes landing at t come before runs starting at t;
 * items at the same time keep issue order. Scalar loads and stores (pipe S) run at issue,
 * after everything up to their start time. An op with an atomic read-modify-write of GM
 * (pt_range access PT_ATOMIC) runs at its end and lands at once: memory performs each
 * atomic update indivisibly, so two unordered atomics of the same bytes both count (run at
 * their start, the later to land would overwrite the other's update with a sum that
 * missed it).
 *
 * For a correctly synchronized program this gives the program-order results: whatever
 * orders two ops in the timeline also orders them here. Without a flag, a reader whose
 * pipe starts before the writer's data lands reads the old bytes (RAW), a writer landing
 * while the reader still waits for its pipe changes what it reads (WAR), and of two
 * writes the later to finish wins (WAW). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check/monitor_impl.h"
#include "core/diag.h"
#include "core/mem.h"
#include "core/sched.h"
#include "core/undo.h"
#include "isa/isa.h"
#include "isa/park.h"

typedef struct item {
  uint64_t t;    /* cycles: start (run) or end (land) */
  uint64_t seq;  /* issue order */
  int land;      /* 0: run the op at t; 1: land its writes w at t */
  uint64_t end;  /* run: when its writes land */
  ptosim_core *core;
  ptosim_opcode op;
  ptosim_loc loc;
  uint64_t sreg[PT_SREG_COUNT]; /* the core's special registers when the op was issued */
  pt_vspr vspr;                 /* its vector special registers before the op's dry run */
  pt_bytes w;
  _Alignas(max_align_t) unsigned char params[];
} item;

struct pt_sched {
  ptosim_monitor *mon;
  item **heap; /* min-heap by (t, land before run, seq) */
  size_t n, cap;
  uint64_t seq;
  uint8_t *active; /* per core: issued an op since the last drain and has not returned */
  pt_undo undo;
};

static int before(const item *a, const item *b) {
  if (a->t != b->t) return a->t < b->t;
  if (a->land != b->land) return a->land;
  return a->seq < b->seq;
}

static int push(pt_sched *s, item *it) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    item **h = realloc(s->heap, cap * sizeof *h);
    if (!h) return -1;
    s->heap = h;
    s->cap = cap;
  }
  size_t i = s->n++;
  for (; i && before(it, s->heap[(i - 1) / 2]); i = (i - 1) / 2) s->heap[i] = s->heap[(i - 1) / 2];
  s->heap[i] = it;
  return 0;
}

static item *pop(pt_sched *s) {
  item *top = s->heap[0], *last = s->heap[--s->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= s->n) break;
    if (c + 1 < s->n && before(s->heap[c + 1], s->heap[c])) c++;
    if (!before(s->heap[c], last)) break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  if (s->n) s->heap[i] = last;
  return top;
}

static ptosim_status no_memory(pt_ctx *x, const char *what) {
  return pt_fail(x, PTOSIM_E_NOMEM, "sched.memory", "run without --schedule=eager", "out of memory for %s", what);
}

static void free_item(item *it) {
  pt_bytes_free(&it->w);
  free(it);
}

/* Run a queued op for real with the registers it was issued with; its writes become a
 * land item at its end time. */
static ptosim_status run_item(pt_sched *s, item *it) {
  ptosim_machine *m = s->mon->m;
  pt_ctx x = {.m = m, .core = it->core, .op = it->op, .loc = it->loc};
  uint64_t now[PT_SREG_COUNT];
  memcpy(now, it->core->sreg, sizeof now);
  memcpy(it->core->sreg, it->sreg, sizeof now);
  pt_vspr vnow = it->core->vspr;
  it->core->vspr = it->vspr;
  m->undo = &s->undo;
  ptosim_status st = pt_exec_body(&x, it->params);
  m->undo = NULL;
  memcpy(it->core->sreg, now, sizeof now);
  it->core->vspr = vnow;
  if (pt_undo_take(&s->undo, &it->w) && st == PTOSIM_OK) st = no_memory(&x, "the writes in flight");
  if (st != PTOSIM_OK) {
    free_item(it);
    return st;
  }
  it->land = 1;
  it->t = it->end;
  if (push(s, it)) {
    free_item(it);
    return no_memory(&x, "the writes in flight");
  }
  return PTOSIM_OK;
}

/* Process every item before `limit` (at or before it when `inclusive`). */
static ptosim_status advance(pt_sched *s, uint64_t limit, int inclusive) {
  while (s->n && (s->heap[0]->t < limit || (inclusive && s->heap[0]->t == limit))) {
    item *it = pop(s);
    if (it->land) {
      pt_bytes_apply(&it->w);
      free_item(it);
      continue;
    }
    PT_TRY(run_item(s, it));
  }
  return PTOSIM_OK;
}

static int core_index(const pt_sched *s, const ptosim_core *c) { return (int)(c - s->mon->m->cores); }

/* The least S time of the cores still issuing: nothing can be issued before it. */
static uint64_t horizon(const pt_sched *s) {
  const ptosim_machine *m = s->mon->m;
  uint64_t h = UINT64_MAX;
  for (int i = 0; i < m->blocks * 3; i++) {
    if (!s->active[i]) continue;
    const ptosim_core *c = &m->cores[i];
    uint64_t t = pt_clocks_time(s->mon->k, c->block, pt_agent_of(c, PTOSIM_PIPE_S));
    if (t < h) h = t;
  }
  return h;
}

/* The dry run at issue: the op's event reaches the monitor (mon->last is its step). */
static ptosim_status dry_run(pt_sched *s, pt_ctx *x, const void *params, pt_event *ev) {
  s->mon->m->undo = &s->undo;
  ptosim_status st = pt_exec_recorded(x, params, ev);
  s->mon->m->undo = NULL;
  return st;
}

ptosim_status pt_sched_exec(pt_sched *s, pt_ctx *x, const void *params) {
  pt_event ev;
  pt_vspr vspr = x->core->vspr; /* the dry run may advance AR: the real run starts from here */
  ptosim_status st = dry_run(s, x, params, &ev);
  if (st != PTOSIM_OK && st != PTOSIM_BLOCKED && st != PT_E_PARKED && s->n) {
    /* An address read from memory (a gather's indices) may come from an op still queued:
     * land everything and try once more. */
    pt_undo_restore(&s->undo);
    PT_TRY(advance(s, UINT64_MAX, 1));
    st = dry_run(s, x, params, &ev);
  }
  if (st == PTOSIM_OK && s->undo.oom) st = no_memory(x, "the writes in flight");
  if (st != PTOSIM_OK) {
    pt_undo_restore(&s->undo);
    return st;
  }
  s->active[core_index(s, x->core)] = 1;
  const pt_step *step = &s->mon->last;
  int scalar = x->op == PTOSIM_OP_load_scalar || x->op == PTOSIM_OP_store_scalar; /* its value lives in the interpreter */
  if ((ev.pipe == PTOSIM_PIPE_S || scalar) && ev.nranges) {
    /* A scalar access happens at issue, after everything that lands before it. */
    pt_undo_restore(&s->undo);
    PT_TRY(advance(s, step->start, 1));
    return pt_exec_body(x, params);
  }
  if (s->undo.np) {
    pt_undo_restore(&s->undo);
    int atomic = 0;
    for (int i = 0; i < ev.nranges; i++) atomic |= (ev.ranges[i].access & PT_ATOMIC) != 0;
    size_t size = pt_op_params_size(x->op);
    item *it = calloc(1, sizeof *it + size);
    if (!it) return no_memory(x, "the op queue");
    *it = (item){.t = atomic ? step->end : step->start, .seq = s->seq++, .end = step->end, .core = x->core, .op = x->op, .loc = x->loc};
    memcpy(it->sreg, x->core->sreg, sizeof it->sreg);
    it->vspr = vspr;
    memcpy(it->params, params, size);
    if (push(s, it)) {
      free(it);
      return no_memory(x, "the op queue");
    }
  }
  return advance(s, horizon(s), 0);
}

void pt_sched_core_done(pt_sched *s, const ptosim_core *c) { s->active[core_index(s, c)] = 0; }

ptosim_status pt_sched_drain(pt_sched *s) {
  memset(s->active, 0, (size_t)s->mon->m->blocks * 3);
  return advance(s, UINT64_MAX, 1);
}

const pt_sched_ops pt_eager_ops = {pt_sched_exec, pt_sched_core_done, pt_sched_drain};

pt_sched *pt_sched_new(ptosim_monitor *mon) {
  pt_sched *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->mon = mon;
  s->active = calloc((size_t)mon->m->blocks * 3, 1);
  if (!s->active) {
    free(s);
    return NULL;
  }
  return s;
}

void pt_sched_free(pt_sched *s) {
  if (!s) return;
  while (s->n) free_item(pop(s));
  free(s->heap);
  free(s->active);
  pt_bytes_free(&s->undo);
  free(s);
}
