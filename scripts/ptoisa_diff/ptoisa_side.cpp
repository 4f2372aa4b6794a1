// The pto-isa side of scripts/ptoisa_diff: runs every case of cases.h in pto-isa's CPU
// simulator (include/pto/cpu, -D__CPU_SIM) and writes each case's whole destination tile
// (valid region and sentinel bytes) to OUTDIR/c<case>.s<shape>.bin for ptosim_side to
// compare with. Built by run.sh with pto-isa's CPU-ST flags (bench/ptoisa_baseline.sh).
//
//   ptoisa_side OUTDIR
//
// Tiles are row-major vec tiles with dynamic valid shapes, the per-row operands / results
// rows x 1 column-major, the per-column ones 1 x cols: as pto-isa's own CPU tests declare
// them (tests/cpu/st/testcase/{trowsum,tcolsum,trowexpandop,tcolexpandop}).
#include <pto/pto-inst.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

extern "C" {
#include "cases.h"
}

using namespace pto;

template <typename T, int W>
using FullTile = Tile<TileType::Vec, T, PD_ROWS, PD_ROW_BYTES / W, BLayout::RowMajor, -1, -1>;
template <typename T>
using ColTile = Tile<TileType::Vec, T, PD_ROWS, 1, BLayout::ColMajor, -1, -1>;
template <typename T, int W>
using RowTile = Tile<TileType::Vec, T, 1, PD_ROW_BYTES / W, BLayout::RowMajor, -1, -1>;

// The tile type of an operand: a per-row operand of kind K (KCol), a per-column one (KRow),
// else a full tile.
template <typename T, int W, bool IsCol, bool IsRow>
using OperandTile = std::conditional_t<IsCol, ColTile<T>, std::conditional_t<IsRow, RowTile<T, W>, FullTile<T, W>>>;

static std::string g_outdir;

static void dump(int n, int shape, const void* p, size_t bytes)
{
    const std::string path = g_outdir + "/c" + std::to_string(n) + ".s" + std::to_string(shape) + ".bin";
    FILE* f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes) {
        fprintf(stderr, "ptoisa_side: cannot write %s\n", path.c_str());
        exit(1);
    }
    fclose(f);
}

// The predicate tile: u8 rows of PD_PRED_BYTES bytes; TCMP's dst as u32 words (8 a row, the same
// bytes): cpu/TCmp.h takes a u8 dst for i32 / f16 / f32 sources only, a u32 one for every type.
template <typename T>
using PredTile = Tile<TileType::Vec, T, PD_ROWS, PD_PRED_BYTES / sizeof(T), BLayout::RowMajor, -1, -1>;

