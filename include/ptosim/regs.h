/* ptosim — parameter blocks of the core configuration ops (src/isa/regs.c): the control
 * register CTRL and the FIXPIPE quantization registers QUANT_PRE and FPC. */
#ifndef PTOSIM_REGS_H
#define PTOSIM_REGS_H

#include <stdint.h>

#include "ptosim/tile.h"
#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.get_ctrl: *out receives the 64-bit CTRL register of the issuing core. */
typedef struct ptosim_reg_read_params {
  uint64_t *out;
} ptosim_reg_read_params;

/* SET_QUANT_SCALAR (pto-isa docs/isa/SET_QUANT_SCALAR.md): QUANT_PRE = the f32 bits of
 * `scale`, bit 46 = 1 for an i8 output, 0 for ui8 (only 8-bit outputs carry the sign). */
typedef struct ptosim_set_quant_scalar_params {
  float scale;
  ptosim_dtype out_type; /* i8, ui8, i16, bf16 or f16 */
} ptosim_set_quant_scalar_params;

/* SET_QUANT_VECTOR (docs/isa/SET_QUANT_VECTOR.md): FPC = (fp.addr / 128) << 8, the FB
 * address of the per-column quantization words of the scaling tile fp. */
typedef struct ptosim_set_quant_vector_params {
  ptosim_tile fp; /* space FB (loc=scaling) */
} ptosim_set_quant_vector_params;

#ifdef __cplusplus
}
#endif
#endif
