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
		Help: "Payments decided for an order that had stopped waiting (cancelled) when the payment was to be written on it; each waits in the bank ledger for an operator.",
	})
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
	metricset.MustRegister(filesTotal, transactionsTotal, applyErrorsTotal, paymentsNotWaitingTotal,
		payoutsInstructedTotal, outFilesTotal, payoutsRejectedTotal, payoutsReturnedTotal)
}
