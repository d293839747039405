package ordercache

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// settledOrder walks a priced BUY through its lifecycle with the order controller's own
// decision function, recording evidence as the settlement agent would, until stop.
func settledOrder(t *testing.T, ns, account, hash string, stop investv1.OrderState) *investv1.Order {
	t.Helper()
	o := fixtures.BuyOrder(ns, account, "LU0000000001", 10)
	o.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "fundshare-operator", Operation: metav1.ManagedFieldsOperationUpdate}}
	o.Spec.WalletID = "7b0c6a52-6d0e-4c36-9a43-1f6f3f5e8a10"
	o.Spec.Quote = &investv1.OrderQuote{
		NAVPerShare: 10_000, NAVDate: "2026-11-20", GrossValue: 100_000, NetAmount: 100_000, Amount: 100_000,
		FeeSource: investv1.FeeSourceDefault, WalletID: o.Spec.WalletID,
		FundDetails:    investv1.OrderFundDetails{ISIN: "LU0000000001", FundID: "0b8f4a4e-2f7d-4f57-8f4e-6b1d8c9c0a01", FundName: "Feeder One", ShareClassID: "5c9d3e1a-0f59-4a1e-9f3b-2a6c1d7e8b02", ShareClassName: "A EUR"},
		PaymentDetails: &investv1.OrderPaymentDetails{AccountHolderName: "Fund Custodian", IBAN: "DE89370400440532013000", PaymentReference: "FS-" + o.Name[:8]},
	}
	at := metav1.Now()
	facts := lifecycle.Facts{FundFound: true, Subscribable: true, Redeemable: true, Tradeable: true, Priced: true, Now: at.Time}
	for o.Status.State != stop {
		d := lifecycle.Next(o, facts)
		switch {
		case d.Transition != nil:
			o.Status.History = append(o.Status.History, investv1.OrderTransition{State: d.Transition.To, At: at, Reason: d.Transition.Reason, Message: d.Transition.Message})
			o.Status.State = d.Transition.To
			ready := metav1.ConditionTrue
			if d.Transition.To == investv1.StateCancelled {
				ready = metav1.ConditionFalse
			}
			meta.SetStatusCondition(&o.Status.Conditions, metav1.Condition{Type: investv1.ConditionReady, Status: ready, Reason: d.Transition.Reason, Message: "the order is " + string(d.Transition.To)})
		case o.Status.State == investv1.StateAwaitingPayment:
			o.Status.Settlement.PaymentReceived = &investv1.SettlementRecord{Reference: "FS-" + o.Name[:8], At: at, RecordedBy: "sandbox"}
		case o.Status.State == investv1.StateExecuted:
			o.Status.Settlement.DeliveryInitiated = &investv1.SettlementRecord{TransactionHash: hash, At: at, RecordedBy: "sandbox"}
		case o.Status.State == investv1.StateDeliveryInitiated:
			o.Status.Settlement.DeliveryCompleted = &investv1.SettlementRecord{TransactionHash: strings.Clone(hash), At: at, RecordedBy: "sandbox"}
		default:
			t.Fatalf("order stuck in %q: %+v", o.Status.State, d.Wait)
		}
	}
	return o
}

const testHash = "0x5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7"

// TestCompactOrderKeepsWhatTheProcessReads: the transform changes no value anything in
// the process reads: only managedFields go, and the conditions of terminal orders.
func TestCompactOrderKeepsWhatTheProcessReads(t *testing.T) {
	for _, state := range []investv1.OrderState{investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StateExecuted, investv1.StateDeliveryInitiated, investv1.StateCompleted} {
		t.Run(string(state), func(t *testing.T) {
			o := settledOrder(t, "tenant-a", "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b", testHash, state)
			want := o.DeepCopy()
			want.ManagedFields = nil
			if state.Terminal() {
				want.Status.Conditions = nil
			}
			got, err := CompactOrder(o)
			if err != nil {
				t.Fatal(err)
			}
			if !equality.Semantic.DeepEqual(got, want) {
				t.Fatalf("transformed order differs:\n got %+v\nwant %+v", got, want)
			}
			if !state.Terminal() && len(got.(*investv1.Order).Status.Conditions) == 0 {
				t.Fatal("a live order lost its conditions, which the order controller compares before writing")
			}
		})
	}
}

