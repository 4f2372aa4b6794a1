/* Tile mode configuration (src/isa/ops.def "tile mode" rows): pto.settf32mode and
 * pto.sethf32mode write the MAD mode bits of the core's CTRL register (isa/tile_mode.h),
 * as pto-isa's SetMadTF32Mode / ResetMadMode do:
 *   enable:  CTRL[46] = 1, CTRL[47] = (mode == CAST_ROUND);
 *   disable: CTRL[46] = 0 (CTRL[47] kept).
 * settf32mode writes them on both targets: SetMadTF32Mode is target-independent code whose
 * comment gives the format per chip ("a2/a3: e8m11, a5: e8m10"), and pto-isa's A2/A3 hardware
 * matmul test calls it and expects E8M11 operands, although settf32mode.md calls it a no-op
 * on A2/A3 (docs/spec-notes.md section 25). f32 x f32 tile matmuls then round their operands
 * (tile_matrix.c, mad.c). sethf32mode (HF32, the A2/A3 name of the same mode) writes them on
 * A2/A3 and is a no-op on A5. */
#include "isa/isa.h"
#include "isa/tile_mode.h"

/* Write the bits when `applies` (the op's target), after checking the mode on every target. */
static ptosim_status set_mad_mode(pt_ctx *x, const ptosim_tmode_params *p, const char *rule, bool applies) {
  PT_VERIFY(x, (unsigned)p->mode <= PTOSIM_TMODE_RINT, rule, "use mode ROUND (CAST_ROUND) or RINT (CAST_RINT)",
            "mode %d is not a RoundMode of the transform", (int)p->mode);
  if (!applies) return PTOSIM_OK;
  uint64_t c = x->core->sreg[PT_SREG_CTRL];
  if (p->enable) {
    c |= 1ull << PT_CTRL_MAD_MODE_BIT;
    c = p->mode == PTOSIM_TMODE_ROUND ? c | 1ull << PT_CTRL_MAD_ROUND_BIT : c & ~(1ull << PT_CTRL_MAD_ROUND_BIT);
  } else {
    c &= ~(1ull << PT_CTRL_MAD_MODE_BIT);
  }
  x->core->sreg[PT_SREG_CTRL] = c;
  return PTOSIM_OK;
}

ptosim_status pt_exec_settf32mode(pt_ctx *x, const ptosim_tmode_params *p) {
  return set_mad_mode(x, p, "settf32mode.mode", true);
}

ptosim_status pt_exec_sethf32mode(pt_ctx *x, const ptosim_tmode_params *p) {
  return set_mad_mode(x, p, "sethf32mode.mode", x->m->target != PTOSIM_TARGET_A5);
}
