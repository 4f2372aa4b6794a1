/* ptosim — parameter blocks of the micro-instructions, one struct per operand shape.
 * Each field names its unit. The op table (ops.def) says which struct each op takes. */
#ifndef PTOSIM_OPS_H
#define PTOSIM_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "ptosim/tile.h"
#include "ptosim/types.h"
#include "ptosim/vreg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.load / pto.store of one element (src/isa/scalar.c): `value` points at host bytes of
 * the element size (read for a store, written for a load). The address must be aligned to
 * the element size. `pipe` is PIPE_S for the scalar unit (the zero default), PIPE_V for an
 * access of the vector thread (inside a pto.vecscope, ordered by flags to PIPE_V). */
typedef struct ptosim_scalar_mem_params {
  ptosim_ptr ptr;
  void *value;
  ptosim_pipe pipe;
} ptosim_scalar_mem_params;

/* ---- synchronization (src/isa/sync.c; vpto docs/isa/micro-isa/01-pipeline-sync.md) ---- */

/* Event ids per (source pipe, destination pipe) pair: EVENT_ID0..7. */
#define PTOSIM_EVENT_IDS 8
/* Buffer-token ids of get_buf / rls_buf (A5): 32 for the whole core. */
#define PTOSIM_BUF_IDS 32

/* set_flag / wait_flag (and their _dyn forms): src_pipe signals dst_pipe with event_id. */
typedef struct ptosim_flag_params {
  ptosim_pipe src_pipe;
  ptosim_pipe dst_pipe;
  int64_t event_id;
} ptosim_flag_params;

/* pipe_barrier / barrier: drain one pipe (PTOSIM_PIPE_ALL: every pipe). */
typedef struct ptosim_pipe_params {
  ptosim_pipe pipe;
} ptosim_pipe_params;

/* get_buf / rls_buf: acquire / release buffer token buf_id for a pipe; mode 0 blocking
 * acquire + immediate release, mode 1 non-blocking acquire + deferred release. */
typedef struct ptosim_buf_params {
  ptosim_pipe pipe;
  int64_t buf_id;
  int64_t mode;
} ptosim_buf_params;

/* mem_bar barrier types: which prior UB accesses complete before which later ones
 * (VV vector->vector, VS vector->scalar, SV scalar->vector). */
typedef enum ptosim_mem_bar_kind {
  PTOSIM_MB_VV_ALL = 0, PTOSIM_MB_VST_VLD, PTOSIM_MB_VLD_VST, PTOSIM_MB_VST_VST,
  PTOSIM_MB_VS_ALL, PTOSIM_MB_VST_LD, PTOSIM_MB_VLD_ST, PTOSIM_MB_VST_ST,
  PTOSIM_MB_SV_ALL, PTOSIM_MB_ST_VLD, PTOSIM_MB_LD_VST, PTOSIM_MB_ST_VST,
  PTOSIM_MB_COUNT
} ptosim_mem_bar_kind;

typedef struct ptosim_mem_bar_params {
  ptosim_mem_bar_kind kind;
} ptosim_mem_bar_params;

/* Cross-core signals inside a block (sync.set / set_intra_block, sync.wait /
 * wait_intra_block): `pipe` triggers / waits, `id` names the semaphore. From the cube core
 * id 0..15 signals vector sub-block 0 and 16..31 sub-block 1; from vector sub-block s,
 * id 0..15 signals the cube core's semaphore id + 16 * s. */
typedef struct ptosim_core_sync_params {
  ptosim_pipe pipe;
  int64_t id;
} ptosim_core_sync_params;

/* Maximum number of loop(...) groups a grouped DMA op may carry. */
#define PTOSIM_MAX_LOOPS 16

/* pto.mte_gm_ub, pto.mte_ub_gm, pto.mte_gm_l1, pto.mte_l1_ub: grouped burst copy.
 * Lengths and strides in bytes, except pto.mte_l1_ub whose len_burst and nburst group
 * count 32-byte blocks with gaps (next row = previous + (len + gap) * 32; see
 * src/isa/dma.c). Loop groups are ordered inner to outer; loops[0] wraps nburst. */
