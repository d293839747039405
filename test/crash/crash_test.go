package crash

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/scheme"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
	"github.com/fundshare/fundshare-operator/internal/test/syncbuf"
)

// isin is the sample class without a lock-up, so that a sell can follow its buy at once
// (minimum investment 100,000 EUR).
const isin = "LU000FSHI012"

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
// status = its portfolio (REST) = its completed BUYs − completed SELLs.
func TestMakeRunHealsAfterThreeKill9OfTheWholeProcessGroup(t *testing.T) {
	r := &run{t: t, bin: devrunBinary(t), local: filepath.Join(t.TempDir(), "local"), rest: loopback.FreeAddr(t), chainPort: loopback.FreePort(t)}
	r.start()
	t.Cleanup(r.stop)
	api := r.api()
	accts := []*account{api.newAccount("crash-a"), api.newAccount("crash-b")}

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
}

// ---- the devrun process ----

type run struct {
	t         *testing.T
	bin       string
	local     string
	rest      string
	chainPort int
	cmd       *exec.Cmd
	out       syncbuf.Buffer
}

// start starts devrun in a process group of its own and waits until it says it runs.
func (r *run) start() {
	t := r.t
	t.Helper()
	cmd := exec.Command(r.bin, "--local-dir", r.local, "--rest-bind-address", r.rest,
		"--chain-rpc-port", strconv.Itoa(r.chainPort), "--sandbox-settlement-delay", "300ms", "--zap-log-level", "error")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &r.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.cmd = cmd
	ready, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(stdout)
		seen := false
		for sc.Scan() {
			_, _ = r.out.Write([]byte(sc.Text() + "\n"))
			if !seen && strings.Contains(sc.Text(), "fundshare-operator is running.") {
				seen = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-ended:
		select {
		case <-ready:
		default:
			t.Fatalf("devrun exited before it was ready: %v\n%s", cmd.Wait(), r.out.String())
		}
	case <-time.After(4 * time.Minute):
		t.Fatalf("devrun not ready within 4 minutes\n%s", r.out.String())
	}
}

// kill9 sends SIGKILL to devrun's whole process group and reaps it.
func (r *run) kill9() {
	if err := syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		r.t.Fatal(err)
	}
	_ = r.cmd.Wait()
}

