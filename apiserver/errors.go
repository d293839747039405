package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Short messages of the error bodies.
const (
	msgValidation       = "Validation error"
	msgMalformedJSON    = "Malformed JSON"
	msgUnsupportedMedia = "Unsupported media type"
	msgTooLarge         = "Request body too large"
	msgWalletDuplicate  = "Wallet already registered"
	msgExternalIDInUse  = "External ID already in use"
	msgConflict         = "Conflict"
	msgInternal         = "Internal server error"
	msgUnavailable      = "Service unavailable"
	msgTimeout          = "Request timed out"
	msgNotFound         = "Not found"
	msgMethodNotAllowed = "Method not allowed"
	msgRejected         = "Request rejected"
)

// writeError writes the one error body of the facade.
func writeError(w http.ResponseWriter, status int, short string, details any) {
	if fe, ok := details.(validation.FieldErrors); ok {
		details = ValidationDetails(fe)
	}
	writeJSON(w, status, ErrorResponse{Error: short, Details: details})
}

// writeValidation answers 422 with messages per field.
func writeValidation(w http.ResponseWriter, fe validation.FieldErrors) {
	writeError(w, http.StatusUnprocessableEntity, msgValidation, fe)
}

// writeNotFound answers 404 for an id that does not exist in the caller's tenant; ids of
// other tenants get exactly the same answer.
func writeNotFound(w http.ResponseWriter, resource, id string) {
	writeNotFoundBy(w, resource, "id", id)
}

// writeNotFoundBy is writeNotFound for resources named by another key (a share class by
// its isin).
func writeNotFoundBy(w http.ResponseWriter, resource, key, value string) {
	writeError(w, http.StatusNotFound, resource+" not found",
		fmt.Sprintf("no %s with %s %q", strings.ToLower(resource), key, value))
}

// Resource names used in 404 answers.
const (
	resAccount       = "Account"
	resWallet        = "Wallet"
	resPaymentMethod = "Payment method details"
	resShareClass    = "Share class"
	resOrder         = "Order"
)

// writeAPIError answers an error from the API server or the cache. Errors the handler
// expects (not found, duplicates) are handled before; this maps the rest.
func (s *Server) writeAPIError(w http.ResponseWriter, r *http.Request, err error, renames map[string]string) {
	switch {
	case errors.Is(err, archive.ErrUnavailable), errors.Is(err, history.ErrArchiveUnavailable):
		s.deps.Log.Error(err, "the order archive is unavailable", "request_id", requestIDFrom(r.Context()), "route", routeOf(r))
		writeError(w, http.StatusServiceUnavailable, msgUnavailable, "the order history is unavailable for a moment; retry later")
		return
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, msgTimeout, "the request took too long; it may or may not have taken effect")
		return
	case errors.Is(err, context.Canceled):
		writeError(w, http.StatusServiceUnavailable, msgUnavailable, "the request was cancelled")
		return
	case apierrors.IsAlreadyExists(err), apierrors.IsConflict(err):
		writeError(w, http.StatusConflict, msgConflict, "the object was changed concurrently; retry the request")
		return
	case refused(err):
		msg, _ := refusal.Refused(err)
		writeError(w, http.StatusBadRequest, msgRejected, msg)
		return
	case isWrite(r) && admissionRefusal(err):
		if fe := causesToFields(err, renames); !fe.Empty() {
			writeValidation(w, fe)
			return
		}
		// A rule that is not ours (a platform's ValidatingAdmissionPolicy or webhook):
		// the caller reads its message; the log keeps it for the operator too.
		s.deps.Log.Info("the API server refused the write", "request_id", requestIDFrom(r.Context()), "route", routeOf(r), "error", err.Error())
		writeError(w, http.StatusBadRequest, msgRejected, statusMessage(err))
		return
	case apierrors.IsTimeout(err), apierrors.IsServerTimeout(err), apierrors.IsTooManyRequests(err),
		apierrors.IsServiceUnavailable(err):
		writeError(w, http.StatusServiceUnavailable, msgUnavailable, "the service is busy; retry later")
		return
	}
	s.deps.Log.Error(err, "request failed", "request_id", requestIDFrom(r.Context()), "route", routeOf(r))
	writeError(w, http.StatusInternalServerError, msgInternal, "request id "+requestIDFrom(r.Context()))
}

// restFieldNames are the REST names of every field a custom resource's spec carries; their
// reverse (through rules.FieldPath) maps the API server's causes back to REST names.
var restFieldNames = []string{
	"external_id", "type", "country", "city", "line1", "line2", "postal_code", "state",
	"first_name", "last_name", "dob_day", "dob_month", "dob_year", "place_of_birth",
	"business_name", "lei", "tax_id", "tin", "tax_residencies",
	"chain", "wallet_address", "account_id", "iban", "account_holder_name",
}

