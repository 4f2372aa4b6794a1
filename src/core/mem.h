/* The memory accessor layer: every op reaches memory only through these calls, which
 * check that the space exists on the core, the bounds, and the alignment, on every
 * access in every build type. A violation is a diagnostic with rule id
 *   mem.space  the space does not exist on this target / is not reachable from the core
 *   mem.bounds the bytes fall outside the space (local) or outside every mapped buffer (GM)
 *   mem.align  the base address is not aligned as the op requires
 * and never a crash. */
#ifndef PT_MEM_H
#define PT_MEM_H

#include <stdint.h>

#include "core/machine.h"

/* PT_ATOMIC marks a write (PT_WRITE or PT_RW) as an atomic read-modify-write at the memory
 * side (FIXPIPE / TSTORE atomic, MSCATTER atomic, MTE3 under the GM atomic mode): the race
 * checker does not order two atomics of the same bytes against each other. */
typedef enum pt_access { PT_READ = 1, PT_WRITE = 2, PT_RW = 3, PT_ATOMIC = 4 } pt_access;

/* Contiguous bytes [addr, addr + len) of `space` as seen from core c. On success *out
 * points at the host byte of addr. len == 0 checks nothing but the alignment. */
ptosim_status pt_span_on(pt_ctx *x, ptosim_core *c, ptosim_space space, uint64_t addr, uint64_t len,
                         unsigned align, pt_access acc, uint8_t **out);

/* Same, from the core running the op. */
ptosim_status pt_span(pt_ctx *x, ptosim_space space, uint64_t addr, uint64_t len, unsigned align,
                      pt_access acc, uint8_t **out);

/* Index in m->gm of the GM buffer whose base is `base`, or -1. */
int pt_gm_index(const ptosim_machine *m, uint64_t base);
/* Host bytes of GM [addr, addr + len) when one mapped buffer holds them all, else NULL (no
 * diagnostic, nothing recorded: for the checkers). */
uint8_t *pt_gm_host(const ptosim_machine *m, uint64_t addr, uint64_t len);

/* The lanes of a masked vector access: lane i is the bytes [addr + i * lane, ... + lane),
 * i < nlanes, and only lanes with active[i] != 0 are accessed. Checks the alignment of addr
 * and that addr lies inside the space, then the bounds of the active lanes only (an
 * inactive lane issues no request, so it may lie outside), and records exactly the active
 * lanes' bytes (runs of active lanes; runs of equal length at an equal spacing share one
 * strided range, so prefix, alternating and per-block masks need one range each). A mask
 * with more groups than the event has ranges left records the rest as one span over the
 * remaining lanes and sets ev->overflow (the undo log still notes the active bytes only).
 * On success *out points at the host byte of addr. */
ptosim_status pt_span_lanes(pt_ctx *x, ptosim_space space, uint64_t addr, unsigned lane, unsigned nlanes,
                            const uint8_t *active, unsigned align, pt_access acc, uint8_t **out);

/* Most dims of a region pt_each_piece walks (ops use at most 17: a DMA's nburst and 16 loops). */
#define PT_REGION_MAX_DIMS 32

/* A strided region: the union over j_i < count[i] (i < nd) of
 *   [addr + sum_i j_i * stride[i], ... + len)
 * with non-negative strides. Checks its bounding box, which lies inside one buffer iff
 * every piece does. *out points at the host byte of addr. If any count is 0 or len is 0
 * nothing is accessed. */
ptosim_status pt_region_on(pt_ctx *x, ptosim_core *c, ptosim_space space, uint64_t addr, int nd,
                           const int64_t *count, const int64_t *stride, uint64_t len, unsigned align,
                           pt_access acc, uint8_t **out);
ptosim_status pt_region(pt_ctx *x, ptosim_space space, uint64_t addr, int nd, const int64_t *count,
                        const int64_t *stride, uint64_t len, unsigned align, pt_access acc, uint8_t **out);

