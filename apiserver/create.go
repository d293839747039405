package apiserver

import (
	"net/http"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

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

// replayNamed answers a request with an Idempotency-Key whose object exists under name,
// read from the API server: 201 with the object when the request is a retry, 422 when
// the key was used for another request. It returns false, having answered nothing, when
// there is no key or the object was not created with it (the caller answers as without
// one).
func replayNamed[T any, P interface {
	*T
	client.Object
}](s *Server, w http.ResponseWriter, r *http.Request, idem *idempotency, name string, location func(P) string, view func(P) any) bool {
	if idem == nil {
		return false
	}
	obj := P(new(T))
	m, _, err := s.existing(r.Context(), idem, obj, tenantOf(r), name)
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return true
	}
	return s.answerReplay(w, m, location(obj), func() any { return view(obj) })
}

// replayKeyHolder answers as replayNamed when an object of the tenant of list's kind
// already carries the key, whatever its name.
func replayKeyHolder[P client.Object](s *Server, w http.ResponseWriter, r *http.Request, idem *idempotency, gvk schema.GroupVersionKind, list client.ObjectList, location func(P) string, view func(P) any) bool {
	obj, err := s.keyHolder(r.Context(), idem, tenantOf(r), gvk, list)
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return true
	}
	if obj == nil {
		return false
	}
	p := obj.(P)
	return s.answerReplay(w, idem.match(p), location(p), func() any { return view(p) })
}
