/* The VF timeline: how long a vector scope of A5 micro-ops keeps the V pipe busy, after
 * pto-isa's VfSim (include/pto/costmodel/a5/VfSim: OOO.cpp, SimulatorRunner.cpp; records in
 * cost_params.c, model and its validation in docs/cost-model.md). Per vector core:
 *
 *   scope   opens at the first micro-op after anything else the core ran (a sync other than
 *           mem_bar, a DMA, a tile op); times below count from its launch.
 *   ready   vf_startup for every op (the ports keep no earlier cycle); an op that WAITS also
 *           waits for the latest op that JOINS (its register operand, see below): producer
 *           issue + fwd + wait (stores: producer issue + fst).
 *   issue   the first cycle >= ready on which a port of its unit is free and the port issued
 *           no op of the same class within ii cycles either side (the ports issue out of order,
 *           as VfSim's, whose ops leave its queues when ready).
 *   done    issue + lat; a store: issue + its producer's dsc + lat.
 *   end     max(done) + vf_drain (OoOCore::vfEndCycle).
 * An event is charged end_after - end_before, so a scope's charges sum to its end.
 *
 * The event names no registers: an op that WAITS is taken to read the result of the latest
 * op that JOINS before it (the dependence chain of straight-line vector code: load, compute,
 * ..., store), and loads depend on nothing, so the loads of later iterations run ahead as
 * they do in VfSim. Ports keep a window of PT_VF_WINDOW cycles: an op issues no earlier than
 * about PT_VF_WINDOW - PT_VF_SLACK cycles before the latest one (VfSim's 68 physical registers
 * and its queues bound that run-ahead too). */
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/machine.h"
#include "cost/cost.h"

#define PT_VF_WINDOW 64 /* cycles of port reservations kept (a power of two) */
#define PT_VF_SLACK 16  /* cycles kept beyond the latest issue: > every ii */
#define VSTS_CYCLES 9u  /* a store of no register producer: isa.csv:34 VSTS latency */

enum { PORT_LOAD0, PORT_LOAD1, PORT_STORE, PORT_EXU0, PORT_EXU1, NPORTS };

typedef struct vf_core {
  int open;                  /* a scope is in flight */
  uint64_t end;              /* its end so far (0 before its first op) */
  uint64_t lo;               /* first cycle the ports keep */
  uint64_t next[NPORTS];     /* per port: every cycle of [lo, next) is taken */
  const pt_vf_op *prod;      /* the latest op that JOINS (NULL: none yet) */
  int prod_w;                /* its lane-width index */
  uint64_t prod_issue;
  uint8_t slot[NPORTS][PT_VF_WINDOW]; /* class + 1 of the op issued at cycle c, at c % WINDOW; 0 free */
} vf_core;

struct pt_cost_timeline {
  const pt_profile *prof;  /* the profile of the last event, and its parameters */
  const pt_cost_params *params;
  int ncores;
  vf_core core[];
};

pt_cost_timeline *pt_cost_timeline_new(int blocks) {
  size_t n = blocks > 0 ? (size_t)blocks * 3 : 0;
  pt_cost_timeline *t = calloc(1, sizeof *t + n * sizeof(vf_core));
  if (t) t->ncores = (int)n;
  return t;
}

void pt_cost_timeline_free(pt_cost_timeline *t) { free(t); }

const pt_vf_op *pt_cost_vf_op(const pt_profile *prof, pt_vec_class cls) {
  const pt_cost_params *p = pt_cost_params_of(prof);
  return p && p->vf && pt_vec_class_is_vf(cls) ? &p->vf[cls - PT_VC_VF_FIRST] : NULL;
}

/* Drop the reservations of the cycles before `lo`. */
static void slide(vf_core *c, uint64_t lo) {
  for (uint64_t t = c->lo; t < lo && t < c->lo + PT_VF_WINDOW; t++)
    for (int p = 0; p < NPORTS; p++) c->slot[p][t % PT_VF_WINDOW] = 0;
  c->lo = lo;
  for (int p = 0; p < NPORTS; p++)
    if (c->next[p] < lo) c->next[p] = lo;
}

/* Can port p issue an op of tag `tag` (class + 1) with interval ii at cycle t? */
static int port_free(const vf_core *c, int p, uint64_t t, uint8_t tag, unsigned ii) {
  if (c->slot[p][t % PT_VF_WINDOW]) return 0;
  for (unsigned d = 1; d < ii; d++)
    if ((t >= c->lo + d && c->slot[p][(t - d) % PT_VF_WINDOW] == tag) || c->slot[p][(t + d) % PT_VF_WINDOW] == tag) return 0;
  return 1;
}

