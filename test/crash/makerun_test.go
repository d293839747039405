package crash

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/scheme"
	"github.com/fundshare/fundshare-operator/internal/test/gobuild"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
	"github.com/fundshare/fundshare-operator/internal/test/syncbuf"
)

// isin is the sample class without a lock-up, so that a sell can follow its buy at once
// (minimum investment 100,000 EUR).
const isin = "LU000FSHI012"

// ---- the devrun process ----

type run struct {
	t         *testing.T
	bin       string
	local     string
	rest      string
	chainPort int
	// args are devrun flags besides the ports, the folder and the settlement delay.
	args []string
	cmd  *exec.Cmd
	out  syncbuf.Buffer
}

// startRun starts devrun as `make run RUN_ARGS=args` runs it, on free loopback ports and a
// folder of its own, and stops it (Ctrl-C) when the test ends.
func startRun(t *testing.T, args ...string) *run {
	r := &run{t: t, bin: devrunBinary(t), local: filepath.Join(t.TempDir(), "local"), rest: loopback.FreeAddr(t), chainPort: loopback.FreePort(t), args: args}
	started := time.Now()
	r.start()
	t.Cleanup(r.stop)
	t.Logf("make run ready in %s", time.Since(started).Round(time.Millisecond))
	return r
}

// start starts devrun in a process group of its own and waits until it says it runs.
func (r *run) start() {
	t := r.t
	t.Helper()
	cmd := exec.Command(r.bin, append([]string{"--local-dir", r.local, "--rest-bind-address", r.rest,
		"--chain-rpc-port", strconv.Itoa(r.chainPort), "--sandbox-settlement-delay", "300ms", "--zap-log-level", "error"}, r.args...)...)
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
	// wallet is the primary wallet's address, walletID its id, key its private key (the
	// test's: it can sign as the holder).
	wallet   common.Address
	walletID string
	key      *ecdsa.PrivateKey
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
	w := a.must(http.MethodPost, "/v1/accounts/"+id+"/wallets", map[string]any{"chain": "polygon", "wallet_address": addr.Hex(), "is_primary": true}, http.StatusCreated)
	a.must(http.MethodPost, "/v1/accounts/"+id+"/payment-method-details", map[string]any{"type": "sepa", "iban": "DE89370400440532013000",
		"account_holder_name": "Erika Mustermann", "is_primary": true}, http.StatusCreated)
	return &account{name: ext, id: id, wallet: addr, walletID: w["id"].(string), key: key}
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

// ---- the books ----

func orders(t *testing.T, c client.Client) []investv1.Order {
	var l investv1.OrderList
	if err := c.List(context.Background(), &l, client.InNamespace(devdata.DemoNamespace)); err != nil {
		t.Fatal(err)
	}
	return l.Items
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

func TestMain(m *testing.M) {
	code := m.Run()
	gobuild.Cleanup()
	os.Exit(code)
}

func devrunBinary(t *testing.T) string {
	t.Helper()
	return gobuild.Binary(t, "./cmd/devrun")
}
