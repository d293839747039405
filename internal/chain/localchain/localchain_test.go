package localchain

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
)

var samples = []ShareClass{
	{ISIN: "LU000FSHA019", Name: "Class A EUR Acc"},
	{ISIN: "IE000FSHB028", Name: "Class B EUR Dist"},
}

func start(t *testing.T, dir string, port int) *Chain {
	t.Helper()
	c, err := Start(context.Background(), Config{Dir: dir, Port: port, BlockInterval: 100 * time.Millisecond, ShareClasses: samples})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// rpc sends one JSON-RPC request over plain HTTP, as curl would, and returns its result.
func rpc(t *testing.T, url, method string, params ...any) json.RawMessage {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if out.Error != nil {
		t.Fatalf("%s: %s", method, out.Error.Message)
	}
	return out.Result
}

func rpcString(t *testing.T, url, method string, params ...any) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(rpc(t, url, method, params...), &s); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return s
}

func hexInt(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(strings.TrimPrefix(s, "0x"), 16)
	if !ok {
		t.Fatalf("not a hex number: %q", s)
	}
	return n
}

// balanceOfCall is the eth_call of balanceOf(wallet) written by hand: the selector 0x70a08231
// and the address left-padded to 32 bytes.
func balanceOfCall(token, wallet common.Address) map[string]string {
	return map[string]string{
		"to":   token.Hex(),
		"data": "0x70a08231" + strings.Repeat("0", 24) + strings.ToLower(wallet.Hex()[2:]),
	}
}

