/* The cost model: how many cycles an op occupies its pipe (see docs/cost-model.md). */
#ifndef PT_COST_H
#define PT_COST_H

#include <stdint.h>

#include "core/event.h"
#include "core/profile.h"

/* Cycles the op of `ev` occupies its pipe (ev->pipe). */
uint64_t pt_cost_cycles(const pt_profile *prof, const pt_event *ev);
/* Scalar-unit cycles to issue one instruction. */
uint64_t pt_cost_issue_cycles(const pt_profile *prof);

#endif
