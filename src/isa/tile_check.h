/* What the tile op families (tile_move.c, tile_layout.c, tile_mov.c / tile_matrix.c) share
 * about a tile operand (ptosim_tile): one validation with one set of rule ids, the layout
 * kind names, the loc and base-address checks and the pad value bytes.
 *
 * Rules of pt_tile_check, in the order they are checked:
 *   tile.dtype    the element type has a byte size
 *   tile.enum     blayout, slayout, pad and compact are enumerators (compact 0..3: null,
 *                 normal, row_plus_one, row_aligned_padding; pto-isa common/type.hpp)
 *   tile.shape    rows, cols >= 1 and rows * cols <= 2^40 (more than any local memory)
 *   tile.valid    0 <= valid_rows <= rows and 0 <= valid_cols <= cols
 *   tile.empty    the valid region is not empty (valid_rows, valid_cols >= 1) unless the op
 *                 takes empty regions on the target (may_be_empty, a5_may_be_empty in
 *                 tile_check.c)
 *   tile.fractal  a boxed tile's fractal size is a box the family models for its element type
 *   tile.box      a boxed tile is a whole number of boxes
 *   tile.align    a none_box tile's lines (ND rows, DN columns) are whole 32-byte blocks
 * The last four depend on the family (pt_tile_family; the table in tile_check.c). */
#ifndef PT_TILE_CHECK_H
#define PT_TILE_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/isa.h"

/* Whose box and line rules apply: the families found different readings of pto-isa
 * include/pto/common/pto_tile.hpp (struct Tile), kept as they were. */
typedef enum pt_tile_family {
  PT_TILE_LAYOUT, /* tile_layout.c */
  PT_TILE_MOVE,   /* tile_move.c: TLOAD, TSTORE, TPREFETCH, MGATHER, MSCATTER */
  PT_TILE_MATRIX  /* tile_mov.c and tile_matrix.c through tile_geom.h */
} pt_tile_family;

/* Storage facts of a checked tile. */
typedef struct pt_tile_info {
  unsigned es;    /* element bytes */
  bool boxed;     /* in fractal boxes: slayout != none_box, and not a GEMV vector */
  bool in_col;    /* column-major inside a box; not boxed: column-major lines (DN) */
  int64_t ir, ic; /* box rows / columns, elements (1 x 1 when not boxed) */
} pt_tile_info;

/* Check tile t (named `what` in messages) under the rules of family f; fill *out (may be NULL). */
ptosim_status pt_tile_check(pt_ctx *x, pt_tile_family f, const char *what, const ptosim_tile *t, pt_tile_info *out);

/* Layout kinds named by (blayout, slayout): ND, DN (none_box), NZ (col, row), ZN (row, col),
 * ZZ (row, row), NN (col, col); VEC is the dense GEMV vector of the matrix family. */
typedef enum pt_tile_kind { PT_TK_ND, PT_TK_DN, PT_TK_NZ, PT_TK_ZN, PT_TK_ZZ, PT_TK_NN, PT_TK_VEC } pt_tile_kind;

pt_tile_kind pt_tile_kind_of(const ptosim_tile *t); /* never PT_TK_VEC */
const char *pt_tile_kind_name(pt_tile_kind k);

/* The tile is in space `want`; rule is the op's own id ("ttrans.space"), hint NULL for a
 * generic one. */
ptosim_status pt_tile_in(pt_ctx *x, const char *rule, const char *hint, const char *what, const ptosim_tile *t,
                         ptosim_space want);
/* The same with the rule id "<op>.<rule>", formatted only when the check fails (ops whose
 * operand checks are shared, on the path of every call). */
ptosim_status pt_tile_in_op(pt_ctx *x, const char *op, const char *rule, const char *hint, const char *what,
                            const ptosim_tile *t, ptosim_space want);

/* Host byte of tile storage at addr of space sp, reached from core c: the address has the
 * space's alignment of the target profile (mem.align) and [addr, addr + len) lies in the
 * space (mem.bounds; len 0 checks the alignment only). */
ptosim_status pt_tile_at(pt_ctx *x, ptosim_core *c, ptosim_space sp, uint64_t addr, uint64_t len, pt_access acc,
                         uint8_t **out);

/* A5's 64-bit tile paths (pto-isa a5 Int64*.hpp: Int64Part, Int64Tri, Int64Gather, Int64Scatter,
 * Int64RowSum / Int64RowMinMax / Int64ColReduce, Int64RowExpand / Int64ColExpand, Int64Div,
 * TGather.hpp Int64GatherPattern) load one 64-lane register pair per row (plt_b32 of the valid
 * columns) with no column loop, so columns 64.. of a row are never touched: operand `what` of
 * op `op` with w valid columns of dt is refused when dt has 8 bytes and w > 64 (rule
 * "<op>.cols64"). The caller decides that the A5 path applies. */
ptosim_status pt_tile_cols64(pt_ctx *x, const char *op, const char *what, ptosim_dtype dt, int64_t w);

/* The rule id "<op>.<rule>" in buf (64 bytes), for bodies shared by several ops;
 * PT_TILE_RULE gives it a buffer that lives to the end of the enclosing full expression. */
const char *pt_tile_rule(char *buf, const char *op, const char *rule);
#define PT_TILE_RULE(op, rule) pt_tile_rule((char[64]){0}, (op), (rule))

/* The bytes of pad value v in element type t repeated over 32 bytes from an element start
 * (pto-isa include/pto/common/constants.hpp PadValueMap; tfillpad.md "+inf/-inf for
 * floating types"): max / min are +inf / -inf for f32, f16 and bf16, the limits of the 8- to
 * 32-bit integers, 0 for 64-bit integers and the 8-bit float types (A5 maps every pad value
 * of fp8 / hif8 / e8m0 to 0); zero and null are 0. */
void pt_tile_pad_pattern(ptosim_dtype t, ptosim_pad_value v, uint8_t pat[PT_C0]);

#endif
