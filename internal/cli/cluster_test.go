package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// env is one real kube-apiserver for the package's tests, with an administrator's
// kubeconfig (env.Kubeconfig) that the commands are given as a user gives kubectl one.
var env *envtest.Environment

func TestMain(m *testing.M) {
	var err error
	if env, err = envtest.New(envtest.Options{KubeconfigUser: "fundshare-admin"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if err := env.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// kubectl runs `kubectl fundshare args... --kubeconfig <the admin's>`.
func kubectl(args ...string) (string, string, int) {
	return plugin(append(args, "--kubeconfig", env.Kubeconfig)...)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// newShareClass creates an open fund and a share class of it, and returns both.
func newShareClass(t *testing.T) (*investv1.Fund, *investv1.ShareClass) {
	t.Helper()
	fund := fixtures.Fund()
	must(t, env.Client.Create(context.Background(), fund))
	sc := fixtures.ShareClass(fund.Name, envtest.NewISIN())
	must(t, env.Client.Create(context.Background(), sc))
	return fund, sc
}

func TestPublishNAVAppendsAPriceAndRefusesAChangedOne(t *testing.T) {
	ctx := context.Background()
	_, sc := newShareClass(t)
	isin := string(sc.Spec.ISIN)
	key := client.ObjectKey{Name: strings.ToLower(isin)}

	out, errOut, code := kubectl("nav", "publish", "--isin", isin, "--date", "2026-03-31", "--nav", "1000000")
	if code != 0 || !strings.Contains(out, "created") {
		t.Fatalf("first price: code %d, %q, %q", code, out, errOut)
	}
	out, errOut, code = kubectl("nav", "publish", "--isin", isin, "--date", "2026-04-30", "--nav", "1050000")
	if code != 0 || !strings.Contains(out, "105.0000 EUR") || !strings.Contains(out, "+5.00%") {
		t.Fatalf("second price: code %d, %q, %q", code, out, errOut)
	}
	// Published out of order, a price lands by its date.
	if _, errOut, code := kubectl("nav", "publish", "--isin", isin, "--date", "2026-02-28", "--nav", "990000"); code != 0 {
		t.Fatalf("earlier price: code %d, %q", code, errOut)
	}
	h := &investv1.NAVHistory{}
	must(t, env.Client.Get(ctx, key, h))
	want := []investv1.NAVPrice{{Date: "2026-02-28", NAVPerShare: 990000}, {Date: "2026-03-31", NAVPerShare: 1000000}, {Date: "2026-04-30", NAVPerShare: 1050000, ChangePercentage: 500}}
	if h.Spec.Currency != sc.Spec.Currency || fmt.Sprint(h.Spec.Prices) != fmt.Sprint(want) {
		t.Fatalf("NAVHistory %s %v, want %s %v", h.Spec.Currency, h.Spec.Prices, sc.Spec.Currency, want)
	}

	// The same price again changes nothing.
	rv := h.ResourceVersion
	if out, _, code := kubectl("nav", "publish", "--isin", isin, "--date", "2026-04-30", "--nav", "1050000"); code != 0 || !strings.Contains(out, "unchanged") {
		t.Fatalf("same price: code %d, %q", code, out)
	}
	// Another price for a date that has one is refused, in one line, and nothing is written.
	out, errOut, code = kubectl("nav", "publish", "--isin", isin, "--date", "2026-04-30", "--nav", "1060000")
	if code != 1 || out != "" || !strings.Contains(errOut, "refusing") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("changed price: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	must(t, env.Client.Get(ctx, key, h))
	if h.ResourceVersion != rv {
		t.Errorf("the NAVHistory was written (resourceVersion %s, was %s)", h.ResourceVersion, rv)
	}

	if _, errOut, code := kubectl("nav", "publish", "--isin", envtest.NewISIN(), "--date", "2026-04-30", "--nav", "1"); code != 1 || !strings.Contains(errOut, "no share class") {
		t.Errorf("unknown ISIN: code %d, %q", code, errOut)
	}
}

func TestGateHoldsSellsAndUngateLiftsIt(t *testing.T) {
	ctx := context.Background()
	fund, sc := newShareClass(t)
	key := client.ObjectKeyFromObject(fund)

	out, errOut, code := kubectl("gate", "--isin", string(sc.Spec.ISIN), "--reason", "quarterly liquidity review", "--until", "2026-12-01T00:00:00Z")
	if code != 0 || !strings.Contains(out, "closed") || !strings.Contains(out, "was open") {
		t.Fatalf("gate: code %d, %q, %q", code, out, errOut)
	}
	got := &investv1.Fund{}
	must(t, env.Client.Get(ctx, key, got))
	g := got.Spec.RedemptionGate
	if g == nil || !g.Active || g.Reason != "quarterly liquidity review" || g.Until == nil || !g.Until.Equal(&metav1.Time{Time: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}) {
		t.Fatalf("gate written: %+v", g)
	}
	if !got.Spec.Redeemable || got.Spec.Name != fund.Spec.Name {
		t.Errorf("gate changed other fields of the fund: %+v", got.Spec)
	}
	if out, _, code := kubectl("gate", "--fund", fund.Name, "--reason", "quarterly liquidity review", "--until", "2026-12-01T00:00:00Z"); code != 0 || !strings.Contains(out, "unchanged") {
		t.Errorf("gate again: code %d, %q", code, out)
	}

	out, errOut, code = kubectl("ungate", "--fund", fund.Name)
	if code != 0 || !strings.Contains(out, "open (was closed") {
		t.Fatalf("ungate: code %d, %q, %q", code, out, errOut)
	}
	must(t, env.Client.Get(ctx, key, got))
	if got.Spec.RedemptionGate != nil {
		t.Fatalf("ungate left %+v", got.Spec.RedemptionGate)
	}

	for _, args := range [][]string{{"gate", "--reason", "x"}, {"gate", "--fund", fund.Name, "--isin", "XS0000000001", "--reason", "x"}, {"gate", "--fund", fund.Name}, {"gate", "--fund", fund.Name, "--reason", "x", "--until", "tomorrow"}} {
		if _, _, code := kubectl(args...); code != 2 {
			t.Errorf("%q: code %d, want 2", args, code)
		}
	}
	if _, errOut, code := kubectl("ungate", "--fund", uuid.NewString()); code != 1 || !strings.Contains(errOut, "not found") {
		t.Errorf("unknown fund: code %d, %q", code, errOut)
	}
}

// kubeconfigWithNamespace is the admin's kubeconfig with its current context's namespace
// set to ns, as `kubectl config set-context --current --namespace ns` leaves it.
func kubeconfigWithNamespace(t *testing.T, ns string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(env.Kubeconfig)
	must(t, err)
	cfg.Contexts[cfg.CurrentContext].Namespace = ns
	path := filepath.Join(t.TempDir(), "kubeconfig")
	must(t, clientcmd.WriteToFile(*cfg, path))
	return path
}

func TestNamespaceDefaultsToTheKubeconfigContext(t *testing.T) {
	ctx := context.Background()
	ns, err := controlplane.NewNamespace(ctx, env.Client, "cli")
	must(t, err)
	other, err := controlplane.NewNamespace(ctx, env.Client, "cli")
	must(t, err)
	kubeconfig := kubeconfigWithNamespace(t, ns)
	account, from, to := uuid.NewString(), uuid.NewString(), uuid.NewString()

	out, errOut, code := plugin("wallet", "recover", "--account", account, "--from", from, "--to", to, "--kubeconfig", kubeconfig)
	if code != 0 || !strings.Contains(out, "created in "+ns) {
		t.Fatalf("recover: code %d, %q, %q", code, out, errOut)
	}
	rec := &investv1.WalletRecovery{}
	must(t, env.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: from}, rec))
	if rec.Spec != (investv1.WalletRecoverySpec{AccountID: investv1.ObjectID(account), FromWalletID: investv1.ObjectID(from), ToWalletID: investv1.ObjectID(to)}) {
		t.Errorf("recovery spec %+v", rec.Spec)
	}
	// A second recovery of the wallet is refused, the first kept.
	if _, errOut, code := plugin("wallet", "recover", "--account", account, "--from", from, "--to", uuid.NewString(), "--kubeconfig", kubeconfig); code != 1 || !strings.Contains(errOut, "already has a recovery") {
		t.Errorf("second recovery: code %d, %q", code, errOut)
	}
	// -n wins over the context.
	from2 := uuid.NewString()
	if _, errOut, code := plugin("wallet", "recover", "-n", other, "--account", account, "--from", from2, "--to", to, "--kubeconfig", kubeconfig); code != 0 {
		t.Fatalf("recover -n: code %d, %q", code, errOut)
	}
	must(t, env.Client.Get(ctx, client.ObjectKey{Namespace: other, Name: from2}, rec))

	// The archive's -n defaults the same way: the namespace asked for is the context's.
	dsn := "sqlite://" + filepath.Join(t.TempDir(), "archive.db")
	if _, errOut, code := plugin("orders", "list", "--archive-dsn", dsn, "--kubeconfig", kubeconfig); code != 1 || !strings.Contains(errOut, "no order archive") {
		t.Errorf("orders list without -n: code %d, %q (want the archive's error, not a missing namespace)", code, errOut)
	}
}

func TestOutputJSONIsWhatTheAPIServerHolds(t *testing.T) {
	ctx := context.Background()
	isin := envtest.NewISIN()
	var want []investv1.Dealing
	for _, date := range []string{"2026-05-29", "2026-04-30"} {
		d := &investv1.Dealing{ObjectMeta: metav1.ObjectMeta{Name: strings.ToLower(isin) + "-" + date},
			Spec: investv1.DealingSpec{ISIN: investv1.ISIN(isin), Date: date}}
		must(t, env.Client.Create(ctx, d))
		cutOff := metav1.NewTime(time.Date(2026, 4, 28, 12, 0, 0, 0, time.UTC))
		d.Status = investv1.DealingProgress{Phase: investv1.DealingOpen, SubscriptionCutOff: &cutOff, Orders: 3, Priced: 1}
		must(t, env.Client.Status().Update(ctx, d))
		fresh := investv1.Dealing{}
		must(t, env.Client.Get(ctx, client.ObjectKeyFromObject(d), &fresh))
		fresh.SetGroupVersionKind(investv1.GroupVersion.WithKind("Dealing"))
		want = append([]investv1.Dealing{fresh}, want...) // by date
	}
	wantJSON, err := json.Marshal(want)
	must(t, err)

	for _, format := range []string{"json", "yaml"} {
		out, errOut, code := kubectl("dealings", "list", "--isin", isin, "-o", format)
		if code != 0 {
			t.Fatalf("-o %s: code %d, %q", format, code, errOut)
		}
		var got struct {
			APIVersion string            `json:"apiVersion"`
			Kind       string            `json:"kind"`
			Items      []json.RawMessage `json:"items"`
		}
		if err := yaml.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("-o %s does not parse: %v\n%s", format, err, out)
		}
		itemsJSON, err := json.Marshal(got.Items)
		must(t, err)
		var a, b any
		must(t, json.Unmarshal(itemsJSON, &a))
		must(t, json.Unmarshal(wantJSON, &b))
		if got.APIVersion != "invest.fundshare.io/v1alpha1" || got.Kind != "DealingList" || !jsonEqual(a, b) {
			t.Errorf("-o %s printed %s %s\n%s\nthe API server holds\n%s", format, got.APIVersion, got.Kind, itemsJSON, wantJSON)
		}
	}

	out, _, code := kubectl("dealings", "list", "--isin", isin)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(lines[1], "2026-04-30") ||
		!strings.Contains(lines[1], "Open") || !strings.Contains(lines[1], "2026-04-28T12:00:00Z") {
		t.Errorf("table:\n%s", out)
	}
	if out, _, code := kubectl("dealings", "list", "--isin", isin, "--phase", "Struck"); code != 0 || strings.Count(out, "\n") != 1 {
		t.Errorf("--phase Struck lists:\n%s", out)
	}
}

func TestWindowsListShowsThePublishedResultAndOutputJSONIsWhatTheAPIServerHolds(t *testing.T) {
	ctx := context.Background()
	isin := envtest.NewISIN()
	var want []investv1.MatchingWindow
	for _, date := range []string{"2026-05-29", "2026-05-22"} {
		w := &investv1.MatchingWindow{ObjectMeta: metav1.ObjectMeta{Name: strings.ToLower(isin) + "-" + date},
			Spec: investv1.MatchingWindowSpec{ISIN: investv1.ISIN(isin), Date: date}}
		must(t, env.Client.Create(ctx, w))
		deadline := metav1.NewTime(time.Date(2026, 5, 21, 10, 0, 0, 0, time.UTC))
		w.Status = investv1.MatchingWindowStatus{Phase: investv1.WindowOpen, Deadline: &deadline}
		if date == "2026-05-22" {
			w.Status.Phase, w.Status.MatchedAt = investv1.WindowMatched, &deadline
			w.Status.NAV = &investv1.DealingNAV{NAVPerShare: 1_000_000, Date: "2026-05-21", RecordedAt: deadline}
			w.Status.Book = []string{"BUY 120 0 tenant-a/order-1", "SELL 80 0 tenant-b/order-2"}
			w.Status.Result = &investv1.MatchingWindowResult{BuyPrice: 1_005_000, SellPrice: 995_000, VolumeUnits: 80,
				BuyFillBasisPoints: 6666, SellFillBasisPoints: 10_000, BuyOrders: 1, SellOrders: 1, BuyUnits: 120, SellUnits: 80}
		}
		must(t, env.Client.Status().Update(ctx, w))
		fresh := investv1.MatchingWindow{}
		must(t, env.Client.Get(ctx, client.ObjectKeyFromObject(w), &fresh))
		fresh.SetGroupVersionKind(investv1.GroupVersion.WithKind("MatchingWindow"))
		want = append([]investv1.MatchingWindow{fresh}, want...) // by date
	}
	wantJSON, err := json.Marshal(want)
	must(t, err)

	for _, format := range []string{"json", "yaml"} {
		out, errOut, code := kubectl("windows", "list", "--isin", isin, "-o", format)
		if code != 0 {
			t.Fatalf("-o %s: code %d, %q", format, code, errOut)
		}
		var got struct {
			APIVersion string            `json:"apiVersion"`
			Kind       string            `json:"kind"`
			Items      []json.RawMessage `json:"items"`
		}
		if err := yaml.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("-o %s does not parse: %v\n%s", format, err, out)
		}
		itemsJSON, err := json.Marshal(got.Items)
		must(t, err)
		var a, b any
		must(t, json.Unmarshal(itemsJSON, &a))
		must(t, json.Unmarshal(wantJSON, &b))
		if got.APIVersion != "invest.fundshare.io/v1alpha1" || got.Kind != "MatchingWindowList" || !jsonEqual(a, b) {
			t.Errorf("-o %s printed %s %s\n%s\nthe API server holds\n%s", format, got.APIVersion, got.Kind, itemsJSON, wantJSON)
		}
	}

	out, _, code := kubectl("windows", "list", "--isin", isin)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("table (code %d):\n%s", code, out)
	}
	if h := strings.Fields(lines[0]); strings.Join(h, " ") != "NAME ISIN DATE DEADLINE PHASE BUY PRICE SELL PRICE VOLUME BUY FILL SELL FILL" {
		t.Errorf("header %q", lines[0])
	}
	matched := strings.Fields(lines[1])
	if !slices.Equal(matched[2:], []string{"2026-05-22", "2026-05-21T10:00:00Z", "Matched", "100.5000", "99.5000", "80", "6666", "10000"}) {
		t.Errorf("matched window row %q", lines[1])
	}
	open := strings.Fields(lines[2])
	if !slices.Equal(open[2:], []string{"2026-05-29", "2026-05-21T10:00:00Z", "Open", "-", "-", "-", "-", "-"}) {
		t.Errorf("open window row %q", lines[2])
	}
	if strings.Contains(out, "tenant-a") || strings.Contains(out, "order-1") {
		t.Errorf("the table shows the book:\n%s", out)
	}
	if out, _, code := kubectl("windows", "list", "--isin", isin, "--phase", "Settled"); code != 0 || strings.Count(out, "\n") != 1 {
		t.Errorf("--phase Settled lists:\n%s", out)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestAnUnreachableClusterIsOneLineAndExitOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	must(t, os.WriteFile(path, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`), 0o600))
	_, errOut, code := plugin("dealings", "list", "--kubeconfig", path)
	if code != 1 || strings.Count(errOut, "\n") != 1 {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := plugin("dealings", "list", "--kubeconfig", path, "--context", "nope"); code != 1 || !strings.Contains(errOut, "nope") {
		t.Errorf("unknown --context: code %d, %q", code, errOut)
	}
}
