/* Internal machine state: clusters, cores, memories, GM buffer map, the current op. */
#ifndef PT_MACHINE_H
#define PT_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/event.h"
#include "core/profile.h"
#include "ptosim/ptosim.h"
#include "ptosim/tile_pipe.h"

/* A registered GM buffer: GM addresses [base, base + size) map to host[0 .. size). */
typedef struct pt_gm_buf {
  uint64_t base;
  uint64_t size;
  uint8_t *host;
  char *name;  /* for diagnostics (ptosim_gm_set_name), malloc'ed, or NULL */
  int written; /* an access wrote bytes of it since it was mapped */
} pt_gm_buf;

/* Special registers written by configuration ops (legacy DMA loop state etc.). A value
 * stays set until overwritten, like the hardware register it models. */
typedef enum pt_sreg {
  PT_SREG_LOOP1_STRIDE_OUTTOUB,
  PT_SREG_LOOP2_STRIDE_OUTTOUB,
  PT_SREG_LOOP_SIZE_OUTTOUB,
  PT_SREG_LOOP1_STRIDE_UBTOOUT,
  PT_SREG_LOOP2_STRIDE_UBTOOUT,
  PT_SREG_LOOP_SIZE_UBTOOUT,
  PT_SREG_LOOP1_STRIDE_OUTTOL1,
  PT_SREG_LOOP2_STRIDE_OUTTOL1,
  PT_SREG_LOOP_SIZE_OUTTOL1,
  PT_SREG_MTE2_NZ_PARA,
  PT_SREG_PAD_VAL_OUTTOUB,
  /* img2col state (src/isa/tile_layout.c), A and B register sets selected by fmatrix_b:
   * FMATRIX  feature map W [15:0], H [31:16], pad left [39:32], right [47:40], top [55:48],
   *          bottom [63:56];
   * L3D_RPT  repeat stride [15:0], time [23:16], mode [31:24], A5 dst stride [47:32] and
   *          dst m position [63:48]; 0 = reset (one pass);
   * PADDING  pad value bits (8-bit types: the byte twice). */
  PT_SREG_FMATRIX,
  PT_SREG_FMATRIX_B,
  PT_SREG_L3D_RPT,
  PT_SREG_L3D_RPT_B,
  PT_SREG_PADDING,
  PT_SREG_PADDING_B,
  /* Core control and FIXPIPE configuration (src/isa/regs.c):
   * CTRL       bit 48 = 1: non-saturating float arithmetic of MAD / FIXPIPE ops without a
   *            sat / nosat clause (0: saturating); reset value PT_CTRL_RESET;
   * QUANT_PRE  scalar pre-quantization word: f32 scale bits [31:0], bit 46 = signed 8-bit
   *            output (SET_QUANT_SCALAR);
   * FPC        bits [15:8]: FB address of the vector quantization parameters in 128-byte
   *            units (SET_QUANT_VECTOR). */
  PT_SREG_CTRL,
  PT_SREG_QUANT_PRE,
  PT_SREG_FPC,
  /* A2/A3 vector mask of the pto.ub.* ops (src/isa/ub_vec.c): VMASK0 lanes 0..63 (the
   * element count in count mode, CTRL bit 56), VMASK1 lanes 64..127; reset all ones. */
  PT_SREG_VMASK0,
  PT_SREG_VMASK1,
  /* GM atomic mode of the MTE3 UB -> GM copies (pto.set_atomic_*; src/isa/dma.c): bits [7:0]
   * the operation (ptosim_atomic_op, 0: plain writes), bits [15:8] the element type
   * (ptosim_dtype, 0: none set); reset 0. */
  PT_SREG_ATOMIC,
  PT_SREG_COUNT = 32
} pt_sreg;

/* CTRL at kernel start: bit 48 set (non-saturating), as the clause-less mad / fixpipe of
 * the PTOAS corpus case cv-mixed/fixpipe-acc-store-sat-f16-cv require (docs/spec-notes.md). */