typedef struct ptosim_dma_params {
  ptosim_ptr src;
  ptosim_ptr dst;
  int64_t l2_cache_ctl; /* cache hint, does not change values (mte_gm_ub only) */
  int64_t len_burst;    /* bytes per burst row */
  ptosim_loop nburst;   /* row count, src/dst start-to-start strides (bytes) */
  int nloops;
  ptosim_loop loops[PTOSIM_MAX_LOOPS];
  /* pad(...) of mte_gm_ub: each UB row is filled with pad_value around the data. */
  bool has_pad;
  uint64_t pad_bits;    /* pad value, bit pattern of the element type of dst */
  int64_t left_pad;     /* elements of pad before the data of each row */
  int64_t right_pad;    /* elements of pad after the data of each row */
} ptosim_dma_params;

/* pto.mte_ub_ub, pto.mte_ub_l1, pto.mte_l1_bt, pto.mte_l1_fb: burst copy with gaps.
 * len_burst and gaps in the op's unit (32-byte blocks for ub_ub/ub_l1; bias-load /
 * parameter-load units for l1_bt / l1_fb). After each burst, src advances by
 * (len_burst + src_gap) units and dst by (len_burst + dst_gap) units. */
typedef struct ptosim_gap_copy_params {
  ptosim_ptr src;
  ptosim_ptr dst;
  int64_t len_burst;
  int64_t count;
  int64_t src_gap;
  int64_t dst_gap;
} ptosim_gap_copy_params;

/* ---- legacy DMA spellings and their loop registers (src/isa/dma.c) -------------------
 * The pre-v0.6 raw copies take one burst group; their outer loops come from per-core
 * registers written by the set_loop* ops, which keep their value until overwritten
 * (reset: loop sizes 1 x 1, strides 0, pad value 0). */

/* pto.copy_gm_to_ubuf: text operand order is this field order. Bytes unless noted. */
typedef struct ptosim_copy_gm_ub_params {
  ptosim_ptr src;              /* gm */
  ptosim_ptr dst;              /* ub, 32-byte aligned */
  int64_t sid;                 /* stream id, hint only, [0, 15] */
  int64_t n_burst;             /* rows, [0, 2^21) */
  int64_t len_burst;           /* bytes per row, [0, 2^21) */
  int64_t left_pad;            /* dst elements (4 B units for 64-bit types) before the data, [0, 63] */
  int64_t right_pad;           /* same after the data of each row, [0, 63] */
  bool data_select;            /* true: pad positions, and the row up to the next 32 B, get
                                  the set_mov_pad_val value; false: left untouched */
  int64_t l2_cache_ctl;        /* hint only, [0, 15] */
  int64_t src_stride;          /* gm bytes between row starts, [0, 2^40) */
  int64_t dst_stride;          /* ub bytes between row starts, [0, 2^21), multiple of 32 */
} ptosim_copy_gm_ub_params;

/* pto.copy_ubuf_to_gm: text operand order is this field order (dst stride before src). */
typedef struct ptosim_copy_ub_gm_params {
  ptosim_ptr src;              /* ub, 32-byte aligned */
  ptosim_ptr dst;              /* gm */
  int64_t sid;                 /* stream id, hint only, [0, 15] */
  int64_t n_burst;             /* rows, [0, 2^21) */
  int64_t len_burst;           /* bytes per row, [0, 2^21) */
  int64_t reserved;            /* must be 0 */
  int64_t dst_stride;          /* gm bytes between row starts, [0, 2^40) */
  int64_t src_stride;          /* ub bytes between row starts, [0, 2^21), multiple of 32 */
} ptosim_copy_ub_gm_params;

/* pto.copy_gm_to_cbuf (A5 MOV_OUT_TO_L1_ALIGN_V2): outer loops from the *_OUTTOL1 registers. */
typedef struct ptosim_copy_gm_l1_params {
  ptosim_ptr src;              /* gm */
  ptosim_ptr dst;              /* l1, 32-byte aligned */
  int64_t n_burst;             /* rows, [0, 2^21) */
  int64_t len_burst;           /* bytes per row, [0, 2^21) */
  int64_t src_stride;          /* gm bytes between row starts, [0, 2^40) */
  int64_t dst_stride;          /* l1 bytes between row starts, [0, 2^21) */
} ptosim_copy_gm_l1_params;

