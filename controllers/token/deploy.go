package token

import (
	"context"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// Outbox is what the controllers need of the shared transaction outbox
// (internal/chain/outbox): every transaction of the operator's key goes through it.
type Outbox interface {
	From() common.Address
	ChainID() int64
	Send(ctx context.Context, call outbox.Call, record outbox.RecordFunc) (*investv1.ChainTransaction, error)
	Track(ctx context.Context, rec *investv1.ChainTransaction, confirmations uint64, record outbox.RecordFunc) (outbox.Observation, *investv1.ChainTransaction, error)
}

var _ Outbox = (*outbox.Outbox)(nil)

// pollWhilePending is how often a recorded transaction is looked at until it is final.
const pollWhilePending = time.Second

// OutboxDeployer deploys share classes' tokens through the outbox: the creation is recorded
// in status.token.deployment before it is broadcast, tracked until it has the confirmations,
// and its receipt recorded. The token's admin is the operator's key (the platform moves
// DEFAULT_ADMIN_ROLE to its offline admin afterwards, see docs/tokens.md).
type OutboxDeployer struct {
	Client        client.Client
	Outbox        Outbox
	Registry      common.Address
	Confirmations uint64
}

// Deploy implements Deployer.
func (d *OutboxDeployer) Deploy(ctx context.Context, sc *investv1.ShareClass) (common.Address, time.Duration, error) {
	var rec *investv1.ChainTransaction
	if sc.Status.Token != nil {
		rec = sc.Status.Token.Deployment
	}
	if rec == nil {
		from := d.Outbox.From()
		input := contracts.NewShareToken().PackConstructor(sc.Spec.Name, string(sc.Spec.ISIN), d.Registry, from, from)
		data := append(common.FromHex(contracts.ShareTokenMetaData.Bin), input...)
		_, err := d.Outbox.Send(ctx, outbox.Call{Data: data}, d.record(sc))
		if r, ok := chain.AsRevert(err); ok {
			return common.Address{}, 0, &Problem{ReasonDeploymentFailed, "the deployment would revert: " + r.Reason()}
		}
		if outbox.MustWait(err) {
			return common.Address{}, pollWhilePending, nil
		}
		// Recorded (even if the broadcast failed: Track sends it again) or not: look again.
		return common.Address{}, pollWhilePending, err
	}
	if rec.Receipt == nil {
		obs, _, err := d.Outbox.Track(ctx, rec, d.Confirmations, d.record(sc))
		if err != nil {
			return common.Address{}, 0, err
		}
		switch obs.State {
		case outbox.NonceTaken:
			return common.Address{}, 0, &Problem{ReasonNonceTaken, nonceTakenMessage(rec.Nonce, "deployment")}
		case outbox.Final:
			if err := d.recordReceipt(ctx, sc, obs.Receipt); err != nil {
				return common.Address{}, 0, err
			}
			rec = sc.Status.Token.Deployment
		default:
			return common.Address{}, pollWhilePending, nil
		}
	}
	if rec.Receipt.Status != investv1.ChainReceiptSucceeded {
		return common.Address{}, 0, &Problem{ReasonDeploymentFailed, fmt.Sprintf("the deployment %s reverted: %s", rec.Receipt.Hash, rec.Receipt.RevertReason)}
	}
	return common.HexToAddress(sc.Status.Token.Address), 0, nil
}

// record writes the deployment (first attempt or a replacement) into status.token with its
// address, which the sender and nonce fix.
func (d *OutboxDeployer) record(sc *investv1.ShareClass) outbox.RecordFunc {
	return func(ctx context.Context, tx *investv1.ChainTransaction) error {
		before := sc.DeepCopy()
		if sc.Status.Token == nil {
			sc.Status.Token = &investv1.ShareClassTokenStatus{}
		}
		t := sc.Status.Token
		t.Deployment = tx.DeepCopy()
		t.Address = crypto.CreateAddress(common.HexToAddress(tx.From), uint64(tx.Nonce)).Hex() //nolint:gosec // recorded nonces are not negative (CRD minimum)
		t.ChainID = tx.ChainID
		t.DeploymentTransaction = tx.Attempts[len(tx.Attempts)-1].Hash
		t.IdentityRegistry = d.Registry.Hex()
		return patch.Status(ctx, d.Client, sc, before)
	}
}

func (d *OutboxDeployer) recordReceipt(ctx context.Context, sc *investv1.ShareClass, r *investv1.ChainReceipt) error {
	before := sc.DeepCopy()
	sc.Status.Token.Deployment.Receipt = r
	sc.Status.Token.DeploymentTransaction = r.Hash
	return patch.Status(ctx, d.Client, sc, before)
}
