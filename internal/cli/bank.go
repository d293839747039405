package cli

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// bankHelp describes "bank".
const bankHelp = `Usage:
  PROG bank files   --archive-dsn DSN [-o table|json|yaml] [--limit N] [--cursor C]
  PROG bank entries --archive-dsn DSN [-o table|json|yaml] [--kind K]... [--open] [-n NS [--order ID]] [--file ID] [--limit N] [--cursor C]
  PROG bank payouts --archive-dsn DSN [-o table|json|yaml] [--status S]... [-n NS [--order ID]] [--file MSGID] [--limit N] [--cursor C]
  PROG bank upload FILE --server URL (--token TOKEN | --token-file PATH) [--name NAME] [-o table|json|yaml]

Reads the bank ledger: every bank file (camt.054, camt.053, pain.002) the operator
ingested, the outcome decided for every transaction of its booked entries, and the payout
instructions of the money the fund sends (see docs/bank.md). "files" prints the files,
newest first, with how many transactions had each outcome; "entries" prints the ledger's
rows, newest first, only those of the kinds given by --kind (repeated, or separated by
commas), of one tenant (-n), of one order (-n and --order) or of one file (--file, the ID
"files" prints). All three print on stderr the --cursor of the next page when there is one.

The kinds of entries:
  Matched        a payment that brings its order's received total to the amount due
  Underpaid      a payment for an order whose received total is still below the amount due
  Overpaid       a payment above the amount due: the order executes, the excess is owed back
  Unmatched      suspense: no order, or no single order, fits; REASON says why
  WrongCurrency  suspense: a payment for a known order or payout in another currency
  Returned       a payout or refund of the fund that came back
  PaidOut        the debit of a payout or refund of the fund: the money left
Duplicate and Ignored transactions (recorded already; not booked) are counted in "files"
but have no entries. An entry an operator's decision settled, or recorded (an assignment's,
whose ENTRY is decision/ and the decision's name), shows it under DECISION. What is in
suspense, for an operator to decide on (a BankDecision: assign, refund, settled outside):

  PROG bank entries --open

"payouts" prints the instructions to send money, newest first: a SELL's proceeds (Payout),
a cancelled BUY's payment (Refund), the part of a forward BUY by amount that bought no unit
(Residual), an overpayment's excess (Excess), a payment an order will not use (Return),
a payment in suspense an operator decided to send back (SuspenseRefund, which names no
order). Each shows its order, amount, the creditor's IBAN masked (only its last four
characters, in every output format), the pain.001 file that carries it (FILE, its message
id: what --file takes; "-" while in none), when that file was released, and what the bank
reported (pain.002): STATUS, the bank's code and its reason, and the result of its
Verification of Payee (VOP: MTCH, CMTC with the name the bank has, NMTC, NOAP). It prints only those of the
statuses given by --status (repeated, or separated by commas), of one tenant (-n), of one
order (-n and --order) or of one file (--file) when they are given.

The statuses of an instruction:
  Instructed  recorded, filed or waiting for a file; the bank reported nothing yet
  Accepted    the bank accepted the transfer (ACCP, ACSC, ...)
  Rejected    the bank refused it (RJCT, REASON says why); final. Rejected payouts are the
              operator's: the order stalls until an operator decides (see docs/bank.md)
What an operator has to look at:

  PROG bank payouts --status Rejected

"upload" is an operator's action, not a read: it uploads a bank file the bank sent another
way through the REST facade's operator route, with a Kubernetes token (see PROG bank upload
--help).

The ledger is opened read-only, in the order archive's database: nothing is written, and a
SQLite file that does not exist is an error, never a new empty archive. The ledger is the
fund's, across tenants: without -n, "entries" and "payouts" list every tenant's (-n does
not default to the kubeconfig context's namespace; the cluster is not contacted).
`

// bankKinds are the kinds of the ledger's rows, as --kind takes them.
var bankKinds = []string{
	string(reconcile.Matched), string(reconcile.Underpaid), string(reconcile.Overpaid),
	string(reconcile.Unmatched), string(reconcile.WrongCurrency), string(reconcile.Returned),
	string(reconcile.PaidOut),
}

