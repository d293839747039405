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

func init() {
	metricset.MustRegister(filesTotal, transactionsTotal, applyErrorsTotal, paymentsNotWaitingTotal)
}
