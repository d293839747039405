package bank_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/bank"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// strangerIBAN is an account no customer registered: payments from it match no one by
// their payer.
const strangerIBAN = "NL91ABNA0417164300"

var _ = Describe("Bank decisions on suspense", func() {
	It("assigns a payment in suspense to the order an operator names, which is then paid, and stamps who decided", func() {
		buy := waitingBuy(3)
		ref := suspensePayment(bank.AmountDue(buy))
		d := decision("assign", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionAssign,
			Order: &investv1.BankOrderRef{Namespace: buy.Namespace, ID: buy.Name},
			Note:  "the customer quoted an old reference; confirmed by phone", DecidedBy: "somebody-else",
		})
		d = recorded(d)
		Expect(d.Status.Outcome).To(Equal(string(reconcile.Matched)))
		Expect(d.Spec.DecidedBy).NotTo(BeEmpty())
		Expect(d.Spec.DecidedBy).NotTo(Equal("somebody-else"), "admission stamps the creator; nobody decides in another's name")

		Eventually(func() *investv1.SettlementRecord { return fresh(buy).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(fresh(buy).Status.Settlement.PaymentReceived.Reference).To(Equal(ledger.DecisionEntryReference(d.Name)))
		Eventually(func() []string { return reasons(buy) }).Should(ContainElement(bank.ReasonPaymentAssigned))

		rows := rowsOfEntry(ref)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Decision).To(Equal(d.Name), "the suspense entry names the decision that settled it")
		assigned := rowsOf(buy)
		Expect(assigned).To(HaveLen(1))
		Expect(assigned[0].Rule).To(Equal(bank.RuleOperator))
		Expect(assigned[0].Amount).To(Equal(bank.AmountDue(buy)))
		Expect(openSuspense(ref)).To(BeEmpty(), "decided: no longer open")
	})

	It("refuses a second decision on a payment in suspense, naming the first, and records nothing", func() {
		ref := suspensePayment(uniqueAmount())
		first := recorded(decision("outside", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionSettledOutside,
			Note: "returned by the bank itself",
		}))
		Expect(first.Status.Message).To(ContainSubstring("settled outside"))
		second := refused(decision("refund", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionRefund, Note: "send it back",
		}))
		Expect(second.Status.Message).To(ContainSubstring(first.Name))
		ps, _, err := payouts().ListPayouts(ctx, ledger.PayoutQuery{Purposes: []ledger.Purpose{ledger.PurposeSuspenseRefund}, Limit: 1000})
		Expect(err).NotTo(HaveOccurred())
		for _, p := range ps {
			Expect(p.Source).NotTo(Equal(ledger.DecisionSource(second.Name)))
		}
	})

	It("refuses to assign a payment to an order that does not wait for one, or to an entry that is not in suspense", func() {
		sell := executedSell(1)
		ref := suspensePayment(uniqueAmount())
		d := refused(decision("sell", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionAssign,
			Order: &investv1.BankOrderRef{Namespace: sell.Namespace, ID: sell.Name}, Note: "wrong order",
		}))
		Expect(d.Status.Message).To(ContainSubstring("only a BUY"))
		Expect(openSuspense(ref)).To(HaveLen(1), "still open for a correct decision")

		buyRef := rowsOf(firstBuyOf(sell))[0].EntryReference
		d = refused(decision("matched", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: buyRef}, Action: investv1.BankDecisionRefund, Note: "not suspense",
		}))
		Expect(d.Status.Message).To(ContainSubstring("not in suspense"))
		d = refused(decision("unknown", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: uniqueRef("NOSUCH")}, Action: investv1.BankDecisionSettledOutside, Note: "typo",
		}))
		Expect(d.Status.Message).To(ContainSubstring("fundsharectl bank entries --open"))
	})

	It("refunds a payment in suspense to the account it came from through the next pain.001, and follows the transfer to its debit", func() {
		amount := uniqueAmount()
		ref := suspensePayment(amount)
		d := recorded(decision("refund", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionRefund, Note: "unknown payer, no reference",
		}))
		Expect(d.Status.Payout).NotTo(BeNil())
		Expect(d.Status.Payout.Amount).To(Equal(amount))
		Expect(d.Status.Payout.CreditorIBAN).To(HaveSuffix(strangerIBAN[len(strangerIBAN)-4:]))
		Expect(d.Status.Payout.CreditorIBAN).NotTo(ContainSubstring(strangerIBAN[:8]), "masked")

		b, t := releasedTransferTo(d.Status.Payout.EndToEndID)
		Expect(t.CreditorIBAN).To(Equal(strangerIBAN), "back to the account the money came from")
		Expect(t.Amount).To(Equal(amount))
		Expect(b.DebtorIBAN).To(Equal(fixtures.FundIBAN))
		Expect(t.RemittanceInfo).To(ContainSubstring(ref))

		Expect(finished(deliver(pain002(b, t.EndToEndID, "ACCP", "")))).To(Equal("processed"))
		Eventually(func() string { return freshDecision(d).Status.Payout.Status }).WithTimeout(time.Minute).Should(Equal(ledger.StatusAccepted))
		Expect(finished(deliver(camt054(debit(uniqueRef("SUSPOUT"), t))))).To(Equal("processed"))
		Eventually(func() string { return freshDecision(d).Status.Payout.Status }).WithTimeout(time.Minute).Should(Equal("PaidOut"))
		Expect(releasedTransfersTo(t.EndToEndID)).To(HaveLen(1), "sent once")
	})

	It("keeps a bank decision immutable and refuses an assignment without an order at admission", func() {
		ref := suspensePayment(uniqueAmount())
		bad := &investv1.BankDecision{ObjectMeta: metav1.ObjectMeta{Name: "bdec-" + strings.ToLower(uniqueRef("bad"))},
			Spec: investv1.BankDecisionSpec{Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionAssign, Note: "x"}}
		err := k8s.Create(ctx, bad)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("order is required for actions Assign and Resend"))

		d := recorded(decision("outside", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionSettledOutside, Note: "booked elsewhere",
		}))
		patch := client.MergeFrom(d.DeepCopy())
		d.Spec.Action = investv1.BankDecisionRefund
		err = k8s.Patch(ctx, d, patch)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("a bank decision is immutable"))
	})

	It("counts the payments waiting in suspense and the age of the oldest, and a decision takes one off", func() {
		ref := suspensePayment(uniqueAmount())
		Eventually(func() float64 { return gauge("fundshare_bank_suspense_open") - countOpen() }).WithTimeout(time.Minute).
			Should(BeZero(), "the gauge is the ledger's open suspense, this payment included")
		open := gauge("fundshare_bank_suspense_open")
		Expect(open).To(BeNumerically(">=", 1))
		Expect(gauge("fundshare_bank_suspense_oldest_age_seconds")).To(BeNumerically(">", 0), "booked today at midnight UTC, so older than nothing")
		recorded(decision("count", investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionSettledOutside, Note: "counted",
		}))
		Eventually(func() float64 { return gauge("fundshare_bank_suspense_open") }).WithTimeout(time.Minute).Should(BeNumerically("==", open-1))
	})

	It("takes a decision the ledger recorded before a kill once, giving it only its status", func() {
		ref := suspensePayment(uniqueAmount())
		name := "bdec-killed-" + strings.ToLower(uniqueRef(""))
		// What a process killed between recording the decision and writing its status
		// leaves: the decision and its instruction in the ledger, the object without a
		// phase. (The object's UID is not known before it exists, so the record carries
		// its own; what the ledger holds is what counts.)
		decisions, ok := sqlstore.Decisions(archiveStore)
		Expect(ok).To(BeTrue())
		row, found, err := decisions.Row(ctx, ref, 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		uid := "killed-" + name
		e2e := bank.SourceEndToEndID("FSD", uid)
		Expect(decisions.Decide(ctx, ledger.Decision{
			Name: name, UID: uid, Action: ledger.DecisionRefund, EntryReference: ref, Note: "recorded, then killed", DecidedAt: time.Now().UTC(),
		}, nil, &ledger.Payout{
			Purpose: ledger.PurposeSuspenseRefund, Source: ledger.DecisionSource(name), EndToEndID: e2e,
			Amount: row.Amount, Currency: "EUR", CreditorName: row.DebtorName, CreditorIBAN: strangerIBAN,
			RemittanceInfo: "Return of your payment", DebtorName: "Fund", DebtorIBAN: fixtures.FundIBAN,
			ExecutionDate: time.Now().UTC().Truncate(24 * time.Hour), InstructedAt: time.Now().UTC(),
		})).To(Succeed())
		d := &investv1.BankDecision{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.BankDecisionSpec{
			Entry: &investv1.BankEntryRef{Reference: ref}, Action: investv1.BankDecisionRefund, Note: "recorded, then killed",
		}}
		Expect(k8s.Create(ctx, d)).To(Succeed())

		d = recorded(d)
		Expect(d.Status.Payout).NotTo(BeNil())
		Expect(d.Status.Payout.EndToEndID).To(Equal(e2e), "the recorded refund, not a second one")
		_, t := releasedTransferTo(e2e)
		Expect(t.Amount).To(Equal(row.Amount))
		Consistently(func() int { return len(releasedTransfersTo(e2e)) }).WithTimeout(2 * time.Second).Should(Equal(1))
		ps, _, err := payouts().ListPayouts(ctx, ledger.PayoutQuery{Purposes: []ledger.Purpose{ledger.PurposeSuspenseRefund}, Limit: 1000})
		Expect(err).NotTo(HaveOccurred())
		n := 0
		for _, p := range ps {
			if p.Source == ledger.DecisionSource(name) {
				n++
			}
		}
		Expect(n).To(Equal(1), "one instruction for the decision")
	})
})

