package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/fundshare/fundshare-operator/internal/chain"
)

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
	if err != nil || len(got) != 2 || got["IE00B4L5Y983"].ChainID != 80002 || got["LU0274208692"].Address != common.HexToAddress("0x00000000000000000000000000000000000000bb") {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := got.Token(context.Background(), "ns", "XS0000000000"); !errors.Is(err, ErrNoToken) {
		t.Fatalf("unknown ISIN: %v", err)
	}
	if _, err := ParseTokens("IE00B4L5Y983=0x12", 1337); err == nil {
		t.Fatal("bad address accepted")
	}
}
