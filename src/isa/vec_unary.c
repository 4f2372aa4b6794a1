/* Unary vector ops (vpto docs/isa/micro-isa/06-unary-vector-ops.md; vrsqrt, vrec, vmov,
 * vbcnt, vcls from pto-isa docs/isa/vector/ops/unary-vector-ops/): dst[i] = f(src[i]) on the
 * active lanes, 0 on the others (vec_lanes.h). Integer vabs / vneg wrap (|-128| = -128 in
 * i8); float vabs / vneg only clear / flip the sign bit, so they keep NaN payloads. */
#include "isa/vec_arith.h"
#include "isa/vec_formulas.h"

#define ID_U(K, x) (x)
#define SQRT_F(K, x) sqrtf(x)
#define RSQRT_F(K, x) (1.0f / sqrtf(x))
#define REC_F(K, x) (1.0f / (x))
#define RELU_I(K, x) ((x) > 0 ? (x) : 0)
#define RELU_F(K, x) ((x) > 0.0f ? (x) : 0.0f)
/* Sign bit of a lane of kind K (float kinds act on their u16 / u32 bits). */
#define SIGN(K) ((pt_vl_u_##K)1 << (PT_VL_E_##K * 8u - 1))
#define FABS_B(K, x) ((pt_vl_c_##K)((x) & (pt_vl_u_##K)~SIGN(K)))
#define FNEG_B(K, x) ((pt_vl_c_##K)((x) ^ SIGN(K)))
#define BCNT_B(K, x) ((pt_vl_c_##K)__builtin_popcountll((pt_vl_u_##K)(x)))
/* Leading bits equal to the top bit, the top bit included: width - bit length of v, with v
 * the lane bits, inverted when the top bit is set (0 and -1 give the width). */
#define CLS_B(K, x) ((pt_vl_c_##K)pt_vl_cls((pt_vl_u_##K)(x) & SIGN(K) ? (uint64_t)(pt_vl_u_##K)~(x) \
                                                                         : (uint64_t)(pt_vl_u_##K)(x), \
                                            PT_VL_E_##K * 8u))
static inline unsigned pt_vl_cls(uint64_t v, unsigned width) { return v ? width - (64u - (unsigned)__builtin_clzll(v)) : width; }

PT_VL_SINTS(PT_VL_MAP1, vabs, ABS_I) PT_VL_UINTS(PT_VL_MAP1, vabs, ID_U)
PT_VL_INTS(PT_VL_MAP1, vneg, NEG_I)
PT_VL_INTS(PT_VL_MAP1, vnot, NOT_B)
PT_VL_F16F32(PT_VL_MAP1, vexp, EXP_F)
PT_VL_F16F32(PT_VL_MAP1, vln, LN_F)
PT_VL_F16F32(PT_VL_MAP1, vsqrt, SQRT_F)
PT_VL_F16F32(PT_VL_MAP1, vrsqrt, RSQRT_F)
PT_VL_F16F32(PT_VL_MAP1, vrec, REC_F)
PT_VL_MAP1(vrelu, i32, RELU_I) PT_VL_F16F32(PT_VL_MAP1, vrelu, RELU_F)
PT_VL_MAP1(fabs, u16, FABS_B) PT_VL_MAP1(fabs, u32, FABS_B)
PT_VL_MAP1(fneg, u16, FNEG_B) PT_VL_MAP1(fneg, u32, FNEG_B)
PT_VL_INTS(PT_VL_MAP1, vmov, ID_U) PT_VL_MAP1(vmov, u64, ID_U)
PT_VL_INTS(PT_VL_MAP1, vbcnt, BCNT_B)
PT_VL_INTS(PT_VL_MAP1, vcls, CLS_B)

const pt_vl_fn pt_vabs_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vabs, _)[PTOSIM_DT_F16] = fabs_u16, [PTOSIM_DT_F32] = fabs_u32};
const pt_vl_fn pt_vneg_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vneg, _)[PTOSIM_DT_F16] = fneg_u16, [PTOSIM_DT_F32] = fneg_u32};
/* vnot on float registers inverts the lane bits, like vand / vor / vxor (vec_binary.c). */
const pt_vl_fn pt_vnot_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vnot, _)[PTOSIM_DT_F16] = vnot_u16, [PTOSIM_DT_BF16] = vnot_u16, [PTOSIM_DT_F32] = vnot_u32};
const pt_vl_fn pt_vexp_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vexp, _)};
const pt_vl_fn pt_vln_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vln, _)};
const pt_vl_fn pt_vsqrt_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vsqrt, _)};
const pt_vl_fn pt_vrsqrt_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vrsqrt, _)};
const pt_vl_fn pt_vrec_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, vrec, _)};
const pt_vl_fn pt_vrelu_loops[PTOSIM_DT_COUNT] = {PT_VL_ENTRY(vrelu, i32, _) PT_VL_F16F32(PT_VL_ENTRY, vrelu, _)};
/* vmov copies lane bits: every element type of a register, by its width. */
const pt_vl_fn pt_vmov_loops[PTOSIM_DT_COUNT] = {
    PT_VL_INTS(PT_VL_ENTRY, vmov, _)[PTOSIM_DT_I64] = vmov_u64, [PTOSIM_DT_U64] = vmov_u64, [PTOSIM_DT_F16] = vmov_u16,
    [PTOSIM_DT_BF16] = vmov_u16, [PTOSIM_DT_F32] = vmov_u32, [PTOSIM_DT_F8E4M3] = vmov_u8,
    [PTOSIM_DT_F8E5M2] = vmov_u8, [PTOSIM_DT_HIF8] = vmov_u8, [PTOSIM_DT_F8E8M0] = vmov_u8};
const pt_vl_fn pt_vbcnt_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vbcnt, _)};
const pt_vl_fn pt_vcls_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vcls, _)};

#define UNARY_EXEC(op)                                                                     \
  ptosim_status pt_exec_##op(pt_ctx *x, const ptosim_vunary_params *p) {                  \
    pt_vl_args g = {.dst = p->dst, .a = p->src, .mask = p->mask};                          \
    return pt_vl_run(x, pt_##op##_loops, p->dtype, &g, p->dst && p->src && p->mask, p->mask_bits); \
  }

UNARY_EXEC(vabs)
UNARY_EXEC(vneg)
UNARY_EXEC(vnot)
UNARY_EXEC(vexp)
UNARY_EXEC(vln)
UNARY_EXEC(vsqrt)
UNARY_EXEC(vrsqrt)
UNARY_EXEC(vrec)
UNARY_EXEC(vrelu)
UNARY_EXEC(vmov)
UNARY_EXEC(vbcnt)
UNARY_EXEC(vcls)
