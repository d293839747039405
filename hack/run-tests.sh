#!/usr/bin/env bash
# Runs every test of the module against the control plane in bin/controlplane and prints a
# summary: packages, Ginkgo specs run, failures. A missing control-plane binary is a
# failure (envtest refuses to start), never a skip.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export KUBEBUILDER_ASSETS="${KUBEBUILDER_ASSETS:-$root/bin/controlplane}"
for b in kube-apiserver etcd; do
  [[ -x "$KUBEBUILDER_ASSETS/$b" ]] || { echo "missing $KUBEBUILDER_ASSETS/$b: run make controlplane" >&2; exit 1; }
done
log=$(mktemp "${TMPDIR:-/tmp}/fundshare-test.XXXXXX")
trap 'rm -f "$log"' EXIT
go test -count=1 -timeout 45m "$@" ./... 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
specs=$(grep -Eo 'Ran [0-9]+ of [0-9]+ Specs' "$log" | awk '{s+=$2} END {print s+0}')
pass=$(grep -Ec '^ok ' "$log")
fail=$(grep -Ec '^(FAIL|--- FAIL)' "$log")
echo
echo "envtest specs run: $specs; packages ok: $pass; failures: $fail"
exit "$rc"
