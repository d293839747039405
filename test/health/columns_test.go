package health

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// TestEveryKindPrintsOneNameColumn: kubectl prints the object's name as NAME and each
// printer column's name in capitals, so no column of any kind may be called Name (Fund
// and ShareClass printed two NAME headers), and no two columns of a kind may share a
// header.
func TestEveryKindPrintsOneNameColumn(t *testing.T) {
	for _, crd := range ctrltest.ProjectCRDs(t) {
		for _, v := range crd.Spec.Versions {
			headers := map[string]bool{"NAME": true}
			for _, c := range v.AdditionalPrinterColumns {
				h := strings.ToUpper(c.Name)
				if headers[h] {
					t.Errorf("%s %s prints the header %s twice", crd.Spec.Names.Kind, v.Name, h)
				}
				headers[h] = true
			}
		}
	}
}

// TestAStuckOrderShowsThatItWaitsAndWhyInKubectlGet: the columns of kubectl get orders, as
// the API server renders them (the Table kubectl asks for), tell a held order from one
// that moves in the same state: WAITING True and WHY the reason for the one held (its
// mint refused, e.g. by a frozen wallet), WAITING False for the one moving; the wide view
// shows the amount with its currency.
func TestAStuckOrderShowsThatItWaitsAndWhyInKubectlGet(t *testing.T) {
	ctx := context.Background()
	ns, err := controlplane.NewNamespace(ctx, env.Client, "columns")
	if err != nil {
		t.Fatal(err)
	}
	acct := fixtures.IndividualAccount(ns)
	isin := envtest.NewISIN()
	write := func(waiting *lifecycle.Wait) *investv1.Order {
		t.Helper()
		o := fixtures.BuyOrder(ns, acct.Name, isin, 10)
		if err := env.Client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
		o.Status.State = investv1.StateExecuted
		o.Status.History = []investv1.OrderTransition{{State: investv1.StateExecuted, At: metav1.Now(), Reason: lifecycle.StateReason(investv1.StateExecuted)}}
		lifecycle.SetConditions(o, waiting, nil, "")
		if err := env.Client.Status().Update(ctx, o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	held := write(&lifecycle.Wait{Reason: lifecycle.WaitTokenTransactionRefused, Message: "the token refuses the mint: the wallet is frozen"})
	moving := write(nil)

	table := ordersTable(t, ns)
	col := map[string]int{}
	for i, c := range table.ColumnDefinitions {
		col[c.Name] = i
	}
	for _, name := range []string{"State", "Ready", "Waiting", "Why", "Amount", "Currency"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("kubectl get orders has no %s column: %+v", name, table.ColumnDefinitions)
		}
	}
	if p := table.ColumnDefinitions[col["Currency"]].Priority; p != table.ColumnDefinitions[col["Amount"]].Priority {
		t.Errorf("Currency is shown at priority %d, its Amount at %d: the wide view shows both", p, table.ColumnDefinitions[col["Amount"]].Priority)
	}
	rows := map[string][]any{}
	for _, r := range table.Rows {
		rows[r.Cells[0].(string)] = r.Cells
	}
	cell := func(o *investv1.Order, c string) string {
		t.Helper()
		cells, ok := rows[o.Name]
		if !ok {
			t.Fatalf("no row for order %s", o.Name)
		}
		return fmt.Sprint(cells[col[c]])
	}
	if got := cell(held, "State"); got != string(investv1.StateExecuted) {
		t.Errorf("held order's STATE %q", got)
	}
	if w, why := cell(held, "Waiting"), cell(held, "Why"); w != "True" || why != lifecycle.WaitTokenTransactionRefused {
		t.Errorf("held order: WAITING %q WHY %q, want True %s", w, why, lifecycle.WaitTokenTransactionRefused)
	}
	if w := cell(moving, "Waiting"); w != "False" {
		t.Errorf("moving order: WAITING %q, want False", w)
	}
	if c := cell(moving, "Currency"); c != string(moving.Spec.Currency) || c == "" {
		t.Errorf("CURRENCY %q, want %q", c, moving.Spec.Currency)
	}
}

// ordersTable reads the orders of ns as kubectl get does: the API server's Table.
func ordersTable(t *testing.T, ns string) *metav1.Table {
	t.Helper()
	hc, err := rest.HTTPClientFor(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSuffix(env.Config.Host, "/") + "/apis/" + investv1.GroupVersion.String() + "/namespaces/" + ns + "/orders"
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v\n%s", url, resp.StatusCode, err, body)
	}
	var table metav1.Table
	if err := json.Unmarshal(body, &table); err != nil {
		t.Fatal(err)
	}
	return &table
}
