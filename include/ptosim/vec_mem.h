/* ptosim — parameter blocks of the A5 vector loads and stores (vpto docs/isa/micro-isa/
 * 03-vector-load-store.md) and the predicate loads and stores (04-predicate-load-store.md),
 * executed by src/isa/vec_mem.c. Memory is UB only.
 *
 * Units (see docs/spec-notes.md section 9 for the evidence):
 * - `offset` of vlds / vldsx2 / vsts / vstsx2 counts elements of `dtype` (the register's
 *   element type): the effective address is ptr.addr + offset * sizeof(dtype) bytes.
 * - `offset` of plds / psts counts bytes; that of pldi / psti counts alignment units of the
 *   distribution (NORM and DS 32 B, US and PK 16 B).
 * - vsldb / vsstb strides count 32-byte blocks.
 * - The _B8/_B16/_B32/_B64 suffix of a distribution names the lane width the register is
 *   viewed at (whatever its dtype) and the granularity the mask is read at: lane i of a
 *   k-byte view is active when mask bit i * k is set.
 * - Post-update forms (updated_base != NULL) access memory at ptr.addr itself and return
 *   ptr advanced by the offset (vsstb: by repeat_stride blocks; vldus: by increment). */
#ifndef PTOSIM_VEC_MEM_H
#define PTOSIM_VEC_MEM_H

#include <stdint.h>

#include "ptosim/types.h"
#include "ptosim/vreg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.vlds distributions. Bytes read from the effective address ea (k = suffix bytes):
 *   NORM      256 B, dst = UB[ea, ea + 256)
 *   BRC_Bk    k B: every k-byte lane = UB[ea, ea + k)           (ea aligned to k)
 *   US_Bk     128 B: lanes 2i and 2i+1 (k bytes) = element i
 *   DS_Bk     the even elements of 512 B: lane i = element 2i
 *   UNPK_Bk   128 B: 2k-byte lane i = zero-extended k-byte element i
 *   BRC_BLK   32 B: each of the 8 blocks of dst = UB[ea, ea + 32)
 *   E2B_Bk    8 * k B: lane j (k bytes) = element j / (32 / k)  (ea aligned to 8 * k)
 *   UNPK4     64 B: 4-byte lane i = zero-extended byte i
 *   SPLT4CHN  256 B, c-channel split inside each 32-byte block b (c = 4, k = 1):
 *   SPLT2CHN_Bk   (c = 2, k = 1 or 2) element j of channel h of the block (j < 32 / (c k))
 *             goes to lane (32 b + h * 32 / c) / k + j, from UB element (32 b) / k + c j + h
 * All others need ea 32-byte aligned. pto.uvld takes these params with dist NORM and no
 * post form: dst = UB[ea, ea + 256) at any byte address ea (the vldas + vldus pair it
 * expands to: the 32-byte blocks [floor32(ea), ceil32(ea + 256)) are read). */
typedef enum ptosim_vld_dist {
  PTOSIM_VLD_NORM = 0,
  PTOSIM_VLD_BRC_B8, PTOSIM_VLD_BRC_B16, PTOSIM_VLD_BRC_B32,
  PTOSIM_VLD_US_B8, PTOSIM_VLD_US_B16,
  PTOSIM_VLD_DS_B8, PTOSIM_VLD_DS_B16,
  PTOSIM_VLD_UNPK_B8, PTOSIM_VLD_UNPK_B16, PTOSIM_VLD_UNPK_B32,
  PTOSIM_VLD_BRC_BLK,
  PTOSIM_VLD_E2B_B16, PTOSIM_VLD_E2B_B32,
  PTOSIM_VLD_UNPK4,
  PTOSIM_VLD_SPLT4CHN, PTOSIM_VLD_SPLT2CHN_B8, PTOSIM_VLD_SPLT2CHN_B16,
  PTOSIM_VLD_COUNT
} ptosim_vld_dist;

/* pto.vlds: dst = distribution of the UB bytes at ptr + offset (post form: at ptr). */
typedef struct ptosim_vlds_params {
  ptosim_vreg *dst;
  ptosim_ptr src;            /* ub */
  int64_t offset;            /* elements of dtype */
  ptosim_dtype dtype;        /* element type of dst */
  ptosim_vld_dist dist;
  ptosim_ptr *updated_base;  /* post-update form: receives src + offset elements; NULL otherwise */
} ptosim_vlds_params;

