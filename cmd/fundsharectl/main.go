// Command fundsharectl is the fundshare-operator command line under its first name; it is
// the same program as the kubectl plugin kubectl-fundshare (package internal/cli), kept so
// that `bin/fundsharectl` and `go run ./cmd/fundsharectl` go on working.
//
//	fundsharectl tenant --namespace acme --client-id acme-prod > tenants/acme/tenant.yaml
package main

import (
	"os"

	"github.com/fundshare/fundshare-operator/internal/cli"
)

func main() {
	os.Exit(cli.Run("fundsharectl", os.Args[1:], os.Stdout, os.Stderr))
}
