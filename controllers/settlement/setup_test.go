package settlement

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := fake.NewClientBuilder().Build()
	ctrltest.ExpectSetupRefusesNil(t, &Reconciler{Client: c, Agent: &Sandbox{}}, "Client", "Agent")
}
