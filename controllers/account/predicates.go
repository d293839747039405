package account

import (
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
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
