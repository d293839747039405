package ledgertest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
)

// Books are the bank ledger, the payouts book and the decisions book of one database, as
// one process (a manager replica) opens them: Payouts.Released and Payouts.Report read
// and write the ledger's rows and files, Decisions.Decide writes rows and instructions.
// RunPayouts uses Ledger and Payouts, RunDecisions all three.
type Books struct {
	Ledger    ledger.Store
	Payouts   ledger.Payouts
	Decisions ledger.Decisions
}

// OpenBooks opens the books of one test's database. Each call opens them again on the
// same database, as another process would; OpenBooks closes what it opened when the test
// ends (t.Cleanup).
type OpenBooks func(t *testing.T) Books

// NewBooksDatabase creates an empty database for one test and returns how to open the
// books on it.
type NewBooksDatabase func(t *testing.T) OpenBooks

// RunPayouts runs the conformance suite of ledger.Payouts, each rule a subtest on a fresh
// database.
func RunPayouts(t *testing.T, newDatabase NewBooksDatabase) {
	t.Helper()
	rules := []struct {
		name string
		test func(t *testing.T, b Books, open OpenBooks)
	}{
		{"InstructingTheSameOrderAndPurposeTwiceRecordsOne", testInstructTwice},
		{"AnEndToEndIDHeldByAnotherOrderRefusesTheWholeInstruct", testEndToEndHeld},
		{"AFileIsRecordedBeforeReleaseAndReleasedOnce", testFileBeforeRelease},
		{"AReportSetsTheStatusesOfItsFilesInstructions", testReport},
		{"ARejectedPayoutStaysRejected", testRejectedStaysRejected},
		{"AReportDeliveredTwiceChangesNothing", testReportTwice},
		{"PendingStatusesComeOldestFirstUntilDone", testPayoutsPendingUntilDone},
		{"ReleasedPayoutsExcludeRejectedAndReturnedOnes", testReleasedExcludes},
		{"ADebitedPayoutIsFlaggedUntilTheWindowEnds", testDebitWindow},
		{"ListPayoutsPagesNewestFirstAndFilters", testListPaging},
		{"InstructionsOfOneOrderAndPurposeFromTwoSourcesAreTwo", testSources},
		{"APayoutSentAgainByADecisionIsAnInstructionOfItsOwnOnce", testResend},
		{"ReleasedTellsTwoInstructionsOfOneOrderApartByEndToEndID", testReleasedByEndToEnd},
		{"AReportRecordsTheVerificationOfPayeeResult", testVerificationOfPayee},
		{"AFileOfManyInstructionsIsRecordedReportedAndDone", testManyInstructions},
		{"InvalidPayoutInputWritesNothing", testPayoutsInvalid},
		{"TwoReplicasInstructingOneOrderAtOnceRecordItOnce", testConcurrentInstruct},
		{"TwoFilesOfOneInstructionAtOnceRecordOne", testConcurrentAddFile},
		{"AnInstructionAndItsFileKeepEveryField", testPayoutRoundTrip},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			open := newDatabase(t)
			r.test(t, open(t), open)
		})
	}
}

const (
	customerIBAN = "DE89370400440532013000"
	fundIBAN     = "DE02120300000000202051"
	accepted     = ledger.StatusAccepted
	rejected     = ledger.StatusRejected
	instructed   = ledger.StatusInstructed
)

// execDay is the execution date of the suite's instructions and files.
var execDay = time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC)

// instruction is the instruction of order namespace/id for purpose, its end-to-end id the
// order id (another purpose's: the order id and the purpose), changed by the options.
func instruction(namespace, id string, purpose ledger.Purpose, opts ...func(*ledger.Payout)) ledger.Payout {
	e2e := id
	if purpose != ledger.PurposePayout {
		e2e = id + "-" + string(purpose)
	}
	p := ledger.Payout{
		Namespace: namespace, OrderID: id, Purpose: purpose, EndToEndID: e2e, Amount: 1_000_000, Currency: "EUR",
		CreditorName: "Customer", CreditorIBAN: customerIBAN, RemittanceInfo: "Redemption of order " + id,
		DebtorName: "Fund", DebtorIBAN: fundIBAN, ExecutionDate: execDay, InstructedAt: base,
	}
	for _, o := range opts {
		o(&p)
	}
	return p
}

// payout is the instruction of order tenant-a/id's proceeds.
func payout(id string, opts ...func(*ledger.Payout)) ledger.Payout {
	return instruction("tenant-a", id, ledger.PurposePayout, opts...)
}

func amount(a int64) func(*ledger.Payout) { return func(p *ledger.Payout) { p.Amount = a } }

func endToEnd(id string) func(*ledger.Payout) { return func(p *ledger.Payout) { p.EndToEndID = id } }

// from sets the instruction's source.
func from(source string) func(*ledger.Payout) { return func(p *ledger.Payout) { p.Source = source } }

// transfer makes the row one of the transfer of end-to-end id e2e.
func transfer(e2e string) func(*ledger.Row) { return func(r *ledger.Row) { r.EndToEndID = e2e } }

func instruct(t *testing.T, p ledger.Payouts, ps ...ledger.Payout) int {
	t.Helper()
	n, err := p.Instruct(ctxOf(t), ps)
	if err != nil {
		t.Fatalf("Instruct of %d instructions: %v", len(ps), err)
	}
	return n
}

// pagePayouts pages through the instructions q selects with pages of q.Limit, calling
// between each page (when not nil), with every page checked against the limit.
func pagePayouts(t *testing.T, p ledger.Payouts, q ledger.PayoutQuery, between func()) []ledger.Payout {
	t.Helper()
	return pageAll(t, "ListPayouts", q.Limit, func(cursor string) ([]ledger.Payout, string, error) {
		q.Cursor = cursor
		return p.ListPayouts(ctxOf(t), q)
	}, between)
}

// allPayouts is every instruction q's filters select, newest first.
func allPayouts(t *testing.T, p ledger.Payouts, q ledger.PayoutQuery) []ledger.Payout {
	t.Helper()
	q.Limit, q.Cursor = 1000, ""
	return pagePayouts(t, p, q, nil)
}

// payoutOf is the instruction of tenant-a/id's proceeds, by ListPayouts.
func payoutOf(t *testing.T, p ledger.Payouts, id string) ledger.Payout {
	t.Helper()
	return instructionOf(t, p, "tenant-a", id, ledger.PurposePayout)
}

func instructionOf(t *testing.T, p ledger.Payouts, namespace, id string, purpose ledger.Purpose) ledger.Payout {
	t.Helper()
	for _, in := range allPayouts(t, p, ledger.PayoutQuery{Namespace: namespace, OrderID: id}) {
		if in.Purpose == purpose {
			return in
		}
	}
	t.Fatalf("no instruction of %s/%s for %s", namespace, id, purpose)
	return ledger.Payout{}
}

// orders is the order id of each instruction, in order.
func orders(ps []ledger.Payout) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.OrderID)
	}
	return out
}

