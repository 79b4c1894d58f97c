#!/usr/bin/env python3
"""Seeded random clusters for the kube-scheduler reference comparison.

gen.py SEED OUTDIR [FEATURES]  writes OUTDIR/nodes.json, pods.json, deploy.json.
FEATURES is a comma list (default "all"): resources (always), taints, cordon,
nodeaffinity, ports, spread, podaffinity, runaff (running pods' own
affinity), init (init containers, sidecars, overhead), limits, eph, phases,
matchfields, priority (running pods' spec.priority and the Deployment's
PriorityClass in priorityclasses.json, drawn from a generator of their own
so that the rest of each cluster is as without them).
"""
import json
import os
import random
import sys

import reference

ALL = ["taints", "cordon", "nodeaffinity", "ports", "spread", "podaffinity", "runaff",
       "init", "limits", "eph", "phases", "matchfields", "zero", "nsselector", "hostlabel",
       "unknownnode", "matchlabelkeys", "extended", "noalloc", "initports", "dupes"]
# not in "all": priority (check.sh runs it as a second pass), stream (deploy.yaml:
# two or three Deployments in one stream, each with its own PriorityClass or none), selector (running pods that match the Deployment's selector but not all of
# its template's labels), overcommit (running pods above allocatable), nohostlabel (nodes without
# kubernetes.io/hostname: eruplan documents that it takes the node's name then)
HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
APPS = ["web", "db", "cache", "batch", "api"]


