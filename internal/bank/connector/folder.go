package connector

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// The subdirectories of a folder's root.
const (
	inboxDir     = "inbox"
	claimedDir   = "claimed"
	processedDir = "processed"
	rejectedDir  = "rejected"
	outboxDir    = "outbox"
)

const (
	// DefaultMaxFileSize is the largest inbound file a Folder reads unless told
	// otherwise: 64 MiB, some twenty times a camt.054 of 10,000 entries.
	DefaultMaxFileSize int64 = 64 << 20

	// reasonSuffix names the reason written beside a rejected file.
	reasonSuffix = ".reason"
	// tempPrefix starts the hidden names files are written under before they are
	// published.
	tempPrefix = ".tmp-"
	// uploadTempPrefix starts the hidden names Deliver writes under in inbox/: a prefix
	// of its own, so that Recover removes its leftovers there and never a file the
	// transfer agent is still writing under a hidden name.
	uploadTempPrefix = tempPrefix + "upload-"
	// staleTempAge is how old a temporary file must be before Recover removes it: a
	// write of this age is not in progress.
	staleTempAge = time.Hour

	dirMode  fs.FileMode = 0o750
	fileMode fs.FileMode = 0o600
)

// Folder is a Connector over a directory shared with the bank's file-transfer agent.
// The package documentation describes its layout and what it asks of the agent. A
// Folder is safe for concurrent use, and several Folders (in one process or several)
// may share a root. Close it when done.
type Folder struct {
	root        *os.Root
	maxFileSize int64
	now         func() time.Time
}

var (
	_ Connector = (*Folder)(nil)
	_ Uploader  = (*Folder)(nil)
)

// Option configures a Folder.
type Option func(*Folder)

// WithMaxFileSize sets the largest inbound file Claim reads, in bytes; a larger file is
// rejected with a reason. A limit below 1 leaves DefaultMaxFileSize.
func WithMaxFileSize(n int64) Option {
	return func(f *Folder) {
		if n > 0 {
			f.maxFileSize = n
		}
	}
}

// OpenFolder opens the folder rooted at dir, which must exist, and creates its
// subdirectories (inbox, claimed, processed, rejected, outbox) where they are missing.
func OpenFolder(dir string, opts ...Option) (*Folder, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open bank folder: %w", err)
	}
	for _, d := range []string{inboxDir, claimedDir, processedDir, rejectedDir, outboxDir} {
		if err := root.Mkdir(d, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, errors.Join(fmt.Errorf("open bank folder %s: create %s/: %w", dir, d, err), root.Close())
		}
		if info, err := root.Lstat(d); err != nil || !info.IsDir() {
			return nil, errors.Join(fmt.Errorf("open bank folder %s: %s is not a directory", dir, d), err, root.Close())
		}
	}
	f := &Folder{root: root, maxFileSize: DefaultMaxFileSize, now: time.Now}
	for _, o := range opts {
		o(f)
	}
	return f, nil
}

// Close releases the folder's handle on its root directory.
func (f *Folder) Close() error { return f.root.Close() }