func payoutIDs(ps []ledger.Payout) []int64 {
	out := make([]int64, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// outFile is a pain.001 file of message id msgID recorded at created.
func outFile(msgID string, created time.Time) ledger.OutFile {
	data := []byte(`<?xml version="1.0" encoding="UTF-8"?><Document><CstmrCdtTrfInitn><GrpHdr><MsgId>` + msgID +
		`</MsgId></GrpHdr></CstmrCdtTrfInitn></Document>`)
	sum := sha256.Sum256(data)
	return ledger.OutFile{
		MessageID: msgID, Name: "pain001-" + msgID + ".xml", DebtorIBAN: fundIBAN, ExecutionDate: execDay,
		CreatedAt: created, SHA256: hex.EncodeToString(sum[:]), Data: data,
	}
}

// addFile records a file of msgID carrying the instructions, and returns it.
func addFile(t *testing.T, p ledger.Payouts, msgID string, created time.Time, ps ...ledger.Payout) ledger.OutFile {
	t.Helper()
	f := outFile(msgID, created)
	f.Transfers = len(ps)
	if err := p.AddFile(ctxOf(t), f, payoutIDs(ps)); err != nil {
		t.Fatalf("AddFile %s of %d instructions: %v", msgID, len(ps), err)
	}
	return f
}

func release(t *testing.T, p ledger.Payouts, msgID string, at time.Time) {
	t.Helper()
	if err := p.MarkReleased(ctxOf(t), msgID, at); err != nil {
		t.Fatalf("MarkReleased %s: %v", msgID, err)
	}
}

// released instructs orders of tenant-a (proceeds), files them in msgID and releases the
// file at at, and returns the instructions as recorded.
func released(t *testing.T, p ledger.Payouts, msgID string, at time.Time, ids ...string) []ledger.Payout {
	t.Helper()
	var ps []ledger.Payout
	for _, id := range ids {
		ps = append(ps, payout(id))
	}
	instruct(t, p, ps...)
	ps = ps[:0]
	for _, id := range ids {
		ps = append(ps, payoutOf(t, p, id))
	}
	addFile(t, p, msgID, at.Add(-time.Minute), ps...)
	release(t, p, msgID, at)
	return ps
}

func unreleasedIDs(t *testing.T, p ledger.Payouts) []string {
	t.Helper()
	files, err := p.Unreleased(ctxOf(t))
	if err != nil {
		t.Fatalf("Unreleased: %v", err)
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		out = append(out, f.MessageID)
	}
	return out
}

func expectUnfiled(t *testing.T, p ledger.Payouts, limit int, want ...string) []ledger.Payout {
	t.Helper()
	got, err := p.Unfiled(ctxOf(t), limit)
	if err != nil {
		t.Fatalf("Unfiled(%d): %v", limit, err)
	}
	if o := orders(got); !slices.Equal(o, want) {
		t.Fatalf("Unfiled(%d): %v, want %v", limit, o, want)
	}
	for _, in := range got {
		if in.FileMessageID != "" {
			t.Fatalf("an unfiled instruction %s names file %q", in.OrderID, in.FileMessageID)
		}
	}
	return got
}

// reportFile is a pain.002 status report with id, ingested at at.
func reportFile(id string, at time.Time) ledger.File {
	return ledger.File{
		ID: id, Name: id + ".xml", SHA256: strings.Repeat("cd", 32), MessageType: "pain.002.001.10",
		MessageID: "RPT-" + id, DeliveredAt: at.Add(-time.Minute), IngestedAt: at, Counts: map[string]int{accepted: 1},
	}
}

// status is the status of the transfer e2e of the file msgID, reported at at.
func status(msgID, e2e, st string, at time.Time) ledger.PayoutStatus {
	code, reason := "ACCP", ""
	if st == rejected {
		code, reason = "RJCT", "AC04: account closed"
	}
	return ledger.PayoutStatus{OriginalMessageID: msgID, EndToEndID: e2e, Status: st, BankStatus: code, Reason: reason, At: at}
}

func report(t *testing.T, p ledger.Payouts, f ledger.File, statuses ...ledger.PayoutStatus) int {
	t.Helper()
	n, err := p.Report(ctxOf(t), f, statuses)
	if err != nil {
		t.Fatalf("Report %s of %d statuses: %v", f.ID, len(statuses), err)
	}
	return n
}

// expectStatus checks the status of tenant-a/id's proceeds.
func expectStatus(t *testing.T, p ledger.Payouts, id, st, bankStatus string, at time.Time, pending bool) ledger.Payout {
	t.Helper()
	in := payoutOf(t, p, id)
	if in.Status != st || in.BankStatus != bankStatus || !in.StatusAt.Equal(at) || in.Pending != pending {
		t.Fatalf("instruction %s: status %s (%s) at %s, pending %t; want %s (%s) at %s, pending %t", id, in.Status, in.BankStatus,
			in.StatusAt, in.Pending, st, bankStatus, at, pending)
	}
	return in
}

func done(t *testing.T, p ledger.Payouts, at time.Time, ps ...ledger.Payout) {
	t.Helper()
	if err := p.PayoutsDone(ctxOf(t), payoutIDs(ps), at); err != nil {
		t.Fatalf("PayoutsDone: %v", err)
	}
}

func expectReleased(t *testing.T, p ledger.Payouts, since time.Time, want ...string) []ledger.Payout {
	t.Helper()
	got, err := p.Released(ctxOf(t), since)
	if err != nil {
		t.Fatalf("Released(%s): %v", since, err)
	}
	var names []string
	for _, in := range got {
		name := in.OrderID
		if in.Debited {
			name += " (debited)"
		}
		names = append(names, name)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("Released(%s): %v, want %v", since, names, want)
	}
	return got
}

func testInstructTwice(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	if n := instruct(t, p, payout("order-a"), instruction("tenant-a", "order-b", ledger.PurposeRefund)); n != 2 {
		t.Fatalf("Instruct of two new instructions recorded %d", n)
	}
	first := allPayouts(t, p, ledger.PayoutQuery{})
	slices.Reverse(first)
	if got := orders(first); !slices.Equal(got, []string{"order-a", "order-b"}) || first[0].ID >= first[1].ID {
		t.Fatalf("instructions oldest first: %v (ids %v), want order-a then order-b with increasing ids", got, payoutIDs(first))
	}
	for _, in := range first {
		if in.Status != instructed || in.Pending || in.FileMessageID != "" || !in.StatusAt.IsZero() {
			t.Fatalf("a new instruction %s: status %q, pending %t, file %q, status at %s", in.OrderID, in.Status, in.Pending,
				in.FileMessageID, in.StatusAt)
		}
	}
	// Asked again after a crash (with another amount: left as it was), with a new one, and
	// the new one twice in the call: one recorded.
	if n := instruct(t, p, payout("order-a", amount(5)), payout("order-c"), payout("order-c", amount(7))); n != 1 {
		t.Fatalf("Instruct of one new instruction among recorded ones recorded %d", n)
	}
	if a := payoutOf(t, p, "order-a"); a.ID != first[0].ID || a.Amount != 1_000_000 {
		t.Fatalf("order-a asked again: id %d amount %d, want it as first recorded (id %d, amount 1000000)", a.ID, a.Amount, first[0].ID)
	}
	if c := payoutOf(t, p, "order-c"); c.Amount != 1_000_000 || c.ID <= first[1].ID {
		t.Fatalf("order-c: id %d amount %d, want a larger id than %d and the first amount given", c.ID, c.Amount, first[1].ID)
	}
	// Another purpose of the order, and the order id in another tenant, are other keys.
	if n := instruct(t, p, instruction("tenant-a", "order-a", ledger.PurposeResidual),
		instruction("tenant-b", "order-a", ledger.PurposePayout, endToEnd("tenant-b-order-a"))); n != 2 {
		t.Fatalf("Instruct of two other keys of order-a recorded %d", n)
	}
	all := allPayouts(t, p, ledger.PayoutQuery{})
	if len(all) != 5 {
		t.Fatalf("instructions: %v, want 5", orders(all))
	}
	var again []ledger.Payout
	for _, in := range all {
		again = append(again, instruction(in.Namespace, in.OrderID, in.Purpose, endToEnd(in.EndToEndID)))
	}
	if n := instruct(t, p, again...); n != 0 {
		t.Fatalf("Instruct of every recorded instruction again recorded %d", n)
	}
	if n := instruct(t, p); n != 0 {
		t.Fatalf("Instruct of nothing recorded %d", n)
	}
	if got := allPayouts(t, p, ledger.PayoutQuery{}); !reflect.DeepEqual(got, all) {
		t.Fatalf("instructions changed by instructing them again:\n got %+v\nwant %+v", got, all)
	}
}

func testEndToEndHeld(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	instruct(t, p, payout("order-a"))
	for name, ps := range map[string][]ledger.Payout{
		"an end-to-end id recorded for another order": {payout("order-b"), payout("order-c", endToEnd("order-a"))},
		"an end-to-end id recorded for another purpose of the order": {payout("order-d"),
			instruction("tenant-a", "order-a", ledger.PurposeRefund, endToEnd("order-a"))},
		"an end-to-end id recorded for the order of another tenant": {instruction("tenant-b", "order-a", ledger.PurposePayout)},
		"one end-to-end id for two new orders":                      {payout("order-e", endToEnd("E")), payout("order-f", endToEnd("E"))},
	} {
		if _, err := p.Instruct(ctxOf(t), ps); !errors.Is(err, ledger.ErrInvalid) {
			t.Fatalf("Instruct of %s: %v, want ErrInvalid", name, err)
		}
	}
	if got := orders(allPayouts(t, p, ledger.PayoutQuery{})); !slices.Equal(got, []string{"order-a"}) {
		t.Fatalf("instructions after the refused ones: %v, want order-a only", got)
	}
	// The recorded key asked again with another end-to-end id is left as it was.
	if n := instruct(t, p, payout("order-a", endToEnd("other"))); n != 0 {
		t.Fatalf("a recorded key asked again recorded %d", n)
	}
	if got := payoutOf(t, p, "order-a").EndToEndID; got != "order-a" {
		t.Fatalf("order-a's end-to-end id is %q after it was asked again", got)
	}
}

func testFileBeforeRelease(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	instruct(t, p, payout("p1"), payout("p2"), payout("p3"), payout("p4"))
	all := expectUnfiled(t, p, 10, "p1", "p2", "p3", "p4")
	expectUnfiled(t, p, 2, "p1", "p2")
	p1, p2, p3, p4 := all[0], all[1], all[2], all[3]
	if got := unreleasedIDs(t, p); len(got) != 0 {
		t.Fatalf("Unreleased before any file: %v", got)
	}
	created := base.Add(time.Hour)
	f1 := addFile(t, p, "MSG-1", created, p1, p3)
	expectUnfiled(t, p, 10, "p2", "p4")
	if got := orders(allPayouts(t, p, ledger.PayoutQuery{FileMessageID: "MSG-1"})); !slices.Equal(got, []string{"p3", "p1"}) {
		t.Fatalf("the instructions of MSG-1 newest first: %v, want p3 and p1", got)
	}
	files, err := p.Unreleased(ctxOf(t))
	if err != nil || len(files) != 1 {
		t.Fatalf("Unreleased after a file: %+v, %v", files, err)
	}
	if got := files[0]; got.MessageID != f1.MessageID || got.Name != f1.Name || string(got.Data) != string(f1.Data) ||
		got.SHA256 != f1.SHA256 || got.Transfers != 2 || !got.CreatedAt.Equal(created) || !got.ReleasedAt.IsZero() {
		t.Fatalf("the unreleased file: %+v, want %+v", got, f1)
	}
	// The same file recorded again (a crash before the answer), another file of an
	// instruction in a file already, and a file of an unknown instruction: nothing written.
	again := outFile("MSG-1", created.Add(time.Minute))
	again.Name = "renamed.xml"
	for name, call := range map[string]struct {
		f    ledger.OutFile
		ids  []int64
		want error
	}{
		"the file again, of another instruction":  {again, []int64{p2.ID}, ledger.ErrAlreadyRecorded},
		"a file of an instruction in another one": {outFile("MSG-2", created), []int64{p2.ID, p3.ID}, ledger.ErrAlreadyRecorded},
		"a file of an unknown instruction":        {outFile("MSG-3", created), []int64{p2.ID, p4.ID + 1000}, ledger.ErrInvalid},
	} {
		if err := p.AddFile(ctxOf(t), call.f, call.ids); !errors.Is(err, call.want) {
			t.Fatalf("AddFile of %s: %v, want %v", name, err, call.want)
		}
	}
	expectUnfiled(t, p, 10, "p2", "p4")
	if got := unreleasedIDs(t, p); !slices.Equal(got, []string{"MSG-1"}) {
		t.Fatalf("Unreleased after the refused files: %v, want MSG-1 only", got)
	}
	if got := payoutOf(t, p, "p1").FileMessageID; got != "MSG-1" {
		t.Fatalf("p1 is in file %q after the refused files, want MSG-1", got)
	}
	// Oldest first: by creation, then message id.
	addFile(t, p, "MSG-0", created, p2)
	addFile(t, p, "MSG-9", created.Add(-time.Second), p4)
	if got := unreleasedIDs(t, p); !slices.Equal(got, []string{"MSG-9", "MSG-0", "MSG-1"}) {
		t.Fatalf("Unreleased: %v, want MSG-9, MSG-0, MSG-1", got)
	}
	expectUnfiled(t, p, 10)
	// Released: not unreleased any more, at its first release.
	t1, t2 := created.Add(time.Hour), created.Add(2*time.Hour)
	release(t, p, "MSG-1", t1)
	if got := unreleasedIDs(t, p); !slices.Equal(got, []string{"MSG-9", "MSG-0"}) {
		t.Fatalf("Unreleased after MSG-1's release: %v", got)
	}
	release(t, p, "MSG-1", t2)
	for _, id := range []string{"p1", "p3"} {
		expectTime(t, id+"'s ReleasedAt", payoutOf(t, p, id).ReleasedAt, t1)
	}
	expectTime(t, "p2's ReleasedAt", payoutOf(t, p, "p2").ReleasedAt, time.Time{})
	if err := p.MarkReleased(ctxOf(t), "MSG-unknown", t2); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("MarkReleased of an unknown file: %v, want ErrInvalid", err)
	}
	for _, in := range expectReleased(t, p, time.Time{}, "p1", "p3") {
		expectTime(t, in.OrderID+"'s ReleasedAt in Released", in.ReleasedAt, t1)
	}
	release(t, p, "MSG-9", t2)
	release(t, p, "MSG-0", t2)
	if got := unreleasedIDs(t, p); len(got) != 0 {
		t.Fatalf("Unreleased after every release: %v", got)
	}
	expectReleased(t, p, time.Time{}, "p1", "p2", "p3", "p4")
}

func testReport(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	instruct(t, p, payout("p1"), payout("p2"), payout("p3"), payout("p4"))
	addFile(t, p, "F1", base, payoutOf(t, p, "p1"), payoutOf(t, p, "p2"), payoutOf(t, p, "p3"))
	addFile(t, p, "F2", base, payoutOf(t, p, "p4"))
	release(t, p, "F1", base.Add(time.Minute))
	at := base.Add(time.Hour)
	r1 := reportFile("r1", at)
	n := report(t, p, r1,
		status("F1", "p1", accepted, at),
		status("F1", "p2", rejected, at),
		status("F1", "p4", accepted, at),      // p4 is in F2
		status("F1", "unknown", accepted, at), // no such transfer
		status("", "p3", accepted, at),        // no file
	)
	if n != 2 {
		t.Fatalf("Report of two statuses of F1's instructions and three of none changed %d", n)
	}
	expectStatus(t, p, "p1", accepted, "ACCP", at, true)
	if p2 := expectStatus(t, p, "p2", rejected, "RJCT", at, true); p2.Reason != "AC04: account closed" {
		t.Fatalf("p2's reason: %q", p2.Reason)
	}
	expectStatus(t, p, "p3", instructed, "", time.Time{}, false)
	expectStatus(t, p, "p4", instructed, "", time.Time{}, false)
	// The report is a file of the ledger, as ingested files are.
	files := allFiles(t, b.Ledger)
	if len(files) != 1 || files[0].ID != r1.ID || files[0].MessageType != r1.MessageType || files[0].Counts[accepted] != 1 {
		t.Fatalf("the ledger's files after a report: %+v, want the report", files)
	}
	// The same status again (another code of acceptance) changes nothing.
	if n := report(t, p, reportFile("r2", at.Add(time.Hour)), ledger.PayoutStatus{OriginalMessageID: "F1", EndToEndID: "p1",
		Status: accepted, BankStatus: "ACSC", At: at.Add(time.Hour)}); n != 0 {
		t.Fatalf("an acceptance of an accepted instruction changed %d", n)
	}
	expectStatus(t, p, "p1", accepted, "ACCP", at, true)
	// Accepted, then rejected: rejected.
	later := at.Add(2 * time.Hour)
	if n := report(t, p, reportFile("r3", later), status("F1", "p1", rejected, later)); n != 1 {
		t.Fatalf("a rejection of an accepted instruction changed %d", n)
	}
	expectStatus(t, p, "p1", rejected, "RJCT", later, true)
	// Two statuses of one instruction in one report: as if one after the other.
	last := at.Add(3 * time.Hour)
	if n := report(t, p, reportFile("r4", last), status("F1", "p3", accepted, last), status("F1", "p3", rejected, last),
		status("F2", "p4", rejected, last), status("F2", "p4", accepted, last)); n != 2 {
		t.Fatalf("a report of two statuses each of two instructions changed %d", n)
	}
	expectStatus(t, p, "p3", rejected, "RJCT", last, true)
	expectStatus(t, p, "p4", rejected, "RJCT", last, true)
	expectFiles(t, b.Ledger, "r4", "r3", "r2", "r1")
}

func testRejectedStaysRejected(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	released(t, p, "F1", base, "p1", "p2")
	at := base.Add(time.Hour)
	if n := report(t, p, reportFile("r1", at), status("F1", "p1", rejected, at)); n != 1 {
		t.Fatalf("a rejection changed %d", n)
	}
	applied := at.Add(time.Minute)
	done(t, p, applied, payoutOf(t, p, "p1"))
	for i, st := range []ledger.PayoutStatus{
		status("F1", "p1", accepted, at.Add(time.Hour)),
		{OriginalMessageID: "F1", EndToEndID: "p1", Status: rejected, BankStatus: "RJCT", Reason: "AM04: other", At: at.Add(2 * time.Hour)},
	} {
		if n := report(t, p, reportFile(fmt.Sprintf("later-%d", i), at.Add(time.Duration(i+1)*time.Hour)), st,
			status("F1", "p2", st.Status, st.At)); n != 1 {
			t.Fatalf("a later report (%s) changed %d, want p2 only", st.Status, n)
		}
		p1 := expectStatus(t, p, "p1", rejected, "RJCT", at, false)
		if p1.Reason != "AC04: account closed" || !p1.AppliedAt.Equal(applied) {
			t.Fatalf("the rejected p1 after a later %s: reason %q, applied at %s", st.Status, p1.Reason, p1.AppliedAt)
		}
	}
	expectReleased(t, p, time.Time{})
}

func testReportTwice(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	released(t, p, "F1", base, "p1", "p2")
	at := base.Add(time.Hour)
	r := reportFile("r1", at)
	if n := report(t, p, r, status("F1", "p1", accepted, at)); n != 1 {
		t.Fatalf("Report changed %d", n)
	}
	applied := at.Add(time.Minute)
	done(t, p, applied, payoutOf(t, p, "p1"))
	// Delivered again, even with other statuses: nothing of it is written.
	again := r
	again.Name, again.IngestedAt = "renamed.xml", at.Add(time.Hour)
	if _, err := p.Report(ctxOf(t), again, []ledger.PayoutStatus{status("F1", "p1", rejected, at.Add(time.Hour)),
		status("F1", "p2", accepted, at.Add(time.Hour))}); !errors.Is(err, ledger.ErrAlreadyRecorded) {
		t.Fatalf("Report of a report recorded before: %v, want ErrAlreadyRecorded", err)
	}
	if p1 := expectStatus(t, p, "p1", accepted, "ACCP", at, false); !p1.AppliedAt.Equal(applied) {
		t.Fatalf("p1 applied at %s after the report came again, want %s", p1.AppliedAt, applied)
	}
	expectStatus(t, p, "p2", instructed, "", time.Time{}, false)
	files := allFiles(t, b.Ledger)
	if len(files) != 1 || files[0].Name != r.Name || !files[0].IngestedAt.Equal(r.IngestedAt) {
		t.Fatalf("files after the report came again: %+v, want the first delivery only", files)
	}
	// Reports and ingested files share their ids: a report under an ingested file's id is
	// one recorded before.
	ingest(t, b.Ledger, file("camt-1", at))
	if _, err := p.Report(ctxOf(t), reportFile("camt-1", at), []ledger.PayoutStatus{status("F1", "p2", accepted, at)}); !errors.Is(err, ledger.ErrAlreadyRecorded) {
		t.Fatalf("Report under an ingested file's id: %v, want ErrAlreadyRecorded", err)
	}
	expectStatus(t, p, "p2", instructed, "", time.Time{}, false)
}

func expectPendingPayouts(t *testing.T, p ledger.Payouts, limit int, want ...string) []ledger.Payout {
	t.Helper()
	got, err := p.PendingPayouts(ctxOf(t), limit)
	if err != nil {
		t.Fatalf("PendingPayouts(%d): %v", limit, err)
	}
	if o := orders(got); !slices.Equal(o, want) {
		t.Fatalf("PendingPayouts(%d): %v, want %v", limit, o, want)
	}
	for _, in := range got {
		if !in.Pending || !in.AppliedAt.IsZero() {
			t.Fatalf("a pending instruction %s says pending %t, applied at %s", in.OrderID, in.Pending, in.AppliedAt)
		}
	}
	return got
}

func expectPayoutApplied(t *testing.T, p ledger.Payouts, id string, at time.Time) {
	t.Helper()
	in := payoutOf(t, p, id)
	if in.Pending || !in.AppliedAt.Equal(at) {
		t.Fatalf("instruction %s: pending %t, applied at %s; want done at %s", id, in.Pending, in.AppliedAt, at)
	}
}

func testPayoutsPendingUntilDone(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	released(t, p, "F1", base, "p1", "p2", "p3", "p4", "p5")
	expectPendingPayouts(t, p, 10)
	at := base.Add(time.Hour)
	report(t, p, reportFile("r1", at), status("F1", "p4", accepted, at), status("F1", "p1", rejected, at),
		status("F1", "p3", accepted, at), status("F1", "p5", accepted, at))
	expectPendingPayouts(t, p, 2, "p1", "p3")
	first := expectPendingPayouts(t, p, 1000, "p1", "p3", "p4", "p5")
	t1, t2, t3 := at.Add(time.Minute), at.Add(2*time.Minute), at.Add(3*time.Minute)
	done(t, p, t1, first[0], first[1])
	expectPendingPayouts(t, p, 10, "p4", "p5")
	expectPayoutApplied(t, p, "p1", t1)
	expectPayoutApplied(t, p, "p3", t1)
	// Done again, of instructions done already, never pending or unknown: left alone.
	p2 := payoutOf(t, p, "p2")
	if err := p.PayoutsDone(ctxOf(t), []int64{first[0].ID, first[2].ID, first[2].ID, p2.ID, 1 << 40, -1}, t2); err != nil {
		t.Fatal(err)
	}
	if err := p.PayoutsDone(ctxOf(t), nil, t3); err != nil {
		t.Fatal(err)
	}
	expectPendingPayouts(t, p, 10, "p5")
	expectPayoutApplied(t, p, "p1", t1)
	expectPayoutApplied(t, p, "p4", t2)
	expectPayoutApplied(t, p, "p2", time.Time{})
	// A new status makes a done instruction pending again, not applied.
	report(t, p, reportFile("r2", at.Add(time.Hour)), status("F1", "p4", rejected, at.Add(time.Hour)))
	expectPendingPayouts(t, p, 10, "p4", "p5")
}

func testReleasedExcludes(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	rel := base.Add(time.Hour)
	released(t, p, "F1", rel, "accepted", "rejected", "returned", "returned-elsewhere", "instructed")
	instruct(t, p, payout("unreleased"), payout("unfiled"))
	addFile(t, p, "F2", rel, payoutOf(t, p, "unreleased"))
	at := rel.Add(time.Hour)
	report(t, p, reportFile("r1", at), status("F1", "accepted", accepted, at), status("F1", "rejected", rejected, at))
	expectReleased(t, p, time.Time{}, "accepted", "returned", "returned-elsewhere", "instructed")
	// The bank sent two back: the transfer of returned, and one of another end-to-end id
	// that names the order returned-elsewhere (a row names its transfer by end-to-end id,
	// not by order). A receipt of the transfer of instructed returns nothing.
	ingest(t, b.Ledger, file("camt-1", at.Add(time.Hour)),
		row("RET-1", returned, forOrder("tenant-a", "returned", 0), transfer("returned")),
		row("RET-2", returned, forOrder("tenant-a", "returned-elsewhere", 0), transfer("another-transfer")),
		row("OTHER", matched, forOrder("tenant-a", "instructed", 0), transfer("instructed")))
	got := expectReleased(t, p, time.Time{}, "accepted", "returned-elsewhere", "instructed")
	for _, in := range got {
		expectTime(t, in.OrderID+"'s ReleasedAt", in.ReleasedAt, rel)
		if in.FileMessageID != "F1" {
			t.Fatalf("released %s names file %q, want F1", in.OrderID, in.FileMessageID)
		}
	}
	if got[0].Status != accepted || got[2].Status != instructed {
		t.Fatalf("released statuses: %s, %s", got[0].Status, got[2].Status)
	}
	release(t, p, "F2", at)
	expectReleased(t, p, time.Time{}, "accepted", "returned-elsewhere", "instructed", "unreleased")
}

func testDebitWindow(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	released(t, p, "F1", base, "a", "b", "c")
	t1, t2 := base.Add(time.Hour), base.Add(5*time.Hour)
	// a's debit was ingested at t1 (with one that names c's order but is another
	// transfer), b's at t2.
	ingest(t, b.Ledger, file("camt-1", t1), row("D-A", paidOut, forOrder("tenant-a", "a", 0), transfer("a")),
		row("D-C", paidOut, forOrder("tenant-a", "c", 0), transfer("c-elsewhere")))
	ingest(t, b.Ledger, file("camt-2", t2), row("D-B", paidOut, forOrder("tenant-a", "b", 0), transfer("b")))
	expectReleased(t, p, time.Time{}, "a (debited)", "b (debited)", "c")
	expectReleased(t, p, t1, "a (debited)", "b (debited)", "c")
	expectReleased(t, p, t1.Add(time.Millisecond), "b (debited)", "c")
	expectReleased(t, p, t2, "b (debited)", "c")
	expectReleased(t, p, t2.Add(time.Hour), "c")
	// b comes back after its debit: returned, it is not listed at all.
	ingest(t, b.Ledger, file("camt-3", t2.Add(time.Hour)), row("R-B", returned, forOrder("tenant-a", "b", 0), transfer("b")))
	expectReleased(t, p, t1, "a (debited)", "c")
}

func testListPaging(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	purposes := []ledger.Purpose{ledger.PurposePayout, ledger.PurposeRefund, ledger.PurposeResidual}
	var ps []ledger.Payout
	for i := range 130 {
		ns := "tenant-a"
		if i%3 == 0 {
			ns = "tenant-b"
		}
		ps = append(ps, instruction(ns, fmt.Sprintf("order-%d", i/3), purposes[i%3], endToEnd(fmt.Sprintf("E%03d", i))))
	}
	if n := instruct(t, p, ps...); n != len(ps) {
		t.Fatalf("Instruct of %d instructions recorded %d", len(ps), n)
	}
	all := allPayouts(t, p, ledger.PayoutQuery{})
	if len(all) != len(ps) {
		t.Fatalf("all instructions: %d, want %d", len(all), len(ps))
	}
	for i := 1; i < len(all); i++ {
		if all[i].ID >= all[i-1].ID {
			t.Fatalf("instructions are not newest first: id %d after %d", all[i].ID, all[i-1].ID)
		}
	}
	// Some in files, some reported on.
	oldest := slices.Clone(all)
	slices.Reverse(oldest)
	addFile(t, p, "F1", base, oldest[:10]...)
	addFile(t, p, "F2", base, oldest[10:20]...)
	var sts []ledger.PayoutStatus
	for i, in := range oldest[:20] {
		st, msgID := accepted, "F1"
		if i%4 == 0 {
			st = rejected
		}
		if i >= 10 {
			msgID = "F2"
		}
		sts = append(sts, status(msgID, in.EndToEndID, st, base))
	}
	report(t, p, reportFile("r1", base), sts...)
	all = allPayouts(t, p, ledger.PayoutQuery{})
	// The default page is 100.
	page, next, err := p.ListPayouts(ctxOf(t), ledger.PayoutQuery{})
	if err != nil || len(page) != 100 || next == "" || page[0].ID != all[0].ID {
		t.Fatalf("the first default page: %d instructions, next %q, %v; want 100 and a cursor", len(page), next, err)
	}
	// Pages of 7, with instructions recorded while paging (newer): the pages still cover
	// the instructions as they were, each once.
	added := 0
	paged := pagePayouts(t, p, ledger.PayoutQuery{Limit: 7}, func() {
		added++
		instruct(t, p, instruction("tenant-c", fmt.Sprintf("later-%d", added), ledger.PurposePayout))
	})
	if got, want := payoutIDs(paged), payoutIDs(all); !slices.Equal(got, want) {
		t.Fatalf("pages of 7 with instructions recorded meanwhile: %d instructions, want the %d there were", len(got), len(want))
	}
	all = allPayouts(t, p, ledger.PayoutQuery{})
	filters := []struct {
		q    ledger.PayoutQuery
		keep func(ledger.Payout) bool
	}{
		{ledger.PayoutQuery{Statuses: []string{rejected}}, func(in ledger.Payout) bool { return in.Status == rejected }},
		{ledger.PayoutQuery{Statuses: []string{accepted, rejected}}, func(in ledger.Payout) bool { return in.Status != instructed }},
		{ledger.PayoutQuery{Statuses: []string{instructed}}, func(in ledger.Payout) bool { return in.Status == instructed }},
		{ledger.PayoutQuery{Namespace: "tenant-b"}, func(in ledger.Payout) bool { return in.Namespace == "tenant-b" }},
		{ledger.PayoutQuery{Namespace: "tenant-a", OrderID: "order-4"}, func(in ledger.Payout) bool {
			return in.Namespace == "tenant-a" && in.OrderID == "order-4"
		}},
		{ledger.PayoutQuery{FileMessageID: "F2"}, func(in ledger.Payout) bool { return in.FileMessageID == "F2" }},
		{ledger.PayoutQuery{Namespace: "tenant-a", FileMessageID: "F1", Statuses: []string{accepted}}, func(in ledger.Payout) bool {
			return in.Namespace == "tenant-a" && in.FileMessageID == "F1" && in.Status == accepted
		}},
		{ledger.PayoutQuery{Namespace: "tenant-z"}, func(ledger.Payout) bool { return false }},
		{ledger.PayoutQuery{FileMessageID: "F9"}, func(ledger.Payout) bool { return false }},
		{ledger.PayoutQuery{Purposes: []ledger.Purpose{ledger.PurposeRefund}}, func(in ledger.Payout) bool {
			return in.Purpose == ledger.PurposeRefund
		}},
		{ledger.PayoutQuery{Namespace: "tenant-a", Purposes: []ledger.Purpose{ledger.PurposePayout, ledger.PurposeResidual}},
			func(in ledger.Payout) bool { return in.Namespace == "tenant-a" && in.Purpose != ledger.PurposeRefund }},
		{ledger.PayoutQuery{Purposes: []ledger.Purpose{ledger.PurposeExcess}}, func(ledger.Payout) bool { return false }},
		{ledger.PayoutQuery{EndToEndID: "E007"}, func(in ledger.Payout) bool { return in.EndToEndID == "E007" }},
		{ledger.PayoutQuery{EndToEndID: "E007", Statuses: []string{accepted}}, func(in ledger.Payout) bool {
			return in.EndToEndID == "E007" && in.Status == accepted
		}},
		{ledger.PayoutQuery{EndToEndID: "E007", Namespace: "tenant-b"}, func(ledger.Payout) bool { return false }},
		{ledger.PayoutQuery{EndToEndID: "unknown"}, func(ledger.Payout) bool { return false }},
	}
	for _, f := range filters {
		var want []int64
		for _, in := range all {
			if f.keep(in) {
				want = append(want, in.ID)
			}
		}
		q := f.q
		q.Limit = 3
		got := payoutIDs(pagePayouts(t, p, q, nil))
		if !slices.Equal(got, want) {
			t.Fatalf("ListPayouts(%+v) in pages of 3: %d instructions %v, want %d %v", f.q, len(got), got, len(want), want)
		}
	}
}

func testManyInstructions(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	const n = 1100 // more than one query's worth of keys, ids and statuses
	ps := make([]ledger.Payout, 0, n)
	for i := range n {
		ps = append(ps, payout(fmt.Sprintf("order-%04d", i)))
	}
	if got := instruct(t, p, ps...); got != n {
		t.Fatalf("Instruct of %d recorded %d", n, got)
	}
	if got := instruct(t, p, ps...); got != 0 {
		t.Fatalf("Instruct of %d again recorded %d", n, got)
	}
	unfiled, err := p.Unfiled(ctxOf(t), 10_000)
	if err != nil || len(unfiled) != n {
		t.Fatalf("Unfiled(10000): %d, %v; want %d", len(unfiled), err, n)
	}
	for i, in := range unfiled {
		if in.OrderID != ps[i].OrderID {
			t.Fatalf("unfiled instruction %d is %s, want %s: ids do not follow the order given", i, in.OrderID, ps[i].OrderID)
		}
	}
	addFile(t, p, "BIG", base, unfiled...)
	expectUnfiled(t, p, 10)
	release(t, p, "BIG", base.Add(time.Minute))
	at := base.Add(time.Hour)
	sts := make([]ledger.PayoutStatus, 0, n)
	for i, in := range unfiled {
		st := accepted
		if i%3 == 0 {
			st = rejected
		}
		sts = append(sts, status("BIG", in.EndToEndID, st, at))
	}
	if got := report(t, p, reportFile("r1", at), sts...); got != n {
		t.Fatalf("a report of %d statuses changed %d", n, got)
	}
	if got := len(allPayouts(t, p, ledger.PayoutQuery{Statuses: []string{rejected}})); got != (n+2)/3 {
		t.Fatalf("%d rejected, want %d", got, (n+2)/3)
	}
	var all []ledger.Payout
	for _, limit := range []int{1000, 1000} {
		page, err := p.PendingPayouts(ctxOf(t), limit)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, page...)
		if len(page) == 1000 {
			done(t, p, at, page...)
		}
	}
	if len(all) != n {
		t.Fatalf("%d pending in two pages of 1000 done as they came, want %d", len(all), n)
	}
	done(t, p, at, all...)
	expectPendingPayouts(t, p, 1000)
	if got, err := p.Released(ctxOf(t), time.Time{}); err != nil || len(got) != n-(n+2)/3 {
		t.Fatalf("Released: %d, %v; want the %d accepted", len(got), err, n-(n+2)/3)
	}
}

