package apiclient

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// recordingLogger returns a logger that keeps every line it is given, and those lines.
func recordingLogger() (logr.Logger, func() []string) {
	var mu sync.Mutex
	var lines []string
	log := funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, prefix+" "+args)
	}, funcr.Options{Verbosity: 1})
	return log, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := investv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return scheme
}

// failingLists is a client whose List always fails, as a cache that cannot list does.
func failingLists(t *testing.T) client.Client {
	t.Helper()
	return interceptor.NewClient(fake.NewClientBuilder().WithScheme(testScheme(t)).Build(), interceptor.Funcs{
		List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
			return errors.New("the cache cannot list")
		},
	})
}

func TestMapFunctionLogsAFailedList(t *testing.T) {
	log, lines := recordingLogger()
	r := &Reconciler{Client: failingLists(t)}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "t", Name: "credentials"}}
	if reqs := r.clientsOf(logr.NewContext(context.Background(), log), secret); len(reqs) != 0 {
		t.Fatalf("requests = %v, want none", reqs)
	}
	got := strings.Join(lines(), "\n")
	if !strings.Contains(got, "the cache cannot list") || !strings.Contains(got, "credentials") {
		t.Fatalf("the failed List is not logged with the Secret; log:\n%s", got)
	}
}

// TestReconcileNeverLogsTheSecretOrItsHash: the log names the Secret and the reason of
// the verdict, never the hash it holds (valid or malformed) nor the verdict's message.
func TestReconcileNeverLogsTheSecretOrItsHash(t *testing.T) {
	hash := validHash(t)
	for name, value := range map[string]string{"valid hash": hash, "plain secret": "correct horse battery staple", "broken hash": hash[:len(hash)-3]} {
		t.Run(name, func(t *testing.T) {
			scheme := testScheme(t)
			ac := fixtures.ApiClient("t", "acme", "credentials")
			c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(ac, secretWith("hash", value)).
				WithStatusSubresource(&investv1.ApiClient{}).Build()
			log, lines := recordingLogger()
			r := &Reconciler{Client: c, Secrets: c}
			for range 2 { // a first verdict, then an unchanged one
				if _, err := r.Reconcile(logr.NewContext(context.Background(), log), ctrl.Request{NamespacedName: client.ObjectKeyFromObject(ac)}); err != nil {
					t.Fatal(err)
				}
			}
			got := strings.Join(lines(), "\n")
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

// noManager is a manager that panics when used: SetupWithManager must refuse before.
type noManager struct{ ctrl.Manager }

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := failingLists(t)
	for name, tc := range map[string]struct {
		r   *Reconciler
		mgr ctrl.Manager
	}{
		"nil manager": {&Reconciler{Client: c, Secrets: c}, nil},
		"nil Client":  {&Reconciler{Secrets: c}, noManager{}},
		"nil Secrets": {&Reconciler{Client: c}, noManager{}},
	} {
		t.Run(name, func(t *testing.T) {
			if err := tc.r.SetupWithManager(tc.mgr); err == nil {
				t.Fatal("SetupWithManager accepted a nil dependency")
			}
		})
	}
}
