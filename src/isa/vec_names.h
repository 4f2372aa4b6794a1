/* The text spellings of the vector ops' enumerations (vpto micro-isa chapters 03-11 and
 * VPTOOps.td), indexed by the enum value: the binders read them from .pto text, the
 * executors name them in messages. NULL marks an unused value. */
#ifndef PT_VEC_NAMES_H
#define PT_VEC_NAMES_H

#include "ptosim/ops.h"

extern const char *const pt_vld_dist_names[PTOSIM_VLD_COUNT];
extern const char *const pt_vldx2_dist_names[PTOSIM_VLDX2_COUNT];
extern const char *const pt_vst_dist_names[PTOSIM_VST_COUNT];
extern const char *const pt_vstx2_dist_names[PTOSIM_VSTX2_COUNT];
extern const char *const pt_pld_dist_names[PTOSIM_PLD_COUNT];
extern const char *const pt_pst_dist_names[PTOSIM_PST_COUNT];
extern const char *const pt_vcmp_names[PTOSIM_VCMP_COUNT];
extern const char *const pt_vstur_mode_names[PTOSIM_VSTUR_COUNT];
extern const char *const pt_spr_names[PTOSIM_SPR_COUNT];
#define PT_PAT_NAMES 16
extern const char *const pt_pattern_names[PT_PAT_NAMES];
#define PT_VRND_NAMES 7
extern const char *const pt_vrnd_names[PT_VRND_NAMES];
#define PT_VSAT_NAMES 3
extern const char *const pt_vsat_names[PT_VSAT_NAMES];
#define PT_VPART_NAMES 7
extern const char *const pt_vpart_names[PT_VPART_NAMES];

#endif