func testPayoutsInvalid(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	instruct(t, p, payout("ok-1"), payout("ok-2"), payout("ok-3"))
	ok1, ok2 := payoutOf(t, p, "ok-1"), payoutOf(t, p, "ok-2")
	addFile(t, p, "F1", base, ok1)
	_, cursor, err := p.ListPayouts(ctxOf(t), ledger.PayoutQuery{Limit: 1})
	if err != nil || cursor == "" {
		t.Fatalf("a page of one of three instructions: cursor %q, %v", cursor, err)
	}
	ingest(t, b.Ledger, file("camt", base), row("E1", matched), row("E2", matched))
	_, rowCursor, err := b.Ledger.Rows(ctxOf(t), ledger.Query{Limit: 1})
	if err != nil || rowCursor == "" {
		t.Fatalf("a page of one of two rows: cursor %q, %v", rowCursor, err)
	}
	ctx := ctxOf(t)
	n := 0
	// instructWith instructs a valid new instruction and the one opt makes of another.
	instructWith := func(opt func(*ledger.Payout)) func() error {
		return func() error {
			n++
			_, err := p.Instruct(ctx, []ledger.Payout{payout(fmt.Sprintf("new-%d", n)), payout(fmt.Sprintf("bad-%d", n), opt)})
			return err
		}
	}
	badFile := func(change func(*ledger.OutFile)) ledger.OutFile {
		f := outFile("F-BAD", base)
		change(&f)
		return f
	}
	calls := map[string]func() error{
		"Instruct without namespace":             instructWith(func(p *ledger.Payout) { p.Namespace = "" }),
		"Instruct without order":                 instructWith(func(p *ledger.Payout) { p.OrderID = "" }),
		"Instruct without purpose":               instructWith(func(p *ledger.Payout) { p.Purpose = "" }),
		"Instruct of an unknown purpose":         instructWith(func(p *ledger.Payout) { p.Purpose = "Gift" }),
		"Instruct without end-to-end id":         instructWith(func(p *ledger.Payout) { p.EndToEndID = "" }),
		"Instruct of nothing":                    instructWith(amount(0)),
		"Instruct of a negative amount":          instructWith(amount(-1)),
		"Instruct without currency":              instructWith(func(p *ledger.Payout) { p.Currency = "" }),
		"Instruct without creditor IBAN":         instructWith(func(p *ledger.Payout) { p.CreditorIBAN = "" }),
		"Instruct without debtor IBAN":           instructWith(func(p *ledger.Payout) { p.DebtorIBAN = "" }),
		"Instruct without execution date":        instructWith(func(p *ledger.Payout) { p.ExecutionDate = time.Time{} }),
		"Instruct of a long remittance":          instructWith(func(p *ledger.Payout) { p.RemittanceInfo = strings.Repeat("x", 141) }),
		"Instruct of an instruction in a file":   instructWith(func(p *ledger.Payout) { p.FileMessageID = "F1" }),
		"Instruct of an instruction with status": instructWith(func(p *ledger.Payout) { p.Status = accepted }),
		"Instruct of a pending instruction":      instructWith(func(p *ledger.Payout) { p.Pending = true }),
		"Unfiled of limit 0":                     func() error { _, err := p.Unfiled(ctx, 0); return err },
		"Unfiled of limit 10001":                 func() error { _, err := p.Unfiled(ctx, 10_001); return err },
		"AddFile without instructions":           func() error { return p.AddFile(ctx, outFile("F-BAD", base), nil) },
		"AddFile of an unknown instruction":      func() error { return p.AddFile(ctx, outFile("F-BAD", base), []int64{ok2.ID, 1 << 40}) },
		"AddFile of one instruction twice": func() error {
			return p.AddFile(ctx, outFile("F-BAD", base), []int64{ok2.ID, ok2.ID})
		},
		"AddFile without message id": func() error {
			return p.AddFile(ctx, badFile(func(f *ledger.OutFile) { f.MessageID = "" }), []int64{ok2.ID})
		},
		"AddFile without name": func() error {
			return p.AddFile(ctx, badFile(func(f *ledger.OutFile) { f.Name = "" }), []int64{ok2.ID})
		},
		"AddFile under another file's name": func() error {
			return p.AddFile(ctx, badFile(func(f *ledger.OutFile) { f.Name = outFile("F1", base).Name }), []int64{ok2.ID})
		},
		"AddFile without data": func() error {
			return p.AddFile(ctx, badFile(func(f *ledger.OutFile) { f.Data, f.SHA256 = nil, "" }), []int64{ok2.ID})
		},
		"AddFile of a wrong digest": func() error {
			return p.AddFile(ctx, badFile(func(f *ledger.OutFile) { f.SHA256 = strings.Repeat("0", 64) }), []int64{ok2.ID})
		},
		"AddFile of a wrong count": func() error {
			return p.AddFile(ctx, badFile(func(f *ledger.OutFile) { f.Transfers = 2 }), []int64{ok2.ID})
		},
		"AddFile of a released file": func() error {
			return p.AddFile(ctx, badFile(func(f *ledger.OutFile) { f.ReleasedAt = base }), []int64{ok2.ID})
		},
		"MarkReleased of an unknown file":        func() error { return p.MarkReleased(ctx, "F-UNKNOWN", base) },
		"MarkReleased without time":              func() error { return p.MarkReleased(ctx, "F1", time.Time{}) },
		"Report without id":                      func() error { _, err := p.Report(ctx, reportFile("", base), nil); return err },
		"Report of a status without effect":      reportWith(ctx, p, ledger.PayoutStatus{OriginalMessageID: "F1", EndToEndID: "ok-1", Status: "PDNG"}),
		"Report of an Instructed status":         reportWith(ctx, p, ledger.PayoutStatus{OriginalMessageID: "F1", EndToEndID: "ok-1", Status: instructed}),
		"PendingPayouts of limit 0":              func() error { _, err := p.PendingPayouts(ctx, 0); return err },
		"PendingPayouts of limit 1001":           func() error { _, err := p.PendingPayouts(ctx, 1001); return err },
		"PayoutsDone without time":               func() error { return p.PayoutsDone(ctx, []int64{ok1.ID}, time.Time{}) },
		"ListPayouts of limit -1":                listWith(ctx, p, ledger.PayoutQuery{Limit: -1}),
		"ListPayouts of limit 1001":              listWith(ctx, p, ledger.PayoutQuery{Limit: 1001}),
		"ListPayouts of a bad cursor":            listWith(ctx, p, ledger.PayoutQuery{Cursor: "not a cursor"}),
		"ListPayouts of a made-up cursor":        listWith(ctx, p, ledger.PayoutQuery{Cursor: "bm90LWEtY3Vyc29y"}),
		"ListPayouts of a cursor of Rows":        listWith(ctx, p, ledger.PayoutQuery{Cursor: rowCursor}),
		"ListPayouts of an order without tenant": listWith(ctx, p, ledger.PayoutQuery{OrderID: "ok-1"}),
		"Rows of a cursor of ListPayouts": func() error {
			_, _, err := b.Ledger.Rows(ctx, ledger.Query{Cursor: cursor})
			return err
		},
		"Instruct of an instruction with a Verification of Payee result": instructWith(func(p *ledger.Payout) {
			p.VoPResult = ledger.VoPMatch
		}),
		"Instruct of an excess without source": instructWith(func(p *ledger.Payout) { p.Purpose = ledger.PurposeExcess }),
		"Instruct of a return without source":  instructWith(func(p *ledger.Payout) { p.Purpose = ledger.PurposeReturn }),
		"Instruct of a payout with a source":   instructWith(from(ledger.RowSource("E1", 0))),
		"Instruct of a suspense refund without source": instructWith(func(p *ledger.Payout) {
			p.Namespace, p.OrderID, p.Purpose = "", "", ledger.PurposeSuspenseRefund
		}),
		"Instruct of a return without order": instructWith(func(p *ledger.Payout) {
			p.Namespace, p.OrderID, p.Purpose, p.Source = "", "", ledger.PurposeReturn, ledger.RowSource("E1", 0)
		}),
		"Instruct of a suspense refund of an order without namespace": instructWith(func(p *ledger.Payout) {
			p.Namespace, p.Purpose, p.Source = "", ledger.PurposeSuspenseRefund, ledger.DecisionSource("d-1")
		}),
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, ledger.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	// Nothing of it was written.
	if got := orders(allPayouts(t, p, ledger.PayoutQuery{})); !slices.Equal(got, []string{"ok-3", "ok-2", "ok-1"}) {
		t.Fatalf("instructions after the invalid calls: %v", got)
	}
	expectUnfiled(t, p, 10, "ok-2", "ok-3")
	if got := unreleasedIDs(t, p); !slices.Equal(got, []string{"F1"}) {
		t.Fatalf("files after the invalid calls: %v, want F1", got)
	}
	expectStatus(t, p, "ok-1", instructed, "", time.Time{}, false)
	expectFiles(t, b.Ledger, "camt")
}

// reportWith reports a valid status of ok-1 in F1 and st.
func reportWith(ctx context.Context, p ledger.Payouts, st ledger.PayoutStatus) func() error {
	return func() error {
		_, err := p.Report(ctx, reportFile("r-bad", base), []ledger.PayoutStatus{status("F1", "ok-1", accepted, base), st})
		return err
	}
}

func listWith(ctx context.Context, p ledger.Payouts, q ledger.PayoutQuery) func() error {
	return func() error { _, _, err := p.ListPayouts(ctx, q); return err }
}

func testConcurrentInstruct(t *testing.T, b Books, open OpenBooks) {
	replicas := []ledger.Payouts{b.Payouts, open(t).Payouts}
	const contenders = 4
	for r := range 4 {
		shared := fmt.Sprintf("shared-%d", r)
		counts := make([]int, contenders)
		errs := make([]error, contenders)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range contenders {
			ps := []ledger.Payout{payout(fmt.Sprintf("own-%d-%d", r, g)), payout(shared)}
			if g%2 == 1 {
				slices.Reverse(ps)
			}
			wg.Go(func() {
				<-start
				counts[g], errs[g] = replicas[g%len(replicas)].Instruct(ctxOf(t), ps)
			})
		}
		close(start)
		wg.Wait()
		total := 0
		for g, err := range errs {
			if err != nil {
				t.Fatalf("round %d: Instruct %d of an order others instructed at once: %v", r, g, err)
			}
			total += counts[g]
		}
		if total != contenders+1 {
			t.Fatalf("round %d: the Instructs recorded %v, %d in all; want %d (each its own, one the shared order)", r, counts, total, contenders+1)
		}
		if got := allPayouts(t, replicas[1], ledger.PayoutQuery{Namespace: "tenant-a", OrderID: shared}); len(got) != 1 {
			t.Fatalf("round %d: %d instructions of %s, want one", r, len(got), shared)
		}
	}
	if got := allPayouts(t, replicas[0], ledger.PayoutQuery{}); len(got) != 4*(contenders+1) {
		t.Fatalf("instructions after 4 rounds: %d, want %d", len(got), 4*(contenders+1))
	}
}

func testConcurrentAddFile(t *testing.T, b Books, open OpenBooks) {
	replicas := []ledger.Payouts{b.Payouts, open(t).Payouts}
	const contenders = 4
	for r := range 3 {
		a, c := fmt.Sprintf("a-%d", r), fmt.Sprintf("c-%d", r)
		instruct(t, b.Payouts, payout(a), payout(c))
		ids := []int64{payoutOf(t, b.Payouts, a).ID, payoutOf(t, b.Payouts, c).ID}
		errs := make([]error, contenders)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range contenders {
			f := outFile(fmt.Sprintf("F-%d-%d", r, g), base)
			mine := slices.Clone(ids)
			if g%2 == 1 {
				slices.Reverse(mine)
			}
			wg.Go(func() {
				<-start
				errs[g] = replicas[g%len(replicas)].AddFile(ctxOf(t), f, mine)
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for g, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("round %d: files %d and %d both recorded the instructions", r, winner, g)
			case err == nil:
				winner = g
			case !errors.Is(err, ledger.ErrAlreadyRecorded):
				t.Fatalf("round %d: the file %d that lost: %v, want ErrAlreadyRecorded", r, g, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no file recorded the instructions: %v", r, errs)
		}
		want := fmt.Sprintf("F-%d-%d", r, winner)
		for _, id := range []string{a, c} {
			if got := payoutOf(t, replicas[1], id).FileMessageID; got != want {
				t.Fatalf("round %d: %s is in file %q, want the winner's %s", r, id, got, want)
			}
		}
	}
	if got := unreleasedIDs(t, replicas[1]); len(got) != 3 {
		t.Fatalf("files after 3 rounds: %v, want one a round", got)
	}
}

func testPayoutRoundTrip(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	cest := time.FixedZone("CEST", 2*60*60)
	full := ledger.Payout{ //nolint:gosec // G101: a customer's name and IBAN (Creditor*), not credentials
		Namespace: "tenant-ä", OrderID: "0190a0b1-7c1d-7e2f-8a3b-4c5d6e7f8091", Purpose: ledger.PurposeResidual,
		EndToEndID: "E2E-0190a0b1", Amount: 9_000_000_000_000_000_000, Currency: "EUR",
		CreditorName: "Müller & Söhne GmbH", CreditorIBAN: customerIBAN,
		RemittanceInfo: strings.Repeat("ä", maxRemittance),
		DebtorName:     "Fonds Ω", DebtorIBAN: fundIBAN,
		// The calendar date as written: the 2nd, though in UTC it is still the 1st.
		ExecutionDate: time.Date(2026, 4, 2, 0, 0, 0, 0, cest),
		InstructedAt:  time.Date(2026, 4, 1, 11, 0, 2, 5_000_000, cest),
	}
	bare := payout("bare", func(p *ledger.Payout) {
		p.InstructedAt, p.CreditorName, p.DebtorName, p.RemittanceInfo = time.Time{}, "", "", ""
	})
	before := time.Now()
	instruct(t, p, full, bare)
	after := time.Now()
	got := instructionOf(t, p, full.Namespace, full.OrderID, full.Purpose)
	want := full
	want.ID, want.Status = got.ID, instructed
	want.ExecutionDate = time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC)
	expectTime(t, "ExecutionDate", got.ExecutionDate, want.ExecutionDate)
	expectTime(t, "InstructedAt", got.InstructedAt, full.InstructedAt)
	want.InstructedAt = got.InstructedAt
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the instruction read back:\n got %+v\nwant %+v", got, want)
	}
	gotBare := payoutOf(t, p, "bare")
	if gotBare.InstructedAt.Before(before.Truncate(time.Millisecond)) || gotBare.InstructedAt.After(after) ||
		gotBare.InstructedAt.Location() != time.UTC || gotBare.CreditorName != "" {
		t.Fatalf("an instruction without its time read back as %+v, want instructed between %s and %s", gotBare, before, after)
	}

	// The file: its bytes as given (not UTF-8, with a NUL), its digest and count filled in.
	data := []byte{0x3c, 0x00, 0xff, 0xfe, 'p', 'a', 'i', 'n', 0xc3}
	created := time.Date(2026, 4, 1, 11, 30, 0, 123_000_000, cest)
	f := ledger.OutFile{MessageID: "FS20260401113000-ABCDEFGHIJ", Name: "pain001 ä.xml", DebtorIBAN: fundIBAN,
		ExecutionDate: time.Date(2026, 4, 2, 0, 0, 0, 0, cest), CreatedAt: created, Data: data}
	if err := p.AddFile(ctxOf(t), f, []int64{got.ID, gotBare.ID}); err != nil {
		t.Fatal(err)
	}
	files, err := p.Unreleased(ctxOf(t))
	if err != nil || len(files) != 1 {
		t.Fatalf("Unreleased: %+v, %v", files, err)
	}
	sum := sha256.Sum256(data)
	wantFile := f
	wantFile.SHA256, wantFile.Transfers = hex.EncodeToString(sum[:]), 2
	wantFile.ExecutionDate = time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC)
	expectTime(t, "the file's ExecutionDate", files[0].ExecutionDate, wantFile.ExecutionDate)
	expectTime(t, "CreatedAt", files[0].CreatedAt, created)
	wantFile.CreatedAt = files[0].CreatedAt
	if !reflect.DeepEqual(files[0], wantFile) {
		t.Fatalf("the file read back:\n got %+v\nwant %+v", files[0], wantFile)
	}
	releasedAt := time.Date(2026, 4, 1, 11, 31, 0, 7_000_000, cest)
	release(t, p, f.MessageID, releasedAt)

	// A report: its file in the ledger; a status's time as given, or the report's.
	rpt := ledger.File{ID: "claim-9", Name: "pain002.xml", SHA256: strings.Repeat("ef", 32), MessageType: "pain.002.001.10",
		MessageID: "RPT-1", DeliveredAt: time.Date(2026, 4, 1, 12, 0, 0, 1_000_000, cest),
		IngestedAt: time.Date(2026, 4, 1, 12, 0, 1, 2_000_000, cest), Counts: map[string]int{accepted: 1, rejected: 1, "StatusPDNG": 3}}
	statusAt := time.Date(2026, 4, 1, 11, 59, 0, 999_000_000, cest)
	if n := report(t, p, rpt, ledger.PayoutStatus{OriginalMessageID: f.MessageID, EndToEndID: full.EndToEndID, Status: rejected,
		BankStatus: "RJCT", Reason: "AC04: Konto aufgelöst", At: statusAt},
		ledger.PayoutStatus{OriginalMessageID: f.MessageID, EndToEndID: "bare", Status: accepted, BankStatus: "ACSC"}); n != 2 {
		t.Fatalf("the report changed %d", n)
	}
	pending := expectPendingPayouts(t, p, 10, full.OrderID, "bare")
	got = pending[0]
	expectTime(t, "StatusAt", got.StatusAt, statusAt)
	expectTime(t, "ReleasedAt", got.ReleasedAt, releasedAt)
	expectTime(t, "the bare StatusAt", pending[1].StatusAt, rpt.IngestedAt)
	want.FileMessageID, want.ReleasedAt, want.StatusAt = f.MessageID, got.ReleasedAt, got.StatusAt
	want.Status, want.BankStatus, want.Reason, want.Pending = rejected, "RJCT", "AC04: Konto aufgelöst", true
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the reported instruction read back:\n got %+v\nwant %+v", got, want)
	}
	if listed := instructionOf(t, p, full.Namespace, full.OrderID, full.Purpose); !reflect.DeepEqual(listed, got) {
		t.Fatalf("PendingPayouts and ListPayouts read the instruction differently:\n%+v\n%+v", got, listed)
	}
	rel := expectReleased(t, p, time.Time{}, "bare")
	if wantBare := pending[1]; !reflect.DeepEqual(rel[0], wantBare) {
		t.Fatalf("Released and PendingPayouts read the instruction differently:\n%+v\n%+v", rel[0], wantBare)
	}
	applied := time.Date(2026, 4, 1, 12, 5, 0, 3_000_000, cest)
	done(t, p, applied, got)
	expectTime(t, "AppliedAt", instructionOf(t, p, full.Namespace, full.OrderID, full.Purpose).AppliedAt, applied)

	gotFiles := allFiles(t, b.Ledger)
	if len(gotFiles) != 1 {
		t.Fatalf("the ledger's files: %v", fileIDs(gotFiles))
	}
	gf := gotFiles[0]
	expectTime(t, "the report's DeliveredAt", gf.DeliveredAt, rpt.DeliveredAt)
	expectTime(t, "the report's IngestedAt", gf.IngestedAt, rpt.IngestedAt)
	gf.DeliveredAt, gf.IngestedAt = rpt.DeliveredAt, rpt.IngestedAt
	if !reflect.DeepEqual(gf, rpt) {
		t.Fatalf("the report read back:\n got %+v\nwant %+v", gf, rpt)
	}
}

