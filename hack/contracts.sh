#!/usr/bin/env bash
# Builds the share-token contracts and their Go bindings (`make contracts`), or checks that the
# committed ones are what the pinned compiler and abigen make from the committed sources
# (`make contracts-check`).
#
#   hack/contracts.sh build|check ABIGEN
#
# contracts/src/*.sol --solc-js (pinned in contracts/package-lock.json)--> contracts/build/
#   *.abi, *.bin, compiler.json --abigen --v2 (go-ethereum of go.mod)--> internal/chain/contracts/
# Needs node and npm at build time only; `npm ci` installs exactly the locked packages.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${1:?usage: hack/contracts.sh build|check ABIGEN}
abigen=${2:?usage: hack/contracts.sh build|check ABIGEN}

artifacts=contracts/build
bindings=internal/chain/contracts
contracts=(CashToken DeliveryVersusPayment IdentityRegistry ShareToken)

# npm ci again only when the lock file is newer than the last install.
if [[ ! -f contracts/node_modules/.package-lock.json || contracts/package-lock.json -nt contracts/node_modules/.package-lock.json ]]; then
  (cd contracts && npm ci --ignore-scripts --no-audit --no-fund)
fi

generate() { # $1 artifacts dir, $2 bindings dir
  node contracts/compile.js "$1"
  mkdir -p "$2"
  for c in "${contracts[@]}"; do
    file=$(echo "$c" | sed -E 's/([a-z0-9])([A-Z])/\1_\2/g' | tr '[:upper:]' '[:lower:]')
    "$abigen" --v2 --abi "$1/$c.abi" --bin "$1/$c.bin" --pkg contracts --type "$c" --out "$2/$file.go"
  done
}

case "$mode" in
  build)
    generate "$artifacts" "$bindings"
    echo "wrote $artifacts and $bindings"
    ;;
  check)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    generate "$tmp/build" "$tmp/bindings"
    rc=0
    # The bindings directory also holds hand-written tests; compare the generated files only.
    diff -r "$artifacts" "$tmp/build" || rc=1
    for f in "$tmp"/bindings/*.go; do
      diff "$bindings/$(basename "$f")" "$f" || rc=1
    done
    if [[ $rc -ne 0 ]]; then
      echo "contracts: committed ABI, bytecode or bindings differ from what the sources make; run 'make contracts' and commit" >&2
      exit 1
    fi
    echo "contracts: committed ABI, bytecode and bindings match the sources"
    ;;
  *)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
