/* A2/A3 UB-to-UB vector ops `pto.ub.*` (tonibohnlein/PTOAS include/PTO/IR/VPTOUbOps.td,
 * docs/designs/a2a3-vpto-elementwise-impl.md; the CCE intrinsics VADD, VEXP, ... that PTOAS
 * lowers them to). Geometry, mask and count mode: include/ptosim/ub_vec.h; readings:
 * docs/spec-notes.md section 12.
 *
 * A repeat is one 256-byte register's worth of lanes, so each repeat gathers the running
 * lanes of its 8 blocks per source into a register, runs the A5 lane loop of the op
 * (vec_lanes.h: f16 computed in f32 and rounded once, integers wrap), and scatters the
 * running lanes of the result. Lanes that do not run are neither read nor written: the
 * accessor layer checks and records exactly their bytes (pt_region, one strided range per
 * group of blocks with the same lane pattern). */
#include <inttypes.h>
#include <string.h>

#include "isa/vec_arith.h"
#include "isa/vec_formulas.h"

#define BLK 32u  /* bytes of a block */
#define NBLK 8u  /* blocks of a repeat */
#define FIELD_MAX 255 /* repeat and strides: PTOAS VPTOLLVMEmitter packs each into 8 bits */

#define T(dt) (1u << PTOSIM_DT_##dt)
#define T_ARITH (T(F16) | T(F32) | T(I16) | T(I32))
#define T_FLOAT (T(F16) | T(F32))
#define T_BITS16 (T(I16) | T(U16))

/* vaddrelu: max(a + b, 0) (ADDRELU_F of vec_formulas.h); integers wrap. */
#define ADDRELU_I(K, x, y) (PT_VL_WRAP(K, x, +, y) > 0 ? PT_VL_WRAP(K, x, +, y) : 0)
PT_VL_F16F32(PT_VL_MAP2, ub_vaddrelu, ADDRELU_F)
PT_VL_MAP2(ub_vaddrelu, i16, ADDRELU_I)
static const pt_vl_fn vaddrelu_loops[PTOSIM_DT_COUNT] = {PT_VL_F16F32(PT_VL_ENTRY, ub_vaddrelu, _)
                                                              PT_VL_ENTRY(ub_vaddrelu, i16, _)};

/* ---- lanes of a repeat ------------------------------------------------------------------- */

/* The lanes one repeat runs: the register mask the lane loops take (bit k * E for lane k)
 * and, per block, bit j = element j of the block runs. */
typedef struct ub_lanes {
  ptosim_vmask mask;
  uint32_t blk[NBLK];
} ub_lanes;

/* Lanes k < n of e-byte elements run where bit k of m1:m0 is set. */
static void lanes_of(ub_lanes *l, uint64_t m0, uint64_t m1, unsigned n, unsigned e) {
  memset(l, 0, sizeof *l);
  unsigned per = BLK / e;
  for (unsigned k = 0; k < n; k++)
    if ((k < 64 ? m0 >> k : m1 >> (k - 64)) & 1) {
      pt_vl_set(&l->mask, k, e, 1);
      l->blk[k / per] |= 1u << (k % per);
    }
}

/* ---- one operand ------------------------------------------------------------------------- */

typedef struct ub_opnd {
  uint64_t addr;    /* UB byte address */
  int64_t blk, rep; /* strides in bytes */
  uint8_t *host;    /* host byte of addr (valid once checked) */
} ub_opnd;

/* Check and record the bytes of lanes l in repeats [r0, r0 + nrep) of o: per maximal group
 * of consecutive blocks with one non-empty pattern, one strided range per run of set bits,
 * or a single range when the runs have one length and one spacing. */
