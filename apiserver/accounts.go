package apiserver

import (
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// birthdateRenames reports the API server's date-of-birth causes under the field the
// update request accepts.
var birthdateRenames = map[string]string{"dob_day": "birthdate", "dob_month": "birthdate", "dob_year": "birthdate"}

// updateRefused are fields of the account that the update request does not accept.
var updateRefused = map[string]string{
	"type":      "cannot be changed",
	"id":        "cannot be changed",
	"created":   "cannot be changed",
	"dob_day":   "is set through birthdate (YYYY-MM-DD) in an update",
	"dob_month": "is set through birthdate (YYYY-MM-DD) in an update",
	"dob_year":  "is set through birthdate (YYYY-MM-DD) in an update",
}

// GET /v1/accounts/{account_id}
func (s *Server) getAccount(w http.ResponseWriter, r *http.Request) {
	if a := s.account(w, r, chi.URLParam(r, "account_id")); a != nil {
		writeJSON(w, http.StatusOK, accountView(a))
	}
}

// GET /v1/accounts (extension): filters external_id, account_type; skip, limit.
func (s *Server) listAccounts(w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r, append([]string{"external_id", "account_type"}, pageParams...)...)
	externalID := q.str("external_id")
	typ := q.enum("account_type", string(investv1.AccountTypeIndividual), string(investv1.AccountTypeBusiness))
	p := q.page()
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	ctx, ns := r.Context(), tenantOf(r)
	if err := s.tracker.Wait(ctx, ns, gvkAccount); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	opts := []client.ListOption{client.InNamespace(ns)}
	switch {
	case externalID != "":
		opts = append(opts, client.MatchingFields{index.AccountExternalID: externalID})
	case typ != "":
		opts = append(opts, client.MatchingFields{index.AccountType: typ})
	}
	var list investv1.AccountList
	if err := s.deps.Reader.List(ctx, &list, opts...); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	items := list.Items[:0]
	for _, a := range list.Items {
		if typ == "" || string(a.Spec.Type) == typ {
			items = append(items, a)
		}
	}
	writeJSON(w, http.StatusOK, AccountList{Data: pageViews(items, p, accountView)})
}

// POST /v1/accounts (extension). With an external_id the id is derived from it, so that
// two concurrent creations with one external_id collide at the API server. With an
// Idempotency-Key a retry answers with the account created first (idempotency.go).
func (s *Server) createAccount(w http.ResponseWriter, r *http.Request) {
	var req AccountCreateRequest
	idem, fe, ok := decodeCreate(w, r, &req, createSpec{refused: map[string]string{"id": "is assigned by the service", "created": "is assigned by the service"}})
	if !ok {
		return
	}
	ctx, ns := r.Context(), tenantOf(r)
	spec := req.spec()
	renames := map[string]string(nil)
	if req.Birthdate != nil {
		renames = birthdateRenames
	}
	if err := s.checkNewAccount(r, &req, &spec, &fe); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}

	// With a key, an account that already carries it answers (also when the key came with
	// another external_id, which derives another id).
	if idem != nil && s.replayAccountByKey(w, r, idem) {
		return
	}
	name := newID()
	switch {
	case spec.ExternalID != "":
		name = accountName(ns, spec.ExternalID)
		if taken, err := s.externalIDTaken(r, ns, spec.ExternalID, ""); err != nil || taken {
			if err == nil && s.replayAccount(w, r, idem, name) {
				return
			}
			s.answerExternalIDTaken(w, r, spec.ExternalID, err)
			return
		}
	case idem != nil:
		name = idem.name(ns, gvkAccount)
	}
	a := &investv1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	idem.annotate(a)
	if err := s.deps.Writer.Create(ctx, a, fieldOwner); err != nil {
		if apierrors.IsAlreadyExists(err) && s.replayAccount(w, r, idem, name) {
			return
		}
		if spec.ExternalID != "" && (apierrors.IsAlreadyExists(err) || hasCause(err, metav1.CauseTypeFieldValueDuplicate, "spec.externalID")) {
			s.answerExternalIDTaken(w, r, spec.ExternalID, nil)
			return
		}
		s.writeAPIError(w, r, err, renames)
		return
	}
	s.tracker.Written(a)
	w.Header().Set("Location", accountLocation(a))
	writeJSON(w, http.StatusCreated, accountView(a))
}

