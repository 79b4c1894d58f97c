#!/usr/bin/env bash
# Coverage of src/ by the fuzz corpora: builds the fuzz targets with clang's
# source-based coverage (no sanitizers) in BUILD_DIR, runs each target once
# over its corpora (-runs=0: no fuzzing, every input executed once), merges
# the profiles with llvm-profdata and reports with llvm-cov: the totals of
# src/, per layer, and per target.
#
#   bash fuzz/coverage.sh [BUILD_DIR=build-cov] [EXTRA_CORPUS_ROOT]
#
# EXTRA_CORPUS_ROOT/TARGET (a campaign's OUT_DIR/corpus, see campaign.sh)
# is read besides fuzz/corpus/TARGET. Reports go to BUILD_DIR/coverage/.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-cov}
extra=${2:-}
targets=(plan_json capacity_yaml_json fixture json_reader kubernetes requests share realloc compare
  grow drain diff)
llvm_bin=$(dirname "$(readlink -f "$(command -v clang++)")")
profdata=${LLVM_PROFDATA:-$llvm_bin/llvm-profdata}
cov=${LLVM_COV:-$llvm_bin/llvm-cov}

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DERUPLAN_FUZZ=ON -DERUPLAN_FUZZ_COVERAGE=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

out=$build/coverage
rm -rf "$out"
mkdir -p "$out/profiles"
objects=()
for t in "${targets[@]}"; do
  dirs=("fuzz/corpus/$t")
  [ -n "$extra" ] && [ -d "$extra/$t" ] && dirs+=("$extra/$t")
  LLVM_PROFILE_FILE="$out/profiles/$t.profraw" "$build/fuzz/fuzz_$t" -runs=0 -max_len=8192 \
    -timeout=60 -rss_limit_mb=4096 "${dirs[@]}" >"$out/$t.log" 2>&1 ||
    echo "fuzz_$t: exit $? (see $out/$t.log)" >&2
  "$profdata" merge -sparse "$out/profiles/$t.profraw" -o "$out/profiles/$t.profdata"
  objects+=(-object "$build/fuzz/fuzz_$t")
done
"$profdata" merge -sparse "$out"/profiles/*.profdata -o "$out/all.profdata"

# All targets together: src/ in total and per layer.
"$cov" report -instr-profile="$out/all.profdata" "${objects[@]:1}" \
  -ignore-filename-regex='(/usr/|/tests/|/fuzz/)' >"$out/report.txt"
echo "== src/ per file: $out/report.txt"
"$cov" export -summary-only -instr-profile="$out/all.profdata" "${objects[@]:1}" \
  -ignore-filename-regex='(/usr/|/tests/|/fuzz/)' >"$out/summary.json"
python3 - "$out/summary.json" "$PWD/src/" <<'PY' | tee "$out/layers.txt"
import json, sys
data = json.load(open(sys.argv[1]))["data"][0]
root = sys.argv[2]
layers = {}
for f in data["files"]:
    name = f["filename"]
    if not name.startswith(root):
        continue
    layer = name[len(root):].split("/")[0]
    acc = layers.setdefault(layer, [0, 0, 0, 0])
    s = f["summary"]
    acc[0] += s["lines"]["covered"]; acc[1] += s["lines"]["count"]
    acc[2] += s["regions"]["covered"]; acc[3] += s["regions"]["count"]
order = ["model", "capacity", "strategy", "input", "plan", "output", "commands"]
total = [0, 0, 0, 0]
print(f"{'layer':10} {'lines':>17} {'regions':>17}")
for layer in order + sorted(set(layers) - set(order)):
    if layer not in layers:
        continue
    a = layers[layer]
    total = [x + y for x, y in zip(total, a)]
    print(f"{layer:10} {a[0]:6}/{a[1]:6} {100*a[0]/max(a[1],1):5.1f}% {a[2]:6}/{a[3]:6} {100*a[2]/max(a[3],1):5.1f}%")
a = total
print(f"{'src/':10} {a[0]:6}/{a[1]:6} {100*a[0]/max(a[1],1):5.1f}% {a[2]:6}/{a[3]:6} {100*a[2]/max(a[3],1):5.1f}%")
PY
# Each target alone: its line and region coverage of src/.
for t in "${targets[@]}"; do
  "$cov" report -instr-profile="$out/profiles/$t.profdata" "$build/fuzz/fuzz_$t" \
    -ignore-filename-regex='(/usr/|/tests/|/fuzz/)' | awk -v t="$t" '/^TOTAL/ {
      printf "%-20s regions %s lines %s\n", t, $4, $10 }'
done | tee "$out/targets.txt"
