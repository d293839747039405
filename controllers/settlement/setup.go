package settlement

import (
	"fmt"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// SetupSandbox registers the sandbox's money side ("settlement-sandbox"), each step after
// delay, and, when tokens is true (no chain is configured), NoChainTokenSandbox for the
// token side ("settlement-sandbox-no-chain-not-real"). With a chain configured, the chain
// agent (controllers/delivery) settles the token side instead. The money steps of leave
// are not the sandbox's: with the bank's ingestion on (controllers/bank), payments
// received come from the bank's statements.
func SetupSandbox(mgr ctrl.Manager, delay time.Duration, tokens bool, leave ...lifecycle.Step) error {
	money := &Reconciler{
		Client: mgr.GetClient(), Agent: &Sandbox{Delay: delay, Now: time.Now, Name: "sandbox"},
		Delay: delay, Name: "sandbox", Side: lifecycle.MoneySide, Leave: leave,
	}
	if err := money.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("sandbox settlement agent: %w", err)
	}
	if !tokens {
		return nil
	}
	tok := &Reconciler{
		Client: mgr.GetClient(), Agent: &NoChainTokenSandbox{Delay: delay, Now: time.Now},
		Delay: delay, Name: NoChainTokenName, Side: lifecycle.TokenSide,
	}
	if err := tok.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("no-chain token sandbox: %w", err)
	}
	return nil
}
