// Package ctrltest holds the small fakes that the controllers' glue tests share: a logger
// that records its lines and a client whose List fails. Test code only: nothing the
// production binary links imports it.
package ctrltest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/fundshare/fundshare-operator/internal/scheme"
)

// RecordingLogger returns a logger (V(1) included) that keeps every line it is given, and
// a function that returns those lines.
func RecordingLogger() (logr.Logger, func() []string) {
	var mu sync.Mutex
	var lines []string
	log := funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, prefix+" "+args)
	}, funcr.Options{Verbosity: 1})
	return log, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

// ErrCannotList is what FailingLists' List answers.
var ErrCannotList = errors.New("the cache cannot list")

// FailingLists is a client whose List always fails, as a cache that cannot list does.
func FailingLists(t *testing.T) client.Client {
	t.Helper()
	return interceptor.NewClient(fake.NewClientBuilder().WithScheme(scheme.New()).Build(), interceptor.Funcs{
		List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
			return ErrCannotList
		},
	})
}
