#!/usr/bin/env bash
# Runs every test of the module with the race detector against the control plane in
# bin/controlplane and prints a summary: each package's result, the Ginkgo specs each
# envtest suite ran, and the totals. The full log is printed when something fails (and
# kept in bin/test.log). A missing control-plane binary is a failure (envtest refuses to
# start), never a skip.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export KUBEBUILDER_ASSETS="${KUBEBUILDER_ASSETS:-$root/bin/controlplane}"
export GINKGO_NO_COLOR=TRUE
for b in kube-apiserver etcd; do
  [[ -x "$KUBEBUILDER_ASSETS/$b" ]] || { echo "missing $KUBEBUILDER_ASSETS/$b: run make controlplane" >&2; exit 1; }
done
mkdir -p bin
log=bin/test.log
echo "running go test -race ./... (envtest suites start a real kube-apiserver and etcd; a few minutes)"
# -race: a data race fails the package (the detector needs cgo, hence gcc).
go test -race -v -count=1 -timeout 45m "$@" ./... > "$log" 2>&1
rc=$?
if [[ $rc -ne 0 ]]; then
  cat "$log"
  echo
  echo "FAILED: full log in $log"
fi
echo
echo "== packages"
grep -E '^(ok|FAIL|\?) ' "$log" | sed 's/^/  /'
echo "== envtest suites"
awk '/^=== RUN/ {pkgtest=$3} /Ran [0-9]+ of [0-9]+ Specs/ {print "  " pkgtest ": " $0}' "$log"
specs=$(grep -Eo 'Ran [0-9]+ of [0-9]+ Specs' "$log" | awk '{s+=$2} END {print s+0}')
passed=$(grep -Ec -- '^\s*--- PASS' "$log")
failed=$(grep -Ec -- '^\s*--- FAIL' "$log")
echo
echo "envtest specs run: $specs"
echo "tests: $passed passed, $failed failed"
exit "$rc"
