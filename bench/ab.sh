#!/bin/sh
# Checked against unchecked, old tree against new, on a loaded host: bench/ab.sh BASE NEW
# BASE and NEW are source trees with a Release build in BASE/build and NEW/build (libptosim.a).
# For the kernels of bench_vector (passes) and bench_microop (iterations), through
# bench/ab_driver.c:
#  - CPU seconds of one run, unchecked and checked, best of $REPS (default 9), BASE and NEW
#    alternating, and the checked / unchecked speed ratio of each;
#  - with valgrind: instructions per simulated op, the difference of two run lengths divided
#    by the extra ops (deterministic; the fixed cost of a run cancels).
set -eu
base=$1 new=$2 reps=${REPS:-9}
dir=$(mktemp -d)
here=$(cd "$(dirname "$0")" && pwd)
for t in base new; do
  eval root=\$$t
  for k in vector microop; do
    ${CC:-gcc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/include" -I"$root/build/include" -I"$root/src" \
      -I"$root/bench" "-DBENCH_FILE=\"bench_$k.c\"" "$here/ab_driver.c" -o "$dir/${k}_$t" "$root/build/libptosim.a" -lm -lpthread
  done
done
cpu() { # kernel arg: alternate the variants rep by rep
  for t in base new; do echo 999 > "$dir/$t.0"; echo 999 > "$dir/$t.1"; done
  for r in $(seq "$reps"); do
    for c in 0 1; do for t in base new; do
      s=$("$dir/$1_$t" $c "$2")
      awk -v s="$s" '{print (s < $1) ? s : $1}' "$dir/$t.$c" > "$dir/x" && mv "$dir/x" "$dir/$t.$c"
    done; done
  done
  for t in base new; do
    u=$(cat "$dir/$t.0") k=$(cat "$dir/$t.1")
    echo "$1 $t: unchecked $u s, every checker $k s, ratio $(echo "$u $k" | awk '{printf "%.3f", $1 / $2}') (arg $2, best of $reps)"
  done
}
ir() { # kernel variant checked short long ops-per-unit
  n() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$dir/$1_$2" "$3" "$4" 2>&1 |
        awk '/I *refs/ {gsub(",", "", $NF); print $NF}'; }
  a=$(n "$1" "$2" "$3" "$4") b=$(n "$1" "$2" "$3" "$5")
  echo "$1 $2 checked=$3: $(echo "$a $b $4 $5 $6" | awk '{printf "%.0f", ($2 - $1) / (($4 - $3) * $5)}') instructions/op"
}
cpu vector 2000
cpu microop 1000000
if command -v valgrind >/dev/null; then
  for t in base new; do for c in 0 1; do ir vector $t $c 10 110 1024; ir microop $t $c 20000 120000 1; done; done
fi
rm -rf "$dir"