// maxRemittance is the longest remittance information, in characters.
const maxRemittance = 140

// transfers is the end-to-end id of each instruction, in order, with " (debited)" after
// those Released says were debited.
func transfers(ps []ledger.Payout) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		name := p.EndToEndID
		if p.Debited {
			name += " (debited)"
		}
		out = append(out, name)
	}
	return out
}

func testSources(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	over1, over2 := ledger.RowSource("CR-1", 0), ledger.RowSource("CR-2", 1)
	excess := func(source, e2e string, opts ...func(*ledger.Payout)) ledger.Payout {
		return instruction("tenant-a", "order-a", ledger.PurposeExcess, append([]func(*ledger.Payout){from(source), endToEnd(e2e)}, opts...)...)
	}
	// An order overpaid twice owes two excesses back: two instructions of one order and
	// purpose, told apart by the row each pays back.
	if n := instruct(t, p, excess(over1, "X1"), excess(over2, "X2")); n != 2 {
		t.Fatalf("Instruct of two excesses of one order from two rows recorded %d, want 2", n)
	}
	// Asked again (with another amount: left as it was), nothing is recorded; the same
	// row under another purpose and the order's refund are other keys.
	if n := instruct(t, p, excess(over1, "X1", amount(5)), excess(over2, "X2")); n != 0 {
		t.Fatalf("Instruct of the excesses again recorded %d", n)
	}
	if n := instruct(t, p, instruction("tenant-a", "order-a", ledger.PurposeReturn, from(over1), endToEnd("R1")),
		instruction("tenant-a", "order-a", ledger.PurposeRefund)); n != 2 {
		t.Fatalf("Instruct of a return of the same row and of the order's refund recorded %d, want 2", n)
	}
	// A suspense refund names no order: its decision is its source.
	if n := instruct(t, p, suspenseRefund("d-1"), suspenseRefund("d-1"), suspenseRefund("d-2")); n != 2 {
		t.Fatalf("Instruct of two suspense refunds (one given twice) recorded %d, want 2", n)
	}
	if n := instruct(t, p, suspenseRefund("d-2", amount(7))); n != 0 {
		t.Fatalf("Instruct of a suspense refund again recorded %d", n)
	}
	want := map[string]struct {
		purpose ledger.Purpose
		source  string
	}{
		"X1": {ledger.PurposeExcess, over1}, "X2": {ledger.PurposeExcess, over2}, "R1": {ledger.PurposeReturn, over1},
		"order-a-Refund": {ledger.PurposeRefund, ""},
	}
	ofOrder := allPayouts(t, p, ledger.PayoutQuery{Namespace: "tenant-a", OrderID: "order-a"})
	if len(ofOrder) != len(want) {
		t.Fatalf("instructions of order-a: %v, want %d", transfers(ofOrder), len(want))
	}
	for _, in := range ofOrder {
		if w, ok := want[in.EndToEndID]; !ok || in.Purpose != w.purpose || in.Source != w.source || in.Amount != 1_000_000 {
			t.Fatalf("instruction %s: %s of %q, amount %d; want %+v and the first amount", in.EndToEndID, in.Purpose, in.Source, in.Amount, w)
		}
	}
	refunds := allPayouts(t, p, ledger.PayoutQuery{Purposes: []ledger.Purpose{ledger.PurposeSuspenseRefund}})
	if got := transfers(refunds); !slices.Equal(got, []string{"SR-d-2", "SR-d-1"}) {
		t.Fatalf("suspense refunds newest first: %v, want SR-d-2 and SR-d-1", got)
	}
	for _, in := range refunds {
		if in.Namespace != "" || in.OrderID != "" || in.Source != ledger.DecisionSource(strings.TrimPrefix(in.EndToEndID, "SR-")) ||
			in.Amount != 1_000_000 {
			t.Fatalf("suspense refund %s read back as %+v", in.EndToEndID, in)
		}
	}
}

