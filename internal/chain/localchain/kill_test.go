package localchain

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
)

// The child process of TestTheLocalChainKeepsEveryBlockItServedAcrossKill9: the test binary
// run again with these variables set runs a local chain instead of the tests.
const (
	childDirEnv  = "FUNDSHARE_LOCALCHAIN_CHILD_DIR"
	childPortEnv = "FUNDSHARE_LOCALCHAIN_CHILD_PORT"
	// childEarlierEnv set runs a chain as earlier releases kept it (go-ethereum's path scheme).
	childEarlierEnv = "FUNDSHARE_LOCALCHAIN_CHILD_EARLIER"
	childReady      = "localchain child: serving"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		if os.Getenv(childEarlierEnv) != "" {
			os.Exit(runEarlierChild(dir))
		}
		os.Exit(runChild(dir, os.Getenv(childPortEnv)))
	}
	os.Exit(m.Run())
}

// runEarlierChild runs a chain kept as earlier releases kept it (go-ethereum's default path
// state scheme) and seals a block every 10 ms until it is killed or its parent goes.
func runEarlierChild(dir string) int {
	n, err := startNode(filepath.Join(dir, "geth"), nil, rawdb.PathScheme)
	if err != nil {
		fmt.Fprintln(os.Stderr, "start:", err)
		return 1
	}
	for range 3 {
		if err := n.seal(); err != nil {
			fmt.Fprintln(os.Stderr, "seal:", err)
			return 1
		}
	}
	fmt.Println(childReady)
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for {
		if err := n.seal(); err != nil {
			fmt.Fprintln(os.Stderr, "seal:", err)
			return 1
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// runChild runs the chain as `make run` does (with a shorter block interval), says so on
// stdout, and runs until it is killed or its parent goes (its stdin closes).
func runChild(dir, port string) int {
	p, err := strconv.Atoi(port)
	if err != nil {
		fmt.Fprintln(os.Stderr, "port:", err)
		return 2
	}
	c, err := Start(context.Background(), Config{Dir: dir, Port: p, BlockInterval: 100 * time.Millisecond, ShareClasses: samples})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start:", err)
		return 1
	}
	fmt.Println(childReady)
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := c.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "close:", err)
		return 1
	}
	return 0
}

// lockedBuffer collects a child's stderr for the failure message.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// childChain is a local chain running in a child process.
type childChain struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *lockedBuffer
	killed atomic.Bool
	exited chan struct{}
}

// startChild starts the chain on dir and port in a child process and waits until it serves.
func startChild(t *testing.T, dir string, port int, env ...string) *childChain {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir, childPortEnv+"="+strconv.Itoa(port))
	cmd.Env = append(cmd.Env, env...)
	c := &childChain{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if sc.Text() == childReady {
				close(ready)
			}
		}
		_ = cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		_ = c.stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-c.exited
		}
	})
	select {
	case <-ready:
		return c
	case <-c.exited:
		t.Fatalf("the chain's child process exited before it served:\n%s", c.stderr.String())
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the chain's child process did not serve within 60 s:\n%s", c.stderr.String())
	}
	return nil
}

// kill sends SIGKILL to the child and waits until it is gone.
func (c *childChain) kill(t *testing.T) {
	t.Helper()
	c.killed.Store(true)
	if err := c.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	<-c.exited
}

// served is what the chain served: the highest head and every receipt.
type served struct {
	head     uint64
	headHash common.Hash
	receipts map[common.Hash]*types.Receipt
}

func (s *served) sawHead(h *types.Header) bool {
	if h.Number.Uint64() <= s.head {
		return false
	}
	s.head, s.headHash = h.Number.Uint64(), h.Hash()
	return true
}

// killPoint decides, after each thing served, whether to kill the child right then.
type killPoint struct {
	name string
	// afterReceipts and afterHeads kill right after the n-th receipt or new head of the round.
	afterReceipts, afterHeads int
	// after kills at a moment of the workload, from another goroutine.
	after time.Duration
}

// workload sends value transfers signed with the operator key and records every head and
// receipt the chain serves, until the child is killed at kp.
func workload(t *testing.T, child *childChain, rpcURL string, operator *chain.KeySigner, s *served, kp killPoint) {
	t.Helper()
	ctx := context.Background()
	client, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if kp.after > 0 {
		timer := time.AfterFunc(kp.after, func() { child.killed.Store(true); _ = child.cmd.Process.Kill() })
		defer timer.Stop()
	}
	// An error once the child is being killed ends the round; any other fails the test.
	failed := func(what string, err error) {
		t.Helper()
		if !child.killed.Load() {
			t.Fatalf("%s: %v\nchild's stderr:\n%s", what, err, child.stderr.String())
		}
	}
	chainID := big.NewInt(1337)
	nonce, err := client.PendingNonceAt(ctx, operator.Address())
	if err != nil {
		failed("nonce", err)
		return
	}
	receipts, heads := 0, 0
	deadline := time.Now().Add(20 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("kill point %s not reached in 20 s (%d receipts, %d heads)", kp.name, receipts, heads)
		}
		// Two transfers in flight at a time, to fresh addresses.
		var pending []common.Hash
		for range 2 {
			to := crypto.PubkeyToAddress(mustKey(t).PublicKey)
			tx, err := operator.SignTx(ctx, types.NewTx(&types.DynamicFeeTx{
				ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9),
				Gas: 21_000, To: &to, Value: big.NewInt(1),
			}), chainID)
			if err != nil {
				t.Fatal(err)
			}
			if err := client.SendTransaction(ctx, tx); err != nil {
				failed("send", err)
				return
			}
			nonce++
			pending = append(pending, tx.Hash())
		}
		for len(pending) > 0 {
			h, err := client.HeaderByNumber(ctx, nil)
			if err != nil {
				failed("head", err)
				return
			}
			if s.sawHead(h) {
				heads++
				if heads == kp.afterHeads {
					child.kill(t)
					return
				}
			}
			r, err := client.TransactionReceipt(ctx, pending[0])
			switch {
			case errors.Is(err, ethereum.NotFound):
				time.Sleep(10 * time.Millisecond)
				continue
			case err != nil:
				failed("receipt", err)
				return
			}
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("transfer %s failed", r.TxHash.Hex())
			}
			s.receipts[r.TxHash] = r
			pending = pending[1:]
			receipts++
			if receipts == kp.afterReceipts {
				child.kill(t)
				return
			}
		}
	}
}

