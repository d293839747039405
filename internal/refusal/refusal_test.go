package refusal

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// throughAPIServer is err as a client reads it after a webhook answered it: the API
// server keeps the status and puts its own words before the message
// (k8s.io/apiserver's webhookerrors.ToStatusErr).
func throughAPIServer(err error) error {
	var se *apierrors.StatusError
	if !errors.As(err, &se) {
		panic(err)
	}
	st := *se.ErrStatus.DeepCopy()
	st.Message = fmt.Sprintf("admission webhook %q denied the request: %s", "vorder.invest.fundshare.io", st.Message)
	return fmt.Errorf("create: %w", &apierrors.StatusError{ErrStatus: st})
}

// Admission's refusals are recognised by cause type after the round trip, with the
// message the webhook wrote (without the API server's prefix).
func TestRefusalsAreRecognisedByTypeAfterTheAPIServer(t *testing.T) {
	err := throughAPIServer(Forbidden("orders", "o-1", errors.New("the order is PLACED: request a cancellation first")))
	msg, ok := Refused(err)
	if want := `orders.invest.fundshare.io "o-1" is forbidden: the order is PLACED: request a cancellation first`; !ok || msg != want {
		t.Fatalf("Refused = %q, %v; want %q", msg, ok, want)
	}
	if !apierrors.IsForbidden(err) {
		t.Fatal("a refusal is a 403 Forbidden")
	}

	path := field.NewPath("spec", "amountOfUnits")
	err = throughAPIServer(Rule(investv1.GroupVersion.WithKind("Order").GroupKind(), "o-2", path, "Insufficient holdings", "the account holds 3 units: 5 cannot be sold"))
	code, msg, ok := RuleOf(err)
	if !ok || code != "Insufficient holdings" || msg != "the account holds 3 units: 5 cannot be sold" {
		t.Fatalf("RuleOf = %q, %q, %v", code, msg, ok)
	}
	if !apierrors.IsInvalid(err) {
		t.Fatal("a rule refusal is Invalid, with the field for kubectl")
	}
	var se *apierrors.StatusError
	errors.As(err, &se)
	if want := "spec.amountOfUnits: Forbidden: Insufficient holdings: the account holds 3 units: 5 cannot be sold"; !containsCause(se.ErrStatus.Details.Causes, metav1.CauseTypeForbidden, "spec.amountOfUnits") || !strings.Contains(se.ErrStatus.Message, want) {
		t.Fatalf("kubectl users no longer read %q: %v", want, se.ErrStatus)
	}

	executed := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: "o-3"}, Status: investv1.OrderStatus{State: investv1.StateExecuted}}
	completed := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: "o-4"}, Status: investv1.OrderStatus{State: investv1.StateCompleted}}
	for _, o := range []*investv1.Order{executed, completed} {
		if err := throughAPIServer(NotCancellable(o, "the order is "+string(o.Status.State))); !IsNotCancellable(err) || !apierrors.IsConflict(err) {
			t.Fatalf("%s: IsNotCancellable false for %v", o.Status.State, err)
		}
	}
}

// Errors that merely read like a refusal are not one: the API server's own Forbidden (an
// authorization failure, the operator's RBAC) and a denial of another webhook carry no
// cause of ours, whatever their words; a plain Conflict is no cancellation refusal.
func TestErrorsThatOnlyReadLikeARefusalAreNotOne(t *testing.T) {
	gr := schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "orders"}
	rbac := apierrors.NewForbidden(gr, "o-1", errors.New(`User "system:serviceaccount:fundshare-system:manager" cannot create resource "orders"`))
	other := throughAPIServer(apierrors.NewForbidden(gr, "o-1", errors.New("is forbidden: denied the request")))
	for name, err := range map[string]error{"RBAC": rbac, "another webhook": other, "plain error": errors.New("admission webhook denied the request: x")} {
		if msg, ok := Refused(err); ok {
			t.Errorf("%s: taken for a refusal (%q)", name, msg)
		}
	}
	invalid := apierrors.NewInvalid(investv1.GroupVersion.WithKind("Order").GroupKind(), "o-1", field.ErrorList{
		field.Forbidden(field.NewPath("spec", "amountOfUnits"), "Insufficient holdings: the account holds 3 units"),
	})
	if code, _, ok := RuleOf(invalid); ok {
		t.Errorf("a Forbidden field error without CauseRule taken for rule %q", code)
	}
	conflict := apierrors.NewConflict(gr, "o-1", errors.New("the order is COMPLETED, a terminal state: it cannot be cancelled"))
	if IsNotCancellable(conflict) {
		t.Error("a plain Conflict taken for a cancellation refusal by its words")
	}
}

func containsCause(causes []metav1.StatusCause, t metav1.CauseType, f string) bool {
	for _, c := range causes {
		if c.Type == t && c.Field == f {
			return true
		}
	}
	return false
}

// Several fields refused at once: kubectl users read each field with its rule, and RuleOf
// finds the first.
func TestRulesNamesEveryFieldRefusedWithItsRule(t *testing.T) {
	kind := investv1.GroupVersion.WithKind("Order").GroupKind()
	sent, done := field.NewPath("status", "settlement", "refundSent"), field.NewPath("status", "settlement", "refundCompleted")
	err := throughAPIServer(Rules(kind, "o-1",
		FieldRule{Path: sent, Code: "NoRefundOwed", Message: "refund evidence on an order that owes no refund (BUY COMPLETED, no refund due)"},
		FieldRule{Path: done, Code: "NoRefundOwed", Message: "refund evidence on an order that owes no refund (BUY COMPLETED, no refund due)"}))
	code, msg, ok := RuleOf(err)
	if !ok || code != "NoRefundOwed" || msg != "refund evidence on an order that owes no refund (BUY COMPLETED, no refund due)" {
		t.Fatalf("RuleOf = %q, %q, %v", code, msg, ok)
	}
	var se *apierrors.StatusError
	errors.As(err, &se)
	for _, p := range []*field.Path{sent, done} {
		want := p.String() + ": Forbidden: NoRefundOwed: refund evidence on an order that owes no refund (BUY COMPLETED, no refund due)"
		if !containsCause(se.ErrStatus.Details.Causes, metav1.CauseTypeForbidden, p.String()) || !strings.Contains(se.ErrStatus.Message, want) {
			t.Errorf("kubectl users do not read %q: %v", want, se.ErrStatus)
		}
	}
}
