// Package helm checks the Helm chart (charts/fundshare-operator) against a real API
// server: the chart is rendered with the pinned helm (bin/helm-<version>, installed by
// `make helm`; $HELM when set) with its default values and with every toggle on
// (charts/fundshare-operator/ci/all-on-values.yaml), the chart's CRDs are applied to the
// project's local control plane, and every rendered object passes `kubectl apply
// --dry-run=server` in a namespace that enforces the restricted Pod Security Standard.
// The manager's arguments are parsed with the manager's own FlagSet (options.AddFlags),
// so a flag the manager does not define fails, as it would crash every pod.
//
// The ServiceMonitor and PrometheusRule are validated by prometheus-operator's own CRDs
// (hack/test/prometheus-operator-crds, copied from the Go module
// github.com/prometheus-operator/prometheus-operator by `make monitoring-crds`). cert-manager
// is not installed: hack/test/cert-manager-crds.yaml holds stand-ins for Issuer and
// Certificate that accept any content.
package helm