#define PT_CTRL_SAT_BIT 48
#define PT_CTRL_RESET (1ull << PT_CTRL_SAT_BIT)

/* The vector special registers of a vector core: AR a byte offset, SQZN the byte count of
 * the last pto.vsqz (valid when sqzn_set). V-pipe state, read and written by V-pipe ops in
 * program order (src/isa/vec_mem.c, vec_rearrange.c); a deferred op runs with the values it
 * was issued with (src/check/eager.c), as with sreg[]. */
typedef struct pt_vspr {
  uint64_t ar;
  uint32_t sqzn;
  uint32_t sqzn_set;
} pt_vspr;

#define PT_TPIPE_REPLAY 32
/* One cube-vector tile pipe as this core sees it (src/isa/tile_pipe.c; counts in tiles). */
typedef struct pt_tpipe {
  int32_t dir;                 /* dir_mask of this core's initialize op; 0: not initialised */
  int32_t slot_num;
  int32_t local_slot_num;      /* GM path: slots of the consumer's local ring */
  int32_t nflags;              /* hardware flags from the pipe's base: 4 (frontend or dir_mask 3) or 2 */
  uint32_t slot_size;          /* bytes */
  uint32_t c2v_buf, v2c_buf;   /* consumer FIFO bases (A2/A3: local rings): UB (C2V), L1 (V2C), bytes */
  uint64_t gm;                 /* A2/A3: GM FIFO base (bytes; V2C after the C2V slots when dir is 3) */
  int64_t gm_stride[5];        /* element strides of the GM FIFO view its entries keep (0: row-major entries) */
  uint32_t pushed, popped, held; /* tiles this core pushed, popped, popped and not yet freed */
  uint32_t allocated;          /* GM entries pto.talloc gave and no GM-entry push committed yet */
  uint32_t ready[2];           /* tiles pushed to this core and not popped, per producer (vector sub-block) */
  uint32_t freed[2];           /* free signals to this producer not waited yet, per consumer (vector sub-block) */
  /* Eager schedule (src/check/eager.c): the slots of pushes issued and not yet run, from
   * push number replay_head on (a push's data move runs again later, at its start time). */
  uint32_t replay_head;
  uint8_t replay[PT_TPIPE_REPLAY];
} pt_tpipe;

/* pto.syncall (src/isa/sync.c). A barrier channel counts arrivals: one per core type of
 * the hard barrier, one per GM workspace of the soft one (whose count is the i32 at the
 * workspace, in GM). An arrival with count c before it waits for count >= (c / total + 1)
 * * total (pto-isa include/pto/common/syncall_soft.hpp); each such target is a round, named
 * by a machine-wide id (1, 2, ...) in the order rounds open, for the checkers. */
#define PT_BARRIER_CHANNELS 8
typedef struct pt_barrier {
  uint64_t key;        /* hard: core type + 1; soft: the workspace's GM address | 1 << 63 */
  int64_t count;       /* hard: arrivals so far */
  int64_t open_target; /* target of the newest round, and its id */
  uint32_t open_id;
} pt_barrier;

/* A core's arrival at a pto.syncall it has not passed yet (waiting = 0: none). */
typedef struct pt_core_barrier {
  int32_t waiting;
  int32_t channel;
  int64_t target;
  uint32_t id;
} pt_core_barrier;

/* How the last tile op stored a tile in L0A / L0B / L0C where the tile type does not say it
 * (src/isa/tile_geom.c): an L0A / L0B tile stored compact although its type is not (pto-isa's
 * 1-byte transposing moves, src/isa/tile_mov.c), or the column-block pitch the cube wrote an
 * acc tile with (align16(m), whatever the tile type; src/isa/tile_matrix.c). */