var _ = Describe("Bank payments sent back", func() {
	It("sends an overpaid BUY's excess back to the account it came from once the order is paid", func() {
		buy := waitingBuy(2)
		due := bank.AmountDue(buy)
		paid := credit(uniqueRef("OVER"), due+50_000, "EUR", buy.Spec.Quote.PaymentDetails.PaymentReference)
		paid.Transactions[0].DebtorName, paid.Transactions[0].DebtorIBAN = "Jan Payer", strangerIBAN
		Expect(finished(deliver(camt054(paid)))).To(Equal("processed"))
		Eventually(func() *investv1.SettlementRecord { return fresh(buy).Status.Settlement.PaymentReceived }).
			WithTimeout(time.Minute).ShouldNot(BeNil())

		var ins []ledger.Payout
		Eventually(func() []ledger.Payout { ins = sentBack(buy, ledger.PurposeExcess); return ins }).WithTimeout(time.Minute).
			Should(HaveLen(1), "instructed right after the payment is written")
		Expect(ins[0].Amount).To(Equal(int64(50_000)), "what was paid above the amount due")
		Expect(ins[0].CreditorIBAN).To(Equal(strangerIBAN))
		_, t := releasedTransferTo(ins[0].EndToEndID)
		Expect(t.Amount).To(Equal(int64(50_000)))
		Eventually(func() []string { return reasons(buy) }).Should(ContainElement(bank.ReasonSentBack))
		Eventually(func() investv1.OrderState { return fresh(buy).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StateCompleted), "the excess goes back beside the order, which goes on")
	})

	It("sends back the part payments of a BUY cancelled before it was paid in full, each to its payer", func() {
		buy := waitingBuy(4)
		due := bank.AmountDue(buy)
		first := credit(uniqueRef("PART"), due/4-due/4%100, "EUR", buy.Spec.Quote.PaymentDetails.PaymentReference)
		second := credit(uniqueRef("PART"), due/4-due/4%100, "EUR", buy.Spec.Quote.PaymentDetails.PaymentReference)
		second.Transactions[0].DebtorName, second.Transactions[0].DebtorIBAN = "Jan Payer", strangerIBAN
		Expect(finished(deliver(camt054(first, second)))).To(Equal("processed"))
		Eventually(func() []string { return reasons(buy) }).WithTimeout(time.Minute).Should(ContainElement(bank.ReasonPaymentShort))

		cur := fresh(buy)
		patch := client.MergeFrom(cur.DeepCopy())
		cur.Spec.CancellationRequested = true
		Expect(k8s.Patch(ctx, cur, patch)).To(Succeed())
		Eventually(func() investv1.OrderState { return fresh(buy).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateCancelled))

		var ins []ledger.Payout
		Eventually(func() []ledger.Payout { ins = sentBack(buy, ledger.PurposeReturn); return ins }).WithTimeout(time.Minute).Should(HaveLen(2))
		ibans := []string{ins[0].CreditorIBAN, ins[1].CreditorIBAN}
		Expect(ibans).To(ConsistOf(fixtures.IBAN, strangerIBAN))
		for _, in := range ins {
			Expect(in.Amount).To(Equal(first.Amount))
			releasedTransferTo(in.EndToEndID)
		}
		Expect(fresh(buy).Status.Refund).To(BeNil(), "never paid in full: no refund of the order, its payments go back")
	})

	It("sends back a payment that arrives after its order was cancelled", func() {
		buy := waitingBuy(1)
		cur := fresh(buy)
		patch := client.MergeFrom(cur.DeepCopy())
		cur.Spec.CancellationRequested = true
		Expect(k8s.Patch(ctx, cur, patch)).To(Succeed())
		Eventually(func() investv1.OrderState { return fresh(buy).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateCancelled))
		// Decided against the order while it waited, written after it was cancelled: the
		// ledger row the ingestion left pending.
		recordPendingPayment(buy, uniqueRef("LATE"))
		var ins []ledger.Payout
		Eventually(func() []ledger.Payout { ins = sentBack(buy, ledger.PurposeReturn); return ins }).WithTimeout(time.Minute).Should(HaveLen(1))
		Expect(ins[0].Amount).To(Equal(bank.AmountDue(buy)))
		Eventually(func() []string { return reasons(buy) }).Should(ContainElement(bank.ReasonPaymentNotWaiting))
		Expect(fresh(buy).Status.Settlement.PaymentReceived).To(BeNil())
	})
})