static ptosim_status access_lanes(pt_ctx *x, const ub_opnd *o, const ub_lanes *l, uint64_t r0, uint64_t nrep,
                                  unsigned e, pt_access acc) {
  uint8_t *out;
  for (unsigned b = 0; b < NBLK && nrep;) {
    uint32_t pat = l->blk[b];
    unsigned nb = 1;
    while (b + nb < NBLK && l->blk[b + nb] == pat) nb++;
    unsigned runs = 0, start[16], len[16];
    for (unsigned j = 0; j < BLK / e; j++)
      if (pat >> j & 1) {
        if (!j || !(pat >> (j - 1) & 1)) start[runs] = j, len[runs++] = 0;
        len[runs - 1]++;
      }
    int regular = runs > 1;
    for (unsigned i = 2; i < runs; i++) regular &= start[i] - start[i - 1] == start[1] - start[0];
    for (unsigned i = 1; i < runs; i++) regular &= len[i] == len[0];
    for (unsigned i = 0; i < runs; i += regular ? runs : 1) {
      int64_t count[3] = {(int64_t)nrep, nb, regular ? (int64_t)runs : 1};
      int64_t stride[3] = {o->rep, o->blk, regular ? (int64_t)((start[1] - start[0]) * e) : 0};
      uint64_t at = o->addr + r0 * (uint64_t)o->rep + b * (uint64_t)o->blk + start[i] * e;
      PT_TRY(pt_region(x, PTOSIM_UB, at, 3, count, stride, (uint64_t)len[i] * e, e, acc, &out));
    }
    b += nb;
  }
  return PTOSIM_OK;
}

/* Register lanes l of repeat r <-> o: copy the running elements (a whole block at once). */
static void gather(ptosim_vreg *v, const ub_opnd *o, const ub_lanes *l, uint64_t r, unsigned e) {
  const uint8_t *p = o->host + r * (uint64_t)o->rep;
  uint32_t all = (1u << (BLK / e)) - 1;
  for (unsigned b = 0; b < NBLK; b++, p += o->blk) {
    if (l->blk[b] == all) memcpy(v->b + b * BLK, p, BLK);
    else
      for (unsigned j = 0; j < BLK / e; j++)
        if (l->blk[b] >> j & 1) memcpy(v->b + b * BLK + j * e, p + j * e, e);
  }
}
static void scatter(const ub_opnd *o, const ptosim_vreg *v, const ub_lanes *l, uint64_t r, unsigned e) {
  uint8_t *p = o->host + r * (uint64_t)o->rep;
  uint32_t all = (1u << (BLK / e)) - 1;
  for (unsigned b = 0; b < NBLK; b++, p += o->blk) {
    if (l->blk[b] == all) memcpy(p, v->b + b * BLK, BLK);
    else
      for (unsigned j = 0; j < BLK / e; j++)
        if (l->blk[b] >> j & 1) memcpy(p + j * e, v->b + b * BLK + j * e, e);
  }
}

/* ---- the shared run ---------------------------------------------------------------------- */

/* An op: dst (o[0]) = fn(a, b) where a / b are the sources o[1], o[2] read from UB, or the
 * broadcast scalar `s` when the op has fewer UB sources (nsrc). */
typedef struct ub_job {
  const char *name;
  uint32_t types;   /* legal element types (T bits) */
  const pt_vl_fn *loops;
  ptosim_dtype dt, loop_dt; /* element type; the type whose loop runs (vshl / vshr: unsigned) */
  int64_t repeat;
  int nsrc;
  ub_opnd o[3];
  ptosim_vreg s;
} ub_job;

static ptosim_status check_target(pt_ctx *x, const char *what) {
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A2A3, "ubvec.target", "pto.ub.* ops are A2/A3 ops: run with --target a2a3",
            "%s on the %s profile (the A2/A3 UB vector ops exist on the a2a3 profile only)", what, x->m->prof->name);
  return PTOSIM_OK;
}

