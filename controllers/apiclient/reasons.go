package apiclient

// Reasons of the Ready (and Stalled) condition of an ApiClient.
const (
	ReasonReady            = "SecretValid"
	ReasonSecretNotFound   = "SecretNotFound"
	ReasonSecretKeyMissing = "SecretKeyMissing"
	ReasonInvalidHash      = "InvalidHash"
	ReasonDisabled         = "Disabled"
)
