package main

import (
	"fmt"
	"strings"

	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// A variant is the production manager with one change (a candidate fix, or an applied one
// taken back), started against the same loaded control plane after the main
// measurements, so that the change is measured side by side with what runs today.
// Variants change nothing outside this harness; docs/performance.md describes them.
type variant struct {
	name        string
	description string
	tweak       func(*ctrl.Options)
	config      func(*rest.Config) // changes the manager's rest.Config
	gateOn      bool               // client-go's WatchListClient on while the manager's informers are built
	pipeline    bool               // run the order pipeline on it too
	noAgents    bool               // no settlement agent: nothing moves an order past EXECUTED
}

var variants = map[string]variant{
	"watchlist": {
		name: "WatchListClient on", gateOn: true,
		description: "client-go's WatchListClient gate on (its default since 1.35; the manager turns it off): informers start with a streaming watch-list instead of a LIST",
	},
	"nocompact": {
		name: "whole orders cached", pipeline: true, tweak: func(o *ctrl.Options) {
			o.Cache.ByObject = map[client.Object]cache.ByObject{&investv1.Order{}: {Transform: cache.TransformStripManagedFields()}}
		},
		description: "Orders cached as decoded, without ordercache.CompactOrder (managedFields still stripped)",
	},
	"nostream": {
		name: "client-go's order LIST", tweak: func(o *ctrl.Options) {
			o.Cache.NewInformer = toolscache.NewSharedIndexInformer
		},
		description: "the Order informer lists through client-go (the response read whole, then decoded) instead of the manager's streaming lister",
	},
	"compression": {
		name: "gzip off", config: func(c *rest.Config) { c.DisableCompression = true },
		description: "the manager asks the API server for uncompressed responses (rest.Config.DisableCompression)",
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
			return nil, fmt.Errorf("unknown variant %q (known: watchlist, nocompact, nostream, compression, workers)", name)
		}
		out = append(out, v)
	}
	return out, nil
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
