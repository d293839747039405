package chain

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestDecodeRevertDataNamesCustomAndSolidityErrors(t *testing.T) {
	wallet := common.HexToAddress("0x00000000000000000000000000000000000000aB")
	str, _ := abi.NewType("string", "", nil)
	u256, _ := abi.NewType("uint256", "", nil)
	errorString, _ := abi.Arguments{{Type: str}}.Pack("nope")
	panicCode, _ := abi.Arguments{{Type: u256}}.Pack(big.NewInt(0x11))
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"custom error", append(common.FromHex("0x"+selectorOf("NotVerified(address)")), common.LeftPadBytes(wallet.Bytes(), 32)...), "NotVerified(" + wallet.Hex() + ")"},
		{"custom error with numbers", append(append(common.FromHex("0x"+selectorOf("BatchLengthMismatch(uint256,uint256)")), common.LeftPadBytes([]byte{2}, 32)...), common.LeftPadBytes([]byte{3}, 32)...), "BatchLengthMismatch(2, 3)"},
		{"revert string", append(common.FromHex("0x08c379a0"), errorString...), `Error("nope")`},
		{"panic", append(common.FromHex("0x4e487b71"), panicCode...), "Panic("},
		{"unknown selector", common.FromHex("0xdeadbeef"), "unknown error 0xdeadbeef"},
		{"no data", nil, "no reason given"},
		{"short data", common.FromHex("0x0102"), "unknown error 0x0102"},
	} {
		got := DecodeRevertData(tc.data).Reason()
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// selectorOf is the hex (without 0x) of an error's 4-byte selector.
func selectorOf(sig string) string {
	return hexutil.Encode(crypto.Keccak256([]byte(sig))[:4])[2:]
}

type rpcDataError struct{ data any }

func (e rpcDataError) Error() string  { return "execution reverted" }
func (e rpcDataError) ErrorData() any { return e.data }

func TestAsRevertReadsTheDataOfAJSONRPCError(t *testing.T) {
	wrapped := errors.Join(errors.New("estimate gas"), rpcDataError{data: "0x" + selectorOf("EnforcedPause()")})
	r, ok := AsRevert(wrapped)
	if !ok || r.Name != "EnforcedPause" || r.Error() != "reverted: EnforcedPause()" {
		t.Fatalf("AsRevert: %v, %v", r, ok)
	}
	if r.Unwrap() != wrapped {
		t.Fatal("the revert does not keep its cause")
	}
	if _, ok := AsRevert(errors.New("connection refused")); ok {
		t.Fatal("a transport error read as a revert")
	}
	if _, ok := AsRevert(rpcDataError{data: 42}); ok {
		t.Fatal("non-hex error data read as a revert")
	}
	plain := errors.New("connection refused")
	if DecodeError(plain) != plain {
		t.Fatal("DecodeError changed an error without a revert")
	}
}

func TestDeployRefusesMissingParametersBeforeSigning(t *testing.T) {
	ctx := context.Background()
	s := newTestSigner(t)
	id := big.NewInt(1337)
	a := common.Address{1}
	if _, err := DeployIdentityRegistry(ctx, nil, s, id, common.Address{}, a); err == nil {
		t.Error("registry without admin")
	}
	if _, err := DeployIdentityRegistry(ctx, nil, s, id, a, common.Address{}); err == nil {
		t.Error("registry without agent")
	}
	full := ShareTokenParams{Name: "n", Symbol: "s", IdentityRegistry: a, Admin: a, Agent: a}
	for name, mutate := range map[string]func(*ShareTokenParams){
		"name":     func(p *ShareTokenParams) { p.Name = "" },
		"symbol":   func(p *ShareTokenParams) { p.Symbol = "" },
		"registry": func(p *ShareTokenParams) { p.IdentityRegistry = common.Address{} },
		"admin":    func(p *ShareTokenParams) { p.Admin = common.Address{} },
		"agent":    func(p *ShareTokenParams) { p.Agent = common.Address{} },
	} {
		p := full
		mutate(&p)
		if _, err := DeployShareToken(ctx, nil, s, id, p); err == nil {
			t.Errorf("token without %s", name)
		}
	}
}
