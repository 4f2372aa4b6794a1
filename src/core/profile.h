/* Target profiles: capacities and alignment of every local memory, per target. */
#ifndef PT_PROFILE_H
#define PT_PROFILE_H

#include <stdint.h>

#include "ptosim/types.h"

typedef struct pt_profile {
  const char *name;                       /* "a2a3" / "a5" */
  uint64_t capacity[PTOSIM_SPACE_COUNT];  /* bytes; 0 = space does not exist */
  uint32_t align[PTOSIM_SPACE_COUNT];     /* required base alignment of tile addresses, bytes */
  int l0a_zz;                             /* L0A fractal order: 1 = ZZ (M1 K1 M0 K0), 0 = NZ (K1 M1 M0 K0) */
  int has_mx;                             /* MX matmul and scale buffers exist */
  int has_ub_l1;                          /* UB <-> L1 data paths exist */
} pt_profile;

const pt_profile *pt_profile_get(ptosim_target t);
/* Parse "a2a3" / "a2" / "a3" / "a5"; returns PTOSIM_TARGET_COUNT when unknown. */
ptosim_target pt_target_parse(const char *s);
const char *pt_space_name(ptosim_space s);

#endif