/* pto.copy_ubuf_to_ubuf, pto.copy_ubuf_to_cbuf, pto.copy_cbuf_to_ubuf: gap model in
 * 32-byte blocks (after each burst src advances by (len_burst + src_gap) * 32 bytes).
 * sid: stream id for ubuf_to_*; for copy_cbuf_to_ubuf it selects the vector sub-block
 * (0 or 1) whose UB is written. */
typedef struct ptosim_copy_gap_params {
  ptosim_ptr src;
  ptosim_ptr dst;
  int64_t sid;
  int64_t n_burst;
  int64_t len_burst;           /* 32-byte blocks */
  int64_t src_gap;             /* 32-byte blocks */
  int64_t dst_gap;             /* 32-byte blocks */
} ptosim_copy_gap_params;

/* pto.set_loop_size_outtoub / _ubtoout: loop1 is the inner hardware loop, loop2 the
 * outer one; each count in [0, 2^21). In text the FIRST operand is loop2 and the second
 * loop1: that is how PTOAS packs them (loop2 << 21 | loop1, VPTOLLVMEmitter.cpp
 * packLoopSize) and how pto-isa programs the register; docs/isa-legacy/02-dma-copy.md
 * names them the other way round (see docs/spec-notes.md section 7.1). */
typedef struct ptosim_loop_size_params {
  int64_t loop1_count;
  int64_t loop2_count;
} ptosim_loop_size_params;

/* pto.set_loop{1,2}_stride_outtoub %src, %dst (gm bytes [0, 2^40), ub bytes [0, 2^21))
 * and pto.set_loop{1,2}_stride_ubtoout %src, %dst (ub bytes [0, 2^21), gm bytes [0, 2^40)):
 * start-to-start advance per iteration of that hardware loop. */
typedef struct ptosim_loop_stride_params {
  int64_t src_stride;
  int64_t dst_stride;
} ptosim_loop_stride_params;

/* pto.set_loop{1,2}_stride_outtol1 / pto.set_loop_size_outtol1: one packed register image.
 * stride: gm src stride bits [39:0], l1 dst stride bits [60:40];
 * size:   loop1 count bits [20:0], loop2 count bits [41:21]; other bits zero. */
typedef struct ptosim_loop_reg_params {
  uint64_t value;
} ptosim_loop_reg_params;

/* pto.set_mov_pad_val: pad value for GM->UB padding; dtype i8/i16/i32/f16/bf16/f32, bits
 * its bit pattern (zero-extended; copy_gm_to_ubuf takes the low bytes of one pad unit). */
typedef struct ptosim_pad_val_params {
  ptosim_dtype dtype;
  uint64_t bits;
} ptosim_pad_val_params;

typedef enum ptosim_frac_mode { PTOSIM_ND2NZ = 0, PTOSIM_DN2NZ = 1 } ptosim_frac_mode;

/* pto.mte_gm_l1_frac: GM ND/DN matrix -> L1 NZ fractal groups. */
typedef struct ptosim_frac_params {
  ptosim_ptr src;              /* gm */
  ptosim_ptr dst;              /* l1 */
  ptosim_frac_mode mode;
  int64_t n_value;             /* logical rows (elements) */
  int64_t d_value;             /* logical columns (elements) */
  int64_t src_inner_stride;    /* bytes between source rows (nd2nz) or columns (dn2nz) */
  int64_t src_outer_stride;    /* bytes between source matrices; 0 when omitted */
  int64_t group_count;         /* number of matrices */
  int64_t dst_loop2_stride;    /* C0 units (32 B) between destination rows n */
  int64_t dst_loop3_stride;    /* C0 units (32 B) between destination C0 column blocks */
  int64_t dst_loop4_stride;    /* C0 units (32 B) between destination matrices */
  int64_t l2_cache_ctrl;       /* hint only */
  bool smallc0_en;             /* small-C0 packing (d_value <= 4) */
} ptosim_frac_params;