var _ = Describe("Bank Verification of Payee", func() {
	It("records the bank's Verification of Payee result of a payout and warns on the order of a close match, naming the holder the bank has", func() {
		sell := executedSell(1)
		_, b, t := releasedTransferOf(sell)
		report, err := iso20022.WritePain002(&iso20022.StatusReport{
			MessageID: uniqueRef("VOP"), CreatedAt: time.Now(), OriginalMessageID: b.MessageID,
			Payments: []iso20022.PaymentStatus{{OriginalPaymentInfoID: b.MessageID, Transactions: []iso20022.TransactionStatus{{
				OriginalEndToEndID: t.EndToEndID, Status: "ACCP", VoP: iso20022.VoPCloseMatch, VoPName: "Erika M. Mustermann",
			}}}},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(finished(deliver(report))).To(Equal("processed"))
		Eventually(func() string { return instructionOf(sell).VoPResult }).WithTimeout(time.Minute).Should(Equal(ledger.VoPCloseMatch))
		Expect(instructionOf(sell).VoPName).To(Equal("Erika M. Mustermann"))
		Eventually(func() []string { return reasons(sell) }).WithTimeout(time.Minute).Should(ContainElement(bank.ReasonPayeeVerification))
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).
			Should(Equal(investv1.StatePaymentSent), "the result is advisory: the bank accepted the transfer")
	})
})

// uniqueAmount is an amount in whole cents that no waiting order of the suite is due.
func uniqueAmount() int64 {
	return 1_000_000 + (fileSeq.Add(1)%5_000)*100 + 37*100
}

// suspensePayment delivers a booked credit of amount from an account nobody registered,
// quoting a valid reference no order has, and returns its bank reference once the
// ingestion put it in suspense.
func suspensePayment(amount int64) string {
	GinkgoHelper()
	ref := uniqueRef("SUSP")
	reference, err := rf.New(fmt.Sprintf("%020d", fileSeq.Add(1)+9_000_000_000))
	Expect(err).NotTo(HaveOccurred())
	c := credit(ref, amount, "EUR", reference)
	c.Transactions[0].DebtorName, c.Transactions[0].DebtorIBAN = "Unknown Payer", strangerIBAN
	Expect(finished(deliver(camt054(c)))).To(Equal("processed"))
	rows := rowsOfEntry(ref)
	Expect(rows).To(HaveLen(1))
	Expect(rows[0].Kind).To(Equal(string(reconcile.Unmatched)))
	Expect(openSuspense(ref)).To(HaveLen(1))
	return ref
}

// openSuspense are the open suspense rows of a bank reference.
func openSuspense(ref string) []ledger.Row {
	GinkgoHelper()
	return rowsWhere(ledger.Query{Open: true}, ref)
}

// decision creates a BankDecision named after what.
func decision(what string, spec investv1.BankDecisionSpec) *investv1.BankDecision {
	GinkgoHelper()
	d := &investv1.BankDecision{ObjectMeta: metav1.ObjectMeta{Name: "bdec-" + what + "-" + strings.ToLower(uniqueRef(""))}, Spec: spec}
	Expect(k8s.Create(ctx, d)).To(Succeed())
	return d
}

func freshDecision(d *investv1.BankDecision) *investv1.BankDecision {
	GinkgoHelper()
	cur := &investv1.BankDecision{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(d), cur)).To(Succeed())
	return cur
}

