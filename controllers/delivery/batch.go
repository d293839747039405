package delivery

// Batch mints and settlements: many BUY orders of one namespace and one share class
// minted in ONE batchMint transaction (PRIMARY BUYs, a batch of kind Mint), or delivered by
// ONE batchSettleWithRefs (SECONDARY BUYs, kind Settle: units moved from their sellers'
// wallets), recorded in ONE object (a DeliveryBatch) before it is broadcast.
//
// The life of a batch, every step resumable from what is recorded:
//
//  1. The order reconciler hands a BUY at EXECUTED to the batch former instead of sending
//     its transaction (when batching is on) and waits. The former collects the orders of
//     one (namespace, ISIN, token, kind) until --chain-batch-size are there (or, for a
//     settlement, their legs reach maxSettleLegs) or the oldest has waited
//     --chain-batch-window, then estimates the batch's transaction for them (the
//     pre-flight): if it reverts (one unregistered or frozen wallet, a paused token) no
//     batch is made and every one is sent on its own, so each gets its own refusal. Fewer
//     than two orders are sent on their own too.
//  2. The former creates the DeliveryBatch (spec: the candidate members, with the legs of
//     each settlement). From then on the batch HOLDS its members (index.BatchHolds): the
//     order reconciler leaves an order a live batch holds to that batch.
//  3. On a token without effect references, the batch reconciler first CLAIMS each member:
//     status.chain.batch = the batch's name, written with optimistic locking on an order
//     that has no transaction and no claim; members whose claim fails are dropped. On a
//     token with them there is no claim write: every member carries its order's own
//     effect reference, which the token applies at most once (a member applied already is
//     skipped), so no interleaving of batches and single sends can apply an order twice;
//     the members are checked on a fresh read instead, and each one found applied on chain
//     gets the transaction that applied it and is left out.
//  4. The batch reconciler has the outbox sign the transaction of the included members and
//     record it in the batch's status (transaction and included members, one write) before
//     it is broadcast. A gas estimate that reverts now abandons the batch (status
//     abandoned, durable, after which the API server refuses any transaction on it),
//     releases the claims and sends each member on its own.
//  5. Once the transaction is final, each member order records, in ONE status write, the
//     batch's transaction (without its signed bytes, which the batch keeps), its receipt,
//     deliveryInitiated and deliveryCompleted with the batch's hash, and the moves they
//     unlock, with one Event: what a single mint records in two writes. When the
//     transaction is not final within initiateAfter of its signing (a slow chain, many
//     confirmations), each member first records the transaction and deliveryInitiated,
//     and the receipt later, as a single mint does. A reverted batch records its reverted
//     receipt on every member (each is Stalled with the reason) and is never re-sent.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// Event reasons of batch mints.
const (
	ReasonBatchCreated   = "TokenBatchCreated"
	ReasonBatchClaimed   = "TokenBatchClaimed"
	ReasonBatchRecorded  = "TokenBatchRecorded"
	ReasonBatchAbandoned = "TokenBatchAbandoned"
	ReasonBatchFallback  = "TokenBatchFallback"
)

// soloFor is how long an order whose batch pre-flight reverted is minted on its own
// before it may be batched again.
const soloFor = 10 * time.Minute

// batchKey groups the orders one batch may hold: one namespace, one share class, one token.
type batchKey struct {
	ns     string
	isin   investv1.ISIN
	token  common.Address
	settle bool // SECONDARY BUYs, settled by transfers
}

type batchQueue struct {
	since  time.Time
	orders []string
}

// batchState is the batch former's memory. It is only an optimisation: what makes a
// mint happen once is the claims and the records, which are in the API server.
type batchState struct {
	mu     sync.Mutex
	queues map[batchKey]*batchQueue
	held   map[types.NamespacedName]bool      // queued, or in a batch not yet claimed
	solo   map[types.NamespacedName]time.Time // minted on its own until
	kick   chan struct{}
	wake   chan event.GenericEvent // orders handed back to the single path
}

func newBatchState() *batchState {
	return &batchState{
		queues: map[batchKey]*batchQueue{}, held: map[types.NamespacedName]bool{},
		solo: map[types.NamespacedName]time.Time{}, kick: make(chan struct{}, 1),
		wake: make(chan event.GenericEvent, 4096),
	}
}

func (r *Reconciler) batching() bool { return r.BatchSize > 1 && r.batch != nil }

func (r *Reconciler) batchWindow() time.Duration {
	if r.BatchWindow > 0 {
		return r.BatchWindow
	}
	return agent.DefaultBatchWindow
}

func (r *Reconciler) batchSize() int { return min(r.BatchSize, agent.MaxBatchSize) }

// hold hands a BUY waiting for its mint to the batch former. It reports false when the
// order is to be minted on its own (its batch pre-flight reverted lately).
func (r *Reconciler) hold(o *investv1.Order, tok agent.Token) bool {
	s := r.batch
	key := types.NamespacedName{Namespace: o.Namespace, Name: o.Name}
	s.mu.Lock()
	defer s.mu.Unlock()
	if until, ok := s.solo[key]; ok {
		if r.now().Before(until) {
			return false
		}
		delete(s.solo, key)
	}
	if s.held[key] {
		return true
	}
	s.held[key] = true
	k := batchKey{ns: o.Namespace, isin: o.Spec.ISIN, token: tok.Address, settle: lifecycle.Secondary(o)}
	q := s.queues[k]
	if q == nil {
		q = &batchQueue{since: r.now()}
		s.queues[k] = q
	}
	q.orders = append(q.orders, o.Name)
	if len(q.orders) >= r.batchSize() {
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
	return true
}

// unhold forgets orders (claimed, dropped, or handed back); solo sends them to the single
// path for a while. Each is woken so that its reconciler looks again.
func (r *Reconciler) unhold(ns string, names []string, solo bool) {
	s := r.batch
	if s == nil {
		return
	}
	s.mu.Lock()
	for _, n := range names {
		key := types.NamespacedName{Namespace: ns, Name: n}
		delete(s.held, key)
		if solo {
			s.solo[key] = r.now().Add(soloFor)
		}
	}
	s.mu.Unlock()
	for _, n := range names {
		o := &investv1.Order{}
		o.Namespace, o.Name = ns, n
		select {
		case s.wake <- event.GenericEvent{Object: o}:
		default: // the order's own requeue looks again
		}
	}
}

// batchFormer is the manager Runnable that turns queues into DeliveryBatches.
type batchFormer struct{ r *Reconciler }

// NeedLeaderElection: batches are formed by the leader only, as orders are minted.
func (f batchFormer) NeedLeaderElection() bool { return true }

// Start forms batches until ctx ends.
func (f batchFormer) Start(ctx context.Context) error {
	r := f.r
	tick := max(r.batchWindow()/4, 20*time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-r.batch.kick:
		}
		for key, names := range r.due() {
			r.form(ctx, key, names)
		}
	}
}

