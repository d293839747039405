package delivery

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

const (
	tokenA = "0x00000000000000000000000000000000000000aa"
	tokenB = "0x00000000000000000000000000000000000000bb"
	w1     = "0x0000000000000000000000000000000000000001"
	w2     = "0x0000000000000000000000000000000000000002"
	w3     = "0x0000000000000000000000000000000000000003"
)

func bw(id string, addr string, balance int64) BurnWallet {
	return BurnWallet{ID: investv1.ObjectID(id), Address: addr, Balance: balance}
}

func TestBurnPlanBurnsWhereTheChainSaysTheUnitsAre(t *testing.T) {
	for _, tc := range []struct {
		name    string
		wallets []BurnWallet
		burning []investv1.OrderBurn
		first   string
		units   int64
		want    string // "wallet:units ..." or "short: <message part>"
	}{
		{"one wallet", []BurnWallet{bw("wal-1", w1, 10)}, nil, "", 4, w1 + ":4"},
		{"the first wallet (the sell's own, else the primary) first", []BurnWallet{bw("wal-1", w1, 10), bw("wal-2", w2, 10)}, nil, "wal-2", 4, w2 + ":4"},
		{"the first wallet first even when it is not the largest", []BurnWallet{bw("wal-1", w1, 10), bw("wal-2", w2, 3)}, nil, "wal-2", 5, w2 + ":3 " + w1 + ":2"},
		{"then the largest balance", []BurnWallet{bw("wal-1", w1, 3), bw("wal-2", w2, 5), bw("wal-3", w3, 4)}, nil, "", 7, w2 + ":5 " + w3 + ":2"},
		{"then the wallet id", []BurnWallet{bw("wal-2", w2, 3), bw("wal-1", w1, 3)}, nil, "", 4, w1 + ":3 " + w2 + ":1"},
		{"units moved to a second wallet of the account are burned there", []BurnWallet{bw("wal-1", w1, 0), bw("wal-2", w2, 10)}, nil, "wal-1", 4, w2 + ":4"},
		{"less what other sells are burning and the chain has not mined", []BurnWallet{bw("wal-1", w1, 10), bw("wal-2", w2, 5)}, []investv1.OrderBurn{{Address: w1, Units: 8}}, "wal-1", 4, w1 + ":2 " + w2 + ":2"},
		{"the addresses of other sells' burns are compared as addresses", []BurnWallet{bw("wal-1", w1, 10)}, []investv1.OrderBurn{{Address: strings.ToUpper("0x") + w1[2:], Units: 10}}, "", 1, "short: hold 10 on chain at block 7, 10 of them being burned by other sells"},
		{"a burn from a wallet the account does not burn from does not count", []BurnWallet{bw("wal-1", w1, 10)}, []investv1.OrderBurn{{Address: w3, Units: 10}}, "", 10, w1 + ":10"},
		{"an empty wallet is never in the plan", []BurnWallet{bw("wal-1", w1, 0), bw("wal-2", w2, 4)}, nil, "", 4, w2 + ":4"},
		{"not enough names the figures", []BurnWallet{bw("wal-1", w1, 3)}, nil, "", 4, "short: the sell burns 4 units, the account's registered wallets hold 3 on chain at block 7, 0 of them"},
		{"no wallet", nil, nil, "", 1, "short: hold 0 on chain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := BurnPlan(BurnInput{Wallets: tc.wallets, Burning: tc.burning, First: investv1.ObjectID(tc.first), Units: tc.units, Block: 7})
			if msg, short := strings.CutPrefix(tc.want, "short: "); short {
				var se *shortError
				if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "InsufficientTokens") || !strings.Contains(err.Error(), msg) {
					t.Fatalf("plan %v, error %v; want InsufficientTokens naming %q", plan, err, msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var total int64
			for _, b := range plan {
				got = append(got, strings.ToLower(b.Address)+":"+strconv.FormatInt(b.Units, 10))
				total += b.Units
			}
			if strings.Join(got, " ") != tc.want || total != tc.units {
				t.Fatalf("plan %s, want %s", strings.Join(got, " "), tc.want)
			}
		})
	}
}

func TestTheConfirmedBlockIsTheNewestWithEveryConfirmation(t *testing.T) {
	for _, tc := range []struct{ head, conf, want uint64 }{{10, 0, 10}, {10, 1, 10}, {10, 3, 8}, {1, 3, 1}, {2, 3, 0}} {
		if got := ConfirmedBlock(tc.head, tc.conf); got != tc.want {
			t.Errorf("ConfirmedBlock(%d, %d) = %d, want %d", tc.head, tc.conf, got, tc.want)
		}
	}
}
