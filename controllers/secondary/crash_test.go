package secondary_test

import (
	"context"
	"errors"
	"sync/atomic"

	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// crashingClient is a client whose writes of order statuses fail once it has written
// after of them: a window controller on it dies in the middle of writing the fills, as a
// process killed between two writes.
type crashingClient struct {
	client.Client
	after   int32
	written *atomic.Int32
	// succeeded counts the order status writes that went through.
	succeeded *atomic.Int32
}

func (c crashingClient) Status() client.SubResourceWriter {
	return crashingWriter{SubResourceWriter: c.Client.Status(), c: c}
}

type crashingWriter struct {
	client.SubResourceWriter
	c crashingClient
}

var errCrashed = errors.New("the process crashed")

func (w crashingWriter) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
	_, isOrder := obj.(*investv1.Order)
	if isOrder && w.c.written.Add(1) > w.c.after {
		return errCrashed
	}
	err := w.SubResourceWriter.Patch(ctx, obj, p, opts...)
	if isOrder && err == nil && w.c.succeeded != nil {
		w.c.succeeded.Add(1)
	}
	return err
}
