// Package refusal holds the typed refusals the admission webhooks answer with, and the
// tests that recognise them. The API server keeps a webhook's status (code, reason,
// details) and only puts "admission webhook ... denied the request: " before its message,
// so a caller on the other side (the REST facade, a controller, a test) tells a refusal
// by its cause type, never by its words.
package refusal

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// Cause types of the project's refusals.
const (
	// CauseRefused: admission refused the request by a rule of the project (a deletion
	// that would orphan objects, an object outside a tenant, ...), not the API server's
	// authorization. Its message is the refusal as the webhook wrote it.
	CauseRefused metav1.CauseType = "invest.fundshare.io/Refused"
	// CauseRule: admission refused an order by a business rule; its message is
	// "<code>: <message>" (RuleOf splits it), its field the order's field.
	CauseRule metav1.CauseType = "invest.fundshare.io/Rule"
	// CauseOrderTerminal: a cancellation of an order that is COMPLETED or CANCELLED.
	CauseOrderTerminal metav1.CauseType = "OrderTerminal"
	// CauseOrderPastPointOfNoReturn: a cancellation of an order that was executed (or
	// whose payout or token transfer is recorded); it goes on to COMPLETED.
	CauseOrderPastPointOfNoReturn metav1.CauseType = "OrderPastPointOfNoReturn"
)

// Forbidden is admission's refusal of the object name of resource (a resource of the
// project's group) for reason: a 403 Forbidden, as apierrors.NewForbidden words it, whose
// details carry a CauseRefused cause with that message.
func Forbidden(resource, name string, reason error) *apierrors.StatusError {
	err := apierrors.NewForbidden(schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: resource}, name, reason)
	err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes,
		metav1.StatusCause{Type: CauseRefused, Message: err.ErrStatus.Message})
	return err
}

// Refused returns the message of Forbidden's refusal when err is one, also after the
// round trip through the API server; false for any other error (the API server's own
// Forbidden, for one, which is an authorization failure).
func Refused(err error) (string, bool) {
	if !apierrors.IsForbidden(err) {
		return "", false
	}
	for _, c := range causes(err) {
		if c.Type == CauseRefused {
			return c.Message, true
		}
	}
	return "", false
}

// Rule is admission's refusal of an order by a business rule: an Invalid status of kind
// with a Forbidden cause on path reading "<code>: <message>" (what kubectl users read)
// and a CauseRule cause with the same message, which RuleOf finds.
func Rule(kind schema.GroupKind, name string, path *field.Path, code, message string) *apierrors.StatusError {
	return Rules(kind, name, FieldRule{Path: path, Code: code, Message: message})
}

// FieldRule is one business rule's refusal of one field, for Rules.
type FieldRule struct {
	Path    *field.Path
	Code    string
	Message string
}

// Rules is Rule for several fields at once: one Forbidden cause and one CauseRule cause
// per field, in the order given (RuleOf finds the first).
func Rules(kind schema.GroupKind, name string, rules ...FieldRule) *apierrors.StatusError {
	errs := make(field.ErrorList, len(rules))
	for i, r := range rules {
		errs[i] = field.Forbidden(r.Path, r.Code+": "+r.Message)
	}
	err := apierrors.NewInvalid(kind, name, errs)
	for _, r := range rules {
		err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes,
			metav1.StatusCause{Type: CauseRule, Field: r.Path.String(), Message: r.Code + ": " + r.Message})
	}
	return err
}

// RuleOf returns the code and message of Rule's refusal when err is one.
func RuleOf(err error) (code, message string, ok bool) {
	if !apierrors.IsInvalid(err) {
		return "", "", false
	}
	for _, c := range causes(err) {
		if c.Type == CauseRule {
			if code, message, ok := strings.Cut(c.Message, ": "); ok {
				return code, message, true
			}
		}
	}
	return "", "", false
}

// cancellationField is the field a refused cancellation names.
const cancellationField = "spec.cancellationRequested"

// NotCancellable is the refusal to cancel an order (REST answers 409): a Conflict whose
// one cause has the type CauseOrderTerminal or CauseOrderPastPointOfNoReturn and the field
// spec.cancellationRequested.
func NotCancellable(o *investv1.Order, reason string) error {
	cause := CauseOrderPastPointOfNoReturn
	if lifecycle.CancelRefusalOf(o) == lifecycle.RefusalTerminal {
		cause = CauseOrderTerminal
	}
	gr := schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "orders"}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusConflict, Reason: metav1.StatusReasonConflict,
		Message: fmt.Sprintf("order %s cannot be cancelled: %s", o.Name, reason),
		Details: &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: o.Name, Causes: []metav1.StatusCause{
			{Type: cause, Field: cancellationField, Message: reason},
		}},
	}}
}

// IsNotCancellable reports whether err is NotCancellable's refusal, also after the round
// trip through the API server.
func IsNotCancellable(err error) bool {
	if !apierrors.IsConflict(err) {
		return false
	}
	for _, c := range causes(err) {
		if c.Field == cancellationField && (c.Type == CauseOrderTerminal || c.Type == CauseOrderPastPointOfNoReturn) {
			return true
		}
	}
	return false
}

// causes are the causes of err's status, if it has one.
func causes(err error) []metav1.StatusCause {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil {
		return nil
	}
	return status.Status().Details.Causes
}