/* pto.vldsx2 distributions: 512 B at ea (32-byte aligned) split into two registers.
 *   BDINTLV   low = the even 32-byte blocks, high = the odd ones
 *   DINTLV_Bk low lane i = element 2i, high lane i = element 2i + 1 (k-byte elements) */
typedef enum ptosim_vldx2_dist {
  PTOSIM_VLDX2_BDINTLV = 0, PTOSIM_VLDX2_DINTLV_B8, PTOSIM_VLDX2_DINTLV_B16, PTOSIM_VLDX2_DINTLV_B32,
  PTOSIM_VLDX2_COUNT
} ptosim_vldx2_dist;

typedef struct ptosim_vldsx2_params {
  ptosim_vreg *low;
  ptosim_vreg *high;
  ptosim_ptr src;            /* ub */
  int64_t offset;            /* elements of dtype */
  ptosim_dtype dtype;
  ptosim_vldx2_dist dist;
  ptosim_ptr *updated_base;  /* post-update form: receives src + offset elements; NULL otherwise */
} ptosim_vldsx2_params;

/* pto.vsts distributions (k = suffix bytes, lane i of the k-byte view, active per mask):
 *   NORM_Bk   lane i -> UB[ea + i*k, + k)                         (32 B aligned)
 *   1PT_Bk    lane 0 only -> UB[ea, ea + k), mask ignored          (ea aligned to k)
 *   PK_Bk     low k/2 bytes of lane i -> UB[ea + i*k/2, + k/2)     (32 B aligned)
 *   PK4_B32   low byte of 4-byte lane i -> UB[ea + i]              (32 B aligned)
 *   MRG4CHN_B8, MRG2CHN_Bk: the inverse of SPLT4CHN / SPLT2CHN_Bk inside each 32-byte
 *             block (256 B, 32 B aligned); the mask is read per merged pixel of c * k
 *             bytes (MRG4CHN_B8, MRG2CHN_B16: b32 lanes; MRG2CHN_B8: b16 lanes) and an
 *             inactive pixel writes none of its bytes */
typedef enum ptosim_vst_dist {
  PTOSIM_VST_NORM_B8 = 0, PTOSIM_VST_NORM_B16, PTOSIM_VST_NORM_B32,
  PTOSIM_VST_1PT_B8, PTOSIM_VST_1PT_B16, PTOSIM_VST_1PT_B32,
  PTOSIM_VST_PK_B16, PTOSIM_VST_PK_B32, PTOSIM_VST_PK_B64, PTOSIM_VST_PK4_B32,
  PTOSIM_VST_MRG4CHN_B8, PTOSIM_VST_MRG2CHN_B8, PTOSIM_VST_MRG2CHN_B16,
  PTOSIM_VST_COUNT
} ptosim_vst_dist;

/* pto.vsts: UB at ptr + offset (post form: at ptr) = distribution of the active lanes of src. */
typedef struct ptosim_vsts_params {
  const ptosim_vreg *src;
  ptosim_ptr dst;            /* ub */
  int64_t offset;            /* elements of dtype */
  const ptosim_vmask *mask;
  ptosim_dtype dtype;        /* element type of src */
  ptosim_vst_dist dist;
  ptosim_ptr *updated_base;  /* post-update form: receives dst + offset elements; NULL otherwise */
} ptosim_vsts_params;

/* pto.vstsx2: INTLV_Bk writes 512 B at ea (32 B aligned): element 2i = low lane i, element
 * 2i + 1 = high lane i (k-byte elements); the mask is ignored (chapter 03). */
typedef enum ptosim_vstx2_dist {
  PTOSIM_VSTX2_INTLV_B8 = 0, PTOSIM_VSTX2_INTLV_B16, PTOSIM_VSTX2_INTLV_B32, PTOSIM_VSTX2_COUNT
} ptosim_vstx2_dist;

typedef struct ptosim_vstsx2_params {
  const ptosim_vreg *low;
  const ptosim_vreg *high;
  ptosim_ptr dst;            /* ub */
  int64_t offset;            /* elements of dtype */
  const ptosim_vmask *mask;  /* ignored */
  ptosim_dtype dtype;
  ptosim_vstx2_dist dist;
} ptosim_vstsx2_params;

/* pto.vsldb: block b < 8 of dst = the 32 B at ptr + (repeat_stride + b * block_stride) * 32
 * when mask lane b at b32 granularity (bit 4 * b) is set, else zero. ptr 32 B aligned;
 * strides are the 16-bit fields of the control word (only their low 16 bits count). */
