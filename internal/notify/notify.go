// Package notify is the outgoing webhooks of the service: the events an integrator may
// subscribe to, derived from committed state (an order's status history, a wallet's
// registration, a published NAV), their payloads and ids, and the store they are recorded
// in and delivered from (Store).
//
// The outbox is the state itself. An order's status history is written in the same write
// as its state change; an event is derived from a committed history entry and identified
// by it (EventID), so recording it again after a crash is a no-op, and no event exists for
// a change that was not committed.
package notify

// EventType names an event an endpoint may subscribe to.
type EventType string

// The event types.
const (
	OrderPlaced                   EventType = "order.placed"
	OrderPaymentInstructionsReady EventType = "order.payment_instructions_ready"
	OrderPaymentReceived          EventType = "order.payment_received"
	OrderExecuted                 EventType = "order.executed"
	OrderDeliveryInitiated        EventType = "order.delivery_initiated"
	OrderDeliveryCompleted        EventType = "order.delivery_completed"
	OrderPaymentSent              EventType = "order.payment_sent"
	OrderPaymentCompleted         EventType = "order.payment_completed"
	OrderRedemptionGated          EventType = "order.redemption_gated"
	OrderCompleted                EventType = "order.completed"
	OrderCancelled                EventType = "order.cancelled"
	OrderStalled                  EventType = "order.stalled"
	WalletRegistered              EventType = "wallet.registered"
	NAVPublished                  EventType = "nav.published"
	WebhookEndpointDisabled       EventType = "webhook_endpoint.disabled"
)

// descriptions say when each event is sent (GET /v1/webhook-event-types, docs/webhooks.md).
var descriptions = map[EventType]string{
	OrderPlaced:                   "An order was accepted (PLACED).",
	OrderPaymentInstructionsReady: "A BUY awaits the customer's payment: its payment details are ready (AWAITING_PAYMENT).",
	OrderPaymentReceived:          "The payment of a BUY arrived (PAYMENT_RECEIVED).",
	OrderExecuted:                 "The order was executed; a forward-priced one carries its contract note (EXECUTED).",
	OrderDeliveryInitiated:        "The units' token transaction was sent (DELIVERY_INITIATED).",
	OrderDeliveryCompleted:        "The units' token transaction is final (DELIVERY_COMPLETED).",
	OrderPaymentSent:              "The proceeds of a SELL were sent (PAYMENT_SENT).",
	OrderPaymentCompleted:         "The proceeds of a SELL arrived (PAYMENT_COMPLETED).",
	OrderRedemptionGated:          "A redemption gate held a SELL back (REDEMPTION_GATED).",
	OrderCompleted:                "The order is done (COMPLETED).",
	OrderCancelled:                "The order was cancelled (CANCELLED).",
	OrderStalled:                  "The order cannot go on without a person (its Stalled condition became True).",
	WalletRegistered:              "A wallet is ready to receive units (registered in the chain's identity registry where there is a chain).",
	NAVPublished:                  "A NAV price was published for a share class (sent to every tenant).",
	WebhookEndpointDisabled:       "Another endpoint of the tenant was disabled by the service (it answered 410, or failed for 5 days).",
}

// Describe says when an event of type t is sent.
func Describe(t EventType) string { return descriptions[t] }