def gen(seed, feats):
    rng = random.Random(seed)
    f = lambda x: x in feats
    # KREF_NODES=LO-HI: clusters of LO to HI nodes (default 5-50).
    lo, hi = (int(x) for x in os.environ.get("KREF_NODES", "5-50").split("-"))
    n = rng.randint(lo, hi)
    nzones = rng.randint(1, 4)
    names = set()
    nodes = []
    style = rng.choice(["node-%d", "n%02d", "w%d"])
    for i in range(n):
        name = style % i
        names.add(name)
        labels = {HOST: name}
        if f("hostlabel") and rng.random() < 0.1:
            labels[HOST] = name + ".internal"
        if f("nohostlabel") and rng.random() < 0.1:
            del labels[HOST]
        if rng.random() > 0.05 or not f("spread"):
            labels[ZONE] = "zone-%s" % "abcd"[rng.randrange(nzones)]
        if rng.random() < 0.5:
            labels["disk"] = rng.choice(["ssd", "hdd"])
        if rng.random() < 0.6:
            labels["tier"] = str(rng.randint(1, 5))
        spec = {}
        taints = []
        if f("taints") and rng.random() < 0.2:
            taints.append({"key": "dedicated", "value": rng.choice(["gpu", "infra"]), "effect": "NoSchedule"})
        if f("taints") and rng.random() < 0.2:
            taints.append({"key": "spot", "value": "true", "effect": "PreferNoSchedule"})
        if f("taints") and rng.random() < 0.05:
            taints.append({"key": "evict", "effect": "NoExecute"})
        if f("cordon") and rng.random() < 0.1:
            spec["unschedulable"] = True
            if rng.random() < 0.5:
                taints.append({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"})
        if taints:
            spec["taints"] = taints
        alloc = {"cpu": rng.choice(["2", "4", "8", "16", "3500m", "7910m", "1"]),
                 "memory": rng.choice(["4Gi", "8Gi", "16Gi", "32Gi", "15898528Ki", "2Gi"]),
                 "pods": str(rng.choice([110, 110, 20, 8, 4]))}
        if f("eph") and rng.random() < 0.8:
            alloc["ephemeral-storage"] = rng.choice(["20Gi", "100Gi", "5Gi"])
        if f("extended") and rng.random() < 0.4:
            alloc["nvidia.com/gpu"] = str(rng.randint(1, 4))
        if f("noalloc") and rng.random() < 0.05:
            del alloc[rng.choice(["cpu", "memory", "pods"])]
        nodes.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
                      "spec": spec, "status": {"allocatable": alloc}})

    tlabels = {"app": "web"}
    if rng.random() < (0.9 if f("selector") else 0.3):
        tlabels["tier"] = "front"

    def resources(p_none=0.2):
        r = {}
        req = {}
        lim = {}
        if rng.random() > p_none:
            req["cpu"] = rng.choice(["100m", "250m", "500m", "1", "0.3", "1500m", "50m", "2"])
        if rng.random() > p_none:
            req["memory"] = rng.choice(["128Mi", "256Mi", "512Mi", "1Gi", "2Gi", "300M", "100Mi"])
        if f("zero") and rng.random() < 0.15:
            req[rng.choice(["cpu", "memory"])] = "0"
        if f("eph") and rng.random() < 0.2:
            req["ephemeral-storage"] = rng.choice(["1Gi", "4Gi"])
        if f("extended") and rng.random() < 0.15:
            req["nvidia.com/gpu"] = str(rng.randint(1, 2))
        if f("limits") and rng.random() < 0.2:
            lim["cpu"] = rng.choice(["200m", "1"])
            req.pop("cpu", None)
        if f("limits") and rng.random() < 0.2:
            lim["memory"] = rng.choice(["256Mi", "1Gi"])
            req.pop("memory", None)
        if req:
            r["requests"] = req
        if lim:
            r["limits"] = lim
        return r

    def ports():
        if not f("ports") or rng.random() > 0.3:
            return None
        out = []
        for _ in range(rng.randint(1, 2)):
            p = {"containerPort": 80, "hostPort": rng.choice([80, 443, 8080])}
            if rng.random() < 0.2:
                p["protocol"] = "UDP"
            if rng.random() < 0.2:
                p["hostIP"] = rng.choice(["10.0.0.1", "127.0.0.1"])
            out.append(p)
        return out

    def containers(p_none=0.2, with_ports=True):
        cs = []
        for j in range(rng.choice([1, 1, 1, 2])):
            c = {"name": "c%d" % j, "image": "img", "resources": resources(p_none)}
            if with_ports and j == 0:
                pp = ports()
                if pp:
                    c["ports"] = pp
            cs.append(c)
        return cs

    def init_containers():
        if not f("init") or rng.random() > 0.25:
            return None
        out = []
        for j in range(rng.randint(1, 3)):
            c = {"name": "i%d" % j, "image": "img", "resources": resources(0.3)}
            if rng.random() < 0.4:
                c["restartPolicy"] = "Always"
                pp = ports()
                if pp:
                    c["ports"] = pp
            elif f("initports"):
                pp = ports()
                if pp:
                    c["ports"] = pp
            out.append(c)
        return out

    def sel(app_choices):
        if rng.random() < 0.8:
            return {"matchLabels": {"app": rng.choice(app_choices)}}
        return {"matchExpressions": [{"key": "app", "operator": rng.choice(["In", "NotIn"]),
                                      "values": rng.sample(app_choices, rng.randint(1, 2))}]}

    def ns_fields(t):
        if f("nsselector") and rng.random() < 0.3:
            c = rng.random()
            if c < 0.4:
                t["namespaces"] = rng.sample(["default", "other"], rng.randint(1, 2))
            elif c < 0.7:
                t["namespaceSelector"] = {}
            else:
                t["namespaceSelector"] = {"matchLabels": {"kubernetes.io/metadata.name": rng.choice(["default", "other"])}}
        return t

    def pod_affinity(is_running):
        aff = {}
        keys = [HOST, ZONE]
        if rng.random() < 0.5:
            t = ns_fields({"labelSelector": sel(APPS), "topologyKey": rng.choice(keys)})
            aff.setdefault("podAntiAffinity", {})["requiredDuringSchedulingIgnoredDuringExecution"] = [t]
        if rng.random() < 0.4:
            t = {"weight": rng.randint(1, 100), "podAffinityTerm": ns_fields({"labelSelector": sel(APPS), "topologyKey": rng.choice(keys)})}
            aff.setdefault("podAntiAffinity", {})["preferredDuringSchedulingIgnoredDuringExecution"] = [t]
        if rng.random() < (0.15 if is_running else 0.3):
            t = ns_fields({"labelSelector": sel(APPS), "topologyKey": rng.choice(keys)})
            aff.setdefault("podAffinity", {})["requiredDuringSchedulingIgnoredDuringExecution"] = [t]
        if rng.random() < 0.4:
            t = {"weight": rng.randint(1, 100), "podAffinityTerm": ns_fields({"labelSelector": sel(APPS), "topologyKey": rng.choice(keys)})}
            aff.setdefault("podAffinity", {})["preferredDuringSchedulingIgnoredDuringExecution"] = [t]
        return aff

    pods = []
    running_web = 0
    k = 0
    node_list = sorted(names)
    for nd in nodes:
        name = nd["metadata"]["name"]
        tally = reference.Node(nd)
        for _ in range(rng.randint(0, 4)):
            app = rng.choice(APPS)
            if app == "web" and rng.random() < 0.6:
                app = "api"
            labels = dict(tlabels) if app == "web" else {"app": app}
            if app == "web" and f("selector") and rng.random() < 0.5:
                labels = {"app": "web"}
            spec = {"nodeName": name, "containers": containers(0.3)}
            ic = init_containers()
            if ic:
                spec["initContainers"] = ic
            if f("init") and rng.random() < 0.05:
                spec["overhead"] = {"cpu": "100m", "memory": "64Mi"}
            if f("runaff") and rng.random() < 0.15:
                spec["affinity"] = pod_affinity(True)
            ns = "default" if rng.random() < 0.85 else "other"
            phase = "Running"
            if f("phases") and rng.random() < 0.1:
                phase = rng.choice(["Succeeded", "Failed", "Pending"])
            rp = reference.Pod({"metadata": {"namespace": ns}, "spec": spec})
            if phase not in ("Succeeded", "Failed") and not f("overcommit"):
                if (len(tally.pods) + 1 > tally.a_pods or rp.cpu > tally.a_cpu - tally.r_cpu
                        or rp.mem > tally.a_mem - tally.r_mem or rp.eph > tally.a_eph - tally.r_eph):
                    continue
                tally.add(rp)
            if app == "web" and ns == "default" and phase not in ("Succeeded", "Failed"):
                running_web += 1
            pods.append({"apiVersion": "v1", "kind": "Pod",
                         "metadata": {"name": "p%d" % k, "namespace": ns, "labels": labels},
                         "spec": spec, "status": {"phase": phase}})
            k += 1

    if f("dupes") and pods and rng.random() < 0.2:
        for j in range(rng.randint(1, 3)):
            pods.append(json.loads(json.dumps(rng.choice(pods))))
    if f("unknownnode") and rng.random() < 0.2:
        for j in range(rng.randint(1, 3)):
            pods.append({"apiVersion": "v1", "kind": "Pod",
                         "metadata": {"name": "gone%d" % j, "namespace": "default", "labels": dict(tlabels)},
                         "spec": {"nodeName": "gone-node", "containers": containers(0.3)}, "status": {"phase": "Running"}})
            running_web += 1
    def deployment(app, tlabels, replicas_of):
        tspec = {"containers": containers(0.25)}
        ic = init_containers()
        if ic:
            tspec["initContainers"] = ic
        if f("nodeaffinity"):
            if rng.random() < 0.2:
                tspec["nodeSelector"] = {"disk": rng.choice(["ssd", "hdd"])}
            na = {}
            if rng.random() < 0.3:
                terms = []
                for _ in range(rng.randint(1, 2)):
                    exprs = []
                    for _ in range(rng.randint(1, 2)):
                        op = rng.choice(["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"])
                        if op in ("Gt", "Lt"):
                            exprs.append({"key": "tier", "operator": op, "values": [str(rng.randint(1, 5))]})
                        elif op in ("In", "NotIn"):
                            key = rng.choice(["disk", ZONE])
                            vals = ["ssd", "hdd"] if key == "disk" else ["zone-a", "zone-b", "zone-c"]
                            exprs.append({"key": key, "operator": op, "values": rng.sample(vals, 1)})
                        else:
                            exprs.append({"key": rng.choice(["disk", "tier"]), "operator": op})
                    terms.append({"matchExpressions": exprs})
                na["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": terms}
            if f("matchfields") and rng.random() < 0.15:
                # the API allows exactly one value per matchFields requirement
                terms = []
                for v in rng.sample(node_list, rng.randint(1, min(3, len(node_list)))):
                    t = {"matchFields": [{"key": "metadata.name", "operator": rng.choice(["In", "In", "NotIn"]), "values": [v]}]}
                    if rng.random() < 0.3:
                        t["matchExpressions"] = [{"key": "tier", "operator": "Exists"}]
                    terms.append(t)
                na["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": terms}
            if rng.random() < 0.4:
                prefs = []
                for _ in range(rng.randint(1, 3)):
                    key = rng.choice(["disk", "tier", ZONE])
                    if key == "tier":
                        e = {"key": key, "operator": rng.choice(["Gt", "Lt"]), "values": [str(rng.randint(1, 5))]}
                    elif key == "disk":
                        e = {"key": key, "operator": "In", "values": [rng.choice(["ssd", "hdd"])]}
                    else:
                        e = {"key": key, "operator": "In", "values": ["zone-" + rng.choice("abcd")]}
                    prefs.append({"weight": rng.randint(1, 100), "preference": {"matchExpressions": [e]}})
                na["preferredDuringSchedulingIgnoredDuringExecution"] = prefs
            if na:
                tspec["affinity"] = {"nodeAffinity": na}
        if f("taints") and rng.random() < 0.4:
            tols = []
            for _ in range(rng.randint(1, 2)):
                c = rng.random()
                if c < 0.3:
                    tols.append({"key": "dedicated", "operator": "Equal", "value": rng.choice(["gpu", "infra"]), "effect": "NoSchedule"})
                elif c < 0.6:
                    tols.append({"key": "spot", "operator": "Exists"})
                elif c < 0.7:
                    tols.append({"operator": "Exists"})
                elif c < 0.85:
                    tols.append({"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"})
                else:
                    tols.append({"key": "spot", "operator": "Equal", "value": "true", "effect": "PreferNoSchedule"})
            tspec["tolerations"] = tols
        if f("spread") and rng.random() < 0.5:
            tscs = []
            for key in rng.sample([ZONE, HOST], rng.randint(1, 2)):
                c = {"maxSkew": rng.randint(1, 3), "topologyKey": key,
                     "whenUnsatisfiable": rng.choice(["DoNotSchedule", "ScheduleAnyway"]),
                     "labelSelector": {"matchLabels": {"app": app}}}
                if rng.random() < 0.2:
                    c["minDomains"] = rng.randint(1, 5)
                    c["whenUnsatisfiable"] = "DoNotSchedule"
                if rng.random() < 0.15:
                    c["nodeAffinityPolicy"] = rng.choice(["Honor", "Ignore"])
                if rng.random() < 0.15:
                    c["nodeTaintsPolicy"] = rng.choice(["Honor", "Ignore"])
                if f("matchlabelkeys") and rng.random() < 0.2:
                    c["matchLabelKeys"] = ["tier"]
                tscs.append(c)
            tspec["topologySpreadConstraints"] = tscs
        if f("podaffinity") and rng.random() < 0.5:
            aff = pod_affinity(False)
            if aff:
                tspec.setdefault("affinity", {}).update(aff)
        deploy = {"apiVersion": "apps/v1", "kind": "Deployment",
                  "metadata": {"name": app, "namespace": "default"},
                  "spec": {"replicas": replicas_of(), "selector": {"matchLabels": {"app": app}},
                           "template": {"metadata": {"labels": tlabels}, "spec": tspec}}}
        return deploy

    deploy = deployment("web", tlabels, lambda: running_web + rng.randint(1, 30) if rng.random() < 0.97 else max(0, running_web - 1))
    deploys = [deploy]
    if f("stream"):
        # one or two more Deployments of the apps running pods carry, drawn
        # after the first so that its cluster and Deployment stay as without
        for app in rng.sample(["db", "cache", "api"], rng.randint(1, 2)):
            running = sum(1 for p in pods if p["metadata"]["namespace"] == "default"
                          and p["metadata"]["labels"].get("app") == app
                          and p["status"]["phase"] not in ("Succeeded", "Failed")
                          and p["spec"]["nodeName"] != "gone-node")
            deploys.append(deployment(app, {"app": app}, lambda: running + rng.randint(1, 12)))
    return ({"apiVersion": "v1", "kind": "List", "items": nodes},
            {"apiVersion": "v1", "kind": "List", "items": pods}, deploy if not f("stream") else deploys)