// due takes the orders of every queue that is full or whose oldest has waited the window.
func (r *Reconciler) due() map[batchKey][]string {
	s := r.batch
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[batchKey][]string{}
	now := r.now()
	for k, q := range s.queues {
		if len(q.orders) < r.batchSize() && now.Sub(q.since) < r.batchWindow() {
			continue
		}
		n := min(len(q.orders), r.batchSize())
		out[k] = append([]string(nil), q.orders[:n]...)
		q.orders = q.orders[n:]
		q.since = now
		if len(q.orders) == 0 {
			delete(s.queues, k)
		}
	}
	for k, until := range s.solo {
		if now.After(until) {
			delete(s.solo, k)
		}
	}
	return out
}

// maxSettleLegs is the most transfers one batch settlement moves; the orders beyond it
// wait for the next batch.
const maxSettleLegs = 200

// maxBatchGas is the most gas a batch's pre-flight may estimate: a larger batch is halved
// (the rest waits for the next batch) until it fits. A transaction's gas is capped at
// 2^24 = 16,777,216 since Osaka (EIP-7825), and the outbox adds its margin to the estimate.
const maxBatchGas = 10_000_000

// form checks the queued orders, runs the pre-flight and creates the DeliveryBatch.
func (r *Reconciler) form(ctx context.Context, key batchKey, names []string) {
	log := ctrl.LoggerFrom(ctx).WithName("batch").WithValues("namespace", key.ns, "isin", key.isin)
	var (
		members []investv1.DeliveryBatchMember
		owners  []metav1.OwnerReference
		gone    []string // not waiting for a mint any more
		alone   []string // sent on their own
		later   []string // beyond this batch's legs: the next batch
	)
	var lockUpDays int32
	refs, err := r.Outbox.EffectRefs(ctx, key.token)
	if err != nil {
		log.Error(err, "effect references of the token; the orders are queued again")
		r.unhold(key.ns, names, false)
		return
	}
	if key.settle && !refs {
		// settleWithRef exists only with effect references: each is refused on its own.
		r.unhold(key.ns, names, true)
		return
	}
	var memberRefs [][32]byte
	if tok, err := r.Tokens.Token(ctx, key.ns, key.isin); err == nil && tok.Address == key.token {
		lockUpDays = tok.LockUpDays
	} else {
		log.Info("the share class's token is not usable now; the orders are sent on their own", "error", fmt.Sprint(err))
		r.unhold(key.ns, names, true)
		return
	}
	now := metav1.NewTime(r.now().UTC().Truncate(time.Second))
	legs := 0
	for _, name := range names {
		if legs >= maxSettleLegs {
			later = append(later, name)
			continue
		}
		o := &investv1.Order{}
		if err := r.Client.Get(ctx, client.ObjectKey{Namespace: key.ns, Name: name}, o); err != nil {
			gone = append(gone, name)
			continue
		}
		if !batchable(o) || lifecycle.Secondary(o) != key.settle {
			gone = append(gone, name)
			continue
		}
		if holder, err := r.heldBy(ctx, o); err != nil || holder != "" {
			gone = append(gone, name) // another batch holds it (or the index cannot say: later)
			continue
		}
		addr, err := r.walletAddress(ctx, o.Namespace, deliveryWallet(o))
		if err != nil {
			alone = append(alone, name) // the single path reports it
			continue
		}
		m := investv1.DeliveryBatchMember{Order: name, WalletID: deliveryWallet(o), Address: addr.Hex(), Units: lifecycle.Units(o)}
		if key.settle {
			from, amounts, sells, err := r.settlementLegs(ctx, o)
			if err != nil || len(from) > 64 {
				alone = append(alone, name) // the single path refuses it, or settles its many legs
				continue
			}
			for i := range from {
				m.Legs = append(m.Legs, investv1.DeliveryBatchLeg{From: from[i].Hex(), Units: amounts[i].Int64(), Sell: sells[i]})
			}
			legs += len(from)
		}
		// The release time of the member's units: the one the order recorded already
		// (an earlier attempt on its own), else decided now; recorded in the batch's spec
		// before anything is signed, and in the order with its transaction.
		if c := o.Status.Chain; c != nil && c.LockedUntil != nil {
			m.LockedUntil = c.LockedUntil.DeepCopy()
		} else if lockUpDays > 0 {
			t := metav1.NewTime(now.AddDate(0, 0, int(lockUpDays)))
			m.LockedUntil = &t
		}
		members = append(members, m)
		owners = append(owners, metav1.OwnerReference{APIVersion: investv1.GroupVersion.String(), Kind: "Order", Name: o.Name, UID: o.UID})
		memberRefs = append(memberRefs, orderRef(o, lifecycle.StepDeliveryInitiated))
	}
	if !refs {
		memberRefs = nil
	}
	r.unhold(key.ns, gone, false)
	r.unhold(key.ns, later, false)
	if len(members) < 2 {
		alone = append(alone, memberNames(members)...)
		r.unhold(key.ns, alone, true)
		return
	}
	kind := investv1.DeliveryBatchMint
	if key.settle {
		kind = investv1.DeliveryBatchSettle
	}
	for r.Backend != nil {
		gas, err := r.Backend.EstimateGas(ctx, ethereum.CallMsg{From: r.Outbox.From(), To: &key.token, Data: packBatch(kind, members, memberRefs)})
		_, isRevert := chain.AsRevert(chain.DecodeError(err))
		if (err == nil && gas > maxBatchGas || err != nil && !isRevert) && len(members) >= 4 {
			// Too large for one transaction (or for the node's estimate, which refuses
			// above its cap): the second half waits for the next batch.
			half := len(members) / 2
			later = memberNames(members[half:])
			r.unhold(key.ns, later, false)
			members, owners = members[:half], owners[:half]
			if memberRefs != nil {
				memberRefs = memberRefs[:half]
			}
			continue
		}
		if err != nil {
			all := append(alone, memberNames(members)...)
			if rev, isRevert := chain.AsRevert(chain.DecodeError(err)); isRevert {
				log.Info("the batch's pre-flight reverts: each order is sent on its own", "reason", rev.Reason(), "orders", len(members))
				r.unhold(key.ns, all, true)
				return
			}
			log.Error(err, "estimate the batch; the orders are queued again")
			r.unhold(key.ns, alone, true)
			r.unhold(key.ns, memberNames(members), false)
			return
		}
		break
	}
	r.unhold(key.ns, alone, true)
	b := &investv1.DeliveryBatch{
		// Owned by its members: it goes (garbage collection) when the last of them has left
		// the cluster (retention), not before.
		ObjectMeta: metav1.ObjectMeta{Namespace: key.ns, Name: batchName(), OwnerReferences: owners},
		Spec:       investv1.DeliveryBatchSpec{ISIN: key.isin, Token: key.token.Hex(), ChainID: r.Outbox.ChainID(), Members: members},
	}
	if key.settle {
		b.Spec.Kind = investv1.DeliveryBatchSettle
	}
	if err := r.Client.Create(ctx, b); err != nil {
		// A create that happened although it reported an error is harmless: every member
		// carries its effect reference (or is claimed first), so no order is applied twice.
		log.Error(err, "create the delivery batch; the orders are queued again")
		r.unhold(key.ns, memberNames(members), false)
		return
	}
	log.Info("delivery batch created", "batch", b.Name, "kind", kind, "members", len(members))
	what := "batch of %d BUY orders of %s created"
	if key.settle {
		what = "batch settlement of %d SECONDARY BUY orders of %s created"
	}
	r.batchEvent(b, corev1.EventTypeNormal, ReasonBatchCreated, "Create", what+"; checking its members", len(members), key.isin)
	// The members stay held until the batch reconciler has checked (or dropped) them; the
	// batch holds them from now on (index.BatchHolds).
}

