package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/ordercache"
)

// An informer's first LIST asks for resourceVersion 0: the API server's watch cache
// answers it in one response, whatever the limit. Each figure below is that request,
// measured one after the other on the same data.

// listFloor times the API server alone: the response read as bytes and thrown away,
// uncompressed. No client that decodes the orders can list them faster; it is the
// ceiling of the start-up figure. It returns the time and the bytes received.
func listFloor(ctx context.Context, base *rest.Config, encoding string) (time.Duration, int64, error) {
	if err := collectAPIServer(ctx, base); err != nil {
		return 0, 0, err
	}
	cfg := managerConfig(base)
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return 0, 0, err
	}
	u := strings.TrimSuffix(cfg.Host, "/") + "/apis/" + investv1.GroupVersion.String() + "/orders?resourceVersion=0"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Accept", "application/json")
	// Set explicitly, Go's transport leaves the body as sent: only the API server's work
	// and the transfer are timed.
	req.Header.Set("Accept-Encoding", encoding)
	start := time.Now()
	res, err := hc.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err != nil {
		return 0, 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("list orders: %s", res.Status)
	}
	return time.Since(start), n, nil
}

// listBreakdown is the same LIST as the API server alone and through each client.
type listBreakdown struct {
	Orders        int           `json:"orders"`
	Identity      time.Duration `json:"server_identity_ns"` // the floor (also managerStart.ListAll)
	BytesIdentity int64         `json:"bytes_identity"`
	Gzip          time.Duration `json:"server_gzip_ns"`
	BytesGzip     int64         `json:"bytes_gzip"`
	// Typed is client-go's way: the response read whole, then decoded.
	Typed time.Duration `json:"typed_ns"`
	// Streaming is the manager's (ordercache.ListOrdersStreaming): decoded while it arrives.
	Streaming time.Duration `json:"streaming_ns"`
	// CPU seconds of the streaming LIST: kube-apiserver's and this process's (decoding
	// and its garbage collection). With C cores, (APIServerCPU + ClientCPU) / C bounds
	// any start-up from below.
	APIServerCPU float64 `json:"apiserver_cpu_seconds"`
	ClientCPU    float64 `json:"client_cpu_seconds"`
}

func (l listBreakdown) String() string {
	per := func(b int64) string { return thousands(int(b / int64(max(l.Orders, 1)))) }
	return fmt.Sprintf("API server alone %.2f s (%s B/order), with gzip %.2f s (%s B/order); decoded by client-go %.2f s, streaming %.2f s (CPU: kube-apiserver %.2f s, client %.2f s)",
		l.Identity.Seconds(), per(l.BytesIdentity), l.Gzip.Seconds(), per(l.BytesGzip), l.Typed.Seconds(), l.Streaming.Seconds(), l.APIServerCPU, l.ClientCPU)
}

func probeList(ctx context.Context, base *rest.Config, floor time.Duration, floorBytes int64) (listBreakdown, error) {
	out := listBreakdown{Identity: floor, BytesIdentity: floorBytes}
	var err error
	if out.Gzip, out.BytesGzip, err = listFloor(ctx, base, "gzip"); err != nil {
		return out, err
	}
	cfg := managerConfig(base)
	cl, err := client.New(cfg, client.Options{Scheme: controlplane.Scheme()})
	if err != nil {
		return out, err
	}
	if err := collectAPIServer(ctx, base); err != nil {
		return out, err
	}
	start := time.Now()
	var list investv1.OrderList
	if err := cl.List(ctx, &list, &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: "0"}}); err != nil {
		return out, err
	}
	out.Typed, out.Orders = time.Since(start), len(list.Items)
	list = investv1.OrderList{}

	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return out, err
	}
	rc, err := ordercache.NewOrderRESTClient(cfg, controlplane.Scheme(), hc)
	if err != nil {
		return out, err
	}
	runtime.GC()
	if err := collectAPIServer(ctx, base); err != nil {
		return out, err
	}
	apiPID := apiserverPID()
	apiCPU, ownCPU := cpuSeconds(apiPID), cpuSeconds(os.Getpid())
	start = time.Now()
	got, err := ordercache.ListOrdersStreaming(ctx, rc, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return out, err
	}
	out.Streaming = time.Since(start)
	if apiPID > 0 {
		out.APIServerCPU = cpuSeconds(apiPID) - apiCPU
	}
	out.ClientCPU = cpuSeconds(os.Getpid()) - ownCPU
	if len(got.Items) != out.Orders {
		return out, fmt.Errorf("streaming list has %d orders, client-go's %d", len(got.Items), out.Orders)
	}
	return out, nil
}

// cpuSeconds is the CPU time (user + system) of a process: /proc/<pid>/stat for another
// process, getrusage for this one.
func cpuSeconds(pid int) float64 {
	if pid == os.Getpid() {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name may hold spaces; the fields after its closing parenthesis are fixed.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / clockTicks
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100

// apiserverPID finds the kube-apiserver this process started.
func apiserverPID() int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(b)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open || s[open+1:closing] != "kube-apiserver" {
			continue
		}
		f := strings.Fields(s[closing+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			return pid
		}
	}
	return 0
}

// collectAPIServer makes kube-apiserver run a full garbage collection (its pprof heap
// endpoint with gc=1) and waits for it. With 100,000 orders it holds ~8 GB (its watch
// cache keeps custom resources as unstructured maps), and one of its collections costs
// ~30 CPU-seconds: whether one lands inside a measured LIST decided between 20 s and 35 s.
// Every LIST the harness times starts right after one, so that figures measured side by
// side start from the same state.
func collectAPIServer(ctx context.Context, base *rest.Config) error {
	hc, err := rest.HTTPClientFor(base)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base.Host, "/")+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return err
	}
	res, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("kube-apiserver heap profile: %s", res.Status)
	}
	return nil
}
