# fundshare-operator — every developer and CI command goes through this file.
#   make run    local control plane + manager + REST facade (data kept in .local/)
#   make test   generate + vet + unit tests + envtest suites against a real kube-apiserver (-race)
#   make lint   golangci-lint (pinned, installed into bin/) with .golangci.yml
# The first run builds kube-apiserver and etcd from source into bin/ (about 8 minutes).

SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c

ROOT := $(shell pwd)
BIN := $(ROOT)/bin
CONTROLPLANE := $(BIN)/controlplane
CONTROLLER_GEN_VERSION ?= v0.23.0
CONTROLLER_GEN := $(BIN)/controller-gen-$(CONTROLLER_GEN_VERSION)
# abigen comes from the go-ethereum release go.mod requires, so bindings match the runtime.
GETH_VERSION := $(shell awk '$$1 == "github.com/ethereum/go-ethereum" {print $$2}' go.mod)
ABIGEN := $(BIN)/abigen-$(GETH_VERSION)
KUBEBUILDER_VERSION ?= v4.15.0
KUBEBUILDER := $(BIN)/kubebuilder-$(KUBEBUILDER_VERSION)
GOLANGCI_LINT_VERSION ?= v2.15.0
GOLANGCI_LINT := $(BIN)/golangci-lint-$(GOLANGCI_LINT_VERSION)
HELM_VERSION ?= v3.22.0
HELM := $(BIN)/helm-$(HELM_VERSION)
CHART := charts/fundshare-operator
# make helm-lint renders the chart for the control plane's Kubernetes version, the one the
# tests validate against.
HELM_KUBE_VERSION ?= 1.36.3
# promtool is built from the Prometheus release whose Go module go.mod requires (the PromQL
# parser of test/monitoring), in its own tools module (hack/promtool).
PROMETHEUS_VERSION := $(shell awk '$$1 == "github.com/prometheus/prometheus" {print $$2}' go.mod)
PROMTOOL := $(BIN)/promtool-$(PROMETHEUS_VERSION)
MONITORING := $(BIN)/monitoring
GO_TEST_FLAGS ?=
FUZZTIME ?= 2m
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

export KUBEBUILDER_ASSETS := $(CONTROLPLANE)
# test/helm renders the chart with this helm.
export HELM

.PHONY: all
all: build

##@ General

.PHONY: help
help: ## Show the targets.
	@awk 'BEGIN {FS = ":.*##"} /^[a-zA-Z_-]+:.*?##/ { printf "  %-18s %s\n", $$1, $$2 } /^##@/ { printf "\n%s\n", substr($$0, 5) }' $(MAKEFILE_LIST)

##@ Development

.PHONY: generate
generate: $(CONTROLLER_GEN) ## Generate deepcopy code from the API types.
	$(CONTROLLER_GEN) object:headerFile=hack/boilerplate.go.txt paths=./api/...

