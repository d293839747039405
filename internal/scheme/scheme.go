// Package scheme builds the runtime.Scheme of the manager: the built-in Kubernetes kinds
// and the project's kinds. It is its own small package so that the production binary, the
// local dev runner and the tests share one definition without the binary linking the
// test harness (internal/controlplane imports envtest).
package scheme

import (
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// New returns a fresh scheme with the built-in kinds and the project's kinds. Callers get
// their own copy, so nothing registered later by one of them leaks into another.
func New() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		panic(err) // only a programming error (a kind registered twice) gets here
	}
	return s
}

// AddToScheme adds the built-in kinds and ours to s.
func AddToScheme(s *runtime.Scheme) error {
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return err
	}
	return investv1.AddToScheme(s)
}
