#include "core/profile.h"

#include <string.h>

/* Capacities and alignments: hw-native-sys/pto-isa docs/isa/tile/ops/sync-and-config/tassign.md
 * ("TileType / Buffer / Capacity (A2A3) / Capacity (A5) / Alignment" table):
 *   UB 192 KB | 256 KB, L1 512 KB | 512 KB, L0A 64 KB | 64 KB, L0B 64 KB | 64 KB,
 *   L0C 128 KB | 256 KB, Bias 1 KB | 4 KB, FBuffer 2 KB | 4 KB,
 *   ScaleLeft (L0A MX) N/A | 4 KB, ScaleRight (L0B MX) N/A | 4 KB; alignment 32 B everywhere.
 * L0A organization: pto-isa docs/isa/cube/nz-fractal-layout.md ("FRACTAL_NZ on A5 /
 * FRACTAL_ZZ on A3"). GM has no capacity: it is whatever buffers the user maps. */
#define KIB 1024ull

static const pt_profile profiles[PTOSIM_TARGET_COUNT] = {
    [PTOSIM_TARGET_A2A3] =
        {
            .name = "a2a3",
            .capacity = {[PTOSIM_UB] = 192 * KIB,
                         [PTOSIM_L1] = 512 * KIB,
                         [PTOSIM_L0A] = 64 * KIB,
                         [PTOSIM_L0B] = 64 * KIB,
                         [PTOSIM_L0C] = 128 * KIB,
                         [PTOSIM_BT] = 1 * KIB,
                         [PTOSIM_FB] = 2 * KIB},
            .align = {[PTOSIM_GM] = 1, [PTOSIM_UB] = 32, [PTOSIM_L1] = 32, [PTOSIM_L0A] = 32,
                      [PTOSIM_L0B] = 32, [PTOSIM_L0C] = 32, [PTOSIM_BT] = 32, [PTOSIM_FB] = 32,
                      [PTOSIM_L0A_MX] = 32, [PTOSIM_L0B_MX] = 32},
            .l0a_zz = 1,
            .has_mx = 0,
            .has_ub_l1 = 0,
        },
    [PTOSIM_TARGET_A5] =
        {
            .name = "a5",
            .capacity = {[PTOSIM_UB] = 256 * KIB,
                         [PTOSIM_L1] = 512 * KIB,
                         [PTOSIM_L0A] = 64 * KIB,
                         [PTOSIM_L0B] = 64 * KIB,
                         [PTOSIM_L0C] = 256 * KIB,
                         [PTOSIM_BT] = 4 * KIB,
                         [PTOSIM_FB] = 4 * KIB,
                         [PTOSIM_L0A_MX] = 4 * KIB,
                         [PTOSIM_L0B_MX] = 4 * KIB},
            .align = {[PTOSIM_GM] = 1, [PTOSIM_UB] = 32, [PTOSIM_L1] = 32, [PTOSIM_L0A] = 32,
                      [PTOSIM_L0B] = 32, [PTOSIM_L0C] = 32, [PTOSIM_BT] = 32, [PTOSIM_FB] = 32,
                      [PTOSIM_L0A_MX] = 32, [PTOSIM_L0B_MX] = 32},
            .l0a_zz = 0,
            .has_mx = 1,
            .has_ub_l1 = 1,
        },
};

const pt_profile *pt_profile_get(ptosim_target t) {
  return (unsigned)t < PTOSIM_TARGET_COUNT ? &profiles[t] : NULL;
}

ptosim_target pt_target_parse(const char *s) {
  if (!strcmp(s, "a2a3") || !strcmp(s, "a2") || !strcmp(s, "a3")) return PTOSIM_TARGET_A2A3;
  if (!strcmp(s, "a5")) return PTOSIM_TARGET_A5;
  return PTOSIM_TARGET_COUNT;
}

const char *pt_space_name(ptosim_space s) {
  static const char *const names[PTOSIM_SPACE_COUNT] = {"gm", "ub", "l1", "l0a", "l0b",
                                                        "l0c", "bt", "fb", "l0a_mx", "l0b_mx"};
  return (unsigned)s < PTOSIM_SPACE_COUNT ? names[s] : "?";
}
