package token

import (
	"fmt"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Condition types.
const (
	// TypeTokenReady (ShareClass): the share class's token is deployed or adopted and usable.
	// The share class's Ready, Reconciling and Stalled (internal/conditions) follow it.
	TypeTokenReady = investv1.ConditionTokenReady
	// TypeStalled (kstatus): the object cannot progress without a change by someone.
	TypeStalled = investv1.ConditionStalled
	// TypeRegistered (Wallet): the address is in the chain's identity registry. The
	// wallet's Ready, Reconciling and Stalled follow it (controllers/account).
	TypeRegistered = investv1.ConditionRegistered
	// TypeLedgerInSync (Account): the on-chain balances of the account's wallets equal its
	// holdings.
	TypeLedgerInSync = "LedgerInSync"
	// TypeChainInSync (ShareClass): the chain holds every transaction the operator recorded
	// as final; False while the transaction outbox heals a chain that fell behind (reason
	// Behind: nothing new is signed, so no mint, burn or registration starts) or cannot heal
	// it by itself (reason Halted: a person must act; docs/tokens.md, Healing), or while the
	// records are behind the chain (reason RecordsBehind: the agent's key has transactions
	// on chain that no record holds; effects on tokens with effect references are looked up
	// on chain before they are signed, effects on tokens without them wait for a person;
	// docs/tokens.md, When the records fall behind the chain).
	TypeChainInSync = "ChainInSync"
	// TypeSettlementReady (ShareClass with spec.secondary.cashOnChain): the settlement
	// contract is this release's DeliveryVersusPayment, the operator's key is its agent, it
	// is an agent of the share token, and the cash token counts in money units (4
	// decimals): a swap can settle. Absent without cash on chain.
	TypeSettlementReady = "SettlementReady"
)

// Reasons of SettlementReady.
const (
	// ReasonSettlementReady: every check passed.
	ReasonSettlementReady = "SettlementReady"
	// ReasonNotASettlementContract: the code at the settlement address is not this
	// release's DeliveryVersusPayment (or there is none).
	ReasonNotASettlementContract = "NotASettlementContract"
	// ReasonSettlementNotOurs: the operator's key is not an agent of the settlement
	// contract, so it cannot swap or refund.
	ReasonSettlementNotOurs = "SettlementNotOurs"
	// ReasonSettlementNotAgent: the settlement contract is not an agent of the share token;
	// for a token the operator deployed it grants the role itself (ReasonGranting).
	ReasonSettlementNotAgent = "SettlementNotAgent"
	// ReasonGranting: the operator's grant of AGENT_ROLE to the settlement contract is
	// recorded and sent, and not final yet.
	ReasonGranting = "Granting"
	// ReasonCashTokenUnits: the cash token does not count in money units (decimals() is
	// not 4, or it has no decimals()).
	ReasonCashTokenUnits = "CashTokenUnits"
)

// Reasons of TokenReady and of the kstatus trio (Ready, Reconciling, Stalled) on a
// ShareClass: Ready=True with Adopted or Deployed; Reconciling=True with Deploying;
// Stalled=True with any other.
const (
	// ReasonAdopted: the token at spec.token.address passed every check.
	ReasonAdopted = "Adopted"
	// ReasonDeployed: the token the operator deployed is mined with the confirmations.
	ReasonDeployed = "Deployed"
	// ReasonDeploying: the deployment is recorded and sent, not yet final.
	ReasonDeploying = "Deploying"
	// ReasonDeploymentFailed: the deployment transaction reverted.
	ReasonDeploymentFailed = "DeploymentFailed"
	// ReasonNoContract: no code at the token's address.
	ReasonNoContract = "NoContract"
	// ReasonNotAShareToken: the code at the address is not this release's ShareToken.
	ReasonNotAShareToken = "NotAShareToken"
	// ReasonWrongRegistry: the token uses another identity registry than the configured one.
	ReasonWrongRegistry = "WrongRegistry"
	// ReasonNotAgent: the operator's key does not hold AGENT_ROLE on the token.
	ReasonNotAgent = "NotAgent"
	// ReasonWrongChain: the status records the token on another chain than the configured one.
	ReasonWrongChain = "WrongChain"
	// ReasonTokenInUse: another share class already has the token.
	ReasonTokenInUse = "TokenInUse"
	// ReasonPaused: the token passed every check but its admin paused it (paused() is true):
	// mints and holder transfers revert until it is unpaused. status.token still names it,
	// so burns, forced transfers, the ledger and the transfer index go on.
	ReasonPaused = investv1.ReasonTokenPaused
	// ReasonNonceTaken (ShareClass: TokenReady and Stalled; Wallet: Registered): the nonce
	// of the recorded deployment, registerWallet or removeWallet transaction was mined by a
	// transaction not recorded here (the operator's key was used elsewhere). Nothing is
	// re-sent.
	ReasonNonceTaken = "NonceTaken"
)

// nonceTakenMessage is the message of ReasonNonceTaken, as the order's
// TokenTransactionNonceTaken says it.
func nonceTakenMessage(nonce int64, what string) string {
	return fmt.Sprintf("nonce %d of the %s transaction: a transaction not recorded here was mined with this nonce: was the agent key used elsewhere? Nothing is re-sent", nonce, what)
}

// Reasons of Registered on a Wallet.
const (
	// ReasonRegistering: the registerWallet transaction is recorded and sent, not yet final.
	ReasonRegistering = "Registering"
	// ReasonRegisteredOnChain: the registry verifies the address.
	ReasonRegisteredOnChain = "RegisteredOnChain"
	// ReasonRegistrationFailed: the registerWallet transaction reverted.
	ReasonRegistrationFailed = "RegistrationFailed"
	// ReasonRemoving: the wallet is deleted; its removeWallet transaction is not final yet.
	ReasonRemoving = "Removing"
	// ReasonRemovalFailed: the removeWallet transaction reverted.
	ReasonRemovalFailed = "RemovalFailed"
)

// Reasons of LedgerInSync on an Account.
const (
	// ReasonBalancesMatch: every compared ISIN has as many units on chain as in the ledger.
	ReasonBalancesMatch = "BalancesMatch"
	// ReasonBalanceMismatch: some ISIN differs; the message has the numbers.
	ReasonBalanceMismatch = "BalanceMismatch"
	// ReasonNotComparable (LedgerInSync=Unknown): no ISIN differs, but some could not be
	// compared at the block (holder transfers not indexed up to it, or not yet counted in
	// the account's holdings); the message names them. Never reported as in sync.
	ReasonNotComparable = "NotComparable"
)