// payoutStatuses are the statuses of payout instructions, as --status takes them.
var payoutStatuses = []string{ledger.StatusInstructed, ledger.StatusAccepted, ledger.StatusRejected}

// bankLimit is the largest page the ledger serves.
const bankLimit = 1000

// runBank runs "bank files|entries|payouts".
func runBank(p *Program, args []string) error {
	verb, err := p.verb("bank", bankHelp, args, "files", "entries", "payouts", "upload")
	if err != nil {
		return err
	}
	if verb == "upload" {
		return runBankUpload(p, args)
	}
	path := "bank " + verb
	f := p.newFlags(path, bankHelp)
	gofs := flag.NewFlagSet(path, flag.ContinueOnError)
	dsn := archive.BindDSNFlag(gofs, "")
	f.AddGoFlagSet(gofs)
	var o output
	o.bind(f, "table")
	// q holds the flags of every verb; "payouts" takes its filters into a PayoutQuery.
	var q ledger.Query
	var statuses []string
	var fileMessageID string
	switch verb {
	case "entries":
		f.StringSliceVar(&q.Kinds, "kind", nil, "only entries of this kind (repeat it, or separate kinds by commas): "+
			strings.Join(bankKinds, ", "))
		f.StringVarP(&q.Namespace, "namespace", "n", "", "only this tenant's entries (default: every tenant's)")
		f.StringVar(&q.OrderID, "order", "", "only this order's entries (needs -n)")
		f.StringVar(&q.FileID, "file", "", "only this file's entries (its ID, as \"bank files\" prints it)")
		f.BoolVar(&q.Open, "open", false, "only the entries in suspense (Unmatched, WrongCurrency) that no decision settled")
	case "payouts":
		f.StringSliceVar(&statuses, "status", nil, "only instructions of this status (repeat it, or separate statuses by commas): "+
			strings.Join(payoutStatuses, ", "))
		f.StringVarP(&q.Namespace, "namespace", "n", "", "only this tenant's instructions (default: every tenant's)")
		f.StringVar(&q.OrderID, "order", "", "only this order's instructions (needs -n)")
		f.StringVar(&fileMessageID, "file", "", "only this pain.001 file's instructions (its message id, as FILE prints it)")
	}
	f.IntVar(&q.Limit, "limit", 100, fmt.Sprintf("at most this many %s (1 to %d)", verb, bankLimit))
	f.StringVar(&q.Cursor, "cursor", "", "continue after a previous page (the cursor it printed)")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if err := o.validate(path); err != nil {
		return err
	}
	if *dsn == "" {
		return usageErrorf("%s: --archive-dsn is required (the archive's database holds the bank ledger)", path)
	}
	if q.Limit < 1 || q.Limit > bankLimit {
		return usageErrorf("%s: --limit %d: between 1 and %d", path, q.Limit, bankLimit)
	}
	if q.OrderID != "" && q.Namespace == "" {
		return usageErrorf("%s: --order needs -n, the order's namespace", path)
	}
	if q.Kinds, err = parseChoices("kind", "a kind of the bank ledger", bankKinds, q.Kinds); err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	if statuses, err = parseChoices("status", "a status of a payout instruction", payoutStatuses, statuses); err != nil {
		return usageErrorf("%s: %v", path, err)
	}

	ctx, cancel := commandContext()
	defer cancel()
	st, err := sqlstore.Open(ctx, *dsn, sqlstore.Options{ReadOnly: true})
	if err != nil {
		if errors.Is(err, archive.ErrInvalid) {
			return usageErrorf("%s: %v", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	defer func() { _ = st.Close() }()
	l, ok := sqlstore.Ledger(st)
	if !ok {
		return fmt.Errorf("%s: the archive %s holds no bank ledger", path, archive.RedactURL(*dsn))
	}

	var next string
	switch verb {
	case "files":
		var files []ledger.File
		if files, next, err = l.Files(ctx, q.Limit, q.Cursor); err == nil {
			err = printFiles(p, &o, files)
		}
	case "entries":
		var rows []ledger.Row
		if rows, next, err = l.Rows(ctx, q); err == nil {
			err = printEntries(p, &o, rows)
		}
	default:
		book, ok := sqlstore.Payouts(st)
		if !ok {
			return fmt.Errorf("%s: the archive %s holds no payout instructions", path, archive.RedactURL(*dsn))
		}
		var payouts []ledger.Payout
		if payouts, next, err = book.ListPayouts(ctx, ledger.PayoutQuery{Statuses: statuses, Namespace: q.Namespace,
			OrderID: q.OrderID, FileMessageID: fileMessageID, Limit: q.Limit, Cursor: q.Cursor}); err == nil {
			err = printPayouts(p, &o, payouts)
		}
	}
	switch {
	case errors.Is(err, ledger.ErrInvalid):
		return usageErrorf("%s: %v", path, err)
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	}
	if next != "" {
		fmt.Fprintln(p.Stderr, "next page: --cursor", next)
	}
	return nil
}

// parseChoices returns the values given to --name as known spells them (matched
// case-insensitively), each once, or an error naming the known ones; what says what a
// value is ("a kind of the bank ledger").
func parseChoices(name, what string, known, given []string) ([]string, error) {
	var out []string
	for _, g := range given {
		i := slices.IndexFunc(known, func(k string) bool { return strings.EqualFold(k, strings.TrimSpace(g)) })
		if i < 0 {
			return nil, fmt.Errorf("--%s %q: not %s (one of %s)", name, g, what, strings.Join(known, ", "))
		}
		if !slices.Contains(out, known[i]) {
			out = append(out, known[i])
		}
	}
	return out, nil
}

// bankFile is a ledger.File as -o json|yaml prints it: times RFC 3339 in UTC, the counts
// by outcome kind.
type bankFile struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	SHA256      string         `json:"sha256"`
	MessageType string         `json:"messageType"`
	MessageID   string         `json:"messageId"`
	DeliveredAt string         `json:"deliveredAt,omitempty"`
	IngestedAt  string         `json:"ingestedAt"`
	Counts      map[string]int `json:"counts"`
}

// bankEntry is a ledger.Row as -o json|yaml prints it: amounts in money units (1 EUR =
// 10,000), the transaction's also formatted (the order's amounts are in its currency,
// which the row does not name), times RFC 3339 in UTC, empty fields left out.
type bankEntry struct {
	ID                int64  `json:"id"`
	FileID            string `json:"fileId"`
	EntryReference    string `json:"entryReference"`
	Transaction       int    `json:"transaction"`
	Kind              string `json:"kind"`
	Rule              string `json:"rule,omitempty"`
	Reason            string `json:"reason,omitempty"`
	CreditDebit       string `json:"creditDebit"`
	Amount            int64  `json:"amount"`
	Currency          string `json:"currency"`
	AmountFormatted   string `json:"amountFormatted"`
	BookingDate       string `json:"bookingDate,omitempty"`
	ValueDate         string `json:"valueDate,omitempty"`
	CreditorReference string `json:"creditorReference,omitempty"`
	ReferenceValid    bool   `json:"referenceValid"`
	EndToEndID        string `json:"endToEndId,omitempty"`
	DebtorName        string `json:"debtorName,omitempty"`
	DebtorIBAN        string `json:"debtorIban,omitempty"`
	Namespace         string `json:"namespace,omitempty"`
	OrderID           string `json:"orderId,omitempty"`
	Due               int64  `json:"due"`
	ReceivedBefore    int64  `json:"receivedBefore"`
	Received          int64  `json:"received"`
	Shortfall         int64  `json:"shortfall"`
	Excess            int64  `json:"excess"`
	ReturnReason      string `json:"returnReason,omitempty"`
	Pending           bool   `json:"pending"`
	AppliedAt         string `json:"appliedAt,omitempty"`
	Decision          string `json:"decision,omitempty"`
}

// timeText is t in RFC 3339 in UTC (with its fraction of a second, if any), "" for the
// zero time.
func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func toBankFile(f ledger.File) bankFile {
	counts := f.Counts
	if counts == nil {
		counts = map[string]int{}
	}
	return bankFile{ID: f.ID, Name: f.Name, SHA256: f.SHA256, MessageType: f.MessageType, MessageID: f.MessageID,
		DeliveredAt: timeText(f.DeliveredAt), IngestedAt: timeText(f.IngestedAt), Counts: counts}
}

func toBankEntry(r ledger.Row) bankEntry {
	return bankEntry{
		ID: r.ID, FileID: r.FileID, EntryReference: r.EntryReference, Transaction: r.Transaction,
		Kind: r.Kind, Rule: r.Rule, Reason: r.Reason,
		CreditDebit: r.CreditDebit, Amount: r.Amount, Currency: r.Currency, AmountFormatted: money.Format(r.Amount, r.Currency),
		BookingDate: timeText(r.BookingDate), ValueDate: timeText(r.ValueDate),
		CreditorReference: r.CreditorReference, ReferenceValid: r.ReferenceValid, EndToEndID: r.EndToEndID,
		DebtorName: r.DebtorName, DebtorIBAN: r.DebtorIBAN, Namespace: r.Namespace, OrderID: r.OrderID,
		Due: r.Due, ReceivedBefore: r.ReceivedBefore, Received: r.Received, Shortfall: r.Shortfall, Excess: r.Excess,
		ReturnReason: r.ReturnReason, Pending: r.Pending, AppliedAt: timeText(r.AppliedAt), Decision: r.Decision,
	}
}

// bankPayout is a ledger.Payout as -o json|yaml prints it: the amount in money units (1
// EUR = 10,000) and formatted, times RFC 3339 in UTC, empty fields left out. IBANs are
// printed masked (only their last four characters): the creditor's is a customer's
// personal data.
type bankPayout struct {
	ID                 int64  `json:"id"`
	Namespace          string `json:"namespace"`
	OrderID            string `json:"orderId"`
	Purpose            string `json:"purpose"`
	EndToEndID         string `json:"endToEndId"`
	Amount             int64  `json:"amount"`
	Currency           string `json:"currency"`
	AmountFormatted    string `json:"amountFormatted"`
	CreditorName       string `json:"creditorName,omitempty"`
	CreditorIBANMasked string `json:"creditorIbanMasked"`
	RemittanceInfo     string `json:"remittanceInfo,omitempty"`
	DebtorName         string `json:"debtorName,omitempty"`
	DebtorIBANMasked   string `json:"debtorIbanMasked,omitempty"`
	ExecutionDate      string `json:"executionDate,omitempty"`
	InstructedAt       string `json:"instructedAt,omitempty"`
	FileMessageID      string `json:"fileMessageId,omitempty"`
	ReleasedAt         string `json:"releasedAt,omitempty"`
	Status             string `json:"status"`
	BankStatus         string `json:"bankStatus,omitempty"`
	Reason             string `json:"reason,omitempty"`
	StatusAt           string `json:"statusAt,omitempty"`
	Pending            bool   `json:"pending"`
	AppliedAt          string `json:"appliedAt,omitempty"`
	Source             string `json:"source,omitempty"`
	VoPResult          string `json:"vopResult,omitempty"`
	VoPName            string `json:"vopName,omitempty"`
}

func toBankPayout(p ledger.Payout) bankPayout {
	return bankPayout{
		ID: p.ID, Namespace: p.Namespace, OrderID: p.OrderID, Purpose: string(p.Purpose), EndToEndID: p.EndToEndID,
		Amount: p.Amount, Currency: p.Currency, AmountFormatted: money.Format(p.Amount, p.Currency),
		CreditorName: p.CreditorName, CreditorIBANMasked: maskIBAN(p.CreditorIBAN), RemittanceInfo: p.RemittanceInfo,
		DebtorName: p.DebtorName, DebtorIBANMasked: maskIBAN(p.DebtorIBAN),
		ExecutionDate: timeText(p.ExecutionDate), InstructedAt: timeText(p.InstructedAt),
		FileMessageID: p.FileMessageID, ReleasedAt: timeText(p.ReleasedAt),
		Status: p.Status, BankStatus: p.BankStatus, Reason: p.Reason, StatusAt: timeText(p.StatusAt),
		Pending: p.Pending, AppliedAt: timeText(p.AppliedAt),
		Source: p.Source, VoPResult: p.VoPResult, VoPName: p.VoPName,
	}
}

// maskIBAN hides all of an IBAN but its last four characters (all of one that short).
func maskIBAN(iban string) string {
	r := []rune(iban)
	if len(r) <= 4 {
		return strings.Repeat("*", len(r))
	}
	return strings.Repeat("*", len(r)-4) + string(r[len(r)-4:])
}

// printFiles prints the files as a table or as {"items": [...]}.
func printFiles(p *Program, o *output, files []ledger.File) error {
	if o.format != "table" {
		items := make([]bankFile, 0, len(files))
		for _, f := range files {
			items = append(items, toBankFile(f))
		}
		return o.encode(p.Stdout, struct {
			Items []bankFile `json:"items"`
		}{items})
	}
	rows := make([]string, 0, len(files))
	for _, f := range files {
		rows = append(rows, strings.Join([]string{f.IngestedAt.UTC().Format(time.RFC3339), f.ID, dash(f.Name),
			dash(f.MessageType), dash(f.MessageID), countsText(f.Counts)}, "\t"))
	}
	return table(p.Stdout, "INGESTED\tID\tNAME\tTYPE\tMESSAGE ID\tOUTCOMES", rows)
}

// countsText is the counts as "Duplicate=1 Matched=3": the kinds sorted, zeros left out.
func countsText(counts map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if counts[k] != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
		}
	}
	return dash(strings.Join(parts, " "))
}

