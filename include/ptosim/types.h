/* ptosim — public basic types: memory spaces, element types, pointers, diagnostics.
 * C11, no compiler extensions. */
#ifndef PTOSIM_TYPES_H
#define PTOSIM_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Target profiles (capacities and legality differ per profile, see src/core/profile.c). */
typedef enum ptosim_target {
  PTOSIM_TARGET_A2A3 = 0, /* Ascend 910B / 910C */
  PTOSIM_TARGET_A5 = 1,   /* Ascend 950 */
  PTOSIM_TARGET_COUNT
} ptosim_target;

/* Memory spaces. GM is the flat global address space of registered host buffers; every
 * other space is a byte array local to one core of a cluster.
 * L0A_MX / L0B_MX are the A5 MX scale buffers written by pto.mte_l1_l0{a,b}_mx (their
 * pointers are spelled !pto.ptr<T, l0a> / l0b in text; the op routes them). */
typedef enum ptosim_space {
  PTOSIM_GM = 0,
  PTOSIM_UB,
  PTOSIM_L1,
  PTOSIM_L0A,
  PTOSIM_L0B,
  PTOSIM_L0C,
  PTOSIM_BT,
  PTOSIM_FB,
  PTOSIM_L0A_MX,
  PTOSIM_L0B_MX,
  PTOSIM_SPACE_COUNT
} ptosim_space;

/* Hardware pipes of a core: each runs its own in-order queue of instructions; the scalar
 * pipe S issues every instruction in program order. PIPE_ALL names all of them (barriers). */
typedef enum ptosim_pipe {
  PTOSIM_PIPE_S = 0,
  PTOSIM_PIPE_MTE1,
  PTOSIM_PIPE_MTE2,
  PTOSIM_PIPE_MTE3,
  PTOSIM_PIPE_M,
  PTOSIM_PIPE_V,
  PTOSIM_PIPE_FIX,
  PTOSIM_PIPE_COUNT,
  PTOSIM_PIPE_ALL = PTOSIM_PIPE_COUNT
} ptosim_pipe;

/* Element types. Bit widths: I4 is 4 bits (two per byte, low nibble first); the
 * 8-bit floats follow OCP FP8 (E4M3FN: no inf, one NaN pattern per sign; E5M2: IEEE-like),
 * HIF8 is Ascend HiFloat8, E8M0 is the MX shared-scale format (2^(e-127), 0xFF = NaN).
 * Storage types (pointers, data movement, loads and stores; no arithmetic yet): F64 (8
 * bytes) and the packed pairs, one element holding two values (not looked inside):
 * F4E1M2X2 / F4E2M1X2 (!pto.f4E1M2x2 / !pto.f4E2M1x2, two FP4 in 1 byte), HIF8X2 (2 bytes),
 * BF16X2 (!pto.bf16x2, 4 bytes), F16V2 / BF16V2 (vector<2xf16> / vector<2xbf16>, 4 bytes). */
typedef enum ptosim_dtype {
  PTOSIM_DT_NONE = 0,
  PTOSIM_DT_I8,
  PTOSIM_DT_U8,
  PTOSIM_DT_I16,
  PTOSIM_DT_U16,
  PTOSIM_DT_I32,
  PTOSIM_DT_U32,
  PTOSIM_DT_I64,
  PTOSIM_DT_U64,
  PTOSIM_DT_F16,
  PTOSIM_DT_BF16,
  PTOSIM_DT_F32,
  PTOSIM_DT_F8E4M3,
  PTOSIM_DT_F8E5M2,
  PTOSIM_DT_HIF8,
  PTOSIM_DT_F8E8M0,
  PTOSIM_DT_I4,
  PTOSIM_DT_F64,
  PTOSIM_DT_F4E1M2X2,
  PTOSIM_DT_F4E2M1X2,
  PTOSIM_DT_HIF8X2,
  PTOSIM_DT_BF16X2,
  PTOSIM_DT_F16V2,
  PTOSIM_DT_BF16V2,
  PTOSIM_DT_COUNT
} ptosim_dtype;

/* A typed pointer into one memory space: the C form of !pto.ptr<T, space>.
 * addr is a byte address: for GM the address returned by ptosim_gm_map (plus offsets),
 * for local spaces a byte offset from the start of that space. */
typedef struct ptosim_ptr {
  uint64_t addr;
  ptosim_space space;
  ptosim_dtype dtype;
} ptosim_ptr;

/* One repetition group of a DMA op: count and start-to-start strides in the unit the op
 * states (bytes for mte_gm_ub / mte_ub_gm / mte_gm_l1 / mte_l1_ub). */
typedef struct ptosim_loop {
  int64_t count;
  int64_t src_stride;
  int64_t dst_stride;
} ptosim_loop;

/* Status codes. Every public call returns one of these; the diagnostic with details is
 * available from ptosim_last_diag(). */
typedef enum ptosim_status {
  PTOSIM_OK = 0,
  PTOSIM_E_USAGE = 1,       /* bad API use (null pointer, unknown id) */
  PTOSIM_E_VERIFY = 2,      /* a static constraint of the op is violated */
  PTOSIM_E_FAULT = 3,       /* runtime fault: bounds, alignment, deadlock */
  PTOSIM_E_UNSUPPORTED = 4, /* op or mode not supported (yet) */
  PTOSIM_E_NOMEM = 5,
  PTOSIM_BLOCKED = 6        /* not an error: a cross-core wait found its semaphore at zero;
                               nothing happened, run the other cores and issue it again */
} ptosim_status;

/* Source location of the op that raised a diagnostic (file may be NULL for C API calls). */
typedef struct ptosim_loc {
  const char *file;
  int line;
  int col;
} ptosim_loc;

typedef struct ptosim_diag {
  ptosim_status status;
  ptosim_loc loc;
  char op[48];    /* op spelling, e.g. "pto.mte_gm_l1_frac", or "" */
  char rule[64];  /* stable rule id, e.g. "mem.bounds" */
  char msg[512];  /* one-line message */
  char hint[256]; /* one-line fix hint, may be empty */
} ptosim_diag;

#ifdef __cplusplus
}
#endif
#endif
