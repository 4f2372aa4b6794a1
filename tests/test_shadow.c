/* The shadow memory (src/check/shadow.c: states shared by runs of bytes, one index per page
 * or 64-byte granule, per-byte cells only in split granules) against a naive model written
 * here from the rules of shadow.h: one full record per byte, every access applied byte by
 * byte. Random op sequences of several agents of two blocks (clocks advanced by real steps,
 * with barriers that order the pipes of a core) read, write and atomically update ranges
 * that split granules, cover them whole, cross granules and pages, and overlap host writes. After every access
 * the hazards each byte was reported with, and after every op the op's origin, must be the
 * model's; the origin and writer of every byte are compared every few ops, across state
 * collections. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/clocks.h"
#include "check/shadow.h"
#include "harness.h"

#define NMEM 3                 /* memory 0 is GM (host-initialized), 1 and 2 local */
#define SPAN (3 * 4096 + 512)  /* bytes of each memory the ops touch: three pages and a bit */
#define NREAD 4                /* readers a state keeps (shadow.c) */
#define NATOM PT_SHADOW_NATOM  /* atomic writers a state keeps */

/* One byte as the rules describe it. */
typedef struct nbyte {
  int touched;       /* accessed or host-written (else: state 0, never accessed) */
  int never;         /* local, never written, read since the start */
  pt_epoch w;        /* last write (0: none since the host) */
  uint32_t wsite, origin;
  int nread;
  pt_epoch r[NREAD];
  uint32_t rsite[NREAD];
  int natom;         /* atomic read-modify-writes since the last write, oldest first */
  int alost;         /* more were unordered than kept */
  pt_epoch a[NATOM];
  uint32_t asite[NATOM];
} nbyte;

static nbyte model[NMEM][SPAN];
/* Hazards reported for each byte by the current access: site + 1 per hazard (0: none). */
static uint32_t got[SPAN][PT_HZ_COUNT];
static uint64_t lo, hi; /* the current access */
static int stray;        /* a byte outside it, or reported twice for one hazard */

static void found(void *user, pt_hazard h, uint32_t other, uint64_t addr, uint64_t len) {
  (void)user;
  for (uint64_t a = addr; a < addr + len; a++) {
    if (a < lo || a >= hi || got[a][h]) stray = 1;
    else got[a][h] = other + 1;
  }
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng % n);
}

static int unordered(const pt_accessor *who, pt_epoch e) {
  if (!e || (pt_epoch_block(e) == who->block && pt_epoch_agent(e) == who->agent)) return 0;
  return !pt_clocks_ordered(who->k, who->block, who->agent, e);
}

/* The model's access of byte b (access 1 read, 2 write, 4 atomic read-modify-write);
 * want[h] = site + 1 of each hazard; *origin = least origin of the op's reads so far
 * (reads come before writes); returns whether a plain access met dropped atomic writers. */
