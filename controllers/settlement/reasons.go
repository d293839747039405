package settlement

// ReasonEvidencePrefix begins the reason of the Event emitted for each piece of evidence
// recorded: EvidencePaymentReceived, EvidenceDeliveryInitiated, … (EvidenceReason).
const ReasonEvidencePrefix = "Evidence"

// EvidenceReason is the Event reason for the evidence of step, e.g. EvidencePaymentReceived.
func EvidenceReason(step Step) string {
	return ReasonEvidencePrefix + string(step)
}