// printEntries prints the rows as a table or as {"items": [...]}.
func printEntries(p *Program, o *output, rows []ledger.Row) error {
	if o.format != "table" {
		items := make([]bankEntry, 0, len(rows))
		for _, r := range rows {
			items = append(items, toBankEntry(r))
		}
		return o.encode(p.Stdout, struct {
			Items []bankEntry `json:"items"`
		}{items})
	}
	lines := make([]string, 0, len(rows))
	for _, r := range rows {
		why := r.Rule
		if r.Kind == string(reconcile.Unmatched) {
			why = r.Reason
		}
		order := "-"
		if r.OrderID != "" {
			order = r.Namespace + "/" + r.OrderID
		}
		pending := "no"
		if r.Pending {
			pending = "yes"
		}
		lines = append(lines, strings.Join([]string{fmt.Sprint(r.ID), r.Kind, dash(why), money.Format(r.Amount, r.Currency),
			dash(r.CreditDebit), dash(r.EntryReference), order, pending, dash(r.CreditorReference), dash(r.Decision)}, "\t"))
	}
	return table(p.Stdout, "ID\tKIND\tREASON\tAMOUNT\tDIRECTION\tENTRY\tORDER\tPENDING\tCREDITOR REF\tDECISION", lines)
}

// printPayouts prints the instructions as a table or as {"items": [...]}.
func printPayouts(p *Program, o *output, payouts []ledger.Payout) error {
	if o.format != "table" {
		items := make([]bankPayout, 0, len(payouts))
		for _, in := range payouts {
			items = append(items, toBankPayout(in))
		}
		return o.encode(p.Stdout, struct {
			Items []bankPayout `json:"items"`
		}{items})
	}
	lines := make([]string, 0, len(payouts))
	for _, in := range payouts {
		released := "-"
		if !in.ReleasedAt.IsZero() {
			released = in.ReleasedAt.UTC().Format(time.RFC3339)
		}
		order := "-"
		if in.OrderID != "" {
			order = in.Namespace + "/" + in.OrderID
		}
		vop := in.VoPResult
		if in.VoPName != "" {
			vop += " (" + in.VoPName + ")"
		}
		lines = append(lines, strings.Join([]string{fmt.Sprint(in.ID), order, string(in.Purpose),
			money.Format(in.Amount, in.Currency), dash(maskIBAN(in.CreditorIBAN)), dash(in.FileMessageID), released,
			dash(in.Status), dash(in.BankStatus), dash(in.Reason), dash(vop)}, "\t"))
	}
	return table(p.Stdout, "ID\tORDER\tPURPOSE\tAMOUNT\tCREDITOR IBAN\tFILE\tRELEASED\tSTATUS\tBANK STATUS\tREASON\tVOP", lines)
}

// dash is s, or "-" for an empty cell.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
