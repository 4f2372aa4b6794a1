/* ptosim — parameter blocks of the micro-instructions, one struct per operand shape.
 * Each field names its unit. The op table (ops.def) says which struct each op takes. */
#ifndef PTOSIM_OPS_H
#define PTOSIM_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ops without operands (barriers etc.). */
typedef struct ptosim_no_params {
  int unused;
} ptosim_no_params;

/* Maximum number of loop(...) groups a grouped DMA op may carry. */
#define PTOSIM_MAX_LOOPS 16

/* pto.mte_gm_ub, pto.mte_ub_gm, pto.mte_gm_l1, pto.mte_l1_ub: grouped burst copy.
 * All lengths and strides in bytes. Loop groups are ordered inner to outer; loops[0]
 * wraps the nburst group. */
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

/* pto.mte_l1_l0a_mx (a = m, b = k) and pto.mte_l1_l0b_mx (a = k, b = n). */
typedef struct ptosim_mx_load_params {
  ptosim_ptr src;
  ptosim_ptr dst;
  int64_t a;
  int64_t b;
} ptosim_mx_load_params;

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

/* A scalar operand with its type: bits holds the value's bit pattern in `dtype`
 * (f16/bf16/f32 for payloads; integer types for clip). */
typedef struct ptosim_scalar {
  ptosim_dtype dtype;
  uint64_t bits;
} ptosim_scalar;

/* pto.mte_l0c_l1 / pto.mte_l0c_gm / pto.mte_l0c_ub (FIXPIPE writeback). */
typedef struct ptosim_fixpipe_params {
  ptosim_ptr src;              /* l0c */
  ptosim_ptr dst;              /* l1 / gm / ub */
  int64_t m, n;                /* logical result rectangle, elements */
  int64_t src_stride;          /* C0-size units of the accumulator (16 elements) */
  int64_t dst_stride;          /* destination elements */
  int64_t sid;                 /* gm only: stream hint in [0, 3] */
  int64_t l2_cache_ctrl;       /* gm only: cache hint in [0, 15] */
  ptosim_dst_mode dst_mode;    /* ub only */
  int64_t sub_blockid;         /* ub only, dst_mode == SUBBLOCK: 0 or 1 */
  ptosim_unit_flag unit_flag;
  ptosim_quant_mode quant;
  ptosim_scalar quant_scalar;  /* *_scalar modes and f32_f16 / f32_bf16 */
  ptosim_ptr quant_vec;        /* *_vec modes: fb pointer to 128 B parameter rows */
  ptosim_relu_mode relu;
  ptosim_scalar relu_scalar;   /* scalar_relu alpha */
  ptosim_ptr relu_vec;         /* vector_relu: fb pointer to 64 B alpha rows */
  bool has_clip;
  ptosim_scalar clip;
  ptosim_fix_layout layout;
  int64_t loop0_src_stride;    /* nz2dn: C0-size units */
  int64_t split;               /* nz2nz */
  bool has_loop3;
  ptosim_loop loop3;           /* count, src stride (C0 units), dst stride (dst elements) */
  ptosim_sat_mode sat;
  ptosim_atomic_op atomic;     /* gm only */
  ptosim_dtype atomic_type;
} ptosim_fixpipe_params;

#ifdef __cplusplus
}
#endif
#endif