// Pending lists the files offered in inbox/, oldest modification time first, ties by
// name. Hidden, temporary and refused names and anything but regular files are left
// out.
func (f *Folder) Pending(ctx context.Context) ([]Inbound, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	entries, err := f.readDir(inboxDir)
	if err != nil {
		return nil, err
	}
	out := make([]Inbound, 0, len(entries))
	for _, e := range entries {
		if !e.Type().IsRegular() || !offered(e.Name()) {
			continue
		}
		info, err := f.root.Lstat(path.Join(inboxDir, e.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			continue // claimed by another consumer since the listing
		}
		if err != nil {
			return nil, fmt.Errorf("list the inbox: %w", err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		out = append(out, Inbound{Name: e.Name(), Size: info.Size(), DeliveredAt: info.ModTime()})
	}
	slices.SortFunc(out, func(a, b Inbound) int {
		if c := a.DeliveredAt.Compare(b.DeliveredAt); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// Claim claims the oldest offered file of inbox/ by renaming it into claimed/, and
// reads it. A file another consumer renames first is skipped; a file larger than the
// limit (or no longer a regular file) is rejected with a reason and skipped.
func (f *Folder) Claim(ctx context.Context) (Claim, error) {
	pending, err := f.Pending(ctx)
	if err != nil {
		return Claim{}, err
	}
	for _, p := range pending {
		if err := ctx.Err(); err != nil {
			return Claim{}, err
		}
		c, ok, err := f.claim(ctx, p.Name)
		if err != nil || ok {
			return c, err
		}
	}
	return Claim{}, ErrInboxEmpty
}

// claim claims inbox/name: ok is false when another consumer took it first or the file
// was rejected unread.
func (f *Folder) claim(ctx context.Context, name string) (c Claim, ok bool, err error) {
	kept := keptName(name, f.now())
	if err := f.root.Rename(path.Join(inboxDir, name), path.Join(claimedDir, kept)); err != nil {
		if errors.Is(err, fs.ErrNotExist) && !f.exists(path.Join(inboxDir, name)) {
			return Claim{}, false, nil // another consumer's rename came first
		}
		return Claim{}, false, fmt.Errorf("claim inbound file %q: %w", name, err)
	}
	// No fsync here: a claim lost in a crash leaves the file in the inbox, which
	// at-least-once delivery allows.
	c = Claim{Name: name, ID: kept}
	var refusal string
	c.Data, c.DeliveredAt, refusal, err = f.read(path.Join(claimedDir, kept))
	if err != nil {
		// Give the file back at once rather than hold it until the next Recover.
		return Claim{}, false, errors.Join(fmt.Errorf("read claimed file %q: %w", name, err), f.unclaim(kept))
	}
	if refusal != "" {
		if err := f.Rejected(ctx, c, refusal); err != nil {
			return Claim{}, false, err
		}
		return Claim{}, false, nil
	}
	return c, true, nil
}

// read reads a claimed file. refusal is why it is not read: not a regular file, or
// larger than the limit.
func (f *Folder) read(name string) (data []byte, modTime time.Time, refusal string, err error) {
	info, err := f.root.Lstat(name)
	if err != nil {
		return nil, time.Time{}, "", err
	}
	if !info.Mode().IsRegular() {
		return nil, time.Time{}, "refused unread: not a regular file", nil
	}
	if info.Size() > f.maxFileSize {
		return nil, time.Time{}, tooLarge(info.Size(), f.maxFileSize), nil
	}
	file, err := f.root.Open(name)
	if err != nil {
		return nil, time.Time{}, "", err
	}
	defer file.Close()
	data, err = io.ReadAll(io.LimitReader(file, f.maxFileSize+1))
	if err != nil {
		return nil, time.Time{}, "", err
	}
	if int64(len(data)) > f.maxFileSize { // it grew after the Lstat
		return nil, time.Time{}, tooLarge(int64(len(data)), f.maxFileSize), nil
	}
	return data, info.ModTime(), "", nil
}

func tooLarge(size, limit int64) string {
	return fmt.Sprintf("refused unread: the file has %d bytes or more, the limit is %d", size, limit)
}

// Processed moves a claimed file to processed/.
func (f *Folder) Processed(ctx context.Context, c Claim) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkID(c.ID); err != nil {
		return fmt.Errorf("mark processed: %w", err)
	}
	if err := f.move(claimedDir, processedDir, c.ID); err != nil {
		return fmt.Errorf("mark %q processed: %w", c.ID, err)
	}
	return nil
}

// Rejected writes reason to rejected/ID.reason, then moves the claimed file to
// rejected/ID. Should the process die between the two, Recover finishes the move.
func (f *Folder) Rejected(ctx context.Context, c Claim, reason string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkID(c.ID); err != nil {
		return fmt.Errorf("mark rejected: %w", err)
	}
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("mark %q rejected: the reason is blank", c.ID)
	}
	if _, err := f.root.Lstat(path.Join(claimedDir, c.ID)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = ErrNotClaimed
		}
		return fmt.Errorf("mark %q rejected: %w", c.ID, err)
	}
	if !strings.HasSuffix(reason, "\n") {
		reason += "\n"
	}
	reasonName := c.ID + reasonSuffix
	wrote := true
	if err := f.publish(rejectedDir, reasonName, []byte(reason)); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("mark %q rejected: write the reason: %w", c.ID, err)
		}
		wrote = false // an earlier attempt wrote it and died before the move: keep the first
	}
	if err := f.move(claimedDir, rejectedDir, c.ID); err != nil {
		if wrote && errors.Is(err, ErrNotClaimed) {
			// Finished by someone else meanwhile: leave no reason without its file.
			err = errors.Join(err, f.root.Remove(path.Join(rejectedDir, reasonName)))
		}
		return fmt.Errorf("mark %q rejected: %w", c.ID, err)
	}
	return nil
}

// move renames dir from/name to dir to/name and makes both directories durable.
func (f *Folder) move(from, to, name string) error {
	if err := f.root.Rename(path.Join(from, name), path.Join(to, name)); err != nil {
		if errors.Is(err, fs.ErrNotExist) && !f.exists(path.Join(from, name)) {
			return ErrNotClaimed
		}
		return err
	}
	return errors.Join(f.syncDir(to), f.syncDir(from))
}

// Release publishes data as outbox/name, never replacing a file of that name.
func (f *Folder) Release(ctx context.Context, name string, data []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if err := checkName(name); err != nil {
		return false, fmt.Errorf("release: %w", err)
	}
	if len(data) == 0 {
		return false, fmt.Errorf("release %q: the file is empty", name)
	}
	if released, err := f.released(name, data); err != nil || released {
		return released, err
	}
	err := f.publish(outboxDir, name, data)
	if errors.Is(err, fs.ErrExist) {
		return f.released(name, data) // a concurrent release of the same name came first
	}
	if err != nil {
		return false, fmt.Errorf("release %q: %w", name, err)
	}
	return false, nil
}

// released reports whether outbox/name holds data; it returns an error wrapping
// ErrConflict when it holds something else.
func (f *Folder) released(name string, data []byte) (bool, error) {
	p := path.Join(outboxDir, name)
	info, err := f.root.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("release %q: %w", name, err)
	case !info.Mode().IsRegular() || info.Size() != int64(len(data)):
		return false, conflict(name)
	}
	old, err := f.root.ReadFile(p)
	if err != nil {
		return false, fmt.Errorf("release %q: read the released file: %w", name, err)
	}
	if !bytes.Equal(old, data) {
		return false, conflict(name)
	}
	return true, nil
}

