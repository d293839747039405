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

// carryCrashClient is a client whose status writes of carried orders (spec.carriedFrom)
// fail: a window controller on it dies right after it created a carried BUY, before it
// records the BUY's payment. With beforeCreate, their creation fails too: it dies before
// it creates them.
type carryCrashClient struct {
	client.Client
	beforeCreate bool
}

func (c carryCrashClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	if c.beforeCreate && carriedOrder(obj) {
		return errCrashed
	}
	return c.Client.Create(ctx, obj, opts...)
}

func (c carryCrashClient) Status() client.SubResourceWriter {
	return carryCrashWriter{SubResourceWriter: c.Client.Status()}
}

type carryCrashWriter struct{ client.SubResourceWriter }

func carriedOrder(obj client.Object) bool {
	o, ok := obj.(*investv1.Order)
	return ok && o.Spec.CarriedFrom != ""
}

func (w carryCrashWriter) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
	if carriedOrder(obj) {
		return errCrashed
	}
	return w.SubResourceWriter.Patch(ctx, obj, p, opts...)
}

func (w carryCrashWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if carriedOrder(obj) {
		return errCrashed
	}
	return w.SubResourceWriter.Update(ctx, obj, opts...)
}
