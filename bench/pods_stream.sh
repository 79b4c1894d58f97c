#!/usr/bin/env bash
# The pod-list benchmark: `eruplan plan` on 5,000 nodes and 150,000 pods
# (bench/gen_kubernetes.py, a 675 MB pod list) side by side with a bare
# simdjson on-demand pass over the same pod list that only sums requests
# per node (bench/pods_simdjson.cpp), then the same pods split into 40
# per-namespace files read through a directory --pods. Medians of ROUNDS
# alternating runs (wall, CPU = user + sys, peak RSS from /usr/bin/time).
#
# usage: bash bench/pods_stream.sh [DIR]   (DIR: where the inputs go, default
# /tmp/eruplan-pods; delete it afterwards). Needs libsimdjson-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/eruplan-pods}
rounds=${ROUNDS:-5}
build=build-release

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DERUPLAN_BENCH=ON >/dev/null
cmake --build "$build" -j2 --target eruplan eruplan_pods_simdjson >/dev/null

mkdir -p "$dir"
if [ ! -f "$dir/pods.json" ]; then
  echo "generating 5,000 nodes and 150,000 pods in $dir ..."
  python3 bench/gen_kubernetes.py 5000 150000 "$dir"
fi
if [ ! -d "$dir/by-namespace" ]; then
  echo "splitting the pods by namespace ..."
  python3 - "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
with open(d + "/pods.json") as f:
    pods = json.load(f)["items"]
by = {}
for p in pods:
    by.setdefault(p["metadata"]["namespace"], []).append(p)
os.makedirs(d + "/by-namespace", exist_ok=True)
for ns, items in by.items():
    with open("%s/by-namespace/%s.json" % (d, ns), "w") as f:
        json.dump({"apiVersion": "v1", "items": items, "kind": "List",
                   "metadata": {"resourceVersion": ""}}, f, indent=4)
PY
fi
cat > "$dir/request.yaml" <<'YAML'
app: bench
count: 1000
strategy: auto
resources:
  cpu: 0.5
  memory: 512Mi
YAML

# One run: "wall cpu rss_kib" of the command.
measure() {
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/stderr.txt" || {
    cat "$dir/stderr.txt" >&2
    exit 1
  }
  awk '{ printf "%.3f %.3f %d\n", $1, $2 + $3, $4 }' "$dir/time.txt"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A runs
cases=(ref_one eru_one ref_dir eru_dir)
ns_files=("$dir"/by-namespace/*.json)
echo "load before: $(uptime)"
for ((i = 0; i < rounds; i++)); do
  for c in "${cases[@]}"; do
    case $c in
      ref_one) r=$(measure "$build/bench/eruplan_pods_simdjson" "$dir/pods.json") ;;
      eru_one) r=$(measure "$build/eruplan" plan -n "$dir/nodes.json" --pods "$dir/pods.json" -r "$dir/request.yaml") ;;
      ref_dir) r=$(measure "$build/bench/eruplan_pods_simdjson" "${ns_files[@]}") ;;
      eru_dir) r=$(measure "$build/eruplan" plan -n "$dir/nodes.json" --pods "$dir/by-namespace" -r "$dir/request.yaml") ;;
    esac
    runs[$c]+="$r"$'\n'
  done
done
echo "load after:  $(uptime)"
col() { printf '%s' "${runs[$1]}" | awk -v k="$2" 'NF { print $k }' | median; }
printf '%-44s %9s %9s %12s\n' case "wall s" "cpu s" "peak MiB"
for c in "${cases[@]}"; do
  case $c in
    ref_one) name="simdjson pass, one 675 MB file" ;;
    eru_one) name="eruplan plan, one file" ;;
    ref_dir) name="simdjson pass, 40 files" ;;
    eru_dir) name="eruplan plan, --pods DIR of 40 files" ;;
  esac
  printf '%-44s %9s %9s %12d\n' "$name" "$(col $c 1)" "$(col $c 2)" $(($(col $c 3) / 1024))
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
echo "eruplan / simdjson, one file: wall $(ratio "$(col eru_one 1)" "$(col ref_one 1)"), cpu $(ratio "$(col eru_one 2)" "$(col ref_one 2)")"
echo "eruplan / simdjson, 40 files: wall $(ratio "$(col eru_dir 1)" "$(col ref_dir 1)"), cpu $(ratio "$(col eru_dir 2)" "$(col ref_dir 2)")"
echo "eruplan, 40 files / one file: wall $(ratio "$(col eru_dir 1)" "$(col eru_one 1)"), cpu $(ratio "$(col eru_dir 2)" "$(col eru_one 2)")"