/* The checks that need no machine state: target, spaces, element types, field ranges. */
static ptosim_status job_check(pt_ctx *x, ub_job *j, const ptosim_ptr *ptr, const int64_t *fields, int nfields) {
  static const char *const role[] = {"dst", "src0", "src1"};
  PT_TRY(check_target(x, j->name));
  for (int i = 0; i <= j->nsrc; i++) {
    PT_TRY(pt_expect_space(x, role[i], ptr[i], PTOSIM_UB));
    PT_VERIFY(x, ptr[i].dtype == ptr[0].dtype, "ubvec.dtype", "give every pointer operand the same element type",
              "%s has element type %s, dst %s", role[i], pt_dtype_name(ptr[i].dtype), pt_dtype_name(ptr[0].dtype));
  }
  j->dt = ptr[0].dtype;
  PT_VERIFY(x, (unsigned)j->dt < 32 && (j->types >> j->dt & 1), "ubvec.dtype",
            "see the op's type list in docs/designs/a2a3-vpto-elementwise-impl.md (docs/spec-notes.md section 12)",
            "%s has no %s form on A2/A3", j->name, pt_dtype_name(j->dt));
  for (int i = 0; i < nfields; i++)
    PT_VERIFY(x, fields[i] >= 0 && fields[i] <= FIELD_MAX, "ubvec.field",
              "repeat and strides are 0..255 (strides in 32-byte blocks)", "%s: repeat / stride operand %d is %" PRId64,
              j->name, i, fields[i]);
  return PTOSIM_OK;
}

/* Plan the repeats from the mask state, check and record every access, then run. */
static ptosim_status job_run(pt_ctx *x, ub_job *j) {
  if (x->m->verify_only) return PT_E_STOP; /* the lanes depend on the mask registers */
  unsigned e = pt_dtype_size(j->dt), epr = PTOSIM_VREG_BYTES / e;
  uint64_t m0 = pt_sreg_get(x, PT_SREG_VMASK0), m1 = pt_sreg_get(x, PT_SREG_VMASK1);
  ub_lanes full, last;
  uint64_t nfull = (uint64_t)j->repeat, nlast = 0;
  lanes_of(&full, UINT64_MAX, UINT64_MAX, epr, e);
  if (pt_sreg_get(x, PT_SREG_CTRL) >> PTOSIM_CTRL_MASK_COUNT_BIT & 1) {
    uint64_t cap = x->m->prof->capacity[PTOSIM_UB] / e;
    PT_VERIFY(x, m0 <= cap, "ubvec.count", "set a count of at most the UB capacity in elements",
              "count mode element count %" PRIu64 " exceeds %" PRIu64 " (%s elements of the UB)", m0, cap,
              pt_dtype_name(j->dt));
    if (j->repeat >= 2) { /* each repeat runs the first MASK0 lanes (section 12, count mode) */
      PT_VERIFY(x, m0 <= epr, "ubvec.count_repeat", "with repeat >= 2 in count mode give a count of at most one repeat",
                "count mode element count %" PRIu64 " over %" PRId64 " repeats of %u %s lanes: no source defines it",
                m0, j->repeat, epr, pt_dtype_name(j->dt));
      nfull = 0;
      nlast = (uint64_t)j->repeat;
      lanes_of(&last, UINT64_MAX, UINT64_MAX, (unsigned)m0, e);
    } else { /* repeat 0 or 1: the first MASK0 elements, ceil(MASK0 / lanes) repeats */
      nfull = m0 / epr;
      nlast = m0 % epr != 0;
      lanes_of(&last, UINT64_MAX, UINT64_MAX, (unsigned)(m0 % epr), e);
    }
  } else {
    lanes_of(&full, m0, m1, epr, e);
  }
  for (int i = 0; i <= j->nsrc; i++) {
    ub_opnd *o = &j->o[i];
    pt_access acc = i ? PT_READ : PT_WRITE;
    int64_t none = 0;
    PT_TRY(pt_region(x, PTOSIM_UB, o->addr, 1, &none, &none, 0, BLK, acc, &o->host));
    PT_TRY(access_lanes(x, o, &full, 0, nfull, e, acc));
    PT_TRY(access_lanes(x, o, &last, nfull, nlast, e, acc));
  }
  pt_vl_fn fn = j->loops[j->loop_dt];
  ptosim_vreg a, b, d;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  pt_vl_args g = {.dst = &d, .a = j->nsrc ? &a : &j->s, .b = j->nsrc > 1 ? &b : &j->s};
  for (uint64_t r = 0; r < nfull + nlast; r++) {
    const ub_lanes *l = r < nfull ? &full : &last;
    if (j->nsrc > 0) gather(&a, &j->o[1], l, r, e);
    if (j->nsrc > 1) gather(&b, &j->o[2], l, r, e);
    g.mask = &l->mask;
    fn(&g);
    scatter(&j->o[0], &d, l, r, e);
  }
  pt_record_work(x, (nfull + nlast) * epr, j->dt);
  return PTOSIM_OK;
}

