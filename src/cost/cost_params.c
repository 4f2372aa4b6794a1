/* Parameter tables of the cost model, one per target profile. Every number names its
 * source; paths are relative to the hw-native-sys/pto-isa repository. The validation of
 * these numbers against pto-isa's profiled cycle counts is tests/test_cost.c, its table
 * docs/cost-model.md. */
#include <string.h>

#include "cost/cost.h"

/* pto-isa expresses on-chip bandwidths in GiB/s at the 1.85 GHz main clock
 * (include/pto/costmodel/arch_config.hpp kMainFrequencyHz, kBytesPerGb, EstimateBandwidthCycles:
 * cycles = bytes / 2^30 / bw * 1.85e9); converted to bytes per cycle here. */
#define GIBS(bw) ((bw) * 1073741824.0 / 1.85e9)

/* Data paths. A path without a profiled single-op case takes pto-isa's own model constant
 * and no startup, as pto-isa's stub backend does.
 *   GM_UB   264 cycles per DMA instruction + bytes / 128: fit of the profiled TLOAD cycles of
 *           tests/costmodel/st/testcase/tload (c01 128x128 f32 776 = 264 + 65536 / 128, c06
 *           32 instructions x 512 bytes 8576 = 32 x (264 + 4), c02 8 x 8 KiB 2624, c09 8704);
 *           128 B/cycle is also docs/isa/vector/vector-load-store.md A2A3_BW_GM_VEC.
 *   GM_L1   20 + bytes / 134: fit of tests/costmodel/st/testcase/tloadconv c01 (1 KiB, 28
 *           cycles) and c02 (12.5 KiB, 116 cycles), single-instruction NC1HWC0 loads.
 *   UB_GM   188.46 GiB/s, L1_GM 32 GiB/s, L1_BT 32 GiB/s, L1_FB 32 GiB/s: arch_config.hpp
 *           kA2A3ArchConfig (UB_TO_GM, L1_TO_GM, L1_TO_BT, L1_TO_FB).
 *   UB_UB   6 cycles + bytes / 32 (one 32-byte block per cycle): profiled
 *           tests/costmodel/st/testcase/tcolmax and tcolsum float 1x3072, whose one valid row is a
 *           single pto_copy_ubuf_to_ubuf of 384 blocks: 390 cycles each. (docs/isa/tile/
 *           elementwise-tile-tile.md lists A2A3_BW_VEC_VEC 128 B/cycle and arch_config.hpp
 *           1024 GiB/s, neither measured; one byte count cannot separate startup and rate.)
 *   L1_L1   32 B/cycle: same table, A2A3_BW_MAT_MAT.
 *   L1_L0A  256 B/cycle: same table, A2A3_BW_MAT_LEFT (= arch_config.hpp L1_TO_L0A 441 GiB/s).
 *   L1_L0B  128 B/cycle: same table, A2A3_BW_MAT_RIGHT (= arch_config.hpp L1_TO_L0B 220.5 GiB/s).
 *   UB_L1, L1_UB  128 B/cycle: no published figure; the UB-side rate of GM_UB.
 *   L0C_GM  70 GiB/s, L0C_L1 128 GiB/s of 2 bytes per output element: arch_config.hpp
 *           L0C_TO_GM, L0C_TO_L1 with the byte count of a2a3/cce_costmodel/cce_costmodel_memory.hpp
 *           copy_matrix_cc_to_gm / copy_matrix_cc_to_cbuf (rows x cols x 2, whatever the
 *           conversion); per 4-byte accumulator read that is twice the rate.
 *   L0C_UB  no published figure (A5 only): the L0C_L1 rate. */
#define XFER_A2A3                                                  \
  {                                                                \
    [PT_PATH_GM_UB] = {264, 128}, [PT_PATH_GM_L1] = {20, 134},     \
    [PT_PATH_UB_GM] = {0, GIBS(188.46)},                           \
    [PT_PATH_L1_GM] = {0, GIBS(32.0)},                             \
    [PT_PATH_UB_UB] = {6, 32}, [PT_PATH_UB_L1] = {0, 128},         \
    [PT_PATH_L1_UB] = {0, 128}, [PT_PATH_L1_L1] = {0, 32},         \
    [PT_PATH_L1_L0A] = {0, 256}, [PT_PATH_L1_L0B] = {0, 128},      \
    [PT_PATH_L1_BT] = {0, GIBS(32.0)},                             \
    [PT_PATH_L1_FB] = {0, GIBS(32.0)},                             \
    [PT_PATH_L0C_GM] = {0, 2 * GIBS(70.0)},                        \
    [PT_PATH_L0C_L1] = {0, 2 * GIBS(128.0)},                       \
    [PT_PATH_L0C_UB] = {0, 2 * GIBS(128.0)},                       \
  }

