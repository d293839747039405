package app

import (
	"net/http"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"

	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/fundshare/fundshare-operator/internal/scheme"
)

// staticMapper maps every kind of the scheme without asking a server.
func staticMapper(*rest.Config, *http.Client) (meta.RESTMapper, error) {
	m := meta.NewDefaultRESTMapper(nil)
	for gvk := range scheme.New().AllKnownTypes() {
		m.Add(gvk, meta.RESTScopeNamespace)
	}
	return m, nil
}

// The pinned controller-runtime's priority queue can deadlock when a manager stops
// (kubernetes-sigs/controller-runtime#3538): every manager the binary builds uses the
// classic workqueue unless a caller chose explicitly.
func TestManagersUseTheClassicWorkqueueWhileThePriorityQueueCanDeadlockOnShutdown(t *testing.T) {
	cfg := &rest.Config{Host: "https://127.0.0.1:1"} // never dialled: nothing is started
	mgr, err := NewManager(cfg, ctrl.Options{MapperProvider: staticMapper})
	if err != nil {
		t.Fatal(err)
	}
	if got := mgr.GetControllerOptions().UsePriorityQueue; got == nil || *got {
		t.Fatalf("UsePriorityQueue = %v, want false", got)
	}

	chosen := ctrl.Options{}
	chosen.Controller.UsePriorityQueue = ptr.To(true)
	ClassicWorkqueue(&chosen)
	if !*chosen.Controller.UsePriorityQueue {
		t.Fatal("an explicit choice was overridden")
	}
}
