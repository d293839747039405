// Command fundsharectl is a small helper for platform teams. `tenant` writes what
// onboards an integrator through GitOps: the tenant's Namespace, the Secret with the
// argon2id hash of a freshly generated client secret, and the ApiClient. The YAML goes to
// stdout; the client secret itself goes to stderr, once, and nowhere else. `orders` reads
// the orders that the retention controller moved to the order archive.
//
//	fundsharectl tenant --namespace acme --client-id acme-prod > tenants/acme/tenant.yaml
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// version is stamped at build time (-ldflags -X main.version=...).
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `fundsharectl: helpers for platform teams running fundshare-operator.

Commands:
  tenant    print a tenant (Namespace, Secret with the client secret's hash, ApiClient)
            as YAML for GitOps; the client secret is printed once, to stderr
  orders    read archived orders (moved out of the cluster by the retention
            controller): "orders get" one as YAML, "orders list" a tenant's, newest first
  version   print the version

Run "fundsharectl <command> -h" for the command's flags.
`

// run is main without the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "tenant":
		return runTenant(args[1:], stdout, stderr)
	case "orders":
		return runOrders(args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, version)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "fundsharectl: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

func runTenant(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tenant", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t Tenant
	fs.StringVar(&t.Namespace, "namespace", "", "the tenant's namespace (required; one namespace per integrator)")
	fs.StringVar(&t.ClientID, "client-id", "", "the OAuth2 client_id of the integrator (required; unique across the cluster)")
	fs.StringVar(&t.Name, "name", "integrator", "name of the ApiClient object")
	fs.StringVar(&t.SecretName, "secret-name", "", "name of the Secret holding the hash (default: <name>-credentials)")
	fs.BoolVar(&t.TaxReporting, "tax-reporting", false, "the integrator opted in to tax reporting (accounts need tax residencies and a TIN / tax id)")
	fs.BoolVar(&t.LEIRequired, "lei-required", false, "business accounts need a valid LEI")
	fs.BoolVar(&t.KYCDataRequired, "kyc-data-required", false, "accounts need their full address and, for individuals, birth data")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: fundsharectl tenant --namespace NS --client-id ID [flags] > tenant.yaml

Prints the tenant's Namespace, a Secret with the argon2id hash of a new client secret and
the ApiClient as a YAML stream on stdout, ready to commit for GitOps. The client secret is
printed once on stderr: hand it to the integrator; it is not stored anywhere.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fundsharectl tenant: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if t.SecretName == "" {
		t.SecretName = t.Name + "-credentials"
	}
	if err := t.Validate(); err != nil {
		fmt.Fprintln(stderr, "fundsharectl tenant:", err)
		return 2
	}
	out, secret, err := t.Render()
	if err != nil {
		fmt.Fprintln(stderr, "fundsharectl tenant:", err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintln(stderr, "fundsharectl tenant: writing the YAML:", err)
		return 1
	}
	fmt.Fprintf(stderr, `
WARNING: the client secret below is shown ONCE. Store it now (e.g. in your secrets
manager) and hand it to the integrator. The YAML on stdout holds only its argon2id hash,
so the secret cannot be recovered later; to rotate it, run this command again and commit
the new Secret.

client_id:     %s
client_secret: %s
`, t.ClientID, secret)
	return 0
}
