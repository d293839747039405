package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// etcdStatus is what etcd says of its database (the Maintenance Status call).
type etcdStatus struct {
	Revision    int64 `json:"revision"`
	DBSize      int64 `json:"db_size_bytes"`
	DBSizeInUse int64 `json:"db_size_in_use_bytes"`
}

// statusOf reads etcd's database size and current revision at endpoint.
func statusOf(ctx context.Context, cli *clientv3.Client, endpoint string) (etcdStatus, error) {
	st, err := cli.Status(ctx, endpoint)
	if err != nil {
		return etcdStatus{}, fmt.Errorf("etcd status: %w", err)
	}
	return etcdStatus{Revision: st.Header.Revision, DBSize: st.DbSize, DBSizeInUse: st.DbSizeInUse}, nil
}

// compactDefrag does what an operator does to give etcd's space back after many deletes
// (etcdctl compact <rev> --physical; etcdctl defrag), with etcdctl's client, at endpoint
// (the client URL; loopback, no TLS in the harness's control plane): compacts the key
// history up to the current revision and defragments the database file. It returns the
// status before and after.
func compactDefrag(ctx context.Context, endpoint string) (before, after etcdStatus, err error) {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 10 * time.Second})
	if err != nil {
		return before, after, err
	}
	defer func() { _ = cli.Close() }()
	// Defragmenting a large database takes minutes.
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	if before, err = statusOf(ctx, cli, endpoint); err != nil {
		return before, after, err
	}
	if _, err := cli.Compact(ctx, before.Revision, clientv3.WithCompactPhysical()); err != nil {
		return before, after, fmt.Errorf("compact: %w", err)
	}
	if _, err := cli.Defragment(ctx, endpoint); err != nil {
		return before, after, fmt.Errorf("defragment: %w", err)
	}
	after, err = statusOf(ctx, cli, endpoint)
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
