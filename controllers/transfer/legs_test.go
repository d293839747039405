package transfer

import (
	"maps"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Each SecondaryTransfer takes the one Transfer of its own transaction, with its from, to
// and units, that comes nearest before it; every other Transfer stays a holder's.
func TestEachSecondaryTransferTakesOneTransferOfItsOwnTransaction(t *testing.T) {
	token := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	seller, buyer := common.HexToAddress("0x01"), common.HexToAddress("0x02")
	txA, txB := common.HexToHash("0xa"), common.HexToHash("0xb")
	units := func(n byte) []byte { return common.LeftPadBytes([]byte{n}, 32) }
	transferLog := func(tx common.Hash, index uint, n byte) types.Log {
		return types.Log{Address: token, TxHash: tx, Index: index, Data: units(n),
			Topics: []common.Hash{TransferEvent, common.BytesToHash(seller.Bytes()), common.BytesToHash(buyer.Bytes())}}
	}
	legLog := func(tx common.Hash, index uint, n byte) types.Log {
		return types.Log{Address: token, TxHash: tx, Index: index, Data: units(n),
			Topics: []common.Hash{SecondaryTransferEvent, {1}, common.BytesToHash(seller.Bytes()), common.BytesToHash(buyer.Bytes())}}
	}
	logs := []types.Log{
		transferLog(txA, 0, 5), // a holder's transfer, same wallets and units, another transaction
		transferLog(txB, 0, 5), // settlement: two legs from the same seller of 5 units each
		legLog(txB, 1, 5),
		transferLog(txB, 2, 5),
		legLog(txB, 3, 5),
		transferLog(txB, 4, 7), // in the settlement's transaction but no leg names it
		legLog(txB, 5, 9),      // a leg whose Transfer is not there takes none
	}
	got := slices.Sorted(maps.Keys(settlementLegs(logs, token)))
	if !slices.Equal(got, []int{1, 3}) {
		t.Fatalf("legs %v, want [1 3]", got)
	}
	// Another token's SecondaryTransfer takes nothing.
	other := legLog(txA, 1, 5)
	other.Address = common.HexToAddress("0xbb")
	if legs := settlementLegs([]types.Log{transferLog(txA, 0, 5), other}, token); len(legs) != 0 {
		t.Fatalf("legs %v, want none", legs)
	}
}
