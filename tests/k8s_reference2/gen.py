"""Random kubectl-shaped clusters and a Deployment, one feature set at a time."""

import random

FEATURES = ["taints", "nodeaff", "ports", "spread", "ipa", "init", "ns", "gpu", "prio", "qty", "real", "edge", "stream", "images"]

ZONES = ["zone-a", "zone-b", "zone-c"]
APPS = ["web", "api", "cache", "db", "batch"]
CPU_ALLOC = ["2", "4", "8", "3500m", "16"]
MEM_ALLOC = ["4Gi", "8Gi", "16Gi", "7500Mi", "32Gi"]
CPU_REQ = ["100m", "250m", "500m", "1", "0.3", "1500m", "2", "50m", "0.75"]
MEM_REQ = ["128Mi", "256Mi", "512Mi", "1Gi", "1.5Gi", "2Gi", "300M", "100Mi"]
NAMESPACES = ["default", "prod", "team-a"]
NS_LABELS = {"default": {"env": "dev"}, "prod": {"env": "prod"}, "team-a": {"env": "prod", "team": "a"},
             "kube-system": {}}


CPU_ODD = ["100500u", "0.0005", "333333n", "1.0001", "2e-1", "1005m", "0"]
MEM_ODD = ["1e8", "129M", "0.5Gi", "1.1Gi", "123456789", "300000k", "0"]


def _resources(rng, f, allow_none=True):
    req = {}
    if rng.random() < 0.8 or not allow_none:
        req["cpu"] = rng.choice(CPU_ODD if "qty" in f and rng.random() < 0.4 else CPU_REQ)
    if rng.random() < 0.8 or not allow_none:
        req["memory"] = rng.choice(MEM_ODD if "qty" in f and rng.random() < 0.4 else MEM_REQ)
    if rng.random() < 0.15:
        req["ephemeral-storage"] = rng.choice(["1Gi", "5Gi", "20Gi"])
    if "gpu" in f and rng.random() < 0.15:
        req["nvidia.com/gpu"] = rng.choice(["1", "2"])
    if not req and allow_none:
        return {}
    if rng.random() < 0.1:
        return {"limits": req}
    return {"requests": req}


IMAGES = [(["registry.k8s.io/app/web:1.2", "registry.k8s.io/app/web@sha256:ab12"], 180 * 2**20),
          (["docker.io/library/nginx:latest", "nginx:latest"], 70 * 2**20),
          (["quay.io/db/postgres:16"], 420 * 2**20),
          (["registry.local:5000/cache:7"], 30 * 2**20),
          (["ghcr.io/big/model:v3"], 3 * 2**30)]
POD_IMAGES = ["registry.k8s.io/app/web:1.2", "nginx", "nginx:latest", "quay.io/db/postgres:16",
              "registry.local:5000/cache:7", "registry.local:5000/cache", "ghcr.io/big/model:v3", "busybox"]


def _containers(rng, f, ports=None, allow_none=True):
    out = []
    for i in range(rng.choice([1, 1, 1, 2])):
        image = rng.choice(POD_IMAGES) if "images" in f else "img"
        c = {"name": "c%d" % i, "image": image, "resources": _resources(rng, f, allow_none)}
        if ports and i == 0:
            c["ports"] = ports
        out.append(c)
    return out


def _init_containers(rng, f):
    out = []
    for i in range(rng.randint(1, 3)):
        c = {"name": "i%d" % i, "image": "img", "resources": _resources(rng, f)}
        if rng.random() < 0.4:
            c["restartPolicy"] = "Always"
        if "ports" in f and rng.random() < 0.3:
            c["ports"] = [{"containerPort": 9100, "hostPort": rng.choice([9100, 80])}]
        out.append(c)
    return out


def _selector(rng, app, key="app"):
    r = rng.random()
    if r < 0.6:
        return {"matchLabels": {key: app}}
    if r < 0.8:
        return {"matchExpressions": [{"key": key, "operator": "In", "values": sorted({app, rng.choice(APPS)})}]}
    if r < 0.9:
        return {"matchExpressions": [{"key": key, "operator": rng.choice(["Exists", "NotIn"]),
                                      **({"values": [rng.choice(APPS)]} if rng.random() < 0.5 else {})}]}
    return {"matchLabels": {key: app}, "matchExpressions": [{"key": "tier", "operator": "DoesNotExist"}]}


def _fix_expr(sel):
    for e in sel.get("matchExpressions") or []:
        if e["operator"] in ("Exists", "DoesNotExist"):
            e.pop("values", None)
        elif not e.get("values"):
            e["values"] = ["web"]
    return sel


