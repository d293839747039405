package sqlstore

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
)

// The store's own costs, per backend: go test -run XXX -bench . ./internal/archive/sqlstore/
// (make bench measures the whole service with the archive).

func benchStores(b *testing.B, run func(b *testing.B, s archive.Store)) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := Open(context.Background(), "sqlite://"+filepath.Join(b.TempDir(), "archive.db"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = s.Close() }()
		run(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		pg := pgtest.Start(b)
		s, err := Open(context.Background(), pg.NewDatabase(b), Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = s.Close() }()
		run(b, s)
	})
}

var benchN atomic.Int64

func benchOrder(ns string) *investv1.Order {
	n := benchN.Add(1)
	return archivetest.Order(ns, fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n), time.Unix(1_760_000_000+n/10, 0))
}

// BenchmarkPut is archiving throughput with 8 concurrent writers.
func BenchmarkPut(b *testing.B) {
	benchStores(b, func(b *testing.B, s archive.Store) {
		b.SetParallelism(4) // 4 × GOMAXPROCS writers
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := s.Put(context.Background(), benchOrder("bench"), investv1.AccountTypeIndividual); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkReads are Get and the first and a later page of the newest-first list over
// 5,000 archived orders.
func BenchmarkReads(b *testing.B) {
	benchStores(b, func(b *testing.B, s archive.Store) {
		var last *investv1.Order
		for range 5000 {
			last = benchOrder("bench")
			if err := s.Put(context.Background(), last, investv1.AccountTypeIndividual); err != nil {
				b.Fatal(err)
			}
		}
		ctx := context.Background()
		b.Run("get", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Get(ctx, "bench", last.Name); err != nil {
					b.Fatal(err)
				}
			}
		})
		first, err := s.List(ctx, "bench", archive.Query{Limit: 100})
		if err != nil {
			b.Fatal(err)
		}
		for _, tc := range []struct {
			name   string
			cursor string
		}{{"list-first-page", ""}, {"list-next-page", first.Next}} {
			b.Run(tc.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := s.List(ctx, "bench", archive.Query{Limit: 100, Cursor: tc.cursor}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}