func conflict(name string) error {
	return fmt.Errorf("release %q: %w; the released file is kept as it is", name, ErrConflict)
}

// publish makes dir/name appear with data, whole or not at all: data is written and
// fsynced under a hidden temporary name, hard-linked to name (which fails, wrapping
// fs.ErrExist, when name exists: nothing is ever replaced), and the directory is
// fsynced.
func (f *Folder) publish(dir, name string, data []byte) error {
	return f.publishVia(dir, tempPrefix, name, data)
}

// publishVia is publish with the temporary name starting with prefix.
func (f *Folder) publishVia(dir, prefix, name string, data []byte) error {
	tmp := path.Join(dir, prefix+rand.Text())
	file, err := f.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	_, werr := file.Write(data)
	if err := errors.Join(werr, file.Sync(), file.Close()); err != nil {
		return errors.Join(err, f.root.Remove(tmp))
	}
	err = f.root.Link(tmp, path.Join(dir, name))
	// The temporary name goes either way. Should the removal fail after a successful
	// link, the file is published all the same, and Recover removes the leftover.
	_ = f.root.Remove(tmp)
	if err != nil {
		return err
	}
	return f.syncDir(dir)
}

// Deliver publishes data as inbox/name, as the transfer agent delivers a file: written
// and fsynced under a hidden temporary name in inbox/, hard-linked to name (never
// replacing a file of that name: a rename would), the temporary name removed and the
// directory fsynced. Before writing it looks for name where a delivered file goes, in
// the order files move: inbox/, claimed/, processed/. The same bytes found there are
// returned as they are (DeliveredAt is when they were delivered) and nothing is written;
// different bytes waiting in inbox/ are ErrConflict. A name claimed or processed with
// different bytes is a new delivery of that name, kept beside the first as every
// delivery is; a file rejected before is delivered again (an operator's retry after
// putting right what refused it).
func (f *Folder) Deliver(ctx context.Context, name string, data []byte) (Inbound, error) {
	if err := ctx.Err(); err != nil {
		return Inbound{}, err
	}
	if err := checkName(name); err != nil {
		return Inbound{}, fmt.Errorf("deliver: %w", err)
	}
	if len(data) == 0 {
		return Inbound{}, fmt.Errorf("deliver %q: the file is empty", name)
	}
	if int64(len(data)) > f.maxFileSize {
		return Inbound{}, fmt.Errorf("deliver %q: the file has %d bytes, the limit is %d", name, len(data), f.maxFileSize)
	}
	// A file of that name that arrives between the look and the link makes the link fail;
	// then the look is made again. It can fail again only if that file was claimed and
	// finished meanwhile, and another of the same name arrived: three rounds are plenty.
	for range 3 {
		if in, found, err := f.delivered(name, data); err != nil || found {
			return in, err
		}
		err := f.publishVia(inboxDir, uploadTempPrefix, name, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return Inbound{}, fmt.Errorf("deliver %q: %w", name, err)
		}
		at := f.now()
		if info, err := f.root.Lstat(path.Join(inboxDir, name)); err == nil {
			at = info.ModTime() // else claimed already: now is close enough
		}
		return Inbound{Name: name, Size: int64(len(data)), DeliveredAt: at}, nil
	}
	return Inbound{}, fmt.Errorf("deliver %q: other files of that name kept arriving; try again", name)
}