/* pto.mte_l1_l0a (rows = m, cols = k) and pto.mte_l1_l0b (rows = k, cols = n). */
typedef struct ptosim_l0_load_params {
  ptosim_ptr src;              /* l1 fractal tile */
  ptosim_ptr dst;              /* l0a / l0b */
  int64_t rows;                /* logical M (l0a) or K (l0b) */
  int64_t cols;                /* logical K (l0a) or N (l0b) */
  int64_t start_row;           /* source extraction start, see op comment for the unit */
  int64_t start_col;
  bool transpose;
} ptosim_l0_load_params;

/* pto.mte_l1_l0a_mx (a = m, b = k) and pto.mte_l1_l0b_mx (a = k, b = n). start_row /
 * start_col (0 when omitted): where the tile starts in the L1 scale image, in 16-row blocks
 * and in 32-byte boxes (two K groups); see src/isa/cube_move.c. */
typedef struct ptosim_mx_load_params {
  ptosim_ptr src;
  ptosim_ptr dst;
  int64_t a;
  int64_t b;
  int64_t start_row;
  int64_t start_col;
} ptosim_mx_load_params;

/* ---- cube data movement: raw A5 "2Dv2" L1 -> L0A / L0B fractal loads --------------------
 * pto.load_cbuf_to_ca / pto.load_cbuf_to_cb (legacy spellings used by real programs; A5 only).
 * Units are those of the hardware instruction: the source is an L1 NZ image of 512-byte
 * fractals (16 rows x 32 bytes); m_start / m_step count 16-row fractal rows of the source,
 * k_start / k_step count 32-byte column blocks of the source, src_stride is the number of
 * fractals between source column blocks, dst_stride the number of fractals between
 * destination column blocks. See src/isa/cube_move.c for the transposed form. */
typedef struct ptosim_l0_raw_params {
  ptosim_ptr src;              /* l1 */
  ptosim_ptr dst;              /* l0a (load_cbuf_to_ca) or l0b (load_cbuf_to_cb) */
  int64_t m_start;             /* [0, 65535] source fractal rows */
  int64_t k_start;             /* [0, 65535] source 32-byte column blocks */
  int64_t m_step;              /* [0, 255] source fractal rows moved */
  int64_t k_step;              /* [0, 255] source column blocks moved */
  int64_t src_stride;          /* [0, 65535] fractals between source column blocks */
  int64_t dst_stride;          /* [0, 65535] fractals between destination column blocks */
  bool transpose;
} ptosim_l0_raw_params;

typedef enum ptosim_unit_flag {
  PTOSIM_UNIT_FLAG_NONE = 0,
  PTOSIM_UNIT_FLAG_CHECK_ONLY,
  PTOSIM_UNIT_FLAG_CHECK_AND_SET,   /* mad */
  PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR  /* fixpipe */
} ptosim_unit_flag;

typedef enum ptosim_sat_mode {
  PTOSIM_SAT_DEFAULT = 0, /* clause omitted */
  PTOSIM_SAT_SAT,
  PTOSIM_SAT_SAT_PRESERVE_NAN,
  PTOSIM_SAT_NOSAT
} ptosim_sat_mode;

typedef enum ptosim_tf32_mode { PTOSIM_TF32_NONE = 0, PTOSIM_TF32_ROUND_EVEN, PTOSIM_TF32_ROUND_AWAY } ptosim_tf32_mode;

/* pto.mad, pto.mad_acc, pto.mad_bias and the MX forms. m, n, k in elements. */
typedef struct ptosim_mad_params {
  ptosim_ptr lhs;   /* l0a, logical m x k */
  ptosim_ptr rhs;   /* l0b, logical k x n */
  ptosim_ptr dst;   /* l0c, logical m x n */
  ptosim_ptr bias;  /* bt, n values (bias forms only) */
  int64_t m, n, k;
  ptosim_unit_flag unit_flag;
  bool disable_gemv;
  ptosim_sat_mode sat;
  ptosim_tf32_mode tf32;
  bool n_dir;
} ptosim_mad_params;

