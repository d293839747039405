package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/notify/signature"
)

func TestTheListenerPrintsVerifiedEventsOnceAndRefusesForgedOnes(t *testing.T) {
	secret, err := signature.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	key, _ := signature.ParseSecret(secret)
	var out bytes.Buffer
	l := &listener{keys: [][]byte{key}, out: &out, count: 2, seen: map[string]bool{}, done: make(chan struct{})}
	send := func(id string, body string, keys [][]byte) int {
		req := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(body))
		req.Header = signature.Headers(keys, id, time.Now(), []byte(body))
		rec := httptest.NewRecorder()
		l.ServeHTTP(rec, req)
		return rec.Code
	}
	placed := `{"type":"order.placed","timestamp":"2026-11-26T10:00:00Z","data":{"id":"o-1","status":"PLACED"}}`
	if code := send("evt_1", placed, [][]byte{key}); code != http.StatusNoContent {
		t.Fatalf("a verified event answered %d", code)
	}
	if code := send("evt_1", placed, [][]byte{key}); code != http.StatusNoContent {
		t.Fatalf("a repeated event answered %d", code)
	}
	other, _ := signature.NewSecret()
	otherKey, _ := signature.ParseSecret(other)
	if code := send("evt_2", placed, [][]byte{otherKey}); code != http.StatusBadRequest {
		t.Fatalf("an event signed with another secret answered %d", code)
	}
	nav := `{"type":"nav.published","timestamp":"2026-11-26T10:00:00Z","data":{"isin":"LU000FSHA019","date":"2026-11-25","price":1049929}}`
	if code := send("evt_3", nav, [][]byte{key}); code != http.StatusNoContent {
		t.Fatalf("a NAV event answered %d", code)
	}
	want := "order.placed o-1 PLACED\nnav.published LU000FSHA019 2026-11-25 1049929\n"
	if out.String() != want {
		t.Fatalf("printed %q; want %q", out.String(), want)
	}
	select {
	case <-l.done:
	default:
		t.Fatal("the listener did not stop after --count events")
	}
}