static ub_opnd opnd(ptosim_ptr p, int64_t blk, int64_t rep) { return (ub_opnd){p.addr, blk * BLK, rep * BLK, NULL}; }

/* ---- executors --------------------------------------------------------------------------- */

static ptosim_status binary_run(pt_ctx *x, const char *name, const pt_vl_fn *loops, uint32_t types,
                                const ptosim_ub_binary_params *p) {
  ub_job j = {.name = name, .types = types, .loops = loops, .repeat = p->repeat, .nsrc = 2};
  const ptosim_ptr ptr[3] = {p->dst, p->src0, p->src1};
  const int64_t f[7] = {p->repeat,           p->dst_block_stride,  p->src0_block_stride, p->src1_block_stride,
                        p->dst_repeat_stride, p->src0_repeat_stride, p->src1_repeat_stride};
  PT_TRY(job_check(x, &j, ptr, f, 7));
  j.loop_dt = j.dt;
  j.o[0] = opnd(p->dst, p->dst_block_stride, p->dst_repeat_stride);
  j.o[1] = opnd(p->src0, p->src0_block_stride, p->src0_repeat_stride);
  j.o[2] = opnd(p->src1, p->src1_block_stride, p->src1_repeat_stride);
  return job_run(x, &j);
}

/* Unary (nsrc 1, scalar unused), vector-scalar (nsrc 1, b = the scalar's low E bytes),
 * shifts (the distance clamped to the width, on the unsigned loop), vdup (nsrc 0). */
typedef enum { U_PLAIN, U_SCALAR, U_SHIFT, U_DUP } ub_ukind;

static ptosim_status unary_run(pt_ctx *x, const char *name, const pt_vl_fn *loops, uint32_t types, ub_ukind k,
                               const ptosim_ub_unary_params *p) {
  ub_job j = {.name = name, .types = types, .loops = loops, .repeat = p->repeat, .nsrc = k != U_DUP};
  const ptosim_ptr ptr[2] = {p->dst, p->src};
  const int64_t f[5] = {p->repeat, p->dst_block_stride, p->src_block_stride, p->dst_repeat_stride, p->src_repeat_stride};
  PT_TRY(job_check(x, &j, ptr, f, 5));
  unsigned e = pt_dtype_size(j.dt);
  uint64_t s = (uint64_t)p->scalar;
  j.loop_dt = j.dt;
  if (k == U_SHIFT) {
    PT_VERIFY(x, p->scalar >= 0, "ubvec.shift", "shift by 0 or more bits", "%s by %" PRId64 " bits", name, p->scalar);
    s = s < e * 8u ? s : e * 8u;
    j.loop_dt = e == 2 ? PTOSIM_DT_U16 : PTOSIM_DT_U32;
  }
  pt_vl_broadcast(&j.s, s, e);
  j.o[0] = opnd(p->dst, p->dst_block_stride, p->dst_repeat_stride);
  j.o[1] = opnd(p->src, p->src_block_stride, p->src_repeat_stride);
  return job_run(x, &j);
}

#define UB_BINARY(op, loops, types)                                                        \
  ptosim_status pt_exec_ub_##op(pt_ctx *x, const ptosim_ub_binary_params *p) {            \
    return binary_run(x, "pto.ub." #op, loops, types, p);                                  \
  }
#define UB_UNARY(op, loops, types, kind)                                                   \
  ptosim_status pt_exec_ub_##op(pt_ctx *x, const ptosim_ub_unary_params *p) {             \
    return unary_run(x, "pto.ub." #op, loops, types, kind, p);                             \
  }

