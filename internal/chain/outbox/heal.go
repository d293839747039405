package outbox

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/prometheus/client_golang/prometheus"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// HealthState is how the chain stands against what the outbox recorded.
type HealthState int

const (
	// InSync: the chain holds every transaction recorded as final.
	InSync HealthState = iota
	// Behind: the chain lost transactions recorded as final (a node restored from a
	// snapshot or restarted without its last blocks, a lagging endpoint, a reorganisation
	// deeper than the confirmations). The outbox broadcasts the recorded transactions again
	// from the chain's nonce upward, as the recorded bytes, and signs nothing new until the
	// chain holds them again.
	Behind
	// Halted: the chain is behind and a nonce in the way has no record any more (its owner
	// left the cluster), so the recorded transactions above it cannot be mined. Nothing new
	// is signed until a person fills the nonce (docs/tokens.md, "Healing").
	Halted
	// RecordsBehind: the records are behind the chain: the signer's nonce on chain is above
	// every nonce this cluster's outbox reserved (Config.Marks), so transactions of the key
	// were mined that no record holds and none ever held here (etcd restored from an older
	// snapshot, or the key used outside the operator). Signing goes on: every effect on a
	// token with effect references is looked up on chain before it is signed; effects on a
	// token without them are not signed (the owners ask RecordsBehind) until a person clears
	// the alarm (docs/tokens.md, "When the records fall behind the chain").
	RecordsBehind
)

// String names the state.
func (s HealthState) String() string {
	switch s {
	case InSync:
		return "InSync"
	case Behind:
		return "Behind"
	case Halted:
		return "Halted"
	case RecordsBehind:
		return "RecordsBehind"
	}
	return fmt.Sprintf("HealthState(%d)", int(s))
}

// Health is what the last comparison of the chain with the records found.
type Health struct {
	State HealthState
	// ChainNonce is the signer's nonce at the chain's latest block: the transactions of
	// nonces below it are mined.
	ChainNonce uint64
	// Final is one more than the highest nonce recorded (or seen) as final: the chain must
	// reach it to hold everything recorded.
	Final uint64
	// Rebroadcast counts the recorded transactions broadcast again by the last pass.
	Rebroadcast int
	// Missing are the nonces at or above ChainNonce that no record holds (Halted).
	Missing []uint64
	// Changed are the transactions that were mined again with another outcome than the one
	// recorded (a success that now reverts, or the reverse), since the outbox started.
	Changed []Change
	// Since is when the state was entered.
	Since time.Time
	// Message says it in a sentence, with the numbers.
	Message string
}

// Change is a recorded transaction mined again with another outcome.
type Change struct {
	Nonce    uint64
	Owner    string
	Hash     string
	Recorded investv1.ChainReceiptStatus
	Now      investv1.ChainReceiptStatus
	// Reason is the decoded revert reason when it now reverts.
	Reason string
}

// Notice is something a person should see about one owner or the signer: the outbox
// reports it through Config.Notify (the manager turns it into an Event and a log line).
type Notice struct {
	// Record is the owner's record the notice is about; nil for the signer as a whole.
	Record *Record
	// Warning is true for what needs a person.
	Warning bool
	// Reason is a CamelCase reason: ChainBehind, TransactionRebroadcast, ChainHealed,
	// NonceMissing, TransactionOutcomeChanged, RecordsBehindChain.
	Reason  string
	Message string
}

// ErrChainBehind is returned by Send while the chain is behind the records (Behind or
// Halted): nothing new is signed until it holds them again.
var ErrChainBehind = errors.New("outbox: the chain is behind the recorded transactions")

// MustWait reports whether Send refused because the outbox cannot sign yet (ErrNotSynced)
// or now (ErrChainBehind): nothing was signed; ask again in a moment.
func MustWait(err error) bool {
	return errors.Is(err, ErrNotSynced) || errors.Is(err, ErrChainBehind)
}

var (
	healthGauge = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "fundshare_chain_outbox_health",
		Help: "1 for the state the chain stands in against the agent's recorded transactions (InSync, Behind, Halted, RecordsBehind), 0 for the others.",
	}, []string{"signer", "state"})
	rebroadcasts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_chain_outbox_rebroadcasts_total",
		Help: "Recorded transactions broadcast again because the chain was behind the records.",
	}, []string{"signer"})
	missingNonces = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "fundshare_chain_outbox_missing_nonces",
		Help: "Nonces the chain needs that no record holds: nothing is signed until a person fills them.",
	}, []string{"signer"})
	outcomeChanges = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_chain_outbox_outcome_changes_total",
		Help: "Recorded transactions mined again with another outcome than the one recorded.",
	}, []string{"signer"})
)