typedef struct ptosim_vsldb_params {
  ptosim_vreg *dst;
  ptosim_ptr src;            /* ub */
  int64_t block_stride;      /* 32-byte blocks */
  int64_t repeat_stride;     /* 32-byte blocks */
  const ptosim_vmask *mask;
  ptosim_ptr *updated_base;  /* post form (as vsstb): repeat 0, receives src + repeat_stride * 32; NULL otherwise */
} ptosim_vsldb_params;

/* pto.vsstb: the 32 B at ptr + (repeat_stride + b * block_stride) * 32 = block b of src,
 * for the blocks whose mask lane b (bit 4 * b) is set; the others write nothing. Post form:
 * blocks at ptr + b * block_stride * 32, *updated_base = ptr + repeat_stride * 32. */
typedef struct ptosim_vsstb_params {
  const ptosim_vreg *src;
  ptosim_ptr dst;            /* ub */
  int64_t block_stride;      /* 32-byte blocks */
  int64_t repeat_stride;     /* 32-byte blocks */
  const ptosim_vmask *mask;
  ptosim_ptr *updated_base;  /* post-update form; NULL otherwise */
} ptosim_vsstb_params;

/* pto.plds / pto.pldi (ea = ptr + offset bytes, or offset units for pldi; 8-byte aligned):
 *   NORM  mask = the 32 B at ea
 *   US    16 B at ea, each bit doubled: mask bit j = payload bit j / 2
 *   DS    64 B at ea, every other bit kept: mask bit j = payload bit 2j */
typedef enum ptosim_pld_dist { PTOSIM_PLD_NORM = 0, PTOSIM_PLD_US, PTOSIM_PLD_DS, PTOSIM_PLD_COUNT } ptosim_pld_dist;

typedef struct ptosim_plds_params {
  ptosim_vmask *dst;
  ptosim_ptr src;            /* ub */
  int64_t offset;            /* bytes; pldi: units of 32 B (NORM, DS) or 16 B (US) */
  ptosim_pld_dist dist;
  ptosim_ptr *updated_base;  /* post-update form: receives src + the offset; NULL otherwise */
} ptosim_plds_params;

/* pto.psts / pto.psti (ea = ptr + offset bytes, or offset units for psti; 8-byte aligned):
 *   NORM  the 32 B of the mask -> UB[ea, ea + 32)
 *   PK    16 B: payload bit j = mask bit 2j */
typedef enum ptosim_pst_dist { PTOSIM_PST_NORM = 0, PTOSIM_PST_PK, PTOSIM_PST_COUNT } ptosim_pst_dist;

typedef struct ptosim_psts_params {
  const ptosim_vmask *src;
  ptosim_ptr dst;            /* ub */
  int64_t offset;            /* bytes; psti: units of 32 B (NORM) or 16 B (PK) */
  ptosim_pst_dist dist;
  ptosim_ptr *updated_base;  /* post-update form: receives dst + the offset; NULL otherwise */
} ptosim_psts_params;

/* ---- unaligned streams (ptosim_valign) ------------------------------------------------
 * Load side: pto.vldas primes the state with the 32-byte block holding src (addr = that
 * block, nbytes = 32). pto.vldus loads the 256 bytes at src: from the primed block for the
 * bytes before the next block boundary, from UB for the rest (whole blocks); a src that is
 * not 32-byte aligned needs the state to hold its block (rule vec.align_stream). align_out
 * holds the last block read when src is unaligned (so the next vldus at src + 256 needs no
 * vldas), else is empty.
 * Store side: the state holds the pending bytes [addr, addr + nbytes) of the stream, all
 * inside one 32-byte block; pto.init_align empties it. Each store step appends its bytes
 * at `at`, which must be where the pending bytes end; every byte before the last 32-byte
 * boundary of the stream is written to UB, the rest stays pending. A flush (vstas) writes
 * the pending bytes; its flush point must be where the stream ends. No byte outside the
 * stream is ever written. */

typedef struct ptosim_init_align_params {
  ptosim_valign *dst;
} ptosim_init_align_params;

typedef struct ptosim_vldas_params {
  ptosim_valign *dst;
  ptosim_ptr src;            /* ub, any byte address */
} ptosim_vldas_params;

typedef struct ptosim_vldus_params {
  ptosim_vreg *dst;
  ptosim_valign *align_out;
  const ptosim_valign *align_in;
  ptosim_ptr src;            /* ub, any byte address */
  int64_t increment;         /* post-update form: elements of src.dtype the base advances */
  ptosim_ptr *updated_base;  /* post-update form: receives src + increment elements; NULL otherwise */
} ptosim_vldus_params;

