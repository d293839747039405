package webhooks

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// +kubebuilder:webhook:path=/mutate-invest-fundshare-io-v1alpha1-bankdecision,mutating=true,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=bankdecisions,verbs=create,versions=v1alpha1,name=mbankdecision.invest.fundshare.io,admissionReviewVersions=v1

// bankDecisionWebhook stamps who created a bank decision, as the API server
// authenticated them: the bank ledger records it with the decision, and what the
// creator wrote in spec.decidedBy is replaced, so that nobody decides in another's name.
// The spec is immutable afterwards (the CRD's rule), so the stamp stays.
type bankDecisionWebhook struct{}

// Default sets spec.decidedBy to the requesting user's name.
func (bankDecisionWebhook) Default(ctx context.Context, d *investv1.BankDecision) error {
	req, err := admission.RequestFromContext(ctx)
	if err != nil {
		return fmt.Errorf("bank decision %s: no admission request to read its creator from: %w", d.Name, err)
	}
	d.Spec.DecidedBy = req.UserInfo.Username
	return nil
}