// stop ends devrun with Ctrl-C (SIGINT), which stops the control plane too.
func (r *run) stop() {
	if r.cmd == nil || r.cmd.ProcessState != nil {
		return
	}
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() { _ = r.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

func (r *run) kubeClient() client.Client {
	cfg, err := clientcmd.BuildConfigFromFlags("", filepath.Join(r.local, "kubeconfig"))
	if err != nil {
		r.t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

func (r *run) tokenAddress(c client.Client) common.Address {
	var sc investv1.ShareClassList
	if err := c.List(context.Background(), &sc); err != nil {
		r.t.Fatal(err)
	}
	for _, s := range sc.Items {
		if string(s.Spec.ISIN) == isin && s.Status.Token != nil && common.IsHexAddress(s.Status.Token.Address) {
			return common.HexToAddress(s.Status.Token.Address)
		}
	}
	r.t.Fatalf("share class %s has no token address", isin)
	return common.Address{}
}

// balanceOf asks the local chain over JSON-RPC, as a curl user would (eth_call at latest).
func (r *run) balanceOf(token, holder common.Address) int64 {
	data := "0x70a08231" + strings.Repeat("0", 24) + hex.EncodeToString(holder.Bytes())
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "eth_call",
		"params": []any{map[string]string{"to": token.Hex(), "data": data}, "latest"}})
	resp, err := http.Post("http://127.0.0.1:"+strconv.Itoa(r.chainPort), "application/json", bytes.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result string `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		r.t.Fatal(err)
	}
	if out.Error != nil {
		r.t.Fatalf("eth_call balanceOf: %s", out.Error.Message)
	}
	v, ok := new(big.Int).SetString(strings.TrimPrefix(out.Result, "0x"), 16)
	if !ok || !v.IsInt64() {
		r.t.Fatalf("eth_call balanceOf: %q", out.Result)
	}
	return v.Int64()
}

// ---- REST ----

type restAPI struct {
	t     *testing.T
	base  string
	token string
}

func (r *run) api() *restAPI {
	var creds devdata.Credentials
	data, err := os.ReadFile(filepath.Join(r.local, "demo-client.json"))
	if err != nil {
		r.t.Fatal(err)
	}
	if err := json.Unmarshal(data, &creds); err != nil {
		r.t.Fatal(err)
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {creds.ClientID}, "client_secret": {creds.ClientSecret}, "audience": {creds.Audience}, "scope": {"openid offline"}}
	resp, err := http.PostForm("http://"+r.rest+"/oauth2/token", form)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		r.t.Fatalf("token: %d %v", resp.StatusCode, err)
	}
	return &restAPI{t: r.t, base: "http://" + r.rest, token: tok.AccessToken}
}

// do sends a request; err is a transport error (the process is down), not a status.
func (a *restAPI) do(method, path string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, a.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Content-Type", "application/json")
	hc := &http.Client{Timeout: 20 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out, nil
}

func (a *restAPI) must(method, path string, body any, want int) map[string]any {
	a.t.Helper()
	code, out, err := a.do(method, path, body)
	if err != nil || code != want {
		a.t.Fatalf("%s %s: %d %v %v (want %d)", method, path, code, out, err, want)
	}
	return out
}

type account struct {
	name, id string
	wallet   common.Address
}

// newAccount makes an account with a primary wallet (a fresh key's address) and a primary
// payment method.
func (a *restAPI) newAccount(ext string) *account {
	out := a.must(http.MethodPost, "/v1/accounts", map[string]any{"type": "individual", "external_id": ext,
		"first_name": "Erika", "last_name": "Mustermann", "birthdate": "1964-08-12", "place_of_birth": "Berlin",
		"country": "DE", "city": "Berlin", "line1": "Unter den Linden 1", "postal_code": "10117"}, http.StatusCreated)
	id := out["id"].(string)
	key, err := crypto.GenerateKey()
	if err != nil {
		a.t.Fatal(err)
	}
	addr := crypto.PubkeyToAddress(key.PublicKey)
	a.must(http.MethodPost, "/v1/accounts/"+id+"/wallets", map[string]any{"chain": "polygon", "wallet_address": addr.Hex(), "is_primary": true}, http.StatusCreated)
	a.must(http.MethodPost, "/v1/accounts/"+id+"/payment-method-details", map[string]any{"type": "sepa", "iban": "DE89370400440532013000",
		"account_holder_name": "Erika Mustermann", "is_primary": true}, http.StatusCreated)
	return &account{name: ext, id: id, wallet: addr}
}

func (a *restAPI) portfolioUnits(accountID string) int64 {
	out := a.must(http.MethodGet, "/v1/accounts/"+accountID+"/portfolio", nil, http.StatusOK)
	positions, _ := out["positions"].([]any)
	for _, p := range positions {
		m := p.(map[string]any)
		if m["isin"] == isin {
			return int64(m["units"].(float64))
		}
	}
	return 0
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

// ---- the books ----

func orders(t *testing.T, c client.Client) []investv1.Order {
	var l investv1.OrderList
	if err := c.List(context.Background(), &l, client.InNamespace(devdata.DemoNamespace)); err != nil {
		t.Fatal(err)
	}
	return l.Items
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

func statusUnits(t *testing.T, c client.Client, accountID string) int64 {
	var a investv1.Account
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: accountID}, &a); err != nil {
		t.Fatal(err)
	}
	for _, h := range a.Status.Holdings {
		if string(h.ISIN) == isin {
			return h.Units
		}
	}
	return 0
}

// ---- the binary ----

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if built != "" {
		_ = os.RemoveAll(filepath.Dir(built))
	}
	os.Exit(code)
}

func devrunBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "crash-devrun-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "devrun")
		cmd := exec.Command("go", "build", "-o", built, "./cmd/devrun")
		cmd.Dir = controlplane.Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/devrun: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}