// TestCompactOrderSharesStrings: values many orders carry are held once.
func TestCompactOrderSharesStrings(t *testing.T) {
	account := "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b"
	// Decoded, as the cache gets them: equal values in distinct memory.
	decoded := func() *investv1.Order {
		raw, err := json.Marshal(settledOrder(t, "tenant-a", account, testHash, investv1.StateCompleted))
		if err != nil {
			t.Fatal(err)
		}
		o := &investv1.Order{}
		if err := json.Unmarshal(raw, o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	a, b := decoded(), decoded()
	if _, err := CompactOrder(a); err != nil {
		t.Fatal(err)
	}
	if _, err := CompactOrder(b); err != nil {
		t.Fatal(err)
	}
	same := func(what string, x, y string) {
		t.Helper()
		if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s is held twice (%q, %q)", what, x, y)
		}
	}
	same("namespace", a.Namespace, b.Namespace)
	same("account", string(a.Spec.AccountID), string(b.Spec.AccountID))
	same("fund name", a.Spec.Quote.FundDetails.FundName, b.Spec.Quote.FundDetails.FundName)
	same("IBAN", a.Spec.Quote.PaymentDetails.IBAN, b.Spec.Quote.PaymentDetails.IBAN)
	last := len(a.Status.History) - 1
	same("settled message", a.Status.History[last].Message, b.Status.History[last].Message)
	ev := a.Status.Settlement
	same("a completion's repeated hash", ev.DeliveryInitiated.TransactionHash, ev.DeliveryCompleted.TransactionHash)
}

// TestCompactOrderLeavesOtherTypesAlone: the transform is registered for Orders only, and
// gets client-go's tombstones too.
func TestCompactOrderLeavesOtherTypesAlone(t *testing.T) {
	acct := fixtures.IndividualAccount("tenant-a")
	acct.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}
	got, err := CompactOrder(acct)
	if err != nil || got != any(acct) || len(acct.ManagedFields) != 1 {
		t.Fatalf("an account was changed: %v %v", got, err)
	}
}

// TestConfigureInstallsTheOrderTransform: Configure installs CompactOrder for Orders
// unless the caller chose a transform of its own.
func TestConfigureInstallsTheOrderTransform(t *testing.T) {
	byObject := withOrderTransform(nil)
	if len(byObject) != 1 {
		t.Fatalf("want one entry, got %d", len(byObject))
	}
	for obj, by := range byObject {
		if _, ok := obj.(*investv1.Order); !ok || by.Transform == nil {
			t.Fatalf("unexpected entry %T %+v", obj, by)
		}
	}
	own := func(any) (any, error) { return "own", nil }
	byObject = withOrderTransform(map[client.Object]cache.ByObject{&investv1.Order{}: {Transform: own}, &investv1.Account{}: {}})
	if len(byObject) != 2 {
		t.Fatalf("want two entries, got %d", len(byObject))
	}
	for obj, by := range byObject {
		if _, ok := obj.(*investv1.Order); ok {
			if got, _ := by.Transform(&investv1.Order{}); got != "own" {
				t.Fatal("the caller's transform was replaced")
			}
		}
	}
}

// TestCompactOrderKeepsTheConditionsOfARefundedOrder: the order controller reads a
// cancelled order's Ready condition to know whether its refund's completion is reported.
func TestCompactOrderKeepsTheConditionsOfARefundedOrder(t *testing.T) {
	o := settledOrder(t, "tenant-a", "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b", testHash, investv1.StatePaymentReceived)
	o.Status.State = investv1.StateCancelled
	o.Status.Refund = &investv1.OrderRefund{Amount: 1, Currency: "EUR", Reference: "RF-1"}
	if len(o.Status.Conditions) == 0 {
		t.Fatal("fixture has no conditions")
	}
	want := o.DeepCopy()
	want.ManagedFields = nil
	got, err := CompactOrder(o)
	if err != nil {
		t.Fatal(err)
	}
	if !equality.Semantic.DeepEqual(got, want) {
		t.Fatalf("transformed order differs:\n got %+v\nwant %+v", got, want)
	}
}
