#!/usr/bin/env bash
# Run the sharded job on a Kubernetes cluster and merge it:
#   deploy/k8s/run.sh            (kubectl pointed at the cluster, image pushed)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kubectl apply -f "$here/pvc.yaml" -f "$here/job-config.yaml"
kubectl delete job puzzlebook-shards puzzlebook-merge --ignore-not-found
kubectl apply -f "$here/shards.yaml"
kubectl wait --for=condition=complete job/puzzlebook-shards --timeout=24h
kubectl apply -f "$here/merge.yaml"
kubectl wait --for=condition=complete job/puzzlebook-merge --timeout=1h
kubectl logs job/puzzlebook-merge
