package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// Deployment is a contract creation that has been signed and sent: the address the contract
// will have and the creation transaction. The contract exists once the transaction is mined
// with a successful receipt; waiting for that (and for confirmations) is the caller's part.
type Deployment struct {
	Address common.Address
	Tx      *types.Transaction
}

// DeployIdentityRegistry sends the creation of the chain's identity registry, signed by signer.
// admin configures the registry and grants roles; agent registers and removes wallets.
func DeployIdentityRegistry(ctx context.Context, backend bind.ContractBackend, signer Signer, chainID *big.Int, admin, agent common.Address) (Deployment, error) {
	if admin == (common.Address{}) || agent == (common.Address{}) {
		return Deployment{}, errors.New("deploy identity registry: admin and agent must be set")
	}
	input := contracts.NewIdentityRegistry().PackConstructor(admin, agent)
	return deploy(ctx, backend, signer, chainID, contracts.IdentityRegistryMetaData.Bin, input, "identity registry")
}

// ShareTokenParams configure one share class's token.
type ShareTokenParams struct {
	// Name is the token's name, the share class's name.
	Name string
	// Symbol is the token's symbol; the share class's ISIN is unique and fits.
	Symbol string
	// IdentityRegistry is the deployed registry of verified wallets.
	IdentityRegistry common.Address
	// Admin configures the token and grants roles.
	Admin common.Address
	// Agent mints, burns, freezes, pauses and forces transfers: the operator's key.
	Agent common.Address
}

// DeployShareToken sends the creation of a share class's token, signed by signer.
func DeployShareToken(ctx context.Context, backend bind.ContractBackend, signer Signer, chainID *big.Int, p ShareTokenParams) (Deployment, error) {
	switch {
	case p.Name == "" || p.Symbol == "":
		return Deployment{}, errors.New("deploy share token: name and symbol must be set")
	case p.IdentityRegistry == (common.Address{}):
		return Deployment{}, errors.New("deploy share token: identity registry must be set")
	case p.Admin == (common.Address{}) || p.Agent == (common.Address{}):
		return Deployment{}, errors.New("deploy share token: admin and agent must be set")
	}
	input := contracts.NewShareToken().PackConstructor(p.Name, p.Symbol, p.IdentityRegistry, p.Admin, p.Agent)
	return deploy(ctx, backend, signer, chainID, contracts.ShareTokenMetaData.Bin, input, "share token "+p.Symbol)
}

func deploy(ctx context.Context, backend bind.ContractBackend, signer Signer, chainID *big.Int, bin string, input []byte, what string) (Deployment, error) {
	code := common.FromHex(bin)
	if len(code) == 0 {
		return Deployment{}, fmt.Errorf("deploy %s: no bytecode in the bindings", what)
	}
	addr, tx, err := bind.DeployContract(TransactOpts(ctx, signer, chainID), code, backend, input)
	if err != nil {
		return Deployment{}, fmt.Errorf("deploy %s: %w", what, DecodeError(err))
	}
	return Deployment{Address: addr, Tx: tx}, nil
}

// DeployCashToken sends the creation of a euro settlement token (contracts/src/CashToken.sol:
// the cash leg of on-chain delivery versus payment, 4 decimals, one unit one money unit),
// signed by signer: admin grants roles, issuer mints and burns.
func DeployCashToken(ctx context.Context, backend bind.ContractBackend, signer Signer, chainID *big.Int, name, symbol string, admin, issuer common.Address) (Deployment, error) {
	if name == "" || symbol == "" {
		return Deployment{}, errors.New("deploy cash token: name and symbol must be set")
	}
	if admin == (common.Address{}) || issuer == (common.Address{}) {
		return Deployment{}, errors.New("deploy cash token: admin and issuer must be set")
	}
	input := contracts.NewCashToken().PackConstructor(name, symbol, admin, issuer)
	return deploy(ctx, backend, signer, chainID, contracts.CashTokenMetaData.Bin, input, "cash token "+symbol)
}

// DeployDeliveryVersusPayment sends the creation of the settlement contract that swaps share
// units for escrowed cash in one transaction (contracts/src/DeliveryVersusPayment.sol),
// signed by signer: admin grants roles, agent swaps and refunds. It settles a share token's
// trades once that token grants it AGENT_ROLE.
func DeployDeliveryVersusPayment(ctx context.Context, backend bind.ContractBackend, signer Signer, chainID *big.Int, admin, agent common.Address) (Deployment, error) {
	if admin == (common.Address{}) || agent == (common.Address{}) {
		return Deployment{}, errors.New("deploy delivery versus payment: admin and agent must be set")
	}
	input := contracts.NewDeliveryVersusPayment().PackConstructor(admin, agent)
	return deploy(ctx, backend, signer, chainID, contracts.DeliveryVersusPaymentMetaData.Bin, input, "delivery versus payment")
}
