package notify

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fundshare/fundshare-operator/internal/metricset"
)

var (
	attemptsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_webhook_attempts_total",
		Help: "Webhook delivery attempts, by outcome (succeeded, retrying, failed, disabled).",
	}, []string{"outcome"})
	deliveryLatency = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "fundshare_webhook_delivery_latency_seconds",
		Help:    "From an event's change (its timestamp) to the receiver's 2xx answer, for deliveries that succeed at their first attempt.",
		Buckets: []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60},
	})
	disabledTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_webhook_endpoints_disabled_total",
		Help: "Webhook endpoints the dispatcher disabled, by reason (Gone, FailingTooLong).",
	}, []string{"reason"})
	failingEndpoints = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "fundshare_webhook_endpoints_failing",
		Help: "Enabled webhook endpoints whose last delivery failed (status.failingSince set), on the leader.",
	})
)

func init() {
	metricset.MustRegister(attemptsTotal, deliveryLatency, disabledTotal, failingEndpoints)
}
