#!/bin/sh
# The kubernetes profile against tests/k8s_reference2 (a second model of
# kube-scheduler v1.35's default profile, written apart from the first) on
# fixed seeds, one feature set at a time, then all together. Skipped (77)
# without python3.
set -eu
bin=$1
src=$2
if ! command -v python3 >/dev/null 2>&1; then
  echo "python3 is not installed: skipped"
  exit 77
fi
cmp="$src/tests/k8s_reference2/compare.py"
for f in "" taints nodeaff ports spread ipa,ns init,qty,gpu prio real,edge stream,spread,ipa images; do
  python3 "$cmp" --bin "$bin" --features "$f" --from 1 --count 40
done
python3 "$cmp" --bin "$bin" --features all --from 1 --count 150
exec python3 "$cmp" --bin "$bin" --features all --from 7001 --count 20 --max-nodes 60
