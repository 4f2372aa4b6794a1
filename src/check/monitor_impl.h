/* Internal state of the monitor (include/ptosim/monitor.h), shared by monitor.c (event
 * hub, races, reports), syncchk.c (sync checker) and stats.c (statistics and traces). */
#ifndef PT_MONITOR_IMPL_H
#define PT_MONITOR_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "check/clocks.h"
#include "check/shadow.h"
#include "core/machine.h"
#include "core/sched.h"
#include "core/undo.h"
#include "cost/cost.h"
#include "ptosim/monitor.h"

/* An op site: one op at one source location on one core. */
typedef struct pt_site {
  ptosim_loc loc;
  ptosim_opcode op;
  const ptosim_core *core;
  ptosim_pipe pipe;
  uint64_t hash;
} pt_site;

/* A hazard found by the current op, merged over its bytes. */
typedef struct pt_hit {
  pt_hazard h;
  uint32_t other;
  ptosim_space space;
  const ptosim_core *owner;
  uint64_t lo, hi;
  uint8_t changed; /* a write-after-write changed some of the bytes (else it stored what was there) */
} pt_hit;
#define PT_MAX_HITS 16

/* Sync-checker mirror of one core. */
typedef struct pt_core_sync {
  uint32_t set_site[PTOSIM_PIPE_COUNT][PTOSIM_PIPE_COUNT][PTOSIM_EVENT_IDS]; /* last set_flag */
  uint32_t sema_site[32];                    /* last cross-core set addressed to this core */
  uint32_t held[PTOSIM_PIPE_COUNT];          /* buffer tokens held per pipe (bit per id) */
  uint32_t get_site[PTOSIM_PIPE_COUNT][PTOSIM_BUF_IDS];
} pt_core_sync;

/* A wait that held its pipe, for the "longest stalls" list. */
typedef struct pt_stall {
  uint32_t site;
  uint64_t cycles;
} pt_stall;
#define PT_MAX_STALLS 8

/* One op on the timeline (traces). */
typedef struct pt_slice {
  uint32_t site;
  uint64_t start, end;
  uint32_t flow_in, flow_out;
  uint8_t nr;
  pt_range r[2];   /* first ranges of the op, for the slice's arguments */
} pt_slice;
#define PT_MAX_SLICES (1u << 21)

/* Definedness (defined.c): what the first run records for the second. */
typedef struct pt_fill {      /* never-written local bytes some op read */
  const ptosim_core *owner;
  ptosim_space space;
  uint64_t addr, len;
} pt_fill;

typedef struct pt_sload {     /* a scalar load of bytes with an origin */
  uint64_t seq;               /* index among the run's scalar loads */
  uint32_t site, origin;
  uint8_t len, v[8];
} pt_sload;

typedef struct pt_hostw {     /* a host write to local memory, replayed before the second run */
  const ptosim_core *owner;
  ptosim_space space;
  uint64_t addr, len;
  uint8_t *data;
} pt_hostw;

typedef struct pt_defined {
  pt_fill *fill;
  size_t nfill, cap_fill;
  pt_sload *ld;
  size_t nld, cap_ld;
  pt_hostw *hw;
  size_t nhw, cap_hw;
  uint64_t nloads;            /* scalar loads seen so far */
  int verified;               /* a second run decided which candidates are observable */
  /* second run: the first run's record, the next of its loads to compare, and the index
   * of the first one that read another value (-1: none) */
  const struct pt_defined *ref;
  size_t next;
  int64_t diverged;
} pt_defined;

struct ptosim_monitor {
  ptosim_machine *m;
  ptosim_monitor_opts opts;
  pt_clocks *k;
  pt_cost_timeline *cost; /* the cost model's state (vector scopes in flight) */
  pt_shadow *sh;
  int oom;
  /* sites, 1-based, interned through an open-addressing hash of ids */
  pt_site *sites;
  uint32_t nsite, cap_site;
  uint32_t *hash;
  uint32_t cap_hash;
  /* reports */
  ptosim_report *rep;
  uint32_t *rep_site, *rep_other;
  int nrep, cap_rep;
  int *rep_last_block;
  uint64_t dropped;
  pt_hit hit[PT_MAX_HITS];
  int nhit;
  struct pt_bytes gm_old; /* the GM bytes the current op's writes exposed (machine.gm_old) */
  /* sync checker */
  pt_core_sync *sync; /* blocks * 3 */
  /* statistics */
  uint64_t *busy;     /* blocks * PT_NAGENT: cycles each pipe was busy */
  uint64_t *nops;     /* per opcode */
  uint64_t nevents;
  pt_stall *stalls;
  int nstalls;
  /* trace */
  pt_slice *slices;
  uint32_t nslices, cap_slices;
  uint64_t slices_dropped;
  /* eager schedule (eager.c) */
  pt_sched *sched;
  pt_step last; /* the step of the latest event */
  pt_defined def;
};

const char *pt_mon_kind_name(int k);
void pt_mon_site_text(const ptosim_monitor *mon, uint32_t id, int with_loc, char *buf, size_t n);
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
void pt_mon_report(ptosim_monitor *mon, const char *rule, uint32_t site, uint32_t other, const char *hint,
                   const char *fmt, ...);
/* defined.c */
void pt_def_event(ptosim_monitor *mon, const pt_event *ev, uint32_t site);
void pt_def_fill(ptosim_monitor *mon, const pt_range *r, uint64_t addr, uint64_t len);
void pt_def_host_write(ptosim_monitor *mon, const pt_event *ev);
void pt_def_finish(ptosim_monitor *mon);
void pt_def_free(pt_defined *d);
/* eager.c */
pt_sched *pt_sched_new(ptosim_monitor *mon);
/* The eager schedule's operations (core/sched.h), installed in the machine with it. */
extern const pt_sched_ops pt_eager_ops;
ptosim_status pt_sched_exec(pt_sched *s, pt_ctx *x, const void *params);
void pt_sched_core_done(pt_sched *s, const ptosim_core *c);
ptosim_status pt_sched_drain(pt_sched *s);
void pt_sched_free(pt_sched *s);
/* syncchk.c */
void pt_mon_sync_event(ptosim_monitor *mon, const pt_event *ev, uint32_t site);
/* stats.c */
void pt_mon_account(ptosim_monitor *mon, const pt_event *ev, uint32_t site, const pt_step *st);

#endif
