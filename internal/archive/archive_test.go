package archive

import (
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func TestParseDSN(t *testing.T) {
	for _, tc := range []struct {
		in      string
		backend Backend
		path    string
		shown   string
	}{
		{"sqlite:///var/lib/fundshare/archive.db", BackendSQLite, "/var/lib/fundshare/archive.db", "sqlite:///var/lib/fundshare/archive.db"},
		{"sqlite://.local/archive.db", BackendSQLite, ".local/archive.db", "sqlite://.local/archive.db"},
		{"postgres://archive:pw@db.internal:5432/fundshare?sslmode=verify-full", BackendPostgres, "",
			"postgres://archive:xxxxx@db.internal:5432/fundshare?sslmode=verify-full"},
		{"postgresql://archive@db:5432/fundshare", BackendPostgres, "", "postgresql://archive@db:5432/fundshare"},
		{"postgres://db:5432/fundshare?user=archive&password=pw", BackendPostgres, "",
			"postgres://db:5432/fundshare?password=xxxxx&user=archive"},
	} {
		d, err := ParseDSN(tc.in)
		if err != nil {
			t.Errorf("ParseDSN(%q): %v", tc.in, err)
			continue
		}
		if d.Backend != tc.backend || d.Path != tc.path || d.String() != tc.shown {
			t.Errorf("ParseDSN(%q) = %+v shown as %q; want %s %q shown as %q", tc.in, d, d.String(), tc.backend, tc.path, tc.shown)
		}
	}
}

func TestParseDSNRefusesOtherValuesWithoutRepeatingThem(t *testing.T) {
	for _, in := range []string{"", "archive.db", "mysql://u:hunter2@h/db", "sqlite://", "sqlite:///a.db?mode=ro",
		"postgres://u:hunter2@/db", "postgres://u:hunter2@%zz/db", "file:///tmp/a.db"} {
		_, err := ParseDSN(in)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseDSN(%q): got %v, want ErrInvalid", in, err)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseDSN(%q): the error shows the password: %v", in, err)
		}
	}
}

func TestRedactURLHidesEveryPassword(t *testing.T) {
	for _, in := range []string{"postgres://u:hunter2@h/db", "postgres://h/db?password=hunter2", "postgres://u:hunter2@h/db?password=hunter2",
		"postgres://u:hun%40ter2@h/db", "::not a url hunter2"} {
		if out := RedactURL(in); strings.Contains(out, "hunter2") || strings.Contains(out, "hun%40ter2") {
			t.Errorf("RedactURL(%q) = %q shows the password", in, out)
		}
	}
}

func TestBindDSNFlag(t *testing.T) {
	fs := flag.NewFlagSet("manager", flag.ContinueOnError)
	v := BindDSNFlag(fs, "sqlite://.local/archive.db")
	if *v != "sqlite://.local/archive.db" {
		t.Fatalf("default %q", *v)
	}
	if err := fs.Parse([]string{"--archive-dsn", "postgres://h/db"}); err != nil || *v != "postgres://h/db" {
		t.Fatalf("--archive-dsn: %q, %v", *v, err)
	}
}

func TestCursorRoundTripsAndRefusesOthers(t *testing.T) {
	for _, p := range []Position{
		{Created: time.Unix(1_760_000_000, 0).UTC(), ID: "123e4567-e89b-42d3-a456-426614174000"},
		{Created: time.Unix(0, 0).UTC(), ID: "a.b.c"},
		{Created: time.Unix(-5, 0).UTC(), ID: "東京"},
	} {
		got, err := DecodeCursor(EncodeCursor(p))
		if err != nil || !got.Created.Equal(p.Created) || got.ID != p.ID {
			t.Errorf("cursor of %+v decodes to %+v, %v", p, got, err)
		}
	}
	// Sub-second parts are not part of a position (the orders' times are whole seconds).
	got, _ := DecodeCursor(EncodeCursor(Position{Created: time.Unix(10, 999_999_999), ID: "x"}))
	if got.Created.Unix() != 10 {
		t.Errorf("sub-second position decodes to %v", got.Created)
	}
	for _, c := range []string{"", "x", "YTEuMTIzLg", "YjEuMTIzLmFi", "YTEuYWJjLmFi", "YTEuMTIz", "a1.1.x"} {
		if _, err := DecodeCursor(c); !errors.Is(err, ErrInvalid) {
			t.Errorf("DecodeCursor(%q): got %v, want ErrInvalid", c, err)
		}
	}
}

func TestPositionAfterIsNewestFirstWithTiesByIDDescending(t *testing.T) {
	p := Position{Created: time.Unix(100, 0), ID: "m"}
	for _, tc := range []struct {
		created int64
		id      string
		after   bool
	}{
		{99, "z", true}, {100, "l", true}, {100, "m", false}, {100, "n", false}, {101, "a", false}, {100, "M", true},
	} {
		if got := p.After(time.Unix(tc.created, 500), tc.id); got != tc.after {
			t.Errorf("(%d, %q) after %+v = %v, want %v", tc.created, tc.id, p, got, tc.after)
		}
	}
}

func TestColumnsOf(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Namespace: "t", Name: "n", UID: "u", CreationTimestamp: metav1.NewTime(created)},
		Spec: investv1.OrderSpec{Side: investv1.SideSell, Market: investv1.MarketSecondary, ISIN: "LU0000000001", AmountOfUnits: 7,
			Currency: "EUR", AccountID: "acct", WalletID: "w-spec", Quote: &investv1.OrderQuote{PaymentMethodDetailsID: "p-quote"}},
		Status: investv1.OrderStatus{State: investv1.StateCancelled, History: []investv1.OrderTransition{
			{State: investv1.StatePlaced, At: metav1.NewTime(created)},
			{State: investv1.StateCancelled, At: metav1.NewTime(created.Add(time.Hour))},
		}},
	}
	c, err := ColumnsOf(o, investv1.AccountTypeBusiness)
	if err != nil {
		t.Fatal(err)
	}
	want := Columns{UID: "u", Namespace: "t", Name: "n", AccountID: "acct", AccountType: "business", ISIN: "LU0000000001",
		Side: "SELL", Market: "SECONDARY", Currency: "EUR", State: "CANCELLED", WalletID: "w-spec", PaymentMethodDetailsID: "p-quote",
		Units: 7, Created: created.Truncate(time.Second), Terminal: created.Add(time.Hour).Truncate(time.Second)}
	if c != want {
		t.Fatalf("ColumnsOf:\n got  %+v\n want %+v", c, want)
	}
	o.Status.History = nil
	if c, _ := ColumnsOf(o, ""); !c.Terminal.Equal(c.Created) {
		t.Fatalf("without history the terminal time is %v, want the creation time", c.Terminal)
	}
	o.Status.State = investv1.StateExecuted
	if _, err := ColumnsOf(o, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a live order: got %v, want ErrInvalid", err)
	}
}

func TestConflictErrorIsErrConflict(t *testing.T) {
	var err error = &ConflictError{UID: "u", Namespace: "t", Name: "n", ExistingUID: "v", Reason: "r"}
	if !errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "t/n") {
		t.Fatalf("%v", err)
	}
}
