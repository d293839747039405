package apiserver

import (
	"net/http"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

// createRequest is a POST body that checks its own fields: what it can tell without
// reading anything (required fields, enums, ranges, formats), field → messages.
type createRequest interface {
	Validate() validation.FieldErrors
}

// createSpec says how a POST reads its body.
type createSpec struct {
	// refused names fields the body must not carry, with the message to give.
	refused map[string]string
	// firstProblemOnly leaves out the request's own messages for a field the body already
	// has a problem with (a value of the wrong JSON type is not also "required").
	firstProblemOnly bool
}

// decodeCreate is the prologue every POST shares: the Idempotency-Key header, the body
// into req, and req's own checks, all reported as one 422 with the body's problems
// first. When it answers the request itself (a body that cannot be used, or field
// problems) it returns ok false. The caller adds its checks that need reads to fe and
// answers fe when it is not empty.
func decodeCreate(w http.ResponseWriter, r *http.Request, req createRequest, spec createSpec) (idem *idempotency, fe validation.FieldErrors, ok bool) {
	var hfe validation.FieldErrors
	if idem, ok = readIdempotency(w, r, &hfe); !ok {
		return nil, nil, false
	}
	if fe, ok = decodeBody(w, r, req, spec.refused); !ok {
		return nil, nil, false
	}
	mergeNew(&fe, hfe)
	if spec.firstProblemOnly {
		mergeNew(&fe, req.Validate())
	} else {
		addAll(&fe, req.Validate())
	}
	return idem, fe, true
}

// addAll appends every message of more to fe.
func addAll(fe *validation.FieldErrors, more validation.FieldErrors) {
	for field, msgs := range more {
		for _, m := range msgs {
			fe.Add(field, m)
		}
	}
}
