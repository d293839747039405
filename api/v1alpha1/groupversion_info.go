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
	// SchemeGroupVersion is the API group and version of every kind in this package (the
	// name kubebuilder's scaffold and applyconfiguration generators use).
	SchemeGroupVersion = schema.GroupVersion{Group: "invest.fundshare.io", Version: "v1alpha1"}

	// GroupVersion is SchemeGroupVersion.
	GroupVersion = SchemeGroupVersion

	// SchemeBuilder registers the kinds of this package with a runtime.Scheme; each kind's
	// init adds itself (register, or SchemeBuilder.Register as kubebuilder scaffolds it).
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		metav1.AddToGroupVersion(s, SchemeGroupVersion)
		return nil
	})

	// AddToScheme adds the kinds of this package to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// register adds the kinds objs to SchemeBuilder.
func register(objs ...runtime.Object) {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, objs...)
		return nil
	})
}
