#!/usr/bin/env bash
# Checks that the pinned kubebuilder can extend the project: on a throwaway copy of the
# working tree it runs `kubebuilder create api` and `kubebuilder create webhook` for a
# new kind (Throwaway, group invest, v1alpha1), regenerates the code and manifests with the
# project's own targets, and builds and vets the result. The copy is removed afterwards;
# the repository is not touched.
#   hack/kubebuilder-check.sh <kubebuilder binary> <controller-gen binary>
set -euo pipefail
kubebuilder=$1
controller_gen=$2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
# Tracked and new files, as a clean clone with this change would have them.
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [[ -e "$f" ]] && printf '%s\0' "$f"
done | tar --null -T - -cf - | tar -xf - -C "$work"
cd "$work"
echo "kubebuilder check in $work ($("$kubebuilder" version | sed -n 's/.*KubeBuilderVersion:"\([^"]*\)".*/\1/p'))"
"$kubebuilder" create api --group invest --version v1alpha1 --kind Throwaway --resource --controller --make=false
"$kubebuilder" create webhook --group invest --version v1alpha1 --kind Throwaway --defaulting --programmatic-validation --make=false
for want in "Throwaway" ; do
  grep -q "kind: $want" PROJECT || { echo "kubebuilder did not add $want to PROJECT" >&2; exit 1; }
done
grep -q 'ThrowawayReconciler' cmd/main.go || { echo "kubebuilder did not wire the Throwaway controller into cmd/main.go" >&2; exit 1; }
grep -q 'SetupThrowawayWebhookWithManager' cmd/main.go || { echo "kubebuilder did not wire the Throwaway webhook into cmd/main.go" >&2; exit 1; }
make --no-print-directory generate manifests CONTROLLER_GEN="$controller_gen"
ls config/crd/bases/*throwaways.yaml > /dev/null
go build ./...
go vet ./cmd/ ./api/... ./internal/controller/... ./internal/webhook/...
echo "kubebuilder check: create api and create webhook extend the project, and it builds"
