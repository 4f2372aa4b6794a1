/* ptosim — parameter blocks of the tile reduce and expand ops (src/isa/tile_reduce.c) and of
 * the irregular tile ops (src/isa/tile_irregular.c).
 * All tiles are vec (UB) tiles; the iteration domain is the destination's valid region and
 * nothing else of the destination is written. Orders of evaluation: docs/spec-notes.md section 17. */
#ifndef PTOSIM_TILE_REDUCE_H
#define PTOSIM_TILE_REDUCE_H

#include <stdbool.h>

#include "ptosim/ops.h"
#include "ptosim/tile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.trow{sum,max,min,prod,argmax,argmin} ins(%src [, %tmp]) outs(%dst):
 *   dst(r, 0) = reduce over c < src.valid_cols of src(r, c), r < dst.valid_rows
 * (arg forms: the smallest c of the extremum, as u32 / i32); dst is ND or a one-column DN tile.
 * pto.tcol{sum,max,min,prod} ins(%src [, %tmp]) outs(%dst), pto.tcolarg{max,min} ins(%src, %tmp):
 *   dst(0, c) = reduce over r < src.valid_rows of src(r, c), c < dst.valid_cols
 * (tcolsum with binary = true: the pairwise tree of pto-isa's isBinary form).
 * pto.tpairreducesum ins(%src) outs(%dst): src and dst of the same valid shape R x V;
 *   dst(r, k) = src(r, 2k) + src(r, 2k + 1), k < V / 2 (on A5 two full-width or one-row tiles:
 *   dst_flat[k] = src_flat[2k] + src_flat[2k + 1], k < R V / 2; docs/spec-notes.md).
 * tmp is the NPU's scratch tile: checked (vec tile of src's element type), never read or written. */
typedef struct ptosim_treduce_params {
  ptosim_tile src;
  ptosim_tile tmp;
  bool has_tmp;
  bool binary; /* tcolsum isBinary */
  ptosim_tile dst;
} ptosim_treduce_params;

/* pto.trowexpand / pto.tcolexpand ins(%src0) outs(%dst):
 *   dst(r, c) = src0(r, 0) (row) / src0(0, c) (col), over dst's valid region.
 * pto.trowexpand{add,sub,mul,div,max,min,expdif} ins(%src0, %src1 [, %tmp]) outs(%dst):
 *   dst(r, c) = f(x0, x1): the operand whose valid region equals dst's (src0 first) gives
 *   its element (r, c), the other one a per-row value: element (r, 0) of a column-major
 *   (DN) tile of one valid column, or b_r[c mod (32 / es)] of a row-major tile whose valid
 *   columns are one 32-byte block (pto-isa trowexpand*.md mode 2).
 * pto.tcolexpand{add,sub,mul,div,max,min,expdif} ins(%src0, %src1) outs(%dst):
 *   dst(r, c) = f(src0(r, c), src1(0, c)).
 * f: add, sub, mul, div, max, min, expdif = exp(x0 - x1). */
typedef struct ptosim_texpand_params {
  ptosim_tile src0;
  ptosim_tile src1; /* not used by trowexpand / tcolexpand */
  ptosim_tile tmp;
  bool has_tmp;
  ptosim_tile dst;
  bool high_precision; /* trowexpanddiv / tcolexpanddiv precisionType = #pto<div_precision high_precision>:
                          a5 divides f32 / f16 as custom/Div754.hpp DivIEEE754*Impl (tdivs does the
                          same; docs/spec-notes.md section 33), a2a3 as DEFAULT */
} ptosim_texpand_params;

/* ---- irregular tile ops (src/isa/tile_irregular.c) ---------------------------------------- */

/* pto.tci ins(%start {descending = B} : iN) outs(%dst): dst(0, c) = start + c (descending:
 * start - c) wrapped to the element type, c < dst.valid_cols; only the first row is written
 * (pto-isa tci.md: the sequence length is valid_cols, valid_rows is not consulted). i16 / u16 /
 * i32 / u32 tiles. */
typedef struct ptosim_tci_params {
  ptosim_tile dst;
  int64_t start;
  bool descending;
  /* ins(%start, %tmp): the NPU's scratch tile (pto-isa TCI with tmp; PTOAS TCIOp: on A2/A3 a
   * row_major vec tile of f32 / i32 of at least 768 bytes, 1792 for 16-bit dst). Not written
   * by ptosim; ascending only (the NPU's tmp code negates start + c for descending). */
  bool has_tmp;
  ptosim_tile tmp;
} ptosim_tci_params;

