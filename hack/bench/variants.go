package main

import (
	"fmt"
	"strings"
	"unique"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// A variant is the production manager with one change, started against the same loaded
// control plane after the main measurements, so that a candidate fix is measured side by
// side with what runs today. Variants change nothing outside this harness; the changes
// they stand for are described in docs/performance.md.
type variant struct {
	name        string
	description string
	tweak       func(*ctrl.Options)
	gateOff     bool // client-go's WatchListClient off while the manager's informers are built
	pipeline    bool // run the order pipeline on it too
}

var variants = map[string]variant{
	"watchlist": {
		name: "WatchListClient off", gateOff: true,
		description: "client-go's WatchListClient gate off: informers start with a paged LIST instead of a streaming list",
	},
	"compact": {
		name: "compact order cache", tweak: func(o *ctrl.Options) {
			o.Cache.ByObject = map[client.Object]cache.ByObject{&investv1.Order{}: {Transform: compactOrder}}
		},
		description: "a cache transform for Orders: strip managedFields, share repeated strings (unique.Make), drop the conditions of terminal orders",
	},
	"workers": {
		name: "4 workers per controller", pipeline: true, tweak: func(o *ctrl.Options) {
			o.Controller.MaxConcurrentReconciles = 4
		},
		description: "every controller that sets no concurrency (settlement, account, wallet, payment method) runs 4 workers, like the order controller",
	},
}

func parseVariants(s string) ([]variant, error) {
	var out []variant
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		v, ok := variants[name]
		if !ok {
			return nil, fmt.Errorf("unknown variant %q (known: watchlist, compact, workers)", name)
		}
		out = append(out, v)
	}
	return out, nil
}

// compactOrder is the candidate cache transform of the "compact" variant. Nothing that
// reads Orders from the cache uses managedFields, and nothing reads the conditions of a
// terminal order (the REST views do not show them; the controllers and webhooks skip
// terminal orders). The strings that many orders share (namespace, ISIN, account, fund
// and share class, states, reasons, constant messages) are made canonical, so each is
// held once instead of once per order.
func compactOrder(obj any) (any, error) {
	o, ok := obj.(*investv1.Order)
	if !ok {
		return obj, nil
	}
	o.ManagedFields = nil
	o.Namespace = in(o.Namespace)
	s := &o.Spec
	s.Side, s.Market, s.ISIN, s.Currency = in(s.Side), in(s.Market), in(s.ISIN), in(s.Currency)
	s.AccountID, s.SettlementType, s.WalletID = in(s.AccountID), in(s.SettlementType), in(s.WalletID)
	s.PaymentMethodDetailsID, s.CustomOfferingID, s.CancellationReason = in(s.PaymentMethodDetailsID), in(s.CustomOfferingID), in(s.CancellationReason)
	if q := s.Quote; q != nil {
		q.NAVDate, q.FeeSource, q.WalletID, q.PaymentMethodDetailsID = in(q.NAVDate), in(q.FeeSource), in(q.WalletID), in(q.PaymentMethodDetailsID)
		f := &q.FundDetails
		f.ISIN, f.FundID, f.FundName, f.ShareClassID, f.ShareClassName = in(f.ISIN), in(f.FundID), in(f.FundName), in(f.ShareClassID), in(f.ShareClassName)
		if p := q.PaymentDetails; p != nil {
			p.AccountHolderName, p.IBAN = in(p.AccountHolderName), in(p.IBAN)
		}
	}
	st := &o.Status
	st.State = in(st.State)
	for i := range st.History {
		h := &st.History[i]
		h.State, h.Reason = in(h.State), in(h.Reason)
		if constantMessage[h.Reason] {
			h.Message = in(h.Message)
		}
	}
	if st.State.Terminal() {
		st.Conditions = nil
	}
	for i := range st.Conditions {
		c := &st.Conditions[i]
		c.Type, c.Reason = in(c.Type), in(c.Reason)
		c.Status = in(c.Status)
	}
	ev := &st.Settlement
	for _, r := range []*investv1.SettlementRecord{ev.PaymentReceived, ev.DeliveryInitiated, ev.DeliveryCompleted, ev.PaymentSent, ev.PaymentCompleted} {
		if r != nil {
			r.RecordedBy = in(r.RecordedBy)
		}
	}
	// A completion repeats the evidence of its start: hold it once.
	if a, b := ev.DeliveryInitiated, ev.DeliveryCompleted; a != nil && b != nil && a.TransactionHash == b.TransactionHash {
		b.TransactionHash = a.TransactionHash
	}
	if a, b := ev.PaymentSent, ev.PaymentCompleted; a != nil && b != nil && a.Reference == b.Reference {
		b.Reference = a.Reference
	}
	return o, nil
}

// constantMessage lists the transition reasons whose message names no order-specific
// value (amounts, references, hashes).
var constantMessage = map[string]bool{
	"Accepted": true, "Executed": true, "Settled": true, "RedemptionGateLifted": true,
	"RedemptionGateActive": true, "CancellationRequested": true,
}

func in[S ~string](s S) S {
	if s == "" {
		return s
	}
	return S(unique.Make(string(s)).Value())
}

// controllerLoad is how busy each controller was during a measurement: reconciles,
// their summed duration, and that duration over the time its workers had.
type controllerLoad struct {
	Reconciles  float64 `json:"reconciles"`
	Seconds     float64 `json:"reconcile_seconds"`
	Workers     float64 `json:"workers"`
	Utilization float64 `json:"utilization"`
}

// reconcileTotals reads controller-runtime's reconcile time histograms and worker counts.
func reconcileTotals() map[string]controllerLoad {
	out := map[string]controllerLoad{}
	families, err := metrics.Registry.Gather()
	if err != nil {
		return out
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			var name string
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" {
					name = l.GetValue()
				}
			}
			if name == "" {
				continue
			}
			c := out[name]
			switch f.GetName() {
			case "controller_runtime_reconcile_time_seconds":
				c.Reconciles += float64(m.GetHistogram().GetSampleCount())
				c.Seconds += m.GetHistogram().GetSampleSum()
			case "controller_runtime_max_concurrent_reconciles":
				c.Workers = m.GetGauge().GetValue()
			}
			out[name] = c
		}
	}
	return out
}

func controllerLoadSince(before map[string]controllerLoad, seconds float64) map[string]controllerLoad {
	out := map[string]controllerLoad{}
	for name, c := range reconcileTotals() {
		b := before[name]
		d := controllerLoad{Reconciles: c.Reconciles - b.Reconciles, Seconds: c.Seconds - b.Seconds, Workers: c.Workers}
		if d.Reconciles == 0 {
			continue
		}
		if d.Workers > 0 && seconds > 0 {
			d.Utilization = d.Seconds / (d.Workers * seconds)
		}
		out[name] = d
	}
	return out
}
