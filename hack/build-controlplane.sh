#!/usr/bin/env bash
# Builds the local control plane (kube-apiserver and etcd) from their Go modules into
# bin/controlplane, so envtest and `make run` need no download of prebuilt binaries.
# A cold build takes several minutes and about 2 GiB of memory on 2 cores; it is
# skipped when the binaries are present and report the pinned versions.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bin/controlplane"
kube_version=v1.36.3
etcd_version=$(awk '$1=="require"{print $3}' "$root/hack/controlplane/etcd/go.mod")
mkdir -p "$out"

# progress reads `go build -v` (one package per line) and prints a line every 100
# packages and at least once a minute, so a long first build never looks hung.
progress() {
  local what=$1 n=0 last=$SECONDS
  while IFS= read -r line; do
    case "$line" in
      *:*) echo "$line" ;; # compiler errors pass through
      *) n=$((n + 1)) ;;
    esac
    if (( n % 100 == 0 || SECONDS - last >= 60 )); then
      echo "  $what: $n packages compiled ($((SECONDS))s)"
      last=$SECONDS
    fi
  done
  echo "  $what: done, $n packages compiled"
}

build_apiserver() {
  local bin="$out/kube-apiserver"
  if [[ -x "$bin" ]] && "$bin" --version 2>/dev/null | grep -q "$kube_version\$"; then
    echo "kube-apiserver $kube_version: present"
    return
  fi
  echo "kube-apiserver $kube_version: building from source (first time: about 6-8 minutes)"
  (cd "$root/hack/controlplane/kube-apiserver" &&
    CGO_ENABLED=0 go build -v -trimpath -o "$bin.tmp" \
      -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$kube_version -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=36" \
      k8s.io/kubernetes/cmd/kube-apiserver 2>&1) | progress kube-apiserver
  [[ ${PIPESTATUS[0]} -eq 0 && -x "$bin.tmp" ]] || { echo "kube-apiserver build failed" >&2; exit 1; }
  mv "$bin.tmp" "$bin"
}

build_etcd() {
  local bin="$out/etcd"
  if [[ -x "$bin" ]] && "$bin" --version 2>/dev/null | grep -q "etcd Version: ${etcd_version#v}"; then
    echo "etcd $etcd_version: present"
    return
  fi
  echo "etcd $etcd_version: building from source (first time: about 1-2 minutes)"
  (cd "$root/hack/controlplane/etcd" &&
    CGO_ENABLED=0 go build -v -trimpath -o "$bin.tmp" -ldflags "-s -w" . 2>&1) | progress etcd
  [[ ${PIPESTATUS[0]} -eq 0 && -x "$bin.tmp" ]] || { echo "etcd build failed" >&2; exit 1; }
  mv "$bin.tmp" "$bin"
}

build_etcd
build_apiserver
echo "control plane ready in $out"