def _pod_term(rng, f, app):
    t = {"labelSelector": _fix_expr(_selector(rng, app)),
         "topologyKey": rng.choice(["kubernetes.io/hostname", "topology.kubernetes.io/zone", "rack"])}
    if "edge" in f and rng.random() < 0.15:
        if rng.random() < 0.5:
            t["labelSelector"] = {}
        else:
            del t["labelSelector"]
    if "ns" in f:
        r = rng.random()
        if r < 0.2:
            t["namespaces"] = rng.sample(NAMESPACES, rng.randint(1, 2))
        elif r < 0.35:
            t["namespaceSelector"] = rng.choice([{}, {"matchLabels": {"env": "prod"}},
                                                 {"matchExpressions": [{"key": "team", "operator": "Exists"}]}])
    return t


def _pod_affinity(rng, f, app, strong):
    aff = {}
    for kind in ("podAffinity", "podAntiAffinity"):
        if rng.random() < (0.5 if strong else 0.35):
            a = {}
            if rng.random() < 0.5:
                a["requiredDuringSchedulingIgnoredDuringExecution"] = [
                    _pod_term(rng, f, rng.choice([app] + APPS)) for _ in range(rng.randint(1, 2))]
            if rng.random() < 0.6:
                a["preferredDuringSchedulingIgnoredDuringExecution"] = [
                    {"weight": rng.randint(1, 100), "podAffinityTerm": _pod_term(rng, f, rng.choice([app] + APPS))}
                    for _ in range(rng.randint(1, 2))]
            if a:
                aff[kind] = a
    return aff


def _node_expr(rng, names):
    r = rng.random()
    if r < 0.15:
        return {"key": "topology.kubernetes.io/zone", "operator": "In", "values": rng.sample(ZONES, rng.randint(1, 2))}
    if r < 0.3:
        return {"key": "topology.kubernetes.io/zone", "operator": "NotIn", "values": rng.sample(ZONES, 1)}
    if r < 0.45:
        return {"key": "disk", "operator": rng.choice(["Exists", "DoesNotExist"])}
    if r < 0.6:
        return {"key": "gen", "operator": rng.choice(["Gt", "Lt"]), "values": [str(rng.randint(1, 5))]}
    if r < 0.75:
        return {"key": "pool", "operator": rng.choice(["In", "NotIn"]), "values": rng.sample(["a", "b", "spot"], rng.randint(1, 2))}
    return {"key": "rack", "operator": "In", "values": rng.sample(["r1", "r2", "r3"], rng.randint(1, 2))}


