#!/bin/sh
# Run pto-isa's CPU or NPU test goldens through ptosim (see README.md).
#   run.sh PTOISA_DIR [PTOSIM_BUILD_DIR] [WORKDIR] [--suite cpu|npu-a5|npu-a2a3] [OP...]
# PTOSIM_BUILD_DIR defaults to build/ of this checkout, WORKDIR to a new directory under
# ${TMPDIR:-/tmp} (never inside the repository or the pto-isa tree).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: run.sh PTOISA_DIR [PTOSIM_BUILD_DIR] [WORKDIR] [--suite cpu|npu-a5|npu-a2a3] [OP...]" >&2; exit 2; }
ptoisa=$(cd "$1" && pwd)
build=$(cd "${2:-$here/../../build}" && pwd)
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/ptoisa_golden.XXXXXX")}
[ $# -ge 3 ] && shift 3 || shift $#
case "$work" in "$ptoisa"*|"$(cd "$here/../.." && pwd)"*) echo "run.sh: WORKDIR must be outside $ptoisa and the repository" >&2; exit 2;; esac
mkdir -p "$work"
echo "workdir: $work"
exec python3 "$here/run.py" "$ptoisa" "$build" "$work" "$@"
