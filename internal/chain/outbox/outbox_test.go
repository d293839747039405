package outbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
)

// store is a durable record store standing in for owners' statuses: one record per owner.
type store struct {
	mu   sync.Mutex
	recs map[string]*investv1.ChainTransaction
}

func newStore() *store { return &store{recs: map[string]*investv1.ChainTransaction{}} }

func (s *store) record(owner string) RecordFunc {
	return func(_ context.Context, tx *investv1.ChainTransaction) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.recs[owner] = tx.DeepCopy()
		return nil
	}
}

func (s *store) get(owner string) *investv1.ChainTransaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recs[owner].DeepCopy()
}

func (s *store) Records(context.Context) ([]Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := make([]Record, 0, len(s.recs))
	for owner, r := range s.recs {
		all = append(all, Record{Owner: owner, Tx: r.DeepCopy()})
	}
	return all, nil
}

// deadBroadcast is the chain client of an agent that dies right after recording: nothing it
// sends reaches the node.
type deadBroadcast struct {
	Backend
	sent int
}

func (d *deadBroadcast) SendTransaction(context.Context, *types.Transaction) error {
	d.sent++
	return errors.New("killed before broadcasting")
}

func newOutbox(t testing.TB, c *chaintest.Chain, b Backend, s *store, mod func(*Config)) *Outbox {
	t.Helper()
	cfg := Config{Backend: b, Signer: c.Agent, ChainID: c.ChainID}
	if mod != nil {
		mod(&cfg)
	}
	ob, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s != nil {
		ob.AddSource(s)
	}
	if err := ob.Sync(c.Ctx); err != nil {
		t.Fatal(err)
	}
	return ob
}

func mintCall(c *chaintest.Chain, to common.Address, units int64) Call {
	return Call{To: &c.Token, Data: c.TokenABI.PackMint(to, big.NewInt(units))}
}

