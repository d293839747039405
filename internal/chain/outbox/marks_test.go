package outbox

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
)

// marks is a durable mark store standing in for the ConfigMap.
type marks struct {
	mu    sync.Mutex
	m     Mark
	found bool
}

func (s *marks) Load(context.Context) (Mark, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m, s.found, nil
}

func (s *marks) Save(_ context.Context, m Mark) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m, s.found = m, true
	return nil
}

func (s *marks) snapshot() *marks {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &marks{m: s.m, found: s.found}
}

func (s *store) snapshot() *store {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := newStore()
	for k, v := range s.recs {
		c.recs[k] = v.DeepCopy()
	}
	return c
}

// sendMined sends n mints through ob, each recorded in s under its own owner, and mines them.
func sendMined(t *testing.T, c *chaintest.Chain, ob *Outbox, s *store, prefix string, n int) {
	t.Helper()
	w := c.NewWallet()
	c.Register(w)
	for i := range n {
		if _, err := ob.Send(c.Ctx, mintCall(c, w, 1), s.record(fmt.Sprintf("%s-%d", prefix, i))); err != nil {
			t.Fatal(err)
		}
	}
	// Every transaction sent is mined before the test reads the chain: one block usually
	// holds them all, but a loaded machine saw one left in the pool for the next block.
	for range 100 {
		c.Commit(1)
		pending, err := c.Client.PendingNonceAt(c.Ctx, c.Agent.Address())
		if err != nil {
			t.Fatal(err)
		}
		mined, err := c.Client.NonceAt(c.Ctx, c.Agent.Address(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if pending == mined {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the transactions sent were never all mined")
}

func heal(t *testing.T, c *chaintest.Chain, ob *Outbox) Health {
	t.Helper()
	h, err := ob.Heal(c.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestAFreshOutboxOverAChainWithHistoryRaisesNoAlarm(t *testing.T) {
	c := chaintest.New(t)
	// The key has a history this cluster never recorded (another cluster, a migration).
	sendMined(t, c, newOutbox(t, c, c.Client, newStore(), nil), newStore(), "elsewhere", 3)

	mk := &marks{}
	ob := newOutbox(t, c, c.Client, newStore(), func(cfg *Config) { cfg.Marks, cfg.ReserveAhead = mk, 1 })
	if h := heal(t, c, ob); h.State != InSync || ob.RecordsBehind() != "" {
		t.Fatalf("health %s (%s), want InSync: a fresh cluster's start is no alarm", h.State, h.Message)
	}
	if mk.m.Reserved != 3 || mk.m.Alarm != "" {
		t.Fatalf("mark %+v, want the chain's nonce 3 reserved and no alarm", mk.m)
	}
}

func TestRetentionRemovingCompletedRecordsRaisesNoAlarm(t *testing.T) {
	c := chaintest.New(t)
	s, mk := newStore(), &marks{}
	mod := func(cfg *Config) { cfg.Marks, cfg.ReserveAhead = mk, 1 }
	ob := newOutbox(t, c, c.Client, s, mod)
	heal(t, c, ob)
	sendMined(t, c, ob, s, "order", 5)

	// Retention archives every completed order: no record is left.
	s.mu.Lock()
	clear(s.recs)
	s.mu.Unlock()
	for range 2 { // the running outbox, then a restarted one
		if h := heal(t, c, ob); h.State != InSync {
			t.Fatalf("health %s (%s), want InSync after retention", h.State, h.Message)
		}
		ob = newOutbox(t, c, c.Client, s, mod)
	}
}

func TestRecordsBehindTheChainAreDetectedAndSigningGoesOn(t *testing.T) {
	c := chaintest.New(t)
	s, mk := newStore(), &marks{}
	ob := newOutbox(t, c, c.Client, s, func(cfg *Config) { cfg.Marks, cfg.ReserveAhead = mk, 1 })
	heal(t, c, ob)
	sendMined(t, c, ob, s, "before", 2)
	snapRecords, snapMarks := s.snapshot(), mk.snapshot() // the etcd snapshot
	sendMined(t, c, ob, s, "after", 3)

	// etcd restored from the snapshot: records and mark rewound together.
	restored := newOutbox(t, c, c.Client, snapRecords, func(cfg *Config) { cfg.Marks, cfg.ReserveAhead = snapMarks, 1 })
	h := heal(t, c, restored)
	if h.State != RecordsBehind {
		t.Fatalf("health %s (%s), want RecordsBehind", h.State, h.Message)
	}
	msg := restored.RecordsBehind()
	if !strings.Contains(msg, "nonce on chain is 5") || !strings.Contains(msg, "3 transaction(s)") {
		t.Fatalf("alarm %q does not name the chain's nonce and the unrecorded transactions", msg)
	}
	if snapMarks.m.Alarm == "" {
		t.Fatal("the alarm is not latched in the mark")
	}
	if v := testutil.ToFloat64(healthGauge.WithLabelValues(c.Agent.Address().Hex(), "RecordsBehind")); v != 1 {
		t.Fatalf("fundshare_chain_outbox_health{state=RecordsBehind} = %v, want 1", v)
	}
	// Signing goes on (owners look effects up first); the alarm stays latched across it and
	// across a restart.
	sendMined(t, c, restored, snapRecords, "later", 1)
	restarted := newOutbox(t, c, c.Client, snapRecords, func(cfg *Config) { cfg.Marks, cfg.ReserveAhead = snapMarks, 1 })
	if h := heal(t, c, restarted); h.State != RecordsBehind {
		t.Fatalf("after a restart: health %s, want the latched RecordsBehind", h.State)
	}

	// A person clears it: no alarm again (the seen nonces count as reserved).
	snapMarks.mu.Lock()
	snapMarks.m.Alarm = ""
	snapMarks.mu.Unlock()
	if h := heal(t, c, restarted); h.State != InSync || restarted.RecordsBehind() != "" {
		t.Fatalf("after the alarm was cleared: health %s (%s), want InSync", h.State, h.Message)
	}
}

func TestTheOutboxReservesANonceBeforeItSignsIt(t *testing.T) {
	c := chaintest.New(t)
	s, mk := newStore(), &marks{}
	ob := newOutbox(t, c, c.Client, s, func(cfg *Config) { cfg.Marks, cfg.ReserveAhead = mk, 4 })
	heal(t, c, ob)
	for i := range 6 {
		sendMined(t, c, ob, s, fmt.Sprintf("o%d", i), 1)
		if n := nonceOf(t, c); n > mk.m.Reserved {
			t.Fatalf("after %d transactions the chain's nonce %d is above the reserved %d", i+1, n, mk.m.Reserved)
		}
	}
	if mk.m.Reserved != 8 {
		t.Fatalf("reserved %d, want 8 (two raises of 4)", mk.m.Reserved)
	}
}

func nonceOf(t *testing.T, c *chaintest.Chain) uint64 {
	t.Helper()
	n, err := c.Client.NonceAt(c.Ctx, c.Agent.Address(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