/* Issue and scalar cost: include/pto/costmodel/perf_sim/costmodel_provider.hpp FallbackCycles
 * gives a scalar-stage instruction 1 cycle.
 * mad: 6 cycles + 1 per repeat (2 for f32 inputs), repeats = ceil(m/16) ceil(k/(32/size))
 * ceil(n/16): a2a3/cce_costmodel/cce_costmodel_cube.hpp mad (kDefaultHeadCycles,
 * kCyclePerRepeatForFloat), reproducing every profiled case of tests/costmodel/st/testcase/tmatmul
 * (54, 7, 262, 902 cycles). pto-isa publishes no A5 cube or DMA figure
 * (docs/isa/tile/matrix-and-matrix-vector.md "does not publish an equivalent A5 latency or
 * throughput table"): A5 carries the A2/A3 numbers over (SHARED). */
#define SHARED .issue = 1, .scalar = 1, .xfer = XFER_A2A3, .mad_head = 6, .mad_repeat = {1, 2}

/* Vector classes, a2a3. Sources (a2a3/cce_costmodel/cce_costmodel_vector_compute.hpp
 * calibrations on 910B3 unless named otherwise; LIN(f, s) = f cycles once + s per repeat unit):
 *   BINARY   vadd / vsub "2.11 repeat + 24", vmax "2.01 repeat + 23" (EstimateLinearCycles head 10
 *            + tail 14, slope 2); partial 16 = cce_costmodel_core.hpp kCountModeFloorCycles, the
 *            count-mask dispatch of a row that is not whole repeats. Lowering SMALL: TBinOp.hpp
 *            BinaryInstr issues one masked repeat per row when a tile row is under 256 bytes
 *            (Bin1LNormModeSmall), merges rows whose valid width is the tile width (runtime
 *            continuity check), else issues per row (Bin2LNormModeRowRpt).
 *   MUL      vmul "slope 2.3, fixed 25" (head 10 + tail 15, slope 2).  BITWISE vand / vor
 *            "2.03 repeat + 20".
 *   DIV      vdiv "4.03 repeat + 31" on fp32, i.e. 4 cycles per 64 elements: f16 divides at the
 *            f32 lane width (st/tdiv half 64x64, 64 rows of 64 elements: 304 = 31 + 16 + 64 x 4;
 *            formula_params.csv TDIVS fp16 0.0703 cycles per element = 4.5 per 64).
 *   SCALAR   vmaxs "1.00 repeat + 23", vmuls "slope 1, fixed 26": f32 LIN(24, 1). Other element
 *            types 2/3 cycle per repeat: fit on the profiled tests/costmodel/st/testcase/tadds
 *            non-f32 cases (half 63x64 69, int32 31x128 70, int16 15x192 40), held out on tmins /
 *            tmuls (docs/cost-model.md). Lowering SPLIT: TBinSOp.hpp TBinSInstr merges rows only
 *            when the tile's valid shape is static; with a runtime valid shape (Tile<..., -1, -1>,
 *            as in the profiled kernels) every row is issued (BinS2LNormModeRowRpt).
 *   MINS     as SCALAR with vmaxs' fixed 23 (vmin is vmax's twin, same file).
 *   DIVS     TDivS.hpp DivSOp: vector_dup of the scalar, pipe_barrier, vdiv: fixed 24 + 31,
 *            per 64 elements 1 + 4 (f32), 0.5 + 4 (f16: the dup at 128 elements per repeat);
 *            formula_params.csv TDIVS: fp32 0.0781 = 5 / 64, fp16 0.0703 = 4.5 / 64 per element.
 *   RECIP    pto/common/pto_instr.hpp TRECIP is TDIVS(dst, 1, src) on a2a3: as DIVS.
 *   ABS      no calibration (vabs keeps the default 13 + 1 per repeat + 16); profiled
 *            st/tabs f32 64x64 68 = 24 + 64 x 0.69, half 16x256 36: the non-f32 SCALAR rate.
 *            Lowering MERGE: TUnaryOp.hpp merges rows whose valid width is the tile width.
 *   RELU     vrelu "1.00 repeat + 23".   EXP vexp "2.00 repeat + 31" (f16 too: st/texp half
 *            64x64 95, 32x32 47).   LOG vln "2.00 repeat + 33".   RSQRT vrsqrt "1.07 repeat + 24".
 *   SQRT     formula_params.csv TSQRT any 0.0314 cycles per element + 31.1: 2 per 64 elements
 *            (st/tsqrt f32 and half 64x64 not in place: 160 both).
 *   CVT      vconv slope 2 (cce_costmodel_core.hpp kConvSlope) with the common fixed 24 of the
 *            calibrated single-instruction ops (the file's own vconv head + tail is marked "not
 *            fully understood"); the wider side sets the repeats.
 *   ROWSUM   TRowReduceOps.hpp: (n - 1) count-mode folds (vadd) into a tmp, then one vcadd of
 *            `rows` repeats, barriers between. vcadd: head 14 + tail 32 = 46, 7 per repeat
 *            (formula_params.csv TROWSUM fp32 cols 8..64: 7 cycles per row); stage 16 =
 *            kCountModeFloorCycles; rep 1.5 per fold repeat: fit on the fp32 TROWSUM / TROWMAX
 *            rows of formula_params.csv (fp16 rows held out); partial 14: rows under 256 bytes take
 *            the masked norm-mode path, and their TROWSUM biases (fp32 cols 8, 32: 58, 59; fp16
 *            cols 32..96: 57..62) exceed those of one whole repeat (44, 47) by 10 to 15.
 *   ROWMAX   as ROWSUM with vcmax; fixed 32 = st/trowmax f32 64x64 480 - 64 x 7 (vcmax has no
 *            calibration; st/trowmax half 64x128 481 held out).
 *   COLSUM   TColSum.hpp / TColReduceOps.hpp: copy of row 0, then rows - 1 vadd / vmax each
 *            followed by pipe_barrier: per instruction 16 (kCountModeFloorCycles) + 1 (the
 *            barrier's cycle, cce_costmodel_sync.hpp) + 2 per repeat; formula_params.csv TCOLSUM:
 *            19.1 to 19.5 cycles per row at one repeat, 28 at six.
 *   COLMAX   the same chain of vmax, 15 + 2 per instruction (formula_params.csv TCOLMAX: 17 to 17.5
 *            per row at one repeat); a row's partial repeat is a second dependent instruction
 *            (TColReduceOps.hpp ColReduceInstrByMode; TCOLMAX fp32 cols 96: 35 per row).
 *   ROWEXPAND TRowExpand.hpp: per row a V -> S -> V flag round trip, a scalar load and a count-
 *            mode vector_dup (1 per repeat): formula_params.csv TROWEXPAND 14 per row (n = 1),
 *            15 (n = 2), bias 37: fixed 37, row 13, rep 1. */
