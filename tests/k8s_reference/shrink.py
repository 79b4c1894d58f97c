#!/usr/bin/env python3
"""Shrink a disagreeing cluster to a small one that still shows the same disagreement kind.

shrink.py CASE_DIR KIND OUT_DIR [--bin PATH]
Greedily drops nodes (with their pods), then pods, then lowers the desired
replicas, keeping each step while compare.py still reports KIND.
"""
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402


def load(d):
    return [json.load(open(os.path.join(d, f))) for f in ("nodes.json", "pods.json", "deploy.json")]


def save(d, docs):
    os.makedirs(d, exist_ok=True)
    for f, doc in zip(("nodes.json", "pods.json", "deploy.json"), docs):
        with open(os.path.join(d, f), "w") as fh:
            json.dump(doc, fh, indent=1)


def shows(binary, docs, kind):
    d = tempfile.mkdtemp(prefix="shrink-")
    try:
        save(d, docs)
        diffs, _ = compare.compare_one(binary, d)
        return any(k == kind for k, _ in diffs)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    src, kind, out = sys.argv[1:4]
    binary = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--bin" else "/work/k8sref-bin/eruplan"
    nodes, pods, dep = load(src)
    assert shows(binary, [nodes, pods, dep], kind), "the input does not show " + kind
    changed = True
    while changed:
        changed = False
        for i in range(len(nodes["items"]) - 1, -1, -1):
            name = nodes["items"][i]["metadata"]["name"]
            n2 = dict(nodes, items=nodes["items"][:i] + nodes["items"][i + 1:])
            p2 = dict(pods, items=[p for p in pods["items"] if p["spec"].get("nodeName") != name])
            if n2["items"] and shows(binary, [n2, p2, dep], kind):
                nodes, pods, changed = n2, p2, True
        for i in range(len(pods["items"]) - 1, -1, -1):
            p2 = dict(pods, items=pods["items"][:i] + pods["items"][i + 1:])
            d2 = json.loads(json.dumps(dep))
            d2["spec"]["replicas"] = max(0, dep["spec"]["replicas"] - 1)
            for cand in ([p2, dep], [p2, d2]):
                if shows(binary, [nodes, cand[0], cand[1]], kind):
                    pods, dep, changed = cand[0], cand[1], True
                    break
        while dep["spec"]["replicas"] > 1:
            d2 = json.loads(json.dumps(dep))
            d2["spec"]["replicas"] -= 1
            if not shows(binary, [nodes, pods, d2], kind):
                break
            dep, changed = d2, True
    save(out, [nodes, pods, dep])
    print("%s: %d nodes, %d pods, replicas %d" % (out, len(nodes["items"]), len(pods["items"]), dep["spec"]["replicas"]))


if __name__ == "__main__":
    main()
