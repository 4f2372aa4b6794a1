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
  PT_VC_NONE
} pt_vec_class;

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