// spec is the account the request asks for (birthdate aside: checkNewAccount applies it).
func (req *AccountCreateRequest) spec() investv1.AccountSpec {
	return investv1.AccountSpec{
		ExternalID: deref(req.ExternalID), Type: investv1.AccountType(deref(req.Type)),
		Country: deref(req.Country), City: deref(req.City), Line1: deref(req.Line1), Line2: deref(req.Line2),
		PostalCode: deref(req.PostalCode), State: deref(req.State), FirstName: deref(req.FirstName),
		LastName: deref(req.LastName), PlaceOfBirth: deref(req.PlaceOfBirth), BusinessName: deref(req.BusinessName),
		LEI: deref(req.LEI), TaxID: deref(req.TaxID), TIN: deref(req.TIN), TaxResidencies: deref(req.TaxResidencies),
		DobDay: deref(req.DobDay), DobMonth: deref(req.DobMonth), DobYear: deref(req.DobYear),
	}
}

// checkNewAccount applies the request's birthdate to spec and adds to fe what the account
// rules (with the tenant's settings) refuse; the error is a failed read of the settings.
func (s *Server) checkNewAccount(r *http.Request, req *AccountCreateRequest, spec *investv1.AccountSpec, fe *validation.FieldErrors) error {
	now := s.deps.Now()
	if req.Birthdate != nil && !req.hasDobParts() {
		fe.AddErr("birthdate", rules.ApplyBirthdate(spec, *req.Birthdate, now))
	}
	if _, badType := (*fe)["type"]; badType {
		return nil
	}
	settings, err := s.tenantSettings(r)
	if err != nil {
		return err
	}
	rfe := rules.Account(spec, settings, now)
	if req.dobOutOfRange() {
		delete(rfe, "birthdate") // "required" or "not a real day": the part is named above
	}
	mergeNew(fe, rfe)
	return nil
}

// replayAccount answers a retry of a request whose account exists under name (replayNamed).
func (s *Server) replayAccount(w http.ResponseWriter, r *http.Request, idem *idempotency, name string) bool {
	return replayNamed(s, w, r, idem, name, accountLocation, accountAny)
}

// replayAccountByKey answers when an account of the tenant already carries the key.
func (s *Server) replayAccountByKey(w http.ResponseWriter, r *http.Request, idem *idempotency) bool {
	return replayKeyHolder(s, w, r, idem, gvkAccount, &investv1.AccountList{}, accountLocation, accountAny)
}

func accountLocation(a *investv1.Account) string { return "/v1/accounts/" + a.Name }

func accountAny(a *investv1.Account) any { return accountView(a) }

// externalIDTaken reports whether another account of the tenant than self has externalID.
func (s *Server) externalIDTaken(r *http.Request, ns, externalID, self string) (bool, error) {
	ctx := r.Context()
	if err := s.tracker.Wait(ctx, ns, gvkAccount); err != nil {
		return false, err
	}
	var list investv1.AccountList
	if err := s.deps.Reader.List(ctx, &list, client.InNamespace(ns), client.MatchingFields{index.AccountExternalID: externalID}); err != nil {
		return false, err
	}
	for _, a := range list.Items {
		if a.Name != self {
			return true, nil
		}
	}
	return false, nil
}

func (s *Server) answerExternalIDTaken(w http.ResponseWriter, r *http.Request, externalID string, err error) {
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	writeError(w, http.StatusConflict, msgExternalIDInUse,
		fmt.Sprintf("another account of this client already has external_id %q", externalID))
}

// PATCH /v1/accounts/{account_id}: the spec's fields; absent or null leaves a field
// unchanged. A read-modify-write with optimistic concurrency: when the account changed
// meanwhile, it is read again from the API server and the change reapplied.
func (s *Server) updateAccount(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "account_id")
	req, ok := s.decodeAccountUpdate(w, r)
	if !ok {
		return
	}
	a := s.account(w, r, id)
	if a == nil {
		return
	}
	settings, err := s.tenantSettings(r)
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	for attempt := 1; a != nil; attempt++ {
		spec, fe := s.updatedSpec(a, req, settings)
		switch {
		case !fe.Empty():
			writeValidation(w, fe)
			return
		case apiequality.Semantic.DeepEqual(spec, a.Spec):
			writeJSON(w, http.StatusOK, accountView(a))
			return
		}
		a = s.writeAccountUpdate(w, r, id, a, spec, attempt)
	}
}

// decodeAccountUpdate reads the body of PATCH /v1/accounts/{account_id}; it answers and
// returns false when the body is not a valid update.
func (s *Server) decodeAccountUpdate(w http.ResponseWriter, r *http.Request) (*AccountUpdateRequest, bool) {
	var req AccountUpdateRequest
	fe, ok := decodeBody(w, r, &req, updateRefused, "application/json", "application/merge-patch+json")
	if !ok {
		return nil, false
	}
	if req.Birthdate != nil {
		// Reported with the body's other problems; the account is not needed for it.
		_, err := validation.ParseBirthdate(*req.Birthdate, s.deps.Now())
		fe.AddErr("birthdate", err)
	}
	if !fe.Empty() {
		writeValidation(w, fe)
		return nil, false
	}
	return &req, true
}

