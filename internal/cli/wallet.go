package cli

import (
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

const walletHelp = `Usage: PROG wallet recover --account ID --from WALLET_ID --to WALLET_ID [-n NS] [--kubeconfig F] [--context C]

Creates a WalletRecovery (named after the lost wallet, in the tenant's namespace): the chain
agent moves the lost wallet's whole balance, in every share class token and with every
lock-up, to another registered wallet of the same account, once. A wallet has at most one
recovery: an existing one is reported, never replaced. Follow it with
kubectl get walletrecovery -n NS WALLET_ID -w.
`

func runWallet(p *Program, args []string) error {
	if _, err := p.verb("wallet", walletHelp, args, "recover"); err != nil {
		return err
	}
	f := p.newFlags("wallet recover", walletHelp)
	var k kubeFlags
	k.bind(f, true)
	account := f.String("account", "", "the account's id (required)")
	from := f.String("from", "", "the lost wallet's id (required)")
	to := f.String("to", "", "the id of the account's wallet that receives the units (required)")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if *account == "" || *from == "" || *to == "" {
		return usageErrorf("wallet recover: --account, --from and --to are required")
	}
	if *from == *to {
		return usageErrorf("wallet recover: --to must be another wallet than --from")
	}
	ns, err := k.ns()
	if err != nil {
		return fmt.Errorf("wallet recover: %w", err)
	}
	c, err := k.client()
	if err != nil {
		return fmt.Errorf("wallet recover: %w", err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	rec := &investv1.WalletRecovery{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: *from},
		Spec: investv1.WalletRecoverySpec{AccountID: investv1.ObjectID(*account),
			FromWalletID: investv1.ObjectID(*from), ToWalletID: investv1.ObjectID(*to)},
	}
	if err := c.Create(ctx, rec); err != nil {
		if apierrors.IsAlreadyExists(err) {
			old := &investv1.WalletRecovery{}
			if gerr := c.Get(ctx, client.ObjectKeyFromObject(rec), old); gerr != nil {
				return fmt.Errorf("wallet recover: %w", errors.Join(err, gerr))
			}
			return fmt.Errorf("wallet recover: wallet %s in %s already has a recovery (to wallet %s, phase %q); it is not replaced",
				*from, ns, old.Spec.ToWalletID, old.Status.Phase)
		}
		return fmt.Errorf("wallet recover: %w", err)
	}
	_, err = fmt.Fprintf(p.Stdout, "walletrecovery/%s created in %s: the units of wallet %s move to wallet %s (kubectl get walletrecovery -n %s %s -w)\n",
		rec.Name, ns, *from, *to, ns, rec.Name)
	return err
}
