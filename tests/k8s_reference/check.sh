#!/bin/sh
# The kubernetes profile against tests/k8s_reference's Python model of
# kube-scheduler v1.35: compare.py on a fixed set of seeded clusters (every
# feature), each disagreement a failure. Without python3: skipped (77).
# Usage: check.sh ERUPLAN_BINARY SOURCE_DIR
set -eu
bin=$1
src=$2
if ! command -v python3 >/dev/null 2>&1; then
  echo "python3 is not installed: skipped"
  exit 77
fi
python3 "$src/tests/k8s_reference/compare.py" --bin "$bin" --features all --from 1 --count 300
# Clusters of more than 100 nodes (kube-scheduler then samples nodes by
# default; the model, like eruplan, scores every feasible one).
KREF_NODES=101-250 python3 "$src/tests/k8s_reference/compare.py" --bin "$bin" --features all --from 1001 --count 60
# The same clusters with priorities: the preemption part of each message,
# or eruplan's "--preempt would place it ..." line.
python3 "$src/tests/k8s_reference/compare.py" --bin "$bin" --features all,priority --from 1 --count 300
# plan --preempt: every replica's node, every preemption (node, victims) and
# the failing replica's message. (About twice a plain cluster's time.)
python3 "$src/tests/k8s_reference/compare.py" --bin "$bin" --features all,priority --preempt --from 1 --count 100
# Two or three Deployments in one stream, in priority then file order, each
# seeing the replicas and evictions of the ones before it; without and with
# --preempt.
python3 "$src/tests/k8s_reference/compare.py" --bin "$bin" --features all,priority,stream --from 1 --count 60
exec python3 "$src/tests/k8s_reference/compare.py" --bin "$bin" --features all,priority,stream --preempt --from 101 --count 100
