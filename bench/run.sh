#!/usr/bin/env bash
# Reproduces the Performance figures of bench/README.md:
#   1. a Release build in build-release with the benchmark,
#   2. the per-stage benchmark (bench/bench.cpp),
#   3. the whole `eruplan plan -o json` process on 10,000- and 100,000-node
#      JSON inventories, side by side with python3's json.load of the same
#      file (median of 5 runs each), and eruplan's peak RSS.
# Usage: bash bench/run.sh [extra Google Benchmark flags, e.g. --benchmark_filter=C_]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-release"
out=${TMPDIR:-/tmp}
runs=5

# A fresh machine may lack the benchmark library, GNU time or python3.
bash "$root/.ci/dev" deps libbenchmark-dev time python3

echo "== machine"
echo "nproc: $(nproc)"
lscpu | grep 'Model name' | sed 's/  */ /g'
grep MemTotal /proc/meminfo
echo

echo "== build (Release, $build)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DERUPLAN_BENCH=ON >/dev/null
# One job: the machine is shared.
cmake --build "$build" -j 1 --target eruplan eruplan_bench eruplan-gen
echo

echo "== per-stage benchmark"
# Five repetitions each, medians shown: the machine is shared, single runs wander.
"$build/bench/eruplan_bench" --benchmark_min_time=0.3 --benchmark_repetitions=5 \
  --benchmark_display_aggregates_only=true "$@" 2>&1 | grep -v -E '_(mean|stddev|cv) '
echo "targets: (a) capacity + strategy <= 40 ms; (b) strategy <= 10 ms; (c) each strategy <= 50 ms"
echo

# Time the interpreter itself: `python3` on PATH may be a version-manager
# shim (a shell script) that adds a quarter of a second to every run.
python=$(python3 -c 'import sys; print(sys.executable)')
echo "python: $python"

echo "== whole process: eruplan plan -o json vs python3 json.load"
gen="$build/bench/eruplan-gen"
request="$root/bench/requests/c-auto.yaml"

# Wall time of one run of a command, in milliseconds.
wall_ms() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

median() { sort -n | sed -n "$(((runs + 1) / 2))p"; }

# Peak RSS in MiB (GNU time's "Maximum resident set size", in KiB).
peak_rss_mib() {
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk '/Maximum resident set size/ {printf "%.1f", $NF / 1024}'
}

printf '%-8s %6s %11s %10s %7s %15s %12s %12s\n' nodes MB eruplan_ms python_ms ratio json.load_only_ms eruplan_rss python_rss
for nodes in 10000 100000; do
  # The (c) inventory of bench.cpp: plain cores, usage on half the nodes, 0-20 web instances.
  file="$out/eruplan-bench-$nodes.json"
  "$gen" --nodes "$nodes" --existing-max 20 --seed 3 --format json --mode plain >"$file"
  "$build/eruplan" plan -n "$file" -r "$request" -o json >/dev/null  # warm the page cache; must succeed
  mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN {printf "%.1f", b / 1e6}')
  # Interleaved, so both see the same machine load.
  e_times=() p_times=()
  for _ in $(seq "$runs"); do
    e_times+=("$(wall_ms "$build/eruplan" plan -n "$file" -r "$request" -o json)")
    p_times+=("$(wall_ms "$python" -c 'import json,sys; json.load(open(sys.argv[1]))' "$file")")
  done
  e_ms=$(printf '%s\n' "${e_times[@]}" | median)
  p_ms=$(printf '%s\n' "${p_times[@]}" | median)
  ratio=$(awk -v e="$e_ms" -v p="$p_ms" 'BEGIN {printf "%.2f", e / p}')
  # For reference: json.load alone, timed inside python (no interpreter start-up).
  l_ms=$(for _ in $(seq "$runs"); do
    "$python" -c 'import json,sys,time; t=time.perf_counter(); json.load(open(sys.argv[1])); print(round((time.perf_counter()-t)*1000))' "$file"
  done | median)
  e_rss=$(peak_rss_mib "$build/eruplan" plan -n "$file" -r "$request" -o json)
  p_rss=$(peak_rss_mib "$python" -c 'import json,sys; json.load(open(sys.argv[1]))' "$file")
  printf '%-8s %6s %11s %10s %7s %15s %8s MiB %8s MiB\n' "$nodes" "$mb" "$e_ms" "$p_ms" "$ratio" "$l_ms" "$e_rss" "$p_rss"
done
echo "eruplan_ms, python_ms: median of $runs whole-process wall times, run alternately; ratio = eruplan / python"
echo "target (d): ratio <= 0.60 on 100000 nodes"