def priorities(seed, pd, dd):
    """Running pods' priorities and the Deployment's PriorityClass (or None)."""
    rng = random.Random(seed * 7919 + 17)
    for o in pd["items"]:
        if rng.random() < 0.6:
            o.setdefault("spec", {})["priority"] = rng.choice([0, 0, 10, 100, 1000, 5000])
    if rng.random() < 0.3:
        return None
    value = rng.choice([10, 100, 1000, 100000])
    dd["spec"]["template"].setdefault("spec", {})["priorityClassName"] = "critical"
    return {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
         "metadata": {"name": "critical"}, "value": value}]}


def stream_priorities(seed, pd, deploys):
    """priorities() for the first Deployment, then a PriorityClass (or none)
    for each other one: requests of a stream are planned by priority."""
    first = priorities(seed, pd, deploys[0])
    rng = random.Random(seed * 104729 + 3)
    classes = {}
    if first is not None:
        classes["critical"] = first["items"][0]["value"]
    for d in deploys[1:]:
        if rng.random() < 0.3:
            continue
        value = rng.choice([10, 100, 1000, 5000, 100000])
        name = "prio-%d" % value
        classes[name] = value
        d["spec"]["template"].setdefault("spec", {})["priorityClassName"] = name
    if not classes:
        return None
    return {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
         "metadata": {"name": k}, "value": v} for k, v in sorted(classes.items())]}


