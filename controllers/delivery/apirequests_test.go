package delivery

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/client-go/rest"
)

// requests counts the API server's requests (its apiserver_request_total) by
// "VERB resource[/subresource] code", for the resources a delivery writes.
type requests map[string]float64

// requestLine is one apiserver_request_total sample of the API server's /metrics.
var requestLine = regexp.MustCompile(`^apiserver_request_total\{(.*)\} ([0-9.e+]+)$`)

// labelPair is one name="value" of a sample's label list.
var labelPair = regexp.MustCompile(`([a-z_]+)="([^"]*)"`)

// labels reads a sample's label list.
func labels(list string) map[string]string {
	out := map[string]string{}
	for _, m := range labelPair.FindAllStringSubmatch(list, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// apiRequests reads the API server's request counters for orders, their Events and
// delivery batches, with the administrator's configuration cfg.
func apiRequests(ctx context.Context, cfg *rest.Config) (requests, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Host, "/")+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = res.Body.Close() }()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the API server's /metrics: %s", res.Status)
	}
	out := requests{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := requestLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		l := labels(m[1])
		resource := l["resource"]
		if resource != "orders" && resource != "events" && resource != "deliverybatches" {
			continue
		}
		if sub := l["subresource"]; sub != "" {
			resource += "/" + sub
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return nil, err
		}
		out[l["verb"]+" "+resource+" "+l["code"]] += v
	}
	return out, sc.Err()
}

// minus is r less the counts of before.
func (r requests) minus(before requests) requests {
	out := requests{}
	for k, v := range r {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// sum adds the counts whose "VERB resource" is one of verbResources, any code.
func (r requests) sum(verbResources ...string) float64 {
	var n float64
	for k, v := range r {
		if slices.Contains(verbResources, k[:strings.LastIndex(k, " ")]) {
			n += v
		}
	}
	return n
}

// statusWrites are the writes of orders' status, conflicts included.
func (r requests) statusWrites() float64 {
	return r.sum("PATCH orders/status", "PUT orders/status")
}

// events are the Events created.
func (r requests) events() float64 { return r.sum("POST events") }

func (r requests) String() string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %.0f", k, r[k])
	}
	return strings.Join(parts, ", ")
}
