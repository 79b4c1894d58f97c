#!/usr/bin/env bash
# A long fuzz campaign: every target for SECONDS of wall time, PARALLEL at a
# time, at the lowest priority (nice 19), each from its seed corpus.
#
#   bash fuzz/campaign.sh BUILD_DIR OUT_DIR [SECONDS=1800] [PARALLEL=4] [TARGET...]
#
# BUILD_DIR holds the fuzz targets (cmake -DCMAKE_CXX_COMPILER=clang++
# -DERUPLAN_FUZZ=ON). New inputs go to OUT_DIR/corpus/TARGET (the seeds in
# fuzz/corpus are only read), crashes, timeouts and out-of-memory inputs to
# OUT_DIR/artifacts/TARGET-*, the log to OUT_DIR/TARGET.log. At the end,
# OUT_DIR/summary.tsv has one line per target: executions, seconds,
# coverage (cov), features (ft), corpus size, artifacts.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:?BUILD_DIR}
out=${2:?OUT_DIR}
seconds=${3:-1800}
parallel=${4:-4}
shift $(($# < 4 ? $# : 4))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(kubernetes requests share fixture grow drain plan_json
  capacity_yaml_json json_reader realloc compare diff)
mkdir -p "$out/artifacts"

one() {
  local t=$1
  mkdir -p "$out/corpus/$t"
  local start=$(date +%s)
  nice -n 19 "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len=8192 -timeout=20 \
    -rss_limit_mb=1536 -dict=fuzz/eruplan.dict -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/$t-" "$out/corpus/$t" "fuzz/corpus/$t" >"$out/$t.log" 2>&1
  echo "$t exit $? after $(($(date +%s) - start)) s" >>"$out/done.txt"
}

running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
  one "$t" &
  running=$((running + 1))
done
wait

printf 'target\texecs\texecs_per_s\tcov\tft\tcorpus\tartifacts\n' >"$out/summary.tsv"
for t in "${targets[@]}"; do
  log=$out/$t.log
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  secs=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
  ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
  corpus=$(ls "$out/corpus/$t" | wc -l)
  arts=$(ls "$out/artifacts" | grep -c "^$t-")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "${execs:-?}" "${secs:-?}" "${cov:-?}" "${ft:-?}" \
    "$corpus" "$arts" >>"$out/summary.tsv"
done
