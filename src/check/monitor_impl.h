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

struct ptosim_monitor {
  ptosim_machine *m;
  ptosim_monitor_opts opts;
  pt_clocks *k;
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
  uint64_t dropped;
  pt_hit hit[PT_MAX_HITS];
  int nhit;
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
};

const char *pt_mon_kind_name(int k);
void pt_mon_site_text(const ptosim_monitor *mon, uint32_t id, int with_loc, char *buf, size_t n);
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
void pt_mon_report(ptosim_monitor *mon, const char *rule, uint32_t site, uint32_t other, const char *hint,
                   const char *fmt, ...);
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
