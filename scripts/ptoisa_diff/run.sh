#!/usr/bin/env bash
# ptosim's tile ops against pto-isa's CPU simulator, element by element (scripts/ptoisa_diff/
# README.md). Not part of ctest / CI: it needs a pto-isa source tree and clang++-19.
#
#   scripts/ptoisa_diff/run.sh PTOISA_DIR [PTOSIM_BUILD_DIR]
#
# PTOISA_DIR: a pto-isa checkout (its include/pto/...). PTOSIM_BUILD_DIR: a built ptosim
# (libptosim.a, include/ptosim/ops.def); default build/ of this tree. Environment: CXX (default
# clang++-19), CC (default cc), WORK (default a new temporary directory: binaries, pto-isa's
# destination tiles). Prints the table of ptosim_side.c.
set -euo pipefail

[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 PTOISA_DIR [PTOSIM_BUILD_DIR]" >&2; exit 2; }
ptoisa=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${2:-$root/build}" && pwd)
[[ -f $ptoisa/include/pto/pto-inst.hpp ]] || { echo "$ptoisa: no include/pto/pto-inst.hpp" >&2; exit 2; }
[[ -f $build/libptosim.a ]] || { echo "$build: no libptosim.a (build ptosim first)" >&2; exit 2; }
CXX=${CXX:-clang++-19} CC=${CC:-cc}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work/out"

# pto-isa's CPU-ST flags, as bench/ptoisa_baseline.sh spells them (tests/cpu/st built Release).
ptoisa_flags=(-D__CPU_SIM -O3 -DNDEBUG -fPIE -D_FORTIFY_SOURCE=2 -std=c++20 -Wno-macro-redefined
  -Wno-ignored-attributes -fstack-protector-strong -O2 -xc++ -include stdint.h -include stddef.h)
# shellcheck disable=SC2054 # -Wl,a,b is one flag
ptoisa_link=(-pie -Wl,-z,relro -Wl,-z,now -pthread -lm -ldl)
"$CXX" "${ptoisa_flags[@]}" -I"$ptoisa/include" -I"$here" "$here/ptoisa_side.cpp" -o "$work/ptoisa_side" \
  "${ptoisa_link[@]}" 2> "$work/ptoisa_side.log" || { cat "$work/ptoisa_side.log" >&2; exit 1; }
"$CC" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" -I"$build/include" -I"$here" \
  "$here/ptosim_side.c" "$build/libptosim.a" -lm -pthread -o "$work/ptosim_side"

srcdir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2> /dev/null || true)
rev=$(git -C "${srcdir:-$root}" describe --always --dirty=+ 2> /dev/null || echo '?')
prev=$(git -C "$ptoisa" rev-parse --short HEAD 2> /dev/null || echo 'tree')
echo "ptosim: $build (from ${srcdir:-?} at $rev); pto-isa: $ptoisa ($prev); $("$CXX" --version | head -1)"
"$work/ptoisa_side" "$work/out" > /dev/null
"$work/ptosim_side" "$work/out"
