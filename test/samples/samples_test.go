package samples

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/kubectl"
)

var (
	root  = controlplane.Root()
	suite kubectl.Suite
)

// TestMain starts one control plane with the project's CRDs and webhook configurations,
// an admin kubeconfig for kubectl, and the production manager (admission webhooks and
// controllers) serving them.
func TestMain(m *testing.M) {
	mo := apptest.Manager(apptest.WebhooksAndControllers)
	os.Exit(kubectl.Main(m, &suite, "it applies config/samples with `kubectl apply -k`", "samples-test-admin", envtest.Options{
		Webhooks: true, Manager: &mo,
	}))
}

// agentOwned are the kinds only the operator creates (no person should): they have no
// sample. DeliveryBatch is the chain agent's record of one batchMint transaction; Transfer is
// the transfer indexer's record of one side of a holder-to-holder transfer on chain; a
// Dealing is the strike controller's record of one dealing date of a forward-priced class; a
// MatchingWindow is the window controller's record of one matching window of a secondary
// market.
var agentOwned = map[string]bool{"DeliveryBatch": true, "Transfer": true, "Dealing": true, "MatchingWindow": true}

// needsChain are the kinds whose admission needs the chain's state, which this suite has
// not: a WalletRecovery is admitted only to a wallet Registered in the identity registry.
// They have no sample; docs/tokens.md ("Lost-key recovery") shows one, tested by the token
// suite against the local chain.
var needsChain = map[string]bool{"WalletRecovery": true}

func noSample(kind string) bool { return agentOwned[kind] || needsChain[kind] }

// TestSamplesHoldOneSamplePerKind: config/samples has invest_v1alpha1_<kind>.yaml for
// every kind of PROJECT but the agent-owned ones, holding an object of that kind, and
// kustomization.yaml lists every sample file (catalogue.yaml, the larger catalogue of
// `make run`, is applied on its own).
func TestSamplesHoldOneSamplePerKind(t *testing.T) {
	dir := filepath.Join(root, "config", "samples")
	var kustomization struct {
		Resources []string `json:"resources"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &kustomization); err != nil {
		t.Fatal(err)
	}
	for _, r := range readProject(t).Resources {
		file := sampleFile(r.Kind)
		data, err := os.ReadFile(filepath.Join(dir, file))
		if noSample(r.Kind) {
			if err == nil {
				t.Errorf("config/samples/%s: %s has no sample (created by the operator only, or admitted only against a chain)", file, r.Kind)
			}
			continue
		}
		if err != nil {
			t.Errorf("no sample for %s: %v", r.Kind, err)
			continue
		}
		if !slices.ContainsFunc(kubectl.Decode(t, data), func(u *unstructured.Unstructured) bool { return u.GetKind() == r.Kind }) {
			t.Errorf("config/samples/%s holds no %s", file, r.Kind)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if name != "kustomization.yaml" && name != "catalogue.yaml" && !slices.Contains(kustomization.Resources, name) {
			t.Errorf("config/samples/kustomization.yaml does not list %s", name)
		}
	}
}

// TestEverySampleIsAcceptedByTheAPIServer applies config/samples as its kustomization
// documents (`kubectl apply -k config/samples`, in one pass) through the admission
// webhooks, checks that every object is stored, and that applying again (as a GitOps tool
// does on every sync) is accepted too. The sample catalogue of `make run` is applied the
// same way.
func TestEverySampleIsAcceptedByTheAPIServer(t *testing.T) {
	built, err := suite.Output(t, "kustomize", "config/samples")
	if err != nil {
		t.Fatal(err)
	}
	objs := kubectl.Decode(t, built)
	if _, err := suite.Output(t, "apply", "-k", "config/samples"); err != nil {
		t.Fatalf("the samples were refused: %v", err)
	}
	ctx := context.Background()
	kinds := map[string]bool{}
	for _, o := range objs {
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(o.GroupVersionKind())
		if err := suite.Env.Client.Get(ctx, client.ObjectKeyFromObject(o), got); err != nil {
			t.Errorf("%s %s/%s not stored: %v", o.GetKind(), o.GetNamespace(), o.GetName(), err)
		}
		kinds[o.GetKind()] = true
	}
	for _, r := range readProject(t).Resources {
		if !kinds[r.Kind] && !noSample(r.Kind) {
			t.Errorf("kubectl kustomize config/samples has no %s", r.Kind)
		}
	}

	// The order was priced at admission from the sample NAV (101.20 EUR) with the tenant's
	// offering (0.5%): 20 units.
	order := &investv1.Order{}
	if err := suite.Env.Client.Get(ctx, client.ObjectKey{Namespace: "fundshare-sample", Name: "c43aa377-8061-4e12-b3c4-a74e96c0f7d0"}, order); err != nil {
		t.Fatal(err)
	}
	q := order.Spec.Quote
	if q == nil {
		t.Fatal("the sample order has no quote: the order webhook did not price it")
	}
	if q.NAVPerShare != 1_012_000 || q.GrossValue != 20_240_000 || q.FeeSource != investv1.FeeSourceOffering ||
		q.FeeRate != 50 || q.FeeAmount != 101_200 || q.Amount != 20_240_000 {
		t.Errorf("sample order quote %+v, want NAV 1012000, gross 20240000, OFFERING fee 50 = 101200, amount 20240000", *q)
	}

	if _, err := suite.Output(t, "apply", "-k", "config/samples"); err != nil {
		t.Errorf("applying the samples again was refused: %v", err)
	}
	if _, err := suite.Output(t, "apply", "-f", "config/samples/catalogue.yaml"); err != nil {
		t.Errorf("the sample catalogue was refused: %v", err)
	}
}