// delivered looks for data delivered as name: waiting in inbox/ (a different file there
// is ErrConflict), being worked on in claimed/, or processed.
func (f *Folder) delivered(name string, data []byte) (Inbound, bool, error) {
	p := path.Join(inboxDir, name)
	info, err := f.root.Lstat(p)
	switch {
	case err == nil:
		same, err := f.holds(p, info, data)
		if err != nil {
			return Inbound{}, false, fmt.Errorf("deliver %q: %w", name, err)
		}
		if !same {
			return Inbound{}, false, fmt.Errorf("deliver %q: %w: it waits in the inbox and is kept as it is", name, ErrConflict)
		}
		return Inbound{Name: name, Size: info.Size(), DeliveredAt: info.ModTime()}, true, nil
	case errors.Is(err, fs.ErrNotExist):
	default:
		return Inbound{}, false, fmt.Errorf("deliver %q: %w", name, err)
	}
	for _, dir := range []string{claimedDir, processedDir} {
		entries, err := f.readDir(dir)
		if err != nil {
			return Inbound{}, false, fmt.Errorf("deliver %q: %w", name, err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !hasPrefix(e.Name()) || deliveredName(e.Name()) != name {
				continue
			}
			p := path.Join(dir, e.Name())
			info, err := f.root.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue // moved on since the listing (claimed/ to processed/, looked at next)
			}
			if err != nil {
				return Inbound{}, false, fmt.Errorf("deliver %q: %w", name, err)
			}
			same, err := f.holds(p, info, data)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return Inbound{}, false, fmt.Errorf("deliver %q: %w", name, err)
			}
			if same {
				return Inbound{Name: name, Size: info.Size(), DeliveredAt: info.ModTime()}, true, nil
			}
		}
	}
	return Inbound{}, false, nil
}