#define LIN(f, s) {(f), (s), (f), 0, (s)}
/* curves: [0] f32, [1] other types */
#define ELEM(r, l, part, ...) {.form = PT_VF_ELEM, .rows = (r), .lane = (l), .curve = {__VA_ARGS__}, .partial = (part)}
#define SAME(r, l, c, part) ELEM(r, l, part, LIN c, LIN c)
#define A2_DIVS ELEM(PT_ROWS_SPLIT, 64, 0, LIN(55, 5), LIN(55, 4.5))

static const pt_cost_vop vec_a2a3[PT_VC_COUNT] = {
    [PT_VC_BINARY] = SAME(PT_ROWS_SMALL, 0, (24, 2), 16),
    [PT_VC_MUL] = SAME(PT_ROWS_SMALL, 0, (25, 2), 16),
    [PT_VC_BITWISE] = SAME(PT_ROWS_SMALL, 0, (20, 2), 16),
    [PT_VC_DIV] = SAME(PT_ROWS_SMALL, 64, (31, 4), 16),
    [PT_VC_SCALAR] = ELEM(PT_ROWS_SPLIT, 0, 0, LIN(24, 1), LIN(24, 2.0 / 3)),
    [PT_VC_MINS] = ELEM(PT_ROWS_SPLIT, 0, 0, LIN(23, 1), LIN(23, 2.0 / 3)),
    [PT_VC_DIVS] = A2_DIVS,
    [PT_VC_RECIP] = A2_DIVS,
    [PT_VC_ABS] = SAME(PT_ROWS_MERGE, 0, (24, 2.0 / 3), 0),
    [PT_VC_RELU] = SAME(PT_ROWS_MERGE, 0, (23, 1), 0),
    [PT_VC_EXP] = SAME(PT_ROWS_MERGE, 0, (31, 2), 0),
    [PT_VC_LOG] = SAME(PT_ROWS_MERGE, 0, (33, 2), 0),
    [PT_VC_SQRT] = SAME(PT_ROWS_MERGE, 64, (31, 2), 0),
    [PT_VC_RSQRT] = SAME(PT_ROWS_MERGE, 0, (24, 1.07), 0),
    [PT_VC_CVT] = SAME(PT_ROWS_MERGE, 0, (24, 2), 0),
    [PT_VC_ROWSUM] = {.form = PT_VF_ROW_REDUCE, .fixed = 46, .row = 7, .rep = 1.5, .stage = 16, .partial = 14},
    [PT_VC_ROWMAX] = {.form = PT_VF_ROW_REDUCE, .fixed = 32, .row = 7, .rep = 1.5, .stage = 16, .partial = 14},
    [PT_VC_COLSUM] = {.form = PT_VF_COL_REDUCE, .row = 17, .rep = 2},
    [PT_VC_COLMAX] = {.form = PT_VF_COL_REDUCE, .row = 15, .rep = 2, .split = 1},
    [PT_VC_ROWEXPAND] = {.form = PT_VF_ROW_EXPAND, .fixed = 37, .row = 13, .rep = 1},
};

