/* A lowered program: each function is flattened (calls inlined, structured control flow
 * turned into jumps) into one instruction array over a flat array of value slots. The
 * interpreter (run.c) keeps one slot array and one program counter per core, so a core
 * can stop at a cross-core wait and resume later. */
#ifndef PT_PROG_H
#define PT_PROG_H

#include <stdint.h>

#include "asm/ast.h"
#include "ptosim/program.h"
#include "ptosim/tile.h"
#include "ptosim/vreg.h"

/* A value: integers are kept sign-extended from their width, floats as double (rounded to
 * their type after every op), pointers as typed GM/local addresses; a vector register, a
 * predicate or an alignment state (a "wide" value) as a pointer to its storage in the
 * core's wide arena, fixed for the run (copies copy the bytes, never the pointer). */
typedef union pt_val {
  int64_t i;
  double f;
  ptosim_ptr p;
  void *w;
} pt_val;

/* TILE and VIEW slots hold an object index (pt_val.i) into the core's object table: see
 * pt_obj. */
typedef enum pt_vkind {
  PT_VK_INT, PT_VK_FLOAT, PT_VK_PTR, PT_VK_TILE, PT_VK_VIEW,
  PT_VK_VREG,  /* !pto.vreg<NxT>: dt = T, lanes = N (wide: PTOSIM_VREG_BYTES) */
  PT_VK_MASK,  /* !pto.mask<bG>: bits = G (wide: sizeof(ptosim_vmask)) */
  PT_VK_ALIGN, /* !pto.align (wide: sizeof(ptosim_valign)) */
  PT_VK_OTHER
} pt_vkind;

/* A tile or GM view value (src/exec/tiles.c). Every op that makes one (pto.alloc_tile,
 * pto.make_tensor_view, pto.partition_view, pto.subview, pto.tassign, pto.bitcast,
 * pto.treshape) owns one entry of each core's object table and its result slot holds that
 * entry's index; copies of the slot (loop-carried values, inlined calls) share the entry,
 * so pto.set_validshape changes the tile every alias sees, as PTOAS specifies. */
typedef struct pt_obj {
  ptosim_tile tile;
  ptosim_gm_view view;
  int8_t rank;          /* VIEW: dimensions as written (1..5), right-aligned in view.shape */
  int8_t layout_given;  /* VIEW: layout spelled ({layout = #pto.layout<..>}); else inferred */
} pt_obj;

/* Static type of a slot. */
typedef struct pt_slot_type {
  uint8_t kind;   /* pt_vkind */
  uint8_t bits;   /* INT: width (64 for index); FLOAT: 16 / 32 / 64 */
  uint8_t is_unsigned;
  uint8_t is_index; /* INT: MLIR index (64 bits), a type distinct from i64 */
  uint8_t stub;     /* a result of a failed op whose type is unknown: not type-checked */
  uint16_t lanes;   /* VREG: lanes N */
  ptosim_dtype dt; /* INT/FLOAT: scalar dtype (NONE for i1/index); PTR: element type */
  ptosim_space space; /* PTR */
  const pa_type *decl; /* TILE / VIEW: the type written where the value was made */
  uint32_t wide;       /* VREG / MASK / ALIGN: byte offset of the value in the wide arena */
} pt_slot_type;

/* Bytes of a wide value of kind k (0 for the other kinds). */
static inline size_t pt_wide_size(int k) {
  return k == PT_VK_VREG ? sizeof(ptosim_vreg) : k == PT_VK_MASK ? sizeof(ptosim_vmask) : k == PT_VK_ALIGN ? sizeof(ptosim_valign) : 0;
}

/* Operand of a bound pto op: a slot or a constant. */
typedef struct pt_operand {
  int32_t slot;   /* -1: constant k */
  pt_slot_type t; /* static type (literals: i64 or f32) */
  pt_val k;
  uint8_t by_address; /* an integer or pointer result: the binder takes the slot's address */
} pt_operand;

/* The pure scalar codes come first, from PT_C_CONST to PT_C_LAST_PURE: the interpreter
 * tells them from the others with one compare. */
