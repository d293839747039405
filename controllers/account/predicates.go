package account

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// deletionPredicate passes updates that start a deletion or change finalizers.
func deletionPredicate() predicate.Predicate {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return !e.ObjectNew.GetDeletionTimestamp().IsZero() || len(e.ObjectNew.GetFinalizers()) != len(e.ObjectOld.GetFinalizers())
	}}
}

// createOrDelete passes only the events that change which children exist; children's
// specs are immutable, and their status is written by this package.
func createOrDelete() predicate.Predicate {
	return predicate.Funcs{UpdateFunc: func(event.UpdateEvent) bool { return false }}
}

// stateChanged passes order events that can change holdings or reservations: a new
// order, a deleted one, and a change of lifecycle state.
func stateChanged() predicate.Predicate {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return state(e.ObjectOld) != state(e.ObjectNew)
	}}
}

func state(o client.Object) investv1.OrderState {
	if order, ok := o.(*investv1.Order); ok {
		return order.Status.State
	}
	return ""
}
