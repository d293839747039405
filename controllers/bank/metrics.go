package bank

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fundshare/fundshare-operator/internal/metricset"
)

var (
	filesTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_bank_files_total",
		Help: "Inbound bank files the ingestion finished, by result (processed, rejected: refused whole, nothing applied).",
	}, []string{"result"})
	transactionsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_bank_transactions_total",
		Help: "Transactions of ingested bank files, by outcome (Matched, Underpaid, Overpaid, Unmatched, Returned, PaidOut, WrongCurrency, Duplicate, Ignored).",
	}, []string{"outcome"})
	applyErrorsTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_apply_errors_total",
		Help: "Rounds in which bank decisions could not be written on their orders (the API server refused or did not answer); they stay pending and are tried again.",
	})
	paymentsNotWaitingTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_payments_for_orders_not_waiting_total",
		Help: "Payments decided for an order that had stopped waiting (cancelled) when the payment was to be written on it; each is sent back to the account it came from.",
	})
	paymentsHealedTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_payments_rewritten_total",
		Help: "Payments the bank ledger holds as written on their orders that the orders had lost (an etcd restored from an older backup), written on them again.",
	})
	payoutsHealedTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_payout_answers_rewritten_total",
		Help: "The bank's answers on transfers (acceptance, rejection, debit, return) that the books hold as written on their orders and the orders had lost (an etcd restored from an older backup), written on them again.",
	})
	suspenseOpen = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "fundshare_bank_suspense_open",
		Help: "Payments in suspense (Unmatched, WrongCurrency) that no operator's decision settled, as the leader last counted them (every twelve polls); 0 on the other replicas.",
	})
	suspenseOldestAge = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "fundshare_bank_suspense_oldest_age_seconds",
		Help: "How long the oldest payment in suspense that no decision settled has waited since its booking date, as the leader last counted (every twelve polls); 0 when none waits, and on the other replicas.",
	})
	decisionsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_bank_decisions_total",
		Help: "Operators' decisions on payments in suspense recorded in the bank ledger, by action (Assign, Refund, SettledOutside).",
	}, []string{"action"})
	sentBackTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_bank_payments_sent_back_total",
		Help: "Payments, or parts of them, recorded to be sent back to the account they came from, by purpose (Excess: above an order's amount due; Return: for an order that will not use it; SuspenseRefund: an operator's decision).",
	}, []string{"purpose"})
	vopResultsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_bank_vop_results_total",
		Help: "Verification of Payee results the bank reported for the fund's transfers, by result (MTCH, CMTC, NMTC, NOAP).",
	}, []string{"result"})
)

var (
	payoutsInstructedTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_payouts_instructed_total",
		Help: "Transfers of orders' money (payouts, refunds, residuals) recorded for a pain.001 file.",
	})
	outFilesTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_payout_files_released_total",
		Help: "pain.001 files released to the bank (a file released again after a crash counts again).",
	})
	payoutsRejectedTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_payouts_rejected_total",
		Help: "Transfers the bank refused (pain.002 RJCT): each order stalls until an operator decides.",
	})
	payoutsReturnedTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_bank_payouts_returned_total",
		Help: "Transfers booked and sent back (a return credit naming them): each order stalls until an operator decides.",
	})
)

func init() {
	metricset.MustRegister(filesTotal, transactionsTotal, applyErrorsTotal, paymentsNotWaitingTotal, paymentsHealedTotal, payoutsHealedTotal, suspenseOpen, suspenseOldestAge, decisionsTotal, sentBackTotal, vopResultsTotal,
		payoutsInstructedTotal, outFilesTotal, payoutsRejectedTotal, payoutsReturnedTotal)
}
