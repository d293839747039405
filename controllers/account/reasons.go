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

// Reasons of the conditions of a wallet or payment method details (Ready, Stalled).
const (
	// ReasonAccountFound: Ready of a child whose account exists.
	ReasonAccountFound = "AccountFound"
	// ReasonAccountNotFound: Ready=False and Stalled of a child whose account does not exist.
	ReasonAccountNotFound = "AccountNotFound"
)
