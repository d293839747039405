package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
)

// request is one GET of the read path, with the token of the tenant it belongs to.
type request struct {
	path  string
	token string
}

// readEndpoint is a read of the facade the harness measures. requests lists the calls
// the clients cycle through; nil when the facade does not serve the endpoint yet.
type readEndpoint struct {
	name     string
	requests []request
	missing  string
}

// readStats summarise one run of the load generator.
type readStats struct {
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	PerSec   float64 `json:"requests_per_s"`
	P50      float64 `json:"p50_ms"`
	P99      float64 `json:"p99_ms"`
	// RoundP99 is the p99 of each alternating round; P99Median their median, which a
	// burst of load from elsewhere on a shared machine in one round does not move.
	RoundP99  []float64 `json:"round_p99_ms,omitempty"`
	P99Median float64   `json:"p99_round_median_ms,omitempty"`
	Bytes     int64     `json:"mean_response_bytes"`
	FirstErr  string    `json:"first_error,omitempty"`
	GC        gcUsage   `json:"gc"`
}

// gcUsage is the Go garbage collector's work in this process (the manager, the ceiling
// and the load generator alike) during a measurement.
type gcUsage struct {
	Cycles     float64 `json:"cycles"`
	CPU        float64 `json:"gc_cpu_s"`
	ProcessCPU float64 `json:"process_cpu_s"`
	Share      float64 `json:"gc_share_of_cpu"`
}

func readGC() gcUsage {
	samples := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}, {Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(samples)
	value := func(s metrics.Sample) float64 {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			return float64(s.Value.Uint64())
		case metrics.KindFloat64:
			return s.Value.Float64()
		}
		return 0
	}
	return gcUsage{Cycles: value(samples[0]), CPU: value(samples[1]), ProcessCPU: value(samples[2]) - value(samples[3])}
}

func (g gcUsage) minus(o gcUsage) gcUsage {
	return gcUsage{Cycles: g.Cycles - o.Cycles, CPU: g.CPU - o.CPU, ProcessCPU: g.ProcessCPU - o.ProcessCPU}
}

// httpClient keeps one connection per concurrent client.
func httpClient(conns int) *http.Client {
	return &http.Client{
		Timeout: time.Minute,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        conns * 2,
			MaxIdleConnsPerHost: conns * 2,
			DisableCompression:  true,
			IdleConnTimeout:     time.Minute,
		},
	}
}

// sample is what one run of the load generator saw.
type sample struct {
	latencies       []time.Duration
	roundP99        []float64 // p99 of each run merged into this one
	ok, errs, bytes int64
	elapsed         time.Duration
	firstErr        string
	gc              gcUsage
}

func (s *sample) merge(o sample) {
	s.latencies = append(s.latencies, o.latencies...)
	s.roundP99 = append(s.roundP99, o.roundP99...)
	s.ok, s.errs, s.bytes, s.elapsed = s.ok+o.ok, s.errs+o.errs, s.bytes+o.bytes, s.elapsed+o.elapsed
	s.gc.Cycles, s.gc.CPU, s.gc.ProcessCPU = s.gc.Cycles+o.gc.Cycles, s.gc.CPU+o.gc.CPU, s.gc.ProcessCPU+o.gc.ProcessCPU
	if s.firstErr == "" {
		s.firstErr = o.firstErr
	}
}

func (s sample) stats() readStats {
	st := readStats{Requests: s.ok + s.errs, Errors: s.errs, FirstErr: s.firstErr}
	if s.elapsed > 0 {
		st.PerSec = float64(s.ok) / s.elapsed.Seconds()
	}
	if s.ok > 0 {
		st.Bytes = s.bytes / s.ok
	}
	st.P50, st.P99 = percentile(s.latencies, 0.50), percentile(s.latencies, 0.99)
	if len(s.roundP99) > 0 {
		st.RoundP99 = s.roundP99
		sorted := slices.Sorted(slices.Values(s.roundP99))
		st.P99Median = sorted[len(sorted)/2]
		if len(sorted)%2 == 0 {
			st.P99Median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
		}
	}
	st.GC = s.gc
	if s.gc.ProcessCPU > 0 {
		st.GC.Share = s.gc.CPU / s.gc.ProcessCPU
	}
	return st
}

