package apiserver_test

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/placement"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The order endpoints. The sandbox settlement agent is off in this suite: specs record
// settlement evidence by hand, as an operator does with kubectl.

const txHash = "0x" + "ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12"

// The twelve fields of the spec's order list items (and the spec's "value"), and the
// extensions every order answer carries: the wallet and payment method resolved at
// placement.
var orderListFields = []string{
	"id", "side", "market", "status", "amount_of_units", "value", "currency", "isin", "account_id", "created",
	"settlement_transaction_hash", "payment_transaction_reference", "custom_offering_id",
	"wallet_id", "payment_method_details_id",
}

// buyer is a new account of t with a primary wallet, ready to place bearer BUY orders.
func (t *tenant) buyer() string {
	account := t.newAccount()
	r := t.post("/v1/accounts/"+account+"/wallets", map[string]any{"chain": "polygon", "wallet_address": randomAddress(), "is_primary": true})
	ExpectWithOffset(1, r.code).To(Equal(http.StatusCreated), r.String())
	return account
}

// orderBody is a POST /v1/orders body.
func orderBody(side, isin, account string, units int) map[string]any {
	return map[string]any{"side": side, "market": "PRIMARY", "isin": isin, "amount_of_units": units, "currency": "EUR", "account_id": account}
}

// place places an order and returns its id.
func (t *tenant) place(side, isin, account string, units int) string {
	r := t.post("/v1/orders", orderBody(side, isin, account, units))
	ExpectWithOffset(1, r.code).To(Equal(http.StatusCreated), r.String())
	return r.json()["id"].(string)
}

func (t *tenant) delete(path string) response { return call(http.MethodDelete, path, t.token, nil) }

// deleteAsAClientWould is delete retried after the bearer check's 503 (the token's
// client could not be checked: nothing was done, Retry-After says when to come back), as
// a client does; under a loaded machine it happens, and it is not an answer to the race.
func (t *tenant) deleteAsAClientWould(path string) response {
	for range 30 {
		a := t.delete(path)
		if a.code != http.StatusServiceUnavailable || a.header.Get("Retry-After") == "" ||
			!strings.Contains(string(a.body), "cannot check the token's client now") {
			return a
		}
		time.Sleep(time.Second)
	}
	return t.delete(path)
}

func (t *tenant) storedOrder(id string) *investv1.Order {
	var o investv1.Order
	ExpectWithOffset(1, k8s.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: id}, &o)).To(Succeed())
	return &o
}

// waitState waits until the stored order is in state s.
func (t *tenant) waitState(id string, s investv1.OrderState) {
	GinkgoHelper()
	Eventually(func() investv1.OrderState {
		var o investv1.Order
		if err := k8s.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: id}, &o); err != nil {
			return ""
		}
		return o.Status.State
	}).WithTimeout(envtest.Settle).WithPolling(50*time.Millisecond).Should(Equal(s), "order %s", id)
}

// record writes settlement evidence on the order's status, as
// `kubectl patch --subresource=status` does.
func (t *tenant) record(id string, step lifecycle.Step, rec investv1.SettlementRecord) {
	GinkgoHelper()
	t.recordEvidence(id, step, rec, false)
}

// recordEvidence records evidence on the order's status, retrying until it succeeds. As
// a settlement agent (asAgent) it records on the version read, or not at all: a conflict
// is retried on a fresh read unless the order moved on, and nothing is recorded on an
// order whose next step is another (its cancellation requested, or terminal).
func (t *tenant) recordEvidence(id string, step lifecycle.Step, rec investv1.SettlementRecord, asAgent bool) {
	GinkgoHelper()
	Eventually(func() error {
		var o investv1.Order
		if err := k8s.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: id}, &o); err != nil {
			return err
		}
		var opts []client.MergeFromOption
		switch {
		case asAgent:
			if next, ok := lifecycle.NextStep(&o); !ok || next != step {
				return nil
			}
			opts = append(opts, client.MergeFromWithOptimisticLock{})
			rec.At = nowTime()
		case rec.At.IsZero():
			rec.At = nowTime()
		}
		patch := client.MergeFromWithOptions(o.DeepCopy(), opts...)
		lifecycle.Record(&o, step, rec)
		return k8s.Status().Patch(ctx, &o, patch)
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())
}

// settleBuy walks a BUY to COMPLETED, recording each piece of evidence when its state asks.
func (t *tenant) settleBuy(id string) {
	GinkgoHelper()
	t.waitState(id, investv1.StateAwaitingPayment)
	t.record(id, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + id[:8]})
	t.waitState(id, investv1.StateExecuted)
	t.record(id, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
	t.waitState(id, investv1.StateDeliveryInitiated)
	t.record(id, lifecycle.StepDeliveryCompleted, investv1.SettlementRecord{TransactionHash: txHash})
	t.waitState(id, investv1.StateCompleted)
	t.waitServed(id, investv1.StateCompleted)
}

// settleSell walks a SELL to COMPLETED.
func (t *tenant) settleSell(id string) {
	GinkgoHelper()
	t.waitState(id, investv1.StateExecuted)
	t.record(id, lifecycle.StepPaymentSent, investv1.SettlementRecord{Reference: "PAYOUT-" + id[:8]})
	t.waitState(id, investv1.StatePaymentSent)
	t.record(id, lifecycle.StepPaymentCompleted, investv1.SettlementRecord{})
	t.waitState(id, investv1.StateCompleted)
	t.waitServed(id, investv1.StateCompleted)
}

// waitServed waits until the facade answers the order in state s. The facade reads the
// informer cache, which on a loaded machine may lag well behind the API server that
// waitState reads (the order seen COMPLETED there is still DELIVERY_INITIATED here): a
// spec that reads the order, the list or the portfolio over REST next waits for this.
func (t *tenant) waitServed(id string, s investv1.OrderState) {
	GinkgoHelper()
	Eventually(func() any { return t.get("/v1/orders/" + id).json()["status"] }).
		WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal(string(s)), "order %s as the facade answers it", id)
}

func nowTime() metav1.Time { return metav1.NewTime(time.Now().UTC().Truncate(time.Second)) }

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func statesOf(o *investv1.Order) []investv1.OrderState {
	var out []investv1.OrderState
	for _, h := range o.Status.History {
		out = append(out, h.State)
	}
	return out
}