// heldBy names the live DeliveryBatch (other than except) that holds o, from the cache's
// index; "" when none does.
func (r *Reconciler) heldBy(ctx context.Context, o *investv1.Order, except ...string) (string, error) {
	var list investv1.DeliveryBatchList
	if err := r.Client.List(ctx, &list, client.InNamespace(o.Namespace), client.MatchingFields{index.BatchMember: o.Name}); err != nil {
		return "", fmt.Errorf("delivery batches of order %s: %w", o.Name, err)
	}
	for i := range list.Items {
		b := &list.Items[i]
		if !slices.Contains(except, b.Name) && slices.Contains(index.BatchHolds(b), o.Name) {
			return b.Name, nil
		}
	}
	return "", nil
}

// batchable: a live BUY that waits for its mint (or settlement), with no transaction and
// no claim.
func batchable(o *investv1.Order) bool {
	if !o.DeletionTimestamp.IsZero() || o.Spec.Side != investv1.SideBuy || lifecycle.CashOnChain(o) {
		return false // a BUY with cash on chain is settled by its own swap
	}
	if step, ok := lifecycle.NextStep(o); !ok || step != lifecycle.StepDeliveryInitiated {
		return false
	}
	c := o.Status.Chain
	return c == nil || (c.Transaction == nil && c.Batch == "")
}

func memberNames(ms []investv1.DeliveryBatchMember) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Order
	}
	return out
}

// packBatch is the calldata of a batch of kind: packBatchMint, or packBatchSettle.
func packBatch(kind investv1.DeliveryBatchKind, ms []investv1.DeliveryBatchMember, refs [][32]byte) []byte {
	if kind == investv1.DeliveryBatchSettle {
		return packBatchSettle(ms, refs)
	}
	return packBatchMint(ms, refs)
}

// packBatchSettle is batchSettleWithRefs of the members: one settlement per member (its
// effect reference, its wallet, its release time, its legs).
func packBatchSettle(ms []investv1.DeliveryBatchMember, refs [][32]byte) []byte {
	to := make([]common.Address, len(ms))
	releases := make([]uint64, len(ms))
	counts := make([]*big.Int, len(ms))
	var from []common.Address
	var amounts []*big.Int
	for i, m := range ms {
		to[i], releases[i], counts[i] = common.HexToAddress(m.Address), releaseTime(m.LockedUntil), big.NewInt(int64(len(m.Legs)))
		for _, l := range m.Legs {
			from = append(from, common.HexToAddress(l.From))
			amounts = append(amounts, big.NewInt(l.Units))
		}
	}
	return contracts.NewShareToken().PackBatchSettleWithRefs(refs, to, releases, counts, from, amounts)
}

// packBatchMint is batchMintWithRefs of the members with their effect references (refs,
// one per member, on a token that has them: a member applied already is skipped by the
// token), else batchMint, or batchMintLocked when any of them has a release time (the
// others with release time 0: unlocked).
func packBatchMint(ms []investv1.DeliveryBatchMember, refs [][32]byte) []byte {
	addrs := make([]common.Address, len(ms))
	units := make([]*big.Int, len(ms))
	releases := make([]uint64, len(ms))
	locked := false
	for i, m := range ms {
		addrs[i], units[i], releases[i] = common.HexToAddress(m.Address), big.NewInt(m.Units), releaseTime(m.LockedUntil)
		locked = locked || m.LockedUntil != nil
	}
	if refs != nil {
		return contracts.NewShareToken().PackBatchMintWithRefs(refs, addrs, units, releases)
	}
	if locked {
		return contracts.NewShareToken().PackBatchMintLocked(addrs, units, releases)
	}
	return contracts.NewShareToken().PackBatchMint(addrs, units)
}

