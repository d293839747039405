package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// RevertError is a reverted call or transaction with its reason decoded against the share
// token's and the identity registry's ABIs: custom errors such as NotVerified(address), and
// Solidity's Error(string) and Panic(uint256).
type RevertError struct {
	// Name is the error's name ("NotVerified", "Error", "Panic"), empty when the data matches
	// no known error.
	Name string
	// Args are the error's decoded arguments, in order.
	Args []any
	// Data is the raw revert data (selector and arguments).
	Data []byte

	cause error
}

// Error reads "reverted: NotVerified(0x…)".
func (e *RevertError) Error() string { return "reverted: " + e.Reason() }

// Reason is the decoded error, such as NotVerified(0xAb…) or Error("text"); for data that
// matches no known error, its hex; for a revert without data, "no reason given".
func (e *RevertError) Reason() string {
	if e.Name == "" {
		if len(e.Data) == 0 {
			return "no reason given"
		}
		return "unknown error " + hexutil.Encode(e.Data)
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = formatArg(a)
	}
	return e.Name + "(" + strings.Join(args, ", ") + ")"
}

// Unwrap returns the error the revert was read from, if any.
func (e *RevertError) Unwrap() error { return e.cause }

func formatArg(a any) string {
	switch v := a.(type) {
	case common.Address:
		return v.Hex()
	case [32]byte:
		return hexutil.Encode(v[:])
	case []byte:
		return hexutil.Encode(v)
	case *big.Int:
		return v.String()
	case string:
		return fmt.Sprintf("%q", v)
	default:
		return fmt.Sprint(v)
	}
}

var knownErrors = sync.OnceValue(func() map[[4]byte]abi.Error {
	m := map[[4]byte]abi.Error{}
	for _, md := range []*bind.MetaData{&contracts.ShareTokenMetaData, &contracts.IdentityRegistryMetaData, &contracts.CashTokenMetaData, &contracts.DeliveryVersusPaymentMetaData} {
		parsed, err := md.ParseABI()
		if err != nil {
			panic("chain: committed contract ABI does not parse: " + err.Error())
		}
		for _, e := range parsed.Errors {
			m[[4]byte(e.ID[:4])] = e
		}
	}
	return m
})

// DecodeRevertData decodes revert data (as returned by eth_call or eth_estimateGas).
func DecodeRevertData(data []byte) *RevertError {
	r := &RevertError{Data: data}
	if len(data) < 4 {
		return r
	}
	if e, ok := knownErrors()[[4]byte(data[:4])]; ok {
		args, err := e.Inputs.Unpack(data[4:])
		if err == nil {
			r.Name, r.Args = e.Name, args
		}
		return r
	}
	// Error(string) and Panic(uint256), which Solidity itself raises.
	if reason, err := abi.UnpackRevert(data); err == nil {
		if string(data[:4]) == string(errorStringSelector) {
			r.Name, r.Args = "Error", []any{reason}
		} else {
			r.Name, r.Args = "Panic", []any{reason}
		}
	}
	return r
}

var errorStringSelector = common.FromHex("0x08c379a0")

// AsRevert finds a revert in err: a JSON-RPC error carrying revert data, as returned by
// eth_call and eth_estimateGas (and so by a bind transaction whose gas estimate reverts).
func AsRevert(err error) (*RevertError, bool) {
	var already *RevertError
	if errors.As(err, &already) {
		return already, true
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return nil, false
	}
	data, decodeErr := hexutil.Decode(s)
	if decodeErr != nil {
		return nil, false //nolint:nilerr // error data that is not hex carries no revert: the caller keeps its own error
	}
	r := DecodeRevertData(data)
	r.cause = err
	return r, true
}

// DecodeError returns err with its revert decoded when it carries one, else err.
func DecodeError(err error) error {
	if r, ok := AsRevert(err); ok {
		return r
	}
	return err
}

// RevertOfReceipt reads why a mined transaction failed. A receipt holds no revert data, so
// the transaction is replayed with eth_call on the state of the block before the one that
// included it. A revert caused by an earlier transaction of the same block therefore may not
// replay; that case is an error, as is a receipt of a successful transaction.
func RevertOfReceipt(ctx context.Context, caller ethereum.ContractCaller, tx *types.Transaction, receipt *types.Receipt) (*RevertError, error) {
	if receipt.Status == types.ReceiptStatusSuccessful {
		return nil, fmt.Errorf("transaction %s did not revert", tx.Hash().Hex())
	}
	if receipt.BlockNumber == nil || receipt.BlockNumber.Sign() == 0 {
		return nil, fmt.Errorf("receipt of %s names no block", tx.Hash().Hex())
	}
	from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
	if err != nil {
		return nil, fmt.Errorf("sender of %s: %w", tx.Hash().Hex(), err)
	}
	msg := ethereum.CallMsg{
		From:       from,
		To:         tx.To(),
		Gas:        tx.Gas(),
		Value:      tx.Value(),
		Data:       tx.Data(),
		AccessList: tx.AccessList(),
	}
	parent := new(big.Int).Sub(receipt.BlockNumber, big.NewInt(1))
	_, callErr := caller.CallContract(ctx, msg, parent)
	if callErr == nil {
		return nil, fmt.Errorf("transaction %s reverted in block %s but its replay on block %s succeeds", tx.Hash().Hex(), receipt.BlockNumber, parent)
	}
	if r, ok := AsRevert(callErr); ok {
		return r, nil
	}
	return nil, fmt.Errorf("replay %s: %w", tx.Hash().Hex(), callErr)
}
