package bank_test

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/bank"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

var _ = Describe("Bank payouts", func() {
	It("pays a SELL's proceeds in a pain.001 recorded before its release, and completes it from the pain.002 and the booked debit", func() {
		sell := executedSell(4)
		f, b, t := releasedTransferOf(sell)
		Expect(b.DebtorIBAN).To(Equal(fixtures.FundIBAN), "the money leaves the fund's account")
		Expect(t.CreditorIBAN).To(Equal(fixtures.IBAN), "to the customer's registered payment method")
		Expect(t.EndToEndID).To(Equal(bank.EndToEndID(sell.Name)))
		net := fresh(sell).Spec.Quote.NetAmount
		Expect(t.Amount).To(Equal(net-net%100), "the net proceeds in whole cents, never more")

		ins := instructionOf(sell)
		Expect(ins.FileMessageID).To(Equal(b.MessageID))
		Expect(ins.ReleasedAt.IsZero()).To(BeFalse())
		Expect(f.SHA256).NotTo(BeEmpty())
		Expect(fresh(sell).Status.State).To(Equal(investv1.StateExecuted), "nothing is evidence before the bank says so")

		Expect(finished(deliver(pain002(b, t.EndToEndID, "ACCP", "")))).To(Equal("processed"))
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StatePaymentSent))
		sent := fresh(sell).Status.Settlement.PaymentSent
		Expect(sent.Reference).To(Equal(b.MessageID + "/" + bank.EndToEndID(sell.Name)))
		Expect(sent.RecordedBy).To(Equal(bank.RecordedBy))

		ref := uniqueRef("DEBIT")
		Expect(finished(deliver(camt054(debit(ref, t))))).To(Equal("processed"))
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StateCompleted))
		Expect(fresh(sell).Status.Settlement.PaymentCompleted.Reference).To(Equal(ref), "the completion is the bank's entry of the debit")
		rows := rowsOfEntry(ref)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.PaidOut)))
		Expect(rows[0].Rule).To(Equal(string(reconcile.ByEndToEndID)))
		Expect(releasedFilesWith(sell.Name)).To(HaveLen(1), "paid once")
	})

	It("pays a SELL of a customer without payment method details to the account the customer paid from", func() {
		isin := newMarket()
		ns := env.NewTenant("bank")
		a := fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, a)).To(Succeed())
		w := fixtures.Wallet(ns, a.Name, fixtures.Address)
		Expect(k8s.Create(ctx, w)).To(Succeed())
		patch := client.MergeFrom(a.DeepCopy())
		a.Spec.PrimaryWallet = w.Name
		Expect(k8s.Patch(ctx, a, patch)).To(Succeed())
		buy := fixtures.BuyOrder(ns, a.Name, isin, 3)
		Eventually(func() error { return k8s.Create(ctx, buy.DeepCopy()) }).WithTimeout(time.Minute).Should(Succeed())
		Eventually(func() investv1.OrderState { return fresh(buy).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateAwaitingPayment))
		buy = fresh(buy)
		paid := credit(uniqueRef("FROM"), bank.AmountDue(buy), "EUR", buy.Spec.Quote.PaymentDetails.PaymentReference)
		paid.Transactions[0].DebtorName, paid.Transactions[0].DebtorIBAN = "Jan Payer", "NL91ABNA0417164300"
		Expect(finished(deliver(camt054(paid)))).To(Equal("processed"))
		Eventually(func() investv1.OrderState { return fresh(buy).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateCompleted))

		sell := fixtures.BuyOrder(ns, a.Name, isin, 2)
		sell.Spec.Side = investv1.SideSell
		Eventually(func() error { return k8s.Create(ctx, sell.DeepCopy()) }).WithTimeout(time.Minute).Should(Succeed())
		_, _, t := releasedTransferOf(sell)
		Expect(t.CreditorIBAN).To(Equal("NL91ABNA0417164300"), "back to the account the money came from")
		Expect(t.CreditorName).To(Equal("Jan Payer"))
	})

	It("stalls a SELL whose payout the bank rejects, with the bank's reason, and sends nothing again", func() {
		sell := executedSell(2)
		_, b, t := releasedTransferOf(sell)
		Expect(finished(deliver(pain002(b, t.EndToEndID, "RJCT", "AC04")))).To(Equal("processed"))

		Eventually(func() *investv1.OrderPayout { return fresh(sell).Status.Payout }).WithTimeout(time.Minute).ShouldNot(BeNil())
		p := fresh(sell).Status.Payout
		Expect(p.Outcome).To(Equal(investv1.PayoutRejected))
		Expect(p.Code).To(Equal("AC04"))
		Expect(p.MessageID).To(Equal(b.MessageID))
		Eventually(func() *metav1.Condition {
			return meta.FindStatusCondition(fresh(sell).Status.Conditions, lifecycle.ConditionStalled)
		}).WithTimeout(time.Minute).Should(And(
			HaveField("Status", metav1.ConditionTrue), HaveField("Reason", lifecycle.WaitPayoutRejected),
			HaveField("Message", ContainSubstring("AC04"))))
		Eventually(func() []string { return reasons(sell) }).Should(ContainElement(bank.ReasonPayoutRejected))
		Expect(instructionOf(sell).Status).To(Equal(ledger.StatusRejected))

		Consistently(func() int { return len(releasedFilesWith(sell.Name)) }).WithTimeout(2*time.Second).
			WithPolling(200*time.Millisecond).Should(Equal(1), "a rejected transfer is never sent again by itself")
		Expect(fresh(sell).Status.State).To(Equal(investv1.StateExecuted))

		// A later acceptance of the same transfer does not undo the rejection.
		Expect(finished(deliver(pain002(b, t.EndToEndID, "ACCP", "")))).To(Equal("processed"))
		Consistently(func() *investv1.SettlementRecord { return fresh(sell).Status.Settlement.PaymentSent }).
			WithTimeout(time.Second).Should(BeNil())

		// The operator's decision: the money is paid by hand to the corrected account and
		// the evidence recorded by hand; the order completes and nothing else is sent.
		cur := fresh(sell)
		patch := client.MergeFrom(cur.DeepCopy())
		at := metav1.NewTime(time.Now().UTC().Truncate(time.Second))
		cur.Status.Settlement.PaymentSent = &investv1.SettlementRecord{Reference: "OPS-MANUAL-1", At: at, RecordedBy: "ops"}
		cur.Status.Settlement.PaymentCompleted = &investv1.SettlementRecord{Reference: "OPS-MANUAL-1", At: at, RecordedBy: "ops"}
		Expect(k8s.Status().Patch(ctx, cur, patch)).To(Succeed())
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StateCompleted))
		Expect(releasedFilesWith(sell.Name)).To(HaveLen(1))
	})

	It("refunds a BUY cancelled after its payment through a pain.001, and the cancelled order is done when the debit is booked", func() {
		o := paidBuyOnClosedMarket()
		patch := client.MergeFrom(o.DeepCopy())
		o.Spec.CancellationRequested = true
		Expect(k8s.Patch(ctx, o, patch)).To(Succeed())
		Eventually(func() *investv1.OrderRefund { return fresh(o).Status.Refund }).WithTimeout(time.Minute).ShouldNot(BeNil())
		refund := fresh(o).Status.Refund

		_, b, t := releasedTransferOf(o)
		Expect(t.Amount).To(Equal(refund.Amount))
		Expect(t.CreditorIBAN).To(Equal(fixtures.IBAN))
		Expect(t.RemittanceInfo).To(ContainSubstring(refund.Reference))
		Expect(instructionOf(o).Purpose).To(Equal(ledger.PurposeRefund))

		Expect(finished(deliver(pain002(b, t.EndToEndID, "ACSC", "")))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.RefundSent }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(finished(deliver(camt054(debit(uniqueRef("REFUND"), t))))).To(Equal("processed"))
		Eventually(func() *metav1.Condition {
			return meta.FindStatusCondition(fresh(o).Status.Conditions, "Ready")
		}).WithTimeout(time.Minute).Should(And(HaveField("Status", metav1.ConditionTrue), HaveField("Reason", lifecycle.ReasonCancelled)))
	})

	It("stalls an order whose payout was booked and came back, naming the bank's return reason", func() {
		sell := executedSell(3)
		_, b, t := releasedTransferOf(sell)
		Expect(finished(deliver(camt054(debit(uniqueRef("OUT"), t))))).To(Equal("processed"))
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StateCompleted), "a debit proves the transfer was sent, with no pain.002")
		_ = b

		// A SELL already COMPLETED whose money comes back is the operator's: the order is
		// done, the return is in the ledger and on the order.
		back := uniqueRef("RETURN")
		Expect(finished(deliver(camt054(returned(back, t, "AC04"))))).To(Equal("processed"))
		rows := rowsOfEntry(back)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Kind).To(Equal(string(reconcile.Returned)))
		Expect(rows[0].ReturnReason).To(Equal("AC04"))
		Eventually(func() *investv1.OrderPayout { return fresh(sell).Status.Payout }).WithTimeout(time.Minute).
			Should(And(Not(BeNil()), HaveField("Outcome", investv1.PayoutReturned), HaveField("Code", "AC04")))
		Eventually(func() []string { return reasons(sell) }).Should(ContainElement(bank.ReasonPayoutReturned))
	})

	It("releases a pain.001 recorded before a kill once, with the same bytes, when the manager starts again", func() {
		channel.failBefore.Store(true)
		sell := executedSell(1)
		Eventually(func() string { return instructionOf(sell).FileMessageID }).WithTimeout(time.Minute).ShouldNot(BeEmpty())
		recorded := unreleasedFile(instructionOf(sell).FileMessageID)
		Expect(releasedFilesWith(sell.Name)).To(BeEmpty(), "recorded, not released")

		stopMgr() // killed between recording the file and releasing it
		channel.failBefore.Store(false)
		stopMgr = startManager()
		_, _, t := releasedTransferOf(sell)
		Expect(t.EndToEndID).To(Equal(bank.EndToEndID(sell.Name)))
		files := releasedFilesWith(sell.Name)
		Expect(files).To(HaveLen(1))
		data, err := os.ReadFile(files[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(data).To(Equal(recorded.Data), "the bytes recorded before the kill")
	})

	It("writes a bank status and a debit the ledger recorded before a kill on the order when the manager starts again, once", func() {
		sell := executedSell(2)
		_, b, t := releasedTransferOf(sell)
		stopMgr() // killed after recording what the bank said, before writing it on the order
		n, err := payouts().Report(ctx, ledger.File{ID: uniqueRef("killed-report-"), Name: "pain002-killed.xml", SHA256: "00",
			IngestedAt: time.Now().UTC(), Counts: map[string]int{ledger.StatusAccepted: 1}},
			[]ledger.PayoutStatus{{OriginalMessageID: b.MessageID, EndToEndID: t.EndToEndID, Status: ledger.StatusAccepted, BankStatus: "ACSC", At: time.Now().UTC()}})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(1))
		ref := uniqueRef("KILLEDDEBIT")
		Expect(books.Ingest(ctx, ledger.File{ID: "killed-" + ref, Name: "camt054-killed.xml", SHA256: "00", IngestedAt: time.Now().UTC(),
			Counts: map[string]int{string(reconcile.PaidOut): 1}},
			[]ledger.Row{{
				EntryReference: ref, Kind: string(reconcile.PaidOut), Rule: string(reconcile.ByEndToEndID), CreditDebit: "DBIT",
				Amount: t.Amount, Currency: "EUR", EndToEndID: t.EndToEndID, Namespace: sell.Namespace, OrderID: sell.Name,
				Due: t.Amount, Pending: true,
			}})).To(Succeed())
		Expect(fresh(sell).Status.Settlement.PaymentSent).To(BeNil())

		stopMgr = startManager()
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StateCompleted))
		cur := fresh(sell)
		Expect(cur.Status.Settlement.PaymentSent.Reference).To(Equal(b.MessageID+"/"+t.EndToEndID), "the acceptance, written first")
		Expect(cur.Status.Settlement.PaymentCompleted.Reference).To(Equal(ref))
		Expect(lifecycle.HistoryStates(cur.Status.History)).To(Equal(lifecycle.Path(investv1.SideSell)), "each state once")
		Eventually(func() bool { return instructionOf(sell).Pending }).Should(BeFalse())
		Expect(releasedFilesWith(sell.Name)).To(HaveLen(1))
	})

	It("does not release a file twice when the process was killed after writing it and before recording so", func() {
		channel.failAfter.Store(true)
		sell := executedSell(1)
		Eventually(func() []string { return releasedFilesWith(sell.Name) }).WithTimeout(time.Minute).Should(HaveLen(1))
		Expect(instructionOf(sell).ReleasedAt.IsZero()).To(BeTrue(), "the release was not recorded")

		stopMgr()
		channel.failAfter.Store(false)
		stopMgr = startManager()
		Eventually(func() bool { return instructionOf(sell).ReleasedAt.IsZero() }).WithTimeout(time.Minute).Should(BeFalse())
		Expect(releasedFilesWith(sell.Name)).To(HaveLen(1), "the same name with the same bytes: one file")
	})
})

