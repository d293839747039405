// Package e2e validates the deployable manifests (config/default) against a real API
// server (kubebuilder v4 keeps end-to-end tests in test/e2e, and its create webhook needs
// test/e2e/e2e_test.go to exist): the test builds them with the machine's kubectl (kustomize), applies them with
// `kubectl apply --dry-run=server` to the project's local control plane, and checks what
// a platform team and a security review check first (least-privilege RBAC, two replicas
// with leader election, probes, resources, a non-root read-only container, the webhook
// certificate wiring).
//
// cert-manager is not installed: hack/test/cert-manager-crds.yaml holds stand-in CRDs for
// Issuer and Certificate that only let the API server accept those two kinds.
package e2e
