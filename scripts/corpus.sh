#!/bin/sh
# Runs ptosim over a PTOAS-style test corpus (not part of this repository):
#   scripts/corpus.sh [--summary] PTOSIM_BIN CASES_DIR
# For every CASES_DIR/**/kernel.pto: `ptosim check`; when it passes and the case has a
# golden.py / compare.py pair (they need numpy), generate the inputs, `ptosim run` the
# kernel with the files and numbers its main.cpp / launch.cpp pass (scripts/case_args.py;
# one run per kernel launch) and every checker on (--check=all), and run compare.py in the
# case's output directory. A run whose results match exits 0 (pass, warnings allowed);
# one whose results match but that has errors (exit 5) is listed as pass+error with its
# first errors. Kernels that use a SIMT op (family SIMT of `ptosim ops`) or a pto.vmi.* op
# are counted apart (excluded). Prints one line per case and a summary; --summary adds the
# cases of every failure class (class, then the not-supported ops or the first rule id).
# PTOSIM_RUN_FLAGS adds options to every run, e.g. PTOSIM_RUN_FLAGS=--schedule=eager.
set -u
summary=0
[ "$1" = --summary ] && { summary=1; shift; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cases=$2
work=$(mktemp -d)
checked=0 unsupported=0 other=0 passed=0 clean=0 failed=0 skipped=0 findings=0 excluded=0
# a SIMT op spelling followed by a non-name character
simt="($("$bin" ops --family SIMT | awk 'NR > 1 { gsub(/\./, "\\."); printf "%s%s", sep, $1; sep = "|" }'))([^a-z0-9_.]|\$)"
: >"$work/classes.txt"
# note CLASS KEY: one line of the summary listing
note() { printf '%s\t%s\t%s\n' "$1" "$2" "$name" >>"$work/classes.txt"; }
# the first rule id of the errors in file $1, or its first ptosim: message
first_rule() {
  r=$(grep "error:" "$1" | grep -o '\[[a-z_.]*\]$' | head -1)
  [ -n "$r" ] && { echo "$r"; return; }
  grep -m1 -o '^ptosim[^:]*: .*' "$1" | sed 's|/[^ ]*/||g' | cut -c1-80
}
for k in $(find "$cases" -name kernel.pto | sort); do
  dir=$(dirname "$k")
  name=${dir#"$cases"/}
  if grep -q 'pto\.vmi\.' "$k"; then excluded=$((excluded + 1)); echo "excluded     $name (pto.vmi)"; note excluded vmi; continue; fi
  if grep -qE "$simt" "$k"; then excluded=$((excluded + 1)); echo "excluded     $name (SIMT)"; note excluded SIMT; continue; fi
  if ! "$bin" check "$k" >"$work/check.txt" 2>&1; then
    if grep -q "error:" "$work/check.txt" && ! grep "error:" "$work/check.txt" | grep -qv "op.unsupported"; then
      unsupported=$((unsupported + 1)); echo "unsupported  $name"
      note not-supported "$(sed -n 's/.*not supported yet: \(.*\) \[op.unsupported\]$/\1/p' "$work/check.txt" | sort -u | tr '\n' ' ')"
    else
      other=$((other + 1)); echo "CHECK-FAIL   $name"; grep "error:" "$work/check.txt" | head -3
      note check-error "$(first_rule "$work/check.txt")"
    fi
    continue
  fi
  checked=$((checked + 1))
  if [ ! -f "$dir/golden.py" ] || [ ! -f "$dir/compare.py" ]; then skipped=$((skipped + 1)); note no-golden -; continue; fi
  out="$work/$(echo "$name" | tr / _)"
  mkdir -p "$out"
  (cd "$out" && python3 "$dir/golden.py" --output-dir . >/dev/null 2>&1) || {
    skipped=$((skipped + 1)); echo "no-inputs    $name"; note no-golden golden.py; continue; }
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
      note checker-finding "$(first_rule "$work/run.txt")"
    else clean=$((clean + 1)); echo "pass         $name"; fi
  else
    failed=$((failed + 1)); echo "FAIL         $name"; tail -3 "$work/run.txt"
    if [ $rc = 0 ] || [ $rc = 5 ]; then note wrong-result compare.py; else note run-error "$(first_rule "$work/run.txt")"; fi
  fi
done
echo "check: $checked accepted, $unsupported only not-supported-yet, $other other errors, $excluded excluded (SIMT / pto.vmi)"
echo "run:   $passed match their goldens ($clean exit 0, $findings with checker errors, exit 5), $failed failed, $skipped without goldens"
if [ $summary = 1 ]; then
  echo "failure classes (class, key: cases):"
  sort "$work/classes.txt" | awk -F'\t' '
    { k = $1 ": " $2; if (!(k in n)) order[++keys] = k; n[k]++; list[k] = list[k] " " $3 }
    END { for (i = 1; i <= keys; i++) printf "  %s (%d):%s\n", order[i], n[order[i]], list[order[i]] }'
fi
rm -rf "$work"
