package ledger

import (
	"context"
	"fmt"
	"time"
)

// Payouts is the book of the money the fund sends: every payout (the proceeds of a
// SELL), refund (a cancelled BUY's payment) and residual refund (what a forward BUY by
// amount did not use) as an instruction, recorded before anything is released; the
// pain.001 files that carry them, recorded (with their bytes) before they are released;
// and what the bank reported back (pain.002). It is what makes a payout happen once: an
// instruction is keyed by its order and purpose, so asking twice records one; a file is
// recorded before it is handed to the connector and released under the same name with the
// same bytes after a crash, which the connector and the bank take for the same file.
//
// Its implementations are those of Store (internal/archive/sqlstore), in the same
// database; the same rules hold (safe for concurrent use, one transaction per write,
// typed errors ErrUnavailable, ErrInvalid, ErrAlreadyRecorded).
type Payouts interface {
	// Instruct records instructions, all or nothing. An instruction whose key
	// (Namespace, OrderID, Purpose, Source) is recorded already is left as it was (it is
	// not an error: the caller asked again after a crash or a lost race); the others get
	// increasing IDs in the order given. It returns how many it recorded. An instruction
	// whose EndToEndID another key holds is ErrInvalid, and so is a missing field
	// (Namespace and OrderID may be empty only for PurposeSuspenseRefund, which must
	// have a Source).
	Instruct(ctx context.Context, ps []Payout) (int, error)

	// Unfiled returns up to limit instructions that are in no file, by ID ascending
	// (limit 1 to 10,000: a file's worth).
	Unfiled(ctx context.Context, limit int) ([]Payout, error)

	// AddFile records an outbound file and puts the instructions of ids into it, all or
	// nothing: ErrAlreadyRecorded when the file's MessageID is recorded or any of the
	// instructions is in a file already; ErrInvalid when an id is unknown.
	AddFile(ctx context.Context, f OutFile, ids []int64) error

	// Unreleased returns the outbound files recorded and not released yet, with their
	// Data, oldest first (by CreatedAt, then MessageID).
	Unreleased(ctx context.Context) ([]OutFile, error)

	// MarkReleased records that the file was released at at; a file released before
	// keeps its first time. An unknown MessageID is ErrInvalid.
	MarkReleased(ctx context.Context, messageID string, at time.Time) error

	// Report records an inbound status report (pain.002) as a file, keyed by File.ID as
	// Store.Ingest keys files (ErrAlreadyRecorded when it was recorded, nothing written),
	// and sets the statuses it gives on the instructions they name (by the original
	// file's MessageID and the EndToEndID), all in one transaction. A status naming no
	// instruction of that file is left out. StatusRejected is final: a rejected
	// instruction keeps it. A status equal to the instruction's changes nothing; any
	// other (Instructed → Accepted or Rejected, Accepted → Rejected) sets Status,
	// BankStatus, Reason and StatusAt and makes the instruction Pending. Independently,
	// a status with a VoPResult different from the instruction's sets VoPResult and
	// VoPName and makes it Pending too (a status of StatusInstructed carries only a
	// Verification of Payee result: the bank verified the payee and has not decided yet).
	// It returns how many instructions changed.
	Report(ctx context.Context, f File, statuses []PayoutStatus) (int, error)

	// Released returns the instructions whose file was released and that are neither
	// Rejected nor returned (a Returned row of Store has their EndToEndID), for
	// reconcile.Input.Payouts. Those whose debit was recorded (a PaidOut row of Store has
	// their EndToEndID) come with Debited true, except that those whose debit row was
	// ingested before since are left out: since bounds the window in which a second
	// debit of the same payout is still caught.
	Released(ctx context.Context, since time.Time) ([]Payout, error)

	// PendingPayouts returns up to limit instructions whose status's effect on their
	// order is still to be written, by ID ascending (limit 1 to 1,000, as Store.Pending's);
	// PayoutsDone records it was written at at (IDs not pending or unknown are left alone).
	PendingPayouts(ctx context.Context, limit int) ([]Payout, error)
	PayoutsDone(ctx context.Context, ids []int64, at time.Time) error

	// ListPayouts pages through the instructions, newest first (by ID descending),
	// filtered by q, with the cursor of the next page ("" on the last one).
	ListPayouts(ctx context.Context, q PayoutQuery) ([]Payout, string, error)
}

// Purpose says why money is sent.
type Purpose string

const (
	// PurposePayout is a SELL's proceeds.
	PurposePayout Purpose = "Payout"
	// PurposeRefund is a cancelled BUY's payment, sent back.
	PurposeRefund Purpose = "Refund"
	// PurposeResidual is the part of a forward BUY by amount that bought no unit.
	PurposeResidual Purpose = "Residual"
	// PurposeExcess is what an overpaid BUY received above its amount due, sent back to
	// the account it came from. Its Source names the Overpaid row (RowSource).
	PurposeExcess Purpose = "Excess"
	// PurposeReturn is a payment an order will never use (the BUY was cancelled before
	// it was paid in full, or the payment arrived after it stopped waiting), sent back to
	// the account it came from. One per payment: its Source names the row (RowSource).
	PurposeReturn Purpose = "Return"
	// PurposeSuspenseRefund is a payment in suspense that an operator decided to send
	// back (DecisionRefund). It names no order; its Source is DecisionSource(name).
	PurposeSuspenseRefund Purpose = "SuspenseRefund"
)

// RowSource is the Source of an instruction that sends back the money of a row of Store:
// "entry/" and the row's entry reference and transaction.
func RowSource(entryReference string, transaction int) string {
	return fmt.Sprintf("entry/%s/%d", entryReference, transaction)
}

