package notify

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestCallsThatArriveTogetherShareOneWrite(t *testing.T) {
	var mu sync.Mutex
	var writes [][]int
	g := &Group[int]{Window: 20 * time.Millisecond, Write: func(_ context.Context, items []int) error {
		mu.Lock()
		defer mu.Unlock()
		writes = append(writes, slices.Clone(items))
		return nil
	}}
	const callers = 10
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			if err := g.Do(context.Background(), 2*i, 2*i+1); err != nil {
				t.Errorf("caller %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	var all []int
	for _, w := range writes {
		all = append(all, w...)
	}
	slices.Sort(all)
	if want := 2 * callers; len(all) != want || all[0] != 0 || all[want-1] != want-1 || len(slices.Compact(all)) != want {
		t.Fatalf("written %v: want each of 0..%d once", all, want-1)
	}
	if len(writes) >= callers {
		t.Fatalf("%d writes for %d callers arriving together: not grouped", len(writes), callers)
	}
	for _, w := range writes {
		for i := 0; i < len(w); i += 2 {
			if w[i+1] != w[i]+1 {
				t.Fatalf("write %v splits or reorders one call's items", w)
			}
		}
	}
}

func TestEveryCallOfAGroupGetsItsWritesError(t *testing.T) {
	boom := errors.New("database is down")
	g := &Group[string]{Window: 20 * time.Millisecond, Write: func(context.Context, []string) error { return boom }}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if err := g.Do(context.Background(), "a"); !errors.Is(err, boom) {
				t.Errorf("got %v, want the write's error", err)
			}
		})
	}
	wg.Wait()
}

func TestACallerThatGivesUpLeavesTheOthersItemsWritten(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var written []string
	g := &Group[string]{Window: time.Millisecond, Write: func(ctx context.Context, items []string) error {
		<-release
		if ctx.Err() != nil {
			return ctx.Err()
		}
		mu.Lock()
		defer mu.Unlock()
		written = append(written, items...)
		return nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error, 1)
	go func() { gaveUp <- g.Do(ctx, "impatient") }()
	other := make(chan error, 1)
	go func() { other <- g.Do(context.Background(), "patient") }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("the impatient caller got %v, want its context's error", err)
	}
	close(release)
	if err := <-other; err != nil {
		t.Fatalf("the patient caller: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(written, "patient") {
		t.Fatalf("written %v: the patient caller's item is missing", written)
	}
}

func TestAnEmptyCallWritesNothing(t *testing.T) {
	g := &Group[int]{Write: func(context.Context, []int) error { t.Fatal("written"); return nil }}
	if err := g.Do(context.Background()); err != nil {
		t.Fatal(err)
	}
}
