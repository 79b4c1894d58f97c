#!/usr/bin/env bash
# Reproduces the 1,000,000-node figures of README.md (issue 17): peak RSS
# and CPU time of the whole `eruplan plan` and `eruplan capacity` process on
#   memory: 1,000,000 nodes, `cpu: 24`, 64Gi, usage on half, 0-20 existing
#           (eruplan-gen --nodes 1000000 --existing-max 20 --seed 3), and
#   cpumap: the same nodes with a 24-core `cpu_map` and per-core usage
#           (--mode cpumap),
# both JSON, with bench/requests/c-auto.yaml (32Mi, auto, count 1,000,000).
# Usage: bash bench/scale.sh [NODES]   (default 1000000; files go to $TMPDIR or /tmp)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-release"
out=${TMPDIR:-/tmp}
nodes=${1:-1000000}
request="$root/bench/requests/c-auto.yaml"

bash "$root/.ci/dev" deps time
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DERUPLAN_BENCH=ON >/dev/null
cmake --build "$build" -j 1 --target eruplan eruplan-gen >/dev/null

echo "machine: nproc $(nproc), load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-7s %-9s %10s %10s %6s %9s %9s %8s %5s\n' \
  shape command input_MiB peak_MiB ratio user_s sys_s wall exit
for shape in memory cpumap; do
  file="$out/eruplan-scale-$shape-$nodes.json"
  mode=plain
  [ "$shape" = cpumap ] && mode=cpumap
  [ -s "$file" ] || "$build/bench/eruplan-gen" --nodes "$nodes" --existing-max 20 --seed 3 \
    --mode "$mode" >"$file"
  input=$(stat -c %s "$file")
  for command in plan capacity; do
    /usr/bin/time -v "$build/eruplan" "$command" -n "$file" -r "$request" --jobs 1 \
      2>"$out/eruplan-scale.time" >/dev/null || true
    awk -v shape="$shape" -v command="$command" -v input="$input" '
      /Maximum resident/ {rss = $NF} /User time/ {user = $NF} /System time/ {sys = $NF}
      /Elapsed/ {wall = $NF} /Exit status/ {status = $NF}
      END {printf "%-7s %-9s %10.1f %10.1f %6.2f %9s %9s %8s %5s\n", shape, command,
           input / 1048576, rss / 1024, rss * 1024 / input, user, sys, wall, status}' \
      "$out/eruplan-scale.time"
  done
done
