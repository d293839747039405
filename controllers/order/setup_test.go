package order

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
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
	fund := &investv1.Fund{ObjectMeta: metav1.ObjectMeta{Name: "fund-1"}}
	if reqs := r.ordersOfFund(logr.NewContext(context.Background(), log), fund); len(reqs) != 0 {
		t.Fatalf("requests = %v, want none", reqs)
	}
	got := strings.Join(lines(), "\n")
	if !strings.Contains(got, "the cache cannot list") || !strings.Contains(got, "fund-1") {
		t.Fatalf("the failed List is not logged with the fund; log:\n%s", got)
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
		"nil manager": {&Reconciler{Client: c, Live: c}, nil},
		"nil Client":  {&Reconciler{Live: c}, noManager{}},
		"nil Live":    {&Reconciler{Client: c}, noManager{}},
	} {
		t.Run(name, func(t *testing.T) {
			if err := tc.r.SetupWithManager(tc.mgr); err == nil {
				t.Fatal("SetupWithManager accepted a nil dependency")
			}
		})
	}
}
