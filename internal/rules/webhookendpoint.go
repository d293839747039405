package rules

import (
	"fmt"
	"slices"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// MaxEventTypes is the most event types an endpoint may name (the CRD's maxItems).
const MaxEventTypes = 32

// WebhookEndpoint checks a webhook endpoint, for REST and admission alike: its URL
// (egress.CheckURL: https and a public address, or http://127.0.0.1 where the operator
// allows it), its event types (known ones, each once) and its description (text).
func WebhookEndpoint(s *investv1.WebhookEndpointSpec, opts egress.Options) validation.FieldErrors {
	var fe validation.FieldErrors
	fe.AddErr("url", egress.CheckURL(s.URL, opts))
	if len(s.EventTypes) > MaxEventTypes {
		fe.Add("event_types", fmt.Sprintf("must name at most %d event types", MaxEventTypes))
	}
	for i, t := range s.EventTypes {
		switch {
		case !notify.Known(notify.EventType(t)):
			fe.Add("event_types", fmt.Sprintf("%q is not an event type; GET /v1/webhook-event-types lists them", string(t)))
		case slices.Contains(s.EventTypes[:i], t):
			fe.Add("event_types", fmt.Sprintf("names %q twice", string(t)))
		}
	}
	Text(&fe, [][2]string{{"description", s.Description}})
	return fe
}
