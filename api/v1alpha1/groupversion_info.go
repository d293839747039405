// Package v1alpha1 holds the custom resources of the fund share investment service:
// the customer side (Account, Wallet, PaymentMethodDetails, Order, CustomOffering and the
// integrator's ApiClient, all namespaced: one namespace per API client) and the
// cluster-scoped fund catalogue (Fund, ShareClass, NAVHistory).
//
// +kubebuilder:object:generate=true
// +groupName=invest.fundshare.io
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the API group and version of every kind in this package.
	GroupVersion = schema.GroupVersion{Group: "invest.fundshare.io", Version: "v1alpha1"}

	// SchemeBuilder registers the kinds of this package with a runtime.Scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the kinds of this package to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
