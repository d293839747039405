package cli

import (
	"fmt"
)

const tenantHelp = `Usage: PROG tenant --namespace NS --client-id ID [flags] > tenant.yaml

Prints the tenant's Namespace, a Secret with the argon2id hash of a new client secret and
the ApiClient as a YAML stream on stdout, ready to commit for GitOps. The client secret is
printed once on stderr: hand it to the integrator; it is not stored anywhere. To rotate the
secret, run the command again and commit the new Secret.
`

// runTenant runs "tenant". It reaches no cluster: -n/--namespace names the tenant's
// namespace to create, so it has no default.
func runTenant(p *Program, args []string) error {
	f := p.newFlags("tenant", tenantHelp)
	t := Tenant{By: p.Name + " tenant"}
	f.StringVarP(&t.Namespace, "namespace", "n", "", "the tenant's namespace (required; one namespace per integrator)")
	f.StringVar(&t.ClientID, "client-id", "", "the OAuth2 client_id of the integrator (required; unique across the cluster)")
	f.StringVar(&t.Name, "name", "integrator", "name of the ApiClient object")
	f.StringVar(&t.SecretName, "secret-name", "", "name of the Secret holding the hash (default: <name>-credentials)")
	f.BoolVar(&t.TaxReporting, "tax-reporting", false, "the integrator opted in to tax reporting (accounts need tax residencies and a TIN / tax id)")
	f.BoolVar(&t.LEIRequired, "lei-required", false, "business accounts need a valid LEI")
	f.BoolVar(&t.KYCDataRequired, "kyc-data-required", false, "accounts need their full address and, for individuals, birth data")
	if err := f.parse(args); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if t.SecretName == "" {
		t.SecretName = t.Name + "-credentials"
	}
	if err := t.Validate(); err != nil {
		return usageErrorf("tenant: %v", err)
	}
	out, secret, err := t.Render()
	if err != nil {
		return fmt.Errorf("tenant: %w", err)
	}
	if _, err := p.Stdout.Write(out); err != nil {
		return fmt.Errorf("tenant: writing the YAML: %w", err)
	}
	fmt.Fprintf(p.Stderr, `
WARNING: the client secret below is shown ONCE. Store it now (e.g. in your secrets
manager) and hand it to the integrator. The YAML on stdout holds only its argon2id hash,
so the secret cannot be recovered later; to rotate it, run this command again and commit
the new Secret.

client_id:     %s
client_secret: %s
`, t.ClientID, secret)
	return nil
}
