#!/usr/bin/env bash
# ptosim's tile ops against pto-isa's own CPU simulator, measured in the same run (issue 17:
# TEXP, TROWSUM, TCVT f32->f16 and TROWEXPANDMUL each >= 20x faster than pto-isa's CPU
# simulator on the same shape). Not part of ctest / CI: it needs a pto-isa source tree and
# clang++-19. See bench/ptoisa_baseline/README.md.
#
#   bench/ptoisa_baseline.sh PTOISA_SRC_DIR [PTOSIM_BUILD_DIR]
#
# PTOISA_SRC_DIR: a pto-isa checkout (its include/pto/...). PTOSIM_BUILD_DIR: a configured
# and built ptosim (libptosim.a, include/ptosim/ops.def); default: build/ of this tree.
# Environment: CXX (default clang++-19), CC (default cc), ROUNDS (default 3: each round runs
# every driver once, the table keeps each figure's best round), MIN_SECONDS (default 0.3:
# each op is called for at least this long, its best call kept), WORK (default a new
# temporary directory: binaries, pto-isa's outputs, raw figures), PTOISA_CXXFLAGS (default
# none: flags added after pto-isa's own, e.g. -march=native). The table is
# bench/ptoisa_baseline/table.awk's, which also pools several runs' WORK/times.txt.
set -euo pipefail

usage="usage: $0 PTOISA_SRC_DIR [PTOSIM_BUILD_DIR]"
[[ $# -ge 1 && $# -le 2 ]] || { echo "$usage" >&2; exit 2; }
ptoisa=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${2:-$root/build}" && pwd)
here=$root/bench/ptoisa_baseline
[[ -f $ptoisa/include/pto/pto-inst.hpp ]] || { echo "$ptoisa: no include/pto/pto-inst.hpp" >&2; exit 2; }
[[ -f $build/libptosim.a ]] || { echo "$build: no libptosim.a (build ptosim first)" >&2; exit 2; }
CXX=${CXX:-clang++-19} CC=${CC:-cc} ROUNDS=${ROUNDS:-3} MIN_SECONDS=${MIN_SECONDS:-0.3}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"

# pto-isa's CPU-ST compile and link flags: tests/cpu/st/CMakeLists.txt built Release (the
# default of tests/run_cpu.py), as its compile_commands.json spells them (the later -O2
# wins over CMake's Release -O3). No -march: baseline x86-64.
ptoisa_flags=(-D__CPU_SIM -O3 -DNDEBUG -fPIE -D_FORTIFY_SOURCE=2 -std=c++20 -Wno-macro-redefined
  -Wno-ignored-attributes -fstack-protector-strong -O2 -xc++ -include stdint.h -include stddef.h)
# shellcheck disable=SC2054 # -Wl,a,b is one flag
ptoisa_link=(-pie -Wl,-z,relro -Wl,-z,now -pthread -lm -ldl)
build_ptoisa() { # OUTPUT EXTRA_FLAGS...
  local out=$1
  shift
  # shellcheck disable=SC2086 # PTOISA_CXXFLAGS is a list of flags
  "$CXX" "${ptoisa_flags[@]}" ${PTOISA_CXXFLAGS:-} "$@" -I"$ptoisa/include" -I"$here" "$here/ptoisa_ops.cpp" -o "$out" \
    "${ptoisa_link[@]}" 2> "$out.log" || { cat "$out.log" >&2; exit 1; }
}
echo "building pto-isa driver with $("$CXX" --version | head -1) ${PTOISA_CXXFLAGS:-}"
# As shipped: ops on >= 16384 elements split their rows over hardware_concurrency threads
# (include/pto/cpu/parallel.hpp), a new std::thread per chunk per call. And one thread.
build_ptoisa "$work/ptoisa_ops"
build_ptoisa "$work/ptoisa_ops_1t" -DPTO_CPU_MAX_THREADS=1u
"$CC" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" -I"$build/include" -I"$root/bench" -I"$here" \
  "$here/ptosim_ops.c" "$build/libptosim.a" -lm -pthread -o "$work/ptosim_ops"

echo "host: $(nproc) cores, $(uname -m); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# The source tree the ptosim build was configured from, and its commit (+ if changed since).
srcdir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2> /dev/null || true)
rev=$(git -C "${srcdir:-$root}" describe --always --dirty=+ 2> /dev/null || echo '?')
echo "ptosim: $build, built from ${srcdir:-?} at $rev; pto-isa: $ptoisa"
rm -f "$work/times.txt"
for ((r = 1; r <= ROUNDS; r++)); do
  "$work/ptoisa_ops" ptoisa "$work" "$MIN_SECONDS"
  "$work/ptoisa_ops_1t" ptoisa-1t "$work" "$MIN_SECONDS"
  "$work/ptosim_ops" "$work" "$MIN_SECONDS"
done >> "$work/times.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS rounds, raw figures in $work/times.txt"
echo
# Best round of each (driver, op), speedups and the comparison lines.
awk -f "$here/table.awk" "$work/times.txt"