var _ = Describe("Orders: placement (POST /v1/orders)", func() {
	It("places a BUY priced from the latest NAV and answers 201 with the full order, PLACED until the controller moves it", func() {
		account := alpha.buyer()
		wallets := alpha.get("/v1/accounts/" + account + "/wallets").data()
		r := alpha.post("/v1/orders", orderBody("BUY", fixtures.ISIN, account, 100))
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		o := r.json()
		id := o["id"].(string)
		Expect(r.header.Get("Location")).To(Equal("/v1/orders/" + id))
		Expect(o).To(HaveKeyWithValue("status", "PLACED"))
		Expect(o).To(HaveKeyWithValue("side", "BUY"))
		Expect(o).To(HaveKeyWithValue("market", "PRIMARY"))
		Expect(o).To(HaveKeyWithValue("isin", fixtures.ISIN))
		Expect(o).To(HaveKeyWithValue("currency", "EUR"))
		Expect(o).To(HaveKeyWithValue("account_id", account))
		Expect(o).To(HaveKeyWithValue("amount_of_units", BeNumerically("==", 100)))
		// 100 units × NAV 103.0000 EUR (1,030,000 micro-units), 0.5% subscription fee.
		Expect(o).To(HaveKeyWithValue("value", BeNumerically("==", 103_000_000)))
		Expect(o).To(HaveKeyWithValue("gross_value", BeNumerically("==", 103_000_000)))
		Expect(o).To(HaveKeyWithValue("amount", BeNumerically("==", 103_000_000)))
		Expect(o).To(HaveKeyWithValue("subscription_fee", BeNumerically("==", 50)))
		Expect(o).To(HaveKeyWithValue("subscription_fee_amount", BeNumerically("==", 515_000)))
		Expect(o).To(HaveKeyWithValue("net_amount", BeNumerically("==", 102_485_000)))
		Expect(o).To(HaveKeyWithValue("fee_source", "DEFAULT"))
		Expect(o["fund_details"]).To(Equal(map[string]any{
			"isin": fixtures.ISIN, "fund_id": fund.Name, "fund_name": fund.Spec.Name,
			"share_class_id": shareClass.Name, "share_class_name": shareClass.Spec.Name,
		}))
		Expect(o["payment_details"]).To(Equal(map[string]any{
			"account_holder_name": fixtures.FundHolder, "iban": fixtures.FundIBAN, "payment_reference": placement.PaymentReference(id),
		}))
		Expect(o).To(HaveKeyWithValue("created_at", o["created"]))
		Expect(o).To(HaveKeyWithValue("settlement_type", "bearer"))
		Expect(o).To(HaveKeyWithValue("wallet_id", wallets[0]["id"]))
		Expect(o).To(HaveKeyWithValue("payment_method_details_id", BeNil()))
		Expect(o).To(HaveKeyWithValue("custom_offering_id", BeNil()))
		Expect(o).To(HaveKeyWithValue("settlement_transaction_hash", BeNil()))
		Expect(o).To(HaveKeyWithValue("payment_transaction_reference", BeNil()))
		Expect(o).To(HaveKeyWithValue("cancellation_requested", false))
		Expect(o["history"]).To(Equal([]any{}))

		// The controller moves it on: PLACED, then AWAITING_PAYMENT (in one write).
		Eventually(func() any { return alpha.get("/v1/orders/" + id).json()["status"] }).
			WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal("AWAITING_PAYMENT"))
		got := alpha.get("/v1/orders/" + id).json()
		Expect(got["history"]).To(HaveLen(2))
		first := got["history"].([]any)[0].(map[string]any)
		Expect(first).To(HaveKeyWithValue("status", "PLACED"))
		Expect(first).To(HaveKeyWithValue("reason", "Accepted"))
		Expect(first).To(HaveKey("at"))
		Expect(first).To(HaveKey("message"))
	})

	It("uses the named wallet and payment method details, and a claimable order needs no wallet", func() {
		account := alpha.newAccount()
		wallet := alpha.newWallet(account, randomAddress())
		pmd := alpha.newPaymentMethod(account)
		body := orderBody("BUY", fixtures.ISIN, account, 100)
		body["wallet_id"], body["payment_method_details_id"] = strings.ToUpper(wallet), pmd
		r := alpha.post("/v1/orders", body)
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		Expect(r.json()).To(HaveKeyWithValue("wallet_id", wallet))
		Expect(r.json()).To(HaveKeyWithValue("payment_method_details_id", pmd))

		body = orderBody("BUY", fixtures.ISIN, alpha.newAccount(), 100)
		body["settlement_type"] = "claimable"
		r = alpha.post("/v1/orders", body)
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		Expect(r.json()).To(HaveKeyWithValue("settlement_type", "claimable"))
		Expect(r.json()).To(HaveKeyWithValue("wallet_id", BeNil()))
	})

	It("answers 404 Account not found naming the id, for an unknown account and for another tenant's alike", func() {
		theirs := beta.buyer()
		unknown := fixturesID()
		r1 := alpha.post("/v1/orders", orderBody("BUY", fixtures.ISIN, theirs, 100))
		r2 := alpha.post("/v1/orders", orderBody("BUY", fixtures.ISIN, unknown, 100))
		Expect(r1.code).To(Equal(http.StatusNotFound), r1.String())
		Expect(r1.json()["error"]).To(Equal("Account not found"))
		Expect(r1.json()["details"]).To(ContainSubstring(theirs))
		Expect(strings.ReplaceAll(r1.String(), theirs, "<id>")).To(Equal(strings.ReplaceAll(r2.String(), unknown, "<id>")))
	})

	It("answers 404 Share class not found naming the ISIN", func() {
		r := alpha.post("/v1/orders", orderBody("BUY", "GB0002634946", alpha.buyer(), 100))
		Expect(r.code).To(Equal(http.StatusNotFound), r.String())
		Expect(r.json()["error"]).To(Equal("Share class not found"))
		Expect(r.json()["details"]).To(ContainSubstring("GB0002634946"))
	})

	It("answers 422 naming every field that is missing, unknown, of the wrong type or invalid", func() {
		r := alpha.post("/v1/orders", map[string]any{"colour": "red", "amount_of_units": "ten"})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		d := r.details()
		for _, f := range []string{"side", "market", "isin", "currency", "account_id"} {
			Expect(d).To(HaveKeyWithValue(f, ConsistOf("is required")), f)
		}
		Expect(d).To(HaveKeyWithValue("colour", ConsistOf("is not a known field")))
		Expect(d).To(HaveKeyWithValue("amount_of_units", ConsistOf(ContainSubstring("must be an integer"))))

		r = alpha.post("/v1/orders", map[string]any{
			"side": "HOLD", "market": "OTC", "isin": "IE00B4L5Y984", "amount_of_units": 0, "currency": "eur",
			"account_id": "acc-1", "settlement_type": "courier", "wallet_id": "w1",
		})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		d = r.details()
		for _, f := range []string{"side", "market", "isin", "amount_of_units", "currency", "account_id", "settlement_type", "wallet_id"} {
			Expect(d).To(HaveKey(f))
		}
	})

	It("answers 422 for what placement refuses: another currency, no recipient wallet, below the minimum investment", func() {
		account := alpha.buyer()
		body := orderBody("BUY", fixtures.ISIN, account, 100)
		body["currency"] = "USD"
		r := alpha.post("/v1/orders", body)
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveKeyWithValue("currency", ConsistOf(ContainSubstring("must be EUR"))))

		r = alpha.post("/v1/orders", orderBody("BUY", fixtures.ISIN, alpha.newAccount(), 100))
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveKeyWithValue("wallet_id", ConsistOf(ContainSubstring("recipient wallet"))))

		r = alpha.post("/v1/orders", orderBody("BUY", fixtures.ISIN, account, 1))
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveKeyWithValue("amount_of_units", ConsistOf(ContainSubstring("minimum investment"))))
	})

	It("refuses a SELL beyond the holdings with 400 Insufficient holdings", func() {
		r := alpha.post("/v1/orders", orderBody("SELL", fixtures.ISIN, alpha.newAccount(), 10))
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["error"]).To(Equal("Insufficient holdings"))
		Expect(r.json()["details"]).To(ContainSubstring("10 units"))
	})

	It("refuses a PRIMARY SELL of a fund that is not redeemable with 400 Fund not redeemable", func() {
		r := alpha.post("/v1/orders", orderBody("SELL", string(closedClass.Spec.ISIN), alpha.newAccount(), 10))
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["error"]).To(Equal("Fund not redeemable"))
		Expect(r.json()["details"]).To(BeAssignableToTypeOf(""))
	})
})