func testReleasedByEndToEnd(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	// A cancelled BUY that was also overpaid sends back its refund and its excess: two
	// transfers of one order. A suspense refund names no order.
	instruct(t, p, instruction("tenant-a", "order-a", ledger.PurposeRefund),
		instruction("tenant-a", "order-a", ledger.PurposeExcess, from(ledger.RowSource("CR-1", 0))),
		suspenseRefund("d-1"))
	all := expectUnfiled(t, p, 10, "order-a", "order-a", "")
	addFile(t, p, "F1", base, all...)
	release(t, p, "F1", base.Add(time.Minute))
	released := func(want ...string) []ledger.Payout {
		t.Helper()
		got, err := p.Released(ctxOf(t), time.Time{})
		if err != nil {
			t.Fatalf("Released: %v", err)
		}
		if names := transfers(got); !slices.Equal(names, want) {
			t.Fatalf("Released: %v, want %v", names, want)
		}
		return got
	}
	released("order-a-Refund", "order-a-Excess", "SR-d-1")
	// The refund's debit names the order, as the excess's would: its end-to-end id says
	// which of the two it is.
	ingest(t, b.Ledger, file("camt-1", base.Add(time.Hour)),
		row("D-1", paidOut, forOrder("tenant-a", "order-a", 0), transfer("order-a-Refund")))
	released("order-a-Refund (debited)", "order-a-Excess", "SR-d-1")
	// The excess comes back, and the suspense refund is debited.
	ingest(t, b.Ledger, file("camt-2", base.Add(2*time.Hour)),
		row("R-1", returned, forOrder("tenant-a", "order-a", 0), transfer("order-a-Excess")),
		row("D-2", paidOut, transfer("SR-d-1")))
	got := released("order-a-Refund (debited)", "SR-d-1 (debited)")
	if got[1].Namespace != "" || got[1].OrderID != "" || got[1].Purpose != ledger.PurposeSuspenseRefund {
		t.Fatalf("the released suspense refund: %+v", got[1])
	}
	// The window of a second debit ends for each transfer by its own debit.
	if got, err := p.Released(ctxOf(t), base.Add(90*time.Minute)); err != nil || !slices.Equal(transfers(got), []string{"SR-d-1 (debited)"}) {
		t.Fatalf("Released after the refund's debit: %v, %v; want the suspense refund's only", transfers(got), err)
	}
}