func batchName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "batch-" + hex.EncodeToString(b[:])
}

// BatchReconciler drives DeliveryBatches (controller "settlement-chain-batch"): claims,
// the recorded batchMint, and the evidence of every member.
type BatchReconciler struct{ r *Reconciler }

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=deliverybatches,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=deliverybatches/status,verbs=get;update;patch

// Reconcile moves the batch one step on.
func (br BatchReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r := br.r
	b := &investv1.DeliveryBatch{}
	if err := r.Client.Get(ctx, req.NamespacedName, b); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ctx = ctrl.LoggerInto(ctx, ctrl.LoggerFrom(ctx).WithValues("batch", b.Name))
	switch tx := b.Status.Transaction; {
	case b.Status.Abandoned != nil:
		return r.release(ctx, b)
	case tx == nil:
		return r.claimAndSend(ctx, b)
	case tx.Receipt == nil:
		return r.trackBatch(ctx, b)
	}
	return r.finishBatch(ctx, b)
}

// claimAndSend checks the members (on a token with effect references) or claims them (on
// one without), then has the outbox sign, record (in the batch) and broadcast the batch's
// transaction of those included.
func (r *Reconciler) claimAndSend(ctx context.Context, b *investv1.DeliveryBatch) (ctrl.Result, error) {
	tok := common.HexToAddress(b.Spec.Token)
	if b.Spec.ChainID != r.Outbox.ChainID() {
		return ctrl.Result{}, fmt.Errorf("the batch's token is on chain %d, the agent signs for chain %d", b.Spec.ChainID, r.Outbox.ChainID())
	}
	refs, err := r.Outbox.EffectRefs(ctx, tok)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("effect references of the token %s: %w", tok.Hex(), err)
	}
	if !refs {
		if b.Spec.Kind == investv1.DeliveryBatchSettle {
			r.unhold(b.Namespace, memberNames(b.Spec.Members), false)
			return r.abandon(ctx, b, "NoSettlement: the token has no effect references, so it has no batchSettleWithRefs", true)
		}
		if behind := r.Outbox.RecordsBehind(); behind != "" {
			r.unhold(b.Namespace, memberNames(b.Spec.Members), false)
			return r.abandon(ctx, b, "RecordsBehindChain: "+behind+"; the token has no effect references: nothing is signed for its orders", true)
		}
	}
	claimed := make([]bool, len(b.Spec.Members))
	if err := forEachMember(len(b.Spec.Members), func(i int) error {
		check := r.claim
		if refs {
			check = r.checkMember
		}
		ok, err := check(ctx, b, b.Spec.Members[i])
		if err != nil {
			return fmt.Errorf("claim order %s: %w", b.Spec.Members[i].Order, err)
		}
		claimed[i] = ok
		return nil
	}); err != nil {
		return ctrl.Result{}, err
	}
	uids := map[string]types.UID{}
	for _, ow := range b.OwnerReferences {
		uids[ow.Name] = ow.UID
	}
	var (
		included   []investv1.DeliveryBatchMember
		memberRefs [][32]byte
	)
	for i, m := range b.Spec.Members {
		if !claimed[i] {
			continue
		}
		if refs {
			// Before anything is signed: a member whose mint the chain shows applied
			// already gets the transaction that applied it, not a second mint.
			if uids[m.Order] == "" {
				// A batch without owner references (made by hand): the order's own UID.
				o := &investv1.Order{}
				if err := r.reader().Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: m.Order}, o); err != nil {
					return ctrl.Result{}, fmt.Errorf("read order %s: %w", m.Order, err)
				}
				uids[m.Order] = o.UID
			}
			ref := memberRef(b, m, uids)
			eff, err := r.Outbox.Applied(ctx, tok, ref)
			if err != nil {
				return ctrl.Result{}, fmt.Errorf("look the mint of order %s up on the token %s: %w", m.Order, tok.Hex(), err)
			}
			if eff != nil {
				if err := r.recoverMember(ctx, b, m, eff); err != nil {
					return ctrl.Result{}, err
				}
				continue
			}
			memberRefs = append(memberRefs, ref)
		}
		included = append(included, m)
	}
	if len(included) == 0 {
		r.unhold(b.Namespace, memberNames(b.Spec.Members), false)
		return r.abandon(ctx, b, "NoMember: no member order could be claimed, or every member's mint was found applied on chain", false)
	}
	before := b.DeepCopy()
	rec, err := r.Outbox.Send(ctx, outbox.Call{To: &tok, Data: packBatch(b.Spec.Kind, included, memberRefs)}, func(ctx context.Context, tx *investv1.ChainTransaction) error {
		b.Status.Transaction, b.Status.Included, b.Status.Phase = tx, memberNames(included), investv1.DeliveryBatchSent
		return patch.Status(ctx, r.Client, b, before)
	})
	// Every member is claimed or dropped now: the former forgets them.
	r.unhold(b.Namespace, memberNames(b.Spec.Members), false)
	if rev, isRevert := chain.AsRevert(err); isRevert {
		return r.abandon(ctx, before, "PreflightReverted: "+rev.Reason(), true)
	}
	if res, stop, err := outbox.Unsent(ctx, rec, err, "the batch"); stop {
		return res, err
	}
	r.batchEvent(b, corev1.EventTypeNormal, ReasonBatchRecorded, "Record",
		"recorded batchMint %s (nonce %d) for %d orders on token %s before broadcasting", rec.Attempts[0].Hash, rec.Nonce, len(included), tok.Hex())
	// The members record it once it is final, or once it is not final soon (trackBatch).
	return ctrl.Result{RequeueAfter: r.poll()}, nil
}