// holds reports whether the file p, of the given Lstat, is a regular file holding data.
func (f *Folder) holds(p string, info fs.FileInfo, data []byte) (bool, error) {
	if !info.Mode().IsRegular() || info.Size() != int64(len(data)) {
		return false, nil
	}
	old, err := f.root.ReadFile(p)
	if err != nil {
		return false, err
	}
	return bytes.Equal(old, data), nil
}

// Recover moves every file of claimed/ back to inbox/: under its delivered name, or
// under its claimed name when a new file of the delivered name is in the inbox. A file
// whose reason is already in rejected/ is moved there instead, finishing its
// rejection. It also removes temporary files left by interrupted writes.
func (f *Folder) Recover(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	entries, err := f.readDir(claimedDir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		kept := e.Name()
		if strings.HasPrefix(kept, ".") || !e.Type().IsRegular() {
			continue // not a claim: the folder claims regular files only
		}
		_, err := f.root.Lstat(path.Join(rejectedDir, kept+reasonSuffix))
		switch {
		case err == nil:
			if err := f.move(claimedDir, rejectedDir, kept); err != nil && !errors.Is(err, ErrNotClaimed) {
				return n, fmt.Errorf("recover: finish the rejection of %q: %w", kept, err)
			}
			continue
		case !errors.Is(err, fs.ErrNotExist):
			return n, fmt.Errorf("recover %q: %w", kept, err)
		}
		if err := f.unclaim(kept); err != nil {
			return n, fmt.Errorf("recover %q: %w", kept, err)
		}
		n++
	}
	if err := errors.Join(f.syncDir(inboxDir), f.syncDir(claimedDir)); err != nil {
		return n, fmt.Errorf("recover: %w", err)
	}
	if err := errors.Join(f.removeStaleTemps(outboxDir, tempPrefix), f.removeStaleTemps(rejectedDir, tempPrefix),
		f.removeStaleTemps(inboxDir, uploadTempPrefix)); err != nil {
		return n, fmt.Errorf("recover: %w", err)
	}
	return n, nil
}

// unclaim puts claimed/kept back into the inbox without replacing anything there: a
// hard link, then the claimed name is removed. An earlier unclaim that died between
// the two left the same file under both names, which is recognised.
func (f *Folder) unclaim(kept string) error {
	from := path.Join(claimedDir, kept)
	var err error
	for _, name := range []string{deliveredName(kept), kept} {
		to := path.Join(inboxDir, name)
		if err = f.root.Link(from, to); err == nil || !errors.Is(err, fs.ErrExist) {
			break
		}
		if f.sameFile(from, to) {
			err = nil
			break
		}
	}
	if err != nil {
		return fmt.Errorf("put back into the inbox: %w", err)
	}
	return f.root.Remove(from)
}

// exists reports whether name exists. Renames call it after failing with
// fs.ErrNotExist, to tell a source that is gone (another consumer took it) from a
// destination directory that is missing (an error to report, not a lost race).
func (f *Folder) exists(name string) bool {
	_, err := f.root.Lstat(name)
	return err == nil
}

func (f *Folder) sameFile(a, b string) bool {
	ia, err := f.root.Lstat(a)
	if err != nil {
		return false
	}
	ib, err := f.root.Lstat(b)
	return err == nil && os.SameFile(ia, ib)
}

// removeStaleTemps removes the temporary files in dir, named with prefix, older than
// staleTempAge.
func (f *Folder) removeStaleTemps(dir, prefix string) error {
	entries, err := f.readDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := path.Join(dir, e.Name())
		info, err := f.root.Lstat(p)
		if err != nil || f.now().Sub(info.ModTime()) < staleTempAge {
			continue
		}
		if err := f.root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (f *Folder) readDir(dir string) ([]fs.DirEntry, error) {
	d, err := f.root.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s/: %w", dir, err)
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s/: %w", dir, err)
	}
	return entries, nil
}

// syncDir fsyncs a directory, so that the names created, renamed or removed in it
// survive a crash.
func (f *Folder) syncDir(dir string) error {
	d, err := f.root.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
