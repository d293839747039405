package apiserver

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Operator routes (POST /v1/operator/bank-files) serve the fund's operators, never a
// tenant. They are not behind the tenants' OAuth tokens: the caller presents a Kubernetes
// bearer token (a ServiceAccount's, from `kubectl create token`, or any token the API
// server authenticates), which the facade authenticates with a TokenReview and authorizes
// with a SubjectAccessReview on a virtual, cluster-scoped resource of the operator's API
// group (bankfiles.invest.fundshare.io): RBAC rules name it like any resource, and a
// ClusterRole grants it to people (config/rbac/bank_operator_role.yaml, the chart's
// <release>-bank-operator). A tenant's access token, or any token the API server does not
// authenticate, is 401; an authenticated user RBAC does not allow is 403. Tokens are
// never logged nor echoed; a positive answer is remembered for operatorReviewTTL, keyed
// by a hash of the token.

// The manager asks the API server about operators' tokens.
// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create
// +kubebuilder:rbac:groups=authorization.k8s.io,resources=subjectaccessreviews,verbs=create

// ResourceBankFiles is the virtual resource of operators' uploads of bank files: RBAC's
// verb create on bankfiles in the operator's API group allows POST /v1/operator/bank-files.
const ResourceBankFiles = "bankfiles"

// bankFilesAccess is what an upload asks of RBAC.
var bankFilesAccess = authzv1.ResourceAttributes{Verb: "create", Group: investv1.GroupVersion.Group, Resource: ResourceBankFiles}

// operatorReviewTTL is how long a token's positive review (authenticated and allowed) is
// remembered; a denial is never remembered. A revoked token or binding keeps working at
// most this long.
const operatorReviewTTL = 10 * time.Second

// maxOperatorReviews bounds the remembered reviews; when full, the expired ones go, and a
// new review is not remembered while it stays full.
const maxOperatorReviews = 1024

// OperatorReviewer asks the Kubernetes API server who presents a token and what they may
// do. KubeReviewer is the real one; tests use a fake.
type OperatorReviewer interface {
	// ReviewToken authenticates a bearer token (a TokenReview): ok is false when the API
	// server does not authenticate it, err when it could not be asked. The token must
	// never appear in err.
	ReviewToken(ctx context.Context, token string) (user authnv1.UserInfo, ok bool, err error)
	// Allowed asks whether user may do what attrs say (a SubjectAccessReview); reason is
	// the authorizer's, may be empty.
	Allowed(ctx context.Context, user authnv1.UserInfo, attrs authzv1.ResourceAttributes) (allowed bool, reason string, err error)
}

// KubeReviewer creates TokenReviews and SubjectAccessReviews with Client (the manager's;
// its ClusterRole allows both).
type KubeReviewer struct {
	Client client.Client
}

// ReviewToken creates a TokenReview of token for the API server's own audiences (those of
// `kubectl create token`).
func (k *KubeReviewer) ReviewToken(ctx context.Context, token string) (authnv1.UserInfo, bool, error) {
	tr := &authnv1.TokenReview{Spec: authnv1.TokenReviewSpec{Token: token}}
	if err := k.Client.Create(ctx, tr); err != nil {
		return authnv1.UserInfo{}, false, fmt.Errorf("token review: %w", err)
	}
	if !tr.Status.Authenticated {
		return authnv1.UserInfo{}, false, nil
	}
	return tr.Status.User, true, nil
}

// Allowed creates a SubjectAccessReview of user (name, uid, groups and extra, as the
// TokenReview gave them) for attrs.
func (k *KubeReviewer) Allowed(ctx context.Context, user authnv1.UserInfo, attrs authzv1.ResourceAttributes) (bool, string, error) {
	extra := make(map[string]authzv1.ExtraValue, len(user.Extra))
	for k, v := range user.Extra {
		extra[k] = authzv1.ExtraValue(v)
	}
	sar := &authzv1.SubjectAccessReview{Spec: authzv1.SubjectAccessReviewSpec{
		User: user.Username, UID: user.UID, Groups: user.Groups, Extra: extra, ResourceAttributes: &attrs,
	}}
	if err := k.Client.Create(ctx, sar); err != nil {
		return false, "", fmt.Errorf("subject access review: %w", err)
	}
	return sar.Status.Allowed && !sar.Status.Denied, sar.Status.Reason, nil
}

// reviewCache remembers positive reviews for operatorReviewTTL, keyed by the SHA-256 of
// the token and the access asked: the token itself is never kept.
type reviewCache struct {
	mu      sync.Mutex
	now     func() time.Time
	entries map[[sha256.Size]byte]cachedReview
}

type cachedReview struct {
	user    string
	expires time.Time
}

func newReviewCache(now func() time.Time) *reviewCache {
	return &reviewCache{now: now, entries: map[[sha256.Size]byte]cachedReview{}}
}