// checkMember reads the member's order afresh and reports whether the batch may include
// it (a token with effect references: no claim is written): still batchable, the same
// order the batch was formed with, and held by no other live batch.
func (r *Reconciler) checkMember(ctx context.Context, b *investv1.DeliveryBatch, m investv1.DeliveryBatchMember) (bool, error) {
	o := &investv1.Order{}
	if err := r.reader().Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: m.Order}, o); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	if c := o.Status.Chain; c != nil && c.Batch == b.Name {
		return true, nil
	}
	if !r.sameMember(o, b, m) {
		return false, nil
	}
	other, err := r.heldBy(ctx, o, b.Name)
	if err != nil {
		return false, err
	}
	return other == "", nil
}

// sameMember: o is still batchable and the order the member was formed from.
func (r *Reconciler) sameMember(o *investv1.Order, b *investv1.DeliveryBatch, m investv1.DeliveryBatchMember) bool {
	if !batchable(o) || o.Spec.ISIN != b.Spec.ISIN || lifecycle.Units(o) != m.Units || deliveryWallet(o) != m.WalletID {
		return false
	}
	if lifecycle.Secondary(o) != (b.Spec.Kind == investv1.DeliveryBatchSettle) {
		return false
	}
	// The order's recorded release time, if any, is the one the batch sends with.
	if c := o.Status.Chain; c != nil && c.LockedUntil != nil && releaseTime(c.LockedUntil) != releaseTime(m.LockedUntil) {
		return false
	}
	return true
}

// claim writes the batch's name in the order's status.chain.batch (optimistic locking),
// on a fresh read, when the order is still a batchable member; a claim already the
// batch's counts. A conflict is retried on a fresh read a few times, then the member is
// dropped. Any other write error is returned: the claim may have happened, and the next
// reconcile reads it.
func (r *Reconciler) claim(ctx context.Context, b *investv1.DeliveryBatch, m investv1.DeliveryBatchMember) (bool, error) {
	for range 3 {
		o := &investv1.Order{}
		if err := r.reader().Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: m.Order}, o); err != nil {
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return false, err
		}
		if c := o.Status.Chain; c != nil && c.Batch == b.Name {
			return true, nil
		}
		if !r.sameMember(o, b, m) {
			return false, nil
		}
		before := o.DeepCopy()
		if o.Status.Chain == nil {
			o.Status.Chain = &investv1.OrderChainStatus{}
		}
		o.Status.Chain.Batch = b.Name
		if o.Status.Chain.LockedUntil == nil && m.LockedUntil != nil {
			o.Status.Chain.LockedUntil = m.LockedUntil.DeepCopy()
		}
		o.Status.Chain.Refused = nil
		err := patch.Status(ctx, r.Client, o, before)
		switch {
		case err == nil:
			r.event(o, corev1.EventTypeNormal, ReasonBatchClaimed, "Claim", "claimed by the delivery batch %s: minted in its batchMint, never on its own", b.Name)
			return true, nil
		case apierrors.IsConflict(err):
			continue
		case apierrors.IsNotFound(err):
			return false, nil
		}
		return false, err
	}
	return false, nil
}

// abandon records (durably, before any claim is released) that the batch will never
// sign anything, then releases its claims; solo mints the members on their own.
func (r *Reconciler) abandon(ctx context.Context, b *investv1.DeliveryBatch, reason string, solo bool) (ctrl.Result, error) {
	fresh := &investv1.DeliveryBatch{}
	if err := r.reader().Get(ctx, client.ObjectKeyFromObject(b), fresh); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if fresh.Status.Transaction != nil {
		return ctrl.Result{RequeueAfter: patch.ConflictRetry}, nil // recorded after all: track it
	}
	if fresh.Status.Abandoned == nil {
		before := fresh.DeepCopy()
		fresh.Status.Abandoned = &investv1.ChainRefusal{Reason: truncate(reason), At: metav1.NewTime(r.now().UTC().Truncate(time.Second))}
		fresh.Status.Phase = investv1.DeliveryBatchAbandoned
		if err := patch.Status(ctx, r.Client, fresh, before); err != nil {
			return patch.Retry(ctx, err, "record the abandoned batch")
		}
		r.batchEvent(fresh, corev1.EventTypeWarning, ReasonBatchAbandoned, "Send", "batch abandoned before anything was signed: %s; its orders are minted one by one", reason)
	}
	if solo {
		r.unhold(fresh.Namespace, memberNames(fresh.Spec.Members), true)
	}
	return r.release(ctx, fresh)
}

// release clears the claims of an abandoned batch (only on orders with no transaction).
func (r *Reconciler) release(ctx context.Context, b *investv1.DeliveryBatch) (ctrl.Result, error) {
	var released []string
	for _, m := range b.Spec.Members {
		o := &investv1.Order{}
		if err := r.reader().Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: m.Order}, o); err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			return ctrl.Result{}, err
		}
		c := o.Status.Chain
		if c == nil || c.Batch != b.Name || c.Transaction != nil {
			continue
		}
		before := o.DeepCopy()
		c.Batch = ""
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			return patch.Retry(ctx, err, "release the claim of order "+m.Order)
		}
		released = append(released, m.Order)
		r.event(o, corev1.EventTypeNormal, ReasonBatchFallback, "Release",
			"the delivery batch %s was abandoned (%s): the order is minted on its own", b.Name, b.Status.Abandoned.Reason)
	}
	if len(released) > 0 {
		r.unhold(b.Namespace, released, false)
	}
	return ctrl.Result{}, nil
}