/* pto.ttri ins(%diagonal {upperOrLower = U} : iN) outs(%dst): over dst's valid region,
 * lower (U = 0): dst(i, j) = 1 if j <= i + diagonal else 0; upper (U = 1): 0 if
 * j < i + diagonal else 1 (1 and 0 in the element type). */
typedef struct ptosim_ttri_params {
  ptosim_tile dst;
  int64_t diagonal;
  int32_t upper;
} ptosim_ttri_params;

/* %v = pto.tgetval ins(%src, %offset : T, index) outs : E: the element at storage offset
 * `offset` (elements from the tile address, 0 <= offset < rows * cols) of a vec tile. Integers
 * are written to *ivalue (sign-extended; unsigned types zero-extended), floats to *fvalue;
 * either pointer may be NULL. */
typedef struct ptosim_tgetval_params {
  ptosim_tile src;
  int64_t offset;
  int64_t *ivalue;
  double *fvalue;
} ptosim_tgetval_params;

/* pto.tsetval ins(%offset, %val : index, E) outs(%dst): the element at storage offset
 * `offset` of dst = value (whose dtype must be dst's element type). */
typedef struct ptosim_tsetval_params {
  ptosim_tile dst;
  int64_t offset;
  ptosim_scalar value;
} ptosim_tsetval_params;

/* pto.tsort32 ins(%src, %idx [, %tmp]) outs(%dst) takes ptosim_texpand_params: src0 = the f16 /
 * f32 values, src1 = the u32 indices (src's valid region, or one row used by every row), tmp =
 * the padding tile the NPU needs for a partial last block (checked: required then, with
 * tsort32.md's size; not read or written). Per row, each block of 32 (the last may be shorter)
 * (value, index) pairs is sorted by value descending, NaN first, ties by the smaller index,
 * and written as 8-byte tuples [value bytes, zeros to 4 bytes, u32 index] to dst's row from
 * byte 0: dst needs src's valid rows and 8 / es elements per source element.
 * pto.tpart{add,mul,max,min} ins(%src0, %src1) outs(%dst) take ptosim_texpand_params (no
 * tmp): one source's valid region equals dst's, the other's lies inside it; dst(r, c) =
 * f(src0(r, c), src1(r, c)) where both are valid, the value of the source that is valid elsewhere. */

/* pto.tgather, index form: ins(%src, %indices [, %tmp]) outs(%dst):
 *   dst(i, j) = src_flat[indices(i, j)] over dst's valid region; src_flat is src's storage
 *   from its address (elements), an index must lie in [0, rows * cols) of src (else the
 *   error tgather.index: the NPU result is undefined). 2- or 4-byte data with 4-byte indices;
 *   A5 also 2-byte data with 2-byte indices and 1-byte data (i8, u8, fp8, hif8) with 2-byte
 *   indices (the mask form takes the 1-byte types on A5 too).
 * Mask form: ins(%src, {maskPattern = #pto.mask_pattern<P....>}) outs(%dst): the elements
 *   (r, c) of src's valid region whose column c the pattern selects (P0101: c % 2 == 0,
 *   P1010: c % 2 == 1, P0001 / P0010 / P0100 / P1000: c % 4 == 0 / 1 / 2 / 3, P1111: all), in
 *   row-major order, packed densely from dst's first element (pto-isa MaskPattern, vreducev2).
 * Column axis (axis = PTOSIM_AXIS_COL, text `"col"` after the mask-pattern operand's type; pto-isa
 *   TGATHER<.., GatherAxis::GATHER_COL>): the pattern selects rows instead: dst row i = src row
 *   t * i + o (t = 2 for P0101 / P1010, 4 for P0001 .. P1000, 1 for P1111; o = the pattern's
 *   position in its group), its src valid columns, for i < dst valid rows; src valid rows must
 *   be t * dst valid rows (tgather.shape).
 * tmp is the NPU's scratch tile (checked, not read or written). */