func TestSendRecordsTheSignedTransactionBeforeBroadcasting(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	ob := newOutbox(t, c, c.Client, s, nil)

	var seenAtRecord bool
	rec, err := ob.Send(c.Ctx, mintCall(c, w, 5), func(ctx context.Context, tx *investv1.ChainTransaction) error {
		_, _, err := c.Client.TransactionByHash(ctx, common.HexToHash(tx.Attempts[0].Hash))
		seenAtRecord = !errors.Is(err, ethereum.NotFound)
		return s.record("order-1")(ctx, tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	if seenAtRecord {
		t.Fatal("the node knew the transaction when it was being recorded: it was broadcast before the record")
	}
	got := s.get("order-1")
	if got == nil || got.Attempts[0].Hash != rec.Attempts[0].Hash || got.Nonce != 0 || got.From != c.Agent.Address().Hex() {
		t.Fatalf("recorded %+v, sent %+v", got, rec)
	}
	if got.Attempts[0].Raw == "" || got.Attempts[0].MaxFeePerGas == "" || got.Attempts[0].MaxPriorityFeePerGas == "" {
		t.Fatalf("record lacks raw bytes or fee caps: %+v", got.Attempts[0])
	}
	c.Commit(1)
	if b := c.Balance(c.Token, w); b != 5 {
		t.Fatalf("balance %d, want 5", b)
	}
}

func TestPreflightRevertSignsAndRecordsNothing(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet() // not registered
	ob := newOutbox(t, c, c.Client, newStore(), nil)
	_, err := ob.Send(c.Ctx, mintCall(c, w, 5), func(context.Context, *investv1.ChainTransaction) error {
		t.Fatal("a transaction that would revert was recorded")
		return nil
	})
	if err == nil || err.Error() != fmt.Sprintf("reverted: NotVerified(%s)", w.Hex()) {
		t.Fatalf("error %v, want reverted: NotVerified(%s)", err, w.Hex())
	}
	if n, _ := c.Client.PendingNonceAt(c.Ctx, c.Agent.Address()); n != 0 {
		t.Fatalf("pending nonce %d: something was sent", n)
	}
}

func TestFailedRecordFreesTheNonce(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	ob := newOutbox(t, c, c.Client, s, nil)
	_, err := ob.Send(c.Ctx, mintCall(c, w, 1), func(context.Context, *investv1.ChainTransaction) error {
		return NotRecorded(errors.New("conflict"))
	})
	if err == nil {
		t.Fatal("Send succeeded although the record failed")
	}
	rec, err := ob.Send(c.Ctx, mintCall(c, w, 2), s.record("order-2"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Nonce != 0 {
		t.Fatalf("nonce %d after a failed record, want 0 (freed)", rec.Nonce)
	}
	c.Commit(1)
	if b := c.Balance(c.Token, w); b != 2 {
		t.Fatalf("balance %d, want 2: the unrecorded mint must never be sent", b)
	}
}

func TestAmbiguousRecordResyncsBeforeTheNextAllocation(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	ob := newOutbox(t, c, c.Client, s, nil)
	// The write happened, but the caller saw a timeout.
	_, err := ob.Send(c.Ctx, mintCall(c, w, 1), func(ctx context.Context, tx *investv1.ChainTransaction) error {
		_ = s.record("order-1")(ctx, tx)
		return errors.New("http2: timeout awaiting response headers")
	})
	if err == nil {
		t.Fatal("Send succeeded although the record reported an error")
	}
	rec, err := ob.Send(c.Ctx, mintCall(c, w, 2), s.record("order-2"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Nonce != 1 {
		t.Fatalf("nonce %d after an ambiguous record that did happen, want 1 (no reuse)", rec.Nonce)
	}
}

func TestNextNonceAfterRestartIsAboveEveryRecordAndThePendingNonce(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	dead := &deadBroadcast{Backend: c.Client}
	ob := newOutbox(t, c, dead, s, nil)
	for i := range 3 {
		if _, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record(fmt.Sprint("order-", i))); err == nil {
			t.Fatal("the dead broadcast succeeded")
		}
	}
	// Restart: the chain has seen nothing (pending nonce 0); the records hold 0, 1 and 2.
	ob2 := newOutbox(t, c, c.Client, s, nil)
	rec, err := ob2.Send(c.Ctx, mintCall(c, w, 1), s.record("order-3"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Nonce != 3 {
		t.Fatalf("nonce %d after restart, want 3", rec.Nonce)
	}
}

func TestRestartBroadcastsTheRecordedBytesNotANewTransaction(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	dead := &deadBroadcast{Backend: c.Client}
	ob := newOutbox(t, c, dead, s, nil)
	if _, err := ob.Send(c.Ctx, mintCall(c, w, 7), s.record("order-1")); err == nil {
		t.Fatal("the dead broadcast succeeded")
	}
	c.Commit(2)
	if b := c.Balance(c.Token, w); b != 0 {
		t.Fatalf("balance %d before the restart, want 0", b)
	}

	ob2 := newOutbox(t, c, c.Client, s, nil)
	rec := s.get("order-1")
	obs, _, err := ob2.Track(c.Ctx, rec, 1, s.record("order-1"))
	if err != nil || obs.State != Pending {
		t.Fatalf("track: %v %v", obs.State, err)
	}
	c.Commit(1)
	obs, _, err = ob2.Track(c.Ctx, rec, 1, s.record("order-1"))
	if err != nil || obs.State != Final || !obs.Succeeded {
		t.Fatalf("track after a block: %v %v", obs.State, err)
	}
	if obs.Hash.Hex() != rec.Attempts[0].Hash {
		t.Fatalf("mined %s, recorded %s: a new transaction was built", obs.Hash.Hex(), rec.Attempts[0].Hash)
	}
	if m := c.Mints(c.Token, w); len(m) != 1 || m[0].Units != 7 {
		t.Fatalf("mints %+v, want exactly one of 7", m)
	}
}

func TestConcurrentSendsAllocateNoncesWithoutGapOrReuse(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	ob := newOutbox(t, c, c.Client, s, nil)
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%7 == 3 { // some records fail: their nonces are freed and reused by others
				_, err := ob.Send(c.Ctx, mintCall(c, w, 1000), func(context.Context, *investv1.ChainTransaction) error {
					return NotRecorded(errors.New("conflict"))
				})
				if err == nil {
					errs <- errors.New("failed record reported success")
				}
				return
			}
			if _, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record(fmt.Sprint("order-", i))); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var nonces []int
	for _, r := range s.recs {
		nonces = append(nonces, int(r.Nonce))
	}
	sort.Ints(nonces)
	for i, nonce := range nonces {
		if nonce != i {
			t.Fatalf("nonces %v: gap or reuse at %d", nonces, i)
		}
	}
	// Two blocks, not one: the sends reach the node out of nonce order, and geth's pool can
	// leave the tail of a filled gap queued until the next head (its reset renews the pending
	// nonce before it promotes). A real node mines that tail a block later, and so does this.
	c.Commit(2)
	if b, want := c.Balance(c.Token, w), int64(len(nonces)); b != want {
		t.Fatalf("balance %d, want %d (every recorded mint mined, no failed one)", b, want)
	}
	for owner, r := range s.recs {
		rc, err := c.Client.TransactionReceipt(c.Ctx, common.HexToHash(r.Attempts[0].Hash))
		if err != nil || rc.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("%s (nonce %d): receipt %v, %v: a recorded mint was not mined", owner, r.Nonce, rc, err)
		}
	}
}

func TestStuckTransactionIsReplacedWithTheSameNonceAndHigherFees(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	now := time.Now()
	first := true
	ob := newOutbox(t, c, c.Client, s, func(cfg *Config) {
		cfg.Now = func() time.Time { return now }
		cfg.StuckAfter = time.Minute
		cfg.Fees = func(ctx context.Context, b Backend) (Fees, error) {
			if first { // below the base fee: it cannot be mined
				first = false
				return Fees{Tip: big.NewInt(1), Cap: big.NewInt(2)}, nil
			}
			return DefaultFees(ctx, b)
		}
	})
	rec, err := ob.Send(c.Ctx, mintCall(c, w, 3), s.record("order-1"))
	if err != nil {
		t.Fatal(err)
	}
	c.Commit(2)
	obs, rec2, err := ob.Track(c.Ctx, rec, 1, s.record("order-1"))
	if err != nil || obs.State != Pending || len(rec2.Attempts) != 1 {
		t.Fatalf("before StuckAfter: %v, %d attempts, %v", obs.State, len(rec2.Attempts), err)
	}
	now = now.Add(2 * time.Minute)
	_, rec2, err = ob.Track(c.Ctx, rec, 1, s.record("order-1"))
	if err != nil {
		t.Fatal(err)
	}
	stored := s.get("order-1")
	if len(stored.Attempts) != 2 || len(rec2.Attempts) != 2 {
		t.Fatalf("the replacement was not recorded: %d attempts", len(stored.Attempts))
	}
	a, b := stored.Attempts[0], stored.Attempts[1]
	ta, _ := Decode(a)
	tb, _ := Decode(b)
	if ta.Nonce() != tb.Nonce() || tb.GasFeeCap().Cmp(ta.GasFeeCap()) <= 0 || tb.GasTipCap().Cmp(ta.GasTipCap()) <= 0 {
		t.Fatalf("replacement nonce %d fees %s/%s, original nonce %d fees %s/%s", tb.Nonce(), tb.GasFeeCap(), tb.GasTipCap(), ta.Nonce(), ta.GasFeeCap(), ta.GasTipCap())
	}
	c.Commit(1)
	obs, _, err = ob.Track(c.Ctx, stored, 1, s.record("order-1"))
	if err != nil || obs.State != Final || obs.Hash.Hex() != b.Hash {
		t.Fatalf("after a block: %v %s %v, want Final %s", obs.State, obs.Hash.Hex(), err, b.Hash)
	}
	if m := c.Mints(c.Token, w); len(m) != 1 {
		t.Fatalf("%d mints, want 1", len(m))
	}
}

func TestCheckIsFinalOnlyAfterTheConfiguredConfirmations(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	ob := newOutbox(t, c, c.Client, s, nil)
	rec, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record("o"))
	if err != nil {
		t.Fatal(err)
	}
	for want := uint64(1); want < 3; want++ {
		c.Commit(1)
		obs, err := ob.Check(c.Ctx, rec, 3)
		if err != nil || obs.State != Mined || obs.Confirmations != want {
			t.Fatalf("after %d blocks: %v conf %d %v", want, obs.State, obs.Confirmations, err)
		}
	}
	c.Commit(1)
	obs, err := ob.Check(c.Ctx, rec, 3)
	if err != nil || obs.State != Final || obs.Receipt == nil || obs.Receipt.Status != investv1.ChainReceiptSucceeded || obs.Receipt.Confirmations != 3 {
		t.Fatalf("after 3 blocks: %+v %v", obs, err)
	}
}

// staleHead is a backend whose head is read before the next block is mined: what Check
// sees when a block arrives between its reads.
type staleHead struct {
	Backend
	head uint64
}

func (s staleHead) BlockNumber(context.Context) (uint64, error) { return s.head, nil }

// TestATransactionMinedAfterTheHeadWasReadIsNotTakenByAnother: Check reads the head, then
// the receipts (a receipt above that head is looked at again later), then the nonce. A
// block mined in between holds our transaction and raises the latest nonce: the nonce is
// read at the head read first, so the transaction is pending, never NonceTaken.
func TestATransactionMinedAfterTheHeadWasReadIsNotTakenByAnother(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	ob := newOutbox(t, c, c.Client, s, nil)
	rec, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record("o"))
	if err != nil {
		t.Fatal(err)
	}
	head, err := c.Client.BlockNumber(c.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.Commit(1) // our transaction is mined in head+1
	ob.cfg.Backend = staleHead{Backend: c.Client, head: head}
	obs, err := ob.Check(c.Ctx, rec, 1)
	if err != nil || obs.State != Pending {
		t.Fatalf("checked at head %d with the transaction mined in %d: %v %v, want Pending", head, head+1, obs.State, err)
	}
	ob.cfg.Backend = c.Client
	if obs, err := ob.Check(c.Ctx, rec, 1); err != nil || obs.State != Final {
		t.Fatalf("checked at the new head: %v %v, want Final", obs.State, err)
	}
}

func TestSendBeforeSyncIsRefusedAndOnlyTheLeaderSyncs(t *testing.T) {
	c := chaintest.New(t)
	ob, err := New(Config{Backend: c.Client, Signer: c.Agent, ChainID: c.ChainID})
	if err != nil {
		t.Fatal(err)
	}
	if !ob.NeedLeaderElection() {
		t.Fatal("the outbox must start on the leader only: two replicas would allocate the same nonces")
	}
	if _, err := ob.Send(c.Ctx, mintCall(c, c.NewWallet(), 1), newStore().record("x")); !errors.Is(err, ErrNotSynced) {
		t.Fatalf("error %v, want ErrNotSynced", err)
	}
}
