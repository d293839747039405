package outbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
)

// mintFinal sends n mints of units to w through ob, mines them and records each receipt
// as its owner would once final ("order-<i>", from first on).
func mintFinal(t testing.TB, c *chaintest.Chain, ob *Outbox, s *store, w common.Address, first, n int, units int64) {
	t.Helper()
	recs := make([]*investv1.ChainTransaction, 0, n)
	for i := first; i < first+n; i++ {
		rec, err := ob.Send(c.Ctx, mintCall(c, w, units), s.record(fmt.Sprint("order-", i)))
		if err != nil {
			t.Fatalf("mint %d: %v", i, err)
		}
		recs = append(recs, rec)
	}
	c.Commit(1)
	for i, rec := range recs {
		owner := fmt.Sprint("order-", first+i)
		var obs Observation
		for range 50 {
			var err error
			if obs, err = ob.Check(c.Ctx, rec, 1); err != nil {
				t.Fatal(err)
			}
			if obs.State == Final {
				break
			}
			c.Commit(1)
		}
		if obs.State != Final || !obs.Succeeded {
			t.Fatalf("%s: %v, succeeded %v", owner, obs.State, obs.Succeeded)
		}
		rec.Receipt = obs.Receipt
		if err := s.record(owner)(c.Ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
}

// rollback makes the chain forget its last blocks down to (and keeping) block keep, and
// drops the node's pool: what the chain had mined above keep is gone, as after a node
// restored from an older snapshot.
func rollback(t testing.TB, c *chaintest.Chain, keep uint64) {
	t.Helper()
	b, err := c.Client.HeaderByNumber(c.Ctx, new(big.Int).SetUint64(keep))
	if err != nil {
		t.Fatal(err)
	}
	c.Backend.Rollback() // a fork needs a clean pending block
	if err := c.Backend.Fork(b.Hash()); err != nil {
		t.Fatal(err)
	}
	c.Backend.Rollback() // the node's pool takes the forgotten transactions back: drop them
	c.Commit(1)          // the fork becomes the chain (its first block is empty: the pool was dropped)
	c.Backend.Rollback()
}

func chainNonce(t testing.TB, c *chaintest.Chain) uint64 {
	t.Helper()
	n, err := c.Client.NonceAt(c.Ctx, c.Agent.Address(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// healUntilInSync runs Heal and mines a block, until the chain holds every record (at most
// a minute: the node's pool takes a broadcast in a moment after it returns).
func healUntilInSync(t testing.TB, c *chaintest.Chain, ob *Outbox) Health {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		h, err := ob.Heal(c.Ctx)
		if err != nil {
			t.Fatal(err)
		}
		if h.State == InSync {
			return h
		}
		c.Commit(1)
	}
	t.Fatalf("the chain never held the records again: %+v", ob.Health())
	return Health{}
}

// healSetup is a chain with a registered wallet, a record store and an outbox on them,
// and the block before anything the outbox sends (where the specs roll back to).
type healSetup struct {
	c     *chaintest.Chain
	w     common.Address
	s     *store
	ob    *Outbox
	start uint64
}

func newHealSetup(t testing.TB, mod func(*Config)) healSetup {
	t.Helper()
	c := chaintest.New(t)
	w := c.NewWallet()
	c.Register(w)
	s := newStore()
	ob := newOutbox(t, c, c.Client, s, mod)
	return healSetup{c: c, w: w, s: s, ob: ob, start: c.Head()}
}

func TestAChainBehindTheRecordsGetsEveryRecordedTransactionBackAsTheRecordedBytes(t *testing.T) {
	for _, depth := range []int{1, 10, 100} {
		t.Run(fmt.Sprintf("rollback of %d blocks", depth), func(t *testing.T) {
			var notices []Notice
			hs := newHealSetup(t, func(cfg *Config) { cfg.Notify = func(n Notice) { notices = append(notices, n) } })
			c, w, s, ob, start := hs.c, hs.w, hs.s, hs.ob, hs.start
			// A mint a block, depth blocks, then the rollback forgets them all.
			for i := range depth {
				mintFinal(t, c, ob, s, w, i, 1, 3)
			}
			minted := int64(depth * 3)
			if b := c.Balance(c.Token, w); b != minted {
				t.Fatalf("balance %d before the rollback, want %d", b, minted)
			}
			rollback(t, c, start)
			if b := c.Balance(c.Token, w); b != 0 || chainNonce(t, c) != 0 {
				t.Fatalf("after the rollback: balance %d, nonce %d; want both 0", b, chainNonce(t, c))
			}

			h, err := ob.Heal(c.Ctx)
			if err != nil {
				t.Fatal(err)
			}
			if h.State != Behind || h.ChainNonce != 0 || h.Final != uint64(depth) || h.Rebroadcast != depth {
				t.Fatalf("health %+v; want Behind at nonce 0 of %d final, all broadcast again", h, depth)
			}
			if _, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record("new")); !errors.Is(err, ErrChainBehind) {
				t.Fatalf("Send while behind: %v, want ErrChainBehind", err)
			}
			if s.get("new") != nil {
				t.Fatal("a new transaction was recorded while the chain was behind")
			}

			h = healUntilInSync(t, c, ob)
			if h.ChainNonce != uint64(depth) || len(h.Changed) != 0 {
				t.Fatalf("healed: %+v", h)
			}
			if b := c.Balance(c.Token, w); b != minted {
				t.Fatalf("balance %d after healing, want %d", b, minted)
			}
			mints := c.Mints(c.Token, w)
			if len(mints) != depth {
				t.Fatalf("%d mints on the chain, want %d: none twice, none lost", len(mints), depth)
			}
			for i := range depth {
				rec := s.get(fmt.Sprint("order-", i))
				r, err := c.Client.TransactionReceipt(c.Ctx, common.HexToHash(rec.Attempts[0].Hash))
				if err != nil || r.Status != types.ReceiptStatusSuccessful {
					t.Fatalf("order-%d's recorded mint %s is not on the chain again: %v", i, rec.Attempts[0].Hash, err)
				}
			}
			// Signing resumes above every old nonce.
			rec, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record("new"))
			if err != nil || rec.Nonce != int64(depth) {
				t.Fatalf("Send after healing: nonce %v, %v; want %d", rec, err, depth)
			}
			var reasons []string
			for _, n := range notices {
				reasons = append(reasons, n.Reason)
			}
			joined := strings.Join(reasons, " ")
			if !strings.Contains(joined, "ChainBehind") || !strings.Contains(joined, "TransactionRebroadcast") || !strings.Contains(joined, "ChainHealed") {
				t.Fatalf("notices %v: want ChainBehind, TransactionRebroadcast for each owner, ChainHealed", reasons)
			}
		})
	}
}

func TestAnInFlightTransactionAboveTheLostOnesIsMinedAfterThemWithItsRecordedNonce(t *testing.T) {
	hs := newHealSetup(t, nil)
	c, w, s, ob, start := hs.c, hs.w, hs.s, hs.ob, hs.start
	mintFinal(t, c, ob, s, w, 0, 5, 2)
	// The sixth mint is recorded and broadcast, but not mined, when the chain falls back.
	if _, err := ob.Send(c.Ctx, mintCall(c, w, 7), s.record("in-flight")); err != nil {
		t.Fatal(err)
	}
	rollback(t, c, start) // drops the pool too
	healUntilInSync(t, c, ob)
	// Heal brought the lost five back and the in-flight one with them (its nonce is in
	// the range); its owner tracks it to Final as usual.
	rec := s.get("in-flight")
	obs, _, err := ob.Track(c.Ctx, rec, 1, s.record("in-flight"))
	for range 20 {
		if err != nil || obs.State == Final {
			break
		}
		c.Commit(1)
		obs, _, err = ob.Track(c.Ctx, rec, 1, s.record("in-flight"))
	}
	if err != nil || obs.State != Final || obs.Hash.Hex() != rec.Attempts[0].Hash {
		t.Fatalf("in-flight mint: %v %v (hash %s, recorded %s)", obs.State, err, obs.Hash.Hex(), rec.Attempts[0].Hash)
	}
	if b := c.Balance(c.Token, w); b != 5*2+7 {
		t.Fatalf("balance %d, want 17", b)
	}
	if n := chainNonce(t, c); n != 6 {
		t.Fatalf("chain nonce %d, want 6: no new nonce for an old effect", n)
	}
}

// replacementMinedOnce heals the chain and follows the in-flight mint of the re-pricing
// specs to Final: its replacement is what is mined, the wallet holds the five healed mints
// and the in-flight one, and no new nonce was used.
func replacementMinedOnce(t *testing.T, hs healSetup, repriced *investv1.ChainTransaction) {
	t.Helper()
	c, w, s, ob := hs.c, hs.w, hs.s, hs.ob
	healUntilInSync(t, c, ob)
	obs, _, err := ob.Track(c.Ctx, repriced, 1, s.record("in-flight"))
	for range 20 {
		if err != nil || obs.State == Final {
			break
		}
		c.Commit(1)
		obs, _, err = ob.Track(c.Ctx, repriced, 1, s.record("in-flight"))
	}
	if err != nil || obs.State != Final || obs.Hash.Hex() != repriced.Attempts[1].Hash {
		t.Fatalf("in-flight mint: %v %v (hash %s, want the replacement %s)", obs.State, err, obs.Hash.Hex(), repriced.Attempts[1].Hash)
	}
	if b := c.Balance(c.Token, w); b != 5*2+7 {
		t.Fatalf("balance %d, want 17", b)
	}
	if n := chainNonce(t, c); n != 6 {
		t.Fatalf("chain nonce %d, want 6: no new nonce for an old effect", n)
	}
}

// TestWhileHealingARecordedTransactionBelowTheBaseFeeIsRepricedAtOnce: after a rollback
// the chain stands at an older block whose base fee may be above what an in-flight
// transaction was priced at; its owner's Track replaces it at once (same nonce, recorded
// first), not after StuckAfter, so the transactions above it are not held up.
func TestWhileHealingARecordedTransactionBelowTheBaseFeeIsRepricedAtOnce(t *testing.T) {
	cheap := false
	hs := newHealSetup(t, func(cfg *Config) {
		cfg.StuckAfter = time.Hour
		cfg.Fees = func(ctx context.Context, b Backend) (Fees, error) {
			if cheap { // priced far below the base fee the chain will stand at
				return Fees{Tip: big.NewInt(1), Cap: big.NewInt(2)}, nil
			}
			return DefaultFees(ctx, b)
		}
	})
	c, w, s, ob, start := hs.c, hs.w, hs.s, hs.ob, hs.start
	mintFinal(t, c, ob, s, w, 0, 5, 2)
	cheap = true
	if _, err := ob.Send(c.Ctx, mintCall(c, w, 7), s.record("in-flight")); err != nil {
		t.Fatal(err)
	}
	cheap = false
	rollback(t, c, start)
	if h, err := ob.Heal(c.Ctx); err != nil || h.State != Behind {
		t.Fatalf("after the rollback: %+v, %v; want Behind", h, err)
	}
	rec := s.get("in-flight")
	if _, _, err := ob.Track(c.Ctx, rec, 1, s.record("in-flight")); err != nil {
		t.Fatal(err)
	}
	repriced := s.get("in-flight")
	if len(repriced.Attempts) != 2 {
		t.Fatalf("%d attempts recorded, want the original and its re-priced replacement", len(repriced.Attempts))
	}
	first, _ := Decode(repriced.Attempts[0])
	second, _ := Decode(repriced.Attempts[1])
	head, err := c.Client.HeaderByNumber(c.Ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.Nonce() != first.Nonce() || second.GasFeeCap().Cmp(head.BaseFee) < 0 {
		t.Fatalf("replacement nonce %d cap %s, original nonce %d; base fee %s", second.Nonce(), second.GasFeeCap(), first.Nonce(), head.BaseFee)
	}
	replacementMinedOnce(t, hs, repriced)
}

// TestWhileHealingARecordedTransactionWhoseTipAboveTheBaseFeeIsTooSmallIsRepricedAtOnce:
// a fee cap just above the base fee of the block the chain fell back to leaves less tip
// than block producers take (geth's miner skips transactions under its minimum tip), so
// the transaction waits in the pool as surely as one below the base fee, and every
// transaction above it waits too. Its owner's Track replaces it at once, as it does one
// below the base fee.
func TestWhileHealingARecordedTransactionWhoseTipAboveTheBaseFeeIsTooSmallIsRepricedAtOnce(t *testing.T) {
	var capAt *big.Int // when set, the fee cap of the next transaction
	hs := newHealSetup(t, func(cfg *Config) {
		cfg.StuckAfter = time.Hour
		cfg.Fees = func(ctx context.Context, b Backend) (Fees, error) {
			f, err := DefaultFees(ctx, b)
			if err == nil && capAt != nil {
				f.Cap = capAt
			}
			return f, err
		}
	})
	c, w, s, ob, keep := hs.c, hs.w, hs.s, hs.ob, hs.start
	mintFinal(t, c, ob, s, w, 0, 5, 2)
	c.Commit(200) // empty blocks: the base fee falls far below the one at keep
	// The first block of the fork has the base fee of keep+1 here: it is keep's child.
	back, err := c.Client.HeaderByNumber(c.Ctx, new(big.Int).SetUint64(keep+1))
	if err != nil {
		t.Fatal(err)
	}
	want, err := DefaultFees(c.Ctx, c.Client)
	if err != nil {
		t.Fatal(err)
	}
	// Above the base fee after the rollback, but leaving half the tip once the chain is back there.
	capAt = new(big.Int).Add(back.BaseFee, new(big.Int).Div(want.Tip, big.NewInt(2)))
	if _, err := ob.Send(c.Ctx, mintCall(c, w, 7), s.record("in-flight")); err != nil {
		t.Fatal(err)
	}
	capAt = nil
	rollback(t, c, keep)
	head, err := c.Client.HeaderByNumber(c.Ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := Decode(s.get("in-flight").Attempts[0])
	if first.GasFeeCap().Cmp(head.BaseFee) < 0 || EffectiveTip(first, head.BaseFee).Cmp(want.Tip) >= 0 {
		t.Fatalf("set-up: cap %s, tip left %s at base fee %s; want a cap above the base fee leaving less than the tip %s",
			first.GasFeeCap(), EffectiveTip(first, head.BaseFee), head.BaseFee, want.Tip)
	}
	if h, err := ob.Heal(c.Ctx); err != nil || h.State != Behind {
		t.Fatalf("after the rollback: %+v, %v; want Behind", h, err)
	}
	if _, _, err := ob.Track(c.Ctx, s.get("in-flight"), 1, s.record("in-flight")); err != nil {
		t.Fatal(err)
	}
	repriced := s.get("in-flight")
	if len(repriced.Attempts) != 2 {
		t.Fatalf("%d attempts recorded, want the original and its re-priced replacement at once", len(repriced.Attempts))
	}
	second, _ := Decode(repriced.Attempts[1])
	if second.Nonce() != first.Nonce() || EffectiveTip(second, head.BaseFee).Cmp(want.Tip) < 0 {
		t.Fatalf("replacement nonce %d leaves tip %s at base fee %s (want at least %s); original nonce %d",
			second.Nonce(), EffectiveTip(second, head.BaseFee), head.BaseFee, want.Tip, first.Nonce())
	}
	replacementMinedOnce(t, hs, repriced)
}

func TestEffectiveTipIsTheTipOrWhatTheCapLeavesAboveTheBaseFee(t *testing.T) {
	tx := types.NewTx(&types.DynamicFeeTx{GasTipCap: big.NewInt(100), GasFeeCap: big.NewInt(1_000)})
	for _, tc := range []struct{ base, want int64 }{{0, 100}, {900, 100}, {950, 50}, {1_000, 0}, {1_200, -200}} {
		if got := EffectiveTip(tx, big.NewInt(tc.base)); got.Int64() != tc.want {
			t.Errorf("base fee %d: %s, want %d", tc.base, got, tc.want)
		}
	}
}

func TestANonceNoRecordHoldsHaltsSigningUntilAPersonFillsIt(t *testing.T) {
	hs := newHealSetup(t, nil)
	c, w, s, ob, start := hs.c, hs.w, hs.s, hs.ob, hs.start
	mintFinal(t, c, ob, s, w, 0, 6, 1)
	// order-2's record left the cluster (its owner is gone); keep its bytes, as an
	// operator would find them in the order archive.
	lost := s.get("order-2")
	s.mu.Lock()
	delete(s.recs, "order-2")
	s.mu.Unlock()
	rollback(t, c, start)

	h, err := ob.Heal(c.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h.State != Halted || len(h.Missing) != 1 || h.Missing[0] != 2 {
		t.Fatalf("health %+v, want Halted with nonce 2 missing", h)
	}
	if !strings.Contains(h.Message, "no record holds nonce(s) 2") {
		t.Fatalf("message %q does not name the missing nonce", h.Message)
	}
	c.Commit(3)
	if h, _ = ob.Heal(c.Ctx); h.State != Halted || h.ChainNonce != 2 {
		t.Fatalf("health %+v: nonces 0 and 1 mined again, halted at 2", h)
	}
	if _, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record("new")); !errors.Is(err, ErrChainBehind) {
		t.Fatalf("Send while halted: %v, want ErrChainBehind", err)
	}

	// A person broadcasts the lost transaction's recorded bytes (eth_sendRawTransaction).
	tx, err := Decode(lost.Attempts[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Client.SendTransaction(c.Ctx, tx); err != nil {
		t.Fatal(err)
	}
	healUntilInSync(t, c, ob)
	if b := c.Balance(c.Token, w); b != 6 {
		t.Fatalf("balance %d, want 6", b)
	}
}

func TestATransactionMinedAgainWithAnotherOutcomeIsReportedOnItsOwner(t *testing.T) {
	c := chaintest.New(t)
	w := c.NewWallet()
	start := c.Head()
	c.Register(w) // the admin's registration: lost with the rollback, never re-sent
	s := newStore()
	var notices []Notice
	ob := newOutbox(t, c, c.Client, s, func(cfg *Config) { cfg.Notify = func(n Notice) { notices = append(notices, n) } })
	mintFinal(t, c, ob, s, w, 0, 1, 4)
	rollback(t, c, start)
	h := healUntilInSync(t, c, ob)
	if len(h.Changed) != 1 {
		t.Fatalf("changed %+v, want the mint", h.Changed)
	}
	ch := h.Changed[0]
	if ch.Owner != "order-0" || ch.Recorded != investv1.ChainReceiptSucceeded || ch.Now != investv1.ChainReceiptReverted ||
		ch.Reason != fmt.Sprintf("NotVerified(%s)", w.Hex()) {
		t.Fatalf("change %+v", ch)
	}
	var warned bool
	for _, n := range notices {
		warned = warned || (n.Reason == "TransactionOutcomeChanged" && n.Warning && n.Record != nil && n.Record.Owner == "order-0")
	}
	if !warned {
		t.Fatalf("notices %+v: no TransactionOutcomeChanged warning on order-0", notices)
	}
	if n := chainNonce(t, c); n != 1 {
		t.Fatalf("chain nonce %d, want 1: the reverted mint is not re-sent", n)
	}
}

// failAfter is a chain client whose broadcasts fail after n succeeded: an agent killed in
// the middle of broadcasting the records again.
type failAfter struct {
	Backend
	n    int64
	sent atomic.Int64
}

func (f *failAfter) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if f.sent.Add(1) > f.n {
		return errors.New("killed while broadcasting again")
	}
	return f.Backend.SendTransaction(ctx, tx)
}

func TestAnAgentKilledWhileBroadcastingAgainIsHealedByTheNextOne(t *testing.T) {
	hs := newHealSetup(t, nil)
	c, w, s, ob, start := hs.c, hs.w, hs.s, hs.ob, hs.start
	for i := 0; i < 30; i += 10 {
		mintFinal(t, c, ob, s, w, i, 10, 1)
	}
	rollback(t, c, start)

	dying := newOutbox(t, c, &failAfter{Backend: c.Client, n: 12}, s, nil)
	if h, err := dying.Heal(c.Ctx); err != nil || h.State != Behind || h.Rebroadcast != 12 {
		t.Fatalf("the agent killed after 12 broadcasts: %+v %v", h, err)
	}
	c.Commit(1)
	c.Backend.Rollback() // the restart loses nothing the chain mined, only the pool

	next := newOutbox(t, c, c.Client, s, nil)
	healUntilInSync(t, c, next)
	if b, m := c.Balance(c.Token, w), len(c.Mints(c.Token, w)); b != 30 || m != 30 {
		t.Fatalf("balance %d in %d mints, want 30 in 30", b, m)
	}
}

func TestFormatNoncesFoldsRuns(t *testing.T) {
	for _, tc := range []struct {
		in   []uint64
		want string
	}{
		{nil, ""},
		{[]uint64{3}, "3"},
		{[]uint64{3, 4, 5, 9}, "3-5, 9"},
		{[]uint64{1, 3, 4}, "1, 3-4"},
	} {
		if got := formatNonces(tc.in); got != tc.want {
			t.Errorf("formatNonces(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// BenchmarkHealAfterRollback measures how long the outbox takes to bring back what a
// 100-block rollback took from the chain: 500 recorded mints (5 a block), the node's pool
// dropped, then Heal and a block at a time until the chain holds every record again
// (make bench; the simulated chain mines a block on demand, so this is the outbox's own
// cost: reading the records, broadcasting, checking).
func BenchmarkHealAfterRollback(b *testing.B) {
	const blocks, perBlock = 100, 5
	var total time.Duration
	for range b.N {
		b.StopTimer()
		hs := newHealSetup(b, nil)
		c, w, s, ob, start := hs.c, hs.w, hs.s, hs.ob, hs.start
		for i := range blocks {
			mintFinal(b, c, ob, s, w, i*perBlock, perBlock, 1)
		}
		rollback(b, c, start)
		b.StartTimer()
		t0 := time.Now()
		h := healUntilInSync(b, c, ob)
		took := time.Since(t0)
		b.StopTimer()
		if h.ChainNonce != blocks*perBlock || c.Balance(c.Token, w) != blocks*perBlock {
			b.Fatalf("healed to nonce %d, balance %d", h.ChainNonce, c.Balance(c.Token, w))
		}
		total += took
		b.StartTimer()
	}
	mean := total.Seconds() / float64(b.N)
	b.ReportMetric(mean, "s/heal")
	b.ReportMetric(blocks*perBlock/mean, "tx/s")
}

// A batch member order keeps the batch's transaction without its signed bytes; whichever
// record is read first, the bytes healing broadcasts again are the batch's.
func TestAMemberCopyWithoutItsSignedBytesGivesWayToTheBatchRecord(t *testing.T) {
	att := investv1.ChainTransactionAttempt{Hash: "0x" + strings.Repeat("ab", 32), Raw: "0x02f8"}
	stripped := att
	stripped.Raw = ""
	member := Record{Owner: "Order demo/b1", Tx: &investv1.ChainTransaction{Nonce: 7, Attempts: []investv1.ChainTransactionAttempt{stripped}}}
	batch := Record{Owner: "DeliveryBatch demo/batch-1", Tx: &investv1.ChainTransaction{Nonce: 7, Attempts: []investv1.ChainTransactionAttempt{att}}}
	for _, recs := range [][]Record{{member, batch}, {batch, member}} {
		e := byNonce(recs)[7]
		if len(e.attempts) != 1 || e.attempts[0].Raw != att.Raw {
			t.Fatalf("attempts of nonce 7 from %s then %s: %+v, want the batch's with its signed bytes", recs[0].Owner, recs[1].Owner, e.attempts)
		}
	}
}