typedef enum ptosim_fix_layout {
  PTOSIM_FIX_NORMAL = 0, /* no layout clause */
  PTOSIM_FIX_NZ2ND,
  PTOSIM_FIX_NZ2DN,
  PTOSIM_FIX_NZ2NZ
} ptosim_fix_layout;

typedef enum ptosim_dst_mode {
  PTOSIM_DST_SUBBLOCK = 0, /* dst_mode(%sub_blockid) */
  PTOSIM_DST_SPLIT_M,
  PTOSIM_DST_SPLIT_N
} ptosim_dst_mode;

/* FIXPIPE pre-quant modes, in the order the spec lists them. */
typedef enum ptosim_quant_mode {
  PTOSIM_QUANT_NONE = 0,
  PTOSIM_QUANT_F32_F16,
  PTOSIM_QUANT_QF322HIF8_PRE_VEC,
  PTOSIM_QUANT_QF322HIF8_PRE_SCALAR,
  PTOSIM_QUANT_QF322HIF8_PRE_HYBRID_VEC,
  PTOSIM_QUANT_QF322HIF8_PRE_HYBRID_SCALAR,
  PTOSIM_QUANT_DEQS32_INT_VEC,
  PTOSIM_QUANT_DEQS32_INT_SCALAR,
  PTOSIM_QUANT_REQ8_VEC,
  PTOSIM_QUANT_REQ8_SCALAR,
  PTOSIM_QUANT_DEQF16_VEC,
  PTOSIM_QUANT_DEQF16_SCALAR,
  PTOSIM_QUANT_QF322FP8_PRE_VEC,
  PTOSIM_QUANT_QF322FP8_PRE_SCALAR,
  PTOSIM_QUANT_QF322F32_PRE_VEC,
  PTOSIM_QUANT_QF322F32_PRE_SCALAR,
  PTOSIM_QUANT_F32_BF16,
  PTOSIM_QUANT_QF162B8_PRE_VEC,
  PTOSIM_QUANT_QF162B8_PRE_SCALAR,
  PTOSIM_QUANT_QF162S4_PRE_VEC,
  PTOSIM_QUANT_QF162S4_PRE_SCALAR,
  PTOSIM_QUANT_REQ4_VEC,
  PTOSIM_QUANT_REQ4_SCALAR,
  PTOSIM_QUANT_QF322B8_PRE_VEC,
  PTOSIM_QUANT_QF322B8_PRE_SCALAR,
  PTOSIM_QUANT_QF322S4_PRE_VEC,
  PTOSIM_QUANT_QF322S4_PRE_SCALAR,
  PTOSIM_QUANT_DEQS16_VEC,
  PTOSIM_QUANT_DEQS16_SCALAR,
  PTOSIM_QUANT_QF162S16_PRE_VEC,
  PTOSIM_QUANT_QF162S16_PRE_SCALAR,
  PTOSIM_QUANT_QF322F16_PRE_VEC,
  PTOSIM_QUANT_QF322F16_PRE_SCALAR,
  PTOSIM_QUANT_QF322BF16_PRE_VEC,
  PTOSIM_QUANT_QF322BF16_PRE_SCALAR,
  PTOSIM_QUANT_QS322BF16_PRE_VEC,
  PTOSIM_QUANT_QS322BF16_PRE_SCALAR,
  PTOSIM_QUANT_COUNT
} ptosim_quant_mode;

typedef enum ptosim_relu_mode {
  PTOSIM_RELU_NONE = 0, /* clause omitted */
  PTOSIM_RELU_NO_RELU,
  PTOSIM_RELU_NORMAL,
  PTOSIM_RELU_SCALAR,
  PTOSIM_RELU_VECTOR
} ptosim_relu_mode;

typedef enum ptosim_atomic_op { PTOSIM_ATOMIC_NONE = 0, PTOSIM_ATOMIC_ADD, PTOSIM_ATOMIC_MAX, PTOSIM_ATOMIC_MIN } ptosim_atomic_op;

