package connector

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func openFolder(t *testing.T, dir string, opts ...Option) *Folder {
	t.Helper()
	f, err := OpenFolder(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// deliver writes a file into the inbox as a transfer agent would, with a modification
// time of base plus offset seconds.
func deliver(t *testing.T, dir, name, content string, offset int) {
	t.Helper()
	p := filepath.Join(dir, inboxDir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC).Add(time.Duration(offset) * time.Second)
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

// names lists a subdirectory of the root, hidden files included.
func names(t *testing.T, dir, sub string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, sub))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func read(t *testing.T, p ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustClaim(t *testing.T, f *Folder) Claim {
	t.Helper()
	c, err := f.Claim(context.Background())
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	return c
}

// claimAll claims until the inbox is empty from several goroutines spread over the
// folders, processes every claim, and returns how often each delivered name was
// claimed.
func claimAll(t *testing.T, folders []*Folder, goroutinesPerFolder int) map[string]int {
	t.Helper()
	var (
		mu     sync.Mutex
		counts = map[string]int{}
		wg     sync.WaitGroup
		start  = make(chan struct{})
	)
	ctx := context.Background()
	for _, f := range folders {
		for range goroutinesPerFolder {
			wg.Go(func() {
				<-start
				for {
					c, err := f.Claim(ctx)
					if errors.Is(err, ErrInboxEmpty) {
						return
					}
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					counts[c.Name]++
					mu.Unlock()
					if string(c.Data) != "content of "+c.Name {
						t.Errorf("claim of %s read %q", c.Name, c.Data)
					}
					if err := f.Processed(ctx, c); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
	}
	close(start)
	wg.Wait()
	return counts
}

func deliverMany(t *testing.T, dir string, n int) {
	t.Helper()
	for i := range n {
		name := fmt.Sprintf("camt054-%04d.xml", i)
		deliver(t, dir, name, "content of "+name, i%7)
	}
}

func checkEachClaimedOnce(t *testing.T, dir string, counts map[string]int, n int) {
	t.Helper()
	if len(counts) != n {
		t.Errorf("%d distinct files claimed, want %d", len(counts), n)
	}
	for name, c := range counts {
		if c != 1 {
			t.Errorf("%s claimed %d times", name, c)
		}
	}
	if got := len(names(t, dir, processedDir)); got != n {
		t.Errorf("%d files in processed/, want %d", got, n)
	}
	if left := append(names(t, dir, inboxDir), names(t, dir, claimedDir)...); len(left) != 0 {
		t.Errorf("left in inbox/ and claimed/: %v", left)
	}
}

func TestTwoConsumersNeverClaimTheSameFile(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	deliverMany(t, dir, 300)
	checkEachClaimedOnce(t, dir, claimAll(t, []*Folder{f}, 8), 300)
}

func TestTwoFoldersOnOneRootNeverClaimTheSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := openFolder(t, dir), openFolder(t, dir)
	deliverMany(t, dir, 300)
	checkEachClaimedOnce(t, dir, claimAll(t, []*Folder{a, b}, 4), 300)
}

func TestClaimersRacingForOneFileHaveExactlyOneWinner(t *testing.T) {
	dir := t.TempDir()
	folders := []*Folder{openFolder(t, dir), openFolder(t, dir)}
	ctx := context.Background()
	for round := range 40 {
		name := fmt.Sprintf("pain002-%02d.xml", round)
		deliver(t, dir, name, "status", 0)
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			mu    sync.Mutex
			wins  []Claim
		)
		for i := range 8 {
			f := folders[i%2]
			wg.Go(func() {
				<-start
				c, err := f.Claim(ctx)
				if errors.Is(err, ErrInboxEmpty) {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				wins = append(wins, c)
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
		if len(wins) != 1 {
			t.Fatalf("round %d: %d claimers won, want exactly 1", round, len(wins))
		}
		if err := folders[0].Processed(ctx, wins[0]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFilesAreOfferedOldestFirstThenByName(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	deliver(t, dir, "c.xml", "c", 10)
	deliver(t, dir, "b.xml", "b", 20)
	deliver(t, dir, "a.xml", "a", 20)
	deliver(t, dir, "z.xml", "z", 5)
	want := []string{"z.xml", "c.xml", "a.xml", "b.xml"}
	pending, err := f.Pending(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pending {
		got = append(got, p.Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Pending = %v, want %v", got, want)
	}
	if pending[0].Size != 1 || !pending[0].DeliveredAt.Equal(time.Date(2026, 3, 2, 18, 0, 5, 0, time.UTC)) {
		t.Errorf("Pending[0] = %+v", pending[0])
	}
	for _, w := range want {
		if c := mustClaim(t, f); c.Name != w || string(c.Data) != w[:1] {
			t.Errorf("claimed %s (%q), want %s", c.Name, c.Data, w)
		}
	}
}

func TestHiddenTemporaryAndNonRegularFilesAreNeverOffered(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	for _, n := range []string{".hidden.xml", "upload.xml.tmp", "upload.xml.PART", "upload.xml.partial", "w.xml.filepart", "edit.xml~"} {
		deliver(t, dir, n, "not yet", 0)
	}
	if err := os.Mkdir(filepath.Join(dir, inboxDir, "a-directory"), 0o750); err != nil {
		t.Fatal(err)
	}
	deliver(t, dir, "ok.xml", "whole", 1)
	if err := os.Symlink("ok.xml", filepath.Join(dir, inboxDir, "link.xml")); err != nil {
		t.Fatal(err)
	}
	pending, err := f.Pending(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].Name != "ok.xml" {
		t.Fatalf("Pending = %+v, want only ok.xml", pending)
	}
	if c := mustClaim(t, f); c.Name != "ok.xml" {
		t.Fatalf("claimed %s", c.Name)
	}
	if _, err := f.Claim(context.Background()); !errors.Is(err, ErrInboxEmpty) {
		t.Fatalf("second Claim: %v, want ErrInboxEmpty", err)
	}
}

func TestAnEmptyInboxSaysSo(t *testing.T) {
	f := openFolder(t, t.TempDir())
	if _, err := f.Claim(context.Background()); !errors.Is(err, ErrInboxEmpty) {
		t.Fatalf("Claim = %v, want ErrInboxEmpty", err)
	}
}

func TestAProcessedFileIsKept(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	deliver(t, dir, "camt053.xml", "statement", 0)
	c := mustClaim(t, f)
	if c.Name != "camt053.xml" || !strings.HasSuffix(c.ID, "-camt053.xml") || string(c.Data) != "statement" {
		t.Fatalf("claim = %+v", c)
	}
	if got := names(t, dir, claimedDir); !slices.Equal(got, []string{c.ID}) {
		t.Fatalf("claimed/ = %v", got)
	}
	if err := f.Processed(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, processedDir, c.ID); got != "statement" {
		t.Fatalf("processed file holds %q", got)
	}
	if left := names(t, dir, claimedDir); len(left) != 0 {
		t.Fatalf("claimed/ = %v", left)
	}
}

func TestARejectedFileIsKeptWithItsReasonBesideIt(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	deliver(t, dir, "bad.xml", "<Document", 0)
	c := mustClaim(t, f)
	reason := "camt.054.001.08: Document: not a well-formed XML document"
	if err := f.Rejected(context.Background(), c, reason); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, rejectedDir, c.ID); got != "<Document" {
		t.Errorf("rejected file holds %q", got)
	}
	if got := read(t, dir, rejectedDir, c.ID+".reason"); got != reason+"\n" {
		t.Errorf("reason = %q", got)
	}
	if got := names(t, dir, rejectedDir); len(got) != 2 {
		t.Errorf("rejected/ = %v, want the file and its reason only", got)
	}
}

func TestARejectionNeedsAReason(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	deliver(t, dir, "bad.xml", "x", 0)
	c := mustClaim(t, f)
	if err := f.Rejected(context.Background(), c, " \n"); err == nil {
		t.Fatal("a blank reason was accepted")
	}
	if got := names(t, dir, claimedDir); !slices.Equal(got, []string{c.ID}) {
		t.Fatalf("claimed/ = %v: the claim must still be held", got)
	}
}

func TestAFinishedClaimCannotBeFinishedAgain(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	ctx := context.Background()
	deliver(t, dir, "x.xml", "x", 0)
	c := mustClaim(t, f)
	if err := f.Processed(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := f.Processed(ctx, c); !errors.Is(err, ErrNotClaimed) {
		t.Errorf("second Processed = %v, want ErrNotClaimed", err)
	}
	if err := f.Rejected(ctx, c, "too late"); !errors.Is(err, ErrNotClaimed) {
		t.Errorf("Rejected after Processed = %v, want ErrNotClaimed", err)
	}
	if got := names(t, dir, rejectedDir); len(got) != 0 {
		t.Errorf("rejected/ = %v, want nothing", got)
	}
}

func TestAFileClaimedByADeadProcessIsOfferedAgainAfterRecover(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	dead := openFolder(t, dir)
	deliver(t, dir, "first.xml", "first", 0)
	deliver(t, dir, "second.xml", "second", 1)
	lost := mustClaim(t, dead)
	if lost.Name != "first.xml" {
		t.Fatalf("claimed %s", lost.Name)
	}
	_ = dead.Close() // the process dies holding the claim

	restarted := openFolder(t, dir)
	if p, _ := restarted.Pending(ctx); len(p) != 1 {
		t.Fatalf("before Recover, Pending = %+v: the claimed file must not be offered", p)
	}
	n, err := restarted.Recover(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want 1, nil", n, err)
	}
	again := mustClaim(t, restarted)
	if again.Name != lost.Name || !bytes.Equal(again.Data, lost.Data) || !again.DeliveredAt.Equal(lost.DeliveredAt) {
		t.Fatalf("offered again %+v, want %+v (same name, bytes and delivery time)", again, lost)
	}
	if again.ID == lost.ID {
		t.Error("a new claim must have a new ID")
	}
	if err := restarted.Processed(ctx, again); err != nil {
		t.Fatal(err)
	}
	if n, err := restarted.Recover(ctx); err != nil || n != 0 {
		t.Fatalf("Recover with nothing claimed = %d, %v", n, err)
	}
}

func TestRecoverNeverOverwritesANewFileOfTheSameName(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	f := openFolder(t, dir)
	deliver(t, dir, "camt054.xml", "old", 0)
	lost := mustClaim(t, f)
	deliver(t, dir, "camt054.xml", "new", 5) // the bank delivers a file of the same name
	if n, err := f.Recover(ctx); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	if got := read(t, dir, inboxDir, "camt054.xml"); got != "new" {
		t.Fatalf("inbox/camt054.xml holds %q, want the new file", got)
	}
	if got := read(t, dir, inboxDir, lost.ID); got != "old" {
		t.Fatalf("the recovered file holds %q, want old", got)
	}
	var got []string
	for range 2 {
		c := mustClaim(t, f)
		got = append(got, string(c.Data))
		if err := f.Processed(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(got, []string{"old", "new"}) {
		t.Fatalf("offered %v, want old (delivered first) then new", got)
	}
}

func TestRecoverFinishesARejectionInterruptedAfterItsReason(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	f := openFolder(t, dir)
	deliver(t, dir, "bad.xml", "bad", 0)
	c := mustClaim(t, f)
	// Rejected writes the reason first; the process dies before the move.
	if err := f.publish(rejectedDir, c.ID+reasonSuffix, []byte("refused\n")); err != nil {
		t.Fatal(err)
	}
	if n, err := f.Recover(ctx); err != nil || n != 0 {
		t.Fatalf("Recover = %d, %v; want 0 offered again", n, err)
	}
	if got := read(t, dir, rejectedDir, c.ID); got != "bad" {
		t.Fatalf("rejected file holds %q", got)
	}
	if left := append(names(t, dir, inboxDir), names(t, dir, claimedDir)...); len(left) != 0 {
		t.Fatalf("left in inbox/ and claimed/: %v", left)
	}
}

func TestRecoverAfterAnInterruptedRecoverOffersTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	f := openFolder(t, dir)
	deliver(t, dir, "x.xml", "x", 0)
	c := mustClaim(t, f)
	// The first Recover linked the file back into the inbox and died before removing
	// its claimed name.
	if err := os.Link(filepath.Join(dir, claimedDir, c.ID), filepath.Join(dir, inboxDir, "x.xml")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir, inboxDir); !slices.Equal(got, []string{"x.xml"}) {
		t.Fatalf("inbox/ = %v, want x.xml once", got)
	}
	if left := names(t, dir, claimedDir); len(left) != 0 {
		t.Fatalf("claimed/ = %v", left)
	}
}

func TestAFileDeliveredTwiceUnderOneNameIsKeptTwice(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	f := openFolder(t, dir)
	var ids []string
	for _, content := range []string{"monday", "tuesday"} {
		deliver(t, dir, "camt053.xml", content, 0)
		c := mustClaim(t, f)
		if err := f.Processed(ctx, c); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	if ids[0] == ids[1] {
		t.Fatal("two deliveries got one ID")
	}
	if read(t, dir, processedDir, ids[0]) != "monday" || read(t, dir, processedDir, ids[1]) != "tuesday" {
		t.Fatal("a delivery of the same name replaced the kept one")
	}
}

func TestAFileLargerThanTheLimitIsRejectedUnread(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir, WithMaxFileSize(10))
	deliver(t, dir, "huge.xml", "01234567890", 0)
	deliver(t, dir, "small.xml", "0123456789", 1)
	c := mustClaim(t, f)
	if c.Name != "small.xml" {
		t.Fatalf("claimed %s, want small.xml (huge.xml rejected)", c.Name)
	}
	var reason string
	for _, n := range names(t, dir, rejectedDir) {
		if strings.HasSuffix(n, "-huge.xml"+reasonSuffix) {
			reason = read(t, dir, rejectedDir, n)
		}
	}
	if !strings.Contains(reason, "11 bytes") || !strings.Contains(reason, "limit is 10") {
		t.Fatalf("reason = %q", reason)
	}
}

func TestAReleasedFileIsNeverOverwritten(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	ctx := context.Background()
	if already, err := f.Release(ctx, "PAYOUT-20260302-1.xml", []byte("batch one")); err != nil || already {
		t.Fatalf("Release = %v, %v", already, err)
	}
	for _, other := range []string{"batch two", "batch one, longer", "batch 1"} {
		already, err := f.Release(ctx, "PAYOUT-20260302-1.xml", []byte(other))
		if !errors.Is(err, ErrConflict) || already {
			t.Errorf("Release of different bytes = %v, %v; want ErrConflict", already, err)
		}
	}
	if got := read(t, dir, outboxDir, "PAYOUT-20260302-1.xml"); got != "batch one" {
		t.Fatalf("outbox file holds %q", got)
	}
}

func TestReleasingTheSameBytesAgainReportsAlreadyReleased(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	ctx := context.Background()
	if already, err := f.Release(ctx, "p.xml", []byte("batch")); err != nil || already {
		t.Fatalf("first Release = %v, %v", already, err)
	}
	if already, err := f.Release(ctx, "p.xml", []byte("batch")); err != nil || !already {
		t.Fatalf("second Release = %v, %v; want already released", already, err)
	}
	if got := names(t, dir, outboxDir); !slices.Equal(got, []string{"p.xml"}) {
		t.Fatalf("outbox/ = %v", got)
	}
}

func TestConcurrentReleasesOfOneNameWriteItOnce(t *testing.T) {
	dir := t.TempDir()
	folders := []*Folder{openFolder(t, dir), openFolder(t, dir)}
	ctx := context.Background()
	var (
		wg                           sync.WaitGroup
		start                        = make(chan struct{})
		mu                           sync.Mutex
		fresh, already, conflicts    int
		freshContent, alreadyContent []string
	)
	for i := range 16 {
		content := []string{"batch A", "batch B"}[i%2]
		f := folders[i/8]
		wg.Go(func() {
			<-start
			a, err := f.Release(ctx, "p.xml", []byte(content))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, ErrConflict):
				conflicts++
			case err != nil:
				t.Error(err)
			case a:
				already++
				alreadyContent = append(alreadyContent, content)
			default:
				fresh++
				freshContent = append(freshContent, content)
			}
		})
	}
	close(start)
	wg.Wait()
	if fresh != 1 || already != 7 || conflicts != 8 {
		t.Fatalf("fresh %d, already %d, conflicts %d; want 1, 7, 8", fresh, already, conflicts)
	}
	for _, c := range alreadyContent {
		if c != freshContent[0] {
			t.Errorf("%q reported already released, but %q was", c, freshContent[0])
		}
	}
	if got := read(t, dir, outboxDir, "p.xml"); got != freshContent[0] {
		t.Fatalf("outbox holds %q, released %q", got, freshContent[0])
	}
	if got := names(t, dir, outboxDir); !slices.Equal(got, []string{"p.xml"}) {
		t.Fatalf("outbox/ = %v: temporary files left", got)
	}
}

func TestAPartiallyWrittenOutboundFileIsNeverVisible(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	ctx := context.Background()
	const files, size = 20, 1 << 20
	want := map[string][]byte{}
	for i := range files {
		want[fmt.Sprintf("PAYOUT-%02d.xml", i)] = bytes.Repeat([]byte{byte('a' + i)}, size)
	}
	// A transfer agent polls the outbox while the files are released: every name it
	// sees (hidden ones aside, as the folder asks of it) holds the whole file.
	done := make(chan struct{})
	var wg sync.WaitGroup
	seen := 0
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			entries, err := os.ReadDir(filepath.Join(dir, outboxDir))
			if err != nil {
				t.Error(err)
				return
			}
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".") {
					continue
				}
				got, err := os.ReadFile(filepath.Join(dir, outboxDir, e.Name()))
				if err != nil {
					t.Error(err)
					return
				}
				seen++
				if !bytes.Equal(got, want[e.Name()]) {
					t.Errorf("%s was visible with %d of %d bytes", e.Name(), len(got), len(want[e.Name()]))
					return
				}
			}
		}
	})
	for name, data := range want {
		if _, err := f.Release(ctx, name, data); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	if seen == 0 {
		t.Log("the watcher saw no file while releasing; the test proved little this run")
	}
	if got := names(t, dir, outboxDir); len(got) != files {
		t.Fatalf("outbox/ = %v, want the %d files and nothing else", got, files)
	}
}

func TestATemporaryFileLeftByACrashIsNeverReleasedAndIsCleanedUp(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	ctx := context.Background()
	// A Release died half way through writing its temporary file.
	tmp := filepath.Join(dir, outboxDir, tempPrefix+"CRASHED")
	if err := os.WriteFile(tmp, []byte("<Document><CstmrCdtTrfInitn>"), 0o600); err != nil {
		t.Fatal(err)
	}
	if already, err := f.Release(ctx, "p.xml", []byte("whole")); err != nil || already {
		t.Fatalf("Release = %v, %v", already, err)
	}
	if _, err := f.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("a fresh temporary file was removed: it may be a write in progress (%v)", err)
	}
	old := time.Now().Add(-2 * staleTempAge)
	if err := os.Chtimes(tmp, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir, outboxDir); !slices.Equal(got, []string{"p.xml"}) {
		t.Fatalf("outbox/ = %v, want p.xml only", got)
	}
}

func TestNamesThatEscapeTheRootAreRefused(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "bank")
	if err := os.Mkdir(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	f := openFolder(t, dir)
	ctx := context.Background()
	bad := []string{
		"", ".", "..", "../escape.xml", "../../escape.xml", "a/b.xml", "/tmp/escape.xml", `a\b.xml`,
		".hidden.xml", "nul\x00.xml", "line\nbreak.xml", "\xff.xml", "p.xml.tmp", strings.Repeat("a", MaxNameLen+1),
	}
	for _, name := range bad {
		if _, err := f.Release(ctx, name, []byte("x")); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Release(%q) = %v, want ErrInvalidName", name, err)
		}
		c := Claim{Name: name, ID: name}
		if err := f.Processed(ctx, c); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Processed(ID %q) = %v, want ErrInvalidName", name, err)
		}
		c.ID = "20260302T183000Z-ABCDEFGHIJKLMNOP-" + name
		if err := f.Rejected(ctx, c, "reason"); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Rejected(ID %q) = %v, want ErrInvalidName", c.ID, err)
		}
	}
	if got := names(t, parent, "."); !slices.Equal(got, []string{"bank"}) {
		t.Fatalf("the root's parent holds %v", got)
	}
	if got := names(t, dir, outboxDir); len(got) != 0 {
		t.Fatalf("outbox/ = %v", got)
	}
	if _, err := f.Release(ctx, strings.Repeat("a", MaxNameLen), []byte("x")); err != nil {
		t.Fatalf("a name of MaxNameLen bytes: %v", err)
	}
}

func TestAClaimIDIsTheDeliveredNameBehindAUniquePrefix(t *testing.T) {
	at := time.Date(2026, 3, 2, 19, 30, 0, 0, time.FixedZone("CET", 3600))
	a, b := keptName("camt054.xml", at), keptName("camt054.xml", at)
	if a == b {
		t.Fatal("two claims of one name at one instant got the same ID")
	}
	if !strings.HasPrefix(a, "20260302T183000Z-") || len(a) != prefixLen+len("camt054.xml") {
		t.Fatalf("ID %q", a)
	}
	if !hasPrefix(a) || deliveredName(a) != "camt054.xml" || checkID(a) != nil {
		t.Fatalf("ID %q not recognised", a)
	}
	if deliveredName(keptName(a, at)) != a {
		t.Fatal("a recovered file claimed again does not keep its name")
	}
	for _, id := range []string{"camt054.xml", "20260302T183000Z-abcdefghijklmnop-x", "20260399T183000Z-ABCDEFGHIJKLMNOP-x", a[:prefixLen]} {
		if hasPrefix(id) || checkID(id) == nil {
			t.Errorf("%q taken for an ID", id)
		}
	}
}

func TestADoneContextStopsEveryOperation(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	deliver(t, dir, "x.xml", "x", 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Pending(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Pending: %v", err)
	}
	if _, err := f.Claim(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Claim: %v", err)
	}
	if _, err := f.Release(ctx, "p.xml", []byte("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("Release: %v", err)
	}
	if _, err := f.Recover(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Recover: %v", err)
	}
	if got := names(t, dir, inboxDir); !slices.Equal(got, []string{"x.xml"}) {
		t.Fatalf("inbox/ = %v", got)
	}
}

func TestOpenFolderCreatesItsSubdirectoriesAndNeedsItsRoot(t *testing.T) {
	dir := t.TempDir()
	openFolder(t, dir)
	if got := names(t, dir, "."); !slices.Equal(got, []string{"claimed", "inbox", "outbox", "processed", "rejected"}) {
		t.Fatalf("root holds %v", got)
	}
	openFolder(t, dir) // a second open finds them
	if _, err := OpenFolder(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing root was accepted")
	}
	file := t.TempDir()
	if err := os.WriteFile(filepath.Join(file, "inbox"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFolder(file); err == nil {
		t.Fatal("a root whose inbox is a file was accepted")
	}
}

func TestAMissingSubdirectoryIsAnErrorNotAnEmptyInbox(t *testing.T) {
	dir := t.TempDir()
	f := openFolder(t, dir)
	deliver(t, dir, "x.xml", "x", 0)
	if err := os.Remove(filepath.Join(dir, claimedDir)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Claim(context.Background()); err == nil || errors.Is(err, ErrInboxEmpty) {
		t.Fatalf("Claim = %v, want the error of the missing claimed/", err)
	}
	if got := names(t, dir, inboxDir); !slices.Equal(got, []string{"x.xml"}) {
		t.Fatalf("inbox/ = %v", got)
	}
}