/* Element types: the llvm.hivm intrinsics of docs/designs/a2a3-vector-builtins.md that
 * PTOAS's VPTOLLVMEmitter can name (signless iN is sN, uiN is uN). */
UB_BINARY(vadd, pt_vadd_loops, T_ARITH)
UB_BINARY(vsub, pt_vsub_loops, T_ARITH)
UB_BINARY(vmul, pt_vmul_loops, T_ARITH)
UB_BINARY(vdiv, pt_vdiv_loops, T_FLOAT)
UB_BINARY(vmax, pt_vmax_loops, T_ARITH)
UB_BINARY(vmin, pt_vmin_loops, T_ARITH)
UB_BINARY(vand, pt_vand_loops, T_BITS16)
UB_BINARY(vor, pt_vor_loops, T_BITS16)
UB_BINARY(vaddrelu, vaddrelu_loops, T_FLOAT | T(I16))
UB_UNARY(vnot, pt_vnot_loops, T_BITS16, U_PLAIN)
UB_UNARY(vabs, pt_vabs_loops, T_FLOAT | T(I16), U_PLAIN)
UB_UNARY(vrelu, pt_vrelu_loops, T_FLOAT | T(I32), U_PLAIN)
UB_UNARY(vexp, pt_vexp_loops, T_FLOAT, U_PLAIN)
UB_UNARY(vln, pt_vln_loops, T_FLOAT, U_PLAIN)
UB_UNARY(vsqrt, pt_vsqrt_loops, T_FLOAT, U_PLAIN)
UB_UNARY(vrsqrt, pt_vrsqrt_loops, T_FLOAT, U_PLAIN)
UB_UNARY(vshl, pt_vshl_loops, T_BITS16 | T(I32) | T(U32), U_SHIFT)
UB_UNARY(vshr, pt_vshr_loops, T_BITS16 | T(I32) | T(U32), U_SHIFT)
UB_UNARY(vmuls, pt_vmul_loops, T_ARITH, U_SCALAR)
UB_UNARY(vadds, pt_vadd_loops, T_ARITH, U_SCALAR)
UB_UNARY(vmaxs, pt_vmax_loops, T_ARITH, U_SCALAR)
UB_UNARY(vmins, pt_vmin_loops, T_ARITH, U_SCALAR)
/* vdup copies the scalar's bits: the vmov loop of the element type on the broadcast. */
UB_UNARY(vdup, pt_vmov_loops, T_BITS16 | T_FLOAT | T(BF16) | T(I32) | T(U32), U_DUP)

/* ---- mask state -------------------------------------------------------------------------- */

ptosim_status pt_exec_ub_set_mask(pt_ctx *x, const ptosim_ub_mask_params *p) {
  PT_TRY(check_target(x, "pto.ub.set_mask"));
  x->core->sreg[PT_SREG_VMASK0] = p->mask0;
  x->core->sreg[PT_SREG_VMASK1] = p->mask1;
  return PTOSIM_OK;
}

static ptosim_status set_count_bit(pt_ctx *x, const char *name, uint64_t bit) {
  PT_TRY(check_target(x, name));
  uint64_t ctrl = pt_sreg_get(x, PT_SREG_CTRL) & ~(1ull << PTOSIM_CTRL_MASK_COUNT_BIT);
  x->core->sreg[PT_SREG_CTRL] = ctrl | bit << PTOSIM_CTRL_MASK_COUNT_BIT;
  return PTOSIM_OK;
}

ptosim_status pt_exec_ub_set_mask_count(pt_ctx *x, const ptosim_ub_mask_params *p) {
  (void)p;
  return set_count_bit(x, "pto.ub.set_mask_count", 1);
}

ptosim_status pt_exec_ub_set_mask_norm(pt_ctx *x, const ptosim_ub_mask_params *p) {
  (void)p;
  return set_count_bit(x, "pto.ub.set_mask_norm", 0);
}
