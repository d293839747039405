// Command kubectl-fundshare is the kubectl plugin of fundshare-operator: on PATH, kubectl
// runs it as `kubectl fundshare` (krew's naming). The program is package internal/cli.
//
//	go build -o ~/.local/bin/kubectl-fundshare ./cmd/kubectl-fundshare
//	kubectl fundshare dealings list -o yaml
package main

import (
	"os"

	"github.com/fundshare/fundshare-operator/internal/cli"
)

func main() {
	os.Exit(cli.Run("kubectl fundshare", os.Args[1:], os.Stdout, os.Stderr))
}
