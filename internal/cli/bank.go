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
  PROG bank entries --archive-dsn DSN [-o table|json|yaml] [--kind K]... [-n NS [--order ID]] [--file ID] [--limit N] [--cursor C]

Reads the bank ledger: every bank file (camt.054, camt.053) the operator ingested, and the
outcome decided for every transaction of its booked entries (see docs/bank.md). "files"
prints the files, newest first, with how many transactions had each outcome; "entries"
prints the ledger's rows, newest first, only those of the kinds given by --kind (repeated,
or separated by commas), of one tenant (-n), of one order (-n and --order) or of one file
(--file, the ID "files" prints). Both print on stderr the --cursor of the next page when
there is one.

The kinds of entries:
  Matched        a payment that brings its order's received total to the amount due
  Underpaid      a payment for an order whose received total is still below the amount due
  Overpaid       a payment above the amount due: the order executes, the excess is owed back
  Unmatched      suspense: no order, or no single order, fits; REASON says why
  WrongCurrency  suspense: a payment for a known order or payout in another currency
  Returned       a payout or refund of the fund that came back
  PaidOut        the debit of a payout or refund of the fund: the money left
Duplicate and Ignored transactions (recorded already; not booked) are counted in "files"
but have no entries. What is in suspense, for an operator to assign or refund:

  PROG bank entries --kind Unmatched,WrongCurrency

The ledger is opened read-only, in the order archive's database: nothing is written, and a
SQLite file that does not exist is an error, never a new empty archive. The ledger is the
fund's, across tenants: without -n, "entries" lists every tenant's (-n does not default to
the kubeconfig context's namespace; the cluster is not contacted).
`

// bankKinds are the kinds of the ledger's rows, as --kind takes them.
var bankKinds = []string{
	string(reconcile.Matched), string(reconcile.Underpaid), string(reconcile.Overpaid),
	string(reconcile.Unmatched), string(reconcile.WrongCurrency), string(reconcile.Returned),
	string(reconcile.PaidOut),
}

// bankLimit is the largest page the ledger serves.
const bankLimit = 1000

// runBank runs "bank files|entries".
func runBank(p *Program, args []string) error {
	verb, err := p.verb("bank", bankHelp, args, "files", "entries")
	if err != nil {
		return err
	}
	path := "bank " + verb
	f := p.newFlags(path, bankHelp)
	gofs := flag.NewFlagSet(path, flag.ContinueOnError)
	dsn := archive.BindDSNFlag(gofs, "")
	f.AddGoFlagSet(gofs)
	var o output
	o.bind(f, "table")
	var q ledger.Query
	if verb == "entries" {
		f.StringSliceVar(&q.Kinds, "kind", nil, "only entries of this kind (repeat it, or separate kinds by commas): "+
			strings.Join(bankKinds, ", "))
		f.StringVarP(&q.Namespace, "namespace", "n", "", "only this tenant's entries (default: every tenant's)")
		f.StringVar(&q.OrderID, "order", "", "only this order's entries (needs -n)")
		f.StringVar(&q.FileID, "file", "", "only this file's entries (its ID, as \"bank files\" prints it)")
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
	if q.Kinds, err = parseKinds(q.Kinds); err != nil {
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
	if verb == "files" {
		var files []ledger.File
		if files, next, err = l.Files(ctx, q.Limit, q.Cursor); err == nil {
			err = printFiles(p, &o, files)
		}
	} else {
		var rows []ledger.Row
		if rows, next, err = l.Rows(ctx, q); err == nil {
			err = printEntries(p, &o, rows)
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

// parseKinds returns the kinds as the ledger spells them (matched case-insensitively),
// each once, or an error naming the known ones.
func parseKinds(given []string) ([]string, error) {
	var out []string
	for _, g := range given {
		i := slices.IndexFunc(bankKinds, func(k string) bool { return strings.EqualFold(k, strings.TrimSpace(g)) })
		if i < 0 {
			return nil, fmt.Errorf("--kind %q: not a kind of the bank ledger (one of %s)", g, strings.Join(bankKinds, ", "))
		}
		if !slices.Contains(out, bankKinds[i]) {
			out = append(out, bankKinds[i])
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
		ReturnReason: r.ReturnReason, Pending: r.Pending, AppliedAt: timeText(r.AppliedAt),
	}
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
			dash(r.CreditDebit), dash(r.EntryReference), order, pending, dash(r.CreditorReference)}, "\t"))
	}
	return table(p.Stdout, "ID\tKIND\tREASON\tAMOUNT\tDIRECTION\tENTRY\tORDER\tPENDING\tCREDITOR REF", lines)
}

// dash is s, or "-" for an empty cell.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