static int model_access(nbyte *b, int local, int access, const pt_accessor *who, uint32_t want[PT_HZ_COUNT],
                        uint32_t *origin) {
  memset(want, 0, PT_HZ_COUNT * sizeof *want);
  int never = local && (!b->touched || b->never), reads = access != 2, lost = 0;
  if (reads && who->init && never) want[PT_HZ_INIT] = 1;
  if (reads && who->taint && local && !b->touched) want[PT_HZ_UNDEF] = 1;
  if (who->race) {
    /* a plain access is ordered after the write and every atomic (the first unordered one
     * is named); an atomic after the write only */
    pt_hazard h = access == 1 ? PT_HZ_RAW : PT_HZ_WAW;
    if (unordered(who, b->w)) want[h] = b->wsite + 1;
    for (int i = 0; access != 4 && i < b->natom; i++)
      if (!want[h] && unordered(who, b->a[i])) want[h] = b->asite[i] + 1;
    lost = access != 4 && b->alost;
  }
  if (access != 1)
    for (int i = b->nread - 1; who->race && i >= 0; i--) /* the first unordered reader is named */
      if (unordered(who, b->r[i])) want[PT_HZ_WAR] = b->rsite[i] + 1;
  if (access == 2) {
    *b = (nbyte){.touched = 1, .w = who->epoch, .wsite = who->site, .origin = *origin};
    return lost;
  }
  uint32_t o = who->taint ? (never ? who->site : b->origin) : 0;
  if (access == 4) { /* the newest NATOM - 1 unordered atomics stay, then this one */
    if (*origin && (!o || *origin < o)) o = *origin;
    pt_epoch a[NATOM + 1];
    uint32_t as[NATOM + 1];
    int n = 0;
    for (int i = 0; i < b->natom; i++)
      if (unordered(who, b->a[i])) a[n] = b->a[i], as[n++] = b->asite[i];
    int skip = n > NATOM - 1 ? n - (NATOM - 1) : 0;
    b->alost |= skip > 0;
    b->natom = 0;
    for (int i = skip; i < n; i++) b->a[b->natom] = a[i], b->asite[b->natom++] = as[i];
    b->a[b->natom] = who->epoch;
    b->asite[b->natom++] = who->site;
    b->origin = o;
    b->never = 0;
    b->touched = 1;
    return lost;
  }
  if (o && (!*origin || o < *origin)) *origin = o;
  int n = 0;
  for (int i = 0; i < b->nread; i++)
    if (unordered(who, b->r[i]) && n < NREAD - 1) {
      b->r[n] = b->r[i];
      b->rsite[n++] = b->rsite[i];
    }
  b->r[n] = who->epoch;
  b->rsite[n] = who->site;
  b->nread = n + 1;
  b->never = never;
  b->touched = 1;
  return lost;
}

/* A random range of a memory: whole pages, whole or partial granules, odd bytes. */
static void pick_range(uint64_t *addr, uint64_t *len) {
  switch (rnd(5)) {
  case 0: *addr = 4096 * rnd(2), *len = 4096 * (1 + rnd(2)); break;
  case 1: *addr = 64 * rnd(SPAN / 64 - 8), *len = 64 * (1 + rnd(8)); break;
  case 2: *addr = 64 * rnd(SPAN / 64 - 8) + rnd(64), *len = 1 + rnd(300); break;
  case 3: *addr = rnd(SPAN - 8), *len = 1 + rnd(8); break;
  default: *addr = 4096 - 64 * rnd(4) - rnd(2), *len = 64 * (1 + rnd(6)) + rnd(2); break;
  }
  if (*addr + *len > SPAN) *len = SPAN - *addr;
}

