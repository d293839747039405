#!/usr/bin/env bash
# Runs every test of the module with the race detector against the control plane in
# bin/controlplane and prints a summary: each package's result, every failing package
# with its failing tests and Ginkgo specs, the Ginkgo specs each envtest suite ran, and
# the totals. The full log is printed when something fails (and
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
# go test ends each package's output with its result line: "ok", "FAIL" or "?", then a
# TAB (ok and ? pad with spaces first) and the package.
echo "== packages"
grep -E '^(ok|FAIL|\?)[[:space:]]' "$log" | sed 's/^/  /'
# Every failing package with what failed in it: its failing tests and subtests
# ("--- FAIL: TestX/sub"), and the failed specs its Ginkgo suites list under
# "Summarizing N Failures:" ([FAIL], [PANICKED!], [TIMEDOUT], ... each with its file:line).
# A package's output comes whole, before its result line.
failures=$(awk '
  BEGIN { insum = 0 }
  /^Summarizing [0-9]+ Failures?:/ { insum = 1; next }
  insum && /^[[:space:]]*$/ { insum = 0; next }
  insum && /^[[:space:]]+\[/ { line = $0; sub(/^[[:space:]]+/, "", line); what[n++] = line; next }
  insum && /^[[:space:]]+[^[:space:]]+:[0-9]+[[:space:]]*$/ { line = $0; gsub(/[[:space:]]/, "", line); what[n-1] = what[n-1] " (" line ")"; next }
  /^[[:space:]]*--- FAIL: / { line = $0; sub(/^[[:space:]]*--- FAIL: /, "", line); what[n++] = "--- FAIL: " line; next }
  /^FAIL[[:space:]]/ {
    rest = $0; sub(/^FAIL[[:space:]]+[^[:space:]]+[[:space:]]*/, "", rest)
    print "  FAIL " $2 (rest ~ /^\[/ ? " " rest : "")
    for (i = 0; i < n; i++) print "      " what[i]
    if (n == 0) print "      (no failing test named: see the log for a build failure, a panic, a timeout or a race after the tests)"
  }
  /^(ok|FAIL|\?)[[:space:]]/ { n = 0; insum = 0 }
' "$log")
if [[ -n "$failures" ]]; then
  echo "== failures"
  echo "$failures"
fi
echo "== envtest suites"
awk '/^=== RUN/ {pkgtest=$3} /Ran [0-9]+ of [0-9]+ Specs/ {print "  " pkgtest ": " $0}' "$log"
specs=$(grep -Eo 'Ran [0-9]+ of [0-9]+ Specs' "$log" | awk '{s+=$2} END {print s+0}')
passed=$(grep -Ec -- '^\s*--- PASS' "$log")
failed=$(grep -Ec -- '^\s*--- FAIL' "$log")
echo
echo "envtest specs run: $specs"
echo "tests: $passed passed, $failed failed"
exit "$rc"