typedef enum ptosim_mask_pattern {
  PTOSIM_MP_INDEX = 0, /* index form */
  PTOSIM_MP_P0101 = 1,
  PTOSIM_MP_P1010,
  PTOSIM_MP_P0001,
  PTOSIM_MP_P0010,
  PTOSIM_MP_P0100,
  PTOSIM_MP_P1000,
  PTOSIM_MP_P1111
} ptosim_mask_pattern;

/* The axis of a mask-pattern tgather / tscatter (PTOAS `"row"` / `"col"`, pto-isa GatherAxis /
 * ScatterAxis): ROW selects columns of every row, COL selects rows. */
typedef enum ptosim_mask_axis { PTOSIM_AXIS_ROW = 0, PTOSIM_AXIS_COL = 1 } ptosim_mask_axis;

typedef struct ptosim_tgather_params {
  ptosim_tile src;
  ptosim_tile indices;
  ptosim_tile tmp;
  bool has_tmp;
  ptosim_mask_pattern pattern;
  ptosim_tile dst;
  ptosim_mask_axis axis; /* mask forms: the axis the pattern selects along (row: columns) */
} ptosim_tgather_params;

/* pto.tgatherb ins(%src, %offsets) outs(%dst): 32-byte blocks by byte offset (pto-isa a2a3 /
 *   a5 TGatherB.hpp: one u32 offset per 32 bytes of dst): bytes [32b, 32b + 32) of dst row i =
 *   the 32 bytes of src's storage at byte offset offsets(i, b), b < ceil(valid_cols * es / 32);
 *   only dst's valid bytes are written; a block must lie inside src (tgatherb.offset).
 * pto.tscatter ins(%src, %indexes) outs(%dst): dst's whole storage set to 0, then for (i, j) in
 *   the index tile's valid region in row-major order dst_flat[indexes(i, j)] = src(i, j) (the
 *   last write wins); an index must lie in [0, rows * cols) of dst (tscatter.index). Index
 *   tiles: i32 / u32 for 4-byte data, i16 / u16 for 2- and 1-byte data.
 * Mask form of tscatter (pattern != PTOSIM_MP_INDEX; no index tile), t and o as for tgather:
 *   P1111 copies src's valid region to dst (same valid shapes, tscatter.valid), nothing else
 *   written. Other patterns: dst's whole storage set to 0, then for (i, j) in src's valid region
 *   ROW: dst(i, t * j + o) = src(i, j) (dst valid = src valid rows x t * src valid cols);
 *   COL: dst(t * i + o, j) = src(i, j) (dst valid = t * src valid rows x src valid cols).
 *   pattern and axis are tscatter's only (tgatherb ignores them). */
typedef struct ptosim_tindex_params {
  ptosim_tile src;
  ptosim_tile index;
  ptosim_tile dst;
  ptosim_mask_pattern pattern; /* tscatter: PTOSIM_MP_INDEX (0) = index form */
  ptosim_mask_axis axis;       /* tscatter mask form */
} ptosim_tindex_params;

/* pto.tconcatidx ins(%src0, %src1, %idx0, %idx1) outs(%dst): per row i < dst.valid_rows,
 *   n0 = idx0(i, 0) / sizeof(idx element), n1 likewise (the counts are stored scaled by the
 *   index element size: pto-isa a2a3 TConcat.hpp TConcatIdx and its tests' gen_data.py);
 *   k0 = min(n0, dst.valid_cols), k1 = min(n1, dst.valid_cols - k0);
 *   dst(i, 0..k0) = src0(i, 0..k0), dst(i, k0..k0+k1) = src1(i, 0..k1); the rest of the row is
 *   not written. A count must fit its source's row (tconcatidx.count).
 * pto.tpartargmax / pto.tpartargmin ins(%src0, %src1, %idx0, %idx1) outs(%dst, %dst_idx): as
 *   tpartmax / tpartmin on the values, the winner's index element copied to dst_idx; ties keep
 *   src0; f16 / f32 values, f16 with 16- or 32-bit indices, f32 with 32-bit ones. */
typedef struct ptosim_tconcatidx_params {
  ptosim_tile src0;
  ptosim_tile src1;
  ptosim_tile idx0;
  ptosim_tile idx1;
  ptosim_tile dst;
  ptosim_tile dst_idx; /* tpartarg* only */
} ptosim_tconcatidx_params;

