package v1alpha1

// UUIDPattern is the form of every object name that REST clients see as an `id`:
// a lowercase UUID in its canonical 8-4-4-4-12 form.
const UUIDPattern = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`

// Condition types shared by several kinds. Ready, Reconciling and Stalled are the kstatus
// trio: every controller that reports readiness sets all three at once, at the object's
// generation (internal/conditions), so exactly one of them is True.
const (
	// ConditionReady is True when the object is what its spec asks for and consistent with
	// everything it refers to (kstatus: Current).
	ConditionReady = "Ready"
	// ConditionStalled is True when the object cannot make progress without a person
	// (kstatus: Failed).
	ConditionStalled = "Stalled"
	// ConditionReconciling is True while a controller is still working towards the desired
	// state and gets there by itself (kstatus: InProgress).
	ConditionReconciling = "Reconciling"
	// ConditionRegistered (Wallet) is True when the chain's identity registry lists the
	// wallet's address; written by the wallet registration controller while a chain agent
	// runs, and read into the wallet's Ready.
	ConditionRegistered = "Registered"
	// ConditionTokenReady (ShareClass) is True when the share class's token is deployed or
	// adopted and usable; written by the share-class token controller.
	ConditionTokenReady = "TokenReady"
	// ReasonTokenPaused is TokenReady=False of a share class whose token its admin paused:
	// mints and holder transfers revert until it is unpaused. The token is still the share
	// class's (status.token): burns, forced transfers, the ledger and the transfer index go on.
	ReasonTokenPaused = "Paused"
)

// ObjectID names another namespaced object of the same tenant by its id
// (the object's metadata.name, a lowercase UUID).
// +kubebuilder:validation:Pattern=`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`
// +kubebuilder:validation:MaxLength=36
type ObjectID string

// CurrencyCode is a three-letter uppercase ISO 4217 currency code.
// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
// +kubebuilder:validation:MaxLength=3
type CurrencyCode string

// ISIN is an International Securities Identification Number (ISO 6166): two letters,
// nine alphanumerics and a check digit. The check digit is verified by admission.
// +kubebuilder:validation:Pattern=`^[A-Z]{2}[A-Z0-9]{9}[0-9]$`
// +kubebuilder:validation:MinLength=12
// +kubebuilder:validation:MaxLength=12
type ISIN string
