/* Spellings of the vector enumerations (see vec_names.h). */
#include "isa/vec_names.h"

const char *const pt_vld_dist_names[PTOSIM_VLD_COUNT] = {
    "NORM", "BRC_B8", "BRC_B16", "BRC_B32", "US_B8", "US_B16", "DS_B8", "DS_B16", "UNPK_B8", "UNPK_B16", "UNPK_B32",
    "BRC_BLK", "E2B_B16", "E2B_B32", "UNPK4", "SPLT4CHN", "SPLT2CHN_B8", "SPLT2CHN_B16"};
const char *const pt_vldx2_dist_names[PTOSIM_VLDX2_COUNT] = {"BDINTLV", "DINTLV_B8", "DINTLV_B16", "DINTLV_B32"};
const char *const pt_vst_dist_names[PTOSIM_VST_COUNT] = {"NORM_B8", "NORM_B16", "NORM_B32",   "1PT_B8",     "1PT_B16",
                                                         "1PT_B32", "PK_B16",   "PK_B32",     "PK_B64",     "PK4_B32",
                                                         "MRG4CHN_B8", "MRG2CHN_B8", "MRG2CHN_B16"};
const char *const pt_vstx2_dist_names[PTOSIM_VSTX2_COUNT] = {"INTLV_B8", "INTLV_B16", "INTLV_B32"};
const char *const pt_pld_dist_names[PTOSIM_PLD_COUNT] = {"NORM", "US", "DS"};
const char *const pt_pst_dist_names[PTOSIM_PST_COUNT] = {"NORM", "PK"};
const char *const pt_vcmp_names[PTOSIM_VCMP_COUNT] = {"eq", "ne", "lt", "le", "gt", "ge"};
const char *const pt_vstur_mode_names[PTOSIM_VSTUR_COUNT] = {"NO_POST_UPDATE", "POST_UPDATE"};
const char *const pt_spr_names[PTOSIM_SPR_COUNT] = {"AR"};
const char *const pt_pattern_names[PT_PAT_NAMES] = {
    [PTOSIM_PAT_ALL] = "PAT_ALL",     [PTOSIM_PAT_VL1] = "PAT_VL1",   [PTOSIM_PAT_VL2] = "PAT_VL2",
    [PTOSIM_PAT_VL3] = "PAT_VL3",     [PTOSIM_PAT_VL4] = "PAT_VL4",   [PTOSIM_PAT_VL8] = "PAT_VL8",
    [PTOSIM_PAT_VL16] = "PAT_VL16",   [PTOSIM_PAT_VL32] = "PAT_VL32", [PTOSIM_PAT_VL64] = "PAT_VL64",
    [PTOSIM_PAT_VL128] = "PAT_VL128", [PTOSIM_PAT_M3] = "PAT_M3",     [PTOSIM_PAT_M4] = "PAT_M4",
    [PTOSIM_PAT_H] = "PAT_H",         [PTOSIM_PAT_Q] = "PAT_Q",       [PTOSIM_PAT_ALLF] = "PAT_ALLF"};
const char *const pt_vrnd_names[PT_VRND_NAMES] = {[PTOSIM_VRND_R] = "R", [PTOSIM_VRND_A] = "A", [PTOSIM_VRND_F] = "F",
                                                  [PTOSIM_VRND_C] = "C", [PTOSIM_VRND_Z] = "Z", [PTOSIM_VRND_O] = "O"};
const char *const pt_vsat_names[PT_VSAT_NAMES] = {[PTOSIM_VSAT_SAT] = "SAT", [PTOSIM_VSAT_NOSAT] = "NOSAT"};
const char *const pt_vpart_names[PT_VPART_NAMES] = {[PTOSIM_VPART_EVEN] = "EVEN", [PTOSIM_VPART_ODD] = "ODD",
                                                    [PTOSIM_VPART_P0] = "P0",     [PTOSIM_VPART_P1] = "P1",
                                                    [PTOSIM_VPART_P2] = "P2",     [PTOSIM_VPART_P3] = "P3"};