// recorded waits until the decision is Recorded and returns it.
func recorded(d *investv1.BankDecision) *investv1.BankDecision {
	GinkgoHelper()
	Eventually(func() string { return freshDecision(d).Status.Phase }).WithTimeout(time.Minute).Should(Equal(investv1.BankDecisionRecorded),
		func() string { return freshDecision(d).Status.Message })
	return freshDecision(d)
}

// refused waits until the decision is Refused and returns it.
func refused(d *investv1.BankDecision) *investv1.BankDecision {
	GinkgoHelper()
	Eventually(func() string { return freshDecision(d).Status.Phase }).WithTimeout(time.Minute).Should(Equal(investv1.BankDecisionRefused))
	return freshDecision(d)
}

// sentBack are the order's instructions of purpose.
func sentBack(o *investv1.Order, purpose ledger.Purpose) []ledger.Payout {
	GinkgoHelper()
	ps, _, err := payouts().ListPayouts(ctx, ledger.PayoutQuery{Namespace: o.Namespace, OrderID: o.Name, Purposes: []ledger.Purpose{purpose}})
	Expect(err).NotTo(HaveOccurred())
	return ps
}

// firstBuyOf is the BUY that bought what sell sells (executedSell's).
func firstBuyOf(sell *investv1.Order) *investv1.Order {
	GinkgoHelper()
	var list investv1.OrderList
	Expect(k8s.List(ctx, &list, client.InNamespace(sell.Namespace))).To(Succeed())
	for i := range list.Items {
		if list.Items[i].Spec.Side == investv1.SideBuy {
			return &list.Items[i]
		}
	}
	Fail("no BUY in " + sell.Namespace)
	return nil
}

