/* Op metadata, generated from the op table (src/isa/ops.def): the bottom layer every other
 * layer asks about an op (spelling, pipe, unit, params size, variant flags, cost class,
 * status). Executors live one layer up, in src/isa/dispatch.c. */
#ifndef PT_OPTABLE_H
#define PT_OPTABLE_H

#include <stddef.h>

#include "ptosim/ptosim.h"

/* Variant flags (the flags column). */
#define OPF_ACC 0x1u     /* seeded with the accumulator (mad_acc, tmatmul.acc, ...) */
#define OPF_BIAS 0x2u    /* seeded with a bias row */
#define OPF_MX 0x4u      /* MX form: per-32-element e8m0 scales */
#define OPF_GEMV 0x8u    /* cube GEMV mode (one dense lhs row) */
#define OPF_FP 0x10u     /* vector quantization by an fp (scaling) tile */
#define OPF_INDEXED 0x20u /* row / column index operands (textract, tinsert) */

/* How .pto text reaches an op (the text column). */
typedef enum pt_op_text { PT_TEXT_TEXT, PT_TEXT_LOWERED, PT_TEXT_CAPI, PT_TEXT_NONE } pt_op_text;

/* Vector cost classes (the cost column of V-pipe rows; parameters in src/cost/cost_params.c).
 * GENERIC: costed by the number of UB sources, PT_VC_SCALAR for one (or none), PT_VC_BINARY
 * for two and more. NONE: not a V-pipe op. */
typedef enum pt_vec_class {
  PT_VC_BINARY,    /* elementwise tile-tile ALU: tadd tsub tmax tmin */
  PT_VC_MUL,       /* tmul */
  PT_VC_BITWISE,   /* tand tor */
  PT_VC_DIV,       /* tdiv */
  PT_VC_SCALAR,    /* tile-scalar ALU: tadds tsubs tmuls tmaxs tneg */
  PT_VC_MINS,      /* tmins */
  PT_VC_DIVS,      /* tdivs: a vector_dup of the scalar, then a division */
  PT_VC_RECIP,     /* trecip */
  PT_VC_ABS,       /* tabs */
  PT_VC_RELU,      /* trelu */
  PT_VC_EXP,       /* texp */
  PT_VC_LOG,       /* tlog */
  PT_VC_SQRT,      /* tsqrt */
  PT_VC_RSQRT,     /* trsqrt */
  PT_VC_CVT,       /* tcvt */
  PT_VC_ROWSUM,    /* trowsum */
  PT_VC_ROWMAX,    /* trowmax trowmin */
  PT_VC_COLSUM,    /* tcolsum */
  PT_VC_COLMAX,    /* tcolmax tcolmin */
  PT_VC_ROWEXPAND, /* trowexpand */
  PT_VC_COUNT,
  PT_VC_GENERIC = PT_VC_COUNT,
  PT_VC_NONE,
  /* A5 vector micro-ops (VEC_* rows): each class is the pto-isa VfSim row (isa.csv) or CA-sim
   * figure the op is charged as; records and sources in src/cost/cost_params.c (vf_a5). */
  PT_VC_VF_FIRST,
  PT_VC_VF_VLDS = PT_VC_VF_FIRST, /* vlds vldsx2 vsldb vldas vldus uvld */
  PT_VC_VF_PLDS,    /* plds pldi: predicate loads */
  PT_VC_VF_GATHER,  /* vgather2 vgather2_bc */
  PT_VC_VF_GATHERB, /* vgatherb */
  PT_VC_VF_VSTS,    /* vsts vsstb vstas vstus vstur vstar */
  PT_VC_VF_VSTSX2,  /* vstsx2 */
  PT_VC_VF_PSTS,    /* psts psti pstu: predicate stores */
  PT_VC_VF_SCATTER, /* vscatter */
  PT_VC_VF_VADD,    /* vadd vsub vadds vsubs vaddc vsubc vaddcs vsubcs */
  PT_VC_VF_VMUL,    /* vmul vmuls vneg vmull vmulscvt */
  PT_VC_VF_VMAX,    /* vmax vmin vmaxs vmins */
  PT_VC_VF_VAND,    /* vand vor vxor vands vors vxors vnot */
  PT_VC_VF_VSHL,    /* vshl vshr vshls vshrs */
  PT_VC_VF_VABS,    /* vabs vrelu */
  PT_VC_VF_VEXP,    /* vexp vexpdif */
  PT_VC_VF_VLN,     /* vln */
  PT_VC_VF_VDIV,    /* vdiv vsqrt vrsqrt vrec */
  PT_VC_VF_FMA,     /* vmula vmadd vaxpy */
  PT_VC_VF_VCMAX,   /* vcmax vcmin vcbmax vcbmin */
  PT_VC_VF_VCADD,   /* vcadd vcpadd */
  PT_VC_VF_VCGMAX,  /* vcgmax vcgmin vcgadd */
  PT_VC_VF_VDUP,    /* vdup */
  PT_VC_VF_VBR,     /* vbr */
  PT_VC_VF_VCMP,    /* vcmp vcmps */
  PT_VC_VF_VSEL,    /* vsel vselr vselrv2 */
  PT_VC_VF_VCVT,    /* vcvt vtrc */
  PT_VC_VF_VMOV,    /* vmov */
  PT_VC_VF_PSET,    /* pset_b* pge_b* plt_b* pltm_b* */
  PT_VC_VF_PRED,    /* pand por pxor pnot psel ppack punpack pintlv_b* pdintlv_b* pbitcast */
  PT_VC_VF_OTHER,   /* micro-ops no source times: rearrangement, vci, vbcnt, vcls, ... */
  PT_VC_VF_END
} pt_vec_class;

/* Is cls the class of a vector micro-op (costed on the VF timeline, src/cost/cost_vf.c)? */
static inline int pt_vec_class_is_vf(pt_vec_class cls) { return cls >= PT_VC_VF_FIRST && cls < PT_VC_VF_END; }

/* Size of the params struct of op `op` (0 for a row without an executor). */
size_t pt_op_params_size(ptosim_opcode op);
/* The core kind an op runs on: PTOSIM_AIC, PTOSIM_AIV0 (either vector core), or -1 (any). */
int pt_op_core_kind(ptosim_opcode op);
unsigned pt_op_flags(ptosim_opcode op);
pt_vec_class pt_op_cost_class(ptosim_opcode op);
pt_op_text pt_op_text_of(ptosim_opcode op);
/* Look up an op by a spelling of n bytes (not NUL-terminated); PTOSIM_OP_COUNT if unknown. */
ptosim_opcode pt_op_lookup_n(const char *spelling, size_t n);

#endif
