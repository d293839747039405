// Package samples checks the kubebuilder scaffolding that tools read: the top-level
// PROJECT file lists every CRD of config/crd/bases with its scope and admission webhooks,
// config/samples holds one sample per kind, and every sample is accepted by a real API
// server with the manager's admission webhooks (applied with the machine's kubectl,
// exactly as config/samples/kustomization.yaml documents).
package samples
