package token_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	. "github.com/fundshare/fundshare-operator/controllers/token"
)

func TestCompareLedger(t *testing.T) {
	tokA, tokB := common.HexToAddress("0xa0"), common.HexToAddress("0xb0")
	w1, w2, w3 := common.HexToAddress("0x01"), common.HexToAddress("0x02"), common.HexToAddress("0x03")
	tokens := map[string]common.Address{"ISINA": tokA, "ISINB": tokB}
	bal := func(m map[common.Address]map[common.Address]int64) map[common.Address]map[common.Address]*big.Int {
		out := map[common.Address]map[common.Address]*big.Int{}
		for t, ws := range m {
			out[t] = map[common.Address]*big.Int{}
			for w, b := range ws {
				out[t][w] = big.NewInt(b)
			}
		}
		return out
	}
	tests := []struct {
		name     string
		accounts []LedgerAccount
		balances map[common.Address]map[common.Address]int64
		want     map[string]string // account → message
		inSync   map[string]bool
		complete map[string]bool // absent: true
	}{
		{
			name:     "balances equal to the holdings are in sync",
			accounts: []LedgerAccount{{Key: "ns/a", Holdings: map[string]int64{"ISINA": 10}, Wallets: []common.Address{w1}}},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 10}},
			want:     map[string]string{"ns/a": "on-chain balances equal the holdings for 2 ISIN(s)"},
			inSync:   map[string]bool{"ns/a": true},
		},
		{
			name:     "a mint outside the ledger is a mismatch with the numbers",
			accounts: []LedgerAccount{{Key: "ns/a", Holdings: map[string]int64{"ISINA": 10}, Wallets: []common.Address{w1}}},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 12}},
			want:     map[string]string{"ns/a": "ISIN ISINA: chain 12 units, ledger 10"},
			inSync:   map[string]bool{"ns/a": false},
		},
		{
			name:     "units split over two wallets of one account add up",
			accounts: []LedgerAccount{{Key: "ns/a", Holdings: map[string]int64{"ISINA": 10, "ISINB": 3}, Wallets: []common.Address{w1, w2}}},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 4, w2: 6}, tokB: {w2: 3}},
			want:     map[string]string{"ns/a": "on-chain balances equal the holdings for 2 ISIN(s)"},
			inSync:   map[string]bool{"ns/a": true},
		},
		{
			name:     "holdings without units on chain are a mismatch (every ISIN listed)",
			accounts: []LedgerAccount{{Key: "ns/a", Holdings: map[string]int64{"ISINA": 5, "ISINB": 1}}},
			want:     map[string]string{"ns/a": "ISIN ISINA: chain 0 units, ledger 5; ISIN ISINB: chain 0 units, ledger 1"},
			inSync:   map[string]bool{"ns/a": false},
		},
		{
			name:     "an ISIN with orders settling is compared, counting what the chain holds of them by the block",
			accounts: []LedgerAccount{{Key: "ns/a", Holdings: map[string]int64{"ISINA": 5}, Wallets: []common.Address{w1}, Settling: map[string]int64{"ISINA": 7}}},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 12}},
			want:     map[string]string{"ns/a": "on-chain balances equal the holdings for 2 ISIN(s) (counting 7 unit(s) of orders settling on chain)"},
			inSync:   map[string]bool{"ns/a": true},
		},
		{
			name:     "a mismatch is reported while orders settle: in flight never means in sync",
			accounts: []LedgerAccount{{Key: "ns/a", Holdings: map[string]int64{"ISINA": 948}, Wallets: []common.Address{w1}, Settling: map[string]int64{"ISINA": -100}}},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 448}},
			want:     map[string]string{"ns/a": "ISIN ISINA: chain 448 units, ledger 848"},
			inSync:   map[string]bool{"ns/a": false},
		},
		{
			name: "accounts sharing a wallet address are compared together, the address counted once",
			accounts: []LedgerAccount{
				{Key: "t1/a", Holdings: map[string]int64{"ISINA": 4}, Wallets: []common.Address{w1}},
				{Key: "t2/b", Holdings: map[string]int64{"ISINA": 6}, Wallets: []common.Address{w1, w3}},
				{Key: "t2/c", Holdings: map[string]int64{"ISINA": 1}, Wallets: []common.Address{w2}},
			},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 10, w2: 2}},
			want: map[string]string{
				"t1/a": "on-chain balances equal the holdings for 2 ISIN(s) (wallet address shared with t2/b: units compared together)",
				"t2/b": "on-chain balances equal the holdings for 2 ISIN(s) (wallet address shared with t1/a: units compared together)",
				"t2/c": "ISIN ISINA: chain 2 units, ledger 1",
			},
			inSync: map[string]bool{"t1/a": true, "t2/b": true, "t2/c": false},
		},
		{
			name: "an ISIN whose transfers are not indexed up to the block is not compared, and says so: never in sync by default",
			accounts: []LedgerAccount{{Key: "ns/a", Holdings: map[string]int64{"ISINA": 10, "ISINB": 3}, Wallets: []common.Address{w1},
				NotComparable: map[string]string{"ISINB": "transfers indexed to block 7, balances read at block 9"}}},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 10}},
			want:     map[string]string{"ns/a": "on-chain balances equal the holdings for 1 ISIN(s); not yet comparable: ISIN ISINB: transfers indexed to block 7, balances read at block 9"},
			inSync:   map[string]bool{"ns/a": true},
			complete: map[string]bool{"ns/a": false},
		},
		{
			name: "a not comparable ISIN of one account leaves it out for every account sharing its address",
			accounts: []LedgerAccount{
				{Key: "t1/a", Holdings: map[string]int64{"ISINA": 4}, Wallets: []common.Address{w1}, NotComparable: map[string]string{"ISINA": "status lags"}},
				{Key: "t2/b", Holdings: map[string]int64{"ISINA": 6}, Wallets: []common.Address{w1}},
			},
			balances: map[common.Address]map[common.Address]int64{tokA: {w1: 99}},
			want: map[string]string{
				"t2/b": "on-chain balances equal the holdings for 1 ISIN(s); not yet comparable: ISIN ISINA: status lags (wallet address shared with t1/a: units compared together)",
			},
			inSync:   map[string]bool{"t2/b": true},
			complete: map[string]bool{"t2/b": false},
		},
		{
			name:     "an account without wallets or holdings is in sync",
			accounts: []LedgerAccount{{Key: "ns/a"}},
			want:     map[string]string{"ns/a": "on-chain balances equal the holdings for 2 ISIN(s)"},
			inSync:   map[string]bool{"ns/a": true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CompareLedger(tt.accounts, tokens, bal(tt.balances))
			for key, msg := range tt.want {
				r, ok := got[key]
				if !ok {
					t.Fatalf("no result for %s", key)
				}
				if r.Message() != msg {
					t.Errorf("%s: message %q, want %q", key, r.Message(), msg)
				}
				if r.InSync() != tt.inSync[key] {
					t.Errorf("%s: in sync %v, want %v", key, r.InSync(), tt.inSync[key])
				}
				if want, set := tt.complete[key]; r.Complete() != (want || !set) {
					t.Errorf("%s: complete %v", key, r.Complete())
				}
			}
		})
	}
}
