package bank_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/bank"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The bank suite runs the production manager (admission, the controllers, the sandbox
// settlement agent with no delay for every step but the payment received, which is the
// bank's) with a real SQLite archive holding the bank ledger and a real folder connector
// in a temporary folder. Files are delivered into its inbox as a bank's transfer agent
// delivers them (written under a temporary name, then renamed), and the ingestion polls
// it every 100 ms.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})
	archiveStore  archive.Store
	books         ledger.Store
	folder        string
	stopMgr       func()
	mgr           *envtest.Manager
	fileSeq       atomic.Int64
	// channel is the folder connector the manager uses, which specs make fail a step.
	channel *flakyConnector
)

const pollInterval = 100 * time.Millisecond

func TestBank(t *testing.T) {
	env.Run(t, "Bank ingestion suite", func() {
		dir, err := filepath.Abs(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		archiveStore, err = sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(archiveStore.Close()).To(Succeed()) })
		var ok bool
		books, ok = sqlstore.Ledger(archiveStore)
		Expect(ok).To(BeTrue())
		folder = filepath.Join(dir, "bank")
		Expect(os.MkdirAll(folder, 0o750)).To(Succeed())
		f, err := connector.OpenFolder(folder)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(f.Close()).To(Succeed()) })
		channel = &flakyConnector{Connector: f}
		stopMgr = startManager()
		DeferCleanup(func() { stopMgr() })
	})
}

// startManager starts the production manager with the bank ingestion on.
func startManager() func() {
	GinkgoHelper()
	return startManagerOn(archiveStore)
}

// startManagerOn starts it with st as its archive, and so its bank ledger.
func startManagerOn(st archive.Store) func() {
	GinkgoHelper()
	mgr = env.StartManager(env.Config, apptest.Manager(app.Config{
		Webhooks: true, Controllers: true, SandboxSettlement: 0, Archive: st,
		BankFolder: folder, BankPollInterval: pollInterval, BankConnector: channel,
	}))
	return mgr.Stop
}

// newMarket is a fund with one share class and a NAV of 100 EUR.
func newMarket() string {
	GinkgoHelper()
	isin := envtest.NewISIN()
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, isin)
	sc.Spec.MinInvestment = 0
	Expect(k8s.Create(ctx, fund)).To(Succeed())
	Expect(k8s.Create(ctx, sc)).To(Succeed())
	Expect(k8s.Create(ctx, fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 1_000_000}))).To(Succeed())
	return isin
}

// waitingBuy places a BUY of units in a new tenant and returns it once it waits for its
// payment, with its quote (amount due, RF reference, the fund's account).
func waitingBuy(units int64) *investv1.Order {
	GinkgoHelper()
	isin := newMarket()
	a, _, _ := env.NewCustomer(env.NewTenant("bank"))
	o := fixtures.BuyOrder(a.Namespace, a.Name, isin, units)
	Expect(k8s.Create(ctx, o)).To(Succeed())
	Eventually(func() investv1.OrderState {
		_ = k8s.Get(ctx, client.ObjectKeyFromObject(o), o)
		return o.Status.State
	}).WithTimeout(time.Minute).Should(Equal(investv1.StateAwaitingPayment))
	Expect(o.Spec.Quote).NotTo(BeNil())
	Expect(o.Spec.Quote.PaymentDetails).NotTo(BeNil())
	return o
}

// credit is a booked SEPA credit of amount into the fund's account from the customer of
// fixtures, quoting reference (empty: none), under the bank reference ref.
func credit(ref string, amount int64, currency, reference string) iso20022.NotificationEntry {
	day := time.Now().UTC().Truncate(24 * time.Hour)
	return iso20022.NotificationEntry{
		AccountServicerRef: ref, Amount: amount, Currency: currency, CreditDebit: iso20022.Credit,
		BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/RCDT/ESCT",
		Transactions: []iso20022.NotificationTransaction{{
			Amount: amount, DebtorName: "Erika Mustermann", DebtorIBAN: fixtures.IBAN, CreditorReference: reference,
		}},
	}
}

