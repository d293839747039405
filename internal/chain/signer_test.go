package chain

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// A fixed key (the well-known first Hardhat/Anvil development key; never use it on a real chain)
// so the expected address is known independently of this package.
const (
	testKeyHex  = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	testKeyAddr = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
)

func TestKeySignerLoadsHexKeyAsASecretHoldsIt(t *testing.T) {
	for name, in := range map[string]string{
		"bare":                  testKeyHex,
		"0x-prefixed":           "0x" + testKeyHex,
		"0X-prefixed uppercase": "0X" + strings.ToUpper(testKeyHex),
		"trailing newline":      testKeyHex + "\n",
		"surrounding spaces":    "  0x" + testKeyHex + " \r\n",
	} {
		t.Run(name, func(t *testing.T) {
			s, err := NewKeySigner(in)
			if err != nil {
				t.Fatalf("NewKeySigner: %v", err)
			}
			if got := s.Address().Hex(); got != testKeyAddr {
				t.Fatalf("address %s, want %s", got, testKeyAddr)
			}
		})
	}
}

func TestKeySignerRejectsMalformedKeysWithoutEchoingThem(t *testing.T) {
	for name, in := range map[string]string{
		"empty":               "",
		"short":               testKeyHex[:62],
		"long":                testKeyHex + "00",
		"not hex":             "zz" + testKeyHex[2:],
		"zero key":            strings.Repeat("0", 64),
		"above curve order n": strings.Repeat("f", 64),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewKeySigner(in)
			if err == nil {
				t.Fatal("accepted")
			}
			// No run of 8 or more characters of the input shows in the message.
			msg := err.Error()
			for i := 0; i+8 <= len(in); i++ {
				if strings.Contains(msg, in[i:i+8]) {
					t.Fatalf("error %q repeats part of the key", msg)
				}
			}
		})
	}
}

func TestKeySignerNeverPrintsTheKey(t *testing.T) {
	s, err := NewKeySigner(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	jv, err := json.Marshal(struct{ S KeySigner }{*s})
	if err != nil {
		t.Fatal(err)
	}
	d := new(big.Int).SetBytes(crypto.FromECDSA(s.key)).String() // the key as a decimal, as %v of a big.Int would print it
	forms := []string{
		fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s", s, s, s, s),
		fmt.Sprintf("%v %+v %#v %s", *s, *s, *s, *s),
		fmt.Sprintf("%+v", struct{ S *KeySigner }{s}), fmt.Sprintf("%#v", struct{ S KeySigner }{*s}),
		fmt.Sprint(s.MarshalLog()), string(j), string(jv),
	}
	for _, f := range forms {
		if strings.Contains(strings.ToLower(f), testKeyHex[:16]) || strings.Contains(f, d[:16]) {
			t.Fatalf("key shown in %q", f)
		}
		if !strings.Contains(f, testKeyAddr) {
			t.Fatalf("address missing from %q", f)
		}
	}
}

func TestKeySignerSignsForTheChainAskedAndTheSenderIsItsAddress(t *testing.T) {
	s, err := NewKeySigner(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	chainID := big.NewInt(int64(AmoyChainID))
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	for name, tx := range map[string]*types.Transaction{
		"EIP-1559": types.NewTx(&types.DynamicFeeTx{ChainID: chainID, Nonce: 7, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2), Gas: 21000, To: &to}),
		"legacy":   types.NewTx(&types.LegacyTx{Nonce: 7, GasPrice: big.NewInt(1), Gas: 21000, To: &to}),
	} {
		t.Run(name, func(t *testing.T) {
			signed, err := s.SignTx(context.Background(), tx, chainID)
			if err != nil {
				t.Fatal(err)
			}
			if signed.ChainId().Cmp(chainID) != 0 {
				t.Fatalf("signed for chain %s, want %s", signed.ChainId(), chainID)
			}
			from, err := types.Sender(types.LatestSignerForChainID(chainID), signed)
			if err != nil {
				t.Fatal(err)
			}
			if from != s.Address() {
				t.Fatalf("sender %s, want %s", from.Hex(), s.Address().Hex())
			}
		})
	}
}

func TestKeySignerRefusesATransactionBuiltForAnotherChain(t *testing.T) {
	s, err := NewKeySigner(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	to := common.Address{1}
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(int64(AmoyChainID)), Gas: 21000, To: &to, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1)})
	if _, err := s.SignTx(context.Background(), tx, big.NewInt(int64(PolygonPoSChainID))); err == nil {
		t.Fatal("signed an Amoy transaction for Polygon")
	}
	if _, err := s.SignTx(context.Background(), tx, nil); err == nil {
		t.Fatal("signed without a chain id")
	}
}

func TestKeySignerHonoursACancelledContext(t *testing.T) {
	s, err := NewKeySigner(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	to := common.Address{1}
	tx := types.NewTx(&types.LegacyTx{Gas: 21000, To: &to, GasPrice: big.NewInt(1)})
	if _, err := s.SignTx(ctx, tx, big.NewInt(1337)); err == nil {
		t.Fatal("signed with a cancelled context")
	}
}

func TestTransactOptsSignOnlyForTheSignersAddress(t *testing.T) {
	s, err := NewKeySigner(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	opts := TransactOpts(context.Background(), s, big.NewInt(1337))
	if opts.From != s.Address() {
		t.Fatalf("From %s, want %s", opts.From.Hex(), s.Address().Hex())
	}
	to := common.Address{1}
	tx := types.NewTx(&types.LegacyTx{Gas: 21000, To: &to, GasPrice: big.NewInt(1)})
	if _, err := opts.Signer(common.Address{2}, tx); err == nil {
		t.Fatal("signed for another address")
	}
	signed, err := opts.Signer(s.Address(), tx)
	if err != nil {
		t.Fatal(err)
	}
	if from, _ := types.Sender(types.LatestSignerForChainID(big.NewInt(1337)), signed); from != s.Address() {
		t.Fatalf("sender %s", from.Hex())
	}
}

// newTestSigner makes a fresh in-memory signer the way production loads one: from hex.
func newTestSigner(t *testing.T) *KeySigner {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewKeySigner(hex.EncodeToString(crypto.FromECDSA(k)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
