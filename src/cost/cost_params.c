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
 *   UB_UB   128 B/cycle: docs/isa/tile/elementwise-tile-tile.md "Bandwidth Model for Tile
 *           Movements" A2A3_BW_VEC_VEC (arch_config.hpp lists 1024 GiB/s; the document's table
 *           is the one whose GM -> Vec entry the profiled TLOAD cycles confirm).
 *   L1_L1   32 B/cycle: same table, A2A3_BW_MAT_MAT.
 *   L1_L0A  256 B/cycle: same table, A2A3_BW_MAT_LEFT (= arch_config.hpp L1_TO_L0A 441 GiB/s).
 *   L1_L0B  128 B/cycle: same table, A2A3_BW_MAT_RIGHT (= arch_config.hpp L1_TO_L0B 220.5 GiB/s).
 *   UB_L1, L1_UB  128 B/cycle: no published figure; the UB-side rate of GM_UB and UB_UB.
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
    [PT_PATH_UB_UB] = {0, 128}, [PT_PATH_UB_L1] = {0, 128},        \
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

static const pt_cost_params tables[] = {
    {
        .target = "a2a3",
        SHARED,
        /* copy_gm_to_ubuf_align_* / copy_gm_to_cbuf have nBurst only: TLOAD issues one copy
         * per index of the outer GM dimensions (include/pto/common/arch/memory/tload_common.hpp
         * TLoadGm2ubNd2nd), and the profiled cycles pay the startup per copy. */
        .dma_levels = 1,
        /* a2a3/cce_costmodel/cce_costmodel_vector_compute.hpp calibrations on 910B3:
         * vadd / vsub "2.11 repeat + 24", vmax "2.01 repeat + 23", vand / vor 2 per repeat;
         * vmaxs / vrelu "1.00 repeat + 23", vrsqrt "1.07 repeat + 24", vmuls 1 per repeat + 26.
         * Rows are repeated instruction by instruction (no contiguous-run merge: the profiled
         * tests/costmodel/st/testcase/tadd int16 64x64, 128-byte rows, costs 167 cycles = one
         * repeat per row). vec_partial: cce_costmodel_core.hpp kCountModeFloorCycles, the
         * count-mask dispatch of binary ALU ops on rows that are not whole 256-byte repeats. */
        .vec = {[PT_VEC_UNARY] = {24, 1, 24, 0, 1}, [PT_VEC_BINARY] = {24, 2, 24, 0, 2}},
        .vec_partial = 16,
        .vec_runs = 0,
    },
    {
        .target = "a5",
        SHARED,
        /* nburst plus the loop1 / loop2 registers (include/pto/npu/a5/TLoad.hpp
         * set_loop_size_outtoub / set_loop_size_outtol1); outer GM dimensions loop. */
        .dma_levels = 3,
        /* include/pto/costmodel/a5/formula_costmodel/formula_params.csv, fp32 NO_POST_UPDATE:
         * unary = TNEG (1D linear 1.0589255 x + 55.140381; 2D nested_loop
         * (1.0952879 inner + 4.5652633) outer + 51.508464), binary = TADD (1D 1.2469671 x +
         * 55.073657; 2D (1.8749443 inner + 2.8762808) outer + 44.344619). */
        .vec = {[PT_VEC_UNARY] = {55.140381, 1.0589255, 51.508464, 4.5652633, 1.0952879},
                [PT_VEC_BINARY] = {55.073657, 1.2469671, 44.344619, 2.8762808, 1.8749443}},
        .vec_partial = 0,
        .vec_runs = 1,
    },
};

const pt_cost_params *pt_cost_params_of(const pt_profile *prof) {
  for (size_t i = 0; prof && i < sizeof tables / sizeof tables[0]; i++)
    if (!strcmp(tables[i].target, prof->name)) return &tables[i];
  return NULL;
}