func init() {
	metricset.MustRegister(healthGauge, rebroadcasts, missingNonces, outcomeChanges)
}

// Health is the result of the last comparison (InSync before the first).
func (o *Outbox) Health() Health {
	o.hmu.Lock()
	defer o.hmu.Unlock()
	h := o.health
	h.Missing = slices.Clone(h.Missing)
	h.Changed = slices.Clone(h.Changed)
	return h
}

// RecordsBehind is the alarm's message while the records are behind the chain
// (RecordsBehind), else "". Owners of effects on tokens without effect references sign
// nothing while it is set.
func (o *Outbox) RecordsBehind() string {
	o.hmu.Lock()
	defer o.hmu.Unlock()
	if o.health.State == RecordsBehind {
		return o.health.Message
	}
	return ""
}

func (o *Outbox) signing() error {
	o.hmu.Lock()
	defer o.hmu.Unlock()
	if o.health.State != InSync && o.health.State != RecordsBehind {
		return fmt.Errorf("%w: %s", ErrChainBehind, o.health.Message)
	}
	return nil
}

// sawFinal notes that nonce was seen final on the chain: the chain must keep it.
func (o *Outbox) sawFinal(nonce uint64) {
	o.hmu.Lock()
	defer o.hmu.Unlock()
	o.final = max(o.final, nonce+1)
}

func (o *Outbox) notify(n Notice) {
	if o.cfg.Notify != nil {
		o.cfg.Notify(n)
	}
}