func reviewKey(token string, attrs authzv1.ResourceAttributes) [sha256.Size]byte {
	return sha256.Sum256([]byte(attrs.Verb + "\x00" + attrs.Group + "\x00" + attrs.Resource + "\x00" + token))
}

// allowed returns the user of a remembered positive review.
func (c *reviewCache) allowed(token string, attrs authzv1.ResourceAttributes) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := reviewKey(token, attrs)
	e, ok := c.entries[k]
	if !ok {
		return "", false
	}
	if !c.now().Before(e.expires) {
		delete(c.entries, k)
		return "", false
	}
	return e.user, true
}

// remember notes a positive review.
func (c *reviewCache) remember(token string, attrs authzv1.ResourceAttributes, user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.entries) >= maxOperatorReviews {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= maxOperatorReviews {
			return
		}
	}
	c.entries[reviewKey(token, attrs)] = cachedReview{user: user, expires: now.Add(operatorReviewTTL)}
}

// Short messages of the operator routes' error bodies.
const (
	msgUnauthorized = "Unauthorized"
	msgForbidden    = "Forbidden"
)

// operatorChallenge is the WWW-Authenticate of an operator route's 401 (RFC 6750).
const operatorChallenge = `Bearer realm="fundshare-operator"`

// authorizeOperator authenticates the request's Kubernetes bearer token and authorizes
// its user for attrs. It returns the user's name, or answers the request (401, 403, 503)
// and returns ok false.
func (s *Server) authorizeOperator(w http.ResponseWriter, r *http.Request, attrs authzv1.ResourceAttributes) (user string, ok bool) {
	unauthorized := func(challenge, details string) {
		w.Header().Set("WWW-Authenticate", challenge)
		w.Header().Set("Cache-Control", "no-store")
		writeError(w, http.StatusUnauthorized, msgUnauthorized, details)
	}
	values := r.Header.Values("Authorization")
	if len(values) == 0 {
		unauthorized(operatorChallenge, "missing bearer token: present a Kubernetes token (kubectl create token SERVICEACCOUNT)")
		return "", false
	}
	const invalid = operatorChallenge + `, error="invalid_token"`
	scheme, token, found := strings.Cut(values[0], " ")
	token = strings.TrimSpace(token)
	switch {
	case len(values) > 1:
		unauthorized(invalid, "multiple Authorization headers")
		return "", false
	case !found || !strings.EqualFold(scheme, "Bearer") || token == "":
		unauthorized(invalid, "malformed Authorization header, expected Bearer token")
		return "", false
	case s.tenantToken(token):
		// Never sent to the API server: a tenant's token has no business there.
		unauthorized(invalid, "a tenant's access token is not accepted on operator routes: present a Kubernetes token")
		return "", false
	}
	if name, ok := s.operatorReviews.allowed(token, attrs); ok {
		return name, true
	}
	log := s.deps.Log.WithValues("request_id", requestIDFrom(r.Context()), "route", routeOf(r))
	u, authenticated, err := s.operators.ReviewToken(r.Context(), token)
	if err != nil {
		log.Error(err, "cannot authenticate an operator's token")
		s.writeReviewError(w, r)
		return "", false
	}
	if !authenticated {
		unauthorized(invalid, "the token is not one the Kubernetes API server authenticates (invalid, expired or revoked)")
		return "", false
	}
	allowed, reason, err := s.operators.Allowed(r.Context(), u, attrs)
	if err != nil {
		log.Error(err, "cannot authorize an operator", "user", u.Username)
		s.writeReviewError(w, r)
		return "", false
	}
	if !allowed {
		log.Info("an operator route refused a user RBAC does not allow", "user", u.Username, "verb", attrs.Verb,
			"resource", attrs.Resource+"."+attrs.Group, "reason", reason)
		details := fmt.Sprintf("%s may not %s %s.%s (RBAC: bind a ClusterRole that allows it, such as the bank operator role)",
			u.Username, attrs.Verb, attrs.Resource, attrs.Group)
		writeError(w, http.StatusForbidden, msgForbidden, details)
		return "", false
	}
	s.operatorReviews.remember(token, attrs, u.Username)
	return u.Username, true
}

// writeReviewError answers a TokenReview or SubjectAccessReview that could not be made.
func (s *Server) writeReviewError(w http.ResponseWriter, r *http.Request) {
	if r.Context().Err() != nil {
		s.writeAPIError(w, r, r.Context().Err(), nil)
		return
	}
	w.Header().Set("Retry-After", "1")
	writeError(w, http.StatusServiceUnavailable, msgUnavailable, "cannot check the token with the Kubernetes API server now; retry")
}

// tenantToken reports whether token is one of the facade's own access tokens (valid or
// not: expired and revoked ones too), by its issuer.
func (s *Server) tenantToken(token string) bool {
	if _, err := s.deps.Issuer.Verify(token); err == nil {
		return true
	}
	var claims jwt.RegisteredClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &claims); err != nil {
		return false
	}
	return claims.Issuer != "" && claims.Issuer == s.deps.Issuer.IssuerURL()
}