/* pto.tmrgsort: merges lists of 8-byte (value, u32 index) tuples (tsort32's output; f16 / f32
 * tiles of one row, 8 / es elements per tuple) into one list, value descending (NaN first),
 * ties taking the lower-numbered list first and keeping each list's order.
 * Format 1, ins(%src, %blockLen : T, iN) outs(%dst): nsrc = 1; src's valid columns are groups
 *   of 4 consecutive sorted blocks of block_len elements (block_len a multiple of 64, 1..255
 *   groups); each group is merged into the same columns of dst.
 * Format 2, ins(2 to 4 srcs, %tmp) outs(%dst, %executed): nsrc = 2..4 lists src[k] (each its
 *   valid columns), tmp the NPU's staging tile (checked: vec, dst's dtype, at least as many
 *   columns as the lists' total; not used), or no_tmp; all tuples are merged into dst from
 *   column 0; with exhausted, the merge stops when one list is used up and executed[k] says how
 *   many tuples each list gave (the text form leaves its vector<4xi16> operand alone). */
typedef struct ptosim_tmrgsort_params {
  ptosim_tile src[4];
  int32_t nsrc;
  int64_t block_len; /* format 1, elements */
  ptosim_tile tmp;   /* format 2 */
  bool exhausted;
  ptosim_tile dst;
  uint16_t *executed; /* out (format 2, may be NULL): 4 counts, tuples taken from each list */
  bool no_tmp;        /* format 2 without a tmp tile (PTOAS `no_tmp`) */
} ptosim_tmrgsort_params;

/* pto.thistogram ins(%src, %idx) outs(%dst) {isMSB = B} (A5): per row r < src.valid_rows,
 *   dst(r, b) for b < 256 = the number of c < src.valid_cols whose high byte of src(r, c) is b
 *   (is_msb), or (not is_msb) whose high byte equals idx(r, 0) and low byte is b. src u16 ND,
 *   idx u8 DN of one column, dst u32 ND with at least 256 valid columns (the first 256 written);
 *   counts replace dst's values (pto-isa a5/THistogram.hpp zeroes its bins per row). */
typedef struct ptosim_thistogram_params {
  ptosim_tile src;
  ptosim_tile idx;
  ptosim_tile dst;
  bool is_msb;
} ptosim_thistogram_params;

/* pto.tquant ins(%src, %fp [, %offset]) outs(%dst) {quant_type = INT8_SYM | INT8_ASYM}: per
 *   element of dst's valid region, y = src(r, c) * scale(r) (f32), ASYM: y = y + offset(r)
 *   (f32), dst = y rounded to nearest even and saturated to int8 (SYM) / uint8 (ASYM), NaN ->
 *   0 (pto-isa a5 TQuant.hpp TQuant_Int8Sym / Asym: f32 -> s32 -> f32 -> f16 -> 8 bits).
 *   src f32; scale / offset one f32 per row in a one-column DN tile. On A2/A3 src also
 *   receives y (a2a3 TQuant.hpp scales src in place with TROWEXPANDMUL / TROWEXPANDADD).
 * pto.tdequant ins(%src, %scale, %offset) outs(%dst): dst(r, c) = (f32(src(r, c)) - offset(r))
 *   * scale(r), each step rounded to f32; src i8 / i16, scale / offset f32 element (r, 0). */
typedef enum ptosim_quant_type {
  PTOSIM_QUANT_INT8_SYM = 0,
  PTOSIM_QUANT_INT8_ASYM = 1,
  PTOSIM_QUANT_MXFP8 = 2,      /* pto.tquant.mx (PTOAS QuantType numbering) */
  PTOSIM_QUANT_MXFP4_E2M1 = 3
} ptosim_quant_type;

typedef struct ptosim_tquant_params {
  ptosim_tile src;
  ptosim_tile scale;
  ptosim_tile offset; /* tquant: INT8_ASYM only */
  ptosim_tile dst;
  ptosim_quant_type quant;
  /* tquant outs(%dst, %tmp): a vec f32 tile of at least src's rows x cols elements. A2/A3
   * (a2a3 TQuant.hpp tmp overload) then leaves the s32 rint(y) in tmp as a src.rows x src.cols
   * row-major tile, and f16(that) in src's bytes as a src.rows x align16(src.cols) f16 tile,
   * instead of y; A5 does not use it. */
  bool has_tmp;
  ptosim_tile tmp;
} ptosim_tquant_params;