/* Vector classes, A5: include/pto/costmodel/a5/formula_costmodel/formula_params.csv, fp32 and fp16
 * rows (NO_POST_UPDATE; the other implementation kinds carry the same numbers except TSEL and
 * TCVT) as {1D fixed, per repeat; 2D fixed, per row, per repeat of a row}.
 * VF loops run over the valid region: rows that abut form one 1D loop (MERGE). Classes without
 * a curve there are costed as their generic class (PT_VF_NONE). */
#define A5C(f1, s1, f2, r2, s2) {(f1), (s1), (f2), (r2), (s2)}
#define A5OP(c32, c16) ELEM(PT_ROWS_MERGE, 0, 0, c32, c16)
#define A5_TADD A5C(55.073657, 1.2469671, 44.344619, 2.8762808, 1.8749443)
#define A5_TMUL A5C(56.285962, 1.1941075, 44.844619, 2.9123738, 1.8708194)
#define A5_TNEG A5C(55.140381, 1.0589255, 51.508464, 4.5652633, 1.0952879)
#define A5_TMINS A5C(53.140381, 1.0589255, 49.627872, 4.5314383, 1.1016757)
/* TDIVS, and TRECIP at its default precision (the same rows) */
#define A5_DIVS A5OP(A5C(64.516464, 1.9081456, 62.942563, 2.4753589, 1.8688724), \
                     A5C(68.737705, 3.5491803, 65.159204, -0.12080507, 3.9981682))

static const pt_cost_vop vec_a5[PT_VC_COUNT] = {
    [PT_VC_BINARY] = A5OP(A5_TADD, A5_TADD),
    [PT_VC_MUL] = A5OP(A5_TMUL, A5_TMUL),
    [PT_VC_SCALAR] = A5OP(A5_TNEG, A5_TNEG),
    [PT_VC_MINS] = A5OP(A5_TMINS, A5_TMINS),
    [PT_VC_DIVS] = A5_DIVS,
    [PT_VC_RECIP] = A5_DIVS,
    [PT_VC_EXP] = A5OP(A5C(62.656846, 1.9670711, 60.598247, 2.5442386, 1.8548854),
                       A5C(65.934426, 3.7622951, 64.159204, -0.12080507, 3.9981682)),
    [PT_VC_SQRT] = A5OP(A5C(63.656846, 1.9670711, 61.598247, 2.5442386, 1.8548854),
                        A5C(66.934426, 3.7622951, 65.159204, -0.12080507, 3.9981682)),
    [PT_VC_RSQRT] = A5OP(A5C(75.570191, 4.0294627, 76.464329, 0.032648126, 4),
                         A5C(81.098361, 8.1065574, 80.711443, 0.05721393, 8.011194)),
};

