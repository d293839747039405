package account

// Reasons of the conditions of an account (PrimaryWalletResolved,
// PrimaryPaymentMethodDetailsResolved, Ready, Reconciling, Stalled).
const (
	// ReasonNoPrimary: the pointer is empty (True: nothing to resolve).
	ReasonNoPrimary = "NoPrimary"
	// ReasonNotFound: the pointer names an object that does not exist (yet).
	ReasonNotFound = "NotFound"
	// ReasonForeignObject: the pointer names another account's object.
	ReasonForeignObject = "ForeignObject"
	// ReasonResolved: the pointer names one of the account's own objects.
	ReasonResolved = "Resolved"
	// ReasonConsistent: Ready of an account whose primary pointers resolve.
	ReasonConsistent = "Consistent"
	// ReasonPrimaryNotResolved: Ready=False of an account with a pointer that does not resolve.
	ReasonPrimaryNotResolved = "PrimaryNotResolved"
	// ReasonPrimaryNotFound: Reconciling of an account waiting for its primary to arrive.
	ReasonPrimaryNotFound = "PrimaryNotFound"
	// ReasonPrimaryOfAnotherAccount: Stalled of an account pointing at another account's object.
	ReasonPrimaryOfAnotherAccount = "PrimaryOfAnotherAccount"
	// ReasonDeletionBlocked: Stalled of a deleted account kept because it holds something.
	ReasonDeletionBlocked = "DeletionBlocked"
)

// Reasons of the conditions of a wallet or payment method details (Ready, Reconciling,
// Stalled).
const (
	// ReasonAccountFound: Ready of a child whose account exists.
	ReasonAccountFound = "AccountFound"
	// ReasonAccountNotFound: Stalled of a child whose account does not exist.
	ReasonAccountNotFound = "AccountNotFound"
	// ReasonRegistered: Ready of a wallet whose account exists and whose address the
	// chain's identity registry lists (an operator with a chain agent).
	ReasonRegistered = "Registered"
	// ReasonRegistering: Reconciling of a wallet whose registration in the identity
	// registry is not final yet (or not started).
	ReasonRegistering = "Registering"
	// ReasonRegistrationRemoving: Reconciling of a deleted wallet whose address is being
	// removed from the identity registry.
	ReasonRegistrationRemoving = "Removing"
	// ReasonRegistrationFailed: Stalled of a wallet whose registration failed (the
	// Registered condition's own reason is used when it has one, e.g. NonceTaken).
	ReasonRegistrationFailed = "RegistrationFailed"
)
