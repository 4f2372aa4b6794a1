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
  uint8_t access; /* pt_access bits: 1 read, 2 write */
  uint8_t nd;
  uint64_t addr;
  uint64_t len;
  int64_t count[PT_RANGE_MAX_DIMS];
  int64_t stride[PT_RANGE_MAX_DIMS];
} pt_range;

typedef struct pt_event {
  ptosim_opcode op;
  const ptosim_core *core;
  ptosim_loc loc;
  int nranges;
  int overflow; /* more ranges than fit: the last range is widened to cover the rest */
  pt_range ranges[PT_EVENT_MAX_RANGES];
} pt_event;

typedef void (*pt_event_fn)(void *user, const pt_event *ev);

#endif