// check asserts that the chain serves everything s recorded: a head at least as high, the
// same block at the highest head seen, and every receipt in the same block.
func check(t *testing.T, rpcURL string, s *served, after string) {
	t.Helper()
	ctx := context.Background()
	client, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	head, err := client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if head < s.head {
		t.Fatalf("after %s the chain's head is block %d; it had served block %d", after, head, s.head)
	}
	h, err := client.HeaderByNumber(ctx, new(big.Int).SetUint64(s.head))
	if err != nil {
		t.Fatal(err)
	}
	if h.Hash() != s.headHash {
		t.Fatalf("after %s block %d is %s; it had served %s", after, s.head, h.Hash().Hex(), s.headHash.Hex())
	}
	lost := 0
	for hash, want := range s.receipts {
		r, err := client.TransactionReceipt(ctx, hash)
		switch {
		case errors.Is(err, ethereum.NotFound):
			lost++
			t.Errorf("after %s the receipt of %s (block %d) is gone", after, hash.Hex(), want.BlockNumber)
		case err != nil:
			t.Fatal(err)
		case r.BlockHash != want.BlockHash:
			lost++
			t.Errorf("after %s %s is in block %s (%d); it had been served in %s (%d)", after, hash.Hex(), r.BlockHash.Hex(), r.BlockNumber, want.BlockHash.Hex(), want.BlockNumber)
		}
		if lost >= 5 {
			t.Fatalf("and more: %d receipts seen before", len(s.receipts))
		}
	}
}

// A receipt the local chain served is kept: the chain runs in a child process that is
// SIGKILLed at moments of a workload (right after a receipt was served, right after a new
// head, at random moments) and restarted on the same folder, and every time it comes back
// with at least the head it had served, the same block there, and every receipt in the
// block it had been served in.
func TestTheLocalChainKeepsEveryBlockItServedAcrossKill9(t *testing.T) {
	dir := t.TempDir()
	port := loopback.FreePort(t)
	rpcURL := fmt.Sprintf("http://127.0.0.1:%d", port)
	kills := []killPoint{
		{name: "right after a receipt was served", afterReceipts: 1 + rand.N(6)},
		{name: "at a random moment", after: 50*time.Millisecond + rand.N(1500*time.Millisecond)},
		{name: "right after a new head was served", afterHeads: 1 + rand.N(10)},
		{name: "at another random moment", after: 50*time.Millisecond + rand.N(1500*time.Millisecond)},
	}
	s := &served{receipts: map[common.Hash]*types.Receipt{}}
	child := startChild(t, dir, port)
	keyHex, err := os.ReadFile(filepath.Join(dir, operatorKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	operator, err := chain.NewKeySigner(string(bytes.TrimSpace(keyHex)))
	if err != nil {
		t.Fatal(err)
	}
	for _, kp := range kills {
		workload(t, child, rpcURL, operator, s, kp)
		if !child.killed.Load() {
			t.Fatalf("the workload ended before the kill point %s", kp.name)
		}
		<-child.exited
		t.Logf("killed %s (%+v): head %d, %d receipts served so far", kp.name, kp, s.head, len(s.receipts))
		child = startChild(t, dir, port)
		check(t, rpcURL, s, "kill -9 "+kp.name)
		if t.Failed() {
			return
		}
	}
	if len(s.receipts) == 0 {
		t.Fatal("the workload saw no receipt")
	}
}

// A chain folder of an earlier release (go-ethereum's path state scheme, killed while it
// mined, as `make run` was in issue 21) is refused before anything starts, with a message
// that says what it is and that make clean-local starts afresh; the folder is left as it is.
func TestLocalChainRefusesAChainOfAnEarlierReleaseNamingMakeCleanLocal(t *testing.T) {
	dir := t.TempDir()
	earlier := startChild(t, dir, 0, childEarlierEnv+"=1")
	earlier.kill(t)

	port := loopback.FreePort(t)
	_, err := Start(context.Background(), Config{Dir: dir, Port: port, BlockInterval: time.Second, ShareClasses: samples})
	if err == nil {
		t.Fatal("a chain of an earlier release started")
	}
	for _, want := range []string{"earlier release", "path state scheme", "make clean-local"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %q", err, want)
		}
	}
	// Nothing was started: the port is free again and the folder still holds the old chain.
	ln, lerr := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if lerr != nil {
		t.Fatalf("the refused start keeps its port: %v", lerr)
	}
	_ = ln.Close()
	_, err2 := Start(context.Background(), Config{Dir: dir, Port: port, BlockInterval: time.Second, ShareClasses: samples})
	if err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("second start: %v, want the same refusal", err2)
	}
}
