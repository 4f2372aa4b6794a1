#!/bin/sh
# Runs ptosim over a PTOAS-style test corpus (not part of this repository):
#   scripts/corpus.sh PTOSIM_BIN CASES_DIR
# For every CASES_DIR/**/kernel.pto: `ptosim check`; when it passes and the case has a
# golden.py / compare.py pair (they need numpy), generate the inputs, `ptosim run` the
# kernel with the case's vN.bin files in the order its main.cpp passes them
# (scripts/case_args.py; one run per kernel launch) and every checker on (--check=all), and run compare.py in the
# case's output directory. A run whose results match exits 0 (pass, warnings allowed);
# one whose results match but that has errors (exit 5) is listed as pass+error with its
# first errors. Prints one line per case and a summary.
# PTOSIM_RUN_FLAGS adds options to every run, e.g. PTOSIM_RUN_FLAGS=--schedule=eager.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cases=$2
work=$(mktemp -d)
checked=0 unsupported=0 other=0 passed=0 failed=0 skipped=0 findings=0
for k in $(find "$cases" -name kernel.pto | sort); do
  dir=$(dirname "$k")
  name=${dir#"$cases"/}
  if ! "$bin" check "$k" >"$work/check.txt" 2>&1; then
    if grep -q "error:" "$work/check.txt" && ! grep "error:" "$work/check.txt" | grep -qv "op.unsupported"; then
      unsupported=$((unsupported + 1)); echo "unsupported  $name"
    else
      other=$((other + 1)); echo "CHECK-FAIL   $name"; grep "error:" "$work/check.txt" | head -3
    fi
    continue
  fi
  checked=$((checked + 1))
  if [ ! -f "$dir/golden.py" ] || [ ! -f "$dir/compare.py" ]; then skipped=$((skipped + 1)); continue; fi
  out="$work/$(echo "$name" | tr / _)"
  mkdir -p "$out"
  (cd "$out" && python3 "$dir/golden.py" --output-dir . >/dev/null 2>&1) || { skipped=$((skipped + 1)); echo "no-inputs    $name"; continue; }
  # one run per kernel launch of the case; the worst exit status counts
  python3 "$(dirname "$0")/case_args.py" "$dir" "$out" >"$work/launches.txt"
  rc=0
  : >"$work/run.txt"
  while read -r args; do
    (cd "$out" && "$bin" run "$k" --check=all ${PTOSIM_RUN_FLAGS:-} $args >>"$work/run.txt" 2>&1)
    r=$?
    [ $r -gt $rc ] && rc=$r
  done <"$work/launches.txt"
  if { [ $rc = 0 ] || [ $rc = 5 ]; } && (cd "$out" && python3 "$dir/compare.py" >>"$work/run.txt" 2>&1); then
    passed=$((passed + 1))
    if [ $rc = 5 ]; then findings=$((findings + 1)); echo "pass+error   $name"; grep "error:" "$work/run.txt" | head -2
    else echo "pass         $name"; fi
  else
    failed=$((failed + 1)); echo "FAIL         $name"; tail -3 "$work/run.txt"
  fi
done
echo "check: $checked accepted, $unsupported only not-supported-yet, $other other errors"
echo "run:   $passed passed ($findings of them with checker errors, exit 5), $failed failed, $skipped without goldens"
rm -rf "$work"
