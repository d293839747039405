package apiclient

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

func validHash(t *testing.T) string {
	t.Helper()
	h, err := clientsecret.Hash("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func secretWith(key, value string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "credentials", Namespace: "t"}, Data: map[string][]byte{key: []byte(value)}}
}

// TestApiClientReadyReasons is the pure decision behind the Ready condition, one row per
// reason.
func TestApiClientReadyReasons(t *testing.T) {
	hash := validHash(t)
	disabled := fixtures.ApiClient("t", "acme", "credentials")
	disabled.Spec.Disabled = true
	defaultKey := fixtures.ApiClient("t", "acme", "credentials")
	defaultKey.Spec.ClientSecretRef.Key = ""
	for _, tc := range []struct {
		name   string
		ac     *investv1.ApiClient
		secret *corev1.Secret
		reason string
	}{
		{"valid hash", fixtures.ApiClient("t", "acme", "credentials"), secretWith("hash", hash), ReasonReady},
		{"key omitted means hash", defaultKey, secretWith("hash", hash), ReasonReady},
		{"secret missing", fixtures.ApiClient("t", "acme", "credentials"), nil, ReasonSecretNotFound},
		{"key missing", fixtures.ApiClient("t", "acme", "credentials"), secretWith("other", hash), ReasonSecretKeyMissing},
		{"key empty", fixtures.ApiClient("t", "acme", "credentials"), secretWith("hash", ""), ReasonSecretKeyMissing},
		{"plain secret instead of a hash", fixtures.ApiClient("t", "acme", "credentials"), secretWith("hash", "s3cr3t-plain-value"), ReasonInvalidHash},
		{"bcrypt hash", fixtures.ApiClient("t", "acme", "credentials"), secretWith("hash", "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"), ReasonInvalidHash},
		{"argon2id with absurd memory", fixtures.ApiClient("t", "acme", "credentials"), secretWith("hash", strings.Replace(hash, "m=19456", "m=99999999", 1)), ReasonInvalidHash},
		{"disabled", disabled, secretWith("hash", hash), ReasonDisabled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Judge(tc.ac, tc.secret)
			if v.Reason != tc.reason {
				t.Fatalf("reason = %s (%s), want %s", v.Reason, v.Message, tc.reason)
			}
			if tc.secret != nil && strings.Contains(v.Message, string(tc.secret.Data["hash"])) && len(tc.secret.Data["hash"]) > 0 {
				t.Fatalf("the message shows the Secret's value: %s", v.Message)
			}
		})
	}
}

// kstatusOf computes what Flux, kpt and kubectl-based tools read from obj.
var kstatusOf = ctrltest.KstatusOf

// TestKstatusOfApiClientsAndStatuslessKinds is the kstatus table of docs/kubectl-guide.md
// for ApiClient, and for the kinds without a status (CustomOffering, Fund, ShareClass,
// NAVHistory), computed with cli-utils.
func TestKstatusOfApiClientsAndStatuslessKinds(t *testing.T) {
	for _, tc := range []struct {
		reason string
		ready  metav1.ConditionStatus
		want   status.Status
	}{
		{ReasonReady, metav1.ConditionTrue, status.CurrentStatus},
		{ReasonDisabled, metav1.ConditionTrue, status.CurrentStatus},
		{ReasonSecretNotFound, metav1.ConditionFalse, status.FailedStatus},
		{ReasonSecretKeyMissing, metav1.ConditionFalse, status.FailedStatus},
		{ReasonInvalidHash, metav1.ConditionFalse, status.FailedStatus},
	} {
		ac := fixtures.ApiClient("t", "acme", "credentials")
		ac.TypeMeta = metav1.TypeMeta{APIVersion: investv1.GroupVersion.String(), Kind: "ApiClient"}
		ac.Generation = 2
		// A failure first, then this verdict: conditions of an earlier state must not stay.
		SetConditions(&ac.Status, 1, Verdict{Reason: ReasonInvalidHash, Message: "earlier"})
		SetConditions(&ac.Status, 2, Verdict{Reason: tc.reason, Message: "m"})
		ready := findCondition(ac.Status.Conditions, investv1.ConditionReady)
		if ready.Status != tc.ready || ready.Reason != tc.reason || ready.ObservedGeneration != 2 {
			t.Errorf("%s: Ready = %+v", tc.reason, ready)
		}
		if got := kstatusOf(t, ac); got != tc.want {
			t.Errorf("ApiClient %s: kstatus = %s, want %s", tc.reason, got, tc.want)
		}
		// Before the controller saw the new generation: InProgress whatever the conditions.
		ac.Generation = 3
		if got := kstatusOf(t, ac); got != status.InProgressStatus {
			t.Errorf("ApiClient %s, generation not observed: kstatus = %s, want InProgress", tc.reason, got)
		}
	}

	gv := investv1.GroupVersion.String()
	offering := &investv1.CustomOffering{TypeMeta: metav1.TypeMeta{APIVersion: gv, Kind: "CustomOffering"}}
	fund := fixtures.Fund()
	fund.TypeMeta = metav1.TypeMeta{APIVersion: gv, Kind: "Fund"}
	sc := fixtures.ShareClass(fund.Name, fixtures.ISIN)
	sc.TypeMeta = metav1.TypeMeta{APIVersion: gv, Kind: "ShareClass"}
	nav := fixtures.NAVHistory(fixtures.ISIN, "EUR")
	nav.TypeMeta = metav1.TypeMeta{APIVersion: gv, Kind: "NAVHistory"}
	for _, obj := range []runtime.Object{offering, fund, sc, nav} {
		if got := kstatusOf(t, obj); got != status.CurrentStatus {
			t.Errorf("%s (no status): kstatus = %s, want Current", obj.GetObjectKind().GroupVersionKind().Kind, got)
		}
	}
}

func findCondition(cs []metav1.Condition, t string) *metav1.Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return &metav1.Condition{}
}