// camt054 is a camt.054.001.08 crediting the fund's account with entries.
func camt054(entries ...iso20022.NotificationEntry) []byte {
	GinkgoHelper()
	n := fileSeq.Add(1)
	data, err := iso20022.WriteCamt054(&iso20022.Notification{
		MessageID: fmt.Sprintf("TEST-%d-%d", time.Now().UnixNano(), n), CreatedAt: time.Now(),
		ID: fmt.Sprintf("NTF-%d", n), AccountIBAN: fixtures.FundIBAN, Currency: "EUR", Entries: entries,
	})
	Expect(err).NotTo(HaveOccurred())
	return data
}

// deliver puts data into the inbox as a transfer agent does, and returns the name.
func deliver(data []byte) string {
	GinkgoHelper()
	name := fmt.Sprintf("camt054-test-%d-%d.xml", time.Now().UnixNano(), fileSeq.Add(1))
	inbox := filepath.Join(folder, "inbox")
	tmp := filepath.Join(inbox, name+".part")
	Expect(os.WriteFile(tmp, data, 0o600)).To(Succeed())
	Expect(os.Rename(tmp, filepath.Join(inbox, name))).To(Succeed())
	return name
}

// finished waits until the delivered file is in processed/ or rejected/ and returns
// which; rejected files are kept with a ".reason" file beside them.
func finished(name string) string {
	GinkgoHelper()
	var where string
	Eventually(func() string {
		for _, dir := range []string{"processed", "rejected"} {
			entries, _ := os.ReadDir(filepath.Join(folder, dir))
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), name) {
					where = dir
					return where
				}
			}
		}
		return ""
	}).WithTimeout(time.Minute).WithPolling(50 * time.Millisecond).ShouldNot(BeEmpty())
	return where
}

// reasonOf is the reason the connector kept beside a rejected file.
func reasonOf(name string) string {
	GinkgoHelper()
	entries, err := os.ReadDir(filepath.Join(folder, "rejected"))
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), name+".reason") {
			data, err := os.ReadFile(filepath.Join(folder, "rejected", e.Name()))
			Expect(err).NotTo(HaveOccurred())
			return string(data)
		}
	}
	Fail("no reason kept for " + name)
	return ""
}

// rowsOf are the ledger's rows of one order, oldest first.
func rowsOf(o *investv1.Order) []ledger.Row {
	GinkgoHelper()
	rows, _, err := books.Rows(ctx, ledger.Query{Namespace: o.Namespace, OrderID: o.Name, Limit: 1000})
	Expect(err).NotTo(HaveOccurred())
	sort.Slice(rows, func(i, j int) bool { return rows[i].ID < rows[j].ID })
	return rows
}

// rowsOfEntry are the ledger's rows of one bank reference.
func rowsOfEntry(ref string) []ledger.Row {
	GinkgoHelper()
	return rowsWhere(ledger.Query{}, ref)
}

// rowsWhere are the rows q selects of one bank reference, every page read.
func rowsWhere(q ledger.Query, ref string) []ledger.Row {
	GinkgoHelper()
	var out []ledger.Row
	q.Limit = 1000
	for {
		rows, next, err := books.Rows(ctx, q)
		Expect(err).NotTo(HaveOccurred())
		for _, r := range rows {
			if r.EntryReference == ref {
				out = append(out, r)
			}
		}
		if next == "" {
			return out
		}
		q.Cursor = next
	}
}

// fresh is o as the API server has it now.
func fresh(o *investv1.Order) *investv1.Order {
	GinkgoHelper()
	cur := &investv1.Order{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
	return cur
}

// reasons are the reasons of the Events about o.
func reasons(o *investv1.Order) []string {
	GinkgoHelper()
	var list eventsv1.EventList
	Expect(k8s.List(ctx, &list, client.InNamespace(o.Namespace))).To(Succeed())
	var out []string
	for _, e := range list.Items {
		if e.Regarding.Name == o.Name {
			out = append(out, e.Reason)
		}
	}
	return out
}

// uniqueRef is a bank reference no other spec uses.
func uniqueRef(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, time.Now().UnixNano()%1_000_000_000_000+fileSeq.Add(1))
}

// statementEntry is a booked credit of a camt053v02 statement.
type statementEntry struct {
	ref       string
	amount    int64
	reference string
}

