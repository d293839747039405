package settlement

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := fake.NewClientBuilder().Build()
	ctrltest.ExpectSetupRefuses(t, map[string]ctrltest.SetupCase{
		"nil manager": {Setup: (&Reconciler{Client: c, Agent: &Sandbox{}}).SetupWithManager, Manager: nil},
		"nil Client":  {Setup: (&Reconciler{Agent: &Sandbox{}}).SetupWithManager, Manager: ctrltest.NoManager{}},
		"nil Agent":   {Setup: (&Reconciler{Client: c}).SetupWithManager, Manager: ctrltest.NoManager{}},
	})
}
