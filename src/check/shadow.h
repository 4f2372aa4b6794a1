/* Shadow memory for the race and init checkers: for every byte of every memory ever
 * accessed, the last write (epoch and site), the atomic read-modify-writes and the reads
 * since then that may still race with a later access, and whether its value may depend on never-written local memory
 * (the site of the op that first read such bytes on the way: its *origin*). Bytes are
 * kept as indices into a table of immutable states, so a run of bytes with the same
 * history costs one transition; a page (4 KiB of memory, allocated on first access) keeps
 * one index for all its bytes, or one per 64-byte granule, and per-byte indices only in
 * granules whose bytes differ. States no byte refers to any more are collected (pt_shadow_begin_op), so
 * memory is bounded by the bytes accessed, not by the number of accesses. */
#ifndef PT_SHADOW_H
#define PT_SHADOW_H

#include <stdint.h>

#include "check/clocks.h"

/* PT_HZ_INIT: a read of never-written local bytes (with `init`); PT_HZ_UNDEF: the first
 * such read of those bytes (with `taint`; the bytes the second run fills). */
typedef enum pt_hazard { PT_HZ_RAW, PT_HZ_WAR, PT_HZ_WAW, PT_HZ_INIT, PT_HZ_UNDEF, PT_HZ_COUNT } pt_hazard;

/* The access being applied: who, and where to report what it conflicts with. */
typedef struct pt_accessor {
  const pt_clocks *k;
  int block, agent;
  pt_epoch epoch;
  uint32_t site;    /* the op's site id (never 0) */
  int race;        /* report unordered accesses */
  int init;        /* report every read of never-written local bytes (PT_HZ_INIT) */
  int taint;       /* track origins: the op's writes carry the least origin of its reads */
  /* [addr, addr + len) of this access conflicts with an earlier access at other_site
   * (0 for PT_HZ_INIT). Called once per run of bytes with the same history. */
  void (*found)(void *user, pt_hazard h, uint32_t other_site, uint64_t addr, uint64_t len);
  void *user;
} pt_accessor;

typedef struct pt_shadow pt_shadow;

pt_shadow *pt_shadow_new(void);
void pt_shadow_free(pt_shadow *sh);
/* Forget the transitions memoized for the previous op (call once per op, before its
 * accesses); collects unused states when enough new ones were made since the last time
 * (as many as were kept, and at least 4096 and 64 per page).
 * Returns -1 when out of memory. */
int pt_shadow_begin_op(pt_shadow *sh);
/* Apply an access to bytes [addr, addr + len) of memory `mem` (an id chosen by the caller;
 * `local` says whether never-written bytes are uninitialized (local memories) or were
 * initialized by the host (GM)). access: 1 read, 2 write, 4 atomic read-modify-write (a
 * write that also reads the old bytes; unordered atomics of the same bytes are no race
 * with each other, but a plain read or write must be ordered after all of them); an op
 * applies all its reads before its writes and atomics (they take the origin of its
 * reads). Returns -1 when out of memory. */
int pt_shadow_access(pt_shadow *sh, uint32_t mem, int local, uint64_t addr, uint64_t len, int access,
                     const pt_accessor *who);
/* The host wrote these bytes (initialized, ordered before every op). */
int pt_shadow_host_write(pt_shadow *sh, uint32_t mem, uint64_t addr, uint64_t len);
/* Origin of the bytes the current op has read so far (0: none depends on never-written
 * bytes); with `taint` on. */
uint32_t pt_shadow_op_origin(const pt_shadow *sh);
/* Origin of byte addr of memory mem, and the site of its last write (0: none). */
uint32_t pt_shadow_origin_at(pt_shadow *sh, uint32_t mem, uint64_t addr, uint32_t *wsite);
/* Plain accesses (memoized: once per op and state) checked against bytes whose atomic
 * writers were more than the shadow keeps: a race with a dropped one would be missed. */
uint64_t pt_shadow_atomic_unchecked(const pt_shadow *sh);
#define PT_SHADOW_NATOM 4 /* unordered atomic writers a state keeps per byte */
/* Number of states in the table (for tests of the memory bound). */
uint32_t pt_shadow_nstates(const pt_shadow *sh);

#endif