// trackBatch follows the recorded transaction (re-broadcast, replacement, confirmations);
// when it is not final within initiateAfter of its signing, each member gets the
// transaction and deliveryInitiated before the receipt.
func (r *Reconciler) trackBatch(ctx context.Context, b *investv1.DeliveryBatch) (ctrl.Result, error) {
	log := ctrl.LoggerFrom(ctx)
	tx := b.Status.Transaction
	n := len(tx.Attempts)
	obs, cur, err := r.Outbox.Track(ctx, tx, r.Confirmations, func(ctx context.Context, next *investv1.ChainTransaction) error {
		before := b.DeepCopy()
		b.Status.Transaction = next
		return patch.Status(ctx, r.Client, b, before)
	})
	if cur != nil && len(cur.Attempts) > n {
		last := cur.Attempts[len(cur.Attempts)-1]
		r.batchEvent(b, corev1.EventTypeNormal, ReasonTransactionReplaced, "Replace",
			"batchMint (nonce %d) not mined after %s: replaced by %s with maxFeePerGas %s wei", cur.Nonce, r.Outbox.StuckAfter(), last.Hash, last.MaxFeePerGas)
	}
	if err != nil {
		if apierrors.IsConflict(err) {
			return ctrl.Result{RequeueAfter: patch.ConflictRetry}, nil
		}
		log.Error(err, "tracking the recorded batch; trying again", "nonce", tx.Nonce)
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	switch obs.State {
	case outbox.Pending, outbox.Mined:
		if len(cur.Attempts) > 0 && r.now().Sub(cur.Attempts[0].SignedAt.Time) >= r.initiateAfter() {
			// Not final soon: the members show the transaction now, the receipt later.
			// A transaction final by the time the batch is looked at again is not
			// initiated first, however late that look is (a busy agent): its members
			// record it once, final.
			if pending, err := r.initiateMembers(ctx, b, cur); err != nil {
				return ctrl.Result{}, err
			} else if pending {
				return ctrl.Result{RequeueAfter: patch.ConflictRetry}, nil
			}
		}
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	case outbox.NonceTaken:
		r.batchEvent(b, corev1.EventTypeWarning, ReasonNonceTaken, "Track",
			"nonce %d of the batchMint was mined by a transaction not recorded here: was the agent key used elsewhere? Nothing is re-sent", tx.Nonce)
		return ctrl.Result{RequeueAfter: r.retryRefused()}, nil
	}
	before := b.DeepCopy()
	b.Status.Transaction.Receipt = obs.Receipt
	b.Status.Phase = investv1.DeliveryBatchCompleted
	if obs.Receipt.Status == investv1.ChainReceiptReverted {
		b.Status.Phase = investv1.DeliveryBatchReverted
	}
	if err := patch.Status(ctx, r.Client, b, before); err != nil {
		return patch.Retry(ctx, err, "record the batch's receipt")
	}
	if obs.Receipt.Status == investv1.ChainReceiptReverted {
		r.batchEvent(b, corev1.EventTypeWarning, ReasonTransactionReverted, "Track",
			"batchMint %s reverted in block %d: %s; it is not re-sent", obs.Receipt.Hash, obs.Receipt.BlockNumber, obs.Receipt.RevertReason)
	}
	return r.finishBatch(ctx, b)
}

// initiateMembers gives every included member the batch's transaction (token, recipient,
// attempts) and deliveryInitiated with the batch's hash. pending says some member could
// not be written yet (a conflict): the batch is looked at again soon.
func (r *Reconciler) initiateMembers(ctx context.Context, b *investv1.DeliveryBatch, tx *investv1.ChainTransaction) (pending bool, err error) {
	members := r.included(b)
	var mu sync.Mutex
	err = forEachMember(len(members), func(i int) error {
		m := members[i]
		o, err := r.member(ctx, b, m)
		if o == nil {
			return err
		}
		before := o.DeepCopy()
		mine, changed := r.adopt(ctx, o, b, m, tx)
		if !mine {
			return nil
		}
		initiated := lifecycle.Record(o, lifecycle.StepDeliveryInitiated, r.evidence(tx.Attempts[0].Hash))
		if !changed && !initiated {
			return nil
		}
		var moves []*lifecycle.Transition
		if initiated {
			if moves, err = r.follow(ctx, o); err != nil {
				return err
			}
		}
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
				mu.Lock()
				pending = true
				mu.Unlock()
				return nil
			}
			return fmt.Errorf("record the batch on order %s: %w", m.Order, err)
		}
		if initiated {
			r.evidenceEvent(o, lifecycle.StepDeliveryInitiated, before.Status.State, moves,
				"%s recorded %s evidence in transaction %s (batch %s)", Name, lifecycle.StepDeliveryInitiated, tx.Attempts[0].Hash, b.Name)
		}
		return nil
	})
	return pending || err != nil, err
}

// initiateAfter is how long after its signing a batch's transaction may take to be final
// before its members record it and deliveryInitiated on their own (one write more each).
func (r *Reconciler) initiateAfter() time.Duration {
	if r.InitiateAfter > 0 {
		return r.InitiateAfter
	}
	return DefaultInitiateAfter
}

// DefaultInitiateAfter is initiateAfter unless Reconciler.InitiateAfter says otherwise.
const DefaultInitiateAfter = 10 * time.Second

// memberWrites is how many member orders a batch reads and writes at once.
const memberWrites = 8

// forEachMember runs fn for 0..n-1, memberWrites at a time, and returns the first error.
func forEachMember(n int, fn func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, memberWrites)
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// adopt makes o the batch's member in its status.chain: the batch's name, the member's
// release time, and the batch's transaction (without its receipt, and without the signed
// bytes, which the batch keeps once for all members: memberCopy). mine is false, and o
// is left alone, when o is not the batch's (another batch's, or sent on its own: it
// cannot happen, a member is checked or claimed before signing); changed says whether
// anything was written into o.
func (r *Reconciler) adopt(ctx context.Context, o *investv1.Order, b *investv1.DeliveryBatch, m investv1.DeliveryBatchMember, tx *investv1.ChainTransaction) (mine, changed bool) {
	c := o.Status.Chain
	if c != nil && c.Batch != b.Name && (c.Batch != "" || c.Transaction != nil || c.Recovered != nil) {
		ctrl.LoggerFrom(ctx).Error(errors.New("member held by another batch or sent on its own"), "the batch's transaction is not copied to the order", "order", o.Name, "batch", c.Batch)
		return false, false
	}
	if c == nil {
		c = &investv1.OrderChainStatus{}
		o.Status.Chain = c
	}
	if c.Batch == "" {
		c.Batch, changed = b.Name, true
	}
	if c.LockedUntil == nil && m.LockedUntil != nil {
		c.LockedUntil, changed = m.LockedUntil.DeepCopy(), true
	}
	if c.Transaction == nil {
		cp := memberCopy(tx)
		c.Transaction, c.Token, c.Recipient, c.Refused = cp, common.HexToAddress(b.Spec.Token).Hex(), common.HexToAddress(m.Address).Hex(), nil
		return true, true
	}
	if n := len(c.Transaction.Attempts); n < len(tx.Attempts) {
		// Appended only: attempts recorded before are kept as they are.
		for _, a := range tx.Attempts[n:] {
			a.Raw = ""
			c.Transaction.Attempts = append(c.Transaction.Attempts, a)
		}
		changed = true
	}
	return true, changed
}

