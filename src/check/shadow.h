/* Shadow memory for the race and init checkers: for every byte of every memory ever
 * accessed, the last write (epoch and site) and the reads since then that may still race
 * with a later write. Bytes are kept as indices into a table of immutable states, so a
 * run of bytes with the same history costs one transition, and pages (4 KiB of memory)
 * are allocated on first access. */
#ifndef PT_SHADOW_H
#define PT_SHADOW_H

#include <stdint.h>

#include "check/clocks.h"

typedef enum pt_hazard { PT_HZ_RAW, PT_HZ_WAR, PT_HZ_WAW, PT_HZ_INIT } pt_hazard;

/* The access being applied: who, and where to report what it conflicts with. */
typedef struct pt_accessor {
  const pt_clocks *k;
  int block, agent;
  pt_epoch epoch;
  uint32_t site;    /* the op's site id (never 0) */
  int race, init;   /* which checks are on */
  /* [addr, addr + len) of this access conflicts with an earlier access at other_site
   * (0 for PT_HZ_INIT). Called once per run of bytes with the same history. */
  void (*found)(void *user, pt_hazard h, uint32_t other_site, uint64_t addr, uint64_t len);
  void *user;
} pt_accessor;

typedef struct pt_shadow pt_shadow;

pt_shadow *pt_shadow_new(void);
void pt_shadow_free(pt_shadow *sh);
/* Forget the transitions memoized for the previous op (call once per op). */
void pt_shadow_begin_op(pt_shadow *sh);
/* Apply an access to bytes [addr, addr + len) of memory `mem` (an id chosen by the caller;
 * `local` says whether never-written bytes are uninitialized (local memories) or were
 * initialized by the host (GM)). access: 1 read, 2 write. Returns -1 when out of memory. */
int pt_shadow_access(pt_shadow *sh, uint32_t mem, int local, uint64_t addr, uint64_t len, int access,
                     const pt_accessor *who);
/* The host wrote these bytes (initialized, ordered before every op). */
int pt_shadow_host_write(pt_shadow *sh, uint32_t mem, uint64_t addr, uint64_t len);

#endif
