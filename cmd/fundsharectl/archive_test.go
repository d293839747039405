package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
)

func ordersRun(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"orders"}, args...), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

func archivedOrder(ns, name string, sec int) *investv1.Order {
	at := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC))
	o := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), CreationTimestamp: at}}
	o.Spec = investv1.OrderSpec{Side: investv1.SideBuy, Market: investv1.MarketPrimary, ISIN: "IE00B4L5Y983", AmountOfUnits: 100,
		Currency: "EUR", AccountID: "4d7b3a4e-0c51-4a39-9f45-7b1d2f3c9e10"}
	o.Status.State = investv1.StateCompleted
	o.Status.History = []investv1.OrderTransition{{State: investv1.StateCompleted, At: at, Reason: "Settled"}}
	return o
}

func TestOrdersReadsArchivedOrdersFromTheArchive(t *testing.T) {
	dsn := "sqlite://" + filepath.Join(t.TempDir(), "archive.db")
	st, err := sqlstore.Open(context.Background(), dsn, sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"} {
		if err := st.Put(context.Background(), archivedOrder("acme", name, i), investv1.AccountTypeIndividual); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	out, errOut, code := ordersRun("get", "--archive-dsn", dsn, "--namespace", "acme", "22222222-2222-4222-8222-222222222222")
	if code != 0 {
		t.Fatalf("get: code %d, stderr %s", code, errOut)
	}
	var got investv1.Order
	if err := yaml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("get prints YAML: %v\n%s", err, out)
	}
	if got.Name != "22222222-2222-4222-8222-222222222222" || got.Kind != "Order" || got.Status.State != investv1.StateCompleted {
		t.Fatalf("get printed %+v", got)
	}

	out, errOut, code = ordersRun("list", "--archive-dsn", dsn, "--namespace", "acme", "--limit", "2")
	if code != 0 {
		t.Fatalf("list: code %d, stderr %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "33333333") || !strings.HasPrefix(lines[2], "22222222") {
		t.Fatalf("list, newest first:\n%s", out)
	}
	cursor := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(errOut), "next page: --cursor"))
	if cursor == "" {
		t.Fatalf("no next cursor on stderr: %q", errOut)
	}
	out, _, code = ordersRun("list", "--archive-dsn", dsn, "--namespace", "acme", "--limit", "2", "--cursor", cursor)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[1], "11111111") {
		t.Fatalf("second page:\n%s", out)
	}

	// Tenancy: another namespace sees nothing of acme's.
	if _, errOut, code := ordersRun("get", "--archive-dsn", dsn, "--namespace", "other", "22222222-2222-4222-8222-222222222222"); code != 1 || !strings.Contains(errOut, "not in the archive") {
		t.Fatalf("another namespace: code %d, %s", code, errOut)
	}
	if _, _, code := ordersRun("get", "--namespace", "acme", "x"); code != 2 {
		t.Fatalf("without --archive-dsn: code %d, want 2", code)
	}
}
