package agent

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// readerManager is a manager that only hands out an API reader: Connect must refuse before it
// registers anything.
type readerManager struct {
	ctrl.Manager
	reader client.Reader
}

func (m readerManager) GetAPIReader() client.Reader { return m.reader }

// chainIDServer is a JSON-RPC endpoint that reports chain id.
func chainIDServer(t *testing.T, id string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": id})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestConnectVerifiesTheChainIDBeforeAnythingIsSigned(t *testing.T) {
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "signer"},
		Data: map[string][]byte{SecretKey: []byte(strings.Repeat("11", 32))}}
	mgr := readerManager{reader: fake.NewClientBuilder().WithObjects(secret).Build()}
	ctx := context.Background()

	if rt, err := Connect(ctx, mgr, Options{}, "ops"); rt != nil || err != nil {
		t.Fatalf("no RPC URL: %v, %v; want no chain and no error", rt, err)
	}
	// An endpoint of Ethereum mainnet (1) configured as Polygon PoS (137): refused.
	_, err := Connect(ctx, mgr, Options{RPCURL: chainIDServer(t, "0x1"), ChainID: 137, SignerSecret: "signer"}, "ops")
	if err == nil || !strings.Contains(err.Error(), "chain id mismatch") {
		t.Fatalf("mainnet endpoint as polygon: %v", err)
	}
	// A local chain id that is a public chain's: refused.
	_, err = Connect(ctx, mgr, Options{RPCURL: chainIDServer(t, "0x89"), ChainID: 1, SignerSecret: "ops/signer"}, "other")
	if err == nil || !strings.Contains(err.Error(), "public chain") {
		t.Fatalf("local chain id 1: %v", err)
	}
	// The signer Secret missing: refused before dialling.
	_, err = Connect(ctx, mgr, Options{RPCURL: chainIDServer(t, "0x89"), ChainID: 137, SignerSecret: "missing"}, "ops")
	if err == nil || !strings.Contains(err.Error(), "signer Secret") {
		t.Fatalf("missing Secret: %v", err)
	}
	// Bad token configuration: refused.
	_, err = Connect(ctx, mgr, Options{RPCURL: chainIDServer(t, "0x89"), ChainID: 137, SignerSecret: "signer", TokenList: "IE00B4L5Y983=nope"}, "ops")
	if err == nil {
		t.Fatal("bad --chain-tokens accepted")
	}
}
