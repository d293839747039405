package delivery

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
)

const (
	tokenA = "0x00000000000000000000000000000000000000aa"
	tokenB = "0x00000000000000000000000000000000000000bb"
	w1     = "0x0000000000000000000000000000000000000001"
	w2     = "0x0000000000000000000000000000000000000002"
	w3     = "0x0000000000000000000000000000000000000003"
)

var day0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func minted(name, token, wallet string, units int64, day int, status investv1.ChainReceiptStatus) investv1.Order {
	o := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.OrderSpec{Side: investv1.SideBuy, AmountOfUnits: units, WalletID: investv1.ObjectID("wal-" + wallet[len(wallet)-1:])}}
	o.Status.Chain = &investv1.OrderChainStatus{Token: token, Recipient: wallet, Transaction: &investv1.ChainTransaction{
		Receipt: &investv1.ChainReceipt{Status: status, At: metav1.NewTime(day0.AddDate(0, 0, day))},
	}}
	return o
}

func burning(name, token string, reverted bool, burns ...investv1.OrderBurn) investv1.Order {
	o := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.OrderSpec{Side: investv1.SideSell}}
	o.Status.Chain = &investv1.OrderChainStatus{Token: token, Burns: burns, Transaction: &investv1.ChainTransaction{}}
	if reverted {
		o.Status.Chain.Transaction.Receipt = &investv1.ChainReceipt{Status: investv1.ChainReceiptReverted}
	}
	return o
}

func sellOf(units int64) *investv1.Order {
	return &investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: "sell"}, Spec: investv1.OrderSpec{Side: investv1.SideSell, AmountOfUnits: units}}
}

func TestBurnPlanBurnsFromTheWalletsTheUnitsWereMintedTo(t *testing.T) {
	ok := investv1.ChainReceiptSucceeded
	for _, tc := range []struct {
		name      string
		orders    []investv1.Order
		units     int64
		preferred string
		want      string // "wallet:units ..." or "short"
	}{
		{"one wallet", []investv1.Order{minted("b1", tokenA, w1, 10, 0, ok)}, 4, "", w1 + ":4"},
		{"the sell's own wallet first", []investv1.Order{minted("b1", tokenA, w1, 10, 0, ok), minted("b2", tokenA, w2, 10, 1, ok)}, 4, w2, w2 + ":4"},
		{"then oldest delivery first", []investv1.Order{minted("b2", tokenA, w2, 3, 5, ok), minted("b1", tokenA, w1, 3, 1, ok), minted("b3", tokenA, w3, 3, 3, ok)}, 7, "", w1 + ":3 " + w3 + ":3 " + w2 + ":1"},
		{"less what other sells are burning", []investv1.Order{minted("b1", tokenA, w1, 10, 0, ok), burning("s0", tokenA, false, investv1.OrderBurn{Address: w1, Units: 8}), minted("b2", tokenA, w2, 5, 1, ok)}, 4, "", w1 + ":2 " + w2 + ":2"},
		{"a reverted burn burned nothing", []investv1.Order{minted("b1", tokenA, w1, 10, 0, ok), burning("s0", tokenA, true, investv1.OrderBurn{Address: w1, Units: 8})}, 10, "", w1 + ":10"},
		{"other tokens do not count", []investv1.Order{minted("b1", tokenB, w1, 10, 0, ok)}, 1, "", "short"},
		{"reverted or unfinished mints do not count", []investv1.Order{minted("b1", tokenA, w1, 10, 0, investv1.ChainReceiptReverted)}, 1, "", "short"},
		{"not enough", []investv1.Order{minted("b1", tokenA, w1, 3, 0, ok)}, 4, "", "short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := BurnPlan(tc.orders, sellOf(tc.units), tokenA, tc.preferred)
			if tc.want == "short" {
				var short *shortError
				if !errors.As(err, &short) || !strings.HasPrefix(err.Error(), "InsufficientTokens") {
					t.Fatalf("plan %v, error %v; want InsufficientTokens", plan, err)
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

func TestLoadSignerNeverRepeatsTheKey(t *testing.T) {
	key := strings.Repeat("ab", 31) + "zz" // 64 characters, not hex
	c := fake.NewClientBuilder().WithObjects(
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "bad"}, Data: map[string][]byte{SecretKey: []byte(key)}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "nokey"}, Data: map[string][]byte{"other": []byte("x")}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "good"}, Data: map[string][]byte{SecretKey: []byte("0x" + strings.Repeat("11", 32) + "\n")}},
	).Build()
	ctx := context.Background()
	if _, err := LoadSigner(ctx, c, types.NamespacedName{Namespace: "ops", Name: "bad"}); err == nil || strings.Contains(err.Error(), "abab") {
		t.Fatalf("bad key: %v", err)
	}
	if _, err := LoadSigner(ctx, c, types.NamespacedName{Namespace: "ops", Name: "nokey"}); err == nil || !strings.Contains(err.Error(), `"key"`) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := LoadSigner(ctx, c, types.NamespacedName{Namespace: "ops", Name: "missing"}); err == nil {
		t.Fatal("missing Secret accepted")
	}
	s, err := LoadSigner(ctx, c, types.NamespacedName{Namespace: "ops", Name: "good"})
	if err != nil || s.Address().Hex() == "" {
		t.Fatalf("good key: %v", err)
	}
}

func TestTheChainIDSelectsTheNetwork(t *testing.T) {
	for id, want := range map[uint64]chain.Network{137: chain.NetworkPolygon, 80002: chain.NetworkAmoy, 1337: chain.NetworkLocal, 31337: chain.NetworkLocal} {
		if got := Network(id); got != want {
			t.Errorf("Network(%d) = %s, want %s", id, got, want)
		}
	}
}

func TestParseTokens(t *testing.T) {
	got, err := ParseTokens(" IE00B4L5Y983=0x00000000000000000000000000000000000000aa, LU0274208692=0x00000000000000000000000000000000000000BB", 80002)
	if err != nil || len(got) != 2 || got["IE00B4L5Y983"].ChainID != 80002 || got["LU0274208692"].Address != common.HexToAddress(tokenB) {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := got.Token(context.Background(), "ns", "XS0000000000"); !errors.Is(err, ErrNoToken) {
		t.Fatalf("unknown ISIN: %v", err)
	}
	if _, err := ParseTokens("IE00B4L5Y983=0x12", 1337); err == nil {
		t.Fatal("bad address accepted")
	}
}