// vop is a status of the transfer e2e of file F1 reported at at, with a Verification of
// Payee result.
func vop(e2e, st, result, name string, at time.Time) ledger.PayoutStatus {
	s := status("F1", e2e, st, at)
	if st == instructed {
		s.BankStatus, s.Reason = "", ""
	}
	s.VoPResult, s.VoPName = result, name
	return s
}

// expectVoP checks the Verification of Payee result of tenant-a/id's proceeds.
func expectVoP(t *testing.T, p ledger.Payouts, id, result, name string) {
	t.Helper()
	if in := payoutOf(t, p, id); in.VoPResult != result || in.VoPName != name {
		t.Fatalf("instruction %s: Verification of Payee %q (%q), want %q (%q)", id, in.VoPResult, in.VoPName, result, name)
	}
}

func testVerificationOfPayee(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	released(t, p, "F1", base, "p1", "p2", "p3", "p4")
	at := base.Add(time.Hour)
	// The bank verified p1's payee and has not decided yet; it accepted p2 with a match;
	// it accepted p3 without a result.
	if n := report(t, p, reportFile("r1", at), vop("p1", instructed, ledger.VoPCloseMatch, "Kunde GmbH", at),
		vop("p2", accepted, ledger.VoPMatch, "", at), status("F1", "p3", accepted, at)); n != 3 {
		t.Fatalf("a report of a result, an acceptance with one and one without changed %d, want 3", n)
	}
	expectStatus(t, p, "p1", instructed, "", time.Time{}, true)
	expectVoP(t, p, "p1", ledger.VoPCloseMatch, "Kunde GmbH")
	expectStatus(t, p, "p2", accepted, "ACCP", at, true)
	expectVoP(t, p, "p2", ledger.VoPMatch, "")
	expectVoP(t, p, "p3", "", "")
	// Every read returns the result.
	pending := expectPendingPayouts(t, p, 10, "p1", "p2", "p3")
	for _, in := range pending {
		if listed := payoutOf(t, p, in.OrderID); !reflect.DeepEqual(listed, in) {
			t.Fatalf("PendingPayouts and ListPayouts read %s differently:\n%+v\n%+v", in.OrderID, in, listed)
		}
	}
	for _, in := range expectReleased(t, p, time.Time{}, "p1", "p2", "p3", "p4") {
		want := payoutOf(t, p, in.OrderID)
		if !reflect.DeepEqual(in, want) {
			t.Fatalf("Released and ListPayouts read %s differently:\n%+v\n%+v", in.OrderID, in, want)
		}
	}
	done(t, p, at, pending...)
	// The same result again changes nothing; another result changes the instruction even
	// with the status it has, which stays as it was.
	later := at.Add(time.Hour)
	if n := report(t, p, reportFile("r2", later), vop("p1", instructed, ledger.VoPCloseMatch, "Kunde GmbH", later),
		vop("p2", accepted, ledger.VoPNotPossible, "", later), status("F1", "p3", accepted, later)); n != 1 {
		t.Fatalf("a report of one new result changed %d, want 1", n)
	}
	expectPendingPayouts(t, p, 10, "p2")
	expectStatus(t, p, "p2", accepted, "ACCP", at, true)
	expectVoP(t, p, "p2", ledger.VoPNotPossible, "")
	// A new status with a new result is one change; the result replaces the name too.
	last := later.Add(time.Hour)
	if n := report(t, p, reportFile("r3", last), vop("p1", accepted, ledger.VoPMatch, "", last)); n != 1 {
		t.Fatalf("a report of an acceptance with a new result changed %d, want 1", n)
	}
	expectStatus(t, p, "p1", accepted, "ACCP", last, true)
	expectVoP(t, p, "p1", ledger.VoPMatch, "")
	// Two statuses of one instruction in one report: the rejection wins, and the last
	// result.
	if n := report(t, p, reportFile("r4", last), vop("p4", rejected, ledger.VoPNoMatch, "", last),
		vop("p4", accepted, ledger.VoPCloseMatch, "Kundin", last)); n != 1 {
		t.Fatalf("a report of two statuses of p4 changed %d, want 1", n)
	}
	expectStatus(t, p, "p4", rejected, "RJCT", last, true)
	expectVoP(t, p, "p4", ledger.VoPCloseMatch, "Kundin")
	// A result changes a rejected instruction too, which stays rejected.
	if n := report(t, p, reportFile("r5", last.Add(time.Hour)), vop("p4", accepted, ledger.VoPNoMatch, "", last.Add(time.Hour))); n != 1 {
		t.Fatalf("a report of a new result of a rejected instruction changed %d, want 1", n)
	}
	expectStatus(t, p, "p4", rejected, "RJCT", last, true)
	expectVoP(t, p, "p4", ledger.VoPNoMatch, "")
}

