/* Core configuration registers: CTRL (read and written by pto.get_ctrl / pto.set_ctrl;
 * bit 48 selects the saturation of MAD and FIXPIPE ops written without sat / nosat) and
 * the FIXPIPE quantization registers QUANT_PRE and FPC, which SET_QUANT_SCALAR and
 * SET_QUANT_VECTOR encode for a later TPUSH (encodings of pto-isa
 * include/pto/npu/{a2a3,a5}/SetQuantScalar.hpp and SetQuantVector.hpp). */
#include <inttypes.h>
#include <string.h>

#include "isa/isa.h"

static ptosim_status write_reg(pt_ctx *x, pt_sreg r, uint64_t value) {
  x->core->sreg[r] = value;
  return PTOSIM_OK;
}

ptosim_status pt_exec_set_ctrl(pt_ctx *x, const ptosim_loop_reg_params *p) { return write_reg(x, PT_SREG_CTRL, p->value); }

ptosim_status pt_exec_get_ctrl(pt_ctx *x, const ptosim_reg_read_params *p) {
  PT_VERIFY(x, p->out != NULL, "api.args", "pass where to store the register", "null result pointer");
  *p->out = pt_sreg_get(x, PT_SREG_CTRL);
  return PTOSIM_OK;
}

ptosim_status pt_exec_set_quant_pre(pt_ctx *x, const ptosim_loop_reg_params *p) {
  return write_reg(x, PT_SREG_QUANT_PRE, p->value);
}

/* The GM atomic mode (PT_SREG_ATOMIC: operation bits [7:0], element type bits [15:8]). */
ptosim_status pt_exec_set_atomic_op(pt_ctx *x, const ptosim_atomic_mode_params *p) {
  PT_VERIFY(x, (unsigned)p->op <= PTOSIM_ATOMIC_MIN, "regs.atomic", "none, add, max or min", "atomic operation %d", (int)p->op);
  uint64_t v = x->core->sreg[PT_SREG_ATOMIC];
  return write_reg(x, PT_SREG_ATOMIC, (v & ~0xFFull) | (uint64_t)p->op);
}

ptosim_status pt_exec_set_atomic_type(pt_ctx *x, const ptosim_atomic_mode_params *p) {
  ptosim_dtype t = p->type;
  PT_VERIFY(x, t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_I8,
            "regs.atomic", "f32, f16, bf16, s32, s16 or s8", "atomic element type %s", pt_dtype_name(t));
  uint64_t v = x->core->sreg[PT_SREG_ATOMIC];
  return write_reg(x, PT_SREG_ATOMIC, (v & ~0xFF00ull) | (uint64_t)t << 8);
}

/* FPC is a 64-bit register; PTOAS passes the whole i64 (VPTOOps.td set_fpc). */
ptosim_status pt_exec_set_fpc(pt_ctx *x, const ptosim_loop_reg_params *p) { return write_reg(x, PT_SREG_FPC, p->value); }

/* Output types: the quantization outputs the page names (int8_t, uint8_t, int16_t,
 * bfloat16_t, half) and on A5 the fp8 outputs of the qf322hif8 / qf322fp8 modes (hifloat8_t,
 * float8_e4m3_t, which PTOAS passes). The f32 pattern is widened as a signed 32-bit integer
 * (pto-isa SetQuantScalar.hpp: static_cast<uint64_t>(int32_t)): a negative scale sets bits
 * [63:32], which hold the offset field [45:37]; an 8-bit output then sets bit 46 to its sign. */
ptosim_status pt_exec_set_quant_scalar(pt_ctx *x, const ptosim_set_quant_scalar_params *p) {
  ptosim_dtype t = p->out_type;
  int fp8 = (t == PTOSIM_DT_HIF8 || t == PTOSIM_DT_F8E4M3) && x->m->target == PTOSIM_TARGET_A5;
  PT_VERIFY(x, fp8 || t == PTOSIM_DT_I8 || t == PTOSIM_DT_U8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_BF16 || t == PTOSIM_DT_F16,
            "quant.out_type", "quantize to i8, ui8, i16, bf16 or f16 (A5 also hif8, f8e4m3)",
            "%s is not a quantization output type here", pt_dtype_name(t));
  int32_t bits;
  memcpy(&bits, &p->scale, sizeof bits);
  uint64_t v = (uint64_t)(int64_t)bits;
  if (pt_dtype_bits(t) == 8) v = (v & ~(1ull << 46)) | (uint64_t)(t == PTOSIM_DT_I8) << 46;
  return write_reg(x, PT_SREG_QUANT_PRE, v);
}

/* The FPC field holds the address in 128-byte units: a tile elsewhere cannot be named. */
ptosim_status pt_exec_set_quant_vector(pt_ctx *x, const ptosim_set_quant_vector_params *p) {
  PT_VERIFY(x, p->fp.space == PTOSIM_FB, "quant.fp_loc", "pass a loc=scaling tile",
            "SET_QUANT_VECTOR takes a scaling (FB) tile, got space %s", pt_space_name(p->fp.space));
  PT_VERIFY(x, p->fp.addr % 128 == 0, "quant.fp_align", "place the scaling tile at a multiple of 128 bytes",
            "FB address 0x%" PRIx64 " is not a multiple of 128 (FPC holds it in 128-byte units)", p->fp.addr);
  PT_VERIFY(x, p->fp.addr < x->m->prof->capacity[PTOSIM_FB], "quant.fp_range", "place the tile inside FB",
            "FB address 0x%" PRIx64 " is past the %" PRIu64 "-byte FB", p->fp.addr, x->m->prof->capacity[PTOSIM_FB]);
  return write_reg(x, PT_SREG_FPC, p->fp.addr >> 7 << 8);
}
