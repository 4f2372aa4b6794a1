/* Interim cost model: bytes over a fixed bandwidth, MACs over a fixed rate (replaced by
 * the parameterized model of docs/cost-model.md). */
#include "cost/cost.h"

static uint64_t bytes_of(const pt_event *ev) {
  uint64_t b = 0;
  for (int i = 0; i < ev->nranges; i++) {
    uint64_t n = ev->ranges[i].len;
    for (int d = 0; d < ev->ranges[i].nd; d++) n *= (uint64_t)ev->ranges[i].count[d];
    if (ev->ranges[i].access & 2) b += n;
  }
  return b;
}

uint64_t pt_cost_cycles(const pt_profile *prof, const pt_event *ev) {
  (void)prof;
  if (ev->sync.kind != PT_SYNC_NONE) return 1;
  if (ev->work) return 32 + ev->work / 4096;
  return 1 + bytes_of(ev) / 64;
}

uint64_t pt_cost_issue_cycles(const pt_profile *prof) {
  (void)prof;
  return 1;
}
