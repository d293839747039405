// Package connector moves the fund's bank files between the bank and the operator:
// inbound files the bank delivers (camt.053 statements, camt.054 notifications, pain.002
// status reports) and outbound files the fund releases (pain.001 credit transfers). It
// moves bytes only: it never parses a file (the consumer detects the type from the
// file's namespace with iso20022.Detect) and never decides what a file means.
//
// Connector is the interface a consumer programs against; Folder implements it over a
// directory that a file-transfer agent (an EBICS client, an SFTP job) shares with the
// operator. An EBICS or bank-API implementation may come later and must give the same
// guarantees.
//
// # What every implementation guarantees
//
//   - Exclusive claims. A claimed inbound file is held by at most one consumer at a time:
//     two consumers that race for the same file (goroutines, processes, replicas on the
//     same folder) never both get it.
//   - Nothing is deleted. A claimed file ends either processed or rejected, and is kept
//     in both cases; a rejected file keeps the consumer's reason beside it.
//   - At-least-once delivery. A file claimed and neither processed nor rejected (the
//     consumer died, the machine rebooted) is offered again after Recover. The same
//     bytes may therefore be delivered more than once, and a bank may itself deliver a
//     file twice: consumers deduplicate by content (a statement's entries by the bank's
//     entry reference, a status report by its message id), never by file name or by
//     trusting that a file comes once.
//   - Delivery order. Inbound files are offered oldest first (the time the bank
//     delivered them), ties broken by name, so that a day's notifications are read
//     before the statement that closes the day when the bank delivered them in that
//     order. Consumers must still not depend on order across files.
//   - Atomic release. An outbound file is visible to the bank either whole, with every
//     byte durably written, or not at all: never a partial file.
//   - No overwrite. An outbound file is released under a name the caller chooses and
//     keeps unique (the payout batch's message id, say). Releasing a name again with the
//     same bytes does nothing and reports that the file was already released; with
//     different bytes it is an error (ErrConflict) and the released file stays as it
//     is. An implementation never replaces a released file.
//   - Delivery by the operator (Uploader, optional). Deliver puts a file into the
//     inbound queue as if the bank had delivered it: atomically (whole, every byte
//     durably written, or not at all), offered by Pending and Claim like any delivered
//     file, in the same order and with the same guarantees. It is idempotent by name and
//     content: a file of that name already waiting, being worked on or processed with
//     the same bytes is returned as it is and nothing is written, so a retried upload
//     delivers once; the same name waiting with different bytes is an error
//     (ErrConflict) and the waiting file stays as it is. A name once processed or
//     rejected may be delivered again with other bytes (banks reuse names) and is kept
//     beside the first; a rejected file may be delivered again with the same bytes (an
//     operator's retry). Deliver never parses the file either: whoever offers the
//     upload checks it first (the REST facade parses it with package iso20022), and the
//     consumer still deduplicates by content.
//   - Names stay inside. Names are single path elements: a name that could reach
//     outside the connector's storage ("..", a "/", a leading "."), a control character
//     or more than MaxNameLen bytes is refused with ErrInvalidName.
//
// What no connector can guarantee, and the caller must: a payout is paid once because
// its transfer is recorded before the file is released and the record names the file
// (issue 27); the no-overwrite rule above is a second line of defence, not the first.
//
// # The folder
//
// Folder is rooted at one directory with five subdirectories, created on open:
//
//	inbox/      the transfer agent delivers here
//	claimed/    files being worked on: a claim is one rename out of inbox/
//	processed/  files the consumer processed, kept
//	rejected/   files the consumer refused, kept, each with "<name>.reason" beside it
//	outbox/     released files, for the transfer agent to send
//
// A claim renames inbox/NAME to claimed/PREFIX-NAME, where PREFIX is the claim's UTC
// time and 64 random bits (20260302T183000Z-0123456789abcdef). The rename is atomic, so
// of two claimers only one finds the file; the prefix makes the name unique, so that a
// file delivered again under the same name is kept beside the first and never replaces
// it. The file keeps that name in processed/ and rejected/, where it sorts by claim
// time. Recover moves what is left in claimed/ back to inbox/ under its delivered name
// (or, when a new file of that name has arrived meanwhile, under its claimed name) and
// finishes rejections whose reason was written before the process died. Recover cannot
// tell a dead consumer from a slow one: call it at start, before claiming, while no
// other consumer of the same root runs (the operator's leader election gives that).
//
// Release writes the file under a hidden temporary name in outbox/, fsyncs it, links
// it to its name (a hard link fails when the name exists, so a concurrent release is
// never overwritten), removes the temporary name and fsyncs the directory.
//
// Deliver writes the same way into inbox/, under a hidden temporary name of its own
// (".tmp-upload-..."), links it to its name and fsyncs the directory: never a rename,
// which would replace a file of that name the agent delivered a moment before. Recover
// removes those temporary names when an interrupted Deliver left one behind (older than
// an hour), and no other hidden file of the inbox, which may be the agent's write in
// progress.
//
// What the folder asks of its environment:
//
//   - The transfer agent delivers a file whole: it writes under a hidden name (leading
//     ".") or a temporary suffix (".tmp", ".part", ".partial", ".filepart", or a trailing
//     "~") and renames. Such files are never offered, nor are directories, symbolic
//     links and other non-regular files, nor names refused as above (those stay in the
//     inbox for an operator to rename).
//   - The transfer agent sends outbox/ files and ignores hidden ones. It should leave a
//     sent file in place: the no-overwrite check sees only what is in outbox/.
//   - The root is on a local POSIX file system with atomic rename and hard links (ext4,
//     xfs, tmpfs, NFS; not SMB).
//   - Files are created with mode 0600 and directories 0750: they hold names and IBANs.
//
// A file larger than the folder's limit (WithMaxFileSize, DefaultMaxFileSize) is
// rejected by Claim itself, with a reason, instead of being read into memory, so that a
// misplaced file cannot stop ingestion by crashing the consumer on every restart.
package connector