typedef struct pt_l0_layout {
  uint64_t addr, end; /* bytes [addr, end) of the space that the op wrote */
  ptosim_space space;
  ptosim_dtype dtype;
  int32_t valid_rows, valid_cols; /* L0A / L0B: the packed tile's valid shape */
  int64_t pitch;                  /* L0C: rows of each 16-column block */
} pt_l0_layout;
#define PT_L0_LAYOUT_MAX 8

struct ptosim_core {
  struct ptosim_machine *m;
  int block;
  ptosim_core_kind kind;
  /* Host storage of each local space as seen from this core (NULL = not reachable). */
  uint8_t *mem[PTOSIM_SPACE_COUNT];
  uint64_t sreg[PT_SREG_COUNT];
  /* set_flag counts not yet consumed by a wait_flag, per (src pipe, dst pipe, event id). */
  uint16_t flags[PTOSIM_PIPE_COUNT][PTOSIM_PIPE_COUNT][PTOSIM_EVENT_IDS];
  /* Cross-core semaphores addressed to this core (see ptosim_core_sync_params). */
  int32_t sema[32];
  /* VMS4_SR: records each list gave to the last pto.vmrgsort4, 16 bits per list, list 0 in
   * the low bits (src/isa/vec_sfu.c); read by pto.get_vms4_sr. */
  uint64_t vms4_sr;
  /* Vector special registers AR and SQZN (include/ptosim/vec_mem.h). */
  pt_vspr vspr;
  /* For each local space this core owns (pt_core_owns): bytes [0, used[s]) may be
   * non-zero, every byte past them is still the zero of machine creation. Valid while
   * ptosim_machine.used_known (parallel blocks save only this prefix, src/exec/parallel.c). */
  uint64_t used[PTOSIM_SPACE_COUNT];
  /* Pipes parked by a wait_flag issued before its set_flag (src/isa/park.h), NULL when none. */
  struct pt_park *park;
  pt_tpipe tpipe[PTOSIM_TPIPE_FLAGS]; /* by flag base (frontend pipe id i: 4i) */
  pt_core_barrier bar;
  pt_l0_layout l0_layout[PT_L0_LAYOUT_MAX]; /* the newest last */
  int n_l0_layout;
};

/* Free the parked ops of a core (src/isa/sync.c). */
void pt_park_free(ptosim_core *c);

struct ptosim_machine {
  ptosim_target target;
  const pt_profile *prof;
  int blocks;
  ptosim_core *cores;  /* blocks * 3, index block * 3 + kind */
  uint8_t **storage;   /* owned allocations of local memories */
  int nstorage;
  pt_gm_buf *gm;       /* sorted by base */
  int ngm, gm_cap;
  uint64_t gm_next;    /* next free GM address */
  ptosim_diag diag;
  uint64_t ops_executed;
  /* Run limits (ptosim_machine_set_limits): loop back-edges taken, the most allowed, and a
   * stop request from a signal handler or another thread (ptosim_machine_interrupt); the
   * progress callback runs every PT_PROGRESS_EDGES back-edges. */
  uint64_t back_edges, max_back_edges;
  _Atomic int interrupted;
  _Atomic int *stop; /* &interrupted of the machine the user holds (worker copies share it) */
  void (*progress)(void *user, uint64_t ops_executed);
  void *progress_user;
  pt_event_fn listener; /* NULL: no event is recorded */
  void *listener_user;
  /* Eager schedule (src/check/eager.c, ptosim_monitor_opts.schedule): when set,
   * ptosim_exec hands every op to sched_ops->exec (core/sched.h); while undo is set, the
   * accessor layer saves the bytes each write access exposes (core/undo.h). */
  struct pt_sched *sched;
  const struct pt_sched_ops *sched_ops;
  struct pt_bytes *undo;
  /* The race checker (src/check/monitor.c): while gm_old is set, the accessor layer also
   * saves the GM bytes each write access exposes, so a write-after-write can be told to
   * have stored the bytes that were there (the monitor empties it after every event). */
  struct pt_bytes *gm_old;
  /* Verify-only runs (`ptosim check` evaluates ops whose operands are constants, see
   * src/exec/static_check.c): GM is not mapped, every GM access lands in gm_sink (grown
   * on demand up to PT_SINK_MAX bytes, else PT_E_STOP), and state_read records that the
   * op read memory contents or a special register, which the check does not know. */
  int verify_only;
  int state_read;
  /* Ops print nothing to the host (tprint): set while the definedness checker runs the
   * program a second time (src/check/defined.c). */
  int quiet;
  uint8_t *gm_sink;
  uint64_t gm_sink_size;
  /* ptosim_core.used is exact iff used_known and no op ran since it was last brought up to
   * date (ops_executed == used_ops): only parallel runs track the bytes ops write. */
  int used_known;
  uint64_t used_ops;
  /* Saved GM and block state of parallel runs (src/exec/parallel.c), kept for the next. */
  uint8_t *saved;
  size_t saved_cap;
  /* The last program whose blocks a parallel run found to depend on each other (or to
   * fault): its next runs on this machine go straight to the sequential order. */
  const void *sequential_program;
  /* pto.syncall: the core kinds the running program launches in every block (bit 1 <<
   * kind, set by src/exec/run.c) and the barrier channels (src/isa/sync.c). */
  uint32_t launch_kinds;
  int nbarriers;
  uint32_t barrier_ids;
  pt_barrier barriers[PT_BARRIER_CHANNELS];
};