// memberCopy is a batch's transaction as a member order records it: no receipt (the
// member records it once final) and no signed bytes (an attempt's raw, which the batch
// records once for all its members: a batch of 100 would otherwise write 100 copies of
// its calldata, some 26 KB, into 100 orders).
func memberCopy(tx *investv1.ChainTransaction) *investv1.ChainTransaction {
	cp := tx.DeepCopy()
	cp.Receipt = nil
	for i := range cp.Attempts {
		cp.Attempts[i].Raw = ""
	}
	return cp
}

// finishBatch records the batch's final receipt on each member, with deliveryInitiated
// and deliveryCompleted when it succeeded, in one status write per member and one Event;
// a reverted receipt makes each member Stalled.
func (r *Reconciler) finishBatch(ctx context.Context, b *investv1.DeliveryBatch) (ctrl.Result, error) {
	tx := b.Status.Transaction
	rc := tx.Receipt
	var (
		mu      sync.Mutex
		waiting bool
	)
	wait := func() { mu.Lock(); waiting = true; mu.Unlock() }
	members := r.included(b)
	tok := common.HexToAddress(b.Spec.Token)
	var applied map[common.Hash]bool // the member refs the batch applied; nil: no refs
	if rc.Status == investv1.ChainReceiptSucceeded {
		refs, err := r.Outbox.EffectRefs(ctx, tok)
		if err != nil {
			return ctrl.Result{}, fmt.Errorf("effect references of the token %s: %w", tok.Hex(), err)
		}
		if refs && r.chainReader() != nil {
			full, err := r.chainReader().TransactionReceipt(ctx, common.HexToHash(rc.Hash))
			if err != nil {
				return ctrl.Result{}, fmt.Errorf("receipt of the batch %s: %w", rc.Hash, err)
			}
			applied = chain.EffectsApplied(full, tok)
		}
	}
	err := forEachMember(len(members), func(i int) error {
		m := members[i]
		o, err := r.member(ctx, b, m)
		if o == nil {
			return err
		}
		if c := o.Status.Chain; c != nil && c.Batch == b.Name && c.Transaction != nil && c.Transaction.Receipt != nil {
			return nil // recorded
		}
		before := o.DeepCopy()
		if mine, _ := r.adopt(ctx, o, b, m, tx); !mine {
			return nil
		}
		c := o.Status.Chain
		hash := rc.Hash
		var (
			moves []*lifecycle.Transition
			steps []lifecycle.Step
		)
		if rc.Status == investv1.ChainReceiptSucceeded {
			if ref := orderRef(o, lifecycle.StepDeliveryInitiated); applied != nil && !applied[ref] {
				// Skipped by the token: another transaction applied it (a race with a
				// second signer, or a record lost). Its evidence names that transaction.
				eff, err := r.Outbox.Applied(ctx, tok, ref)
				if err != nil {
					return fmt.Errorf("order %s was skipped by the batch %s; look it up on chain: %w", m.Order, rc.Hash, err)
				}
				if eff == nil {
					return fmt.Errorf("order %s was skipped by the batch %s, but its effect is not found on chain", m.Order, rc.Hash)
				}
				if c.Recovered == nil {
					c.Recovered = eff.Evidence(r.now())
					r.event(o, corev1.EventTypeWarning, ReasonRecoveredFromChain, "Track",
						"the batch %s skipped this order: its units were already delivered by transaction %s in block %d (%d units); its evidence is recorded from the chain",
						rc.Hash, eff.TxHash.Hex(), eff.Block, c.Recovered.Units)
				}
				hash = eff.TxHash.Hex()
			}
			if lifecycle.Record(o, lifecycle.StepDeliveryInitiated, r.evidence(hash)) {
				steps = append(steps, lifecycle.StepDeliveryInitiated)
				mv, err := r.follow(ctx, o)
				if err != nil {
					return err
				}
				moves = append(moves, mv...)
			}
			if step, ok := lifecycle.NextStep(o); ok && step == lifecycle.StepDeliveryCompleted {
				lifecycle.Record(o, step, r.evidence(hash))
				c.Transaction.Receipt = rc.DeepCopy()
				steps = append(steps, step)
				mv, err := r.follow(ctx, o)
				if err != nil {
					return err
				}
				moves = append(moves, mv...)
			} else {
				// The order controller moves it first (a cancellation asked for meanwhile
				// is decided on the live order): the transaction and deliveryInitiated
				// now, the receipt once the order waits for it.
				wait()
			}
		} else {
			c.Transaction.Receipt = rc.DeepCopy()
		}
		if equality.Semantic.DeepEqual(before.Status, o.Status) {
			return nil
		}
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
				wait()
				return nil
			}
			return fmt.Errorf("record the batch's receipt on order %s: %w", m.Order, err)
		}
		switch {
		case rc.Status == investv1.ChainReceiptReverted:
			r.event(o, corev1.EventTypeWarning, ReasonTransactionReverted, "Track",
				"the batch's transaction %s (batch %s) reverted in block %d: %s; it is not re-sent", rc.Hash, b.Name, rc.BlockNumber, rc.RevertReason)
		case len(steps) > 0:
			names := make([]string, len(steps))
			for i, st := range steps {
				names[i] = string(st)
			}
			r.evidenceEvent(o, steps[len(steps)-1], before.Status.State, moves,
				"%s recorded %s evidence in transaction %s (batch %s)", Name, strings.Join(names, " and "), hash, b.Name)
			if o.Status.Settlement.DeliveryCompleted != nil {
				r.wakeSells(ctx, o)
			}
		}
		return nil
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if waiting {
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	return ctrl.Result{}, nil
}

// included are the members the transaction mints for, in its order.
func (r *Reconciler) included(b *investv1.DeliveryBatch) []investv1.DeliveryBatchMember {
	byName := make(map[string]investv1.DeliveryBatchMember, len(b.Spec.Members))
	for _, m := range b.Spec.Members {
		byName[m.Order] = m
	}
	out := make([]investv1.DeliveryBatchMember, 0, len(b.Status.Included))
	for _, n := range b.Status.Included {
		if m, ok := byName[n]; ok {
			out = append(out, m)
		}
	}
	return out
}

func (r *Reconciler) evidence(hash string) investv1.SettlementRecord {
	return investv1.SettlementRecord{TransactionHash: hash, At: metav1.NewTime(r.now().UTC().Truncate(time.Second)), RecordedBy: Name}
}

func (r *Reconciler) reader() client.Reader {
	if r.Live != nil {
		return r.Live
	}
	return r.Client
}

func (r *Reconciler) batchEvent(b *investv1.DeliveryBatch, typ, reason, action, format string, args ...any) {
	if r.Recorder != nil {
		r.Recorder.Eventf(b, nil, typ, reason, action, format, args...)
	}
}

// setupBatching registers the batch former and the controller "settlement-chain-batch".
func (r *Reconciler) setupBatching(mgr ctrl.Manager, workers int) error {
	r.batch = newBatchState()
	if err := mgr.Add(batchFormer{r: r}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&investv1.DeliveryBatch{}).
		Watches(&investv1.Order{}, handler.EnqueueRequestsFromMapFunc(func(_ context.Context, obj client.Object) []reconcile.Request {
			o, ok := obj.(*investv1.Order)
			if !ok || o.Status.Chain == nil || o.Status.Chain.Batch == "" {
				return nil
			}
			return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.Namespace, Name: o.Status.Chain.Batch}}}
		})).
		Named("settlement-" + Name + "-batch").
		WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
		Complete(BatchReconciler{r: r})
}

