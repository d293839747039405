package bank_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/bank"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

var _ = Describe("Bank ingestion", func() {
	It("records nothing as paid without a bank file: the sandbox leaves the payment to the bank", func() {
		o := waitingBuy(1)
		Consistently(func() *investv1.SettlementRecord {
			return fresh(o).Status.Settlement.PaymentReceived
		}).WithTimeout(2 * time.Second).WithPolling(200 * time.Millisecond).Should(BeNil())
		Expect(fresh(o).Status.State).To(Equal(investv1.StateAwaitingPayment))
	})

	It("pays a waiting BUY from a booked credit quoting its RF reference, with the moves it unlocks in the same write", func() {
		o := waitingBuy(10)
		due := bank.AmountDue(o)
		ref := uniqueRef("BANKREF")
		name := deliver(camt054(credit(ref, due, "EUR", o.Spec.Quote.PaymentDetails.PaymentReference)))
		Expect(finished(name)).To(Equal("processed"))

		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		cur := fresh(o)
		Expect(cur.Status.Settlement.PaymentReceived.Reference).To(Equal(ref), "the evidence is the bank's reference of the entry")
		Expect(cur.Status.Settlement.PaymentReceived.RecordedBy).To(Equal(bank.RecordedBy))
		states := lifecycle.HistoryStates(cur.Status.History)
		Expect(states).To(ContainElement(investv1.StatePaymentReceived))

		rows := rowsOf(o)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.Matched)))
		Expect(rows[0].Rule).To(Equal(string(reconcile.ByReference)))
		Expect(rows[0].EntryReference).To(Equal(ref))
		Expect(rows[0].Amount).To(Equal(due))
		Eventually(func() bool { return rowsOf(o)[0].Pending }).Should(BeFalse(), "the decision is marked applied once written")

		Eventually(func() investv1.OrderState { return fresh(o).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StateCompleted), "the rest of the lifecycle follows")
	})

	It("changes nothing when the same file is delivered twice", func() {
		o := waitingBuy(2)
		ref := uniqueRef("TWICE")
		data := camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))
		Expect(finished(deliver(data))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		first := fresh(o).Status.Settlement.PaymentReceived.DeepCopy()

		Expect(finished(deliver(data))).To(Equal("processed"), "a repeat is processed, not refused")
		Expect(rowsOfEntry(ref)).To(HaveLen(1), "the entry is recorded once")
		Expect(fresh(o).Status.Settlement.PaymentReceived).To(Equal(first))
		files, _, err := books.Files(ctx, 10, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(files[0].Counts).To(Equal(map[string]int{string(reconcile.Duplicate): 1}), "the repeat is counted as a duplicate")
	})

	It("takes the day's camt.053 (.001.02) repeating a camt.054's booking for a duplicate, and pays from a camt.053 alone", func() {
		notified := waitingBuy(15)
		ref := uniqueRef("DAY")
		Expect(finished(deliver(camt054(credit(ref, bank.AmountDue(notified), "EUR", notified.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(notified).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())

		// The evening statement books the same entry again, and one the day's
		// notifications did not carry.
		onlyInStatement := waitingBuy(16)
		late := uniqueRef("EOD")
		name := deliver(camt053v02(
			statementEntry{ref: ref, amount: bank.AmountDue(notified), reference: notified.Spec.Quote.PaymentDetails.PaymentReference},
			statementEntry{ref: late, amount: bank.AmountDue(onlyInStatement), reference: onlyInStatement.Spec.Quote.PaymentDetails.PaymentReference},
		))
		Expect(finished(name)).To(Equal("processed"))
		Expect(rowsOfEntry(ref)).To(HaveLen(1), "the notified booking is recorded once")
		Eventually(func() *investv1.SettlementRecord { return fresh(onlyInStatement).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(fresh(onlyInStatement).Status.Settlement.PaymentReceived.Reference).To(Equal(late))
		files, _, err := books.Files(ctx, 1, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(files[0].MessageType).To(Equal("camt.053.001.02"))
		Expect(files[0].Counts).To(Equal(map[string]int{string(reconcile.Duplicate): 1, string(reconcile.Matched): 1}))
	})

	It("refuses a file that does not parse whole, names where, and applies nothing of it", func() {
		o := waitingBuy(3)
		ref := uniqueRef("BROKEN")
		good := camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))
		broken := good[:len(good)-40] // the end of the document is cut off
		name := deliver(broken)
		Expect(finished(name)).To(Equal("rejected"))
		Expect(reasonOf(name)).NotTo(BeEmpty())
		Expect(rowsOfEntry(ref)).To(BeEmpty())
		Consistently(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Second).Should(BeNil())
	})

	It("refuses a file of another namespace than camt's, naming it", func() {
		name := deliver([]byte(`<?xml version="1.0"?><Document xmlns="urn:example:not-iso"><X/></Document>`))
		Expect(finished(name)).To(Equal("rejected"))
		Expect(reasonOf(name)).To(ContainSubstring("urn:example:not-iso"))
	})

	It("refuses a file with an amount of more than two decimals whole, naming where", func() {
		o := waitingBuy(20)
		ref := uniqueRef("DECIMALS")
		good := string(camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference)))
		amount := iso20022Amount(bank.AmountDue(o))
		Expect(strings.Count(good, ">"+amount+"<")).To(Equal(2), "the entry's and the transaction's amount")
		bad := strings.Replace(good, ">"+amount+"<", ">"+amount+"1<", 1)
		name := deliver([]byte(bad))
		Expect(finished(name)).To(Equal("rejected"))
		Expect(reasonOf(name)).To(And(ContainSubstring("Ntry[1]/Amt"), ContainSubstring("at most 2 are allowed")))
		Expect(rowsOfEntry(ref)).To(BeEmpty())
		Expect(fresh(o).Status.Settlement.PaymentReceived).To(BeNil())
	})

	It("puts a later debit returning a customer's payment into suspense for an operator, and leaves the paid order paid", func() {
		o := waitingBuy(21)
		due := bank.AmountDue(o)
		ref := uniqueRef("PAID")
		Expect(finished(deliver(camt054(credit(ref, due, "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())

		// The payer's bank recalls the transfer: the fund's account is debited, reversing
		// the credit.
		back := uniqueRef("RECALL")
		debit := credit(back, due, "EUR", "")
		debit.CreditDebit = iso20022.Debit
		debit.Reversal = true
		debit.BankTransactionCode = "PMNT/RCDT/RRTN"
		Expect(finished(deliver(camt054(debit)))).To(Equal("processed"))
		rows := rowsOfEntry(back)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.Unmatched)))
		Expect(rows[0].Reason).To(Equal(string(reconcile.ReasonDebitReversal)))
		Expect(rows[0].Pending).To(BeFalse())
		Expect(fresh(o).Status.Settlement.PaymentReceived.Reference).To(Equal(ref), "evidence is never taken back by a machine")
	})

	It("keeps an underpaid BUY waiting and completes it with the second payment", func() {
		o := waitingBuy(4)
		due := bank.AmountDue(o)
		reference := o.Spec.Quote.PaymentDetails.PaymentReference
		part := due / 4 / 100 * 100 // whole cents
		first := uniqueRef("PART1-")
		Expect(finished(deliver(camt054(credit(first, part, "EUR", reference))))).To(Equal("processed"))
		Eventually(func() []string { return reasons(o) }).WithTimeout(time.Minute).Should(ContainElement(bank.ReasonPaymentShort))
		Expect(fresh(o).Status.State).To(Equal(investv1.StateAwaitingPayment))
		Expect(fresh(o).Status.Settlement.PaymentReceived).To(BeNil())
		rows := rowsOf(o)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.Underpaid)))
		Expect(rows[0].Shortfall).To(Equal(due - part))

		second := uniqueRef("PART2-")
		Expect(finished(deliver(camt054(credit(second, due-part, "EUR", reference))))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(fresh(o).Status.Settlement.PaymentReceived.Reference).To(Equal(second), "the payment that completes it")
		rows = rowsOf(o)
		Expect(rows).To(HaveLen(2))
		Expect(rows[1].Kind).To(Equal(string(reconcile.Matched)))
		Expect(rows[1].Received).To(Equal(due))
	})

	It("executes an overpaid BUY and reports the excess to refund", func() {
		o := waitingBuy(5)
		due := bank.AmountDue(o)
		ref := uniqueRef("OVER")
		Expect(finished(deliver(camt054(credit(ref, due+500_000, "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Eventually(func() []string { return reasons(o) }).WithTimeout(time.Minute).Should(ContainElement(bank.ReasonPaymentExcess))
		rows := rowsOf(o)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.Overpaid)))
		Expect(rows[0].Excess).To(Equal(int64(500_000)))
	})

	It("puts a payment quoting a reference no order waits with into suspense, and pays nothing by its amount", func() {
		o := waitingBuy(6)
		ref := uniqueRef("UNKNOWN")
		// A valid RF reference that is not the order's, of exactly the order's amount.
		Expect(finished(deliver(camt054(credit(ref, bank.AmountDue(o), "EUR", "RF18539007547034"))))).To(Equal("processed"))
		rows := rowsOfEntry(ref)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.Unmatched)))
		Expect(rows[0].Reason).To(Equal(string(reconcile.ReasonNoWaitingOrder)))
		Expect(rows[0].OrderID).To(BeEmpty())
		Expect(rows[0].Pending).To(BeFalse())
		Consistently(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Second).Should(BeNil())
	})

	It("holds a payment in another currency than the order's in suspense, never converted", func() {
		o := waitingBuy(7)
		ref := uniqueRef("USD")
		Expect(finished(deliver(camt054(credit(ref, bank.AmountDue(o), "USD", o.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
		Eventually(func() []string { return reasons(o) }).WithTimeout(time.Minute).Should(ContainElement(bank.ReasonPaymentWrongCurrency))
		rows := rowsOf(o)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.WrongCurrency)))
		Expect(fresh(o).Status.Settlement.PaymentReceived).To(BeNil())
		Expect(fresh(o).Status.State).To(Equal(investv1.StateAwaitingPayment))
	})

	It("ignores an entry that is not booked and decides it when it comes back booked", func() {
		o := waitingBuy(8)
		ref := uniqueRef("PDNG")
		pending := credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference)
		pending.Status = "PDNG"
		pending.BookingDate = time.Time{}
		Expect(finished(deliver(camt054(pending)))).To(Equal("processed"))
		Expect(rowsOfEntry(ref)).To(BeEmpty(), "a pending entry moved no money")
		Expect(fresh(o).Status.Settlement.PaymentReceived).To(BeNil())

		Expect(finished(deliver(camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
	})

	It("writes a payment the ledger recorded before a crash when it starts again, once", func() {
		o := waitingBuy(9)
		stopMgr()
		// The ingestion died after recording its decision and before writing it on the
		// order: the ledger holds it as pending.
		ref := uniqueRef("CRASH")
		recordPendingPayment(o, ref)
		stopMgr = startManager()
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(fresh(o).Status.Settlement.PaymentReceived.Reference).To(Equal(ref))
		Eventually(func() bool { return rowsOf(o)[0].Pending }).Should(BeFalse())
	})

	It("goes on reading the inbox while a decision cannot be written on its order, which stays pending", func() {
		stuck := waitingBuy(13)
		// A decision the API server refuses to write (a reference longer than the order's
		// schema allows): the ledger keeps it pending.
		long := uniqueRef("STUCK") + strings.Repeat("X", 150)
		recordPendingPayment(stuck, long)

		o := waitingBuy(14)
		ref := uniqueRef("AFTERSTUCK")
		Expect(finished(deliver(camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(rowsOf(stuck)[0].Pending).To(BeTrue(), "the refused decision stays pending")
		Expect(fresh(stuck).Status.Settlement.PaymentReceived).To(BeNil())
		// Leave no pending row behind for the other specs: the operator's remedy is to
		// write it off (here: mark it done).
		Expect(books.Done(ctx, []int64{rowsOf(stuck)[0].ID}, time.Now().UTC())).To(Succeed())
	})

	It("records a payment that came while the ledger's database was killed once it is back, without a restart, once", func() {
		By("a manager whose archive, and so whose ledger, is a PostgreSQL server")
		pg := pgtest.Start(GinkgoT())
		st, err := sqlstore.Open(ctx, pg.NewDatabase(GinkgoT()), sqlstore.Options{OpTimeout: 2 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		pgBooks, ok := sqlstore.Ledger(st)
		Expect(ok).To(BeTrue())
		o := waitingBuy(17)
		stopMgr()
		stopMgr = startManagerOn(st)
		DeferCleanup(func() {
			stopMgr()
			Expect(st.Close()).To(Succeed())
			stopMgr = startManager()
		})

		By("kill -9 of the database, then the bank's notification")
		pg.Kill(GinkgoT())
		ref := uniqueRef("PGDOWN")
		name := deliver(camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference)))
		Consistently(func() string {
			entries, _ := os.ReadDir(filepath.Join(folder, "processed"))
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), name) {
					return e.Name()
				}
			}
			return ""
		}).WithTimeout(3*time.Second).Should(BeEmpty(), "nothing is finished while the ledger cannot record it")
		Expect(fresh(o).Status.Settlement.PaymentReceived).To(BeNil())

		By("the database comes back: the held file is ingested, the order paid")
		pg.Restart(GinkgoT())
		Expect(finished(name)).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		rows, _, err := pgBooks.Rows(ctx, ledger.Query{Namespace: o.Namespace, OrderID: o.Name})
		Expect(err).NotTo(HaveOccurred())
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].EntryReference).To(Equal(ref))
	})

	It("ingests a file whose recording failed first in the next round, before claiming another, once", func() {
		o := waitingBuy(18)
		other := waitingBuy(19)
		dir := GinkgoT().TempDir()
		conn, err := connector.OpenFolder(dir)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(conn.Close)
		flaky := &failingLedger{Store: books}
		flaky.failIngests.Store(1)
		g := &bank.Ingester{Connector: conn, Ledger: flaky, Client: mgr.GetClient(), Log: GinkgoLogr}
		ref, otherRef := uniqueRef("HELD"), uniqueRef("NEXT")
		first := camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))
		second := camt054(credit(otherRef, bank.AmountDue(other), "EUR", other.Spec.Quote.PaymentDetails.PaymentReference))
		for i, data := range [][]byte{first, second} {
			name := filepath.Join(dir, "inbox", fmt.Sprintf("n%d.xml", i))
			Expect(os.WriteFile(name+".part", data, 0o600)).To(Succeed())
			Expect(os.Rename(name+".part", name)).To(Succeed())
			// Oldest first: the first file is claimed first.
			Expect(os.Chtimes(name, time.Now().Add(time.Duration(i-10)*time.Minute), time.Now().Add(time.Duration(i-10)*time.Minute))).To(Succeed())
		}

		Expect(g.Round(ctx)).To(MatchError(ledger.ErrUnavailable), "the ledger did not record the first file")
		Expect(rowsOfEntry(ref)).To(BeEmpty())
		Expect(os.ReadDir(filepath.Join(dir, "inbox"))).To(HaveLen(1), "the second file was not claimed")

		Expect(g.Round(ctx)).To(Succeed())
		processedNames := func() []string {
			entries, err := os.ReadDir(filepath.Join(dir, "processed"))
			Expect(err).NotTo(HaveOccurred())
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			return names
		}
		Expect(processedNames()).To(HaveLen(2))
		Expect(os.ReadDir(filepath.Join(dir, "claimed"))).To(BeEmpty())
		Expect(rowsOfEntry(ref)).To(HaveLen(1))
		Expect(rowsOfEntry(otherRef)).To(HaveLen(1))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
	})

	It("offers again a file claimed by a run that died before finishing it, and ingests it once", func() {
		o := waitingBuy(11)
		stopMgr()
		ref := uniqueRef("CLAIMED")
		name := deliver(camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference)))
		// A consumer claims the file and dies holding it.
		f, err := connector.OpenFolder(folder)
		Expect(err).NotTo(HaveOccurred())
		c, err := f.Claim(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Name).To(Equal(name))
		Expect(f.Close()).To(Succeed())

		stopMgr = startManager()
		Expect(finished(name)).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(rowsOfEntry(ref)).To(HaveLen(1))
	})

	It("does not pay a BUY cancelled between the decision and its write, and says so on the order", func() {
		o := waitingBuy(12)
		// The customer cancels; the order controller cancels the unpaid order.
		cur := fresh(o)
		base := cur.DeepCopy()
		cur.Spec.CancellationRequested = true
		Expect(k8s.Patch(ctx, cur, client.MergeFrom(base))).To(Succeed())
		Eventually(func() investv1.OrderState { return fresh(o).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateCancelled))

		// The ingestion decided the payment while the order still waited, recorded the
		// decision and died before writing it.
		stopMgr()
		ref := uniqueRef("LATE")
		recordPendingPayment(o, ref)
		stopMgr = startManager()
		Eventually(func() []string { return reasons(o) }).WithTimeout(time.Minute).Should(ContainElement(bank.ReasonPaymentNotWaiting))
		Expect(fresh(o).Status.Settlement.PaymentReceived).To(BeNil())
		Eventually(func() bool { return rowsOf(o)[0].Pending }).Should(BeFalse())
	})
})
