#!/bin/sh
# Installs what the build, the tests and the benchmarks need on a fresh Debian machine.
# Idempotent: packages already present are not reinstalled.
#   gcc, make, cmake      build (C11 + CMake >= 3.16)
#   libopenblas-dev       optimized BLAS, linked only into the matmul benchmark baseline
#   clang, libclang-rt-14-dev  libFuzzer for the fuzz targets fuzz_parse and fuzz_run (make fuzz)
set -eu
need=""
for pkg in gcc make cmake libopenblas-dev clang libclang-rt-14-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
if [ -n "$need" ]; then
  echo "setup: installing$need"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need
fi
echo "setup: ok"
