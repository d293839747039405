package outbox

import (
	"context"
	"errors"
	"fmt"
)

// Records behind the chain. The records can fall behind the chain: etcd restored from an
// older snapshot, or a status write lost. Then the signer's nonce on chain is above every
// nonce the records hold. The records alone cannot tell that apart from normal operation
// (completed orders leave for the archive, deleted Wallets take their records along, a
// fresh cluster may use a key with a history), so the outbox keeps one more durable fact
// beside the records, in the same store (so that a restore rewinds it with them): a
// reservation mark, the nonce below which every nonce it ever signed lies. It raises the
// mark (by ReserveAhead nonces at once) before it signs above it. A chain nonce above the
// mark then means transactions of the key were mined that this store never reserved: the
// store was rewound, or the key was used outside the operator. The outbox says so (health
// RecordsBehind, latched in the mark until a person clears it) and goes on signing: owners
// look each effect up on chain first (effect references); owners of effects on tokens
// without references sign nothing while the alarm stands.

// Mark is the reservation mark of one signer on one chain.
type Mark struct {
	// Reserved: every nonce the outbox signed is below it.
	Reserved uint64
	// Alarm is the latched records-behind alarm ("" none): set by the outbox, cleared by a
	// person.
	Alarm string
}

// Marks keeps the Mark durably, in the store that holds the records (the composition root
// uses a ConfigMap). Load returns found false when there is none yet.
type Marks interface {
	Load(ctx context.Context) (m Mark, found bool, err error)
	Save(ctx context.Context, m Mark) error
}

// DefaultReserveAhead is how many nonces a raise of the mark reserves at once.
const DefaultReserveAhead = 16

// reserveLocked raises the mark above nonce before it is signed (o.mu held).
func (o *Outbox) reserveLocked(ctx context.Context, nonce uint64) error {
	if o.cfg.Marks == nil || nonce < o.mark.Reserved {
		return nil
	}
	next := o.mark
	next.Reserved = nonce + o.cfg.ReserveAhead
	if err := o.cfg.Marks.Save(ctx, next); err != nil {
		return fmt.Errorf("outbox: reserve nonces up to %d: %w", next.Reserved, err)
	}
	o.mark = next
	return nil
}

// checkMarkLocked compares the chain's nonce with the mark and the records (o.mu held): it
// creates the mark on the first start (the chain's history is then this cluster's start,
// nothing is alarmed), latches the alarm when the chain is above both, and returns the
// alarm standing ("" none).
func (o *Outbox) checkMarkLocked(ctx context.Context, chainNonce, recordedTop uint64) (string, error) {
	if o.cfg.Marks == nil {
		return "", nil
	}
	m, found, err := o.cfg.Marks.Load(ctx)
	if err != nil {
		return "", fmt.Errorf("outbox: load the reservation mark: %w", err)
	}
	if !found {
		pending, err := o.cfg.Backend.PendingNonceAt(ctx, o.from)
		if err != nil {
			return "", fmt.Errorf("outbox: pending nonce: %w", err)
		}
		m = Mark{Reserved: max(pending, chainNonce, recordedTop)}
		if err := o.cfg.Marks.Save(ctx, m); err != nil {
			return "", fmt.Errorf("outbox: create the reservation mark: %w", err)
		}
		o.cfg.Log.Info("no reservation mark yet: the signer's nonces on chain so far are taken as this cluster's start",
			"from", o.from.Hex(), "reserved", m.Reserved)
	}
	if m.Alarm == "" && chainNonce > max(m.Reserved, recordedTop) {
		m.Alarm = fmt.Sprintf("the records are behind the chain: the agent %s's nonce on chain is %d, but this cluster reserved nonces below %d only and its records hold nonces below %d: %d transaction(s) of the key were mined that no record holds (etcd restored from an older snapshot, or the key used outside the operator)",
			o.from.Hex(), chainNonce, m.Reserved, recordedTop, chainNonce-max(m.Reserved, recordedTop))
		m.Reserved = chainNonce // seen: clearing the alarm does not raise it again
		if err := o.cfg.Marks.Save(ctx, m); err != nil {
			return "", fmt.Errorf("outbox: latch the records-behind alarm: %w", err)
		}
		o.cfg.Log.Error(errors.New(m.Alarm), "the records are behind the chain; every effect on a token with effect references is looked up on chain before it is signed, effects on tokens without them are not signed until a person clears the alarm")
	}
	o.mark = m
	return m.Alarm, nil
}