// releasedTransfersTo are the paths of the outbox's pain.001 files with a transfer of
// that end-to-end id.
func releasedTransfersTo(e2e string) []string {
	GinkgoHelper()
	entries, err := os.ReadDir(filepath.Join(folder, "outbox"))
	if os.IsNotExist(err) {
		return nil
	}
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "pain001-") {
			continue
		}
		path := filepath.Join(folder, "outbox", e.Name())
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		if strings.Contains(string(data), "<EndToEndId>"+e2e+"</EndToEndId>") {
			out = append(out, path)
		}
	}
	return out
}

// releasedTransferTo waits for the released transfer of that end-to-end id.
func releasedTransferTo(e2e string) (iso20022.Batch, iso20022.Transfer) {
	GinkgoHelper()
	var paths []string
	Eventually(func() []string { paths = releasedTransfersTo(e2e); return paths }).WithTimeout(time.Minute).Should(HaveLen(1))
	data, err := os.ReadFile(paths[0])
	Expect(err).NotTo(HaveOccurred())
	batches, err := iso20022.ParsePain001(data)
	Expect(err).NotTo(HaveOccurred())
	for _, b := range batches {
		for _, t := range b.Transfers {
			if t.EndToEndID == e2e {
				return b, t
			}
		}
	}
	Fail("no transfer " + e2e)
	return iso20022.Batch{}, iso20022.Transfer{}
}