/* Reserve the first cycle >= ready on a port of the op's unit; returns it. A cycle beyond the
 * window first slides it. */
static uint64_t place(vf_core *c, const pt_vf_op *o, uint8_t tag, unsigned ii, uint64_t ready) {
  static const int first[] = {[PT_VFU_LOAD] = PORT_LOAD0, [PT_VFU_STORE] = PORT_STORE, [PT_VFU_EXU01] = PORT_EXU0, [PT_VFU_EXU0] = PORT_EXU0};
  static const int count[] = {[PT_VFU_LOAD] = 2, [PT_VFU_STORE] = 1, [PT_VFU_EXU01] = 2, [PT_VFU_EXU0] = 1};
  int p0 = first[o->unit];
  for (;;) {
    uint64_t from = ready > c->lo ? ready : c->lo, limit = c->lo + PT_VF_WINDOW - PT_VF_SLACK, best = limit;
    int bp = -1;
    for (int p = p0; p < p0 + count[o->unit]; p++)
      for (uint64_t t = from > c->next[p] ? from : c->next[p]; t < best; t++)
        if (port_free(c, p, t, tag, ii)) {
          best = t, bp = p;
          break;
        }
    if (bp >= 0) {
      c->slot[bp][best % PT_VF_WINDOW] = tag;
      while (c->next[bp] < limit && c->slot[bp][c->next[bp] % PT_VF_WINDOW]) c->next[bp]++;
      return best;
    }
    uint64_t step = c->lo + PT_VF_WINDOW / 4; /* every port is taken up to the window's end */
    slide(c, from >= limit ? from + PT_VF_SLACK + 1 - PT_VF_WINDOW : step);
  }
}

/* Cycles micro-op `ev` of class cls adds to the end of its core's scope. */
static uint64_t vf_step(vf_core *c, const pt_cost_params *p, const pt_event *ev, pt_vec_class cls) {
  const pt_vf_op *o = &p->vf[cls - PT_VC_VF_FIRST];
  int w = ev->work_dtype != PTOSIM_DT_NONE && pt_dtype_bits(ev->work_dtype) < 32; /* fp16 row */
  if (!c->open) { /* launch: no op issues before vf_startup */
    memset(c, 0, sizeof *c);
    c->open = 1;
    slide(c, p->vf_startup);
  }
  const pt_vf_op *src = (o->flags & PT_VF_WAITS) ? c->prod : NULL;
  uint64_t ready = !src ? 0 : c->prod_issue + (o->unit == PT_VFU_STORE ? src->fst[c->prod_w] : src->fwd[c->prod_w] + o->wait);
  uint64_t t = place(c, o, (uint8_t)(cls - PT_VC_VF_FIRST + 1), o->ii[w], ready);
  uint64_t done = t + o->lat[w] + (o->unit == PT_VFU_STORE ? (src ? src->dsc : VSTS_CYCLES) : 0u);
  if (o->flags & PT_VF_JOINS) {
    c->prod = o;
    c->prod_w = w;
    c->prod_issue = t;
  }
  uint64_t end = done + p->vf_drain, before = c->end;
  if (end > c->end) c->end = end;
  return c->end - before;
}

uint64_t pt_cost_vf_alone(const pt_cost_params *p, const pt_event *ev, pt_vec_class cls) {
  vf_core c = {0};
  return vf_step(&c, p, ev, cls);
}

/* What keeps a scope open: micro-ops, scalar-pipe ops and the mem_bar fences inside it. */
static int in_scope(const pt_event *ev) {
  if (ev->sync.kind != PT_SYNC_NONE) return ev->sync.kind == PT_SYNC_MEM_BAR;
  return ev->pipe == PTOSIM_PIPE_S;
}

uint64_t pt_cost_step(pt_cost_timeline *t, const pt_profile *prof, const pt_event *ev, uint64_t *issue) {
  const pt_cost_params *p = t && t->prof == prof && prof ? t->params : pt_cost_params_of(prof);
  if (t) t->prof = prof, t->params = p;
  pt_vec_class cls = ev->pipe == PTOSIM_PIPE_V ? pt_op_cost_class(ev->op) : PT_VC_NONE;
  int i = (int)ev->core->block * 3 + (int)ev->core->kind;
  vf_core *c = t && i >= 0 && i < t->ncores ? &t->core[i] : NULL;
  if (c && p && p->vf && pt_vec_class_is_vf(cls) && ev->sync.kind == PT_SYNC_NONE) {
    *issue = 0;
    return vf_step(c, p, ev, cls);
  }
  if (c && !in_scope(ev)) c->open = 0;
  *issue = pt_cost_issue_cycles(prof);
  return pt_cost_cycles(prof, ev);
}