// Case number n: the op `call` of kind K on dst type D and source type S, every shape.
template <pd_kind K, typename D, typename S, typename Call>
static void run_case(int n, pd_dt dd, pd_dt ds, pd_gen gen, int param, Call call)
{
    constexpr int W = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
    constexpr int WS = K == PD_CMP || K == PD_CMPS ? sizeof(S) : W; // a predicate dst holds bits
    using TA = OperandTile<S, WS, K == PD_ROWBC, K == PD_COLBC>;
    using TB = OperandTile<S, WS, K == PD_ROWEXP, K == PD_COLEXP>;
    using TD = std::conditional_t<
        K == PD_CMP, PredTile<uint32_t>,
        std::conditional_t<K == PD_CMPS, PredTile<uint8_t>, OperandTile<D, W, K == PD_ROWRED, K == PD_COLRED || K == PD_TCI>>>;
    using TT = FullTile<S, WS>;
    using TM = PredTile<uint8_t>;
    for (int shape = 0; shape < PD_SHAPES; shape++) {
        const pd_shape g = pd_shape_of(K, sizeof(D), sizeof(S), shape);
        const uint32_t seed = pd_seed(n, shape);
        const int dcols = K == PD_CMP ? g.d.vc / 4 : g.d.vc; // u32 words of TCMP's dst
        TA a(g.a.vr, g.a.vc);
        TB b(g.b.vr, g.b.vc);
        TA c(g.c.vr, g.c.vc);
        TD d(g.d.vr, dcols);
        TT t(g.a.vr, g.a.vc);
        TM m(g.m.vr, g.m.vc);
        TASSIGN(a, int{PD_A_ADDR});
        TASSIGN(b, int{PD_B_ADDR});
        TASSIGN(c, int{PD_C_ADDR});
        TASSIGN(m, int{PD_M_ADDR});
        TASSIGN(t, int{PD_T_ADDR});
        TASSIGN(d, int{PD_D_ADDR});
        pd_fill_src(a.data(), &g.a, ds, gen, seed, PD_OPND_A);
        pd_fill_src(b.data(), &g.b, ds, gen, seed, PD_OPND_B);
        pd_fill_src(c.data(), &g.c, ds, gen, seed, PD_OPND_D);
        pd_fill_mask(m.data(), g.a.vr, g.a.vc, seed, K == PD_SEL);
        pd_fill_dst(d.data(), &g.d, dd, gen, seed);
        S s;
        const uint64_t sbits = pd_scalar(ds, gen, seed, pd_sc(param));
        memcpy(&s, &sbits, sizeof s);
        const RoundMode rm = static_cast<RoundMode>(pd_low(param));
        const CmpMode cm = static_cast<CmpMode>(pd_low(param));
        if constexpr (K == PD_BIN || K == PD_ROWEXP || K == PD_COLEXP) call(d, a, b);
        else if constexpr (K == PD_BINT) call(d, a, b, t);
        else if constexpr (K == PD_SCL) call(d, a, s);
        else if constexpr (K == PD_SCLT) call(d, a, s, t);
        else if constexpr (K == PD_RSCL) call(d, s, a);
        else if constexpr (K == PD_TERN) call(d, a, b, c);
        else if constexpr (K == PD_SCLC) call(d, a, s, b);
        else if constexpr (K == PD_UN || K == PD_COLRED || K == PD_ROWBC || K == PD_COLBC) call(d, a);
        else if constexpr (K == PD_CVT)
            pd_sat(param) ? call(d, a, rm, static_cast<SaturationMode>(pd_sat(param) - 1)) : call(d, a, rm);
        else if constexpr (K == PD_CMP) call(d, a, b, cm);
        else if constexpr (K == PD_CMPS) call(d, a, s, cm);
        else if constexpr (K == PD_SEL) call(d, m, a, b, t);
        else if constexpr (K == PD_SELS) call(d, m, a, t, s);
        else if constexpr (K == PD_EXPS) call(d, s);
        else if constexpr (K == PD_ROWRED) call(d, a, t);
        else if constexpr (K == PD_TCI) (param & 1) ? TCI<TD, D, 1>(d, s) : TCI<TD, D, 0>(d, s);
        else if constexpr (K == PD_TTRI)
            (param & 1) ? TTRI<TD, 1>(d, pd_tri_diag(param)) : TTRI<TD, 0>(d, pd_tri_diag(param));
        else static_assert(K != K, "call form without a call");
        dump(n, shape, d.data(), (size_t)pd_elems(&g.d) * sizeof(D));
    }
}

template <pd_dt> struct CType;
#define PD_X(id, cty, ps, bytes, fl, sg) \
    template <>                          \
    struct CType<PD_##id> {              \
        using type = cty;                \
    };
PD_DTYPES(PD_X)
#undef PD_X

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ptoisa_side OUTDIR\n");
        return 2;
    }
    g_outdir = argv[1];
    NPU_MEMORY_INIT();
    int n = 0;
#define PD_RUN(op, OP, kind, gen, d, s, param)                                                               \
    run_case<kind, CType<PD_##d>::type, CType<PD_##s>::type>(n++, PD_##d, PD_##s, gen, param,               \
                                                               [](auto&&... x) { OP(x...); });
    PD_CASES(PD_RUN)
#undef PD_RUN
    printf("ptoisa_side: %d cases\n", n);
    return 0;
}