def write(seed, out, feats):
    os.makedirs(out, exist_ok=True)
    nd, pd, dd = gen(seed, feats)
    if "stream" in feats:
        # deploy.yaml: a stream of several documents (JSON is YAML)
        pc = stream_priorities(seed, pd, dd) if "priority" in feats else None
        if pc is not None:
            with open(os.path.join(out, "priorityclasses.json"), "w") as fh:
                json.dump(pc, fh, indent=1)
        with open(os.path.join(out, "deploy.yaml"), "w") as fh:
            fh.write("\n---\n".join(json.dumps(x) for x in dd) + "\n")
        for fn, d in (("nodes.json", nd), ("pods.json", pd)):
            with open(os.path.join(out, fn), "w") as fh:
                json.dump(d, fh, indent=1)
        return
    if "priority" in feats:
        pc = priorities(seed, pd, dd)
        if pc is not None:
            with open(os.path.join(out, "priorityclasses.json"), "w") as fh:
                json.dump(pc, fh, indent=1)
    for fn, d in (("nodes.json", nd), ("pods.json", pd), ("deploy.json", dd)):
        with open(os.path.join(out, fn), "w") as fh:
            json.dump(d, fh, indent=1)


def parse_feats(s):
    if not s or s == "all":
        return set(ALL)
    if s == "none" or s == "resources":
        return set()
    out = set()
    for x in s.split(","):
        if x == "all":
            out |= set(ALL)
        elif x:
            out.add(x)
    return out


if __name__ == "__main__":
    write(int(sys.argv[1]), sys.argv[2], parse_feats(sys.argv[3] if len(sys.argv) > 3 else "all"))
