#!/usr/bin/env python3
"""Compare `eruplan plan` with kube.py on random clusters.

  compare.py --bin build/eruplan --features taints,nodeaff --from 1 --count 200

Per case: the replicas per node, every plugin's normalized score for the first
replica (when two or more nodes are feasible), and, when a replica cannot be
placed, kube-scheduler's `0/N nodes are available: ...` line and how many
replicas were placed before it. Exit 1 on the first difference (with
--keep-going, after all cases), printing the case's seed and a directory
holding its inputs.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
import kube  # noqa: E402


def compare_one(got, want, problems, tag):
    """One request: eruplan's JSON (or {'error': {'message'}}) against kube.py."""
    if want["message"] is None:
        if "error" in got:
            problems.append(tag + "eruplan failed: %s" % got["error"].get("message"))
            return
        if got.get("deploy", {}) != want["deploy"]:
            problems.append(tag + "deploy: eruplan %s, reference %s" % (got.get("deploy"), want["deploy"]))
        ws = want["first_scores"]
        if ws is not None and len(ws) >= 2:
            gs = got.get("scores", {})
            for node, (total, per) in ws.items():
                g = gs.get(node)
                if g is None:
                    problems.append(tag + "scores: %s missing in eruplan" % node)
                    continue
                gp = dict(g.get("plugins", {}))
                gp.setdefault("NodeResourcesBalancedAllocation", 0)
                if gp != per or g.get("total") != total:
                    problems.append(tag + "scores %s: eruplan %s total %s, reference %s total %s"
                                    % (node, gp, g.get("total"), per, total))
                    break
        return
    if "error" not in got:
        problems.append(tag + "eruplan placed all (%s); reference: %s after %d"
                        % (got.get("deploy"), want["message"], want["placed"]))
        return
    lines = got["error"]["message"].split("\n")
    if want["message"].endswith(" <preemption could help>"):
        # Kubernetes would preempt; eruplan says so in its own line.
        head = want["message"][: -len(" <preemption could help>")]
        if lines[0] != head or not any("--preempt would" in x for x in lines):
            problems.append(tag + "message: eruplan %r, reference %r" % (got["error"]["message"], want["message"]))
    elif lines[0] != want["message"]:
        problems.append(tag + "message: eruplan %r\n         reference %r" % (lines[0], want["message"]))
    placed = 0
    if len(lines) > 1 and lines[1].startswith("placed "):
        placed = int(lines[1].split()[1])
    if placed != want["placed"]:
        problems.append(tag + "placed: eruplan %d, reference %d" % (placed, want["placed"]))


def run_case(binary, seed, features, max_nodes, workdir, jobs="1"):
    nodes, pods, nss, manifest = gen.generate(seed, features, max_nodes)
    d = os.path.join(workdir, "case-%d" % seed)
    os.makedirs(d, exist_ok=True)
    files = {}
    for name, doc in (("nodes", nodes), ("pods", pods), ("namespaces", nss), ("deploy", manifest)):
        files[name] = os.path.join(d, name + ".json")
        with open(files[name], "w") as fh:
            json.dump(doc, fh, indent=1)
    many = manifest.get("kind") == "List"
    images = "images" in features
    wants = kube.plan_many(nodes, pods, nss, manifest["items"] if many else [manifest], images)
    cmd = [binary, "plan", "-n", files["nodes"], "--pods", files["pods"], "--namespaces", files["namespaces"],
           "-r", files["deploy"], "-o", "json", "--tie-break", "name", "--jobs", jobs]
    if images:
        cmd.append("--image-locality")
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        got = json.loads(p.stdout)
    except ValueError:
        return "eruplan exit %d, not JSON: %s %s" % (p.returncode, p.stdout[:300], p.stderr[:300]), d
    problems = []
    if not many:
        compare_one(got, wants[0], problems, "")
        return "; ".join(problems), d
    # Several requests: compared in order up to the first the reference
    # cannot place in full (eruplan then takes a rejected request's replicas
    # back, where kube-scheduler keeps the pods it bound).
    gots = got.get("requests", [])
    for i, want in enumerate(wants):
        if i >= len(gots):
            problems.append("request %d missing in eruplan" % i)
            break
        g = gots[i]
        if g.get("status") == "rejected":
            g = {"error": {"message": g.get("reason", "")}}
        compare_one(g, want, problems, "request %d (%s): " % (i, gots[i].get("name")))
    return "; ".join(problems), d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--features", default="")
    ap.add_argument("--from", dest="start", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--max-nodes", type=int, default=12)
    ap.add_argument("--keep-going", action="store_true")
    ap.add_argument("--jobs", default="1", help="eruplan's --jobs")
    ap.add_argument("--workdir")
    a = ap.parse_args()
    features = [x for x in a.features.split(",") if x]
    if features == ["all"]:
        features = gen.FEATURES
    workdir = a.workdir or tempfile.mkdtemp(prefix="kref2-")
    bad = 0
    for seed in range(a.start, a.start + a.count):
        problem, d = run_case(a.bin, seed, features, a.max_nodes, workdir, a.jobs)
        if problem:
            bad += 1
            print("seed %d (%s): %s" % (seed, d, problem))
            if not a.keep_going:
                break
    n = seed - a.start + 1
    print("features %s: %d cases, %d differ" % (",".join(features) or "base", n, bad))
    if not bad and not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