/* pto.tquant.mx ins(%src) outs(%dst, %exp, %max, %scaling [, %exp_zz]) {quant_type = MXFP8 |
 *   MXFP4_E2M1, quantScaleAlg = ocp | nv, grpAxis = axis0 | axis1, interleave, storeMode}
 *   (A5; pto-isa a5 TQuant.hpp). Per group of 32 source elements along the group axis:
 *   m = max |a| (the max tile), shared exponent e (the exp tile, E8M0 bytes), scaling
 *   s = 2^(127 - e) as a src-type value (the scaling tile), dst = fp8 e4m3(a * s) rounded to
 *   nearest even, saturated, NaN kept. OCP: e = biased exponent of m - 8 (0 when m < 2^-118);
 *   NV: e = ceil(log2(m / 448)) + 127. ptosim models the MXFP8 axis1 forms of an f32 source
 *   (exp tile [M, N/32] or flat [1, M*N/32]) and the axis1 OCP flat-exp forms of a bf16 /
 *   f16 source: MXFP8, or MXFP4 (dst e2m1 pairs, dst [M, N/2]; e = exponent of m - 2), with
 *   bf16 bits in the max and scaling tiles (f16 too), and the axis0 forms (groups of 32 rows
 *   per column; f32 / bf16 / f16, OCP / NV, MXFP8 / MXFP4, interleaved exp for b16); the
 *   exp_zz form is refused (tquant_mx.form). */
typedef enum ptosim_mx_scale_alg { PTOSIM_MX_OCP = 0, PTOSIM_MX_NV = 1 } ptosim_mx_scale_alg;

typedef struct ptosim_tquant_mx_params {
  ptosim_tile src;
  ptosim_tile dst;
  ptosim_tile exp;
  ptosim_tile max;
  ptosim_tile scaling;
  ptosim_tile exp_zz;       /* the deprecated fused form only (has_exp_zz) */
  bool has_exp_zz;
  ptosim_quant_type quant;  /* MXFP8 or MXFP4_E2M1 */
  ptosim_mx_scale_alg alg;
  int32_t grp_axis;         /* 1: groups of 32 columns (ND), 0: of 32 rows (DN) */
  bool interleave;          /* axis0 only */
} ptosim_tquant_mx_params;

/* pto.trandom ins(%k0, %k1, %c0, %c1, %c2, %c3 {rounds = 7 | 10} : ...) outs(%dst) (i32 / u32
 *   ND tile): Philox4x32 with `rounds` rounds (multipliers 0xD2511F53, 0xCD9E8D57, key bumps
 *   0x9E3779B9, 0xBB67AE85) as pto-isa a5/TRandom.hpp computes it: row r is generated in
 *   blocks of 256 elements; element 256 j + 4 l + w of the block is word w of
 *   Philox(key, C + l), l < 64, with the 128-bit counter C (c0 least significant) starting at
 *   (c0, c1, c2, c3), advancing by 64 after each block but the last of a row and by
 *   ((valid_cols - 1) mod 64) + 1 after it. Same key and counter, same bits. */
typedef struct ptosim_trandom_params {
  ptosim_tile dst;
  uint32_t key[2];
  uint32_t counter[4];
  int32_t rounds; /* 7 or 10 */
} ptosim_trandom_params;

/* pto.tprint ins(%src : T): prints the valid region of tile src (any space and layout) to
 * stdout, one header line and one line per valid row:
 *   tprint <dtype> <rows>x<cols> valid <valid_rows>x<valid_cols> <space>+0x<addr hex>
 *   [<r>] <v(r,0)> <v(r,1)> ... <v(r,valid_cols-1)>
 * values separated by one space: floats (f32, f16, bf16, the 8-bit floats) as printf "%.9g"
 * of their value (nan, inf, -inf), integers in decimal. Nothing is written to the machine. */
typedef struct ptosim_tprint_params {
  ptosim_tile src;
  /* ins(%src, %tmp): a GM view the NPU stages mat / acc tiles through (pto-isa a2a3
   * TPrint.hpp); accepted with a vec src, whose print does not write it (op.unsupported otherwise). */
  bool has_tmp;
  ptosim_gm_view tmp;
} ptosim_tprint_params;

#ifdef __cplusplus
}
#endif
#endif