var _ = Describe("Bank books against restored orders", func() {
	It("writes again a payment the ledger holds that its order lost to an etcd restored from an older backup", func() {
		o := waitingBuy(3)
		fund := &investv1.Fund{}
		Expect(k8s.Get(ctx, client.ObjectKey{Name: string(o.Spec.Quote.FundDetails.FundID)}, fund)).To(Succeed())
		patch := client.MergeFrom(fund.DeepCopy())
		fund.Spec.Subscribable = false // the order stops at PAYMENT_RECEIVED
		Expect(k8s.Patch(ctx, fund, patch)).To(Succeed())
		backup := etcdBackup(o)
		ref := uniqueRef("RESTORE")
		Expect(finished(deliver(camt054(credit(ref, bank.AmountDue(o), "EUR", o.Spec.Quote.PaymentDetails.PaymentReference))))).To(Equal("processed"))
		Eventually(func() investv1.OrderState { return fresh(o).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StatePaymentReceived))

		restoredAt := restore(backup)
		Eventually(func() *investv1.SettlementRecord { return fresh(o).Status.Settlement.PaymentReceived }).WithTimeout(time.Minute).
			Should(HaveField("At.Time", BeTemporally(">=", restoredAt)), "the ledger's payment is written again, after the restore")
		Expect(fresh(o).Status.Settlement.PaymentReceived.Reference).To(Equal(ref))
		Expect(fresh(o).Status.State).To(Equal(investv1.StatePaymentReceived))
		Expect(rowsOf(o)).To(HaveLen(1), "nothing is recorded twice")
	})

	It("writes again the bank's acceptance and debit of a payout that its order lost to an etcd restored from an older backup", func() {
		sell := executedSell(1)
		backup := etcdBackup(sell)
		_, b, t := releasedTransferOf(sell)
		Expect(finished(deliver(pain002(b, t.EndToEndID, "ACCP", "")))).To(Equal("processed"))
		ref := uniqueRef("DEBIT")
		Expect(finished(deliver(camt054(debit(ref, t))))).To(Equal("processed"))
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateCompleted))

		restoredAt := restore(backup)
		Eventually(func() *investv1.SettlementRecord { return fresh(sell).Status.Settlement.PaymentCompleted }).WithTimeout(time.Minute).
			Should(HaveField("At.Time", BeTemporally(">=", restoredAt)), "the debit is written again, after the restore")
		Expect(fresh(sell).Status.State).To(Equal(investv1.StateCompleted))
		Expect(fresh(sell).Status.Settlement.PaymentCompleted.Reference).To(Equal(ref))
		Expect(releasedFilesWith(sell.Name)).To(HaveLen(1), "paid once")
	})
})

// backup is an order as etcd holds it now.
type backup struct {
	order *investv1.Order
	data  []byte
}

// etcdBackup reads o's bytes from etcd, as a backup taken now holds them.
func etcdBackup(o *investv1.Order) backup {
	GinkgoHelper()
	data, err := env.EtcdRead(ctx, orderKey(o))
	Expect(err).NotTo(HaveOccurred())
	return backup{order: o.DeepCopy(), data: data}
}

func orderKey(o *investv1.Order) string {
	return fmt.Sprintf("/registry/invest.fundshare.io/orders/%s/%s", o.Namespace, o.Name)
}

// restore puts the backup's bytes back into etcd, as restoring etcd from that backup does
// for the order (no admission, no validation; the bank's books, in the archive's
// database, are not restored). It returns the second it did so, after the second of
// anything written before it: evidence written again carries a time from then on, which
// evidence written before cannot (records keep whole seconds).
func restore(b backup) time.Time {
	GinkgoHelper()
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
	at := time.Now().Truncate(time.Second)
	Expect(env.EtcdRestore(ctx, orderKey(b.order), b.data)).To(Succeed())
	return at
}

