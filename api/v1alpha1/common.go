package v1alpha1

// UUIDPattern is the form of every object name that REST clients see as an `id`:
// a lowercase UUID in its canonical 8-4-4-4-12 form.
const UUIDPattern = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`

// Condition types shared by several kinds.
const (
	// ConditionReady is True when the object is consistent with everything it refers to.
	ConditionReady = "Ready"
	// ConditionStalled is True when the object cannot make progress without a person
	// (kstatus: Failed). It is left out while false.
	ConditionStalled = "Stalled"
	// ConditionReconciling is True while a controller is still working towards the desired
	// state (kstatus: InProgress). It is left out while false.
	ConditionReconciling = "Reconciling"
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
