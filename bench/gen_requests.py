#!/usr/bin/env python3
"""Inputs for the several-requests benchmark (SPEC §8.4): N memory-mode
nodes and M requests of a few repeating shapes, deterministic.

usage: gen_requests.py NODES REQUESTS OUTDIR"""
import json
import sys

nodes, requests, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
inv = {"nodes": [{"name": "node%05d" % i, "cpu": 32, "memory": (64 + (i % 4) * 32) << 30,
                  "usage": {"memory": (i % 7) << 30}} for i in range(nodes)]}
shapes = [1, 2, 4, 8, 16]  # GiB per instance
strategies = ["auto", "global", "drained"]
reqs = {"requests": [{"name": "r%04d" % j, "app": "app%03d" % (j % 50), "count": 20 + j % 30,
                      "strategy": strategies[j % 3],
                      "resources": {"cpu": 1, "memory": "%dGi" % shapes[j % len(shapes)]}}
                     for j in range(requests)]}
with open(out + "/nodes.json", "w") as f:
    json.dump(inv, f)
with open(out + "/requests.json", "w") as f:
    json.dump(reqs, f)
