package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// etcdStatus is what etcd says of its database (its JSON gateway, /v3/maintenance/status).
type etcdStatus struct {
	Revision    int64 `json:"revision"`
	DBSize      int64 `json:"db_size_bytes"`
	DBSizeInUse int64 `json:"db_size_in_use_bytes"`
}

// etcdCall posts a request to etcd's gRPC JSON gateway (the client URL; loopback, no TLS
// in the harness's control plane) and decodes the answer into out.
func etcdCall(ctx context.Context, base, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(base, "/")+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	hc := &http.Client{Timeout: 10 * time.Minute}
	res, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("etcd %s: %s: %s", path, res.Status, b)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// statusOf reads etcd's database size and current revision. The gateway writes int64
// values as strings.
func statusOf(ctx context.Context, base string) (etcdStatus, error) {
	var raw struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
		DBSize      string `json:"dbSize"`
		DBSizeInUse string `json:"dbSizeInUse"`
	}
	if err := etcdCall(ctx, base, "/v3/maintenance/status", struct{}{}, &raw); err != nil {
		return etcdStatus{}, err
	}
	var s etcdStatus
	var err error
	if s.Revision, err = strconv.ParseInt(raw.Header.Revision, 10, 64); err != nil {
		return s, fmt.Errorf("etcd status: revision %q: %w", raw.Header.Revision, err)
	}
	if s.DBSize, err = strconv.ParseInt(raw.DBSize, 10, 64); err != nil {
		return s, fmt.Errorf("etcd status: dbSize %q: %w", raw.DBSize, err)
	}
	if s.DBSizeInUse, err = strconv.ParseInt(raw.DBSizeInUse, 10, 64); err != nil {
		return s, fmt.Errorf("etcd status: dbSizeInUse %q: %w", raw.DBSizeInUse, err)
	}
	return s, nil
}

// compactDefrag does what an operator does to give etcd's space back after many deletes
// (etcdctl compact <rev> --physical; etcdctl defrag): compacts the key history up to the
// current revision and defragments the database file. It returns the status before and
// after.
func compactDefrag(ctx context.Context, base string) (before, after etcdStatus, err error) {
	if before, err = statusOf(ctx, base); err != nil {
		return before, after, err
	}
	rev := strconv.FormatInt(before.Revision, 10)
	if err := etcdCall(ctx, base, "/v3/kv/compaction", map[string]any{"revision": rev, "physical": true}, nil); err != nil {
		return before, after, fmt.Errorf("compact: %w", err)
	}
	if err := etcdCall(ctx, base, "/v3/maintenance/defragment", struct{}{}, nil); err != nil {
		return before, after, fmt.Errorf("defragment: %w", err)
	}
	after, err = statusOf(ctx, base)
	return before, after, err
}

// processRSS is VmRSS of a process, in bytes.
func processRSS(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.Fields(v + " 0")[0], 10, 64)
			return kb << 10
		}
	}
	return 0
}