var _ = Describe("Orders: reading (GET /v1/orders, GET /v1/orders/{order_id})", func() {
	It("lists orders with the spec's fields and the resolved wallet and payment method, status PLACED until the controller writes one", func() {
		account := alpha.buyer()
		id := alpha.place("BUY", fixtures.ISIN, account, 100)
		items := alpha.get("/v1/orders?account_id=" + account).data()
		Expect(items).To(HaveLen(1))
		Expect(keysOf(items[0])).To(ConsistOf(orderListFields))
		Expect(items[0]).To(HaveKeyWithValue("id", id))
		Expect(items[0]["status"]).To(BeElementOf("PLACED", "AWAITING_PAYMENT"))
		Expect(items[0]).To(HaveKeyWithValue("value", BeNumerically("==", 103_000_000)))
	})

	It("filters by side, market, order_status, account_type, account_id, currency and isin, and pages in a stable order", func() {
		person := alpha.buyer()
		r := alpha.post("/v1/accounts", business())
		Expect(r.code).To(Equal(http.StatusCreated))
		company := r.json()["id"].(string)
		r = alpha.post("/v1/accounts/"+company+"/wallets", map[string]any{"chain": "polygon", "wallet_address": randomAddress(), "is_primary": true})
		Expect(r.code).To(Equal(http.StatusCreated))
		a := alpha.place("BUY", fixtures.ISIN, person, 100)
		b := alpha.place("BUY", string(lockedClass.Spec.ISIN), person, 100)
		c := alpha.place("BUY", fixtures.ISIN, company, 100)
		alpha.waitState(a, investv1.StateAwaitingPayment)
		alpha.waitState(b, investv1.StateAwaitingPayment)
		alpha.waitState(c, investv1.StateAwaitingPayment)
		list := func(q string) []string { return idsOf(alpha.get("/v1/orders?" + q).data()) }

		Expect(list("account_id=" + person)).To(ConsistOf(a, b))
		Expect(list("account_id=" + strings.ToUpper(person))).To(ConsistOf(a, b))
		Expect(list("account_id=" + person + "&isin=" + fixtures.ISIN)).To(ConsistOf(a))
		Expect(list("account_id=" + person + "&isin=" + strings.ToLower(string(lockedClass.Spec.ISIN)))).To(ConsistOf(b))
		Expect(list("account_id=" + person + "&order_status=AWAITING_PAYMENT")).To(ConsistOf(a, b))
		Expect(list("account_id=" + person + "&order_status=COMPLETED")).To(BeEmpty())
		Expect(list("account_id=" + person + "&side=BUY&market=PRIMARY&currency=EUR")).To(ConsistOf(a, b))
		Expect(list("account_id=" + person + "&side=SELL")).To(BeEmpty())
		Expect(list("account_id=" + person + "&market=SECONDARY")).To(BeEmpty())
		Expect(list("account_id=" + person + "&currency=USD")).To(BeEmpty())
		Expect(list("account_id=" + company + "&account_type=individual")).To(BeEmpty())

		// Without account_id the tenant's other orders take part too.
		businessOrders := list("account_type=business")
		Expect(businessOrders).To(ContainElement(c))
		Expect(businessOrders).NotTo(ContainElement(BeElementOf(a, b)))
		Expect(list("account_type=individual&isin=" + fixtures.ISIN)).To(ContainElement(a))
		Expect(list("account_type=individual&isin=" + fixtures.ISIN)).NotTo(ContainElement(BeElementOf(b, c)))
		Expect(list("isin=" + string(lockedClass.Spec.ISIN))).To(ContainElement(b))
		Expect(list("isin=" + string(lockedClass.Spec.ISIN))).NotTo(ContainElement(BeElementOf(a, c)))
		Expect(list("order_status=AWAITING_PAYMENT")).To(ContainElements(a, b, c))
		Expect(list("order_status=CANCELLED")).NotTo(ContainElement(BeElementOf(a, b, c)))
		Expect(beta.get("/v1/orders").data()).NotTo(ContainElement(HaveKeyWithValue("id", BeElementOf(a, b, c))))

		all := list("account_id=" + person)
		first, second := list("account_id="+person+"&limit=1"), list("account_id="+person+"&skip=1&limit=1")
		Expect(append(first, second...)).To(Equal(all))
		Expect(list("account_id=" + person + "&skip=2")).To(BeEmpty())
	})

	It("shows the settlement evidence of a BUY: payment reference and settlement transaction hash", func() {
		id := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		alpha.settleBuy(id)
		o := alpha.get("/v1/orders/" + id).json()
		Expect(o).To(HaveKeyWithValue("status", "COMPLETED"))
		Expect(o).To(HaveKeyWithValue("payment_transaction_reference", "SEPA-"+id[:8]))
		Expect(o).To(HaveKeyWithValue("settlement_transaction_hash", txHash))
		var states []any
		for _, h := range o["history"].([]any) {
			states = append(states, h.(map[string]any)["status"])
		}
		Expect(states).To(Equal([]any{"PLACED", "AWAITING_PAYMENT", "PAYMENT_RECEIVED", "EXECUTED",
			"DELIVERY_INITIATED", "DELIVERY_COMPLETED", "COMPLETED"}))
		item := alpha.get("/v1/orders?account_id=" + o["account_id"].(string)).data()[0]
		Expect(item).To(HaveKeyWithValue("settlement_transaction_hash", txHash))
		Expect(item).To(HaveKeyWithValue("payment_transaction_reference", "SEPA-"+id[:8]))
	})

	It("shows the payout reference of a SELL, and no payment details or settlement hash", func() {
		account := alpha.buyer()
		alpha.settleBuy(alpha.place("BUY", fixtures.ISIN, account, 100))
		sell := alpha.place("SELL", fixtures.ISIN, account, 40)
		Expect(alpha.get("/v1/orders/" + sell).json()).To(HaveKeyWithValue("payment_details", BeNil()))
		alpha.settleSell(sell)
		o := alpha.get("/v1/orders/" + sell).json()
		Expect(o).To(HaveKeyWithValue("payment_transaction_reference", "PAYOUT-"+sell[:8]))
		Expect(o).To(HaveKeyWithValue("settlement_transaction_hash", BeNil()))
		// The redemption fee, in its own fields: 0.25% of 40 × 103 EUR.
		Expect(o).To(HaveKeyWithValue("redemption_fee", BeNumerically("==", 25)))
		Expect(o).To(HaveKeyWithValue("redemption_fee_amount", BeNumerically("==", 103_000)))
		Expect(o).To(HaveKeyWithValue("subscription_fee", BeNil()))
		Expect(o).To(HaveKeyWithValue("subscription_fee_amount", BeNil()))
		Expect(o).To(HaveKeyWithValue("refund", BeNil()))
	})

	It("answers 404 Order not found naming the id, for unknown ids and other tenants' orders alike", func() {
		theirs := beta.place("BUY", fixtures.ISIN, beta.buyer(), 100)
		unknown := fixturesID()
		r1, r2 := alpha.get("/v1/orders/"+theirs), alpha.get("/v1/orders/"+unknown)
		Expect(r1.code).To(Equal(http.StatusNotFound), r1.String())
		Expect(r1.json()["error"]).To(Equal("Order not found"))
		Expect(r1.json()["details"]).To(ContainSubstring(theirs))
		Expect(strings.ReplaceAll(r1.String(), theirs, "<id>")).To(Equal(strings.ReplaceAll(r2.String(), unknown, "<id>")))
		Expect(alpha.get("/v1/orders/not-a-uuid").code).To(Equal(http.StatusNotFound))
		Expect(alpha.get("/v1/orders?account_id=" + string(beta.storedOrder(theirs).Spec.AccountID)).data()).To(BeEmpty())
	})

	It("reads an order immediately after placing it (20 times)", func() {
		account := alpha.buyer()
		for i := range 20 {
			id := alpha.place("BUY", fixtures.ISIN, account, 100)
			Expect(alpha.get("/v1/orders/"+id).code).To(Equal(http.StatusOK), "iteration %d", i)
			Expect(idsOf(alpha.get("/v1/orders?account_id="+account).data())).To(ContainElement(id), "iteration %d", i)
		}
	})
})