/* The bookkeeping of pt_region_on for a non-empty region that passed its checks (host:
 * its first byte): notes a read for the machine, a write for the undo log, records the
 * region in the op's event. For ops that check their regions with pt_local_span first. */
void pt_region_note(pt_ctx *x, const ptosim_core *c, ptosim_space space, uint64_t addr, int nd, const int64_t *count,
                    const int64_t *stride, uint64_t len, pt_access acc, uint8_t *host);

/* The host byte of addr in local space `space` of core c when [addr, addr + len) passes
 * every check of pt_span_on (the space exists on the core, addr is a multiple of align,
 * the bytes lie inside the capacity), else NULL; formats nothing and notes nothing. A fast
 * path's test: on NULL the op runs its ordinary checks, which report the fault. */
static inline uint8_t *pt_local_span(const pt_ctx *x, const ptosim_core *c, ptosim_space space, uint64_t addr,
                                     uint64_t len, unsigned align) {
  if (space == PTOSIM_GM || (unsigned)space >= PTOSIM_SPACE_COUNT || !c->mem[space] || (align > 1 && addr % align))
    return NULL;
  uint64_t cap = x->m->prof->capacity[space];
  return addr > cap || len > cap - addr ? NULL : c->mem[space] + addr;
}

/* Call fn(user, piece_addr, piece_len) for every contiguous piece of the strided region
 * at addr (as pt_region: the union over j_i < count[i] of [addr + sum_i j_i * stride[i],
 * ... + len)); dims whose pieces touch are merged first. Returns -1 if fn does (it stops
 * there) or nd exceeds PT_REGION_MAX_DIMS, else 0. */
int pt_each_piece(uint64_t addr, int nd, const int64_t *count, const int64_t *stride, uint64_t len,
                  int (*fn)(void *, uint64_t, uint64_t), void *user);

/* FB byte address of an fb pointer value: the hardware FB address fields are 16 bits wide,
 * so only addr & 0xFFFF locates the bytes (PTOAS buildAccStoreFpcValue encodes FIXPIPE
 * payload rows as (addr & 0xffff) >> 7 / >> 6; the corpus case
 * fixpipe-relu-scalar-vector-f16-cv loads and reads its relu payload at 65600 = 0x10040). */
static inline uint64_t pt_fb_addr(uint64_t addr) { return addr & 0xFFFFu; }

/* Record the compute work of the op for the cost model (multiply-accumulates of a
 * matmul, in elements of type dt); a no-op when nobody listens. */
static inline void pt_record_work(pt_ctx *x, uint64_t work, ptosim_dtype dt) {
  if (!x->ev) return;
  x->ev->work += work;
  x->ev->work_dtype = dt;
}

/* The pipe that executes this op when it depends on the operands (a TSTORE from an acc
 * tile runs on FIX, from a vec tile on MTE3); the table's pipe otherwise. */
static inline void pt_set_pipe(pt_ctx *x, ptosim_pipe pipe) {
  if (x->ev) x->ev->pipe = pipe;
}

/* Special register r of the running core (state_read: see ptosim_machine). */
static inline uint64_t pt_sreg_get(pt_ctx *x, pt_sreg r) {
  x->m->state_read = 1;
  return x->core->sreg[r];
}

/* The saturation an op runs with: its sat / nosat clause, else CTRL[48] of the core
 * (0: saturate, 1: do not; see PT_CTRL_RESET). */
static inline ptosim_sat_mode pt_sat_mode(pt_ctx *x, ptosim_sat_mode clause) {
  if (clause != PTOSIM_SAT_DEFAULT) return clause;
  return pt_sreg_get(x, PT_SREG_CTRL) >> PT_CTRL_SAT_BIT & 1 ? PTOSIM_SAT_NOSAT : PTOSIM_SAT_SAT;
}

/* Check a typed pointer operand is in the expected space (rule op.space). */
ptosim_status pt_expect_space(pt_ctx *x, const char *what, ptosim_ptr p, ptosim_space want);

#endif
