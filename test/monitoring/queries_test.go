// Package monitoring checks the chart's dashboard and alert rules against the series the
// manager exports: every PromQL selector of every dashboard panel and every rule must name
// a series of a collector the manager registers (internal/metricset, filled by the
// packages the composition root links). The alert rules' behaviour is tested with
// promtool (alerts_test.yaml, make monitoring-check).
package monitoring

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	// The composition root and what the binary (cmd/main.go) links besides it, the
	// archive's stores: linking them registers every collector the manager exports.
	_ "github.com/fundshare/fundshare-operator/cmd/manager/app"
	_ "github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/metricset"
	"github.com/fundshare/fundshare-operator/internal/test/helmtest"
)

// histogramSuffixes are the series a histogram or summary named n exports besides n.
var histogramSuffixes = []string{"_bucket", "_sum", "_count"}

// unknownSeries returns the series names expr selects that are not in exported (a
// histogram's _bucket, _sum and _count count as its name).
func unknownSeries(expr string, exported []string) ([]string, error) {
	// Grafana's interval variables are not PromQL; their value does not change the names.
	expr = strings.NewReplacer("$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h").Replace(expr)
	e, err := parser.NewParser(parser.Options{}).ParseExpr(expr)
	if err != nil {
		return nil, err
	}
	var unknown []string
	var selectors int
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		vs, ok := n.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		selectors++
		name := vs.Name
		if name == "" {
			for _, m := range vs.LabelMatchers {
				if m.Name == "__name__" {
					name = m.Value
				}
			}
		}
		if !known(name, exported) {
			unknown = append(unknown, name)
		}
		return nil
	})
	if selectors == 0 {
		return nil, errors.New("selects no series")
	}
	return unknown, nil
}

func known(name string, exported []string) bool {
	if slices.Contains(exported, name) {
		return true
	}
	for _, s := range histogramSuffixes {
		if base, ok := strings.CutSuffix(name, s); ok && slices.Contains(exported, base) {
			return true
		}
	}
	return false
}

func exported(t *testing.T) []string {
	t.Helper()
	names := metricset.Names()
	// A few that must be there, or the list is not the manager's.
	for _, n := range []string{"fundshare_orders", "fundshare_http_requests_total", "fundshare_chain_outbox_health", "fundshare_archive_up", "fundshare_chain_signer_balance"} {
		if !slices.Contains(names, n) {
			t.Fatalf("the manager's collectors do not export %s: %v", n, names)
		}
	}
	return names
}

func TestTheCheckFindsASeriesTheManagerDoesNotExport(t *testing.T) {
	names := exported(t)
	got, err := unknownSeries(`sum(rate(fundshare_http_requests_total{code="500"}[5m])) / sum(rate(fundshare_no_such_total[$__rate_interval]))`, names)
	if err != nil || !slices.Equal(got, []string{"fundshare_no_such_total"}) {
		t.Fatalf("unknown series %v (%v), want fundshare_no_such_total", got, err)
	}
	if got, err := unknownSeries(`histogram_quantile(0.9, sum by (le) (rate(fundshare_http_request_duration_seconds_bucket[5m])))`, names); err != nil || len(got) != 0 {
		t.Fatalf("a histogram's buckets: unknown %v (%v)", got, err)
	}
	if _, err := unknownSeries(`sum(rate(fundshare_http_requests_total[5m]`, names); err == nil {
		t.Fatal("a query that does not parse passed")
	}
}

type dashboard struct {
	Panels []panel `json:"panels"`
}

type panel struct {
	Type    string `json:"type"`
	Title   string `json:"title"`
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
	Panels []panel `json:"panels"`
}