// DecisionSource is the Source of an instruction a decision made: "decision/" and its
// name.
func DecisionSource(name string) string { return "decision/" + name }

// ResendSource is the Source of a payout, refund or residual sent again after the bank
// rejected or returned it, as an operator's decision (a BankDecision Resend) asked:
// "resend/" and the decision's name. Those purposes have no other Source.
func ResendSource(name string) string { return "resend/" + name }

// Verification of Payee results (the EPC scheme's four), as a bank reports them for a
// transfer.
const (
	// VoPMatch: the name is the account holder's.
	VoPMatch = "MTCH"
	// VoPCloseMatch: the name is close to the account holder's, which the bank gives.
	VoPCloseMatch = "CMTC"
	// VoPNoMatch: the name is not the account holder's.
	VoPNoMatch = "NMTC"
	// VoPNotPossible: the payee's bank could not verify.
	VoPNotPossible = "NOAP"
)

// The statuses of an instruction: those of a pain.002 (ExternalPaymentTransactionStatus1
// codes) and StatusInstructed before any.
const (
	// StatusInstructed: recorded, no status reported yet.
	StatusInstructed = "Instructed"
	// StatusAccepted: the bank accepted the transfer (ACCP, ACTC, ACSP, ACSC, ACWC); the
	// order's sent evidence follows.
	StatusAccepted = "Accepted"
	// StatusRejected: the bank refused the transfer (RJCT); final. The order stalls and
	// an operator decides.
	StatusRejected = "Rejected"
)

// Payout is one instruction to send money, and where it stands. Amounts are money units
// (1 EUR = 10,000), whole cents.
type Payout struct {
	// ID is assigned by Instruct.
	ID int64
	// Namespace and OrderID name the order (both empty for PurposeSuspenseRefund);
	// Purpose why it is paid; Source what of the order it pays back, for purposes an
	// order can owe more than once (RowSource, DecisionSource), or the decision that
	// sends a payout, refund or residual again (ResendSource; "" the first time).
	Namespace, OrderID string
	Purpose            Purpose
	Source             string
	// EndToEndID travels with the transfer and comes back in pain.002 and camt files:
	// the order id. Unique among instructions.
	EndToEndID string
	// Amount and Currency are what is sent.
	Amount   int64
	Currency string
	// CreditorName and CreditorIBAN are the customer's bank account; RemittanceInfo what
	// the customer reads on the statement (at most 140 characters).
	CreditorName, CreditorIBAN, RemittanceInfo string
	// DebtorName and DebtorIBAN are the fund's account the money leaves.
	DebtorName, DebtorIBAN string
	// ExecutionDate is the day the bank is to pay (a date, UTC midnight).
	ExecutionDate time.Time
	// InstructedAt is when it was recorded.
	InstructedAt time.Time
	// FileMessageID is the MessageID of the file that carries it ("" while in none);
	// ReleasedAt when that file was released (zero while not).
	FileMessageID string
	ReleasedAt    time.Time
	// Status is StatusInstructed, StatusAccepted or StatusRejected; BankStatus the
	// pain.002 code (ACCP, RJCT, …) and Reason the bank's reason (code and text), as
	// reported at StatusAt.
	Status, BankStatus, Reason string
	StatusAt                   time.Time
	// VoPResult is the Verification of Payee result the bank reported (VoPMatch, …; ""
	// when none), VoPName the account holder's name it gave with a close match.
	VoPResult, VoPName string
	// Pending says the status's effect on the order is still to be written; AppliedAt is
	// when it was (zero while Pending and for instructions that never had one).
	Pending   bool
	AppliedAt time.Time
	// Debited (Released only) says the debit of the payout was recorded.
	Debited bool
}

// OutFile is one outbound file as recorded before its release.
type OutFile struct {
	// MessageID is the file's GrpHdr/MsgId, its key; Name the name it is released under.
	MessageID, Name string
	// DebtorIBAN and ExecutionDate are those of every instruction in it.
	DebtorIBAN    string
	ExecutionDate time.Time
	// CreatedAt is when it was recorded; ReleasedAt when released (zero while not).
	CreatedAt, ReleasedAt time.Time
	// SHA256 is the lower-case hex SHA-256 of Data; Transfers how many instructions it
	// carries.
	SHA256    string
	Transfers int
	// Data is the file's content (Unreleased fills it; listings may not).
	Data []byte
}

// PayoutStatus is one status a pain.002 reports.
type PayoutStatus struct {
	// OriginalMessageID is the MsgId of the pain.001 reported on; EndToEndID the
	// transfer's.
	OriginalMessageID, EndToEndID string
	// Status is StatusAccepted or StatusRejected, or StatusInstructed for a status that
	// only carries a Verification of Payee result (statuses without an effect, such as
	// RCVD or PDNG, and without a result are not reported here); BankStatus the code as
	// given; Reason the bank's reason.
	Status, BankStatus, Reason string
	// VoPResult and VoPName are the Verification of Payee result reported with it, if
	// any (Payout's).
	VoPResult, VoPName string
	// At is when the report was made.
	At time.Time
}

// PayoutQuery filters ListPayouts. Empty fields do not filter.
type PayoutQuery struct {
	// Statuses keeps instructions of these statuses; Purposes of these purposes.
	Statuses []string
	Purposes []Purpose
	// EndToEndID keeps the instruction of that end-to-end id.
	EndToEndID string
	// Namespace and OrderID keep one tenant's instructions, or one order's (both set).
	Namespace, OrderID string
	// FileMessageID keeps one file's instructions.
	FileMessageID string
	// Limit is the page size (0 means 100, at most 1,000); Cursor is the previous page's.
	Limit  int
	Cursor string
}
