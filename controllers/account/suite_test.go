package account_test

import (
	"errors"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The account suite runs one real control plane (kube-apiserver + etcd) with the CRDs and
// the admission webhook configurations installed, and a manager built exactly as in
// production (app.NewManager + app.Setup with webhooks and controllers). Every assertion
// reads through k8s, a direct client that bypasses the manager's cache, so a spec sees what
// a kubectl user sees.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})

	mgr *envtest.Manager
)

// Timeouts of Eventually/Consistently; the control plane runs on two shared cores.
const settle, poll, observe = envtest.Settle, envtest.Poll, 2 * time.Second

func TestAccount(t *testing.T) {
	env.Run(t, "Account suite (envtest: admission webhooks + account controllers)", func() {
		mgr = startManager(env.Config)
		DeferCleanup(func() { mgr.Stop() })
	})
}

// startManager builds the manager the way cmd/manager and cmd/devrun do, with the webhook
// server on the address and certificates that envtest installed the webhook configurations
// for, and waits until the webhooks serve. RESTAddr is empty: no REST facade here. The
// restart spec builds a second manager in this process, hence SkipNameValidation.
func startManager(cfg *rest.Config) *envtest.Manager {
	GinkgoHelper()
	return env.StartManager(cfg, apptest.Manager(apptest.WebhooksAndControllers))
}

// ensureSuiteManager leaves the suite's manager running, whatever a spec did to it.
func ensureSuiteManager() {
	if mgr != nil && !mgr.Stopped() && mgr.Config == env.Config {
		return
	}
	if mgr != nil {
		mgr.Stop()
	}
	mgr = startManager(env.Config)
}

// newNamespace gives every spec its own namespace (envtest has no garbage collector).
func newNamespace() string { return env.NewTenant("acct") }

// create creates obj through the API server (so admission answers) and fails the spec on
// error.
func create(obj client.Object) {
	GinkgoHelper()
	Expect(k8s.Create(ctx, obj)).To(Succeed())
}

// causes returns the field-level causes of an API error as field path → messages.
func causes(err error) map[string][]string {
	GinkgoHelper()
	var status apierrors.APIStatus
	Expect(errors.As(err, &status)).To(BeTrue(), "not an API status error: %v", err)
	out := map[string][]string{}
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			out[c.Field] = append(out[c.Field], c.Message)
		}
	}
	return out
}

// reason returns the StatusReason of an API error.
func reason(err error) metav1.StatusReason { return apierrors.ReasonForError(err) }
