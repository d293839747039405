package apiserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"

	"github.com/google/uuid"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Idempotency-Key on every POST. The guarantee lives in the objects themselves, so it
// holds across replicas and restarts without another store:
//
//   - the created object is named by a UUIDv5 of (tenant, kind, key), unless its name is
//     already derived from what must be unique (a wallet from account and address, an
//     account from its external_id); two requests with one key therefore collide at the
//     API server, which refuses the second atomically (AlreadyExists);
//   - it carries the key and a hash of the request (method-independent: path and
//     canonical body) in annotations;
//   - a request that meets an existing object with its key reads it: the same hash is a
//     retry, answered 201 with the object as it is now and nothing created; another hash
//     is the key reused for another request, a 422.
//
// Objects with derived names are also looked up by key first (index.IdempotencyKey), so
// that a key reused with a body that derives another name is refused too.

// Header and annotations of idempotent requests.
const (
	headerIdempotencyKey = "Idempotency-Key"
	// headerReplayed marks an answer that repeats the outcome of an earlier request.
	headerReplayed = "Idempotent-Replayed"

	annotationRequestHash = "invest.fundshare.io/request-hash"
	maxIdempotencyKey     = 255
)

// annotationIdempotencyKey is the annotation holding the key (index.IdempotencyKey
// indexes it).
const annotationIdempotencyKey = index.AnnotationIdempotencyKey

var idempotencyIDSpace = uuid.NewSHA1(projectNamespace, []byte("Idempotency-Key"))

// idempotency is the key of a POST and the hash of what it asked for.
type idempotency struct {
	key  string
	hash string
}

// readIdempotency reads the Idempotency-Key header. Without one it returns nil. A key
// that is not 1 to 255 visible ASCII characters is reported in fe (answered with the
// body's problems as one 422). With a valid key it reads the body to hash it and puts it
// back for decodeBody; when the body cannot be read it answers the request and returns
// ok false.
func readIdempotency(w http.ResponseWriter, r *http.Request, fe *validation.FieldErrors) (idem *idempotency, ok bool) {
	values := r.Header.Values(headerIdempotencyKey)
	switch {
	case len(values) == 0:
		return nil, true
	case len(values) > 1:
		fe.Add(headerIdempotencyKey, "must be given at most once")
		return nil, true
	case !validIdempotencyKey(values[0]):
		fe.Add(headerIdempotencyKey, "must be 1 to 255 visible ASCII characters")
		return nil, true
	}
	body, ok := readBody(w, r)
	if !ok {
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return &idempotency{key: values[0], hash: requestHash(r.URL.Path, body)}, true
}

func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > maxIdempotencyKey {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// requestHash is the SHA-256 of the path and the canonical form of the body: JSON with
// sorted keys and no insignificant white space, so that a retry that serializes the same
// object differently is still the same request. A body that is not JSON is hashed as
// sent (decodeBody refuses it anyway).
func requestHash(path string, body []byte) string {
	canonical := body
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		if b, err := json.Marshal(v); err == nil {
			canonical = b
		}
	}
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(canonical)
	return hex.EncodeToString(h.Sum(nil))
}

// name is the id of the object that the key creates: a UUIDv5 of tenant, kind and key.
func (k *idempotency) name(tenant string, gvk schema.GroupVersionKind) string {
	return uuid.NewSHA1(idempotencyIDSpace, []byte(tenant+"/"+gvk.Kind+"/"+k.key)).String()
}

// annotate records the key and the request's hash on the object to create.
func (k *idempotency) annotate(obj client.Object) {
	if k == nil {
		return
	}
	a := obj.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[annotationIdempotencyKey] = k.key
	a[annotationRequestHash] = k.hash
	obj.SetAnnotations(a)
}

// idempotencyMatch says how an existing object relates to a request with a key.
type idempotencyMatch int

const (
	// matchNone: the object was not created with this key (or with none).
	matchNone idempotencyMatch = iota
	// matchSame: created by this very request earlier: a retry.
	matchSame
	// matchOther: created with this key by another request.
	matchOther
)

func (k *idempotency) match(obj client.Object) idempotencyMatch {
	a := obj.GetAnnotations()
	switch {
	case k == nil || a[annotationIdempotencyKey] != k.key:
		return matchNone
	case a[annotationRequestHash] == k.hash:
		return matchSame
	default:
		return matchOther
	}
}

// writeKeyReused answers a key used with another request.
func writeKeyReused(w http.ResponseWriter) {
	var fe validation.FieldErrors
	fe.Add(headerIdempotencyKey, "was used with a different request")
	writeValidation(w, fe)
}

// replayed answers a retry with the object's current view.
func replayed(w http.ResponseWriter, location string, view any) {
	w.Header().Set(headerReplayed, "true")
	w.Header().Set("Location", location)
	writeJSON(w, http.StatusCreated, view)
}

// existing reads the object named name from the API server (a concurrent request may have
// created it a moment ago) and says how it relates to the request. found is false when
// there is no such object.
func (s *Server) existing(ctx context.Context, k *idempotency, obj client.Object, namespace, name string) (m idempotencyMatch, found bool, err error) {
	err = s.deps.APIReader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, obj)
	switch {
	case apierrors.IsNotFound(err):
		return matchNone, false, nil
	case err != nil:
		return matchNone, false, err
	}
	return k.match(obj), true, nil
}

// keyHolder finds the object of the list's kind that carries the key in the namespace,
// from the cache once this process's writes of the kind show there; nil when none does.
func (s *Server) keyHolder(ctx context.Context, k *idempotency, namespace string, gvk schema.GroupVersionKind, list client.ObjectList) (client.Object, error) {
	if err := s.tracker.Wait(ctx, namespace, gvk); err != nil {
		return nil, err
	}
	if err := s.deps.Reader.List(ctx, list, client.InNamespace(namespace),
		client.MatchingFields{index.IdempotencyKey: k.key}); err != nil {
		return nil, err
	}
	items, err := apimeta.ExtractList(list)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	obj, _ := items[0].(client.Object)
	return obj, nil
}

// answerReplay answers a retry (201 with view) or a reused key (422); for an object not
// created with the key it answers nothing and returns false.
func (s *Server) answerReplay(w http.ResponseWriter, m idempotencyMatch, location string, view func() any) bool {
	switch m {
	case matchSame:
		replayed(w, location, view())
		return true
	case matchOther:
		writeKeyReused(w)
		return true
	}
	return false
}

// fresh is the account as the API server has it now, for the is_primary flag of a
// replayed answer (the request that created the child may have set it a moment ago); a on
// failure.
func (s *Server) fresh(r *http.Request, a *investv1.Account) *investv1.Account {
	cur := &investv1.Account{}
	if err := s.deps.APIReader.Get(r.Context(), client.ObjectKeyFromObject(a), cur); err != nil {
		return a
	}
	return cur
}
