package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// results is everything one run measured; the JSON file holds it whole.
type results struct {
	Started  time.Time       `json:"started"`
	Command  string          `json:"command"`
	Machine  machine         `json:"machine"`
	Scale    scale           `json:"scale"`
	Load     []loadStep      `json:"load"`
	Served   endpoints       `json:"order_endpoints"`
	Read     []readRow       `json:"read_path"`
	List     *listScale      `json:"filtered_list_scale,omitempty"`
	Pipeline *pipelineResult `json:"pipeline,omitempty"`
	// PipelineVariants are the pipeline on variants of the manager (-variants).
	PipelineVariants []pipelineResult `json:"pipeline_variants,omitempty"`
	Managers         []managerStart   `json:"manager_starts"`
	// MarginalPerOrder is the heap slope between the two manager starts, bytes per order.
	MarginalPerOrder float64 `json:"heap_marginal_bytes_per_order,omitempty"`
	// Strike is the NAV strike of many paid forward orders (-strike).
	Strike *strikeResult `json:"strike,omitempty"`
	// Placement is forward against latest-priced placement through REST (-placement).
	Placement *placementResult `json:"placement,omitempty"`
	// Webhooks is webhook delivery during the pipeline (-webhook-orders).
	Webhooks *webhookResult `json:"webhooks,omitempty"`
	// Archive is the -archive-scale run.
	Archive *archiveScale `json:"archive_scale,omitempty"`
	Targets []target      `json:"targets"`
	Notes   []string      `json:"notes,omitempty"`
}

type scale struct {
	Orders     int `json:"orders"`
	BaseOrders int `json:"base_orders"`
	Accounts   int `json:"accounts"`
	Tenants    int `json:"tenants"`
	Measured   int `json:"measured_accounts"`
	PerAccount int `json:"orders_per_measured_account"`
}

type loadStep struct {
	Orders int     `json:"orders"`
	PerSec float64 `json:"orders_per_s"`
	Note   string  `json:"how"`
}

type readRow struct {
	Endpoint    string     `json:"endpoint"`
	Concurrency int        `json:"concurrency"`
	Ours        *readStats `json:"ours,omitempty"`
	Ceiling     *readStats `json:"ceiling,omitempty"`
	Figure      float64    `json:"figure,omitempty"`
	Missing     string     `json:"missing,omitempty"`
}

type listScale struct {
	OrdersBase  int        `json:"orders_base"`
	OrdersFull  int        `json:"orders_full"`
	Base        *readStats `json:"base,omitempty"`
	Full        *readStats `json:"full,omitempty"`
	BaseCeiling *readStats `json:"base_ceiling,omitempty"`
	FullCeiling *readStats `json:"full_ceiling,omitempty"`
	// Ratio is p99 at the full load over p99 at the base load (each the median of the
	// rounds' p99s); CeilingRatio is the same for the map ceiling, measured in alternation
	// with ours at each step: how much the machine itself drifted in between.
	Ratio        float64 `json:"p99_ratio,omitempty"`
	CeilingRatio float64 `json:"ceiling_p99_ratio,omitempty"`
	Missing      string  `json:"missing,omitempty"`
}

// managerStart is one start of the production manager against the loaded control plane.
type managerStart struct {
	Orders  int          `json:"orders"`
	Variant string       `json:"variant,omitempty"`
	Times   startupTimes `json:"startup"`
	// ListAll is the API server alone answering an informer's first LIST of every order
	// (read as bytes) just before the start: the floor of a cache sync.
	ListAll time.Duration `json:"list_all_orders_ns"`
	// ListParts splits that LIST into the API server's and the client's work (last start).
	ListParts *listBreakdown `json:"list_breakdown,omitempty"`
	Before    memory         `json:"memory_before_start"`
	After     memory         `json:"memory_after_sync"`
	PerOrder  float64        `json:"heap_bytes_per_order"`
}

type target struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Target string `json:"target"`
	Result string `json:"result"`
}

type machine struct {
	CPUs     int    `json:"nproc"`
	CPU      string `json:"cpu_model"`
	MemTotal string `json:"mem_total"`
	Go       string `json:"go"`
	Kernel   string `json:"kernel"`
	LoadAvg  string `json:"loadavg_at_start"`
}

