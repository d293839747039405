package apiclient

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

func TestMapFunctionLogsAFailedList(t *testing.T) {
	r := &Reconciler{Client: ctrltest.FailingLists(t)}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "t", Name: "credentials"}}
	ctrltest.ExpectListFailureLogged(t, r.clientsOf, secret)
}

// TestReconcileNeverLogsTheSecretOrItsHash: the log names the Secret and the reason of
// the verdict, never the hash it holds (valid or malformed) nor the verdict's message.
func TestReconcileNeverLogsTheSecretOrItsHash(t *testing.T) {
	hash := validHash(t)
	for name, value := range map[string]string{"valid hash": hash, "plain secret": "correct horse battery staple", "broken hash": hash[:len(hash)-3]} {
		t.Run(name, func(t *testing.T) {
			ac := fixtures.ApiClient("t", "acme", "credentials")
			c := ctrltest.FakeClient(t, []client.Object{ac, secretWith("hash", value)}, &investv1.ApiClient{})
			// A first verdict, then an unchanged one.
			lines := ctrltest.ReconcileLogged(t, &Reconciler{Client: c, Secrets: c}, ac, 1, 2)
			got := strings.Join(lines, "\n")
			if !strings.Contains(got, "credentials") {
				t.Fatalf("the log does not name the Secret:\n%s", got)
			}
			for _, leak := range []string{value, "argon2id$", "correct horse"} {
				if strings.Contains(got, leak) {
					t.Fatalf("the log holds %q:\n%s", leak, got)
				}
			}
		})
	}
}

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := ctrltest.FailingLists(t)
	ctrltest.ExpectSetupRefusesNil(t, &Reconciler{Client: c, Secrets: c}, "Client", "Secrets")
}
