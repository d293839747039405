// Package predicates holds the event filters that several controllers share, so that no
// controller imports another for them.
package predicates

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// LiveOrders passes the events of orders that are not terminal, and of cancelled orders
// whose refund is outstanding or not yet reported (Order.NeedsReconcile): nothing else
// moves a done order, so the order controller and the settlement agents skip them.
// Deletions never pass (nothing is left to do for a deleted order).
func LiveOrders() predicate.Predicate {
	live := func(o client.Object) bool {
		order, ok := o.(*investv1.Order)
		return !ok || lifecycle.NeedsReconcile(order)
	}
	return predicate.Funcs{
		CreateFunc:  func(e event.CreateEvent) bool { return live(e.Object) },
		UpdateFunc:  func(e event.UpdateEvent) bool { return live(e.ObjectNew) },
		GenericFunc: func(e event.GenericEvent) bool { return live(e.Object) },
		DeleteFunc:  func(event.DeleteEvent) bool { return false },
	}
}
