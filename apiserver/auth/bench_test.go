// Copyright 2026 The fundshare-operator Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package auth

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/test/restbench"
)

// BenchmarkBearerCheck is the cost of RequireBearer per request: signature and claims,
// and (states) the client-state check on a fresh cached state, as on the read path.
func BenchmarkBearerCheck(b *testing.B) {
	ks, _ := newTestKeys(b)
	iss := newTestIssuer(b, ks, nil)
	c := Client{ID: "acme", Tenant: "tenant-acme", Credentials: CredentialsFingerprint("uid", 1, "hash")}
	tok, _, err := iss.IssueFor(c, grantedScope)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name   string
		states ClientStates
	}{{"signature", nil}, {"signature+state", cachedState{c}}} {
		b.Run(bc.name, func(b *testing.B) { restbench.Bearer(b, RequireBearer(iss, bc.states), tok) })
	}
}

// cachedState answers every client-state question from memory.
type cachedState struct{ c Client }

func (s cachedState) ClientState(context.Context, string, time.Duration) (Client, error) {
	return s.c, nil
}

// BenchmarkTokenLatencyUnderFlood is the token endpoint's figure of `make bench`: the
// latency of a legitimate token request (a client from an address it logged in from
// before) idle, then while 16 workers send wrong secrets (for the same client id and for
// unknown ids) as fast as they are answered, each request from a fresh address so that
// no block ever stops them (the worst case for the throttle). Real argon2id, in
// process (no network), in 4 alternating rounds (idle, flood, ...); run with
// -benchtime Nx for N requests per side. Target: the median under flood within 3× the
// idle median.
func BenchmarkTokenLatencyUnderFlood(b *testing.B) {
	ks, _ := newTestKeys(b)
	iss := newTestIssuer(b, ks, nil)
	secret := must(clientsecret.New())(b)
	hash := must(clientsecret.Hash(secret))(b)
	h := NewTokenHandler(memStore{"acme": {ID: "acme", Tenant: "tenant-acme", SecretHash: hash}},
		iss, NewThrottle(ThrottleConfig{}), logr.Discard())
	form := func(id, secret string) string {
		return url.Values{"grant_type": {"client_credentials"}, "scope": {"openid offline"},
			"audience": {testAudience}, "client_id": {id}, "client_secret": {secret}}.Encode()
	}
	send := func(remote, body string) int {
		req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.RemoteAddr = remote
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	const legit = "198.51.100.7:40000"
	good := form("acme", secret)
	if code := send(legit, good); code != http.StatusOK { // the client's address becomes known
		b.Fatalf("first login: %d", code)
	}
	phase := func(n int) []time.Duration {
		out := make([]time.Duration, 0, n)
		for range n {
			t0 := time.Now()
			if code := send(legit, good); code != http.StatusOK {
				b.Fatalf("legitimate request: %d", code)
			}
			out = append(out, time.Since(t0))
		}
		return out
	}
	var counts sync.Map // status → *atomic.Int64
	var seq atomic.Uint32
	// flooding runs the 16 workers until the returned function is called.
	flooding := func() (stop func()) {
		var done atomic.Bool
		var wg sync.WaitGroup
		for w := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; !done.Load(); i++ {
					n := seq.Add(1)
					remote := fmt.Sprintf("10.%d.%d.%d:1", byte(n>>16), byte(n>>8), byte(n))
					id := "acme"
					if (w+i)%2 == 1 {
						id = fmt.Sprintf("stranger-%d", n)
					}
					code := send(remote, form(id, "wrong-secret"))
					v, _ := counts.LoadOrStore(code, new(atomic.Int64))
					v.(*atomic.Int64).Add(1)
				}
			}()
		}
		return func() { done.Store(true); wg.Wait() }
	}

	// Alternating rounds (idle, flood, idle, flood, ...), so that drift of a shared
	// machine affects both sides alike.
	const rounds = 4
	b.ResetTimer()
	var idle, flood []time.Duration
	var floodFor time.Duration
	for r := range rounds {
		n := b.N / rounds
		if r < b.N%rounds {
			n++
		}
		if n == 0 {
			continue
		}
		idle = append(idle, phase(n)...)
		stop := flooding()
		time.Sleep(300 * time.Millisecond) // the flood fills every slot strangers may hold
		t0 := time.Now()
		flood = append(flood, phase(n)...)
		floodFor += time.Since(t0)
		stop()
	}
	b.StopTimer()

	med := func(d []time.Duration) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[len(s)/2]) / float64(time.Millisecond)
	}
	worst := func(d []time.Duration) float64 { return float64(slices.Max(d)) / float64(time.Millisecond) }
	ratio := med(flood) / med(idle)
	b.ReportMetric(med(idle), "idle-p50-ms")
	b.ReportMetric(worst(idle), "idle-max-ms")
	b.ReportMetric(med(flood), "flood-p50-ms")
	b.ReportMetric(worst(flood), "flood-max-ms")
	b.ReportMetric(ratio, "flood/idle")
	var answered []string
	counts.Range(func(k, v any) bool {
		answered = append(answered, fmt.Sprintf("%d×%d", v.(*atomic.Int64).Load(), k))
		return true
	})
	slices.Sort(answered)
	verdict := "PASS"
	if ratio > 3 {
		verdict = "MISS"
	}
	b.Logf("token request, median of %d: idle %.1f ms (max %.1f), under a 16-way flood %.1f ms (max %.1f): %.2f× idle, target ≤ 3× → %s; flood answers over %.1f s: %s",
		b.N, med(idle), worst(idle), med(flood), worst(flood), ratio, verdict, floodFor.Seconds(), strings.Join(answered, ", "))
}
