#!/bin/sh
# Runs ptosim over PTOAS's test/samples (not part of this repository):
#   git --git-dir=<mirror>/hw-native-sys+PTOAS/repo archive HEAD test/samples | tar -x -C /tmp/samples
#   git --git-dir=<mirror>/hw-native-sys+PTOAS/repo show HEAD:test/npu_validation/scripts/generate_testcase.py > /tmp/gen.py
#   scripts/samples.sh PTOSIM_BIN /tmp/samples/test/samples [/tmp/gen.py]
# For every SAMPLES/**/*.pto: `ptosim check` (with --target from the sample's
# `// RUN: ptoas --pto-arch X` line when it has one; else the module's target, a2a3 by default). When it passes and the sample has a golden
# script of the validation_runtime kind (<stem>_golden.py beside it, else the first *_golden.py
# of a directory holding only this kernel; they need numpy), scripts/sample_meta.py writes the main.cpp /
# outputs.txt stand-ins the script reads (generate_testcase.py, when given, supplies the scalar
# parameters' values), the golden script writes the inputs and golden_vK.bin, `ptosim run`
# runs the kernel with every checker on, and `ptosim compare` compares each output with the
# tolerance of the sample's *_compare.py (atol = rtol as validation_runtime uses them), else
# generate_testcase's defaults (f32 1e-4, f16 1e-2, bf16 1 ulp, integers exact).
# A directory's *-pto-new.pto kernel without such a golden takes the npu_validation/golden.py
# of its directory (FlashAttention, FFN, GQA, ControlFlow, MatmulVectorMix): it writes v1.bin ...
# in the kernel's parameter order (the buffers it does not write start as zeros) and
# npu_validation/compare.py names the outputs, dtypes and tolerances (0.0: --exact).
# Prints one line per sample (check / run / match / exit status) and a summary.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
samples=$(cd "$2" && pwd)
gen=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
files=0 checked=0 golden=0 ran=0 matched=0 clean=0
for k in $(find "$samples" -name '*.pto' | sort); do
  files=$((files + 1))
  dir=$(dirname "$k") stem=$(basename "$k" .pto) name=${k#"$samples"/}
  # the target the sample's `// RUN: ptoas --pto-arch X` line compiles it for (else the module's)
  arch=$(sed -n 's|^// RUN:.*--pto-arch[= ]*\(a[0-9]\).*|\1|p' "$k" | head -1)
  target=""
  case $arch in a5) target="--target a5" ;; a3) target="--target a2a3" ;; esac
  if ! "$bin" check $target "$k" >"$work/check.txt" 2>&1; then
    echo "CHECK-FAIL   $name: $(grep -m1 'error:' "$work/check.txt" | sed 's/^[^ ]* error: //')"
    continue
  fi
  checked=$((checked + 1))
  g="$dir/${stem}_golden.py" npu=""
  # else the first golden of a directory with this one kernel (VectorAddition's two are the same)
  [ -f "$g" ] || [ "$(ls "$dir"/*.pto | wc -l)" != 1 ] || g=$(ls "$dir"/*_golden.py 2>/dev/null | head -1)
  # else the npu_validation harness of the directory's *-pto-new kernel: its golden.py writes
  # v1.bin ... and golden_vK.bin for the kernel's parameters in order, compare.py names the
  # outputs, their dtypes and tolerances
  case $stem in *-pto-new) [ -f "$g" ] || { [ -f "$dir/npu_validation/golden.py" ] && npu=$dir/npu_validation g=$npu/golden.py; } ;; esac
  [ -f "$g" ] || continue
  out="$work/$(echo "$name" | tr / _)"
  mkdir -p "$out"
  if ! python3 "$here/sample_meta.py" "$k" "$out" $gen >"$work/meta.txt" 2>"$work/err.txt" ||
     ! (cd "$out" && PYTHONPATH="$dir:$samples" python3 "$g" >"$work/err.txt" 2>&1); then
    echo "no-golden    $name: $(tail -1 "$work/err.txt")"
    rm -rf "$out"
    continue
  fi
  if [ -n "$npu" ]; then # outputs and scratch buffers the golden does not write: zeros
    for b in $(sed -n 3p "$work/meta.txt"); do
      [ -f "$out/${b%%:*}.bin" ] || head -c "${b#*:}" /dev/zero >"$out/${b%%:*}.bin"
    done
    sed -n 's/.*compare_bin("golden_\(v[0-9]*\).bin", "v[0-9]*.bin", np.\([a-z0-9]*\), \([0-9.e-]*\)).*/\1:\2:\3/p' "$npu/compare.py" |
      sed 's/float32/f32/; s/float16/f16/; s/int32/i32/' >"$work/outs.txt"
  fi
  golden=$((golden + 1))
  args=$(sed -n 1p "$work/meta.txt")
  (cd "$out" && "$bin" run "$k" --check=all $target $args >"$work/run.txt" 2>&1)
  rc=$?
  ok=1 first=""
  if [ $rc = 0 ] || [ $rc = 5 ]; then
    ran=$((ran + 1))
    atol=$(sed -n 's/.*atol=\([0-9.eE+-]*\).*/\1/p' "${g%_golden.py}_compare.py" 2>/dev/null | head -1)
    [ -n "$npu" ] || sed -n 2p "$work/meta.txt" | tr ' ' '\n' >"$work/outs.txt"
    for o in $(cat "$work/outs.txt"); do
      v=${o%%:*} t=${o#*:} eps=""
      case $t in *:*) eps=${t#*:} t=${t%%:*} ;; esac
      if [ "$eps" = 0.0 ]; then tol="--exact"
      elif [ -n "$eps" ]; then tol="--atol $eps --rtol $eps"
      elif [ -n "$atol" ]; then tol="--atol $atol --rtol $atol"
      else case $t in f32) tol="--atol 1e-4 --rtol 1e-4" ;; f16) tol="--atol 1e-2 --rtol 1e-2" ;; bf16) tol="--ulp 1" ;; *) tol="--exact" ;; esac
      fi
      if ! "$bin" compare "$out/golden_$v.bin" "$out/$v.bin" --dtype "$t" $tol >"$work/cmp.txt" 2>&1; then
        ok=0
        first=${first:-"$v: $(grep -m1 -i 'mismatch\|first\|\[' "$work/cmp.txt")"}
      fi
    done
  else
    ok=0 first="run exit $rc: $(grep -m1 'error:' "$work/run.txt" | sed 's/^[^ ]* error: //')"
  fi
  if [ $ok = 1 ]; then
    matched=$((matched + 1))
    if [ $rc = 0 ]; then clean=$((clean + 1)); echo "pass         $name"
    else echo "pass+error   $name: $(grep -m1 'error:' "$work/run.txt" | sed 's/^[^ ]* error: //')"; fi
  else
    echo "FAIL         $name: $first"
  fi
  rm -rf "$out"
done
echo "check: $checked of $files accepted"
echo "run:   $golden with goldens, $ran ran, $matched match, $clean match with exit 0"
rm -rf "$work"
