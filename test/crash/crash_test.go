package crash

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// kills is how many times the whole process group of `make run` is killed.
const kills = 3

// TestMakeRunHealsAfterThreeKill9OfTheWholeProcessGroup: `make run` (the devrun binary, in
// a process group of its own as a terminal would start it) runs a mixed workload of BUYs,
// SELLs and cancellations from two accounts through REST; three times, at a random moment,
// the whole process group gets SIGKILL (the manager, the REST facade and the local chain
// die mid-flight; etcd and kube-apiserver, in groups of their own, are stopped by the next
// start) and it is started again on the same folder. After the last start, by itself:
// within a minute every order is terminal or moving, then every order is terminal, and
// for every account the units on chain (balanceOf over its wallets) = its Account
// status = its portfolio (REST) = its completed BUYs − completed SELLs; and a webhook
// endpoint made before the workload got every state every order entered, each event under
// one webhook-id.
func TestMakeRunHealsAfterThreeKill9OfTheWholeProcessGroup(t *testing.T) {
	r := startRun(t)
	api := r.api()
	accts := []*account{api.newAccount("crash-a"), api.newAccount("crash-b")}
	// An integrator's webhook endpoint receives every event throughout.
	hooks := newHookLog(t)
	api.subscribe(t, r.kubeClient(), hooks)

	ctx, cancel := context.WithCancel(context.Background())
	w := &workload{api: api, accounts: accts}
	done := make(chan struct{})
	go func() { defer close(done); w.run(ctx) }()
	for i := range kills {
		// A random moment: while orders are placed, paid, minted, burned and cancelled.
		time.Sleep(time.Duration(2000+rand.IntN(6000)) * time.Millisecond)
		t.Logf("kill -9 %d of %d of the process group after %d orders placed", i+1, kills, w.placed())
		r.kill9()
		r.start()
		w.setAPI(r.api())
	}
	time.Sleep(3 * time.Second)
	cancel()
	<-done
	t.Logf("workload: %d orders placed, %d cancellations asked, %d requests failed while the process was down", w.placed(), w.cancels, w.failed)
	if w.placed() < 10 {
		t.Fatalf("only %d orders placed: the workload did not run; last BUY refusal %s, last error %v", w.placed(), w.lastRefusal, w.lastError)
	}

	c := r.kubeClient()
	// Within a minute every order is terminal or moving (its state changes).
	first := orderStates(t, c)
	moved := map[string]bool{}
	for end := time.Now().Add(time.Minute); ; time.Sleep(2 * time.Second) {
		now := orderStates(t, c)
		pending := 0
		for name, s := range now {
			if s.Terminal() || s != first[name] {
				moved[name] = true
			}
			if !moved[name] {
				pending++
			}
		}
		if pending == 0 {
			break
		}
		if time.Now().After(end) {
			var still []string
			for name, s := range now {
				if !moved[name] {
					still = append(still, fmt.Sprintf("%s %s", name, s))
				}
			}
			t.Errorf("a minute after the last restart these orders neither ended nor moved: %v", still)
			break
		}
	}
	// Then every order ends.
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var live []string
		for name, s := range orderStates(t, c) {
			if !s.Terminal() {
				live = append(live, fmt.Sprintf("%s %s", name, s))
			}
		}
		if len(live) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("orders not terminal four minutes after the last restart: %v\n%s", live, r.out.String())
		}
		time.Sleep(2 * time.Second)
	}

	// The books equal the chain, for every account.
	token := r.tokenAddress(c)
	api = r.api()
	for _, a := range accts {
		var last string
		ok := false
		for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(2 * time.Second) {
			orders := completedUnits(t, c, a.id)
			chain := r.balanceOf(token, a.wallet)
			status := statusUnits(t, c, a.id)
			portfolio := api.portfolioUnits(a.id)
			last = fmt.Sprintf("account %s %s: chain %d, Account status %d, portfolio %d, completed BUYs − SELLs %d", a.name, a.id, chain, status, portfolio, orders)
			if chain == status && status == portfolio && portfolio == orders {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("the books and the chain disagree: %s", last)
		} else {
			t.Log(last)
		}
	}
	// And the integrator heard of every state every order entered, each event under one id.
	checkWebhooks(t, c, hooks)
}

// ---- the workload ----

type workload struct {
	mu       sync.Mutex
	api      *restAPI
	accounts []*account
	orders   []string
	cancels  int
	failed   int
	// lastRefusal is the last answer to a BUY other than 201 (a failure's message).
	lastRefusal string
	lastError   error
}

func (w *workload) setAPI(a *restAPI) {
	w.mu.Lock()
	w.api = a
	w.mu.Unlock()
}

func (w *workload) placed() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.orders)
}

// run places BUYs (1,000–1,199 units: the class's minimum investment is 100,000 EUR), SELLs
// (100–499 units; refusals for want of free units are
// expected) and cancels a recent order now and then, until ctx ends. A request that finds
// the process down is counted and the loop goes on.
func (w *workload) run(ctx context.Context) {
	for ctx.Err() == nil {
		w.mu.Lock()
		api := w.api
		w.mu.Unlock()
		acct := w.accounts[rand.IntN(len(w.accounts))]
		var err error
		switch n := rand.IntN(10); {
		case n < 5:
			err = w.place(api, acct, "BUY", 1000+rand.Int64N(200))
		case n < 8:
			err = w.place(api, acct, "SELL", 100+rand.Int64N(400))
		default:
			w.mu.Lock()
			var id string
			if len(w.orders) > 0 {
				id = w.orders[len(w.orders)-1-rand.IntN(min(5, len(w.orders)))]
			}
			w.mu.Unlock()
			if id != "" {
				_, _, err = api.do(http.MethodDelete, "/v1/orders/"+id, nil)
				if err == nil {
					w.mu.Lock()
					w.cancels++
					w.mu.Unlock()
				}
			}
		}
		if err != nil {
			w.mu.Lock()
			w.lastError = err
			w.failed++
			w.mu.Unlock()
			time.Sleep(200 * time.Millisecond)
			continue
		}
		time.Sleep(time.Duration(50+rand.IntN(150)) * time.Millisecond)
	}
}

func (w *workload) place(api *restAPI, acct *account, side string, units int64) error {
	code, out, err := api.do(http.MethodPost, "/v1/orders", map[string]any{"side": side, "market": "PRIMARY", "isin": isin,
		"amount_of_units": units, "currency": "EUR", "account_id": acct.id})
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if code == http.StatusCreated {
		w.orders = append(w.orders, out["id"].(string))
	} else if side == "BUY" {
		w.lastRefusal = fmt.Sprintf("%d %v", code, out)
	}
	return nil
}

func orderStates(t *testing.T, c client.Client) map[string]investv1.OrderState {
	m := map[string]investv1.OrderState{}
	for _, o := range orders(t, c) {
		m[o.Name] = o.Status.State
	}
	return m
}

func completedUnits(t *testing.T, c client.Client, accountID string) int64 {
	var n int64
	for _, o := range orders(t, c) {
		if string(o.Spec.AccountID) != accountID || string(o.Spec.ISIN) != isin || o.Status.State != investv1.StateCompleted {
			continue
		}
		if o.Spec.Side == investv1.SideBuy {
			n += o.Spec.AmountOfUnits
		} else {
			n -= o.Spec.AmountOfUnits
		}
	}
	return n
}