func TestLocalChainServesJSONRPCWithWhatChainJSONSays(t *testing.T) {
	dir := t.TempDir()
	port := loopback.FreePort(t)
	c := start(t, dir, port)
	path := filepath.Join(dir, "chain.json")
	if err := c.WriteInfo(path); err != nil {
		t.Fatal(err)
	}
	info, err := ReadInfo(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("http://127.0.0.1:%d", port); info.RPCURL != want {
		t.Fatalf("rpc_url %q, want %q", info.RPCURL, want)
	}
	raw, _ := os.ReadFile(path)
	for _, key := range []string{`"rpc_url"`, `"chain_id": 1337`, `"registry"`, `"tokens"`, `"LU000FSHA019"`, `"IE000FSHB028"`, `"cash_token"`, `"settlement"`} {
		if !strings.Contains(string(raw), key) {
			t.Fatalf("chain.json lacks %s:\n%s", key, raw)
		}
	}
	if strings.Contains(string(raw), c.OperatorKeyHex()) {
		t.Fatal("chain.json contains the operator key")
	}

	if got := hexInt(t, rpcString(t, info.RPCURL, "eth_chainId")); got.Uint64() != info.ChainID || info.ChainID != 1337 {
		t.Fatalf("eth_chainId %s, chain.json %d, want 1337", got, info.ChainID)
	}
	for what, addr := range map[string]common.Address{"registry": info.Registry, "LU000FSHA019": info.Tokens["LU000FSHA019"], "IE000FSHB028": info.Tokens["IE000FSHB028"],
		"cash_token": info.CashToken, "settlement": info.Settlement} {
		if code := rpcString(t, info.RPCURL, "eth_getCode", addr.Hex(), "latest"); len(code) <= 2 {
			t.Fatalf("no contract at %s's address %s", what, addr.Hex())
		}
	}
	// The symbol of each token is its ISIN, and the operator holds AGENT_ROLE on it.
	tok := contracts.NewShareToken()
	for isin, addr := range info.Tokens {
		out := rpcString(t, info.RPCURL, "eth_call", map[string]string{"to": addr.Hex(), "data": hexutil(tok.PackSymbol())}, "latest")
		sym, err := tok.UnpackSymbol(common.FromHex(out))
		if err != nil || sym != isin {
			t.Fatalf("symbol of %s: %q, %v", isin, sym, err)
		}
		out = rpcString(t, info.RPCURL, "eth_call", map[string]string{"to": addr.Hex(), "data": hexutil(tok.PackHasRole(crypto.Keccak256Hash([]byte("AGENT_ROLE")), info.Operator))}, "latest")
		if ok, err := tok.UnpackHasRole(common.FromHex(out)); err != nil || !ok {
			t.Fatalf("operator holds no AGENT_ROLE on %s: %v", isin, err)
		}
	}
	wantSettlementAgent(t, info)
	cash := contracts.NewCashToken()
	out := rpcString(t, info.RPCURL, "eth_call", map[string]string{"to": info.CashToken.Hex(), "data": hexutil(cash.PackDecimals())}, "latest")
	if dec, err := cash.UnpackDecimals(common.FromHex(out)); err != nil || dec != 4 {
		t.Fatalf("the cash token's decimals %d, %v; want 4 (money units)", dec, err)
	}
}

// wantSettlementAgent fails unless the delivery-versus-payment contract is an agent of
// every token, and the operator is its agent.
func wantSettlementAgent(t *testing.T, info Info) {
	t.Helper()
	role := crypto.Keccak256Hash([]byte("AGENT_ROLE"))
	tok := contracts.NewShareToken()
	for isin, addr := range info.Tokens {
		out := rpcString(t, info.RPCURL, "eth_call", map[string]string{"to": addr.Hex(), "data": hexutil(tok.PackHasRole(role, info.Settlement))}, "latest")
		if ok, err := tok.UnpackHasRole(common.FromHex(out)); err != nil || !ok {
			t.Fatalf("the settlement contract holds no AGENT_ROLE on the token of %s: %v", isin, err)
		}
	}
	dvp := contracts.NewDeliveryVersusPayment()
	out := rpcString(t, info.RPCURL, "eth_call", map[string]string{"to": info.Settlement.Hex(), "data": hexutil(dvp.PackHasRole(role, info.Operator))}, "latest")
	if ok, err := dvp.UnpackHasRole(common.FromHex(out)); err != nil || !ok {
		t.Fatalf("the operator is not the settlement contract's agent: %v", err)
	}
}

func TestLocalChainMinesContinuously(t *testing.T) {
	c := start(t, t.TempDir(), loopback.FreePort(t))
	first := hexInt(t, rpcString(t, c.RPCURL, "eth_blockNumber"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := hexInt(t, rpcString(t, c.RPCURL, "eth_blockNumber"))
		if n.Cmp(new(big.Int).Add(first, big.NewInt(2))) >= 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("block number stays at %s (from %s): the chain does not mine", n, first)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// deliver registers a new wallet and mints units to it on the ISIN's token, as the operator,
// over JSON-RPC; it returns the wallet and the mint's receipt.
func deliver(t *testing.T, c *Chain, isin string, units int64) (common.Address, *types.Receipt) {
	t.Helper()
	ctx := context.Background()
	client, err := ethclient.Dial(c.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	operator, err := chain.NewKeySigner(c.OperatorKeyHex())
	if err != nil || operator.Address() != c.Operator {
		t.Fatalf("operator key: %v, address %s want %s", err, operator.Address().Hex(), c.Operator.Hex())
	}
	chainID := new(big.Int).SetUint64(c.ChainID)
	wallet := crypto.PubkeyToAddress(mustKey(t).PublicKey)
	reg, tok := contracts.NewIdentityRegistry(), contracts.NewShareToken()
	send := func(to *bind.BoundContract, data []byte) *types.Receipt {
		t.Helper()
		tx, err := bind.Transact(to, chain.TransactOpts(ctx, operator, chainID), data)
		if err != nil {
			t.Fatalf("send: %v", chain.DecodeError(err))
		}
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		r, err := bind.WaitMined(wctx, client, tx.Hash())
		if err != nil {
			t.Fatalf("wait mined: %v", err)
		}
		return r
	}
	send(reg.Instance(client, c.Registry), reg.PackRegisterWallet(wallet))
	return wallet, send(tok.Instance(client, c.Tokens[isin]), tok.PackMint(wallet, big.NewInt(units)))
}

// A delivery the operator's key makes over JSON-RPC is visible to any tool: the receipt
// succeeds and balanceOf shows the units.
func TestLocalChainDeliveryVerifiableWithPlainJSONRPC(t *testing.T) {
	c := start(t, t.TempDir(), loopback.FreePort(t))
	token := c.Tokens["LU000FSHA019"]
	wallet, mint := deliver(t, c, "LU000FSHA019", 7)

	var receipt struct {
		Status string         `json:"status"`
		To     common.Address `json:"to"`
	}
	if err := json.Unmarshal(rpc(t, c.RPCURL, "eth_getTransactionReceipt", mint.TxHash.Hex()), &receipt); err != nil {
		t.Fatal(err)
	}
	if receipt.Status != "0x1" || receipt.To != token {
		t.Fatalf("receipt status %s to %s, want 0x1 to %s", receipt.Status, receipt.To.Hex(), token.Hex())
	}
	if got := hexInt(t, rpcString(t, c.RPCURL, "eth_call", balanceOfCall(token, wallet), "latest")); got.Int64() != 7 {
		t.Fatalf("balanceOf %s, want 7", got)
	}
	if got := hexInt(t, rpcString(t, c.RPCURL, "eth_call", balanceOfCall(c.Tokens["IE000FSHB028"], wallet), "latest")); got.Sign() != 0 {
		t.Fatalf("balanceOf on the other token %s, want 0", got)
	}
}

// The chain is kept on disk: a restart continues it (same contracts, balances, receipts),
// and a share class added meanwhile gets its token.
func TestLocalChainRestartContinuesTheChain(t *testing.T) {
	dir := t.TempDir()
	port := loopback.FreePort(t)
	c := start(t, dir, port)
	first := c.Info
	wallet, mint := deliver(t, c, "LU000FSHA019", 7)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// One share class more, listed first: the others' tokens keep their addresses.
	more := append([]ShareClass{{ISIN: "DE000FSHC037", Name: "Class C"}}, samples...)
	c2, err := Start(context.Background(), Config{Dir: dir, Port: port, BlockInterval: 100 * time.Millisecond, ShareClasses: more})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c2.Close() }()
	if c2.Operator != first.Operator || c2.Admin != first.Admin || c2.Registry != first.Registry ||
		c2.CashToken != first.CashToken || c2.Settlement != first.Settlement {
		t.Fatalf("restart changed keys or registry: %+v then %+v", first, c2.Info)
	}
	for _, sc := range samples {
		if c2.Tokens[sc.ISIN] != first.Tokens[sc.ISIN] {
			t.Fatalf("token of %s moved from %s to %s", sc.ISIN, first.Tokens[sc.ISIN].Hex(), c2.Tokens[sc.ISIN].Hex())
		}
	}
	if code := rpcString(t, c2.RPCURL, "eth_getCode", c2.Tokens["DE000FSHC037"].Hex(), "latest"); len(code) <= 2 {
		t.Fatal("no token for the share class added before the restart")
	}
	wantSettlementAgent(t, c2.Info) // the token added at the restart too
	if got := hexInt(t, rpcString(t, c2.RPCURL, "eth_call", balanceOfCall(c2.Tokens["LU000FSHA019"], wallet), "latest")); got.Int64() != 7 {
		t.Fatalf("balanceOf after restart %s, want 7", got)
	}
	var receipt struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(rpc(t, c2.RPCURL, "eth_getTransactionReceipt", mint.TxHash.Hex()), &receipt); err != nil || receipt.Status != "0x1" {
		t.Fatalf("receipt of the mint after restart: %v %+v", err, receipt)
	}
	// And the chain goes on: another delivery with the operator's next nonce.
	deliver(t, c2, "DE000FSHC037", 1)
	fi, err := os.Stat(filepath.Join(dir, operatorKeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("operator key file: %v, mode %v, want 0600", err, fi.Mode())
	}
}

func TestLocalChainRefusesATakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	_, err = Start(context.Background(), Config{Dir: t.TempDir(), Port: ln.Addr().(*net.TCPAddr).Port, BlockInterval: time.Second})
	if err == nil || !strings.Contains(err.Error(), "is taken") {
		t.Fatalf("error %v, want the port is taken", err)
	}
}

func TestLocalChainRefusesACorruptKeyFileWithoutShowingIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, operatorKeyFile), []byte("secretgarbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), Config{Dir: dir, Port: loopback.FreePort(t), BlockInterval: time.Second})
	if err == nil || strings.Contains(err.Error(), "secretgarbage") {
		t.Fatalf("error %v, want a refusal that does not repeat the file", err)
	}
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func hexutil(b []byte) string { return "0x" + common.Bytes2Hex(b) }

// The admin funds every share class's deployer in one block: its transfers are numbered
// one after the other, never two alike (the node's pending nonce lags a sent transfer).
func TestLocalChainFundsManyDeployersInOneBlockWithoutReusingANonce(t *testing.T) {
	classes := make([]ShareClass, 24)
	for i := range classes {
		classes[i] = ShareClass{ISIN: fmt.Sprintf("LU%09dX", i), Name: fmt.Sprintf("Class %d", i)}
	}
	c, err := Start(context.Background(), Config{Dir: t.TempDir(), Port: loopback.FreePort(t), BlockInterval: time.Hour, ShareClasses: classes})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	for _, sc := range classes {
		code, err := c.Client().CodeAt(context.Background(), c.Tokens[sc.ISIN], nil)
		if err != nil || len(code) == 0 {
			t.Fatalf("no token of %s at %s (%v)", sc.ISIN, c.Tokens[sc.ISIN].Hex(), err)
		}
	}
}

// Close stops cleanly while a client holds a connection on which it sent nothing yet (Go's
// HTTP server counts it busy for 5 s): `make run` stopped with "stop the local chain:
// context deadline exceeded" after a Ctrl-C.
func TestLocalChainClosesWithoutErrorWhileAConnectionSentNothing(t *testing.T) {
	c, err := Start(context.Background(), Config{Dir: t.TempDir(), Port: loopback.FreePort(t), BlockInterval: 100 * time.Millisecond, ShareClasses: samples})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(c.RPCURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	rpcString(t, c.RPCURL, "eth_blockNumber") // the connection above is accepted by now
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}
