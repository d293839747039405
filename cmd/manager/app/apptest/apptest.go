// Package apptest builds the envtest suites' managers the way production builds them (the
// composition root, package app), for internal/test/envtest, which cannot import the
// root: the root imports the controllers, whose own suites import envtest. Test code
// only: nothing the production binary links imports it (cmd/manager's deps_test).
package apptest

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// WebhooksAndControllers is what most suites run: the admission webhooks and the
// controllers, without a settlement agent (specs record settlement evidence themselves or
// start an agent of their own).
var WebhooksAndControllers = app.Config{Webhooks: true, Controllers: true, SandboxSettlement: -1}

// Manager is a manager built as production builds it: app.NewManager, then app.Setup with
// cfg, then each of extra (a reconciler or runnable the suite adds). It skips the
// controller name validation, so that a suite may build a second manager in the process
// (a restart).
func Manager(cfg app.Config, extra ...func(ctrl.Manager) error) envtest.ManagerOptions {
	return envtest.ManagerOptions{
		New: app.NewManager,
		Setup: func(mgr ctrl.Manager) error {
			if err := app.Setup(mgr, cfg); err != nil {
				return err
			}
			for _, setup := range extra {
				if err := setup(mgr); err != nil {
					return err
				}
			}
			return nil
		},
		SkipNameValidation: true,
	}
}
