package placement

import (
	"context"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/index"
)

// Input is everything placement decides on, read by Gather, so that Decide reads nothing
// but its argument. A nil object was not found (or, for the optional ones, not named).
type Input struct {
	// Now is the time of placement: custom offerings must be valid now.
	Now time.Time
	// Order is the order being placed.
	Order *investv1.Order
	// Account is the order's account, read from the API server. Nil: not found, and
	// nothing else was read.
	Account *investv1.Account
	// ShareClass is the share class with the order's ISIN. Nil: none, and nothing else was
	// read.
	ShareClass *investv1.ShareClass
	// Fund is the share class's feeder fund. Nil: not found, and nothing else was read.
	Fund *investv1.Fund
	// NAVHistory is the ISIN's price history. Nil: none.
	NAVHistory *investv1.NAVHistory
	// CustomOffering is the offering the order names. Nil: none named, or not found.
	CustomOffering *investv1.CustomOffering
	// Wallet is the wallet the order names, or else the account's primary one. Nil: none
	// named and no primary, or not found.
	Wallet *investv1.Wallet
	// PaymentMethodDetails are the ones the order names, or else the account's primary
	// ones. Nil: none named and no primary, or not found.
	PaymentMethodDetails *investv1.PaymentMethodDetails
	// Positions are the account's holdings at Now, read for SELL orders only.
	Positions map[investv1.ISIN]*holdings.Position
	// OnChainReserved (SELL, an account with on-chain figures) is the units of the
	// order's ISIN reserved by the account's other sells and not burned by the block of
	// its on-chain figures (holdings.NotBurnedBy).
	OnChainReserved int64
	// OnChainMinted (SELL, an account with on-chain figures) is the units of the order's
	// ISIN its buys minted after that block (holdings.MintedAfter).
	OnChainMinted int64
	// OnChainTransferred (SELL, an account with on-chain figures) is the net units of the
	// order's ISIN its wallets received less sent by holder transfers after that block
	// (holdings.TransferredAfter).
	OnChainTransferred int64
}

// Gather reads what placing o needs into an Input. It stops reading at the first missing
// object that the rest depends on (account, share class, fund), as Decide refuses the
// order there. A non-nil error is an internal failure; not-found is not one.
func Gather(ctx context.Context, r Readers, o *investv1.Order, now time.Time) (Input, error) {
	in := Input{Now: now, Order: o}
	ns := o.Namespace

	// The account is read from the API server: its primary pointers and reservations must
	// be current (a client that just made a wallet primary places an order at once).
	acct := &investv1.Account{}
	if ok, err := present(r.live().Get(ctx, client.ObjectKey{Namespace: ns, Name: string(o.Spec.AccountID)}, acct)); err != nil || !ok {
		return in, err
	}
	in.Account = acct

	// A class created a moment ago may not be in the cache yet: the API server says
	// whether the ISIN is unknown.
	classes, err := index.ShareClassesOf(ctx, o.Spec.ISIN, r.Cache, r.Live)
	if err != nil {
		return in, err
	}
	if len(classes.Items) == 0 {
		return in, nil
	}
	in.ShareClass = &classes.Items[0]

	fund := &investv1.Fund{}
	if ok, err := present(r.get(ctx, client.ObjectKey{Name: string(in.ShareClass.Spec.FeederFundID)}, fund)); err != nil || !ok {
		return in, err
	}
	in.Fund = fund

	// A forward-priced order is priced at the strike: placement reads no NAV (the history
	// of a daily-priced class is the largest object it would read).
	if !Forward(in.ShareClass) {
		h := &investv1.NAVHistory{}
		if ok, err := present(r.get(ctx, client.ObjectKey{Name: strings.ToLower(string(o.Spec.ISIN))}, h)); err != nil {
			return in, err
		} else if ok {
			in.NAVHistory = h
		}
	}

	if o.Spec.CustomOfferingID != "" {
		off := &investv1.CustomOffering{}
		if ok, err := present(r.get(ctx, client.ObjectKey{Namespace: ns, Name: string(o.Spec.CustomOfferingID)}, off)); err != nil {
			return in, err
		} else if ok {
			in.CustomOffering = off
		}
	}

	if id := childID(string(o.Spec.WalletID), acct.Spec.PrimaryWallet); id != "" {
		w := &investv1.Wallet{}
		if ok, err := present(r.get(ctx, client.ObjectKey{Namespace: ns, Name: id}, w)); err != nil {
			return in, err
		} else if ok {
			in.Wallet = w
		}
	}
	if id := childID(string(o.Spec.PaymentMethodDetailsID), acct.Spec.PrimaryPaymentMethodDetails); id != "" {
		pmd := &investv1.PaymentMethodDetails{}
		if ok, err := present(r.get(ctx, client.ObjectKey{Namespace: ns, Name: id}, pmd)); err != nil {
			return in, err
		} else if ok {
			in.PaymentMethodDetails = pmd
		}
	}

	if o.Spec.Side == investv1.SideSell {
		h, err := history.Load(ctx, r.Cache, r.Archive, acct, now)
		if err != nil {
			return in, err
		}
		in.Positions = h.Positions(acct, now)
		if oc := acct.Status.OnChain; oc != nil {
			in.OnChainReserved = holdings.NotBurnedBy(acct.Status.Reservations, h.Live, o.Spec.ISIN, o.Name, oc.Block)
			in.OnChainMinted = holdings.MintedAfter(h.Live, o.Spec.ISIN, oc.Block)
			in.OnChainTransferred = holdings.TransferredAfter(h.Transfers, o.Spec.ISIN, oc.Block)
		}
	}
	return in, nil
}

// present folds a read's error: (true, nil) read, (false, nil) not found, (false, err) failed.
func present(err error) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case apierrors.IsNotFound(err):
		return false, nil
	}
	return false, err
}

// childID is the wallet or payment method the order uses: the one it names, or else the
// account's primary.
func childID(named, primary string) string {
	if named != "" {
		return named
	}
	return primary
}