/* Per-thread safety. Op bodies reach machine-wide state only through pt_ctx.m (=
 * core->m): the diagnostic, ops_executed, state_read, gm_sink, the listener. A worker
 * thread of a parallel run gets its own copy of the machine struct (a view: same
 * cores, memories and GM map, private copies of those fields) and points the cores of
 * the block it runs at it. A view is never freed with ptosim_machine_free and must not
 * outlive the run; nothing may map GM while it is in use. */
void pt_machine_view(ptosim_machine *view, const ptosim_machine *m, pt_event_fn listener, void *user);
/* m->saved with room for n bytes (NULL when out of memory). */
uint8_t *pt_machine_saved(ptosim_machine *m, size_t n);
/* Point the three cores of block blk at machine `to` (a view, or the machine itself). */
void pt_block_bind(ptosim_machine *m, int blk, ptosim_machine *to);

/* 1 if core c owns the host storage of local space s (the cube core every space but UB,
 * each vector core its UB). */
int pt_core_owns(const ptosim_core *c, ptosim_space s);
/* Make ptosim_core.used exact for what follows: if it is not known, every used prefix
 * becomes the whole capacity. */
void pt_machine_used_begin(ptosim_machine *m);
/* Saved state of block blk: its three cores and the used prefix of each local space they
 * own. pt_block_save writes pt_block_state_size bytes; pt_block_restore puts them back
 * and zeroes what lies between the saved prefix and the current one (the whole capacity
 * if `unknown`: writes were made that ptosim_core.used does not cover). */
size_t pt_block_state_size(const ptosim_machine *m, int blk);
void pt_block_save(const ptosim_machine *m, int blk, uint8_t *out);
void pt_block_restore(ptosim_machine *m, int blk, const uint8_t *in, int unknown);

#define PT_SINK_MAX (256ull << 20)
/* Status of a verify-only op that reached what a static check cannot see (not an error). */
#define PT_E_STOP ((ptosim_status)64)

/* Execution context of one op: who runs it, where it comes from. Op bodies receive it
 * and pass it to the memory accessors and pt_fail. */
typedef struct pt_ctx {
  ptosim_machine *m;
  ptosim_core *core;
  ptosim_opcode op;
  ptosim_loc loc;
  pt_event *ev; /* the event being recorded, NULL when nobody listens */
} pt_ctx;

#endif