// BatchesSource is the outbox Source of DeliveryBatches: every batch's
// status.transaction, read uncached, 500 a page.
func BatchesSource(reader client.Reader) outbox.Source {
	return pagedSource(reader, "delivery batches", func(list *investv1.DeliveryBatchList) []outbox.Record {
		recs := make([]outbox.Record, 0, len(list.Items))
		for i := range list.Items {
			b := &list.Items[i]
			if b.Status.Transaction != nil {
				recs = append(recs, outbox.Record{Owner: "DeliveryBatch " + b.Namespace + "/" + b.Name, Object: b, Tx: b.Status.Transaction})
			}
		}
		return recs
	})
}

// member reads a member's order; nil, and no error, when it is gone (deleted since it
// was claimed: nothing is left to record on it).
func (r *Reconciler) member(ctx context.Context, b *investv1.DeliveryBatch, m investv1.DeliveryBatchMember) (*investv1.Order, error) {
	o := &investv1.Order{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: m.Order}, o); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	return o, nil
}

// memberRef is the effect reference of a member's mint or settlement: its order's (the UID
// its owner reference names), the same as the order's own transaction would carry.
func memberRef(b *investv1.DeliveryBatch, m investv1.DeliveryBatchMember, uids map[string]types.UID) [32]byte {
	o := &investv1.Order{}
	o.Namespace, o.Name, o.UID = b.Namespace, m.Order, uids[m.Order]
	if b.Spec.Kind == investv1.DeliveryBatchSettle {
		return chain.EffectRef("Order", o.Namespace, o.Name, string(o.UID), chain.EffectSettle) // as orderRef of a SECONDARY BUY
	}
	return orderRef(o, lifecycle.StepDeliveryInitiated)
}

// recoverMember records on a claimed member whose mint the chain shows applied already the
// transaction that applied it (status.chain.recovered), with deliveryInitiated when the
// order waits for it; the order's own reconciler tracks it from there, and the batch leaves
// it out.
func (r *Reconciler) recoverMember(ctx context.Context, b *investv1.DeliveryBatch, m investv1.DeliveryBatchMember, eff *outbox.AppliedEffect) error {
	o := &investv1.Order{}
	if err := r.reader().Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: m.Order}, o); err != nil {
		return client.IgnoreNotFound(err)
	}
	c := o.Status.Chain
	if c != nil && ((c.Batch != "" && c.Batch != b.Name) || c.Transaction != nil) {
		return nil
	}
	if c == nil {
		c = &investv1.OrderChainStatus{}
		o.Status.Chain = c
	}
	if eff.Foreign {
		return fmt.Errorf("order %s: its mint was applied by transaction %s, signed by %s, not by the agent's key: a person records the evidence", m.Order, eff.TxHash.Hex(), eff.Tx.From)
	}
	before := o.DeepCopy()
	c.Transaction, c.Token, c.Recipient, c.Refused = eff.Tx, common.HexToAddress(b.Spec.Token).Hex(), common.HexToAddress(m.Address).Hex(), nil
	c.Recovered = eff.Evidence(r.now())
	initiated := lifecycle.Record(o, lifecycle.StepDeliveryInitiated, r.evidence(eff.TxHash.Hex()))
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return fmt.Errorf("record the mint found on chain on order %s: %w", m.Order, err)
	}
	r.event(o, corev1.EventTypeWarning, ReasonRecoveredFromChain, "Send",
		"the mint of this order was already applied on chain by transaction %s in block %d (%d units), although no record said so (the records fell behind the chain: etcd restored from an older snapshot, or a status write lost): the record was recovered from the chain; the batch %s leaves it out",
		eff.TxHash.Hex(), eff.Block, c.Recovered.Units, b.Name)
	if initiated {
		r.event(o, corev1.EventTypeNormal, lifecycle.EvidenceReason(lifecycle.StepDeliveryInitiated), "RecordSettlement",
			"%s recorded %s evidence in transaction %s", Name, lifecycle.StepDeliveryInitiated, eff.TxHash.Hex())
	}
	return nil
}