.PHONY: manifests
manifests: $(CONTROLLER_GEN) ## Generate CRDs (descriptions reflowed for kubectl explain), RBAC and webhook configurations from markers.
	$(CONTROLLER_GEN) rbac:roleName=manager-role crd webhook paths=./... \
		output:crd:artifacts:config=config/crd/bases \
		output:rbac:artifacts:config=config/rbac \
		output:webhook:artifacts:config=config/webhook
	@# controller-gen keeps the doc comments' line breaks, which kubectl explain shows mid-sentence.
	go run ./hack/crddesc config/crd/bases/*.yaml
	@$(MAKE) --no-print-directory chart-sync

# The chart's CRDs, ClusterRole rules and webhook configurations are copies of what
# `make manifests` generates, never edited by hand: chart-sync writes them, chart-check
# fails when they differ (CI runs it through helm-lint).
CHART_COPIES := config/rbac/role.yaml:$(CHART)/files/manager-role.yaml \
	config/webhook/manifests.yaml:$(CHART)/files/webhooks.yaml

.PHONY: chart-sync
chart-sync: ## Copy the generated CRDs, ClusterRole and webhook configurations into the Helm chart (make manifests runs it).
	@mkdir -p $(CHART)/crds $(CHART)/files
	@rm -f $(CHART)/crds/*.yaml
	@cp config/crd/bases/*.yaml $(CHART)/crds/
	@for pair in $(CHART_COPIES); do cp "$${pair%%:*}" "$${pair##*:}"; done

.PHONY: chart-check
chart-check: ## Fail when the chart's copies of the generated CRDs, ClusterRole or webhooks differ from config/ (fix: make manifests).
	@diff -r config/crd/bases $(CHART)/crds || { echo "$(CHART)/crds differs from config/crd/bases: run 'make manifests' (or 'make chart-sync') and commit" >&2; exit 1; }
	@for pair in $(CHART_COPIES); do \
	  diff "$${pair%%:*}" "$${pair##*:}" || { echo "$${pair##*:} differs from $${pair%%:*}: run 'make manifests' (or 'make chart-sync') and commit" >&2; exit 1; }; \
	done
	@go run ./hack/chartdocs -check

.PHONY: chart-docs
chart-docs: ## Write docs/install.md's values table from the "# --" comments of the chart's values.yaml.
	go run ./hack/chartdocs

.PHONY: helm-lint
helm-lint: $(HELM) chart-check ## Lint the Helm chart and render it with default values and with every toggle on (what CI runs).
	$(HELM) lint --strict $(CHART)
	$(HELM) lint --strict $(CHART) -f $(CHART)/ci/all-on-values.yaml
	$(HELM) template fundshare-operator $(CHART) -n fundshare-system --kube-version $(HELM_KUBE_VERSION) > /dev/null
	$(HELM) template fundshare-operator $(CHART) -n fundshare-system --kube-version $(HELM_KUBE_VERSION) -f $(CHART)/ci/all-on-values.yaml > /dev/null

.PHONY: monitoring-check
monitoring-check: $(HELM) $(PROMTOOL) ## Check the chart's alert rules with promtool (check rules; test rules with test/monitoring/*_test.yaml), and that each alert, broken, fails its tests.
	@mkdir -p $(MONITORING)/broken
	go build -o $(MONITORING)/promrules ./hack/promrules
	$(HELM) template fundshare-operator $(CHART) -n fundshare-system --kube-version $(HELM_KUBE_VERSION) \
	  --set metrics.prometheusRule.enabled=true > $(MONITORING)/chart.yaml
	$(MONITORING)/promrules < $(MONITORING)/chart.yaml > $(MONITORING)/rules.yaml
	$(PROMTOOL) check rules $(MONITORING)/rules.yaml
	$(PROMTOOL) test rules test/monitoring/*_test.yaml
	@# The tests can fail: each alert in turn gets an expression that never fires, and
	@# promtool test rules must then report a failure.
	@for alert in $$($(MONITORING)/promrules -list < $(MONITORING)/chart.yaml); do \
	  $(MONITORING)/promrules -break "$$alert" < $(MONITORING)/chart.yaml > $(MONITORING)/broken/rules.yaml; \
	  for f in test/monitoring/*_test.yaml; do \
	    sed 's#\.\./\.\./bin/monitoring/rules\.yaml#$(MONITORING)/broken/rules.yaml#' "$$f" > $(MONITORING)/broken/$$(basename "$$f"); done; \
	  if $(PROMTOOL) test rules $(MONITORING)/broken/*_test.yaml > $(MONITORING)/broken/log 2>&1; then \
	    echo "promtool test rules passes with $$alert broken: no test expects it to fire" >&2; exit 1; fi; \
	done
	@echo "monitoring-check: every alert, broken, fails its tests"

$(PROMTOOL):
	@mkdir -p $(BIN)
	@echo "building promtool $(PROMETHEUS_VERSION) into bin/ (hack/promtool; a few minutes once)"
	cd hack/promtool && go build -trimpath -o $(PROMTOOL) github.com/prometheus/prometheus/cmd/promtool

.PHONY: contracts
contracts: $(ABIGEN) ## Compile contracts/src with the pinned solc-js into contracts/build and generate Go bindings (needs node, npm).
	hack/contracts.sh build $(ABIGEN)

.PHONY: contracts-check
contracts-check: $(ABIGEN) ## Check that the committed ABI, bytecode and bindings are what the sources make.
	hack/contracts.sh check $(ABIGEN)

.PHONY: kubebuilder-check
kubebuilder-check: $(KUBEBUILDER) $(CONTROLLER_GEN) ## Check that the pinned kubebuilder's create api and create webhook extend a copy of the project, and that it builds.
	hack/kubebuilder-check.sh $(KUBEBUILDER) $(CONTROLLER_GEN)

.PHONY: fmt
fmt: ## Format the code.
	go fmt ./...

.PHONY: vet
vet: ## Vet the code.
	go vet ./...

.PHONY: lint
lint: $(GOLANGCI_LINT) ## Lint with golangci-lint (.golangci.yml); what CI runs after make test.
	$(GOLANGCI_LINT) run ./...

.PHONY: lint-fix
lint-fix: $(GOLANGCI_LINT) ## Lint and apply the fixes the linters offer (formatting, misspellings).
	$(GOLANGCI_LINT) run --fix ./...

.PHONY: openapi-lint
openapi-lint: ## Lint the served OpenAPI document with the pinned redocly and spectral (hack/openapi/tools; needs node, npm).
	@mkdir -p $(BIN) && go run ./hack/openapi/dump -o $(BIN)/openapi.json
	cd hack/openapi/tools && npm ci --no-audit --no-fund --loglevel=error && \
	  npx --no-install redocly lint --config $(CURDIR)/redocly.yaml $(BIN)/openapi.json && \
	  npx --no-install spectral lint --ruleset $(CURDIR)/.spectral.yaml --fail-severity=warn $(BIN)/openapi.json

.PHONY: controlplane
controlplane: ## Build kube-apiserver and etcd from source into bin/controlplane (once).
	hack/build-controlplane.sh

.PHONY: test
test: controlplane generate manifests vet $(HELM) ## Unit tests and envtest suites with the race detector (what CI runs).
	@unformatted=$$(gofmt -l api apiserver cmd controllers internal hack test 2>/dev/null); \
	if [[ -n "$$unformatted" ]]; then echo "not gofmt-formatted: $$unformatted"; exit 1; fi
	hack/run-tests.sh $(GO_TEST_FLAGS)

.PHONY: fuzz
fuzz: ## Run every fuzz target for FUZZTIME each (default 2m: long enough to find crashers, about 20 min in all).
	hack/fuzz.sh $(FUZZTIME)

##@ Build and run

.PHONY: build
build: generate ## Build the manager binary and the command line (bin/kubectl-fundshare, bin/fundsharectl).
	go build -ldflags "-X main.version=$(VERSION)" -o $(BIN)/manager ./cmd
	$(MAKE) cli

.PHONY: cli
cli: ## Build the command line: the kubectl plugin bin/kubectl-fundshare and the same program as bin/fundsharectl.
	go build -ldflags "-X github.com/fundshare/fundshare-operator/internal/cli.Version=$(VERSION)" -o $(BIN)/kubectl-fundshare ./cmd/kubectl-fundshare
	go build -ldflags "-X github.com/fundshare/fundshare-operator/internal/cli.Version=$(VERSION)" -o $(BIN)/fundsharectl ./cmd/fundsharectl

.PHONY: run
# Builds only what it runs (CI keeps the generated manifests fresh) and execs the binary, so
# that Ctrl-C reaches it directly and it exits 0 after stopping everything.
run: controlplane ## Start a local control plane, the manager and the REST facade.
	@echo "building the manager and the local chain into bin/devrun (the first time: a few minutes)"
	go build -o $(BIN)/devrun ./cmd/devrun
	exec $(BIN)/devrun $(RUN_ARGS)

.PHONY: clean-local
clean-local: ## Forget the local control plane's data (.local/).
	rm -rf .local

$(CONTROLLER_GEN):
	@mkdir -p $(BIN)
	@echo "installing controller-gen $(CONTROLLER_GEN_VERSION) into bin/"
	GOBIN=$(BIN) go install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_GEN_VERSION)
	mv $(BIN)/controller-gen $(CONTROLLER_GEN)

$(ABIGEN):
	@mkdir -p $(BIN)
	@echo "installing abigen $(GETH_VERSION) into bin/"
	GOBIN=$(BIN)/abigen-install go install github.com/ethereum/go-ethereum/cmd/abigen@$(GETH_VERSION)
	mv $(BIN)/abigen-install/abigen $(ABIGEN)
	rmdir $(BIN)/abigen-install
# kubebuilder is built from source (go install in module mode) at the pinned release.
$(KUBEBUILDER):
	@mkdir -p $(BIN)
	@echo "installing kubebuilder $(KUBEBUILDER_VERSION) into bin/"
	GOBIN=$(BIN)/kubebuilder-install go install sigs.k8s.io/kubebuilder/v4@$(KUBEBUILDER_VERSION)
	mv $(BIN)/kubebuilder-install/kubebuilder $(KUBEBUILDER)
	rmdir $(BIN)/kubebuilder-install
# golangci-lint is built from source with the machine's Go (go install in module mode,
# outside this module's go.mod), so it understands the Go version the code is written in.
$(GOLANGCI_LINT):
	@mkdir -p $(BIN)
	@echo "installing golangci-lint $(GOLANGCI_LINT_VERSION) into bin/ (builds from source, a few minutes once)"
	GOBIN=$(BIN) go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	mv $(BIN)/golangci-lint $(GOLANGCI_LINT)

# helm is built from source (go install in module mode) at the pinned release, with the
# ldflags of helm's own release build: its version, and the Kubernetes version helm
# template and lint assume without a cluster (the minor of the client-go its go.mod
# requires), which would otherwise be v1.20.
HELM_K8S_MINOR ?= 37
$(HELM):
	@mkdir -p $(BIN)
	@echo "installing helm $(HELM_VERSION) into bin/ (builds from source, a few minutes once)"
	GOBIN=$(BIN)/helm-install go install -ldflags "-X helm.sh/helm/v3/internal/version.version=$(HELM_VERSION) \
	  -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$(HELM_K8S_MINOR) \
	  -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$(HELM_K8S_MINOR)" \
	  helm.sh/helm/v3/cmd/helm@$(HELM_VERSION)
	mv $(BIN)/helm-install/helm $(HELM)
	rmdir $(BIN)/helm-install

.PHONY: helm
helm: $(HELM) ## Install the pinned helm into bin/.

# prometheus-operator's ServiceMonitor and PrometheusRule CRDs, which test/helm installs to
# validate the chart's monitoring objects, copied from the pinned module (its example/).
PROMETHEUS_OPERATOR_VERSION ?= v0.90.1
.PHONY: monitoring-crds
monitoring-crds: ## Copy prometheus-operator's ServiceMonitor and PrometheusRule CRDs (pinned module) into hack/test/prometheus-operator-crds.
	@dir=$$(go mod download -json github.com/prometheus-operator/prometheus-operator@$(PROMETHEUS_OPERATOR_VERSION) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	for kind in servicemonitors prometheusrules; do \
	  install -m 0644 "$$dir/example/prometheus-operator-crd/monitoring.coreos.com_$$kind.yaml" hack/test/prometheus-operator-crds/; \
	done

##@ Deploy

IMG ?= fundshare-operator:$(VERSION)
DOCKER ?= docker

.PHONY: build-installer
build-installer: ## Write dist/install.yaml: config/default with the image set to IMG.
	@mkdir -p dist $(BIN)/installer
	@# A throwaway overlay under bin/ sets the image, so no tracked file changes.
	@img='$(IMG)'; name="$$img"; tag=""; digest=""; \
	if [[ "$$img" == *@* ]]; then name="$${img%@*}"; digest="$${img#*@}"; \
	elif [[ "$${img##*/}" == *:* ]]; then name="$${img%:*}"; tag="$${img##*:}"; fi; \
	{ echo "apiVersion: kustomize.config.k8s.io/v1beta1"; echo "kind: Kustomization"; \
	  echo "resources:"; echo "- ../../config/default"; \
	  echo "images:"; echo "- name: controller"; echo "  newName: $$name"; \
	  if [[ -n "$$tag" ]]; then echo "  newTag: \"$$tag\""; fi; \
	  if [[ -n "$$digest" ]]; then echo "  digest: $$digest"; fi; \
	} > $(BIN)/installer/kustomization.yaml
	kubectl kustomize $(BIN)/installer > dist/install.yaml
	@echo "wrote dist/install.yaml (image $(IMG))"

.PHONY: docker-build
docker-build: ## Build the manager image IMG with Docker (needs a Docker engine).
	$(DOCKER) build --build-arg VERSION=$(VERSION) -t $(IMG) .

##@ Performance

.PHONY: bench
bench: controlplane manifests ## Performance harness (not part of make test): read path, scale, pipeline, memory, start-up, a NAV strike of 10,000 orders and its delivery, a secondary window of 10,000 orders matched and a window settled on chain, token endpoint under a flood, transfers indexed, books healed after a 100-block rollback; BENCH_ARGS=-scale for 100,000 orders.
	go run ./hack/bench $(BENCH_ARGS)
	go test -count=1 -run '^$$' -bench 'TokenLatencyUnderFlood' -benchtime 20x -v ./apiserver/auth/
	go test -count=1 -run '^$$' -bench 'DeliveryThroughput' -benchtime 1x -v ./controllers/delivery/
	go test -count=1 -run '^$$' -bench 'StrikeDelivered' -benchtime 1x -timeout 60m -v ./controllers/delivery/
	go test -count=1 -run '^$$' -bench 'WindowOfTenThousandOrders' -benchtime 1x -timeout 60m -v ./controllers/secondary/
	go test -count=1 -run '^$$' -bench 'SecondarySettled' -benchtime 1x -timeout 60m -v ./controllers/delivery/
	go test -count=1 -run '^$$' -bench 'HealAfterRollback' -benchtime 3x -v ./internal/chain/outbox/
	go test -count=1 -run '^$$' -bench 'TransfersIndexed' -benchtime 1x -v ./controllers/transfer/
	go test -count=1 -run '^$$' -bench 'BooksHealedAfterA100BlockRollback' -benchtime 1x -v ./controllers/delivery/
	go test -count=1 -run '^$$' -bench 'StatementPaysWaitingOrders' -benchtime 1x -timeout 30m -v ./controllers/bank/
	go test -count=1 -run '^$$' -bench 'PayoutFile10000' -benchtime 3x -v ./controllers/bank/
	go test -count=1 -run '^$$' -bench '10000' -benchtime 3x -v ./internal/bank/iso20022/ ./internal/bank/reconcile/ ./internal/archive/sqlstore/