/* pto.set_atomic_none / _add / _max / _min set the operation, pto.set_atomic_f32 / _f16 /
 * _bf16 / _s32 / _s16 / _s8 the element type of the GM atomic mode: while an operation is
 * set, MTE3 UB -> GM copies (mte_ub_gm, copy_ubuf_to_gm) write gm[i] = op(gm[i], ub[i]) per
 * element of that type. */
typedef struct ptosim_atomic_mode_params {
  ptosim_atomic_op op; /* set_atomic_<op> */
  ptosim_dtype type;   /* set_atomic_<type> */
} ptosim_atomic_mode_params;

/* A scalar operand with its type: bits holds the value's bit pattern in `dtype`
 * (f16/bf16/f32 for payloads; integer types for clip). */
typedef struct ptosim_scalar {
  ptosim_dtype dtype;
  uint64_t bits;
} ptosim_scalar;

/* pto.mte_l0c_l1 / pto.mte_l0c_gm / pto.mte_l0c_ub (FIXPIPE writeback). */
typedef struct ptosim_fixpipe_params {
  ptosim_ptr src;              /* l0c, f32 or i32 */
  ptosim_ptr dst;              /* l1 / gm / ub */
  int64_t m, n;                /* logical result rectangle, elements */
  int64_t src_stride;          /* C0-size units of the accumulator: 16-element (64-byte) rows */
  int64_t dst_stride;          /* destination elements (row, column or block pitch by layout) */
  int64_t sid;                 /* gm only: stream hint in [0, 3] */
  int64_t l2_cache_ctrl;       /* gm only: cache hint in [0, 15] */
  ptosim_dst_mode dst_mode;    /* ub only */
  int64_t sub_blockid;         /* ub only, dst_mode == SUBBLOCK: 0 or 1 */
  ptosim_unit_flag unit_flag;  /* NONE, CHECK_ONLY or CHECK_AND_CLEAR */
  ptosim_quant_mode quant;     /* NONE = no pre_quant clause */
  ptosim_scalar quant_scalar;  /* *_scalar modes and f32_f16 / f32_bf16: f16 / bf16 / f32 value */
  ptosim_ptr quant_vec;        /* *_vec modes: fb pointer to 128 B rows of 8-byte channel words */
  ptosim_relu_mode relu;       /* NONE = no pre_relu clause */
  ptosim_scalar relu_scalar;   /* scalar_relu alpha: f16 / bf16 / f32 value */
  ptosim_ptr relu_vec;         /* vector_relu: fb pointer to 64 B rows of f32 channel alphas */
  bool has_clip;
  ptosim_scalar clip;          /* f16 for f16, 16-bit int for ui8, i4/i8/i16 for signed dst */
  ptosim_fix_layout layout;
  int64_t loop0_src_stride;    /* nz2dn: source row step, C0-size units (1 = packed rows) */
  int64_t split;               /* nz2nz: channel split (1: 8-f32 destination rows), 0 or 1 */
  bool has_loop3;
  ptosim_loop loop3;           /* count, src stride (C0-size units), dst stride (dst elements) */
  ptosim_sat_mode sat;         /* DEFAULT (no clause) behaves as nosat */
  ptosim_atomic_op atomic;     /* gm only */
  ptosim_dtype atomic_type;    /* gm only: f32 f16 bf16 i32 i16 i8, equal to the dst type */
} ptosim_fixpipe_params;

#ifdef __cplusplus
}
#endif

#include "ptosim/regs.h"
#include "ptosim/tile_elem.h"
#include "ptosim/tile_layout.h"
#include "ptosim/tile_matrix.h"
#include "ptosim/tile_mode.h"
#include "ptosim/tile_interleave.h"
#include "ptosim/tile_move.h"
#include "ptosim/tile_reduce.h"
#include "ptosim/tile_pipe.h"
#include "ptosim/vec_mem.h"
#include "ptosim/vec_arith.h"
#include "ptosim/vec_conv.h"
#include "ptosim/ub_vec.h"
#include "ptosim/vec_sfu.h"
#include "ptosim/vec_reduce.h"
#endif
