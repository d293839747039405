package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
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

func TestAMistypedSqlitePathIsAnErrorAndCreatesNoFile(t *testing.T) {
	dir := t.TempDir()
	mistyped := filepath.Join(dir, "archiv.db")
	for _, verb := range [][]string{{"list"}, {"get", "22222222-2222-4222-8222-222222222222"}} {
		args := append([]string{verb[0], "--archive-dsn", "sqlite://" + mistyped, "-n", "acme"}, verb[1:]...)
		stdout, stderr, code := ordersRun(args...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, mistyped) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("orders %s on a missing file: code %d, stdout %q, stderr %q; want 1 and one line naming the path", verb[0], code, stdout, stderr)
		}
	}
	// Nor in a directory that does not exist.
	if _, _, code := ordersRun("list", "--archive-dsn", "sqlite://"+filepath.Join(dir, "nope", "archive.db"), "-n", "acme"); code != 1 {
		t.Errorf("missing directory: code %d", code)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("reading created %s", e.Name())
	}
}

func TestReadingTheArchiveWritesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "archive.db")
	st, err := sqlstore.Open(context.Background(), "sqlite://"+path, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(context.Background(), archivedOrder("acme", "11111111-1111-4111-8111-111111111111", 0), investv1.AccountTypeIndividual); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	// A file the reader cannot write (unless root): opening it for writing would fail.
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := ordersRun("list", "--archive-dsn", "sqlite://"+path, "-n", "acme", "-o", "json")
	if code != 0 {
		t.Fatalf("list of a read-only file: code %d, %s", code, errOut)
	}
	var list struct {
		Kind  string           `json:"kind"`
		Items []investv1.Order `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || list.Kind != "OrderList" || len(list.Items) != 1 ||
		list.Items[0].Kind != "Order" || list.Items[0].Status.State != investv1.StateCompleted {
		t.Fatalf("-o json: %v\n%s", err, out)
	}
	// SQLite's shared-memory index of a WAL database may appear; the database and its
	// log hold nothing new.
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("reading changed the database file (%v)", err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("reading wrote %d bytes to the write-ahead log", fi.Size())
	}
}
