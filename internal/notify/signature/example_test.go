package signature_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/fundshare/fundshare-operator/internal/notify/signature"
)

// receiver is the receiver docs/webhooks.md shows (TestTheGuidesReceiverIsThisOne keeps
// the two the same).
func receiver(secret string, seen func(id string) bool) http.Handler {
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		panic(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil || wh.Verify(body, r.Header) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if !seen(r.Header.Get("webhook-id")) {
			var event struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			}
			_ = json.Unmarshal(body, &event)
			fmt.Println(event.Type) // hand the event to your queue here
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// Example_receiver delivers one event twice to the guide's receiver, signed as the
// dispatcher signs it: the receiver verifies it and hands it on once.
func Example_receiver() {
	secret, _ := signature.NewSecret()
	key, _ := signature.ParseSecret(secret)
	ids := map[string]bool{}
	h := receiver(secret, func(id string) bool { seen := ids[id]; ids[id] = true; return seen })
	body := []byte(`{"type":"order.completed","timestamp":"2026-11-26T10:15:03.412Z","data":{"object":"order","id":"o-1"}}`)
	for range 2 {
		req := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(string(body)))
		req.Header = signature.Headers([][]byte{key}, "evt_example", time.Now(), body)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// order.completed
	// 204
	// 204
}

func TestTheGuidesReceiverIsThisOne(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "webhooks.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```go\n")
	if !ok {
		t.Fatal("docs/webhooks.md has no go block")
	}
	block, _, _ = strings.Cut(block, "```")
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), block) {
		t.Fatalf("the go block of docs/webhooks.md is not the receiver of example_test.go:\n%s", block)
	}
}