var _ = Describe("Orders: cancellation (DELETE /v1/orders/{order_id})", func() {
	It("cancels a live order and answers 200 with the order CANCELLED, with or without a trailing slash", func() {
		account := alpha.buyer()
		for _, slash := range []string{"", "/"} {
			id := alpha.place("BUY", fixtures.ISIN, account, 100)
			alpha.waitState(id, investv1.StateAwaitingPayment)
			r := alpha.delete("/v1/orders/" + id + slash)
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			o := r.json()
			Expect(o).To(HaveKeyWithValue("status", "CANCELLED"))
			Expect(o).To(HaveKeyWithValue("cancellation_requested", true))
			history := o["history"].([]any)
			Expect(history[len(history)-1]).To(HaveKeyWithValue("reason", "CancellationRequested"))
			Expect(alpha.get("/v1/orders/" + id).json()).To(HaveKeyWithValue("status", "CANCELLED"))
			Expect(alpha.storedOrder(id).Status.State).To(Equal(investv1.StateCancelled))
		}
	})

	It("cancels an order the controller has not accepted yet (status PLACED)", func() {
		id := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		r := alpha.delete("/v1/orders/" + id)
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		Expect(r.json()).To(HaveKeyWithValue("status", "CANCELLED"))
		Expect(lifecycle.ValidHistory(investv1.SideBuy, statesOf(alpha.storedOrder(id)))).To(Succeed())
	})

	It("refuses to cancel a terminal order with 409 naming the state, and changes nothing", func() {
		account := alpha.buyer()
		done := alpha.place("BUY", fixtures.ISIN, account, 100)
		alpha.settleBuy(done)
		before := alpha.storedOrder(done)
		r := alpha.delete("/v1/orders/" + done)
		Expect(r.code).To(Equal(http.StatusConflict), r.String())
		Expect(r.json()["error"]).To(Equal("Order already COMPLETED"))
		Expect(r.json()["details"]).To(ContainSubstring("COMPLETED"))
		after := alpha.storedOrder(done)
		Expect(after.ResourceVersion).To(Equal(before.ResourceVersion))
		Expect(after.Spec.CancellationRequested).To(BeFalse())

		cancelled := alpha.place("BUY", fixtures.ISIN, account, 100)
		Expect(alpha.delete("/v1/orders/" + cancelled).code).To(Equal(http.StatusOK))
		r = alpha.delete("/v1/orders/" + cancelled + "/")
		Expect(r.code).To(Equal(http.StatusConflict), r.String())
		Expect(r.json()["error"]).To(Equal("Order already CANCELLED"))
	})

	It("answers 404 Order not found for unknown ids and other tenants' orders alike, and cancels nothing", func() {
		theirs := beta.place("BUY", fixtures.ISIN, beta.buyer(), 100)
		unknown := fixturesID()
		r1, r2 := alpha.delete("/v1/orders/"+theirs), alpha.delete("/v1/orders/"+unknown+"/")
		Expect(r1.code).To(Equal(http.StatusNotFound), r1.String())
		Expect(strings.ReplaceAll(r1.String(), theirs, "<id>")).To(Equal(strings.ReplaceAll(r2.String(), unknown, "<id>")))
		Expect(beta.storedOrder(theirs).Spec.CancellationRequested).To(BeFalse())
	})

	It("cancels a paid BUY (PAYMENT_RECEIVED) with a refund of what was paid, settled with evidence", func() {
		setSubscribable(false)
		DeferCleanup(setSubscribable, true)
		account := alpha.buyer()
		id := alpha.place("BUY", fixtures.ISIN, account, 100)
		alpha.waitState(id, investv1.StateAwaitingPayment)
		alpha.record(id, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + id[:8]})
		alpha.waitState(id, investv1.StatePaymentReceived) // the market is closed: it stays
		r := alpha.delete("/v1/orders/" + id)
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		o := r.json()
		Expect(o).To(HaveKeyWithValue("status", "CANCELLED"))
		Expect(o["refund"]).To(Equal(map[string]any{
			"amount": 103_000_000.0, "currency": "EUR", "payment_method_details_id": nil,
			"reference": lifecycle.RefundReference(alpha.storedOrder(id)), "status": "PENDING",
			"sent_reference": nil, "sent_at": nil, "completed_at": nil,
		}))
		history := o["history"].([]any)
		Expect(history[len(history)-1]).To(HaveKeyWithValue("reason", "CancelledWithRefund"))
		alpha.record(id, lifecycle.StepRefundSent, investv1.SettlementRecord{Reference: "REFUND-" + id[:8]})
		Eventually(func() any { return alpha.get("/v1/orders/" + id).json()["refund"] }).
			WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(And(HaveKeyWithValue("status", "SENT"), HaveKeyWithValue("sent_reference", "REFUND-"+id[:8])))
		alpha.record(id, lifecycle.StepRefundCompleted, investv1.SettlementRecord{Reference: "REFUND-" + id[:8]})
		Eventually(func() any { return alpha.get("/v1/orders/" + id).json()["refund"] }).
			WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(HaveKeyWithValue("status", "COMPLETED"))
		// Nothing is credited for a cancelled buy.
		Expect(alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"]).To(BeEmpty())
	})

	It("refuses to cancel a BUY from EXECUTED on with 409 Order already executed naming the state; it goes on to COMPLETED", func() {
		account := alpha.buyer()
		id := alpha.place("BUY", fixtures.ISIN, account, 100)
		alpha.waitState(id, investv1.StateAwaitingPayment)
		alpha.record(id, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + id[:8]})
		alpha.waitState(id, investv1.StateExecuted)
		for _, state := range []investv1.OrderState{investv1.StateExecuted, investv1.StateDeliveryInitiated} {
			before := alpha.storedOrder(id)
			r := alpha.delete("/v1/orders/" + id)
			Expect(r.code).To(Equal(http.StatusConflict), r.String())
			Expect(r.json()["error"]).To(Equal("Order already executed"))
			Expect(r.json()["details"]).To(ContainSubstring(string(state)))
			after := alpha.storedOrder(id)
			Expect(after.ResourceVersion).To(Equal(before.ResourceVersion))
			Expect(after.Spec.CancellationRequested).To(BeFalse())
			if state == investv1.StateExecuted {
				alpha.record(id, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
				alpha.waitState(id, investv1.StateDeliveryInitiated)
			}
		}
		alpha.record(id, lifecycle.StepDeliveryCompleted, investv1.SettlementRecord{TransactionHash: txHash})
		alpha.waitState(id, investv1.StateCompleted)
		alpha.waitServed(id, investv1.StateCompleted) // the portfolio is read from the facade's cache
		Expect(alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"]).To(HaveLen(1))
	})

	It("refuses to cancel a SELL from its payout on with 409 Order already executed; a cancelled SELL releases its units", func() {
		account := alpha.buyer()
		alpha.settleBuy(alpha.place("BUY", fixtures.ISIN, account, 100))
		sell := alpha.place("SELL", fixtures.ISIN, account, 40)
		alpha.waitState(sell, investv1.StateExecuted)
		alpha.record(sell, lifecycle.StepPaymentSent, investv1.SettlementRecord{Reference: "PAYOUT-" + sell[:8]})
		alpha.waitState(sell, investv1.StatePaymentSent)
		r := alpha.delete("/v1/orders/" + sell)
		Expect(r.code).To(Equal(http.StatusConflict), r.String())
		Expect(r.json()["error"]).To(Equal("Order already executed"))
		Expect(r.json()["details"]).To(ContainSubstring("PAYMENT_SENT"))
		alpha.record(sell, lifecycle.StepPaymentCompleted, investv1.SettlementRecord{})
		alpha.waitState(sell, investv1.StateCompleted)

		// A SELL cancelled before execution (gated) gives its reserved units back.
		setGate(true)
		DeferCleanup(setGate, false)
		second := alpha.place("SELL", fixtures.ISIN, account, 60)
		alpha.waitState(second, investv1.StateRedemptionGated)
		Eventually(func() any {
			return alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any)[0].(map[string]any)["reserved"]
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(BeNumerically("==", 60))
		Expect(alpha.delete("/v1/orders/" + second).code).To(Equal(http.StatusOK))
		Eventually(func() any {
			return alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any)[0].(map[string]any)["reserved"]
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(BeNumerically("==", 0))
		Expect(alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any)[0]).To(HaveKeyWithValue("units", BeNumerically("==", 60)))
	})

	It("admission refuses spec.cancellationRequested past the point of no return with the same rule (kubectl patch)", func() {
		id := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		alpha.waitState(id, investv1.StateAwaitingPayment)
		alpha.record(id, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + id[:8]})
		alpha.waitState(id, investv1.StateExecuted)
		o := alpha.storedOrder(id)
		err := k8s.Patch(ctx, o, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"cancellationRequested":true}}`)))
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "%v", err)
		Expect(refusal.IsNotCancellable(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("EXECUTED"))
		Expect(err.Error()).To(ContainSubstring("point of no return"))
	})

	It("a SELL beyond what the account holds on chain is refused at placement with Insufficient holdings (REST 400 naming the figures, and kubectl admission)", func() {
		account := alpha.buyer()
		alpha.settleBuy(alpha.place("BUY", fixtures.ISIN, account, 953))
		// What the ledger round writes once the holder moved 500 of the 953 units to another
		// account's wallet on chain (controllers/token: "the ledger round writes per account
		// and ISIN the units ... following a holder transfer to another account's wallet").
		setOnChain(alpha.ns, account, 42, 453)

		r := alpha.post("/v1/orders", orderBody("SELL", fixtures.ISIN, account, 454))
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["error"]).To(Equal("Insufficient holdings"))
		Expect(r.json()["details"]).To(ContainSubstring("454 units of " + fixtures.ISIN + " requested, 453 on chain at block 42, 0 reserved by other sells not burned by then"))

		first := alpha.place("SELL", fixtures.ISIN, account, 400)
		Eventually(func() any {
			return alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any)[0].(map[string]any)["reserved"]
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(BeNumerically("==", 400))
		r = alpha.post("/v1/orders", orderBody("SELL", fixtures.ISIN, account, 54))
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["details"]).To(ContainSubstring("54 units of " + fixtures.ISIN + " requested, 453 on chain at block 42, 400 reserved by other sells not burned by then"))

		By("kubectl create: admission runs the same placement")
		sell := fixtures.BuyOrder(alpha.ns, account, fixtures.ISIN, 54)
		sell.Name = fixturesID()
		sell.Spec.Side = investv1.SideSell
		err := k8s.Create(ctx, sell)
		code, msg, ok := refusal.RuleOf(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect(code).To(Equal("Insufficient holdings"))
		Expect(msg).To(ContainSubstring("453 on chain at block 42, 400 reserved by other sells"))

		By("within what the chain holds: placed")
		alpha.place("SELL", fixtures.ISIN, account, 53)
		Expect(alpha.delete("/v1/orders/" + first).code).To(BeElementOf(http.StatusOK, http.StatusAccepted))
	})

	It("a SELL whose units leave before the burn stalls and can be cancelled, releasing its reservation (DELETE; no refund, no payout)", func() {
		account := alpha.buyer()
		alpha.settleBuy(alpha.place("BUY", fixtures.ISIN, account, 100))
		sell := alpha.place("SELL", fixtures.ISIN, account, 40)
		alpha.waitState(sell, investv1.StateExecuted)
		// What the chain agent records when the chain refuses the burn: the units left.
		writeChain(alpha.ns, sell, func(c *investv1.OrderChainStatus) {
			c.Refused = &investv1.ChainRefusal{Reason: "InsufficientTokens: the sell burns 40 units, the account's registered wallets hold 0 on chain at block 9, 0 of them being burned by other sells", At: nowTime()}
		})
		Eventually(func(g Gomega) {
			c := meta.FindStatusCondition(alpha.storedOrder(sell).Status.Conditions, lifecycle.ConditionStalled)
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Status).To(Equal(metav1.ConditionTrue))
			g.Expect(c.Message).To(ContainSubstring("InsufficientTokens"))
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())

		r := alpha.delete("/v1/orders/" + sell)
		Expect(r.code).To(BeElementOf(http.StatusOK, http.StatusAccepted), r.String())
		alpha.waitState(sell, investv1.StateCancelled)
		o := alpha.storedOrder(sell)
		Expect(o.Status.Refund).To(BeNil())
		Expect(o.Status.Settlement.PaymentSent).To(BeNil())
		Eventually(func() any {
			return alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any)[0].(map[string]any)["reserved"]
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(BeNumerically("==", 0))
		Expect(alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any)[0]).To(HaveKeyWithValue("units", BeNumerically("==", 100)))
	})

	It("a SELL whose burn is in flight cannot be cancelled (409 Burn in flight, REST and kubectl); once the burn is final and reverted it can", func() {
		account := alpha.buyer()
		alpha.settleBuy(alpha.place("BUY", fixtures.ISIN, account, 100))
		sell := alpha.place("SELL", fixtures.ISIN, account, 40)
		alpha.waitState(sell, investv1.StateExecuted)
		hash := "0x" + strings.Repeat("ab", 32)
		writeChain(alpha.ns, sell, func(c *investv1.OrderChainStatus) {
			c.Token = randomAddress()
			c.Burns = []investv1.OrderBurn{{WalletID: investv1.ObjectID(fixturesID()), Address: randomAddress(), Units: 40}}
			c.Transaction = &investv1.ChainTransaction{ChainID: 1337, From: randomAddress(), Nonce: 5, Attempts: []investv1.ChainTransactionAttempt{{
				Hash: hash, Raw: "0x02", MaxFeePerGas: "2", MaxPriorityFeePerGas: "1", Gas: 60000, SignedAt: nowTime(),
			}}}
		})
		Eventually(func() any { return alpha.delete("/v1/orders/" + sell).json()["error"] }).
			WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal("Burn in flight"))
		r := alpha.delete("/v1/orders/" + sell)
		Expect(r.code).To(Equal(http.StatusConflict), r.String())
		Expect(r.json()["details"]).To(ContainSubstring("burn transaction " + hash + " (nonce 5) is in flight"))
		err := k8s.Patch(ctx, alpha.storedOrder(sell), client.RawPatch(types.MergePatchType, []byte(`{"spec":{"cancellationRequested":true}}`)))
		Expect(refusal.IsNotCancellable(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("is in flight"))
		Expect(alpha.storedOrder(sell).Spec.CancellationRequested).To(BeFalse())

		By("the burn is final and reverted: nothing was burned")
		writeChain(alpha.ns, sell, func(c *investv1.OrderChainStatus) {
			c.Transaction.Receipt = &investv1.ChainReceipt{Hash: hash, BlockNumber: 12, BlockHash: "0x" + strings.Repeat("cd", 32),
				Status: investv1.ChainReceiptReverted, RevertReason: "ERC20InsufficientBalance", Confirmations: 2, At: nowTime()}
		})
		Eventually(func() int { return alpha.delete("/v1/orders/" + sell).code }).
			WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(BeElementOf(http.StatusOK, http.StatusAccepted))
		alpha.waitState(sell, investv1.StateCancelled)
		Expect(alpha.storedOrder(sell).Status.Refund).To(BeNil())
	})

	It("admission's refusals reach a client with typed causes (kubectl create of a SELL beyond the holdings, kubectl delete of a live order), the words kubectl shows unchanged", func() {
		sell := fixtures.BuyOrder(alpha.ns, alpha.newAccount(), fixtures.ISIN, 10)
		sell.Name = fixturesID()
		sell.Spec.Side = investv1.SideSell
		err := k8s.Create(ctx, sell)
		code, msg, ok := refusal.RuleOf(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect(code).To(Equal("Insufficient holdings"))
		Expect(msg).To(ContainSubstring("10 units"))
		Expect(err.Error()).To(ContainSubstring("Forbidden: Insufficient holdings: "))

		id := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		err = k8s.Delete(ctx, alpha.storedOrder(id))
		reason, ok := refusal.Refused(err)
		Expect(ok).To(BeTrue(), "%v", err)
		Expect(reason).To(ContainSubstring("request a cancellation first"))
		Expect(err.Error()).To(ContainSubstring("denied the request"))
	})

	It("resolves 50 races between the payment evidence and DELETE to one outcome, and the answer is the truth", func() {
		const n = 50
		account := alpha.buyer()
		ids := make([]string, n)
		for i := range ids {
			ids[i] = alpha.place("BUY", fixtures.ISIN, account, 100)
		}
		for _, id := range ids {
			alpha.waitState(id, investv1.StateAwaitingPayment)
		}
		// Race: the payment evidence (the controller then writes PAYMENT_RECEIVED and
		// EXECUTED at once on the open market: past the point of no return) against
		// DELETE, each after a random delay so that either may come first. The evidence
		// is recorded with the optimistic lock, as a settlement agent records it.
		const evidenceJitter, deleteJitter = 300 * time.Millisecond, 1500 * time.Millisecond
		answers := make([]response, n)
		envtest.Race(n, func(i int) {
			time.Sleep(rand.N(evidenceJitter))
			alpha.recordLocked(ids[i], lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + ids[i][:8]})
		}, func(i int) {
			time.Sleep(rand.N(deleteJitter))
			answers[i] = alpha.deleteAsAClientWould("/v1/orders/" + ids[i])
		})
		cancelled, refunded, executed := 0, 0, 0
		for i, id := range ids {
			switch a := answers[i]; a.code {
			case http.StatusOK, http.StatusAccepted:
				// 200: cancelled within the facade's wait; 202 (a loaded machine): the
				// cancellation was accepted and the controller had not written it yet. Either
				// way the truth must be CANCELLED.
				if a.code == http.StatusOK {
					Expect(a.json()["status"]).To(Equal("CANCELLED"))
				} else {
					Expect(a.json()["cancellation_requested"]).To(BeTrue(), a.String())
				}
				alpha.waitState(id, investv1.StateCancelled)
				stored := alpha.storedOrder(id)
				// A payment recorded before the cancellation is refunded; none after it.
				Expect(stored.Status.Refund != nil).To(Equal(stored.Status.Settlement.PaymentReceived != nil), "order %s", id)
				Expect(stored.Status.Settlement.DeliveryInitiated).To(BeNil())
				if stored.Status.Refund != nil && a.code == http.StatusOK {
					Expect(a.json()["refund"]).To(HaveKeyWithValue("reference", stored.Status.Refund.Reference))
				}
				if stored.Status.Refund != nil {
					refunded++
				}
				cancelled++
			case http.StatusConflict:
				Expect(a.json()["error"]).To(Equal("Order already executed"), a.String())
				executed++
				alpha.record(id, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
				alpha.record(id, lifecycle.StepDeliveryCompleted, investv1.SettlementRecord{TransactionHash: txHash})
				alpha.waitState(id, investv1.StateCompleted)
				alpha.waitServed(id, investv1.StateCompleted) // the portfolio below is read from the facade's cache
				Expect(alpha.storedOrder(id).Spec.CancellationRequested).To(BeFalse())
			default:
				Fail("unexpected answer " + a.String())
			}
			Expect(lifecycle.ValidHistory(investv1.SideBuy, statesOf(alpha.storedOrder(id)))).To(Succeed())
		}
		GinkgoWriter.Printf("cancellation races: %d cancelled (200 or 202, %d with a refund), %d executed (409)\n", cancelled, refunded, executed)
		Expect(cancelled).To(BeNumerically(">", 0), "no cancellation won: the race was not exercised")
		Expect(executed).To(BeNumerically(">", 0), "no execution won: the race was not exercised")
		// Holdings are the completed buys, nothing of the cancelled ones.
		positions := alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any)
		Expect(positions).To(HaveLen(1))
		Expect(positions[0]).To(HaveKeyWithValue("units", BeNumerically("==", 100*executed)))
	})
})

// setSubscribable opens or closes subscriptions of the main fund; setGate its redemption gate.
func setSubscribable(open bool) { patchFund(func(f *investv1.Fund) { f.Spec.Subscribable = open }) }

func setGate(active bool) {
	patchFund(func(f *investv1.Fund) {
		f.Spec.RedemptionGate = nil // as the fixture has it: no gate
		if active {
			f.Spec.RedemptionGate = &investv1.RedemptionGate{Active: true}
		}
	})
}

func patchFund(mutate func(*investv1.Fund)) {
	GinkgoHelper()
	Eventually(func() error {
		var f investv1.Fund
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(fund), &f); err != nil {
			return err
		}
		mutate(&f)
		return k8s.Update(ctx, &f)
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())
}

// recordLocked records evidence as a settlement agent does (recordEvidence).
func (t *tenant) recordLocked(id string, step lifecycle.Step, rec investv1.SettlementRecord) {
	GinkgoHelper()
	t.recordEvidence(id, step, rec, true)
}

var _ = Describe("Portfolio (GET /v1/accounts/{account_id}/portfolio)", func() {
	It("shows one lot per locked buy and folds the unlocked units of an ISIN into one lot (unlocked lots fold into one)", func() {
		account := alpha.buyer()
		var open, locked []string
		for range 2 {
			open = append(open, alpha.place("BUY", fixtures.ISIN, account, 100))
			locked = append(locked, alpha.place("BUY", string(lockedClass.Spec.ISIN), account, 100))
		}
		for i := range 2 {
			alpha.settleBuy(open[i])
			alpha.settleBuy(locked[i])
			if i == 0 {
				time.Sleep(time.Second) // the two buys complete in different seconds
			}
		}
		lotsOf := func(pos map[string]any) []map[string]any {
			var out []map[string]any
			for _, l := range pos["lots"].([]any) {
				out = append(out, l.(map[string]any))
			}
			return out
		}
		var byISIN map[string]map[string]any
		Eventually(func(g Gomega) {
			byISIN = map[string]map[string]any{}
			for _, pos := range alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any) {
				byISIN[pos.(map[string]any)["isin"].(string)] = pos.(map[string]any)
			}
			g.Expect(byISIN).To(HaveKeyWithValue(fixtures.ISIN, HaveKeyWithValue("units", BeNumerically("==", 200))))
			g.Expect(byISIN).To(HaveKeyWithValue(string(lockedClass.Spec.ISIN), HaveKeyWithValue("units", BeNumerically("==", 200))))
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())

		completedAt := func(id string) string {
			var o investv1.Order
			Expect(k8s.Get(ctx, client.ObjectKey{Namespace: alpha.ns, Name: id}, &o)).To(Succeed())
			return o.Status.History[len(o.Status.History)-1].At.UTC().Format(time.RFC3339)
		}
		// No lock-up: both buys unlocked at once, one lot of 200 dated by the latest
		// acquisition and the latest unlock.
		Expect(lotsOf(byISIN[fixtures.ISIN])).To(Equal([]map[string]any{{
			"units": float64(200), "acquired_at": completedAt(open[1]), "unlocks_at": completedAt(open[1]),
		}}))
		Expect(byISIN[fixtures.ISIN]).To(HaveKeyWithValue("redeemable", BeNumerically("==", 200)))
		// A 30-day lock-up: one lot per buy, oldest first.
		lots := lotsOf(byISIN[string(lockedClass.Spec.ISIN)])
		Expect(lots).To(HaveLen(2))
		for i, l := range lots {
			Expect(l).To(HaveKeyWithValue("acquired_at", completedAt(locked[i])))
			Expect(l).To(HaveKeyWithValue("units", BeNumerically("==", 100)))
		}
		Expect(byISIN[string(lockedClass.Spec.ISIN)]).To(HaveKeyWithValue("locked", BeNumerically("==", 200)))
	})

	It("is empty for an account without completed orders", func() {
		account := alpha.newAccount()
		r := alpha.get("/v1/accounts/" + account + "/portfolio")
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		Expect(r.json()).To(Equal(map[string]any{"account_id": account, "positions": []any{}}))
	})

	It("shows units, redeemable, locked and reserved per ISIN with the lots, and refuses selling locked units with 400 Shares locked", func() {
		account := alpha.buyer()
		alpha.settleBuy(alpha.place("BUY", string(lockedClass.Spec.ISIN), account, 100))
		alpha.settleBuy(alpha.place("BUY", fixtures.ISIN, account, 100))

		r := alpha.post("/v1/orders", orderBody("SELL", string(lockedClass.Spec.ISIN), account, 10))
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["error"]).To(Equal("Shares locked"))

		sell := alpha.place("SELL", fixtures.ISIN, account, 40)
		alpha.waitState(sell, investv1.StateExecuted)
		p := alpha.get("/v1/accounts/" + account + "/portfolio").json()
		Expect(p).To(HaveKeyWithValue("account_id", account))
		positions := p["positions"].([]any)
		Expect(positions).To(HaveLen(2))
		byISIN := map[string]map[string]any{}
		for _, pos := range positions {
			byISIN[pos.(map[string]any)["isin"].(string)] = pos.(map[string]any)
		}
		locked := byISIN[string(lockedClass.Spec.ISIN)]
		Expect(locked).To(HaveKeyWithValue("units", BeNumerically("==", 100)))
		Expect(locked).To(HaveKeyWithValue("locked", BeNumerically("==", 100)))
		Expect(locked).To(HaveKeyWithValue("redeemable", BeNumerically("==", 0)))
		Expect(locked).To(HaveKeyWithValue("reserved", BeNumerically("==", 0)))
		Expect(locked).To(HaveKeyWithValue("share_class_name", lockedClass.Spec.Name))
		Expect(locked).To(HaveKeyWithValue("currency", "EUR"))
		lot := locked["lots"].([]any)[0].(map[string]any)
		acquired, err := time.Parse(time.RFC3339, lot["acquired_at"].(string))
		Expect(err).NotTo(HaveOccurred())
		unlocks, err := time.Parse(time.RFC3339, lot["unlocks_at"].(string))
		Expect(err).NotTo(HaveOccurred())
		Expect(unlocks).To(Equal(acquired.AddDate(0, 0, 30)))
		Expect(lot).To(HaveKeyWithValue("units", BeNumerically("==", 100)))

		open := byISIN[fixtures.ISIN]
		Expect(open).To(HaveKeyWithValue("units", BeNumerically("==", 100)))
		Expect(open).To(HaveKeyWithValue("reserved", BeNumerically("==", 40)))
		Expect(open).To(HaveKeyWithValue("redeemable", BeNumerically("==", 60)))
		Expect(open).To(HaveKeyWithValue("locked", BeNumerically("==", 0)))

		alpha.settleSell(sell)
		Eventually(func() any {
			for _, pos := range alpha.get("/v1/accounts/" + account + "/portfolio").json()["positions"].([]any) {
				if pos.(map[string]any)["isin"] == fixtures.ISIN {
					return pos.(map[string]any)["units"]
				}
			}
			return nil
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(BeNumerically("==", 60))
	})

	It("answers 404 Account not found for unknown ids and other tenants' accounts alike", func() {
		theirs, unknown := beta.newAccount(), fixturesID()
		r1, r2 := alpha.get("/v1/accounts/"+theirs+"/portfolio"), alpha.get("/v1/accounts/"+unknown+"/portfolio")
		Expect(r1.code).To(Equal(http.StatusNotFound), r1.String())
		Expect(r1.json()["error"]).To(Equal("Account not found"))
		Expect(strings.ReplaceAll(r1.String(), theirs, "<id>")).To(Equal(strings.ReplaceAll(r2.String(), unknown, "<id>")))
	})
})

// setOnChain writes the account's status.onChain as the ledger round does.
func setOnChain(ns, account string, block, units int64) {
	GinkgoHelper()
	Eventually(func() error {
		a := &investv1.Account{}
		if err := k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: account}, a); err != nil {
			return err
		}
		before := a.DeepCopy()
		a.Status.OnChain = &investv1.OnChainHoldings{Block: block, Holdings: []investv1.OnChainHolding{{ISIN: fixtures.ISIN, Units: units}}}
		if err := k8s.Status().Patch(ctx, a, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
			return err
		}
		waitCached(a)
		return nil
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())
}

// waitCached waits until the manager's cache, which the REST facade reads, holds obj at
// the version written or a later one: a write by another writer (the chain agent, the
// ledger) is not the facade's own, so read-your-writes does not cover it.
func waitCached(obj client.Object) {
	GinkgoHelper()
	written, err := strconv.ParseUint(obj.GetResourceVersion(), 10, 64)
	Expect(err).NotTo(HaveOccurred())
	Eventually(func(g Gomega) {
		cached := obj.DeepCopyObject().(client.Object)
		g.Expect(env.Manager.GetClient().Get(ctx, client.ObjectKeyFromObject(obj), cached)).To(Succeed())
		rv, err := strconv.ParseUint(cached.GetResourceVersion(), 10, 64)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(rv).To(BeNumerically(">=", written))
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())
}

// writeChain changes the order's status.chain as the chain agent does (on the version read).
func writeChain(ns, id string, change func(*investv1.OrderChainStatus)) {
	GinkgoHelper()
	Eventually(func() error {
		o := &investv1.Order{}
		if err := k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: id}, o); err != nil {
			return err
		}
		before := o.DeepCopy()
		if o.Status.Chain == nil {
			o.Status.Chain = &investv1.OrderChainStatus{}
		}
		change(o.Status.Chain)
		if err := k8s.Status().Patch(ctx, o, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
			return err
		}
		waitCached(o)
		return nil
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())
}