def _node_term(rng, names):
    t = {}
    if rng.random() < 0.85:
        t["matchExpressions"] = [_node_expr(rng, names) for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.15:
        t["matchFields"] = [{"key": "metadata.name", "operator": rng.choice(["In", "NotIn"]),
                             "values": [rng.choice(names)]} for _ in range(rng.choice([1, 1, 1, 2]))]
    if not t:
        t["matchExpressions"] = [_node_expr(rng, names)]
    return t


def generate(seed, features, max_nodes=12):
    rng = random.Random(seed)
    f = set(features)
    nn = rng.randint(1, max_nodes)
    style = rng.random()
    if "real" in f and style < 0.5 and nn <= 50:
        # Names of unequal length: "lowest name" is byte order (w10 < w9).
        names = rng.sample(["w%d" % i for i in range(1, 40)] + ["ip-10-0-%d-%d.ec2.internal" % (i, i * 7)
                                                                 for i in range(1, 20)], nn)
    else:
        names = ["n%02d" % i for i in range(nn)]
    rng.shuffle(names)
    nodes = []
    for name in names:
        labels = {"kubernetes.io/hostname": name}
        if rng.random() < 0.9:
            labels["topology.kubernetes.io/zone"] = rng.choice(ZONES)
        if rng.random() < 0.5:
            labels["rack"] = rng.choice(["r1", "r2", "r3"])
        if rng.random() < 0.3:
            labels["disk"] = "ssd"
        if rng.random() < 0.5:
            labels["gen"] = rng.choice(["1", "2", "3", "4", "x"])
        if rng.random() < 0.5:
            labels["pool"] = rng.choice(["a", "b", "spot"])
        alloc = {"cpu": rng.choice(CPU_ALLOC), "memory": rng.choice(MEM_ALLOC),
                 "pods": str(rng.choice([3, 5, 8, 110])), "ephemeral-storage": rng.choice(["10Gi", "50Gi", "100Gi"])}
        if "gpu" in f and rng.random() < 0.3:
            alloc["nvidia.com/gpu"] = rng.choice(["1", "2", "4"])
        if "qty" in f and rng.random() < 0.1:
            del alloc[rng.choice(["cpu", "memory", "ephemeral-storage"])]
        spec = {}
        if "real" in f and rng.random() < 0.2:
            labels["node-role.kubernetes.io/control-plane"] = ""
            spec["taints"] = [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
        elif "taints" in f:
            if rng.random() < 0.1:
                spec["unschedulable"] = True
            taints = []
            for _ in range(rng.choice([0, 0, 1, 1, 2])):
                t = {"key": rng.choice(["dedicated", "spot", "gpu"]),
                     "effect": rng.choice(["NoSchedule", "PreferNoSchedule", "NoExecute", "PreferNoSchedule"])}
                if rng.random() < 0.6:
                    t["value"] = rng.choice(["true", "x"])
                if not any(o["key"] == t["key"] and o["effect"] == t["effect"] for o in taints):
                    taints.append(t)
            if taints:
                spec["taints"] = taints
        status = {"allocatable": alloc}
        if "images" in f:
            status["images"] = [{"names": IMAGES[i][0], "sizeBytes": IMAGES[i][1]}
                                for i in sorted(rng.sample(range(len(IMAGES)), rng.randint(0, len(IMAGES))))]
        nodes.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
                      "spec": spec, "status": status})

    app = rng.choice(APPS)
    pods = []
    for i in range(rng.randint(0, nn * 3)):
        papp = rng.choice(APPS)
        ns = rng.choice(NAMESPACES) if "ns" in f else "default"
        labels = {"app": papp}
        if rng.random() < 0.3:
            labels["tier"] = rng.choice(["front", "back"])
        spec = {"nodeName": rng.choice(names), "containers": None}
        ports = None
        if "ports" in f and rng.random() < 0.2:
            ports = [{"containerPort": 80, "hostPort": rng.choice([80, 443, 8080]),
                      "protocol": rng.choice(["TCP", "TCP", "UDP"])}]
            if rng.random() < 0.3:
                ports[0]["hostIP"] = rng.choice(["10.0.0.1", "127.0.0.1"])
        spec["containers"] = _containers(rng, f, ports)
        if "init" in f and rng.random() < 0.3:
            spec["initContainers"] = _init_containers(rng, f)
        if "ipa" in f and rng.random() < 0.3:
            aff = _pod_affinity(rng, f, rng.choice([papp, app]), False)
            if aff:
                spec["affinity"] = aff
        if "prio" in f and rng.random() < 0.4:
            spec["priority"] = rng.choice([-10, -1, 0, 100])
        phase = rng.choice(["Running"] * 8 + ["Pending", "Succeeded"])
        meta = {"name": "p%03d" % i, "namespace": ns, "labels": labels}
        if "real" in f and phase == "Running" and rng.random() < 0.1:
            # Terminating (kubectl shows it so during a rollout).
            meta["deletionTimestamp"] = "2026-11-26T10:00:00Z"
            meta["deletionGracePeriodSeconds"] = 30
        pods.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta,
                     "spec": spec, "status": {"phase": phase}})

    if "real" in f:
        # DaemonSet-like system pods: high priority, tolerate everything,
        # a host port on every node; a few pods bound to nodes not listed.
        for i, name in enumerate(names):
            spec = {"nodeName": name, "priority": 2000001000, "tolerations": [{"operator": "Exists"}],
                    "containers": [{"name": "proxy", "image": "img",
                                    "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}},
                                    "ports": [{"containerPort": 9100, "hostPort": 9100}]}]}
            pods.append({"apiVersion": "v1", "kind": "Pod",
                         "metadata": {"name": "node-exporter-%d" % i, "namespace": "kube-system",
                                      "labels": {"app": "node-exporter"}},
                         "spec": spec, "status": {"phase": "Running"}})
        for i in range(rng.randint(0, 2)):
            pods.append({"apiVersion": "v1", "kind": "Pod",
                         "metadata": {"name": "gone-%d" % i, "namespace": "default", "labels": {"app": app}},
                         "spec": {"nodeName": "old-node", "containers": [{"name": "c", "image": "img"}]},
                         "status": {"phase": "Running"}})
    ns = rng.choice(["default", "prod"]) if "ns" in f else "default"
    tlabels = {"app": app}
    if rng.random() < 0.3:
        tlabels["version"] = rng.choice(["v1", "v2"])
    tspec = {}
    ports = None
    if "ports" in f and rng.random() < 0.4:
        ports = [{"containerPort": 80, "hostPort": rng.choice([80, 443, 8080]),
                  "protocol": rng.choice(["TCP", "TCP", "UDP"])}]
        if rng.random() < 0.3:
            ports[0]["hostIP"] = rng.choice(["10.0.0.1", "127.0.0.1"])
    tspec["containers"] = _containers(rng, f, ports, allow_none=rng.random() < 0.5)
    if "init" in f and rng.random() < 0.4:
        tspec["initContainers"] = _init_containers(rng, f)
    if "prio" in f and rng.random() < 0.2:
        tspec["preemptionPolicy"] = "Never"
    if "init" in f and rng.random() < 0.1:
        tspec["overhead"] = {"cpu": "10m", "memory": "32Mi"}
    if "taints" in f and rng.random() < 0.6:
        tols = []
        for _ in range(rng.randint(1, 2)):
            r = rng.random()
            if r < 0.2:
                tols.append({"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"})
            elif r < 0.3:
                tols.append({"operator": "Exists", **({"effect": rng.choice(["NoSchedule", "PreferNoSchedule"])}
                                                       if rng.random() < 0.5 else {})})
            else:
                t = {"key": rng.choice(["dedicated", "spot", "gpu"])}
                if rng.random() < 0.5:
                    t["operator"] = "Exists"
                else:
                    t["operator"] = "Equal"
                    t["value"] = rng.choice(["true", "x"])
                if rng.random() < 0.7:
                    t["effect"] = rng.choice(["NoSchedule", "PreferNoSchedule", "NoExecute"])
                tols.append(t)
        tspec["tolerations"] = tols
    aff = {}
    if "nodeaff" in f:
        if rng.random() < 0.3:
            tspec["nodeSelector"] = rng.choice([{"disk": "ssd"}, {"pool": "a"}, {"topology.kubernetes.io/zone": "zone-a"}])
        na = {}
        if rng.random() < 0.5:
            na["requiredDuringSchedulingIgnoredDuringExecution"] = {
                "nodeSelectorTerms": [_node_term(rng, names) for _ in range(rng.randint(1, 2))]}
        if rng.random() < 0.5:
            na["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": rng.randint(1, 100), "preference": _node_term(rng, names)} for _ in range(rng.randint(1, 3))]
        if na:
            aff["nodeAffinity"] = na
    if "ipa" in f:
        aff.update(_pod_affinity(rng, f, app, True))
    if aff:
        tspec["affinity"] = aff
    if "spread" in f and rng.random() < 0.7:
        tscs = []
        for key in rng.sample(["topology.kubernetes.io/zone", "kubernetes.io/hostname", "rack"], rng.randint(1, 2)):
            c = {"maxSkew": rng.choice([1, 1, 2, 3]), "topologyKey": key,
                 "whenUnsatisfiable": rng.choice(["DoNotSchedule", "ScheduleAnyway"]),
                 "labelSelector": _fix_expr(_selector(rng, app))}
            if c["whenUnsatisfiable"] == "DoNotSchedule" and rng.random() < 0.25:
                c["minDomains"] = rng.randint(1, 4)
            if rng.random() < 0.2:
                c["nodeAffinityPolicy"] = rng.choice(["Honor", "Ignore"])
            if rng.random() < 0.2:
                c["nodeTaintsPolicy"] = rng.choice(["Honor", "Ignore"])
            if rng.random() < 0.15:
                c["matchLabelKeys"] = ["version"]
            elif "edge" in f and rng.random() < 0.15:
                if rng.random() < 0.5:
                    c["labelSelector"] = {}
                else:
                    del c["labelSelector"]
            tscs.append(c)
        tspec["topologySpreadConstraints"] = tscs
    sel = rng.choice([{"matchLabels": {"app": app}}, {"matchLabels": {"app": app}},
                      {"matchExpressions": [{"key": "app", "operator": "In", "values": [app]}]}])
    manifest = {"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": app, "namespace": ns},
                "spec": {"replicas": rng.randint(1, 3 * nn + 2), "selector": sel,
                         "template": {"metadata": {"labels": tlabels}, "spec": tspec}}}
    if "stream" in f:
        # Two or three Deployments of distinct apps in one List, placed in
        # file order; the later ones see the earlier ones' pods.
        docs = [manifest]
        for extra in rng.sample([a for a in APPS if a != app], rng.randint(1, 2)):
            sub = generate(seed * 7919 + len(docs), [x for x in features if x != "stream"], max_nodes)[3]
            sub["metadata"]["name"] = extra
            sub["metadata"]["namespace"] = manifest["metadata"]["namespace"]
            sub["spec"]["selector"] = {"matchLabels": {"app": extra}}
            sub["spec"]["template"]["metadata"]["labels"] = {"app": extra}
            sub["spec"]["replicas"] = rng.randint(1, nn + 2)
            docs.append(sub)
        manifest = {"apiVersion": "v1", "kind": "List", "items": docs}
    namespaces = {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Namespace",
         "metadata": {"name": n, "labels": {"kubernetes.io/metadata.name": n, **NS_LABELS[n]}}}
        for n in NAMESPACES + ["kube-system"]]}
    return ({"apiVersion": "v1", "kind": "List", "items": nodes},
            {"apiVersion": "v1", "kind": "List", "items": pods}, namespaces, manifest)
