// Package v1alpha1 holds the custom resources of the fund share investment service:
// the customer side (Account, Wallet, PaymentMethodDetails, Order, CustomOffering and the
// integrator's ApiClient, all namespaced: one namespace per API client) and the
// cluster-scoped fund catalogue (Fund, ShareClass, NAVHistory).
//
// +kubebuilder:object:generate=true
// +groupName=invest.fundshare.io
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the API group and version of every kind in this package.
	GroupVersion = schema.GroupVersion{Group: "invest.fundshare.io", Version: "v1alpha1"}

	// SchemeBuilder registers the kinds of this package with a runtime.Scheme.
	SchemeBuilder = &Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the kinds of this package to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Builder collects the kinds of one group version for a runtime.Scheme. It does what
// controller-runtime's scheme.Builder (deprecated) does with apimachinery alone, so that
// importing the API types does not pull in controller-runtime.
//
// +kubebuilder:object:generate=false
type Builder struct {
	GroupVersion schema.GroupVersion
	runtime.SchemeBuilder
}

// Register adds kinds (each file registers its own in init).
func (b *Builder) Register(objs ...runtime.Object) *Builder {
	b.SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(b.GroupVersion, objs...)
		metav1.AddToGroupVersion(s, b.GroupVersion)
		return nil
	})
	return b
}