func describeMachine() machine {
	m := machine{CPUs: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.LoadAvg = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	m.CPU = procField("/proc/cpuinfo", "model name")
	if kb, err := strconv.ParseUint(strings.Fields(procField("/proc/meminfo", "MemTotal") + " 0")[0], 10, 64); err == nil {
		m.MemTotal = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
	}
	return m
}

// rss is VmRSS of this process in bytes.
func rss() uint64 {
	f := strings.Fields(procField("/proc/self/status", "VmRSS") + " 0")
	kb, _ := strconv.ParseUint(f[0], 10, 64)
	return kb << 10
}

// procField is the value after "name:" on the first matching line of a /proc file.
func procField(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func (r *results) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// evaluate fills the targets of the issue.
func (r *results) evaluate() {
	at100k := func(pass bool, orders int) string {
		res := verdict(pass)
		if orders < 100_000 {
			res += fmt.Sprintf(" (at %s orders)", thousands(orders))
		}
		return res
	}
	for _, row := range r.Read {
		name := fmt.Sprintf("read path %s, %d clients", row.Endpoint, row.Concurrency)
		if row.Missing != "" {
			r.Targets = append(r.Targets, target{name, "n/a", "≥ 0.5 of ceiling", "n/a (" + row.Missing + ")"})
			continue
		}
		r.Targets = append(r.Targets, target{name, fmt.Sprintf("%.2f", row.Figure), "≥ 0.5 of ceiling", verdict(row.Figure >= 0.5)})
	}
	if l := r.List; l != nil {
		name := fmt.Sprintf("filtered list p99, %s → %s orders", thousands(l.OrdersBase), thousands(l.OrdersFull))
		if l.Missing != "" {
			r.Targets = append(r.Targets, target{name, "n/a", "≤ 2× (1,000 → 100,000)", "n/a (" + l.Missing + ")"})
		} else {
			r.Targets = append(r.Targets, target{name, fmt.Sprintf("%.2f×", l.corrected()), "≤ 2× (1,000 → 100,000)", at100k(l.corrected() <= 2, l.OrdersFull)})
		}
	}
	if p := r.Pipeline; p != nil {
		r.Targets = append(r.Targets, target{"order pipeline", fmt.Sprintf("%.2f of raw writes", p.Figure), "≥ 0.6", verdict(p.Figure >= 0.6 && p.Err == "")},
			target{pipelineWrites, fmt.Sprintf("%.1f", p.WritesPerOrder), "≤ 10", verdict(p.WritesPerOrder <= 10 && p.Err == "")})
	}
	if pl := r.Placement; pl != nil {
		r.Targets = append(r.Targets, target{placementTarget, fmt.Sprintf("%.2f× the latest-priced rate", pl.Ratio), "≥ 1.0×", verdict(pl.Err == "" && pl.Ratio >= 1)})
	}
	if st := r.Strike; st != nil {
		ok := st.Err == ""
		r.Targets = append(r.Targets,
			target{strikeTime, fmt.Sprintf("%.1f s", st.Seconds), "≤ 60 s (10,000 orders)", verdict(ok && st.Seconds <= 60) + atOrders(st.Orders)},
			target{strikeWrites, fmt.Sprintf("%.2f", st.WritesPerOrder), "≤ 2", verdict(ok && st.WritesPerOrder <= 2)},
			target{strikeFigure, fmt.Sprintf("%.2f of raw writes ÷ writes per order", st.Figure), "≥ 0.8", verdict(ok && st.Figure >= 0.8)})
	}
	if wh := r.Webhooks; wh != nil && len(wh.Runs) > 0 {
		base := wh.Runs[0]
		r.Targets = append(r.Targets, target{webhookLatency, fmt.Sprintf("p99 %.0f ms, %d of %d delivered", base.P99, base.Received, base.Expected),
			"p99 ≤ 1 s, none missing (10,000 events, 10 endpoints)", verdict(base.Err == "" && base.Missing == 0 && base.P99 <= 1000) + atEvents(base.Events)})
		for _, run := range wh.Runs[1:] {
			ratio := run.P99 / base.P99
			r.Targets = append(r.Targets, target{webhookIsolation + " (" + run.Variant + ")", fmt.Sprintf("others' p99 %.2f× (%.0f ms)", ratio, run.P99),
				"≤ 1.2×, none missing", verdict(run.Err == "" && run.Missing == 0 && ratio <= 1.2)})
		}
	}
	if a := r.Archive; a != nil {
		r.Targets = append(r.Targets, a.targets(r.Pipeline)...)
		return
	}
	if last, ok := r.lastStart(); ok {
		per := last.PerOrder
		value := fmt.Sprintf("%s B/order", thousands(int(per)))
		if r.MarginalPerOrder > 0 {
			value += fmt.Sprintf(" (marginal %s B)", thousands(int(r.MarginalPerOrder)))
		}
		r.Targets = append(r.Targets, target{"heap per cached order", value, "≤ 3 KiB", at100k(per <= 3*1024, last.Orders)})
		r.Targets = append(r.Targets, target{"start-up to caches synced", fmt.Sprintf("%.1f s", last.Times.CacheSynced.Seconds()), "< 15 s at 100,000 orders", at100k(last.Times.CacheSynced < 15*time.Second, last.Orders)})
	}
}

func verdict(pass bool) string {
	if pass {
		return "PASS"
	}
	return "MISS"
}

// printTable writes the one markdown table of the run.
func (r *results) printTable(w io.Writer) {
	fmt.Fprintf(w, "| measurement | ours | ceiling | figure | target | result |\n|---|---|---|---|---|---|\n")
	row := func(cells ...string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
	targetOf := func(name string) (string, string) {
		for _, t := range r.Targets {
			if t.Name == name {
				return t.Target, t.Result
			}
		}
		return "", ""
	}
	for _, rr := range r.Read {
		name := fmt.Sprintf("read path %s, %d clients", rr.Endpoint, rr.Concurrency)
		tg, res := targetOf(name)
		if rr.Missing != "" {
			row(fmt.Sprintf("`GET %s`, %d clients", rr.Endpoint, rr.Concurrency), "n/a ("+rr.Missing+")", "", "", tg, "n/a")
			continue
		}
		row(fmt.Sprintf("`GET %s`, %d clients", rr.Endpoint, rr.Concurrency), stats(rr.Ours), stats(rr.Ceiling), fmt.Sprintf("%.2f", rr.Figure), tg, res)
	}
	if l := r.List; l != nil {
		name := fmt.Sprintf("filtered list p99, %s → %s orders", thousands(l.OrdersBase), thousands(l.OrdersFull))
		tg, res := targetOf(name)
		if l.Missing != "" {
			row(fmt.Sprintf("filtered list p99, %s → %s orders", thousands(l.OrdersBase), thousands(l.OrdersFull)), "n/a ("+l.Missing+")", "", "", tg, "n/a")
		} else {
			label := fmt.Sprintf("filtered list p99 (median of %d rounds' p99; 8 clients, %d orders per account), %s → %s orders", len(l.Base.RoundP99), r.Scale.PerAccount, thousands(l.OrdersBase), thousands(l.OrdersFull))
			row(label, fmt.Sprintf("%.2f ms → %.2f ms (%.2f×; pooled p99 %.2f → %.2f ms)", l.Base.P99Median, l.Full.P99Median, l.Ratio, l.Base.P99, l.Full.P99),
				fmt.Sprintf("%.2f ms → %.2f ms (%.2f×; pooled %.2f → %.2f ms)", l.BaseCeiling.P99Median, l.FullCeiling.P99Median, l.CeilingRatio, l.BaseCeiling.P99, l.FullCeiling.P99),
				fmt.Sprintf("%.2f× (ours ÷ ceiling)", l.corrected()), tg, res)
		}
	}
	pipelineRow := func(p *pipelineResult, tg, res string) {
		ours := fmt.Sprintf("%.1f orders/s × %.1f writes/order = %.0f writes/s", p.OrdersPerSec, p.WritesPerOrder, p.OrdersPerSec*p.WritesPerOrder)
		if p.Err != "" {
			ours += " (" + p.Err + ")"
		}
		label := fmt.Sprintf("order pipeline: %d BUY orders, %s, %d clients", p.Orders, p.Placement, p.Concurrency)
		if p.Variant != "" {
			label += ", variant: " + p.Variant
		}
		row(label, ours, fmt.Sprintf("%.0f raw status writes/s (%.0f before, %.0f after)", p.RawWritesPerSec, p.RawBefore, p.RawAfter), fmt.Sprintf("%.2f", p.Figure), tg, res)
	}
	if p := r.Pipeline; p != nil {
		tg, res := targetOf("order pipeline")
		pipelineRow(p, tg, res)
		tg, res = targetOf(pipelineWrites)
		row("order pipeline: API writes per BUY (placement → COMPLETED, controllers idle)", fmt.Sprintf("%.1f (%s)", p.WritesPerOrder, formatCounts(p.Requests)), "", "", tg, res)
	}
	for i := range r.PipelineVariants {
		pipelineRow(&r.PipelineVariants[i], "", "")
	}
	if pl := r.Placement; pl != nil {
		tg, res := targetOf(placementTarget)
		side := func(p placementSide) string {
			return fmt.Sprintf("%.0f orders/s · p50 %.2f ms · p99 %.2f ms (%d orders; until idle: %s)", p.PerSec, p.P50, p.P99, p.Orders, formatCounts(p.Requests))
		}
		label := fmt.Sprintf("placement through REST, %d clients, %d alternating rounds from idle controllers: forward BUY by amount (no NAV read) vs latest-priced BUY by units", pl.Clients, pl.Rounds)
		ours := side(pl.Forward)
		if pl.Err != "" {
			ours += " (" + pl.Err + ")"
		}
		row(label, ours, side(pl.Latest), fmt.Sprintf("%.2f", pl.Ratio), tg, res)
	}
	if st := r.Strike; st != nil {
		ours := fmt.Sprintf("%s orders EXECUTED %.1f s after the NAV (%.0f orders/s)", thousands(st.Executed), st.Seconds, st.OrdersPerSec)
		if st.Err != "" {
			ours += " (" + st.Err + ")"
		}
		label := fmt.Sprintf("NAV strike: %s paid forward BUYs by amount, one ISIN and dealing date, %s accounts", thousands(st.Orders), thousands(st.Accounts))
		tg, res := targetOf(strikeTime)
		row(label, ours, "", "", tg, res)
		tg, res = targetOf(strikeWrites)
		row("NAV strike: API writes per order (publication → controllers idle)", fmt.Sprintf("%.2f, and %d of the Dealing (%s)", st.WritesPerOrder, st.DealingWrites, formatCounts(st.Requests)), "", "", tg, res)
		tg, res = targetOf(strikeFigure)
		row("NAV strike: rate against the raw write ceiling", fmt.Sprintf("%.0f orders/s", st.OrdersPerSec),
			fmt.Sprintf("%.0f raw status writes/s (%.0f before, %.0f after) ÷ %.2f writes/order = %.0f orders/s", st.RawWritesPerSec, st.RawBefore, st.RawAfter, st.WritesPerOrder, st.Ceiling),
			fmt.Sprintf("%.2f", st.Figure), tg, res)
		row(fmt.Sprintf("load %s paid forward orders (create + status, admission off)", thousands(st.Orders)), fmt.Sprintf("%.0f orders/s", st.LoadPS), "", "", "", "")
	}
	if wh := r.Webhooks; wh != nil {
		for i, run := range wh.Runs {
			ours := fmt.Sprintf("p50 %.0f ms, p99 %.0f ms; %s of %s delivered, %d repeated, %.0f s", run.P50, run.P99,
				thousands(run.Received), thousands(run.Expected), run.Repeated, run.Seconds)
			if run.Err != "" {
				ours += " (" + run.Err + ")"
			}
			name := webhookLatency
			if i > 0 {
				name = webhookIsolation + " (" + run.Variant + ")"
			}
			tg, res := targetOf(name)
			row(fmt.Sprintf("webhooks, %s: %s order events of %s orders to %d endpoints (change visible → first arrival)", run.Variant,
				thousands(run.Events), thousands(run.Orders), run.Endpoints), ours, "", "", tg, res)
		}
	}
	if a := r.Archive; a != nil {
		a.printRows(row, targetOf, r.Pipeline)
	} else if last, ok := r.lastStart(); ok {
		tg, res := targetOf("start-up to caches synced")
		row(fmt.Sprintf("start-up, %s orders", thousands(last.Orders)), startup(last),
			fmt.Sprintf("API server alone: one LIST of all orders %.2f s", last.ListAll.Seconds()), fmt.Sprintf("%.2f", last.Times.CacheSynced.Seconds()/last.ListAll.Seconds()), tg, res)
		tg, res = targetOf("heap per cached order")
		val := fmt.Sprintf("%s B", thousands(int(last.PerOrder)))
		if r.MarginalPerOrder > 0 {
			val += fmt.Sprintf(" (marginal %s B)", thousands(int(r.MarginalPerOrder)))
		}
		row(fmt.Sprintf("heap per cached order, %s orders", thousands(last.Orders)), val, "", "", tg, res)
	}
	for _, m := range r.Managers {
		label := fmt.Sprintf("manager start, %s orders", thousands(m.Orders))
		if m.Variant != "" {
			label += ", variant: " + m.Variant
		}
		row(label, fmt.Sprintf("heap %s (%s B/order), RSS %s; %s", mib(uint64(max(0, int64(m.After.HeapAlloc)-int64(m.Before.HeapAlloc)))), thousands(int(m.PerOrder)), mib(m.After.RSS), startup(m)),
			fmt.Sprintf("API server alone %.2f s", m.ListAll.Seconds()), fmt.Sprintf("%.2f", m.Times.CacheSynced.Seconds()/m.ListAll.Seconds()), "", "")
	}
	for _, l := range r.Load {
		row(fmt.Sprintf("load %s orders (%s)", thousands(l.Orders), l.Note), fmt.Sprintf("%.0f orders/s", l.PerSec), "", "", "", "")
	}
}

func startup(m managerStart) string {
	return fmt.Sprintf("caches synced %.2f s, REST ready %.2f s, controllers idle %.2f s", m.Times.CacheSynced.Seconds(), m.Times.RESTReady.Seconds(), m.Times.Idle.Seconds())
}

func stats(s *readStats) string {
	if s == nil {
		return ""
	}
	out := fmt.Sprintf("%s req/s · p50 %.2f ms · p99 %.2f ms", thousands(int(s.PerSec)), s.P50, s.P99)
	if s.Errors > 0 {
		out += fmt.Sprintf(" · %d errors (%s)", s.Errors, s.FirstErr)
	}
	return out
}

func mib(b uint64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// lastStart is the last start of the production manager as configured (no variant).
func (r *results) lastStart() (managerStart, bool) {
	for i := len(r.Managers) - 1; i >= 0; i-- {
		if r.Managers[i].Variant == "" {
			return r.Managers[i], true
		}
	}
	return managerStart{}, false
}

// corrected is our p99 ratio over the ceiling's: growth that the machine's drift between
// the two steps does not explain.
func (l *listScale) corrected() float64 {
	if l.CeilingRatio == 0 {
		return l.Ratio
	}
	return l.Ratio / l.CeilingRatio
}

// The strike's target names.
const (
	strikeTime   = "NAV strike to every order EXECUTED"
	strikeWrites = "NAV strike API writes per order"
	strikeFigure = "NAV strike against the write ceiling"
)

// placementTarget is issue 23's: a forward order is placed at least as fast as a
// latest-priced one.
const placementTarget = "placement of a forward order against a latest-priced one"

// pipelineWrites is issue 23's target for the whole pipeline: the API writes of one BUY
// from its placement to COMPLETED (the order, its status writes, its Events, the
// account's holdings).
const pipelineWrites = "order pipeline API writes per BUY"

// The webhook targets' names.
const (
	webhookLatency   = "webhook delivery"
	webhookIsolation = "webhook isolation"
)

// atEvents notes the scale when it is not the target's 10,000 events.
func atEvents(n int) string {
	if n >= 10_000 {
		return ""
	}
	return fmt.Sprintf(" (at %s events)", thousands(n))
}

// atOrders notes the scale when it is not the target's 10,000 orders.
func atOrders(n int) string {
	if n == 10_000 {
		return ""
	}
	return fmt.Sprintf(" (at %s orders)", thousands(n))
}