/* pto.vstus: append the first offset elements of src (offset * sizeof(dtype) bytes, at most
 * 256) to the stream at base (post-update form: updated_base receives base + offset
 * elements, 03-vector-load-store.md). */
typedef struct ptosim_vstus_params {
  ptosim_valign *align_out;
  const ptosim_valign *align_in;
  int64_t offset;            /* elements of dtype the stream advances */
  const ptosim_vreg *src;
  ptosim_ptr base;           /* ub */
  ptosim_dtype dtype;        /* element type of src */
  ptosim_ptr *updated_base;  /* post-update form; NULL otherwise */
} ptosim_vstus_params;

/* pto.vstas: flush the pending bytes; dst + offset elements of dst.dtype is the flush point
 * (post-update form: dst itself, and updated_base receives dst + offset elements). */
typedef struct ptosim_vstas_params {
  const ptosim_valign *align;
  ptosim_ptr dst;            /* ub */
  int64_t offset;            /* elements of dst.dtype */
  ptosim_ptr *updated_base;  /* post-update form; NULL otherwise */
} ptosim_vstas_params;

/* ---- AR-addressed unaligned stores and the vector special registers ---------------------
 * Each vector core keeps two special registers (ptosim_core.spr_ar / spr_sqzn):
 *   AR    a byte offset: pto.vstur stores at base + AR and, in POST_UPDATE mode, adds SQZN
 *         to it; pto.vstar flushes at base + AR; pto.sprclr "AR" zeroes it; pto.sprsti /
 *         pto.sprsts store its low 32 bits to UB.
 *   SQZN  the byte count of the last pto.vsqz (active lanes * element bytes), which
 *         pto.vstur stores; a vstur before any vsqz is an error (rule vec.sqzn). */

/* pto.vstur: append the first SQZN bytes of src to the stream at base + AR (the rules of
 * the store side above); POST_UPDATE then advances AR by SQZN. */
typedef enum ptosim_vstur_mode { PTOSIM_VSTUR_NO_POST_UPDATE = 0, PTOSIM_VSTUR_POST_UPDATE, PTOSIM_VSTUR_COUNT } ptosim_vstur_mode;

typedef struct ptosim_vstur_params {
  ptosim_valign *align_out;
  const ptosim_valign *align_in;
  const ptosim_vreg *src;
  ptosim_ptr base;           /* ub */
  ptosim_vstur_mode mode;
} ptosim_vstur_params;

/* pto.vstar: flush the pending bytes; base + AR is the flush point. */
typedef struct ptosim_vstar_params {
  const ptosim_valign *align;
  ptosim_ptr dst;            /* ub */
} ptosim_vstar_params;

/* The special registers the spr ops name: "AR" only (chapter 03). */
typedef enum ptosim_spr { PTOSIM_SPR_AR = 0, PTOSIM_SPR_COUNT } ptosim_spr;

/* pto.sprclr: spr = 0. */
typedef struct ptosim_sprclr_params {
  ptosim_spr spr;
} ptosim_sprclr_params;

/* pto.sprsti / pto.sprsts: the 4 bytes at ea = the low 32 bits of spr, little-endian; ea
 * 4-byte aligned. sprsti: ea = dst + 4 * offset, offset a signed 8-bit immediate (4-byte
 * words); sprsts: ea = dst + offset bytes. Post form (updated_base != NULL): ea = dst and
 * *updated_base = dst advanced by the offset. */
typedef struct ptosim_sprst_params {
  ptosim_spr spr;
  ptosim_ptr dst;            /* ub, ui32 or i32 */
  int64_t offset;            /* sprsti: 4-byte words; sprsts: bytes */
  ptosim_ptr *updated_base;  /* post-update form; NULL otherwise */
} ptosim_sprst_params;

/* pto.pstu: append the packed predicate (one bit per lane of the mask granularity, which
 * is the size of base.dtype: ui16 -> b16, 128 bits = 16 B; ui32 -> b32, 64 bits = 8 B) to
 * the stream at base; *base_out = base + those bytes. */
typedef struct ptosim_pstu_params {
  ptosim_valign *align_out;
  const ptosim_valign *align_in;
  const ptosim_vmask *src;
  ptosim_ptr base;           /* ub, ui16 or ui32 */
  ptosim_ptr *base_out;
} ptosim_pstu_params;

#ifdef __cplusplus
}
#endif
#endif