/* Vector micro-op classes, A5 (pt_vf_op; the timeline model is src/cost/cost_vf.c). Sources,
 * relative to include/pto/costmodel/a5/VfSim/params/ of pto-isa unless named; "file:N" = line N
 * of the CSV (its header is line 1); two lines = the fp32 row, then the fp16 row:
 *   lat  isa.csv `latency`;
 *   fwd  forwarding.csv: the cycles the producer needs before most of its compute consumers
 *        (the line cited is one pair with that figure);
 *   fst  forwarding.csv: the same to VSTS;
 *   dsc  isa.csv `data_store_cost` (9 on every compute row; 0 on VLDS, which VfSim charges as 1:
 *        OOO.cpp dataStoreCost);
 *   ii   initiation_interval.csv: the op after itself on the same port;
 *   wait the consumer's excess over fwd: vsel 2 (forwarding.csv:21 VADDS.fp32 -> VSEL.fp32 5 =
 *        3 + 2), vexp vdiv vabs vdup 1 (:5, :6, :7, :16: 4 = 3 + 1).
 * A pair VfSim has no line for takes its defaults: fwd / fst = lat - 3 (ParamDB.cpp
 * forwardingCycles), ii = 1 (ParamDB.cpp initiationInterval). Ops VfSim has no row for take the
 * CA-sim latencies of vpto-dev/PTOAS docs/isa/micro-isa (03-vector-load-store.md "issue ->
 * retire", 06-unary-vector-ops.md "popped -> retire"), else pto-isa's own fallback for them
 * (include/pto/costmodel/a5/cce_costmodel/vec_cycle_generated.hpp VecCycle: pset / plt 2,
 * pand / por / pnot 6, vmadd / vmula 10, any other op 5 = kUnknownInstructionFallbackCycles). */
#define VF(unit, flags, wait, dsc, l32, l16, f32, f16, s32, s16, i32, i16) \
  {(unit), (flags), (wait), (dsc), {(l32), (l16)}, {(f32), (f16)}, {(s32), (s16)}, {(i32), (i16)}}
#define VF_C (PT_VF_WAITS | PT_VF_JOINS) /* computes: read a register, write one */
#define VFI(c) [PT_VC_VF_##c - PT_VC_VF_FIRST]

