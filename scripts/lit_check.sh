#!/bin/sh
# lit_check.sh PTOSIM LIT_DIR: `ptosim check` over PTOAS's lit tests (e.g. tonibohnlein/PTOAS
# test/lit/pto), as a measure of how much of the newest IR ptosim accepts.
# A file counts when PTOAS is expected to accept it: its name has no "invalid" and no RUN line
# starts with `not` (those test PTOAS's own errors). Each file is checked once per target its
# RUN lines name (--pto-arch=a3 -> a2a3, a5 -> a5; none: the module's own default) and passes
# when every check exits 0. Prints one line per failing file (its first error), then the
# counts and the failures grouped by rule id.
set -u
sim=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 ok=0
for f in "$dir"/*.pto; do
  case $(basename "$f") in *invalid*) continue ;; esac
  grep -q 'RUN: *not ' "$f" && continue
  n=$((n + 1))
  targets=$(grep -o 'pto-arch[= ]a[35]' "$f" | sed 's/.*a3$/a2a3/; s/.*a5$/a5/' | sort -u)
  err=""
  for t in ${targets:-default}; do
    if [ "$t" = default ]; then "$sim" check "$f" > "$tmp/out" 2>&1; else "$sim" check --target "$t" "$f" > "$tmp/out" 2>&1; fi
    if [ $? -ne 0 ]; then err=$(grep -m1 -o 'error: .*' "$tmp/out" | cut -c1-160); err="${err:-no message} (${t})"; break; fi
  done
  if [ -z "$err" ]; then ok=$((ok + 1)); else echo "FAIL $(basename "$f"): $err" | tee -a "$tmp/fails"; fi
done
echo "lit files PTOAS accepts: $n; ptosim check accepts $ok"
[ -f "$tmp/fails" ] && grep -o '\[[a-z_.0-9]*\]' "$tmp/fails" | sort | uniq -c | sort -rn
exit 0