// writeAccountUpdate stores spec as the account's (id as the request named it) and
// answers; after a concurrent change it answers nothing and returns the account re-read,
// for the caller to apply the update again.
func (s *Server) writeAccountUpdate(w http.ResponseWriter, r *http.Request, id string, a *investv1.Account, spec investv1.AccountSpec, attempt int) *investv1.Account {
	if spec.ExternalID != "" && spec.ExternalID != a.Spec.ExternalID {
		if taken, err := s.externalIDTaken(r, tenantOf(r), spec.ExternalID, a.Name); err != nil || taken {
			s.answerExternalIDTaken(w, r, spec.ExternalID, err)
			return nil
		}
	}
	a.Spec = spec
	err := s.deps.Writer.Update(r.Context(), a, fieldOwner)
	if err == nil {
		s.tracker.Written(a)
		writeJSON(w, http.StatusOK, accountView(a))
		return nil
	}
	switch accountUpdateFailed(err, attempt) {
	case retryDuplicate:
		s.answerExternalIDTaken(w, r, spec.ExternalID, nil)
	case retryBackOff:
		if err := backoff(r.Context(), attempt); err != nil {
			s.writeAPIError(w, r, err, nil)
			return nil
		}
		return s.rereadAccount(w, r, a)
	case retryNotFound:
		writeNotFound(w, resAccount, id)
	default:
		s.writeAPIError(w, r, err, birthdateRenames)
	}
	return nil
}

// accountUpdateFailed decides what the account update does after its write, attempt
// number attempt, failed with err: an external_id another account took meanwhile is a
// 409 naming it; a conflict is retried until maxWriteAttempts, after which it is
// answered like any other error (409 Conflict).
func accountUpdateFailed(err error, attempt int) retryStep {
	switch {
	case hasCause(err, metav1.CauseTypeFieldValueDuplicate, "spec.externalID"):
		return retryDuplicate
	case apierrors.IsConflict(err) && attempt < maxWriteAttempts:
		return retryBackOff
	case apierrors.IsNotFound(err):
		return retryNotFound
	default:
		return retryFail
	}
}

// updatedSpec is a's spec with req applied, and the problems the update brings: only
// what it breaks is refused, as in admission, so a tenant that tightened its settings
// can still edit its existing accounts.
func (s *Server) updatedSpec(a *investv1.Account, req *AccountUpdateRequest, settings rules.TenantSettings) (investv1.AccountSpec, validation.FieldErrors) {
	spec := a.Spec
	var fe validation.FieldErrors
	applyAccountUpdate(&spec, req)
	if req.Birthdate != nil {
		fe.AddErr("birthdate", rules.ApplyBirthdate(&spec, *req.Birthdate, s.deps.Now()))
	}
	mergeNew(&fe, rules.AccountUpdate(&spec, &a.Spec, settings, s.deps.Now()))
	return spec, fe
}

// rereadAccount reads a again from the API server after a conflicting write; when it
// cannot (deleted meanwhile: 404) it answers itself and returns nil.
func (s *Server) rereadAccount(w http.ResponseWriter, r *http.Request, a *investv1.Account) *investv1.Account {
	fresh := &investv1.Account{}
	err := s.deps.APIReader.Get(r.Context(), client.ObjectKeyFromObject(a), fresh)
	if s.readFailed(w, r, err, nil, resAccount, a.Name) {
		return nil
	}
	return fresh
}

// applyAccountUpdate copies the given fields; "" clears an optional field.
func applyAccountUpdate(s *investv1.AccountSpec, u *AccountUpdateRequest) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&s.ExternalID, u.ExternalID)
	set(&s.Country, u.Country)
	set(&s.City, u.City)
	set(&s.Line1, u.Line1)
	set(&s.Line2, u.Line2)
	set(&s.PostalCode, u.PostalCode)
	set(&s.State, u.State)
	set(&s.FirstName, u.FirstName)
	set(&s.LastName, u.LastName)
	set(&s.PlaceOfBirth, u.PlaceOfBirth)
	set(&s.BusinessName, u.BusinessName)
	set(&s.LEI, u.LEI)
	set(&s.TaxID, u.TaxID)
	set(&s.TIN, u.TIN)
	set(&s.TaxResidencies, u.TaxResidencies)
}
