package archive

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// pinger is a Store whose Ping answers with err after delay (or when ctx ends).
type pinger struct {
	Store
	err   error
	delay time.Duration
}

func (p pinger) Ping(ctx context.Context) error {
	select {
	case <-time.After(p.delay):
		return p.err
	case <-ctx.Done():
		return fmt.Errorf("%w: %w", ErrUnavailable, ctx.Err())
	}
}

func (pinger) Put(context.Context, *investv1.Order, investv1.AccountType) error { return nil }

func TestReadyCheckFailsWhileTheArchiveDoesNotAnswer(t *testing.T) {
	req := httptest.NewRequest("GET", "/readyz", nil)
	if err := ReadyCheck(pinger{}, time.Second)(req); err != nil {
		t.Fatalf("an answering archive: %v", err)
	}
	if err := ReadyCheck(pinger{err: ErrUnavailable}, time.Second)(req); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a down archive: got %v", err)
	}
	start := time.Now()
	if err := ReadyCheck(pinger{delay: time.Hour}, 50*time.Millisecond)(req); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a hanging archive: got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the check waited %v", d)
	}
}
