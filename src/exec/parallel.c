/* Blocks on host threads, with the bits of the sequential block order.
 *
 * Blocks share nothing but GM: each has its own cores, local memories and registers, and
 * the interpreter runs the cores of one block in a fixed turn order. So the order of the
 * blocks is observable only through GM bytes that one block writes and another block
 * reads or writes (GM atomics such as FIXPIPE / TSTORE atomic add are such accesses:
 * they read and write). Which bytes a block touches depends on values computed while it
 * runs, so it cannot be known before; the run is therefore speculative:
 *
 *   1. save the GM buffers and, per block, its cores and the prefix of each local space
 *      that may be non-zero (ptosim_core.used; on a fresh machine nothing);
 *   2. run the blocks on a small pool of threads (the caller's thread and threads-1
 *      workers taking the next block index from a counter). Each worker runs its block
 *      against a private view of the machine (pt_machine_view: own diagnostic, op count,
 *      listener), whose listener records the GM ranges every op accessed and grows the
 *      used prefixes of the local spaces it wrote;
 *   3. check the recorded ranges byte-exactly: if no byte written by one block was read
 *      or written by another, every block saw exactly the GM it would have seen in the
 *      sequential order, so the result is the sequential one; the op counts are added up;
 *   4. otherwise, or when a block faulted (the sequential run reports the fault of the
 *      lowest block and stops there), an op recorded more ranges than an event holds, or
 *      memory ran out: put GM and the blocks back as saved, and the caller runs the
 *      blocks sequentially. The machine remembers the program, so that its next runs
 *      on this machine skip the attempt (its bits are the same either way).
 * Deferring and ordering the conflicting effects instead was rejected: op bodies write
 * GM in place, so it would take a write buffer in the accessor layer for every op.
 * Runs with a listener (checkers, cost model, trace) or the eager schedule stay
 * sequential: they observe the interleaving of all blocks' ops. During a speculative
 * run that turns out to conflict, two threads may have copied the same GM bytes at once;
 * those bytes are then put back and recomputed. */
#include "exec/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/machine.h"
#include "core/mem.h"

/* Most written GM pieces the conflict check expands (24 bytes each); beyond: sequential. */
#define SPANS_MAX (1u << 21)
#define THREADS_MAX 256

int pt_host_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : (int)n;
}

/* One GM access of block blk. */
typedef struct gm_acc {
  int32_t blk;
  pt_range r;
} gm_acc;

typedef struct blk_rec {
  size_t off;      /* of the saved block in m->saved */
  uint8_t ran;
  uint8_t unknown; /* wrote bytes no event recorded (a fault or an event overflow) */
} blk_rec;

/* A piece of GM to save: host bytes [host, host + len) go to saved + off. */
typedef struct gm_chunk {
  uint8_t *host;
  size_t off, len;
} gm_chunk;

typedef struct par_run par_run;

typedef struct worker {
  par_run *run;
  ptosim_machine view;
  pt_block_scratch scr;
  gm_acc *acc;
  size_t nacc, cap_acc;
  int blk; /* the block being run */
  int oom;
  pthread_t tid;
} worker;

struct par_run {
  const ptosim_program *p;
  ptosim_machine *m;
  const ptosim_arg *args;
  worker *w;
  blk_rec *rec;
  gm_chunk *chunk;
  int nchunks;
  atomic_int next_chunk; /* next GM chunk to save */
  int chunks_done;       /* under `lock`; blocks start when all are saved */
  pthread_mutex_t lock;
  pthread_cond_t saved;
  atomic_int next; /* next block to run */
  atomic_int stop; /* give up: the run goes sequential */
};

/* Grow *buf (element size es) to hold n elements; 0, or -1 when out of memory. */
static int reserve(void **buf, size_t *cap, size_t n, size_t es) {
  if (n <= *cap) return 0;
  size_t c = *cap ? *cap : 64;
  while (c < n) c *= 2;
  void *b = realloc(*buf, c * es);
  if (!b) return -1;
  *buf = b;
  *cap = c;
  return 0;
}

/* One past the last byte of a range (addr if it is empty). */
static uint64_t range_end(const pt_range *r) {
  uint64_t end = r->addr + r->len;
  for (int i = 0; i < r->nd; i++) {
    if (r->count[i] <= 0) return r->addr;
    end += (uint64_t)(r->count[i] - 1) * (uint64_t)r->stride[i];
  }
  return r->len ? end : r->addr;
}

/* ---- step 2: the workers ------------------------------------------------------------------- */

/* The listener of a worker's view: GM ranges to the access list, local writes to the
 * used prefixes of their owner (a core of the worker's block). */