var _ = Describe("Bank decisions on rejected payouts", func() {
	It("sends a payout the bank rejected again to the account as corrected when an operator decides so, once", func() {
		sell := executedSell(2)
		_, b, t := releasedTransferOf(sell)
		Expect(finished(deliver(pain002(b, t.EndToEndID, "RJCT", "AC04")))).To(Equal("processed"))
		Eventually(func() *investv1.OrderPayout { return fresh(sell).Status.Payout }).WithTimeout(time.Minute).ShouldNot(BeNil())

		// The customer registers a new account and makes it the primary one.
		pmd := fixtures.PaymentMethodDetails(sell.Namespace, string(sell.Spec.AccountID), strangerIBAN)
		Expect(k8s.Create(ctx, pmd)).To(Succeed())
		acct := &investv1.Account{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: sell.Namespace, Name: string(sell.Spec.AccountID)}, acct)).To(Succeed())
		patch := client.MergeFrom(acct.DeepCopy())
		acct.Spec.PrimaryPaymentMethodDetails = pmd.Name
		Expect(k8s.Patch(ctx, acct, patch)).To(Succeed())

		d := recorded(decision("resend", investv1.BankDecisionSpec{
			Action: investv1.BankDecisionResend, Order: &investv1.BankOrderRef{Namespace: sell.Namespace, ID: sell.Name},
			Note: "account closed; the customer gave a new one by phone",
		}))
		Expect(d.Status.Payout).NotTo(BeNil())
		Expect(d.Status.Payout.EndToEndID).NotTo(Equal(t.EndToEndID), "a transfer of its own")
		b2, t2 := releasedTransferTo(d.Status.Payout.EndToEndID)
		Expect(t2.CreditorIBAN).To(Equal(strangerIBAN))
		Expect(t2.Amount).To(Equal(t.Amount))
		Eventually(func() *investv1.OrderPayout { return fresh(sell).Status.Payout }).WithTimeout(time.Minute).Should(BeNil(), "the stall ends")
		Eventually(func() []string { return reasons(sell) }).Should(ContainElement(bank.ReasonPayoutResent))

		again := refused(decision("resend-again", investv1.BankDecisionSpec{
			Action: investv1.BankDecisionResend, Order: &investv1.BankOrderRef{Namespace: sell.Namespace, ID: sell.Name}, Note: "twice",
		}))
		Expect(again.Status.Message).To(Or(ContainSubstring("on its way already"), ContainSubstring("no transfer the bank rejected")))

		// The bank delivers the debit and its status report at once; the report is applied
		// after the debit and tells the decision nothing new.
		Expect(finished(deliver(camt054(debit(uniqueRef("RESENT"), t2))))).To(Equal("processed"))
		Eventually(func() investv1.OrderState { return fresh(sell).Status.State }).WithTimeout(time.Minute).Should(Equal(investv1.StateCompleted))
		Eventually(func() string { return freshDecision(d).Status.Payout.Status }).WithTimeout(time.Minute).Should(Equal("PaidOut"))
		Expect(finished(deliver(pain002(b2, t2.EndToEndID, "ACCP", "")))).To(Equal("processed"))
		Eventually(func() string { return instructionByEndToEnd(sell, t2.EndToEndID).Status }).WithTimeout(time.Minute).Should(Equal(ledger.StatusAccepted))
		Consistently(func() string { return freshDecision(d).Status.Payout.Status }).WithTimeout(2 * time.Second).Should(Equal("PaidOut"))
		Expect(releasedFilesWith(sell.Name)).To(HaveLen(1), "the rejected transfer is never sent again")
		Expect(releasedTransfersTo(t2.EndToEndID)).To(HaveLen(1), "the new one once")
	})

	It("refuses to send again a transfer of an order that has none rejected or returned", func() {
		sell := executedSell(1)
		releasedTransferOf(sell)
		d := refused(decision("resend-nothing", investv1.BankDecisionSpec{
			Action: investv1.BankDecisionResend, Order: &investv1.BankOrderRef{Namespace: sell.Namespace, ID: sell.Name}, Note: "by mistake",
		}))
		Expect(d.Status.Message).To(ContainSubstring("no transfer the bank rejected or returned"))
		bad := &investv1.BankDecision{ObjectMeta: metav1.ObjectMeta{Name: "bdec-resend-entry-" + strings.ToLower(uniqueRef(""))},
			Spec: investv1.BankDecisionSpec{Action: investv1.BankDecisionResend, Entry: &investv1.BankEntryRef{Reference: "X"},
				Order: &investv1.BankOrderRef{Namespace: sell.Namespace, ID: sell.Name}, Note: "x"}}
		err := k8s.Create(ctx, bad)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("not allowed for Resend"))
	})
})

// gauge reads a gauge of the manager's metrics.
func gauge(name string) float64 {
	GinkgoHelper()
	families, err := ctrlmetrics.Registry.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, f := range families {
		if f.GetName() == name {
			for _, m := range f.GetMetric() {
				return m.GetGauge().GetValue()
			}
		}
	}
	return 0
}

// countOpen is how many payments the ledger holds in suspense, undecided.
func countOpen() float64 {
	GinkgoHelper()
	n, cursor := 0, ""
	for {
		rows, next, err := books.Rows(ctx, ledger.Query{Open: true, Limit: 1000, Cursor: cursor})
		Expect(err).NotTo(HaveOccurred())
		n += len(rows)
		if next == "" {
			return float64(n)
		}
		cursor = next
	}
}

// instructionByEndToEnd is the instruction of that end-to-end id of the order.
func instructionByEndToEnd(o *investv1.Order, e2e string) ledger.Payout {
	GinkgoHelper()
	ps, _, err := payouts().ListPayouts(ctx, ledger.PayoutQuery{Namespace: o.Namespace, OrderID: o.Name, EndToEndID: e2e})
	Expect(err).NotTo(HaveOccurred())
	Expect(ps).To(HaveLen(1))
	return ps[0]
}