// payouts is the suite's book of payouts.
func payouts() ledger.Payouts {
	GinkgoHelper()
	p, ok := sqlstore.Payouts(archiveStore)
	Expect(ok).To(BeTrue())
	return p
}

// executedSell buys units+1 for a new customer, pays the BUY through a camt.054, sells
// units once the holdings show them, and returns the SELL once its units are burned
// (EXECUTED with tokensBurned): the next step is its payout.
func executedSell(units int64) *investv1.Order {
	GinkgoHelper()
	buy := waitingBuy(units + 1)
	Expect(finished(deliver(camt054(credit(uniqueRef("BUY"), bank.AmountDue(buy), "EUR", buy.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
	Eventually(func() investv1.OrderState { return fresh(buy).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateCompleted))
	sell := fixtures.BuyOrder(buy.Namespace, string(buy.Spec.AccountID), string(buy.Spec.ISIN), units)
	sell.Spec.Side = investv1.SideSell
	Eventually(func() error { return k8s.Create(ctx, sell.DeepCopy()) }).WithTimeout(time.Minute).Should(Succeed())
	Eventually(func() *investv1.SettlementRecord {
		cur := &investv1.Order{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(sell), cur); err != nil {
			return nil
		}
		return cur.Status.Settlement.TokensBurned
	}).WithTimeout(time.Minute).ShouldNot(BeNil())
	return fresh(sell)
}

// paidBuyOnClosedMarket is a BUY paid through a camt.054 that waits in PAYMENT_RECEIVED:
// its fund is not subscribable, so it can still be cancelled, with a refund.
func paidBuyOnClosedMarket() *investv1.Order {
	GinkgoHelper()
	o := waitingBuy(5)
	fund := &investv1.Fund{}
	Expect(k8s.Get(ctx, client.ObjectKey{Name: string(o.Spec.Quote.FundDetails.FundID)}, fund)).To(Succeed())
	patch := client.MergeFrom(fund.DeepCopy())
	fund.Spec.Subscribable = false
	Expect(k8s.Patch(ctx, fund, patch)).To(Succeed())
	Expect(finished(deliver(camt054(credit(uniqueRef("PAID"), bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
	Eventually(func() investv1.OrderState { return fresh(o).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StatePaymentReceived))
	return fresh(o)
}

// instructionOf is the ledger's payout instruction of the order.
func instructionOf(o *investv1.Order) ledger.Payout {
	GinkgoHelper()
	var ps []ledger.Payout
	Eventually(func() []ledger.Payout {
		var err error
		ps, _, err = payouts().ListPayouts(ctx, ledger.PayoutQuery{Namespace: o.Namespace, OrderID: o.Name})
		Expect(err).NotTo(HaveOccurred())
		return ps
	}).WithTimeout(time.Minute).Should(HaveLen(1), "one instruction per order and purpose")
	return ps[0]
}

// unreleasedFile is the recorded, unreleased outbound file of that message id.
func unreleasedFile(messageID string) ledger.OutFile {
	GinkgoHelper()
	files, err := payouts().Unreleased(ctx)
	Expect(err).NotTo(HaveOccurred())
	for _, f := range files {
		if f.MessageID == messageID {
			return f
		}
	}
	Fail("no unreleased file " + messageID)
	return ledger.OutFile{}
}

// releasedFilesWith are the paths of the pain.001 files in the outbox with a transfer to
// the order.
func releasedFilesWith(orderID string) []string {
	GinkgoHelper()
	return releasedTransfersTo(bank.EndToEndID(orderID))
}

// releasedTransferOf waits for the pain.001 in the outbox that pays the order and returns
// its recorded file, the batch and the transfer.
func releasedTransferOf(o *investv1.Order) (ledger.OutFile, iso20022.Batch, iso20022.Transfer) {
	GinkgoHelper()
	var paths []string
	Eventually(func() []string { paths = releasedFilesWith(o.Name); return paths }).WithTimeout(time.Minute).Should(HaveLen(1))
	data, err := os.ReadFile(paths[0])
	Expect(err).NotTo(HaveOccurred())
	batches, err := iso20022.ParsePain001(data)
	Expect(err).NotTo(HaveOccurred(), "the released file is a valid pain.001.001.09")
	Expect(batches).To(HaveLen(1))
	b := batches[0]
	for _, t := range b.Transfers {
		if t.EndToEndID == bank.EndToEndID(o.Name) {
			Eventually(func() time.Time { return instructionOf(o).ReleasedAt }).WithTimeout(time.Minute).ShouldNot(BeZero())
			return ledger.OutFile{MessageID: b.MessageID, Name: filepath.Base(paths[0]), SHA256: "released"}, b, t
		}
	}
	Fail("no transfer for " + o.Name)
	return ledger.OutFile{}, b, iso20022.Transfer{}
}

// pain002 is the bank's status report on one transfer of b: status, with the ISO reason
// code for a rejection.
func pain002(b iso20022.Batch, endToEndID, status, code string) []byte {
	GinkgoHelper()
	t := iso20022.TransactionStatus{OriginalEndToEndID: endToEndID, Status: status}
	if code != "" {
		t.Reasons = []iso20022.StatusReason{{Code: code, AdditionalInfo: []string{"account closed"}}}
	}
	data, err := iso20022.WritePain002(&iso20022.StatusReport{
		MessageID: uniqueRef("STS"), CreatedAt: time.Now(), OriginalMessageID: b.MessageID,
		Payments: []iso20022.PaymentStatus{{OriginalPaymentInfoID: b.MessageID, Transactions: []iso20022.TransactionStatus{t}}},
	})
	Expect(err).NotTo(HaveOccurred())
	return data
}

// debit is the booked debit of the fund's account for transfer t.
func debit(ref string, t iso20022.Transfer) iso20022.NotificationEntry {
	day := time.Now().UTC().Truncate(24 * time.Hour)
	return iso20022.NotificationEntry{
		AccountServicerRef: ref, Amount: t.Amount, Currency: "EUR", CreditDebit: iso20022.Debit,
		BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/ICDT/ESCT",
		Transactions: []iso20022.NotificationTransaction{{
			EndToEndID: t.EndToEndID, Amount: t.Amount, CreditorName: t.CreditorName, CreditorIBAN: t.CreditorIBAN,
		}},
	}
}

// returned is the booked credit of transfer t coming back, with the return reason code.
func returned(ref string, t iso20022.Transfer, code string) iso20022.NotificationEntry {
	day := time.Now().UTC().Truncate(24 * time.Hour)
	return iso20022.NotificationEntry{
		AccountServicerRef: ref, Amount: t.Amount, Currency: "EUR", CreditDebit: iso20022.Credit,
		BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/ICDT/RRTN",
		Transactions: []iso20022.NotificationTransaction{{
			EndToEndID: t.EndToEndID, Amount: t.Amount, DebtorName: t.CreditorName, DebtorIBAN: t.CreditorIBAN, ReturnReason: code,
		}},
	}
}