// hammer sends GETs from conc clients, each cycling through reqs from its own offset, for
// warmup (not counted) and then for dur.
func hammer(ctx context.Context, hc *http.Client, baseURL string, reqs []request, conc int, warmup, dur time.Duration) sample {
	var (
		mu  sync.Mutex
		out sample
		wg  sync.WaitGroup
	)
	measureFrom := time.Now().Add(warmup)
	end := measureFrom.Add(dur)
	gcBefore := make(chan gcUsage, 1)
	time.AfterFunc(warmup, func() { gcBefore <- readGC() })
	for w := range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s sample
			for i := w * len(reqs) / conc; ctx.Err() == nil; i++ {
				r := reqs[i%len(reqs)]
				t0 := time.Now()
				if t0.After(end) {
					break
				}
				size, err := get(ctx, hc, baseURL+r.path, r.token)
				t1 := time.Now()
				if t0.Before(measureFrom) {
					continue
				}
				if err != nil {
					s.errs++
					if s.firstErr == "" {
						s.firstErr = err.Error()
					}
					continue
				}
				s.ok++
				s.bytes += size
				s.latencies = append(s.latencies, t1.Sub(t0))
			}
			mu.Lock()
			out.merge(s)
			mu.Unlock()
		}()
	}
	wg.Wait()
	out.gc = readGC().minus(<-gcBefore)
	out.elapsed = time.Since(measureFrom)
	if out.elapsed > dur {
		out.elapsed = dur + (out.elapsed-dur)/2 // requests in flight at the end count half
	}
	return out
}

// compare measures the facade and the ceiling on the same requests in alternating rounds,
// so that drift of a shared machine affects both alike.
func compare(ctx context.Context, facadeURL, ceilingURL string, reqs []request, conc, rounds int, warmup, dur time.Duration) (ours, ceiling readStats) {
	hcOurs, hcCeiling := httpClient(conc), httpClient(conc)
	defer hcOurs.CloseIdleConnections()
	defer hcCeiling.CloseIdleConnections()
	var a, b sample
	alternate(rounds, warmup, dur,
		func(w, per time.Duration) { a.merge(round(hammer(ctx, hcOurs, facadeURL, reqs, conc, w, per))) },
		func(w, per time.Duration) { b.merge(round(hammer(ctx, hcCeiling, ceilingURL, reqs, conc, w, per))) })
	return a.stats(), b.stats()
}

// alternate runs a and b for dur in all, split into rounds, in alternating order (a then b,
// b then a, ...), the first round of each after warmup.
func alternate(rounds int, warmup, dur time.Duration, a, b func(warmup, per time.Duration)) {
	per := dur / time.Duration(rounds)
	for i := range rounds {
		w := time.Duration(0)
		if i == 0 {
			w = warmup
		}
		if i%2 == 0 {
			a(w, per)
			b(w, per)
		} else {
			b(w, per)
			a(w, per)
		}
	}
}

// round records the p99 of one round of all clients.
func round(s sample) sample {
	if len(s.latencies) > 0 {
		s.roundP99 = []float64{percentile(slices.Clone(s.latencies), 0.99)}
	}
	return s
}

func percentile(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(float64(len(d)-1) * p)
	return float64(d[i]) / float64(time.Millisecond)
}

// get reads one answer and returns its size; anything but 200 is an error.
func get(ctx context.Context, hc *http.Client, u, token string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err != nil {
		return n, err
	}
	if res.StatusCode != http.StatusOK {
		return n, fmt.Errorf("GET %s: %d", strings.SplitN(u, "?", 2)[0], res.StatusCode)
	}
	return n, nil
}

// fetch reads one answer whole.
func fetch(ctx context.Context, hc *http.Client, method, u, token, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// login gets a token for the tenant through POST /oauth2/token, as an integrator does.
func login(ctx context.Context, baseURL string, t *tenant) error {
	form := url.Values{
		"grant_type": {"client_credentials"}, "scope": {"openid offline"},
		"client_id": {t.clientID}, "client_secret": {t.secret}, "audience": {"127.0.0.1"},
	}
	var lastErr error
	for range 100 { // the ApiClient may not be in the facade's cache yet
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/oauth2/token", strings.NewReader(form.Encode()))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		var body struct {
			AccessToken string `json:"access_token"`
			Error       string `json:"error"`
		}
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode == http.StatusOK && err == nil && body.AccessToken != "" {
			t.token = body.AccessToken
			return nil
		}
		lastErr = fmt.Errorf("token for %s: %d %s", t.clientID, res.StatusCode, body.Error)
		time.Sleep(200 * time.Millisecond)
	}
	return lastErr
}