static const pt_vf_op vf_a5[PT_VC_VF_END - PT_VC_VF_FIRST] = {
    /* isa.csv:32-33 VLDS 9 (= uarch.csv:28 load_done_latency); fwd forwarding.csv:295, :625;
     * no VLDS -> VSTS line: fst 9 - 3; no VLDS pair in initiation_interval.csv */
    VFI(VLDS) = VF(PT_VFU_LOAD, PT_VF_JOINS, 0, 1, 9, 9, 6, 6, 6, 6, 1, 1),
    /* predicate loads: the VLDS figures (04-predicate-load-store.md gives none) */
    VFI(PLDS) = VF(PT_VFU_LOAD, 0, 0, 1, 9, 9, 6, 6, 6, 6, 1, 1),
    /* 03-vector-load-store.md:95, :97 "27-28 cycles" (28), :68 "~0.1 ops/cycle" (ii 10) */
    VFI(GATHER) = VF(PT_VFU_LOAD, VF_C, 0, 9, 28, 28, 25, 25, 25, 25, 10, 10),
    /* 03-vector-load-store.md:96 "~21 cycles issue->retire" */
    VFI(GATHERB) = VF(PT_VFU_LOAD, VF_C, 0, 9, 21, 21, 18, 18, 18, 18, 1, 1),
    /* isa.csv:34-35 VSTS: done = issue + the producer's dsc (9 without a register producer) */
    VFI(VSTS) = VF(PT_VFU_STORE, PT_VF_WAITS, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    /* 03-vector-load-store.md:88 INTLV (vstsx2) 12 cycles, :86 NORM 9: 3 more */
    VFI(VSTSX2) = VF(PT_VFU_STORE, PT_VF_WAITS, 0, 0, 3, 3, 0, 0, 0, 0, 1, 1),
    /* predicate stores: the VSTS figures */
    VFI(PSTS) = VF(PT_VFU_STORE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    /* 03-vector-load-store.md:98 vscatter "~17 cycles": 8 more than NORM */
    VFI(SCATTER) = VF(PT_VFU_STORE, PT_VF_WAITS, 0, 0, 8, 8, 0, 0, 0, 0, 1, 1),
    /* isa.csv:6-7 VADD (VSUB :14-15, VADDS :2-3 the same); fwd forwarding.csv:44, :354;
     * fst :59, :370; ii initiation_interval.csv:50, :366 */
    VFI(VADD) = VF(PT_VFU_EXU01, VF_C, 0, 9, 7, 7, 3, 3, 5, 5, 1, 1),
    /* isa.csv:16-17 VMUL (VMULS :8-9); fwd forwarding.csv:146, :507; fst :161, :523;
     * ii initiation_interval.csv:167, :539. vneg is RV_VMULS (06-unary-vector-ops.md:24, 8) */
    VFI(VMUL) = VF(PT_VFU_EXU01, VF_C, 0, 9, 8, 8, 4, 4, 6, 6, 1, 1),
    /* isa.csv:22-23 VMAX (VMIN, VMAXS, VMINS :18-25); fwd forwarding.csv:206, :567; fst :221,
     * :583; ii initiation_interval.csv:236, :611 */
    VFI(VMAX) = VF(PT_VFU_EXU01, VF_C, 0, 9, 6, 6, 2, 2, 4, 4, 1, 1),
    /* isa.csv:38-39 VAND; fwd forwarding.csv:641, :731; ii initiation_interval.csv:666, :895 */
    VFI(VAND) = VF(PT_VFU_EXU01, VF_C, 0, 9, 6, 6, 2, 2, 3, 3, 1, 1),
    /* isa.csv:50-51 VSHLS (VSHRS :52-53); fwd forwarding.csv:674, :764; ii initiation_interval.csv:704, :933 */
    VFI(VSHL) = VF(PT_VFU_EXU01, VF_C, 0, 9, 6, 6, 2, 2, 3, 3, 1, 1),
    /* isa.csv:12-13 VABS; fwd forwarding.csv:104, :465; fst :119, :481; ii initiation_interval.csv:119,
     * :489; vrelu 5 (06-unary-vector-ops.md:28) */
    VFI(VABS) = VF(PT_VFU_EXU01, VF_C, 1, 9, 5, 5, 2, 2, 3, 3, 1, 1),
    /* isa.csv:4-5 VEXP; fwd forwarding.csv:68, :378; fst :83, :394; ii initiation_interval.csv:77, :394 */
    VFI(VEXP) = VF(PT_VFU_EXU01, VF_C, 1, 9, 16, 21, 13, 18, 14, 19, 4, 8),
    /* 06-unary-vector-ops.md:26 vln 18 / 23; ii and wait of VEXP (the same SFU) */
    VFI(VLN) = VF(PT_VFU_EXU01, VF_C, 1, 9, 18, 23, 15, 20, 15, 20, 4, 8),
    /* isa.csv:10-11 VDIV; fwd forwarding.csv:86, :447; fst :101, :463; ii initiation_interval.csv:98,
     * :467; vsqrt 17 / 22 (06-unary-vector-ops.md:27); vrec and vrsqrt divide on the same unit */
    VFI(VDIV) = VF(PT_VFU_EXU01, VF_C, 1, 9, 17, 22, 14, 19, 15, 20, 4, 8),
    /* VecCycle vmadd / vmula 10 */
    VFI(FMA) = VF(PT_VFU_EXU01, VF_C, 0, 9, 10, 10, 7, 7, 7, 7, 1, 1),
    /* isa.csv:26-27 VCMAX (VCMIN :28-29), EXU0_ONLY; fwd forwarding.csv:248, :396; fst :263, :412;
     * ii initiation_interval.csv:275, :416 */
    VFI(VCMAX) = VF(PT_VFU_EXU0, VF_C, 0, 9, 16, 17, 13, 14, 14, 15, 1, 2),
    /* isa.csv:30-31 VCADD, EXU0_ONLY; fwd forwarding.csv:311 (its only fp32 line, to VSTS), :430;
     * fst :311, :446; ii initiation_interval.csv:450 */
    VFI(VCADD) = VF(PT_VFU_EXU0, VF_C, 0, 9, 22, 24, 20, 21, 20, 22, 1, 1),
    /* isa.csv:40-41 VCGMAX; fwd forwarding.csv:652, :742; ii initiation_interval.csv:678, :907 */
    VFI(VCGMAX) = VF(PT_VFU_EXU01, VF_C, 0, 9, 13, 14, 10, 11, 10, 11, 1, 2),
    /* isa.csv:36-37 VDUP, EXU0_ONLY; fwd forwarding.csv:280, :609; fst :294, :624 */
    VFI(VDUP) = VF(PT_VFU_EXU0, VF_C, 1, 9, 6, 6, 8, 8, 4, 4, 1, 1),
    /* isa.csv:54-55 VBR; fwd forwarding.csv:810, :824; a scalar operand: waits for no register */
    VFI(VBR) = VF(PT_VFU_EXU01, PT_VF_JOINS, 0, 9, 6, 6, 2, 2, 3, 3, 1, 1),
    /* isa.csv:42-43 VCMP_EQ; fwd forwarding.csv:696, :786; ii initiation_interval.csv:723, :952 */
    VFI(VCMP) = VF(PT_VFU_EXU01, VF_C, 0, 9, 6, 6, 4, 4, 3, 3, 1, 1),
    /* isa.csv:48-49 VSEL; fwd forwarding.csv:663, :753; ii initiation_interval.csv:691, :920 */
    VFI(VSEL) = VF(PT_VFU_EXU01, VF_C, 2, 9, 6, 6, 2, 2, 3, 3, 1, 1),
    /* isa.csv:44-45 VCVT_F16_TO_F32 / VCVT_F32_TO_F16 (09-conversion-ops.md:25 f32->f16 7); fwd
     * forwarding.csv:708, :798; ii initiation_interval.csv:739, :781 */
    VFI(VCVT) = VF(PT_VFU_EXU01, VF_C, 0, 9, 7, 7, 3, 3, 4, 4, 1, 1),
    /* 06-unary-vector-ops.md:30 vmov "RV_VLD proxy" 9 */
    VFI(VMOV) = VF(PT_VFU_EXU01, VF_C, 0, 9, 9, 9, 6, 6, 6, 6, 1, 1),
    /* VecCycle pset / plt 2; predicate ops read and write no vector register */
    VFI(PSET) = VF(PT_VFU_EXU01, 0, 0, 9, 2, 2, 0, 0, 0, 0, 1, 1),
    /* VecCycle pand / por / pnot 6 */
    VFI(PRED) = VF(PT_VFU_EXU01, 0, 0, 9, 6, 6, 3, 3, 3, 3, 1, 1),
    /* VecCycle kUnknownInstructionFallbackCycles 5 */
    VFI(OTHER) = VF(PT_VFU_EXU01, VF_C, 0, 9, 5, 5, 2, 2, 2, 2, 1, 1),
};

static const pt_cost_params tables[] = {
    {
        .target = "a2a3",
        SHARED,
        /* copy_gm_to_ubuf_align_* / copy_gm_to_cbuf have nBurst only: TLOAD issues one copy
         * per index of the outer GM dimensions (include/pto/common/arch/memory/tload_common.hpp
         * TLoadGm2ubNd2nd), and the profiled cycles pay the startup per copy. */
        .dma_levels = 1,
        .vec = vec_a2a3,
    },
    {
        .target = "a5",
        SHARED,
        /* nburst plus the loop1 / loop2 registers (include/pto/npu/a5/TLoad.hpp
         * set_loop_size_outtoub / set_loop_size_outtol1); outer GM dimensions loop. */
        .dma_levels = 3,
        .vec = vec_a5,
        /* isa_defaults.csv:2 vf_startup_cost 23, :3 vf_drain_cost 12 */
        .vf = vf_a5,
        .vf_startup = 23,
        .vf_drain = 12,
    },
};

const pt_cost_params *pt_cost_params_of(const pt_profile *prof) {
  /* Every event asks: each table remembers the profile (a pt_profile_get singleton) it
   * matched by address, so the names are compared once. */
  enum { NTABLES = sizeof tables / sizeof tables[0] };
  static const pt_profile *_Atomic matched[NTABLES];
  for (size_t i = 0; prof && i < NTABLES; i++)
    if (matched[i] == prof) return &tables[i];
  for (size_t i = 0; prof && i < NTABLES; i++)
    if (!strcmp(tables[i].target, prof->name)) {
      matched[i] = prof;
      return &tables[i];
    }
  return NULL;
}
