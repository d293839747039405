package archivetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/holdings"
)

// Switch is an archive.Store for the suites that run the manager against a real store: it
// passes every call to that store, which a spec may replace (Use: a PostgreSQL server
// instead of the suite's SQLite file) or switch off (SetDown: every call then fails with
// archive.ErrUnavailable, as when the database stops answering). Listed counts the
// orders List returned, for specs of what a read costs.
type Switch struct {
	mu     sync.Mutex
	inner  archive.Store
	down   bool
	Listed atomic.Int64
}

// NewSwitch returns a Switch in front of st, switched on.
func NewSwitch(st archive.Store) *Switch { return &Switch{inner: st} }

// ErrDown is what every call answers while the switch is off.
var ErrDown = fmt.Errorf("%w: the test stopped the database", archive.ErrUnavailable)

// SetDown switches the store off (true) or on again.
func (s *Switch) SetDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

// Use makes st the store behind the switch and returns the one it replaces.
func (s *Switch) Use(st archive.Store) archive.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.inner
	s.inner = st
	return old
}

// Direct is the store behind the switch, for assertions (never switched off).
func (s *Switch) Direct() archive.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inner
}

// current is the store behind the switch; ErrDown while it is switched off.
func (s *Switch) current() (archive.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return nil, ErrDown
	}
	return s.inner, nil
}

// through calls f with the current store, or answers ErrDown and zero.
func through[T any](s *Switch, f func(archive.Store) (T, error)) (T, error) {
	st, err := s.current()
	if err != nil {
		var zero T
		return zero, err
	}
	return f(st)
}

// none adapts a call that answers only an error to through.
func none(err error) (struct{}, error) { return struct{}{}, err }

// Put implements archive.Store.
func (s *Switch) Put(ctx context.Context, o *investv1.Order, t investv1.AccountType) error {
	_, err := through(s, func(st archive.Store) (struct{}, error) { return none(st.Put(ctx, o, t)) })
	return err
}

// PutMany implements archive.Store.
func (s *Switch) PutMany(ctx context.Context, entries []archive.Entry) error {
	_, err := through(s, func(st archive.Store) (struct{}, error) { return none(st.PutMany(ctx, entries)) })
	return err
}

// Get implements archive.Store.
func (s *Switch) Get(ctx context.Context, ns, id string) (*investv1.Order, error) {
	return through(s, func(st archive.Store) (*investv1.Order, error) { return st.Get(ctx, ns, id) })
}

// List implements archive.Store, counting the orders it returns in Listed.
func (s *Switch) List(ctx context.Context, ns string, q archive.Query) (archive.Page, error) {
	page, err := through(s, func(st archive.Store) (archive.Page, error) { return st.List(ctx, ns, q) })
	s.Listed.Add(int64(len(page.Orders)))
	return page, err
}

// CompletedOrders implements archive.Store.
func (s *Switch) CompletedOrders(ctx context.Context, ns, account string, isin investv1.ISIN) ([]investv1.Order, error) {
	return through(s, func(st archive.Store) ([]investv1.Order, error) { return st.CompletedOrders(ctx, ns, account, isin) })
}

// Holdings implements archive.Store.
func (s *Switch) Holdings(ctx context.Context, ns, account string, foldBefore time.Time, live []types.UID) (holdings.Summary, error) {
	return through(s, func(st archive.Store) (holdings.Summary, error) {
		return st.Holdings(ctx, ns, account, foldBefore, live)
	})
}

// Ping implements archive.Store.
func (s *Switch) Ping(ctx context.Context) error {
	_, err := through(s, func(st archive.Store) (struct{}, error) { return none(st.Ping(ctx)) })
	return err
}

// Close closes the store behind the switch.
func (s *Switch) Close() error { return s.Direct().Close() }
