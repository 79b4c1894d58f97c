#!/usr/bin/env python3
"""Writes a kubectl-shaped node list and pod list for eruplan's Kubernetes
input benchmark (SPEC §12): N nodes and P pods bound to them, with the
fields kubectl prints (status, conditions, container statuses, ...), so the
reader skips realistic bulk.

usage: gen_kubernetes.py NODES PODS OUT_DIR   (writes nodes.json, pods.json)
"""
import json
import random
import sys


def node(i, rng):
    name = "node-%05d" % i
    gpu = i % 10 == 0
    alloc = {
        "cpu": "%dm" % rng.choice([15890, 31850, 63770]),
        "ephemeral-storage": str(rng.choice([94580335255, 189160670510])),
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": "%dKi" % rng.choice([61255756, 128364620, 257789952]),
        "pods": "110",
    }
    if gpu:
        alloc["nvidia.com/gpu"] = "8"
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": "2026-03-02T09:14:51Z",
            "labels": {"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name,
                       "kubernetes.io/os": "linux", "pool": "gpu" if gpu else "general",
                       "topology.kubernetes.io/zone": "zone-%d" % (i % 3)},
            "name": name,
            "resourceVersion": str(1000 + i),
            "uid": "%08x-0000-4000-8000-%012x" % (i, i),
        },
        "spec": {"podCIDR": "10.%d.%d.0/24" % (i // 256, i % 256),
                 "taints": [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}]
                 if gpu else None,
                 "unschedulable": i % 97 == 0 or None},
        "status": {
            "addresses": [{"address": "10.0.%d.%d" % (i // 256, i % 256), "type": "InternalIP"},
                          {"address": name, "type": "Hostname"}],
            "allocatable": alloc,
            "capacity": dict(alloc),
            "conditions": [{"lastHeartbeatTime": "2026-03-09T11:02:13Z",
                            "lastTransitionTime": "2026-03-02T09:15:40Z",
                            "message": "kubelet is posting ready status", "reason": "KubeletReady",
                            "status": "True", "type": "Ready"}],
            "nodeInfo": {"architecture": "amd64", "containerRuntimeVersion": "containerd://1.7.13",
                         "kernelVersion": "6.1.0-18-amd64", "kubeletVersion": "v1.29.2",
                         "operatingSystem": "linux", "osImage": "Debian GNU/Linux 12 (bookworm)"},
        },
    }


def pod(i, nodes, rng):
    app = "app-%03d" % (i % 400)
    name = "%s-7d9c6b5f4-%05x" % (app, i)
    cpu = rng.choice(["100m", "250m", "500m", "1"])
    mem = rng.choice(["64Mi", "256Mi", "512Mi", "1Gi"])
    phase = "Succeeded" if i % 50 == 0 else "Running"
    spec = {
        "containers": [{
            "image": "registry.example.com/%s:1.4.%d" % (app, i % 9),
            "imagePullPolicy": "IfNotPresent",
            "name": app,
            "ports": [{"containerPort": 8080, "protocol": "TCP"}],
            "resources": {"limits": {"memory": mem}, "requests": {"cpu": cpu, "memory": mem}},
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File",
            "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                              "name": "kube-api-access", "readOnly": True}],
        }],
        "dnsPolicy": "ClusterFirst",
        "nodeName": "node-%05d" % rng.randrange(nodes),
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "serviceAccountName": "default",
        "tolerations": [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready",
                         "operator": "Exists", "tolerationSeconds": 300}],
    }
    if i % 5 == 0:
        spec["initContainers"] = [{"name": "init", "image": "busybox",
                                   "resources": {"requests": {"cpu": "200m", "memory": "32Mi"}}}]
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "creationTimestamp": "2026-03-08T17:22:05Z",
            "generateName": app + "-7d9c6b5f4-",
            "labels": {"app.kubernetes.io/name": app, "pod-template-hash": "7d9c6b5f4"},
            "name": name,
            "namespace": "ns-%02d" % (i % 40),
            "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": True,
                                 "controller": True, "kind": "ReplicaSet",
                                 "name": app + "-7d9c6b5f4", "uid": "rs-%d" % (i % 400)}],
            "resourceVersion": str(5000 + i),
            "uid": "%08x-1111-4000-8000-%012x" % (i, i),
        },
        "spec": spec,
        "status": {
            "conditions": [{"lastTransitionTime": "2026-03-08T17:22:05Z", "status": "True",
                            "type": t} for t in ("Initialized", "Ready", "PodScheduled")],
            "containerStatuses": [{"containerID": "containerd://%064x" % i,
                                   "image": "registry.example.com/%s:1.4.%d" % (app, i % 9),
                                   "name": app, "ready": True, "restartCount": 0,
                                   "started": True,
                                   "state": {"running": {"startedAt": "2026-03-08T17:22:09Z"}}}],
            "hostIP": "10.0.0.1",
            "phase": phase,
            "podIP": "10.244.%d.%d" % (i // 256 % 256, i % 256),
            "qosClass": "Burstable",
            "startTime": "2026-03-08T17:22:05Z",
        },
    }


def main():
    nodes, pods, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(7)
    with open(out + "/nodes.json", "w") as f:
        json.dump({"apiVersion": "v1", "items": [node(i, rng) for i in range(nodes)],
                   "kind": "List", "metadata": {"resourceVersion": ""}}, f, indent=4)
    with open(out + "/pods.json", "w") as f:
        json.dump({"apiVersion": "v1", "items": [pod(i, nodes, rng) for i in range(pods)],
                   "kind": "List", "metadata": {"resourceVersion": ""}}, f, indent=4)


if __name__ == "__main__":
    main()
