#!/usr/bin/env python3
"""Inventory and realloc request for timing `eruplan realloc` (SPEC §11).

Writes NODES.json with N nodes of 32 cores and 64Gi, each running W
workloads (every third one bound to whole cores, the others unbound, with
3.2- or 2.7-core shapes as in design note 001), and REALLOC.yaml growing
every workload of app `web` by 256Mi and, for the bound ones, nothing else.
Deterministic for a seed.

    python3 bench/realloc_gen.py --nodes 1000 --per-node 10 /tmp/rl-nodes.json /tmp/rl-req.yaml
    time build-release/eruplan realloc -n /tmp/rl-nodes.json -r /tmp/rl-req.yaml -o json >/dev/null
"""
import argparse
import json
import random


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nodes", type=int, default=1000)
    p.add_argument("--per-node", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("nodes_file")
    p.add_argument("request_file")
    a = p.parse_args()
    rng = random.Random(a.seed)
    nodes = []
    for n in range(a.nodes):
        workloads = []
        core = 0
        for k in range(a.per_node):
            wid = "w%06d" % (n * a.per_node + k)
            app = "web" if k % 5 else "db"
            if k % 3 == 0 and core + 2 <= 32:
                cpu_map = {str(core): 100, str(core + 1): 100}
                core += 2
                workloads.append({"id": wid, "app": app, "cpu": 2, "memory": "1Gi",
                                  "cpu_map": cpu_map})
            else:
                cpu = rng.choice(["3.2", "2.7"])
                workloads.append({"id": wid, "app": app, "cpu": cpu, "memory": "2Gi",
                                  "memory_limit": "3Gi"})
        nodes.append({"name": "node%05d" % n, "cpu": 32, "memory": "64Gi",
                      "labels": {"zone": "z%d" % (n % 4)}, "workloads": workloads})
    with open(a.nodes_file, "w") as f:
        json.dump({"share_base": 100, "nodes": nodes}, f)
    with open(a.request_file, "w") as f:
        f.write("app: web\nresources: {memory: 256Mi, memory_limit: 256Mi}\n")


if __name__ == "__main__":
    main()