// testResend: a payout an operator decided to send again is a second instruction of its
// order and purpose, keyed by the decision (asked twice, recorded once); a payout's Source
// can be nothing else.
func testResend(t *testing.T, b Books, _ OpenBooks) {
	p := b.Payouts
	instruct(t, p, payout("order-r"))
	again := payout("order-r", func(in *ledger.Payout) { in.Source, in.EndToEndID = ledger.ResendSource("resend-1"), "FSP-order-r-1" })
	if n := instruct(t, p, again); n != 1 {
		t.Fatalf("the payout sent again: %d recorded, want 1", n)
	}
	if n := instruct(t, p, again); n != 0 {
		t.Fatalf("the same decision asked again: %d recorded, want 0", n)
	}
	if got := allPayouts(t, p, ledger.PayoutQuery{Namespace: "tenant-a", OrderID: "order-r"}); len(got) != 2 || got[0].Source != ledger.ResendSource("resend-1") {
		t.Fatalf("instructions of order-r, newest first: %+v, want the one sent again first of two", got)
	}
	other := payout("order-r", func(in *ledger.Payout) { in.Source, in.EndToEndID = "entry/X/0", "FSP-order-r-2" })
	if _, err := p.Instruct(context.Background(), []ledger.Payout{other}); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("a payout with a source that is no decision's: %v, want ErrInvalid", err)
	}
}