// recordsLocked lists every Source's records of this signer and chain; o.mu is held, so no
// record is written meanwhile (a nonce half recorded would look like a gap).
func (o *Outbox) recordsLocked(ctx context.Context) ([]Record, error) {
	var out []Record
	for _, s := range o.sources {
		recs, err := s.Records(ctx)
		if err != nil {
			return nil, fmt.Errorf("outbox: recorded transactions: %w", err)
		}
		for _, r := range recs {
			if signedBy(r.Tx, o.from, o.chainID) {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// nonceRecords is what the records hold of one nonce: several owners may hold the same
// transaction (a batch and its member orders).
type nonceRecords struct {
	recs     []Record
	attempts []investv1.ChainTransactionAttempt
	receipt  *investv1.ChainReceipt
}

func byNonce(recs []Record) map[uint64]*nonceRecords {
	m := map[uint64]*nonceRecords{}
	for _, r := range recs {
		n := uint64(r.Tx.Nonce) //nolint:gosec // recorded nonces are not negative (CRD minimum)
		e := m[n]
		if e == nil {
			e = &nonceRecords{}
			m[n] = e
		}
		e.recs = append(e.recs, r)
		for _, a := range r.Tx.Attempts {
			i := slices.IndexFunc(e.attempts, func(b investv1.ChainTransactionAttempt) bool { return strings.EqualFold(a.Hash, b.Hash) })
			switch {
			case i < 0:
				e.attempts = append(e.attempts, a)
			case e.attempts[i].Raw == "" && a.Raw != "":
				// A batch member's copy has no signed bytes; the batch's record has them.
				e.attempts[i] = a
			}
		}
		if r.Tx.Receipt != nil && e.receipt == nil {
			e.receipt = r.Tx.Receipt
		}
	}
	return m
}

// Heal compares the chain with the records once: the signer's nonce at the latest block
// against the highest nonce recorded as final. When the chain is behind, it broadcasts the
// recorded transactions again, from the chain's nonce upward in nonce order, as the
// recorded bytes (the attempt the receipt names where one was recorded, else every
// attempt): the same hashes, so no effect can happen twice and no new nonce is used for an
// old effect. Once the chain holds them again, each one re-mined is checked against its
// recorded outcome. Send refuses while the chain is behind. Heal holds the outbox's lock
// while it reads the records.
func (o *Outbox) Heal(ctx context.Context) (Health, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	recs, err := o.recordsLocked(ctx)
	if err != nil {
		return o.Health(), err
	}
	chainNonce, err := o.cfg.Backend.NonceAt(ctx, o.from, nil)
	if err != nil {
		return o.Health(), fmt.Errorf("outbox: nonce at the latest block: %w", err)
	}
	m := byNonce(recs)
	var highest, recordedTop uint64
	o.hmu.Lock()
	final := o.final
	o.hmu.Unlock()
	for n, e := range m {
		highest = max(highest, n)
		recordedTop = max(recordedTop, n+1)
		if e.receipt != nil {
			final = max(final, n+1)
		}
	}
	o.hmu.Lock()
	o.final = final
	prev := o.health
	o.hmu.Unlock()

	h := Health{ChainNonce: chainNonce, Final: final, Changed: prev.Changed, Since: prev.Since}
	signer := o.from.Hex()
	if chainNonce < final {
		h.State = Behind
		for n := chainNonce; n <= highest; n++ {
			e := m[n]
			if e == nil {
				h.Missing = append(h.Missing, n)
				continue
			}
			if o.rebroadcast(ctx, e) {
				h.Rebroadcast++
			}
			if o.healing == nil {
				o.healing = map[uint64]bool{}
			}
			if !o.healing[n] {
				o.healing[n] = true
				for i := range e.recs {
					o.notify(Notice{Record: &e.recs[i], Reason: "TransactionRebroadcast", Message: fmt.Sprintf(
						"the chain lost the transaction of nonce %d (%s); it is broadcast again as the recorded bytes", n, attemptHashes(e))})
				}
			}
		}
		rebroadcasts.WithLabelValues(signer).Add(float64(h.Rebroadcast))
		h.Message = fmt.Sprintf("the chain's nonce of the agent %s is %d, but the transactions up to nonce %d were recorded as final: %d recorded transactions are broadcast again; nothing new is signed until the chain holds them",
			signer, chainNonce, final-1, h.Rebroadcast)
		if len(h.Missing) > 0 {
			h.State = Halted
			h.Message = fmt.Sprintf("the chain's nonce of the agent %s is %d, below the transactions recorded as final (up to nonce %d), and no record holds nonce(s) %s: the recorded transactions above cannot be mined; nothing new is signed until a person fills them (docs/tokens.md, Healing)",
				signer, chainNonce, final-1, formatNonces(h.Missing))
		}
	} else {
		h.State = InSync
		alarm, err := o.checkMarkLocked(ctx, chainNonce, recordedTop)
		if err != nil {
			return o.Health(), err
		}
		if alarm != "" {
			h.State, h.Message = RecordsBehind, alarm
		}
		if len(o.healing) > 0 {
			changed, err := o.verifyHealed(ctx, m)
			if err != nil {
				return o.Health(), err
			}
			h.Changed = append(h.Changed, changed...)
			o.healing = nil
		}
	}
	if h.State != prev.State || h.Since.IsZero() {
		h.Since = o.cfg.Now()
	}
	o.hmu.Lock()
	o.health = h
	o.hmu.Unlock()
	for _, s := range []HealthState{InSync, Behind, Halted, RecordsBehind} {
		v := 0.0
		if s == h.State {
			v = 1
		}
		healthGauge.WithLabelValues(signer, s.String()).Set(v)
	}
	missingNonces.WithLabelValues(signer).Set(float64(len(h.Missing)))
	if h.State != prev.State {
		o.transition(prev, h)
	}
	return o.Health(), nil
}

// HealthChanges receives a value after the state of Health changes (coalesced: read
// Health for the current one).
func (o *Outbox) HealthChanges() <-chan struct{} { return o.changes }

func (o *Outbox) transition(prev, h Health) {
	select {
	case o.changes <- struct{}{}:
	default:
	}
	switch h.State {
	case Behind:
		o.cfg.Log.Info("the chain is behind the recorded transactions: broadcasting them again; signing nothing new",
			"chainNonce", h.ChainNonce, "final", h.Final, "rebroadcast", h.Rebroadcast)
		o.notify(Notice{Warning: true, Reason: "ChainBehind", Message: h.Message})
	case Halted:
		o.cfg.Log.Error(errors.New(h.Message), "the chain cannot be healed by the outbox: a person must fill the missing nonces",
			"chainNonce", h.ChainNonce, "missing", formatNonces(h.Missing))
		o.notify(Notice{Warning: true, Reason: "NonceMissing", Message: h.Message})
	case RecordsBehind:
		o.notify(Notice{Warning: true, Reason: "RecordsBehindChain", Message: h.Message})
	case InSync:
		if prev.State != InSync && !prev.Since.IsZero() {
			msg := fmt.Sprintf("the chain holds every recorded transaction again (nonce %d); signing resumes", h.ChainNonce)
			if prev.State == RecordsBehind {
				msg = fmt.Sprintf("the records-behind alarm was cleared (the agent's nonce on chain is %d); effects on tokens without effect references are signed again", h.ChainNonce)
			}
			o.cfg.Log.Info(msg)
			o.notify(Notice{Reason: "ChainHealed", Message: msg})
		}
	}
}

// rebroadcast sends a nonce's recorded transaction again: the attempt the receipt names,
// else every attempt (one accepted is enough: they share the nonce). It reports whether
// the node took one (or knew it already).
func (o *Outbox) rebroadcast(ctx context.Context, e *nonceRecords) bool {
	atts := e.attempts
	if e.receipt != nil {
		if i := slices.IndexFunc(atts, func(a investv1.ChainTransactionAttempt) bool { return strings.EqualFold(a.Hash, e.receipt.Hash) }); i >= 0 {
			atts = atts[i : i+1]
		}
	}
	ok := false
	for _, a := range atts {
		tx, err := Decode(a)
		if err != nil {
			o.cfg.Log.Error(err, "a recorded attempt does not decode", "hash", a.Hash)
			continue
		}
		if err := o.send(ctx, tx); err != nil {
			o.cfg.Log.V(1).Info("rebroadcast refused", "hash", a.Hash, "nonce", tx.Nonce(), "error", err.Error())
			continue
		}
		ok = true
	}
	return ok
}

// verifyHealed checks every transaction re-mined after the chain was behind against the
// outcome recorded: a success that now reverts (or the reverse) is reported on its owners.
func (o *Outbox) verifyHealed(ctx context.Context, m map[uint64]*nonceRecords) ([]Change, error) {
	var changed []Change
	nonces := make([]uint64, 0, len(o.healing))
	for n := range o.healing {
		nonces = append(nonces, n)
	}
	slices.Sort(nonces)
	for _, n := range nonces {
		e := m[n]
		if e == nil || e.receipt == nil {
			continue // in flight when the chain fell behind: its owner tracks it
		}
		var r *types.Receipt
		var hash string
		for _, a := range e.attempts {
			got, err := o.cfg.Backend.TransactionReceipt(ctx, common.HexToHash(a.Hash))
			if errors.Is(err, ethereum.NotFound) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("outbox: receipt of %s: %w", a.Hash, err)
			}
			r, hash = got, a.Hash
			break
		}
		if r == nil {
			continue // mined by nobody yet seen: NonceTaken is its owner's to see
		}
		now := investv1.ChainReceiptSucceeded
		if r.Status != types.ReceiptStatusSuccessful {
			now = investv1.ChainReceiptReverted
		}
		if now == e.receipt.Status {
			continue
		}
		c := Change{Nonce: n, Owner: e.recs[0].Owner, Hash: hash, Recorded: e.receipt.Status, Now: now}
		if now == investv1.ChainReceiptReverted {
			c.Reason = "no reason could be read"
			for _, a := range e.attempts {
				if !strings.EqualFold(a.Hash, hash) {
					continue
				}
				if tx, err := Decode(a); err == nil {
					if rev, err := chain.RevertOfReceipt(ctx, o.cfg.Backend, tx, r); err == nil {
						c.Reason = truncate(rev.Reason())
					}
				}
			}
		}
		changed = append(changed, c)
		outcomeChanges.WithLabelValues(o.from.Hex()).Inc()
		msg := fmt.Sprintf("the transaction of nonce %d (%s) was recorded as %s and, mined again after the chain fell behind, is now %s", n, hash, c.Recorded, c.Now)
		if c.Reason != "" {
			msg += ": " + c.Reason
		}
		msg += ". Nothing is re-sent; a person decides (docs/tokens.md, Healing)"
		o.cfg.Log.Error(errors.New(msg), "a re-mined transaction changed its outcome", "nonce", n, "owner", c.Owner)
		for i := range e.recs {
			o.notify(Notice{Record: &e.recs[i], Warning: true, Reason: "TransactionOutcomeChanged", Message: msg})
		}
	}
	return changed, nil
}

func attemptHashes(e *nonceRecords) string {
	hs := make([]string, len(e.attempts))
	for i, a := range e.attempts {
		hs[i] = a.Hash
	}
	return strings.Join(hs, ", ")
}

// formatNonces prints nonces with runs folded: 3, 7-9.
func formatNonces(ns []uint64) string {
	var b strings.Builder
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", ns[i], ns[j])
		} else {
			fmt.Fprintf(&b, "%d", ns[i])
		}
		i = j + 1
	}
	return b.String()
}

// watch runs Heal at start and then every HealInterval while the chain is behind or when
// the signer's nonce at the latest block falls below what was seen final, and every
// ScanInterval in any case; it returns when ctx ends.
func (o *Outbox) watch(ctx context.Context) {
	lastScan := time.Time{}
	t := time.NewTicker(o.cfg.HealInterval)
	defer t.Stop()
	for {
		due := o.cfg.Now().Sub(lastScan) >= o.cfg.ScanInterval || o.Health().State != InSync
		if !due {
			n, err := o.cfg.Backend.NonceAt(ctx, o.from, nil)
			o.hmu.Lock()
			due = err == nil && n < o.final
			o.hmu.Unlock()
		}
		if due {
			if _, err := o.Heal(ctx); err != nil && ctx.Err() == nil {
				o.cfg.Log.Error(err, "compare the chain with the recorded transactions; trying again")
			} else {
				lastScan = o.cfg.Now()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
