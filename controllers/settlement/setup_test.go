package settlement

import (
	"testing"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// noManager is a manager that panics when used: SetupWithManager must refuse before.
type noManager struct{ ctrl.Manager }

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := fake.NewClientBuilder().Build()
	for name, tc := range map[string]struct {
		r   *Reconciler
		mgr ctrl.Manager
	}{
		"nil manager": {&Reconciler{Client: c, Agent: &Sandbox{}}, nil},
		"nil Client":  {&Reconciler{Agent: &Sandbox{}}, noManager{}},
		"nil Agent":   {&Reconciler{Client: c}, noManager{}},
	} {
		t.Run(name, func(t *testing.T) {
			if err := tc.r.SetupWithManager(tc.mgr); err == nil {
				t.Fatal("SetupWithManager accepted a nil dependency")
			}
		})
	}
}
