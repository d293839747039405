package envtest

import (
	"context"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// EtcdClient is a client of the control plane's etcd itself, for specs that do what an
// etcd restore does: put back an object's bytes as they were, with no admission and no
// validation on the way. The caller closes it.
func (e *Environment) EtcdClient() (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{Endpoints: []string{e.ControlPlane.Etcd.URL.String()}, DialTimeout: 10 * time.Second})
}

// EtcdRestore puts back under key the bytes a spec read from etcd earlier, as restoring
// etcd from a backup taken then does for that key.
func (e *Environment) EtcdRestore(ctx context.Context, key string, data []byte) error {
	cli, err := e.EtcdClient()
	if err != nil {
		return err
	}
	defer func() { _ = cli.Close() }()
	if _, err := cli.Put(ctx, key, string(data)); err != nil {
		return fmt.Errorf("put %s back into etcd: %w", key, err)
	}
	return nil
}

// EtcdRead reads the bytes etcd holds under key.
func (e *Environment) EtcdRead(ctx context.Context, key string) ([]byte, error) {
	cli, err := e.EtcdClient()
	if err != nil {
		return nil, err
	}
	defer func() { _ = cli.Close() }()
	resp, err := cli.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("read %s from etcd: %w", key, err)
	}
	if len(resp.Kvs) != 1 {
		return nil, fmt.Errorf("etcd has no %s", key)
	}
	return resp.Kvs[0].Value, nil
}