func TestEveryDashboardQueryNamesASeriesTheManagerExports(t *testing.T) {
	names := exported(t)
	b, err := os.ReadFile(filepath.Join(controlplane.Root(), "charts", "fundshare-operator", "files", "grafana-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var queries int
	var check func(ps []panel)
	check = func(ps []panel) {
		for _, p := range ps {
			check(p.Panels)
			if p.Type == "row" {
				continue
			}
			if len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			for _, q := range p.Targets {
				queries++
				unknown, err := unknownSeries(q.Expr, names)
				if err != nil {
					t.Errorf("panel %q: %q: %v", p.Title, q.Expr, err)
				}
				for _, u := range unknown {
					t.Errorf("panel %q selects %s, which the manager does not export", p.Title, u)
				}
			}
		}
	}
	check(d.Panels)
	if queries < 20 {
		t.Fatalf("only %d queries in the dashboard", queries)
	}

	// The chart ships this file, unchanged, in its dashboard ConfigMap.
	out := helmtest.Template(t, "--set", "metrics.grafanaDashboard.enabled=true", "--show-only", "templates/grafana-dashboard.yaml")
	var cm struct {
		Metadata struct {
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(out, &cm); err != nil {
		t.Fatal(err)
	}
	if cm.Data["fundshare-operator.json"] != strings.TrimSuffix(string(b), "\n") {
		t.Error("the chart's dashboard ConfigMap does not hold files/grafana-dashboard.json")
	}
	if cm.Metadata.Labels["grafana_dashboard"] != "1" {
		t.Errorf("the dashboard ConfigMap's labels %v lack grafana_dashboard: \"1\"", cm.Metadata.Labels)
	}
}

type rule struct {
	Alert       string            `json:"alert"`
	Expr        string            `json:"expr"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

func TestEveryAlertNamesASeriesTheManagerExportsAndSaysWhatToDo(t *testing.T) {
	names := exported(t)
	out := helmtest.Template(t, "--set", "metrics.prometheusRule.enabled=true", "--show-only", "templates/prometheusrule.yaml")
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(string(out)), 4096)
	var rules []rule
	for {
		var pr struct {
			Spec struct {
				Groups []struct {
					Rules []rule `json:"rules"`
				} `json:"groups"`
			} `json:"spec"`
		}
		err := dec.Decode(&pr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range pr.Spec.Groups {
			rules = append(rules, g.Rules...)
		}
	}
	if len(rules) < 10 {
		t.Fatalf("only %d rules", len(rules))
	}
	tests, err := os.ReadFile("alerts_test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(controlplane.Root(), "docs", "monitoring.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		unknown, err := unknownSeries(r.Expr, names)
		if err != nil {
			t.Errorf("%s: %q: %v", r.Alert, r.Expr, err)
		}
		for _, u := range unknown {
			t.Errorf("%s selects %s, which the manager does not export", r.Alert, u)
		}
		if r.Alert == "" {
			continue
		}
		if s := r.Labels["severity"]; s != "warning" && s != "critical" {
			t.Errorf("%s: severity %q", r.Alert, s)
		}
		for _, a := range []string{"summary", "description", "runbook_url"} {
			if r.Annotations[a] == "" {
				t.Errorf("%s has no %s", r.Alert, a)
			}
		}
		anchor := strings.ToLower(r.Alert)
		if !strings.HasSuffix(r.Annotations["runbook_url"], "/docs/monitoring.md#"+anchor) {
			t.Errorf("%s: runbook_url %q is not docs/monitoring.md#%s", r.Alert, r.Annotations["runbook_url"], anchor)
		}
		if !strings.Contains(string(doc), "\n### "+r.Alert+"\n") {
			t.Errorf("docs/monitoring.md has no runbook heading \"### %s\"", r.Alert)
		}
		// alerts_test.yaml expects it to fire at least once and not to fire at least once.
		if !strings.Contains(string(tests), "alertname: "+r.Alert+"\n    exp_alerts:\n    - exp_labels:") {
			t.Errorf("alerts_test.yaml has no case where %s fires", r.Alert)
		}
		if !strings.Contains(string(tests), "alertname: "+r.Alert+"\n    exp_alerts: []") {
			t.Errorf("alerts_test.yaml has no case where %s does not fire", r.Alert)
		}
	}
}