static void track(void *user, const pt_event *ev) {
  worker *w = user;
  if (ev->overflow) {
    w->run->rec[w->blk].unknown = 1;
    atomic_store(&w->run->stop, 1);
  }
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    if (r->space != PTOSIM_GM) {
      uint64_t end = range_end(r);
      ptosim_core *o = (ptosim_core *)r->owner;
      if ((r->access & PT_WRITE) && end > o->used[r->space]) o->used[r->space] = end;
      continue;
    }
    if (reserve((void **)&w->acc, &w->cap_acc, w->nacc + 1, sizeof *w->acc)) {
      w->oom = 1;
      atomic_store(&w->run->stop, 1);
      return;
    }
    w->acc[w->nacc++] = (gm_acc){.blk = w->blk, .r = *r};
  }
}

/* Step 1 for GM, shared by the workers: no block runs before all of GM is saved. */
static void save_gm(par_run *r) {
  int i, n = 0;
  while ((i = atomic_fetch_add(&r->next_chunk, 1)) < r->nchunks) {
    memcpy(r->m->saved + r->chunk[i].off, r->chunk[i].host, r->chunk[i].len);
    n++;
  }
  pthread_mutex_lock(&r->lock);
  if ((r->chunks_done += n) == r->nchunks) pthread_cond_broadcast(&r->saved);
  while (r->chunks_done < r->nchunks) pthread_cond_wait(&r->saved, &r->lock);
  pthread_mutex_unlock(&r->lock);
}

static void *work(void *arg) {
  worker *w = arg;
  par_run *r = w->run;
  ptosim_machine *m = r->m;
  save_gm(r);
  while (!atomic_load(&r->stop)) {
    int b = atomic_fetch_add(&r->next, 1);
    if (b >= m->blocks) break;
    blk_rec *rec = &r->rec[b];
    pt_block_save(m, b, m->saved + rec->off);
    rec->ran = 1;
    w->blk = b;
    pt_block_bind(m, b, &w->view);
    ptosim_status st = pt_run_block(r->p, &w->view, b, r->args, &w->scr);
    pt_block_bind(m, b, m);
    if (st != PTOSIM_OK) {
      rec->unknown = 1;
      atomic_store(&r->stop, 1);
    }
  }
  return NULL;
}

/* ---- step 3: the conflict check ------------------------------------------------------------ */

typedef struct span {
  uint64_t lo, hi;
  int32_t blk;
} span;

typedef struct spans {
  span *s;
  size_t n, cap;
  int32_t blk; /* of the pieces being added */
} spans;

static int add_span(void *u, uint64_t addr, uint64_t len) {
  spans *v = u;
  if (v->n == SPANS_MAX || reserve((void **)&v->s, &v->cap, v->n + 1, sizeof *v->s)) return -1;
  v->s[v->n++] = (span){addr, addr + len, v->blk};
  return 0;
}

