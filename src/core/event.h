/* The event stream: every executed op produces one event listing the memory it read and
 * wrote. The checkers, the cost model and the tracer consume it; op bodies never know who
 * listens. The accessor layer (mem.c) records the ranges; nothing is recorded when no
 * listener is installed. */
#ifndef PT_EVENT_H
#define PT_EVENT_H

#include <stdint.h>

#include "ptosim/ptosim.h"

#define PT_EVENT_MAX_RANGES 16
#define PT_RANGE_MAX_DIMS 6

/* Bytes touched by one accessor call: the union over j_i < count[i] of
 * [addr + sum_i j_i * stride[i], ... + len) in `space` of core `owner` (for GM, owner is
 * NULL and addr a GM address). nd == 0 is one contiguous span. */
typedef struct pt_range {
  ptosim_space space;
  const ptosim_core *owner;
  uint8_t access; /* pt_access bits: 1 read, 2 write, 4 atomic (with 2: an atomic read-modify-write) */
  uint8_t nd;
  uint64_t addr;
  uint64_t len;
  int64_t count[PT_RANGE_MAX_DIMS];
  int64_t stride[PT_RANGE_MAX_DIMS];
} pt_range;

/* Synchronization effect of a sync op (set_flag, wait_flag, barriers, buffer tokens,
 * cross-core signals); kind PT_SYNC_NONE for every other op. */
typedef enum pt_sync_kind {
  PT_SYNC_NONE = 0,
  PT_SYNC_SET_FLAG,   /* pipe a signals pipe b, event id */
  PT_SYNC_WAIT_FLAG,  /* pipe b waits for pipe a, event id */
  PT_SYNC_BARRIER,    /* pipe a drains (PTOSIM_PIPE_ALL: every pipe and the scalar unit) */
  PT_SYNC_GET_BUF,    /* pipe a acquires buffer token id, mode */
  PT_SYNC_RLS_BUF,    /* pipe a releases buffer token id, mode */
  PT_SYNC_MEM_BAR,    /* UB fence between vector and scalar accesses, id = barrier type */
  PT_SYNC_CORE_SET,   /* pipe a signals semaphore id of core `peer` */
  PT_SYNC_CORE_WAIT,  /* pipe a (PTOSIM_PIPE_ALL: the whole core) consumes semaphore id */
  PT_SYNC_ALL_ARRIVE, /* the core, drained, arrives at round id of a pto.syncall barrier */
  PT_SYNC_ALL_DEPART  /* the core leaves round id: everything each participant did before
                         arriving happens before what any of them does after leaving */
} pt_sync_kind;

typedef struct pt_sync {
  pt_sync_kind kind;
  ptosim_pipe a, b;
  int64_t id;
  int64_t mode;
  const ptosim_core *peer; /* CORE_SET: the core whose semaphore is signalled */
} pt_sync;

typedef struct pt_event {
  ptosim_opcode op;
  const ptosim_core *core;
  ptosim_loc loc;
  ptosim_pipe pipe;   /* pipe that executes the op (from the op table; sync ops set it) */
  uint64_t work;      /* compute work for the cost model: multiply-accumulates of a matmul */
  ptosim_dtype work_dtype; /* element type of that work (matmul input type) */
  pt_sync sync;
  uint8_t part; /* 1: an earlier event of an op that sends several (its last one has 0) */
  int nranges;
  int overflow; /* more ranges than fit: the last range is widened to cover the rest */
  pt_range ranges[PT_EVENT_MAX_RANGES];
} pt_event;

typedef void (*pt_event_fn)(void *user, const pt_event *ev);

#endif