static void test_against_model(void) {
  static ptosim_core cores[2] = {{.block = 0, .kind = PTOSIM_AIV0}, {.block = 1, .kind = PTOSIM_AIV0}};
  static const ptosim_pipe pipes[] = {PTOSIM_PIPE_S, PTOSIM_PIPE_MTE2, PTOSIM_PIPE_MTE3, PTOSIM_PIPE_V};
  pt_clocks *k = pt_clocks_new(2);
  pt_shadow *sh = pt_shadow_new();
  memset(model, 0, sizeof model);
  int bad_hz = 0, bad_origin = 0, bad_at = 0, bad_lost = 0, fails = 0, first_bad = -1, collected = 0;
  int shared = 0, dropped = 0; /* bytes left with several atomic writers; ops that met dropped ones */
  /* the largest table, the most states a collection kept, the most states one op made */
  uint32_t most = 0, kept = 0, per_op = 0;
  for (int op = 0; op < 30000 && !bad_hz && !bad_origin && !bad_at; op++) {
    pt_event ev = {.op = PTOSIM_OP_COUNT, .core = &cores[rnd(4) == 0], .pipe = pipes[rnd(4)]};
    if (rnd(16) == 0) { /* a barrier of every pipe of the core: orders what came before */
      ev.pipe = PTOSIM_PIPE_S;
      ev.sync = (pt_sync){.kind = PT_SYNC_BARRIER, .a = PTOSIM_PIPE_ALL};
    }
    pt_step st;
    pt_clocks_step(k, &ev, 1 + rnd(4), 1, &st);
    if (ev.sync.kind != PT_SYNC_NONE) continue;
    if (rnd(12) == 0) { /* the host writes some bytes */
      uint32_t mem = rnd(NMEM);
      uint64_t addr, len;
      pick_range(&addr, &len);
      fails += pt_shadow_host_write(sh, mem, addr, len) != 0;
      for (uint64_t a = addr; a < addr + len; a++) model[mem][a] = (nbyte){.touched = 1};
      continue;
    }
    uint32_t before = pt_shadow_nstates(sh);
    fails += pt_shadow_begin_op(sh) != 0;
    if (pt_shadow_nstates(sh) < before) {
      collected++;
      if (pt_shadow_nstates(sh) > kept) kept = pt_shadow_nstates(sh);
    }
    uint32_t start = pt_shadow_nstates(sh);
    pt_accessor who = {.k = k, .block = ev.core->block, .agent = st.agent, .epoch = st.epoch, .site = 1 + rnd(9),
                       .race = rnd(8) != 0, .init = rnd(2), .taint = rnd(4) != 0, .found = found};
    uint32_t origin = 0;
    uint64_t unchecked = pt_shadow_atomic_unchecked(sh);
    int lost = 0, atomics = (op / 500) % 2 ? 7 : 1; /* phases of mostly atomic / mostly plain writes (of 8) */
    for (int pass = 1; pass <= 2; pass++)
      for (int n = rnd(4); n > 0; n--) {
        int access = pass == 1 ? 1 : (int)rnd(8) < atomics ? 4 : 2;
        uint32_t mem = rnd(NMEM);
        uint64_t addr, len;
        pick_range(&addr, &len);
        lo = addr, hi = addr + len, stray = 0;
        memset(got + lo, 0, len * sizeof *got);
        fails += pt_shadow_access(sh, mem, mem != 0, addr, len, access, &who) != 0;
        for (uint64_t a = lo; a < hi; a++) {
          uint32_t want[PT_HZ_COUNT];
          lost |= model_access(&model[mem][a], mem != 0, access, &who, want, &origin);
          shared += model[mem][a].natom > 1;
          if (memcmp(want, got[a], sizeof want) && !bad_hz++) first_bad = op;
        }
        if (stray && !bad_hz++) first_bad = op;
        if (pt_shadow_op_origin(sh) != origin && !bad_origin++) first_bad = op;
      }
    dropped += lost;
    if (lost != (pt_shadow_atomic_unchecked(sh) > unchecked) && !bad_lost++) first_bad = op;
    if (pt_shadow_nstates(sh) > most) most = pt_shadow_nstates(sh);
    if (pt_shadow_nstates(sh) - start > per_op) per_op = pt_shadow_nstates(sh) - start;
    for (uint32_t mem = 0; op % 97 == 0 && mem < NMEM; mem++)
      for (uint64_t a = 0; a < SPAN; a++) {
        const nbyte *b = &model[mem][a];
        uint32_t wsite, o = pt_shadow_origin_at(sh, mem, a, &wsite); /* the newest atomic writer, else the write */
        if ((o != b->origin || wsite != (b->natom ? b->asite[b->natom - 1] : b->wsite)) && !bad_at++) first_bad = op;
      }
  }
  CHECK(fails == 0);
  CHECK_MSG(collected > 0, "no state collection ran");
  CHECK_MSG(!bad_hz, "hazards differ from the per-byte model (first at op %d)", first_bad);
  CHECK_MSG(!bad_origin, "op origin differs from the per-byte model (first at op %d)", first_bad);
  CHECK_MSG(!bad_at, "byte origin / writer differs from the per-byte model (first at op %d)", first_bad);
  CHECK_MSG(!bad_lost, "dropped atomic writers counted unlike the per-byte model (first at op %d)", first_bad);
  CHECK_MSG(shared > 0 && dropped > 0, "atomics: %d bytes with several writers, %d ops met dropped ones", shared, dropped);
  /* Collections come after max(kept, 4096, 64 per page) new states (12 pages here). */
  uint32_t bound = kept + (kept > 4096 ? kept : 4096) + per_op;
  CHECK_MSG(most <= bound, "the state table grew to %u states (bound %u)", most, bound);
  pt_shadow_free(sh);
  pt_clocks_free(k);
}

int main(void) {
  RUN(test_against_model);
  return pt_test_finish();
}
