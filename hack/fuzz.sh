#!/usr/bin/env bash
# Runs every fuzz target of the module, one at a time, for a bounded time each, and prints
# a table: target, package, result. Exits non-zero when a target fails; a crasher's input
# is saved by Go under <package>/testdata/fuzz/<Target>/ and printed below, so it can be
# committed as a regression seed (go test then runs it as part of the normal tests).
#
#   hack/fuzz.sh [FUZZTIME]      default 2m per target; e.g. hack/fuzz.sh 30s   (make fuzz FUZZTIME=30s)
set -uo pipefail
fuzztime="${1:-2m}"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Packages whose tests declare a fuzz target (a cheap grep first, so only those packages
# are compiled), then the targets Go itself lists for each.
mapfile -t pkgs < <(go list -f '{{.ImportPath}}{{"\t"}}{{.Dir}}' ./... | while IFS=$'\t' read -r pkg dir; do
  if grep -qsE '^func Fuzz[A-Za-z0-9_]*\(' "$dir"/*_test.go; then printf '%s\t%s\n' "$pkg" "$dir"; fi
done)
if [[ ${#pkgs[@]} -eq 0 ]]; then
  echo "no fuzz targets found" >&2
  exit 1
fi

targets=() packages=() dirs=()
for line in "${pkgs[@]}"; do
  IFS=$'\t' read -r pkg dir <<<"$line"
  if ! list=$(go test -list '^Fuzz' "$pkg" 2>&1); then
    echo "$list" >&2
    echo "cannot list the fuzz targets of $pkg" >&2
    exit 1
  fi
  while read -r name; do
    [[ "$name" == Fuzz* ]] || continue
    targets+=("$name") packages+=("$pkg") dirs+=("$dir")
  done <<<"$list"
done

log=$(mktemp "${TMPDIR:-/tmp}/fundshare-fuzz.XXXXXX")
trap 'rm -f "$log"' EXIT
results=() notes=()
failed=0
for i in "${!targets[@]}"; do
  name=${targets[$i]} pkg=${packages[$i]} dir=${dirs[$i]}
  echo "=== fuzzing $name ($pkg) for $fuzztime"
  go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" "$pkg" >"$log" 2>&1
  rc=$?
  tail -n 3 "$log"
  if [[ $rc -eq 0 ]]; then
    results+=("ok") notes+=("")
    continue
  fi
  failed=1
  cat "$log"
  # A new crasher: "Failing input written to testdata/fuzz/<Target>/<id>"; a committed
  # one that fails again: "failure while testing seed corpus entry: <Target>/<id>".
  saved=$(grep -Eo 'testdata/fuzz/[^ ]+' "$log" | head -n 1)
  if [[ -z "$saved" ]]; then
    entry=$(grep -Eo 'seed corpus entry: [^ ]+/[^ ]+' "$log" | head -n 1)
    [[ -n "$entry" ]] && saved="testdata/fuzz/${entry#seed corpus entry: }"
  fi
  if [[ -n "$saved" ]]; then
    results+=("CRASHER") notes+=("${dir#"$root"/}/$saved")
  else
    results+=("FAIL") notes+=("see output above")
  fi
done

echo
printf '%-32s %-60s %s\n' TARGET PACKAGE RESULT
for i in "${!targets[@]}"; do
  printf '%-32s %-60s %s\n' "${targets[$i]}" "${packages[$i]}" "${results[$i]}${notes[$i]:+  ${notes[$i]}}"
done
if [[ $failed -ne 0 ]]; then
  echo
  echo "fuzzing found failures. Go saved each crasher's input at the path in the table"
  echo "(<package>/testdata/fuzz/<Target>/<id>). Reproduce it with the command below, fix the code,"
  echo "and commit the input: it stays a regression seed that every go test runs."
  for i in "${!targets[@]}"; do
    [[ "${results[$i]}" == CRASHER ]] || continue
    echo "  go test -run='^${targets[$i]}/$(basename "${notes[$i]}")\$' ${packages[$i]}"
  done
  exit 1
fi
echo
echo "${#targets[@]} fuzz targets ran for $fuzztime each: no failures"