typedef enum pt_code {
  PT_C_NOP,
  PT_C_CONST,   /* dst = imm */
  PT_C_MOV,     /* dst = a */
  PT_C_WMOV,    /* wide dst = wide a: imm.i bytes */
  PT_C_BIN,     /* dst = a <sub> b, width bits */
  PT_C_CMPI,    /* dst = a <pred sub> b */
  PT_C_CMPF,
  PT_C_SELECT,  /* dst = a ? b : c */
  PT_C_CAST,    /* dst = cast<sub>(a) */
  PT_C_NEGF,
  PT_C_CASTPTR, /* dst = pointer(type of dst, address a) */
  PT_C_ADDPTR,  /* dst = a + b elements */
  PT_C_PTRTOINT, /* dst = address of pointer a, wrapped to bits */
  PT_C_LAST_PURE = PT_C_PTRTOINT,
  PT_C_JMP,     /* pc = target */
  PT_C_JZ,      /* if !a: pc = target */
  PT_C_FOR_INIT, /* dst = a; if !(dst < b) pc = target  (signed compare) */
  PT_C_FOR_NEXT, /* a += c(step slot); if a < b pc = target */
  PT_C_PTO,     /* machine op: opcode, operands */
  PT_C_QUERY,   /* dst = block idx / num, sub-block idx / num (sub) */
  PT_C_SECTION, /* sub 0 cube, 1 vector, 2 vector sub-block 0: on another core, pc = target */
  PT_C_LOAD,    /* dst = *(a + b elements); sub: 1 inside a vector scope (pipe V) */
  PT_C_STORE,   /* *(b + c elements) = a; sub as PT_C_LOAD */
  PT_C_OBJ,     /* tile / view op <sub> (tiles.c): result object `obj`, operands as PT_C_PTO */
  PT_C_AGET,    /* dst = element [indices] of the local array whose handle slot is a (elements in the
                   slots after it, row-major); the index slots are operands as PT_C_PTO */
  PT_C_ASET,    /* element [indices] of array a = c */
  PT_C_EXTERN,  /* func.call of a function declared without a body: a run that reaches it stops */
  PT_C_RETURN
} pt_code;

/* PT_C_BIN sub-codes (arith binary ops; lower.c maps the names, run.c evaluates). */
enum pt_binop {
  PT_B_ADD, PT_B_SUB, PT_B_MUL, PT_B_DIVS, PT_B_DIVU, PT_B_REMS, PT_B_REMU, PT_B_AND, PT_B_OR, PT_B_XOR,
  PT_B_SHL, PT_B_SHRS, PT_B_SHRU, PT_B_MAXS, PT_B_MINS, PT_B_MAXU, PT_B_MINU, PT_B_CEILDIVS, PT_B_FLOORDIVS,
  PT_B_CEILDIVU, PT_B_ADDF, PT_B_SUBF, PT_B_MULF, PT_B_DIVF, PT_B_MAXF, PT_B_MINF, PT_B_REMF,
  PT_B_BITSET0, PT_B_BITSET1 /* pto.sbitset0/1: a with bit (b mod 64) cleared / set */
};

/* PT_C_PTO's sub in a mixed program (ncores_kind 3): the core the op runs on. */
enum { PT_CORE_OWN, PT_CORE_CUBE, PT_CORE_VEC };

/* pt_ins.flags of a PT_C_OBJ alloc whose tile had no addr: placed at lowering (tiles.c),
 * possibly moved by the planner (plan.c). */
#define PT_INS_PLANNED 0x80u

typedef struct pt_ins {
  uint8_t code;
  uint8_t sub;
  uint8_t bits;
  uint8_t flags;
  int32_t dst, a, b, c;
  int32_t target;
  int32_t opc;           /* PT_C_PTO: ptosim_opcode */
  int32_t op_first, op_count; /* PT_C_PTO / PT_C_OBJ: operands in prog->operands */
  int32_t obj;           /* PT_C_OBJ, PT_C_PTO with a tile result: the result's object */
  pt_val imm;
  const pa_op *src;      /* for locations and binding */
  struct pt_plan *plan;  /* PT_C_PTO: the binding plan (exec/lower.h), NULL: run the binder */
} pt_ins;

struct ptosim_program {
  pa_ast *ast;
  const pa_op *entry;
  ptosim_target target;
  int kernel_kind;       /* 0 mixed (sections), 1 cube only, 2 vector only */
  pt_ins *code;
  int32_t ncode, cap_code;
  pt_slot_type *slots;
  int32_t nslots, cap_slots;
  uint32_t wide_bytes;   /* size of each core's wide arena (VREG / MASK / ALIGN slots) */
  pt_operand *operands;
  int32_t noperands, cap_operands;
  pt_obj *objs;          /* static part of each object (tile type of its result), nobjs */
  int32_t nobjs, cap_objs;
  uint64_t alloc_next[PTOSIM_SPACE_COUNT]; /* bump allocator of tiles without addr, bytes */
  int32_t nparams;
  int32_t ncores_kind;   /* cores that run the entry: 0 cube + both vector, 1 cube, 2 vector 0,
                            3 mixed: one thread on the cube core, each table op on its own core */
  int32_t *param_slot;
  const pa_arg *params;
};

/* Convert a parsed type to a slot type; kind PT_VK_OTHER when unsupported. */
pt_slot_type pt_slot_type_of(const pa_type *t);

#endif