// endpoints says which order endpoints the facade serves. A route the router does not
// know answers 404 with "no route for" (or 405); a served endpoint answers 200 to a read
// of an existing object and 4xx with its own message to an empty create.
type endpoints struct {
	List      bool   `json:"list"`
	ListWhy   string `json:"list_missing,omitempty"`
	Get       bool   `json:"get"`
	GetWhy    string `json:"get_missing,omitempty"`
	Create    bool   `json:"create"`
	CreateWhy string `json:"create_missing,omitempty"`
}

func probeEndpoints(ctx context.Context, baseURL string, ds *dataset) (endpoints, error) {
	var e endpoints
	if len(ds.sample) == 0 {
		return e, errors.New("no orders loaded")
	}
	hc := httpClient(1)
	o := ds.sample[0]
	var acct string
	for _, a := range slices.Concat(ds.measured, ds.others) {
		if a.tenant == o.tenant {
			acct = a.id
			break
		}
	}
	probe := func(method, path, body string) (bool, string, error) {
		code, b, err := fetch(ctx, hc, method, baseURL+path, o.tenant.token, body)
		if err != nil {
			return false, "", err
		}
		noRoute := code == http.StatusMethodNotAllowed || (code == http.StatusNotFound && strings.Contains(string(b), "no route for"))
		if noRoute {
			return false, "endpoint missing", nil
		}
		if method == http.MethodGet && code != http.StatusOK {
			return false, fmt.Sprintf("answered %d: %.200s", code, b), nil
		}
		return true, "", nil
	}
	var err error
	if e.List, e.ListWhy, err = probe(http.MethodGet, "/v1/orders?limit=1&account_id="+acct, ""); err != nil {
		return e, err
	}
	if e.Get, e.GetWhy, err = probe(http.MethodGet, "/v1/orders/"+o.id, ""); err != nil {
		return e, err
	}
	// An empty body is refused by a served endpoint (422) and creates nothing.
	if e.Create, e.CreateWhy, err = probe(http.MethodPost, "/v1/orders", "{}"); err != nil {
		return e, err
	}
	return e, nil
}

// ceilingServer serves the same answer bytes as the facade from a map, behind the same
// router type (chi) and the same token verification (auth.RequireBearer with an issuer
// built from the same signing key and configuration, without the client-state check).
// It is what the read path would cost if the facade did nothing but route, verify the
// token and write bytes.
type ceilingServer struct {
	mu      sync.RWMutex
	answers map[string][]byte
	srv     *http.Server
	baseURL string
}

func startCeiling(ctx context.Context, direct client.Client, publicBaseURL string) (*ceilingServer, error) {
	keys, err := auth.EnsureSigningKey(ctx, direct, operatorNamespace, signingKeySecret)
	if err != nil {
		return nil, err
	}
	issuer, err := auth.NewIssuer(auth.IssuerConfig{Keys: keys, Issuer: publicBaseURL})
	if err != nil {
		return nil, err
	}
	cs := &ceilingServer{answers: map[string][]byte{}}
	r := chi.NewRouter()
	r.Route("/v1", func(r chi.Router) {
		// Signature and claims only (no client state): the facade's revocation check,
		// a cache lookup per request, counts against the facade.
		r.Use(auth.RequireBearer(issuer, nil))
		r.Get("/funds", cs.serve)
		r.Get("/orders", cs.serve)
		r.Get("/orders/{order_id}", cs.serve)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	cs.baseURL = "http://" + ln.Addr().String()
	cs.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = cs.srv.Serve(ln) }()
	return cs, nil
}

func (cs *ceilingServer) serve(w http.ResponseWriter, r *http.Request) {
	cs.mu.RLock()
	b, ok := cs.answers[r.URL.RequestURI()]
	cs.mu.RUnlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// record copies the facade's answers to reqs into the ceiling's map.
func (cs *ceilingServer) record(ctx context.Context, facadeURL string, reqs []request) error {
	hc := httpClient(1)
	defer hc.CloseIdleConnections()
	for _, r := range reqs {
		code, b, err := fetch(ctx, hc, http.MethodGet, facadeURL+r.path, r.token, "")
		if err != nil {
			return err
		}
		if code != http.StatusOK {
			return fmt.Errorf("GET %s: %d %.200s", r.path, code, b)
		}
		cs.mu.Lock()
		cs.answers[r.path] = b
		cs.mu.Unlock()
	}
	return nil
}

func (cs *ceilingServer) forget() {
	cs.mu.Lock()
	cs.answers = map[string][]byte{}
	cs.mu.Unlock()
}

func (cs *ceilingServer) stop() { _ = cs.srv.Close() }