// camt053v02 is an end-of-day camt.053.001.02 statement of the fund's account, as many
// banks still send them, booking a SEPA credit per entry.
func camt053v02(entries ...statementEntry) []byte {
	GinkgoHelper()
	n := fileSeq.Add(1)
	day := time.Now().UTC().Format(time.DateOnly)
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>EOD-%d</MsgId><CreDtTm>%s</CreDtTm></GrpHdr>
    <Stmt>
      <Id>EOD-%d</Id>
      <CreDtTm>%s</CreDtTm>
      <Acct><Id><IBAN>%s</IBAN></Id><Ccy>EUR</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>%s</Dt></Dt></Bal>
`, n, time.Now().UTC().Format(time.RFC3339), n, time.Now().UTC().Format(time.RFC3339), fixtures.FundIBAN, day)
	for _, e := range entries {
		amount := iso20022Amount(e.amount)
		fmt.Fprintf(&b, `      <Ntry>
        <Amt Ccy="EUR">%s</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
        <BookgDt><Dt>%s</Dt></BookgDt><ValDt><Dt>%s</Dt></ValDt>
        <AcctSvcrRef>%s</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          <AmtDtls><TxAmt><Amt Ccy="EUR">%s</Amt></TxAmt></AmtDtls>
          <RltdPties><Dbtr><Nm>Erika Mustermann</Nm></Dbtr><DbtrAcct><Id><IBAN>%s</IBAN></Id></DbtrAcct></RltdPties>
          <RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp><Ref>%s</Ref></CdtrRefInf></Strd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>
`, amount, day, day, e.ref, amount, fixtures.IBAN, e.reference)
	}
	b.WriteString("    </Stmt>\n  </BkToCstmrStmt>\n</Document>\n")
	return []byte(b.String())
}

// iso20022Amount is an amount in money units as a camt amount (two decimals).
func iso20022Amount(units int64) string {
	return fmt.Sprintf("%d.%02d", units/10_000, units%10_000/100)
}

// failingLedger is the suite's real ledger whose first failIngests Ingests fail as a
// database that does not answer would.
type failingLedger struct {
	ledger.Store
	failIngests atomic.Int64
}

func (l *failingLedger) Ingest(ctx context.Context, f ledger.File, rows []ledger.Row) error {
	if l.failIngests.Add(-1) >= 0 {
		return fmt.Errorf("%w: injected", ledger.ErrUnavailable)
	}
	return l.Store.Ingest(ctx, f, rows)
}

// recordPendingPayment records in the ledger, as the ingestion does before it writes
// anything on the order, a payment of o's amount due under the bank reference ref,
// still to be written on o: what a crash between the two leaves behind.
func recordPendingPayment(o *investv1.Order, ref string) {
	GinkgoHelper()
	due := bank.AmountDue(o)
	Expect(books.Ingest(ctx, ledger.File{ID: "pending-" + ref[:min(len(ref), 40)], Name: "pending.xml", SHA256: "00",
		IngestedAt: time.Now().UTC(), Counts: map[string]int{string(reconcile.Matched): 1}},
		[]ledger.Row{{
			EntryReference: ref, Kind: string(reconcile.Matched), Rule: string(reconcile.ByReference),
			CreditDebit: "CRDT", Amount: due, Currency: "EUR", Namespace: o.Namespace, OrderID: o.Name,
			Due: due, Received: due, Pending: true,
		}})).To(Succeed())
}

// flakyConnector is the suite's folder connector; a spec makes its Release fail as a
// process killed at that step would: before the file is written (failBefore), or after
// it is written and before the caller learns so (failAfter).
type flakyConnector struct {
	connector.Connector
	failBefore, failAfter atomic.Bool
}

func (c *flakyConnector) Release(ctx context.Context, name string, data []byte) (bool, error) {
	if c.failBefore.Load() {
		return false, fmt.Errorf("injected: killed before releasing %s", name)
	}
	again, err := c.Connector.Release(ctx, name, data)
	if err == nil && c.failAfter.Load() {
		return false, fmt.Errorf("injected: killed after releasing %s", name)
	}
	return again, err
}