// restFieldOfPath maps CRD JSON paths (spec.walletAddress) to REST names (wallet_address).
var restFieldOfPath = func() map[string]string {
	m := make(map[string]string, len(restFieldNames))
	for _, name := range restFieldNames {
		p := rules.FieldPath(name).String()
		if _, taken := m[p]; !taken {
			m[p] = name
		}
	}
	m["spec.primaryWallet"] = "is_primary"
	m["spec.primaryPaymentMethodDetails"] = "is_primary"
	return m
}()

// restField is the REST name of an API server cause's field; renames (from a CRD path or
// a REST name) let a request that used another spelling (birthdate for dob_*) see its own.
func restField(path string, renames map[string]string) string {
	path = strings.TrimPrefix(path, ".")
	name, ok := restFieldOfPath[path]
	if !ok {
		if i := strings.IndexAny(path, "[."); i > 0 && path[:i] == "spec" {
			name = strings.TrimPrefix(path, "spec.")
		} else {
			name = path
		}
	}
	if to, ok := renames[name]; ok {
		return to
	}
	return name
}

// causesToFields turns the causes of an Invalid status into REST field messages. Causes
// without a field are dropped: the API server adds one, field "<nil>", whenever a schema
// error stopped it from evaluating the CEL rules ("some validation rules were not checked
// because the object was invalid..."), which says nothing about the caller's fields.
func causesToFields(err error, renames map[string]string) validation.FieldErrors {
	var fe validation.FieldErrors
	for _, c := range statusCauses(err) {
		if c.Field == "" || c.Field == "<nil>" || c.Type == refusal.CauseRule {
			continue // CauseRule repeats the Forbidden cause of its field
		}
		fe.Add(restField(c.Field, renames), causeMessage(c))
	}
	return fe
}

func statusCauses(err error) []metav1.StatusCause {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return nil
	}
	if d := status.Status().Details; d != nil {
		return d.Causes
	}
	return nil
}

// hasCause reports whether an Invalid error carries a cause of type t on field path.
func hasCause(err error, t metav1.CauseType, path string) bool {
	if !apierrors.IsInvalid(err) {
		return false
	}
	for _, c := range statusCauses(err) {
		if c.Type == t && strings.TrimPrefix(c.Field, ".") == path {
			return true
		}
	}
	return false
}

// causeMessage drops the "Invalid value: <value>: " prefix the API server puts before the
// message, which repeats what the caller sent (or "null" for admission messages).
func causeMessage(c metav1.StatusCause) string {
	msg := c.Message
	const prefix = "Invalid value: "
	if !strings.HasPrefix(msg, prefix) {
		return msg
	}
	rest := msg[len(prefix):]
	if strings.HasPrefix(rest, `"`) {
		// A quoted Go string: skip to its closing quote.
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				if tail, ok := strings.CutPrefix(rest[i+1:], ": "); ok && tail != "" {
					return tail
				}
				return msg
			}
		}
		return msg
	}
	// An unquoted value (number, bool, null, JSON) has no spaces; without one the API
	// server wrote no value at all ("Invalid value: <message>").
	if value, tail, ok := strings.Cut(rest, ": "); ok && tail != "" && !strings.Contains(value, " ") {
		return tail
	}
	return rest
}

// admissionRefusal reports whether err is a refusal of the object the facade wrote, with
// one of the statuses the API server's validation and admission answer with: Invalid
// (the CRD schema and CEL rules; a ValidatingAdmissionPolicy's default), Forbidden (a
// policy's or a webhook's refusal), BadRequest and RequestEntityTooLarge (other reasons
// a policy or webhook may give). Our own rules are recognised before this by their typed
// causes; the rest are a platform team's rules in front of the operator, which the caller
// is told (400, or 422 with the field causes a refusal carries), never a 500.
//
// The API server answers a request its RBAC denies with Forbidden too, in the same shape
// (no cause tells the two apart, only the words). The operator's ClusterRole is generated
// from its markers and pinned by test/e2e, so the facade's writes are not expected to
// meet it; if one did, the caller would read the API server's message in a 400 and the
// log line would show it. Reads (GET) are never refused by admission: their errors stay
// 500.
func admissionRefusal(err error) bool {
	return apierrors.IsInvalid(err) || apierrors.IsForbidden(err) || apierrors.IsBadRequest(err) ||
		apierrors.IsRequestEntityTooLargeError(err)
}

// isWrite reports whether the request writes (POST, PATCH, PUT, DELETE).
func isWrite(r *http.Request) bool {
	return r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
}

// statusMessage is the message of the API server's status, which names the refusing
// policy or webhook and quotes its message.
func statusMessage(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Message != "" {
		return status.Status().Message
	}
	return err.Error()
}

// refused reports whether err is our admission's refusal (refusal.Forbidden), which the
// caller is told (400) with our message alone.
func refused(err error) bool {
	_, ok := refusal.Refused(err)
	return ok
}
