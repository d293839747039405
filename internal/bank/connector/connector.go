package connector

import (
	"context"
	"errors"
	"time"
)

// Connector is the fund's side of the bank channel: inbound files to claim and finish,
// outbound files to release. The package documentation lists what an implementation
// guarantees. Implementations are safe for concurrent use.
type Connector interface {
	// Pending lists the inbound files waiting to be claimed, oldest first, ties by
	// name. It is a snapshot: another consumer may claim any of them at once.
	Pending(ctx context.Context) ([]Inbound, error)
	// Claim claims the next inbound file and returns it with its content. It returns
	// ErrInboxEmpty when no file is waiting (or every waiting file was claimed by
	// another consumer first). The caller finishes the claim with Processed or
	// Rejected; until then no other consumer gets the file.
	Claim(ctx context.Context) (Claim, error)
	// Processed marks a claimed file as processed; it is kept. It returns an error
	// wrapping ErrNotClaimed when the claim is not held (already finished, or taken
	// back by Recover).
	Processed(ctx context.Context, c Claim) error
	// Rejected marks a claimed file as refused; it is kept, with reason beside it.
	// reason must not be blank. It returns an error wrapping ErrNotClaimed when the
	// claim is not held.
	Rejected(ctx context.Context, c Claim, reason string) error
	// Release makes data available to the bank under name, atomically. When a file of
	// that name was released before with the same bytes it does nothing and returns
	// alreadyReleased true; with different bytes it returns an error wrapping
	// ErrConflict and leaves the released file as it is.
	Release(ctx context.Context, name string, data []byte) (alreadyReleased bool, err error)
	// Recover offers again every file claimed and not finished by an earlier run (a
	// consumer that died) and returns how many. Call it once at start, before
	// claiming, while no other consumer of the same channel runs: it cannot tell a
	// dead consumer from a slow one.
	Recover(ctx context.Context) (int, error)
}

// Uploader is implemented by a connector that can put a file into its own inbound queue as
// if the bank had delivered it: an operator's upload of a file the bank sent by another
// way (e-mail, the bank's portal). It is optional: a consumer of a Connector asks for it
// with a type assertion. The package documentation lists what an implementation
// guarantees. Folder implements it.
type Uploader interface {
	// Deliver puts data into the inbound queue under name, atomically (whole or not at
	// all), where Pending and Claim find it as any delivered file. A file of that name
	// already waiting, being worked on or processed with the same bytes is returned as
	// it is and nothing is written (a retried upload delivers once); one waiting with
	// different bytes is an error wrapping ErrConflict, and the waiting file stays as it
	// is. A name refused by CheckName is an error wrapping ErrInvalidName.
	Deliver(ctx context.Context, name string, data []byte) (Inbound, error)
}

// Inbound is an inbound file waiting to be claimed.
type Inbound struct {
	// Name is the file's name as the bank (or its transfer agent) delivered it.
	Name string
	// Size is its length in bytes.
	Size int64
	// DeliveredAt is when it was delivered (for the folder: its modification time).
	DeliveredAt time.Time
}

// Claim is an inbound file held by one consumer.
type Claim struct {
	// Name is the file's name as delivered.
	Name string
	// ID identifies the claim to Processed and Rejected. It is the implementation's
	// handle, opaque to the consumer (for the folder: the file's name in claimed/,
	// which it keeps in processed/ or rejected/), and unique: two deliveries of files
	// with the same Name have different IDs.
	ID string
	// DeliveredAt is when the file was delivered.
	DeliveredAt time.Time
	// Data is the file's content.
	Data []byte
}

// MaxNameLen is the longest name, in bytes, of an inbound or outbound file. The folder
// adds a prefix and a ".reason" suffix, and most file systems stop at 255 bytes.
const MaxNameLen = 200

var (
	// ErrInboxEmpty is returned by Claim when no file is waiting.
	ErrInboxEmpty = errors.New("no inbound file is waiting")
	// ErrNotClaimed is wrapped by Processed and Rejected when the claim is not held.
	ErrNotClaimed = errors.New("the file is not claimed")
	// ErrConflict is wrapped by Release when a file of the same name was released with
	// different content, and by Deliver when one is waiting in the inbound queue.
	ErrConflict = errors.New("a different file already has this name")
	// ErrInvalidName is wrapped when a name or claim ID is not a single, plain path
	// element of at most MaxNameLen bytes.
	ErrInvalidName = errors.New("invalid file name")
)