static int by_lo(const void *a, const void *b) {
  const span *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The GM bytes written, as sorted disjoint spans of one block each. -1 when two blocks
 * wrote the same byte or there are too many pieces. */
static int written(const par_run *r, int nw, spans *out) {
  for (int k = 0; k < nw; k++)
    for (size_t i = 0; i < r->w[k].nacc; i++) {
      const gm_acc *a = &r->w[k].acc[i];
      if (!(a->r.access & PT_WRITE)) continue;
      out->blk = a->blk;
      if (pt_each_piece(a->r.addr, a->r.nd, a->r.count, a->r.stride, a->r.len, add_span, out)) return -1;
    }
  qsort(out->s, out->n, sizeof *out->s, by_lo);
  size_t n = 0;
  for (size_t i = 0; i < out->n; i++) {
    span p = out->s[i];
    span *last = n ? &out->s[n - 1] : NULL;
    if (last && p.lo <= last->hi && p.blk == last->blk) {
      if (p.hi > last->hi) last->hi = p.hi;
    } else if (last && p.lo < last->hi) {
      return -1; /* overlaps what another block wrote */
    } else {
      out->s[n++] = p;
    }
  }
  out->n = n;
  return 0;
}

/* 1 if bytes [lo, hi) meet a written span of a block other than blk. */
static int foreign(const spans *w, uint64_t lo, uint64_t hi, int32_t blk) {
  size_t a = 0, b = w->n; /* first span with hi > lo */
  while (a < b) {
    size_t mid = a + (b - a) / 2;
    if (w->s[mid].hi <= lo) a = mid + 1;
    else b = mid;
  }
  for (; a < w->n && w->s[a].lo < hi; a++)
    if (w->s[a].blk != blk) return 1;
  return 0;
}

typedef struct read_ctx {
  const spans *w;
  int32_t blk;
} read_ctx;

static int read_piece(void *u, uint64_t addr, uint64_t len) {
  read_ctx *c = u;
  return foreign(c->w, addr, addr + len, c->blk) ? -1 : 0;
}

/* 1 if a byte one block wrote was read or written by another. Reads whose bounding box
 * meets no other block's writes (the common case: inputs) are not expanded. */
static int conflict(const par_run *r, int nw) {
  spans w = {0};
  int bad = written(r, nw, &w) != 0;
  for (int k = 0; k < nw && !bad; k++)
    for (size_t i = 0; i < r->w[k].nacc && !bad; i++) {
      const gm_acc *a = &r->w[k].acc[i];
      if (!(a->r.access & PT_READ) || !foreign(&w, a->r.addr, range_end(&a->r), a->blk)) continue;
      read_ctx c = {&w, a->blk};
      bad = pt_each_piece(a->r.addr, a->r.nd, a->r.count, a->r.stride, a->r.len, read_piece, &c) != 0;
    }
  free(w.s);
  return bad;
}

/* ---- step 1: what is saved where ----------------------------------------------------------- */

#define CHUNK (256u << 10) /* bytes of GM one worker saves at a time */

/* Lay out m->saved: the GM buffers one after the other, cut in chunks, then each block's
 * state. Returns the bytes needed, 0 when out of memory. */
static size_t plan_saved(par_run *r) {
  ptosim_machine *m = r->m;
  size_t off = 0, n = 0;
  for (int i = 0; i < m->ngm; i++) n += ((size_t)m->gm[i].size + CHUNK - 1) / CHUNK;
  if (!(r->chunk = malloc((n + 1) * sizeof *r->chunk))) return 0;
  for (int i = 0; i < m->ngm; i++)
    for (size_t at = 0; at < m->gm[i].size; at += CHUNK) {
      size_t len = m->gm[i].size - at < CHUNK ? (size_t)(m->gm[i].size - at) : CHUNK;
      r->chunk[r->nchunks++] = (gm_chunk){.host = m->gm[i].host + at, .off = off, .len = len};
      off += len;
    }
  for (int b = 0; b < m->blocks; b++) {
    r->rec[b].off = off;
    off += pt_block_state_size(m, b);
  }
  return off + 1;
}

/* Step 4: GM and the blocks that ran as saved. */
static void restore(par_run *r) {
  ptosim_machine *m = r->m;
  for (int i = 0; i < r->nchunks; i++) memcpy(r->chunk[i].host, m->saved + r->chunk[i].off, r->chunk[i].len);
  for (int b = 0; b < m->blocks; b++)
    if (r->rec[b].ran) pt_block_restore(m, b, m->saved + r->rec[b].off, r->rec[b].unknown);
}

/* ---- the driver ------------------------------------------------------------------------------ */

static void run_free(par_run *r, int nw) {
  for (int k = 0; k < nw; k++) {
    pt_block_scratch_free(&r->w[k].scr);
    free(r->w[k].acc);
  }
  free(r->w);
  free(r->rec);
  free(r->chunk);
}

ptosim_status pt_run_parallel(const ptosim_program *p, ptosim_machine *m, const ptosim_arg *args, int threads) {
  if (threads <= 0) threads = pt_host_cores();
  if (threads > m->blocks) threads = m->blocks;
  if (threads > THREADS_MAX) threads = THREADS_MAX;
  if (threads < 2 || m->listener || m->sched || m->undo || m->verify_only || m->sequential_program == p)
    return PT_RUN_SEQUENTIAL;
  pt_machine_used_begin(m);
  par_run r = {.p = p, .m = m, .args = args};
  r.w = calloc((size_t)threads, sizeof *r.w);
  r.rec = calloc((size_t)m->blocks, sizeof *r.rec);
  int nw = 0;
  while (r.w && nw < threads && !pt_block_scratch_init(&r.w[nw].scr, p)) nw++;
  size_t need = r.rec && nw == threads ? plan_saved(&r) : 0;
  if (!need || !pt_machine_saved(m, need)) {
    run_free(&r, nw);
    return PT_RUN_SEQUENTIAL;
  }
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.saved, NULL);
  for (int k = 0; k < nw; k++) {
    r.w[k].run = &r;
    pt_machine_view(&r.w[k].view, m, track, &r.w[k]);
  }
  /* Worker 0 is the calling thread; a worker that cannot be started leaves its share of
   * the work to the others. */
  int started = 1;
  while (started < nw && !pthread_create(&r.w[started].tid, NULL, work, &r.w[started])) started++;
  work(&r.w[0]);
  for (int k = 1; k < started; k++) pthread_join(r.w[k].tid, NULL);
  pthread_cond_destroy(&r.saved);
  pthread_mutex_destroy(&r.lock);
  int ok = !atomic_load(&r.stop) && !conflict(&r, nw);
  if (ok) {
    for (int k = 0; k < nw; k++) m->ops_executed += r.w[k].view.ops_executed;
    m->used_ops = m->ops_executed;
  } else {
    restore(&r);
    m->sequential_program = p;
  }
  run_free(&r, nw);
  return ok ? PTOSIM_OK : PT_RUN_SEQUENTIAL;
}
