// Times TEXP f32, TROWSUM f32, TCVT f32 -> f16 and TROWEXPANDMUL f32 on a 64 x 512 vec tile
// in pto-isa's CPU simulator (headers include/pto/..., compiled with -D__CPU_SIM), the
// baseline of ptosim's issue-17 speed target. Built and run by bench/ptoisa_baseline.sh.
//
//   ptoisa_ops LABEL OUTDIR MIN_SECONDS
//
// prints one line "LABEL OP MICROSECONDS" per op (best single call of at least 3 calls
// repeated for MIN_SECONDS; the op alone, no TLOAD / TSTORE) and writes each op's output
// tile to OUTDIR/OP.bin (raw little-endian elements) for ptosim_ops to compare with.
// The tiles are declared as pto-isa's own CPU tests declare them
// (tests/cpu/st/testcase/{texp,trowsum,tcvt,trowexpandop}): row-major vec tiles with
// dynamic valid shapes, the per-row operand a 64 x 1 col-major tile.
#include <pto/pto-inst.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" {
#include "inputs.h"
}

using namespace pto;

using TileF32 = Tile<TileType::Vec, float, PB_ROWS, PB_COLS, BLayout::RowMajor, -1, -1>;
using TileF16 = Tile<TileType::Vec, half, PB_ROWS, PB_COLS, BLayout::RowMajor, -1, -1>;
using TileCol = Tile<TileType::Vec, float, PB_ROWS, 1, BLayout::ColMajor, -1, -1>;

// UB offsets in bytes (pto-isa's CPU UB scratch is 512 KiB): the 128 KiB f32 source at 0,
// the destination after it, TROWSUM's scratch tile after that.
constexpr unsigned kTileBytes = PB_N * sizeof(float);
constexpr unsigned kDstAddr = kTileBytes, kTmpAddr = 2 * kTileBytes;

// Best time of one call of f in microseconds: at least 3 calls, repeated for min_s seconds.
template <typename F>
static double best_us(F f, double min_s)
{
    using clk = std::chrono::steady_clock;
    double best = 1e30;
    int runs = 0;
    const auto start = clk::now();
    do {
        const auto t0 = clk::now();
        f();
        best = std::min(best, std::chrono::duration<double, std::micro>(clk::now() - t0).count());
        runs++;
    } while (runs < 3 || std::chrono::duration<double>(clk::now() - start).count() < min_s);
    return best;
}

static void fill_input(float* p)
{
    for (int i = 0; i < PB_N; i++) p[i] = pb_input(i);
}

static void dump(const std::string& outdir, const char* op, const void* p, size_t bytes)
{
    const std::string path = outdir + "/" + op + ".bin";
    FILE* f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes) {
        fprintf(stderr, "ptoisa_ops: cannot write %s\n", path.c_str());
        exit(1);
    }
    fclose(f);
}

int main(int argc, char** argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: ptoisa_ops LABEL OUTDIR MIN_SECONDS\n");
        return 2;
    }
    const char* label = argv[1];
    const std::string outdir = argv[2];
    const double min_s = atof(argv[3]);
    NPU_MEMORY_INIT();

    TileF32 src(PB_ROWS, PB_COLS), dst(PB_ROWS, PB_COLS), tmp(PB_ROWS, PB_COLS);
    TileF16 dst16(PB_ROWS, PB_COLS);
    TileCol col(PB_ROWS, 1);
    TASSIGN(src, 0);
    TASSIGN(dst, kDstAddr);
    TASSIGN(dst16, kDstAddr);
    TASSIGN(col, kDstAddr);
    TASSIGN(tmp, kTmpAddr);
    fill_input(src.data());

    printf("%s texp %.3f\n", label, best_us([&] { TEXP(dst, src); }, min_s));
    dump(outdir, "texp", dst.data(), kTileBytes);

    printf("%s tcvt %.3f\n", label, best_us([&] { TCVT(dst16, src, RoundMode::CAST_RINT); }, min_s));
    dump(outdir, "tcvt", dst16.data(), PB_N * sizeof(half));

    printf("%s trowsum %.3f\n", label, best_us([&] { TROWSUM(col, src, tmp); }, min_s));
    dump(outdir, "trowsum", col.data(), PB_ROWS * sizeof(float));

    // In place (dst = src0) by 1 while timed; then once by pb_row_factor on fresh input.
    std::fill(col.data(), col.data() + PB_ROWS, 1.0f);
    printf("%s trowexpandmul %.3f\n", label, best_us([&] { TROWEXPANDMUL(src, src, col); }, min_s));
    for (int r = 0; r < PB_ROWS; r++) col.data()[r] = pb_row_factor(r);
    fill_input(src.data());
    TROWEXPANDMUL(src, src, col);
    dump(outdir, "trowexpandmul", src.data(), kTileBytes);
    return 0;
}
