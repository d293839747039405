// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// IdentityRegistryMetaData contains all meta data concerning the IdentityRegistry contract.
var IdentityRegistryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"admin\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AccessControlBadConfirmation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"neededRole\",\"type\":\"bytes32\"}],\"name\":\"AccessControlUnauthorizedAccount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"WalletAlreadyRegistered\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"WalletNotRegistered\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"previousAdminRole\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"newAdminRole\",\"type\":\"bytes32\"}],\"name\":\"RoleAdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleGranted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleRevoked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"WalletRegistered\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"WalletRemoved\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"AGENT_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"DEFAULT_ADMIN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"wallets\",\"type\":\"address[]\"}],\"name\":\"batchRegisterWallets\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"}],\"name\":\"getRoleAdmin\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"grantRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"hasRole\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"isVerified\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"registerWallet\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"removeWallet\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"callerConfirmation\",\"type\":\"address\"}],\"name\":\"renounceRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"revokeRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "IdentityRegistry",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161090338038061090383398101604081905261002e9161016a565b6001600160a01b038216158061004b57506001600160a01b038116155b156100695760405163d92e233d60e01b815260040160405180910390fd5b6100735f836100a6565b5061009e7fcab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb4276950967709826100a6565b50505061019b565b5f828152602081815260408083206001600160a01b038516845290915281205460ff16610146575f838152602081815260408083206001600160a01b03861684529091529020805460ff191660011790556100fe3390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a4506001610149565b505f5b92915050565b80516001600160a01b0381168114610165575f5ffd5b919050565b5f5f6040838503121561017b575f5ffd5b6101848361014f565b91506101926020840161014f565b90509250929050565b61075b806101a85f395ff3fe608060405234801561000f575f5ffd5b50600436106100b1575f3560e01c806391d148541161006e57806391d148541461015c578063a217fddf1461016f578063a75fe8e114610176578063b9209e3314610189578063d547741f146101b4578063e0bbc4f2146101c7575f5ffd5b806301ffc9a7146100b557806322459e18146100dd578063248a9ca3146100ff5780632f2ff15d1461012157806336568abe14610136578063779beedf14610149575b5f5ffd5b6100c86100c33660046105dd565b6101da565b60405190151581526020015b60405180910390f35b6100f15f5160206107065f395f51905f5281565b6040519081526020016100d4565b6100f161010d36600461060b565b5f9081526020819052604090206001015490565b61013461012f36600461063d565b610210565b005b61013461014436600461063d565b61023a565b610134610157366004610667565b610272565b6100c861016a36600461063d565b610296565b6100f15f81565b610134610184366004610667565b6102be565b6100c8610197366004610667565b6001600160a01b03165f9081526001602052604090205460ff1690565b6101346101c236600461063d565b610368565b6101346101d5366004610680565b61038c565b5f6001600160e01b03198216637965db0b60e01b148061020a57506301ffc9a760e01b6001600160e01b03198316145b92915050565b5f8281526020819052604090206001015461022a816103e4565b61023483836103f1565b50505050565b6001600160a01b03811633146102635760405163334bd91960e11b815260040160405180910390fd5b61026d8282610480565b505050565b5f5160206107065f395f51905f52610289816103e4565b610292826104e9565b5050565b5f918252602082815260408084206001600160a01b0393909316845291905290205460ff1690565b5f5160206107065f395f51905f526102d5816103e4565b6001600160a01b0382165f9081526001602052604090205460ff1661031d5760405163239a7cdf60e01b81526001600160a01b03831660048201526024015b60405180910390fd5b6001600160a01b0382165f81815260016020526040808220805460ff19169055513392917f14a6f0e11f61747ba317ecc8536d0ca2aff8216ff2712588a4d7fb0e310afcc991a35050565b5f82815260208190526040902060010154610382816103e4565b6102348383610480565b5f5160206107065f395f51905f526103a3816103e4565b5f5b82811015610234576103dc8484838181106103c2576103c26106f1565b90506020020160208101906103d79190610667565b6104e9565b6001016103a5565b6103ee81336105a4565b50565b5f6103fc8383610296565b610479575f838152602081815260408083206001600160a01b03861684529091529020805460ff191660011790556104313390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a450600161020a565b505f61020a565b5f61048b8383610296565b15610479575f838152602081815260408083206001600160a01b0386168085529252808320805460ff1916905551339286917ff6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b9190a450600161020a565b6001600160a01b0381166105105760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0381165f9081526001602052604090205460ff161561055457604051630f1b17e160e31b81526001600160a01b0382166004820152602401610314565b6001600160a01b0381165f818152600160208190526040808320805460ff1916909217909155513392917ff3c51abd663c00cbfa5a958e8d688917a1e072399a19c9eb70819641f3b5d85691a350565b6105ae8282610296565b6102925760405163e2517d3f60e01b81526001600160a01b038216600482015260248101839052604401610314565b5f602082840312156105ed575f5ffd5b81356001600160e01b031981168114610604575f5ffd5b9392505050565b5f6020828403121561061b575f5ffd5b5035919050565b80356001600160a01b0381168114610638575f5ffd5b919050565b5f5f6040838503121561064e575f5ffd5b8235915061065e60208401610622565b90509250929050565b5f60208284031215610677575f5ffd5b61060482610622565b5f5f60208385031215610691575f5ffd5b823567ffffffffffffffff8111156106a7575f5ffd5b8301601f810185136106b7575f5ffd5b803567ffffffffffffffff8111156106cd575f5ffd5b8560208260051b84010111156106e1575f5ffd5b6020919091019590945092505050565b634e487b7160e01b5f52603260045260245ffdfecab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb4276950967709a26469706673582212203f0005ba69cd29b2b79d6d337fe9f7a250cd0921196df9e0835bc7e6bcbc7a2864736f6c63430008250033",
}

// IdentityRegistry is an auto generated Go binding around an Ethereum contract.
type IdentityRegistry struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *IdentityRegistry) GetABI() abi.ABI {
	return c.abi
}

// NewIdentityRegistry creates a new instance of IdentityRegistry.
func NewIdentityRegistry() *IdentityRegistry {
	parsed, err := IdentityRegistryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &IdentityRegistry{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *IdentityRegistry) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address admin, address agent) returns()
func (identityRegistry *IdentityRegistry) PackConstructor(admin common.Address, agent common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("", admin, agent)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAGENTROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x22459e18.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function AGENT_ROLE() view returns(bytes32)
func (identityRegistry *IdentityRegistry) PackAGENTROLE() []byte {
	enc, err := identityRegistry.abi.Pack("AGENT_ROLE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAGENTROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x22459e18.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function AGENT_ROLE() view returns(bytes32)
func (identityRegistry *IdentityRegistry) TryPackAGENTROLE() ([]byte, error) {
	return identityRegistry.abi.Pack("AGENT_ROLE")
}

// UnpackAGENTROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x22459e18.
//
// Solidity: function AGENT_ROLE() view returns(bytes32)
func (identityRegistry *IdentityRegistry) UnpackAGENTROLE(data []byte) ([32]byte, error) {
	out, err := identityRegistry.abi.Unpack("AGENT_ROLE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackDEFAULTADMINROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa217fddf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (identityRegistry *IdentityRegistry) PackDEFAULTADMINROLE() []byte {
	enc, err := identityRegistry.abi.Pack("DEFAULT_ADMIN_ROLE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDEFAULTADMINROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa217fddf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (identityRegistry *IdentityRegistry) TryPackDEFAULTADMINROLE() ([]byte, error) {
	return identityRegistry.abi.Pack("DEFAULT_ADMIN_ROLE")
}

// UnpackDEFAULTADMINROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (identityRegistry *IdentityRegistry) UnpackDEFAULTADMINROLE(data []byte) ([32]byte, error) {
	out, err := identityRegistry.abi.Unpack("DEFAULT_ADMIN_ROLE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackBatchRegisterWallets is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe0bbc4f2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function batchRegisterWallets(address[] wallets) returns()
func (identityRegistry *IdentityRegistry) PackBatchRegisterWallets(wallets []common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("batchRegisterWallets", wallets)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBatchRegisterWallets is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe0bbc4f2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function batchRegisterWallets(address[] wallets) returns()
func (identityRegistry *IdentityRegistry) TryPackBatchRegisterWallets(wallets []common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("batchRegisterWallets", wallets)
}

// PackGetRoleAdmin is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x248a9ca3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (identityRegistry *IdentityRegistry) PackGetRoleAdmin(role [32]byte) []byte {
	enc, err := identityRegistry.abi.Pack("getRoleAdmin", role)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetRoleAdmin is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x248a9ca3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (identityRegistry *IdentityRegistry) TryPackGetRoleAdmin(role [32]byte) ([]byte, error) {
	return identityRegistry.abi.Pack("getRoleAdmin", role)
}

// UnpackGetRoleAdmin is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (identityRegistry *IdentityRegistry) UnpackGetRoleAdmin(data []byte) ([32]byte, error) {
	out, err := identityRegistry.abi.Unpack("getRoleAdmin", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGrantRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2f2ff15d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function grantRole(bytes32 role, address account) returns()
func (identityRegistry *IdentityRegistry) PackGrantRole(role [32]byte, account common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("grantRole", role, account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGrantRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2f2ff15d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function grantRole(bytes32 role, address account) returns()
func (identityRegistry *IdentityRegistry) TryPackGrantRole(role [32]byte, account common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("grantRole", role, account)
}

// PackHasRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x91d14854.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (identityRegistry *IdentityRegistry) PackHasRole(role [32]byte, account common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("hasRole", role, account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHasRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x91d14854.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (identityRegistry *IdentityRegistry) TryPackHasRole(role [32]byte, account common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("hasRole", role, account)
}

// UnpackHasRole is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (identityRegistry *IdentityRegistry) UnpackHasRole(data []byte) (bool, error) {
	out, err := identityRegistry.abi.Unpack("hasRole", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsVerified is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb9209e33.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isVerified(address wallet) view returns(bool)
func (identityRegistry *IdentityRegistry) PackIsVerified(wallet common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("isVerified", wallet)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsVerified is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb9209e33.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isVerified(address wallet) view returns(bool)
func (identityRegistry *IdentityRegistry) TryPackIsVerified(wallet common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("isVerified", wallet)
}

// UnpackIsVerified is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb9209e33.
//
// Solidity: function isVerified(address wallet) view returns(bool)
func (identityRegistry *IdentityRegistry) UnpackIsVerified(data []byte) (bool, error) {
	out, err := identityRegistry.abi.Unpack("isVerified", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackRegisterWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x779beedf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function registerWallet(address wallet) returns()
func (identityRegistry *IdentityRegistry) PackRegisterWallet(wallet common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("registerWallet", wallet)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRegisterWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x779beedf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function registerWallet(address wallet) returns()
func (identityRegistry *IdentityRegistry) TryPackRegisterWallet(wallet common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("registerWallet", wallet)
}

// PackRemoveWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa75fe8e1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function removeWallet(address wallet) returns()
func (identityRegistry *IdentityRegistry) PackRemoveWallet(wallet common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("removeWallet", wallet)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRemoveWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa75fe8e1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function removeWallet(address wallet) returns()
func (identityRegistry *IdentityRegistry) TryPackRemoveWallet(wallet common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("removeWallet", wallet)
}

// PackRenounceRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x36568abe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (identityRegistry *IdentityRegistry) PackRenounceRole(role [32]byte, callerConfirmation common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("renounceRole", role, callerConfirmation)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x36568abe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (identityRegistry *IdentityRegistry) TryPackRenounceRole(role [32]byte, callerConfirmation common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("renounceRole", role, callerConfirmation)
}

// PackRevokeRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd547741f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (identityRegistry *IdentityRegistry) PackRevokeRole(role [32]byte, account common.Address) []byte {
	enc, err := identityRegistry.abi.Pack("revokeRole", role, account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRevokeRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd547741f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (identityRegistry *IdentityRegistry) TryPackRevokeRole(role [32]byte, account common.Address) ([]byte, error) {
	return identityRegistry.abi.Pack("revokeRole", role, account)
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (identityRegistry *IdentityRegistry) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := identityRegistry.abi.Pack("supportsInterface", interfaceId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (identityRegistry *IdentityRegistry) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return identityRegistry.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (identityRegistry *IdentityRegistry) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := identityRegistry.abi.Unpack("supportsInterface", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// IdentityRegistryRoleAdminChanged represents a RoleAdminChanged event raised by the IdentityRegistry contract.
type IdentityRegistryRoleAdminChanged struct {
	Role              [32]byte
	PreviousAdminRole [32]byte
	NewAdminRole      [32]byte
	Raw               *types.Log // Blockchain specific contextual infos
}

const IdentityRegistryRoleAdminChangedEventName = "RoleAdminChanged"

// ContractEventName returns the user-defined event name.
func (IdentityRegistryRoleAdminChanged) ContractEventName() string {
	return IdentityRegistryRoleAdminChangedEventName
}

// UnpackRoleAdminChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (identityRegistry *IdentityRegistry) UnpackRoleAdminChangedEvent(log *types.Log) (*IdentityRegistryRoleAdminChanged, error) {
	event := "RoleAdminChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != identityRegistry.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(IdentityRegistryRoleAdminChanged)
	if len(log.Data) > 0 {
		if err := identityRegistry.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range identityRegistry.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// IdentityRegistryRoleGranted represents a RoleGranted event raised by the IdentityRegistry contract.
type IdentityRegistryRoleGranted struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const IdentityRegistryRoleGrantedEventName = "RoleGranted"

// ContractEventName returns the user-defined event name.
func (IdentityRegistryRoleGranted) ContractEventName() string {
	return IdentityRegistryRoleGrantedEventName
}

// UnpackRoleGrantedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (identityRegistry *IdentityRegistry) UnpackRoleGrantedEvent(log *types.Log) (*IdentityRegistryRoleGranted, error) {
	event := "RoleGranted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != identityRegistry.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(IdentityRegistryRoleGranted)
	if len(log.Data) > 0 {
		if err := identityRegistry.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range identityRegistry.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// IdentityRegistryRoleRevoked represents a RoleRevoked event raised by the IdentityRegistry contract.
type IdentityRegistryRoleRevoked struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const IdentityRegistryRoleRevokedEventName = "RoleRevoked"

// ContractEventName returns the user-defined event name.
func (IdentityRegistryRoleRevoked) ContractEventName() string {
	return IdentityRegistryRoleRevokedEventName
}

// UnpackRoleRevokedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (identityRegistry *IdentityRegistry) UnpackRoleRevokedEvent(log *types.Log) (*IdentityRegistryRoleRevoked, error) {
	event := "RoleRevoked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != identityRegistry.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(IdentityRegistryRoleRevoked)
	if len(log.Data) > 0 {
		if err := identityRegistry.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range identityRegistry.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// IdentityRegistryWalletRegistered represents a WalletRegistered event raised by the IdentityRegistry contract.
type IdentityRegistryWalletRegistered struct {
	Wallet common.Address
	Agent  common.Address
	Raw    *types.Log // Blockchain specific contextual infos
}

const IdentityRegistryWalletRegisteredEventName = "WalletRegistered"

// ContractEventName returns the user-defined event name.
func (IdentityRegistryWalletRegistered) ContractEventName() string {
	return IdentityRegistryWalletRegisteredEventName
}

// UnpackWalletRegisteredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WalletRegistered(address indexed wallet, address indexed agent)
func (identityRegistry *IdentityRegistry) UnpackWalletRegisteredEvent(log *types.Log) (*IdentityRegistryWalletRegistered, error) {
	event := "WalletRegistered"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != identityRegistry.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(IdentityRegistryWalletRegistered)
	if len(log.Data) > 0 {
		if err := identityRegistry.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range identityRegistry.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// IdentityRegistryWalletRemoved represents a WalletRemoved event raised by the IdentityRegistry contract.
type IdentityRegistryWalletRemoved struct {
	Wallet common.Address
	Agent  common.Address
	Raw    *types.Log // Blockchain specific contextual infos
}

const IdentityRegistryWalletRemovedEventName = "WalletRemoved"

// ContractEventName returns the user-defined event name.
func (IdentityRegistryWalletRemoved) ContractEventName() string {
	return IdentityRegistryWalletRemovedEventName
}

// UnpackWalletRemovedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WalletRemoved(address indexed wallet, address indexed agent)
func (identityRegistry *IdentityRegistry) UnpackWalletRemovedEvent(log *types.Log) (*IdentityRegistryWalletRemoved, error) {
	event := "WalletRemoved"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != identityRegistry.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(IdentityRegistryWalletRemoved)
	if len(log.Data) > 0 {
		if err := identityRegistry.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range identityRegistry.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (identityRegistry *IdentityRegistry) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], identityRegistry.abi.Errors["AccessControlBadConfirmation"].ID.Bytes()[:4]) {
		return identityRegistry.UnpackAccessControlBadConfirmationError(raw[4:])
	}
	if bytes.Equal(raw[:4], identityRegistry.abi.Errors["AccessControlUnauthorizedAccount"].ID.Bytes()[:4]) {
		return identityRegistry.UnpackAccessControlUnauthorizedAccountError(raw[4:])
	}
	if bytes.Equal(raw[:4], identityRegistry.abi.Errors["WalletAlreadyRegistered"].ID.Bytes()[:4]) {
		return identityRegistry.UnpackWalletAlreadyRegisteredError(raw[4:])
	}
	if bytes.Equal(raw[:4], identityRegistry.abi.Errors["WalletNotRegistered"].ID.Bytes()[:4]) {
		return identityRegistry.UnpackWalletNotRegisteredError(raw[4:])
	}
	if bytes.Equal(raw[:4], identityRegistry.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return identityRegistry.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// IdentityRegistryAccessControlBadConfirmation represents a AccessControlBadConfirmation error raised by the IdentityRegistry contract.
type IdentityRegistryAccessControlBadConfirmation struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlBadConfirmation()
func IdentityRegistryAccessControlBadConfirmationErrorID() common.Hash {
	return common.HexToHash("0x6697b23232a647058342c0724fe7c415cab25915b54e5dbc03f233173d37b41c")
}

// UnpackAccessControlBadConfirmationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlBadConfirmation()
func (identityRegistry *IdentityRegistry) UnpackAccessControlBadConfirmationError(raw []byte) (*IdentityRegistryAccessControlBadConfirmation, error) {
	out := new(IdentityRegistryAccessControlBadConfirmation)
	if err := identityRegistry.abi.UnpackIntoInterface(out, "AccessControlBadConfirmation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// IdentityRegistryAccessControlUnauthorizedAccount represents a AccessControlUnauthorizedAccount error raised by the IdentityRegistry contract.
type IdentityRegistryAccessControlUnauthorizedAccount struct {
	Account    common.Address
	NeededRole [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func IdentityRegistryAccessControlUnauthorizedAccountErrorID() common.Hash {
	return common.HexToHash("0xe2517d3fbfae6f8515ef5ff1ccedc3933ab0cbbda0b492c06eb54ad10ef03b3e")
}

// UnpackAccessControlUnauthorizedAccountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func (identityRegistry *IdentityRegistry) UnpackAccessControlUnauthorizedAccountError(raw []byte) (*IdentityRegistryAccessControlUnauthorizedAccount, error) {
	out := new(IdentityRegistryAccessControlUnauthorizedAccount)
	if err := identityRegistry.abi.UnpackIntoInterface(out, "AccessControlUnauthorizedAccount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// IdentityRegistryWalletAlreadyRegistered represents a WalletAlreadyRegistered error raised by the IdentityRegistry contract.
type IdentityRegistryWalletAlreadyRegistered struct {
	Wallet common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WalletAlreadyRegistered(address wallet)
func IdentityRegistryWalletAlreadyRegisteredErrorID() common.Hash {
	return common.HexToHash("0x78d8bf08cdd830ce52887d39cf5cf111c723cb9a4a76bcdee65058c18a497eb3")
}

// UnpackWalletAlreadyRegisteredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WalletAlreadyRegistered(address wallet)
func (identityRegistry *IdentityRegistry) UnpackWalletAlreadyRegisteredError(raw []byte) (*IdentityRegistryWalletAlreadyRegistered, error) {
	out := new(IdentityRegistryWalletAlreadyRegistered)
	if err := identityRegistry.abi.UnpackIntoInterface(out, "WalletAlreadyRegistered", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// IdentityRegistryWalletNotRegistered represents a WalletNotRegistered error raised by the IdentityRegistry contract.
type IdentityRegistryWalletNotRegistered struct {
	Wallet common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WalletNotRegistered(address wallet)
func IdentityRegistryWalletNotRegisteredErrorID() common.Hash {
	return common.HexToHash("0x239a7cdf8d59fa9c9593adde87eca4e2707ff4461d4c6c6d5160e4f94cfb7a7c")
}

// UnpackWalletNotRegisteredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WalletNotRegistered(address wallet)
func (identityRegistry *IdentityRegistry) UnpackWalletNotRegisteredError(raw []byte) (*IdentityRegistryWalletNotRegistered, error) {
	out := new(IdentityRegistryWalletNotRegistered)
	if err := identityRegistry.abi.UnpackIntoInterface(out, "WalletNotRegistered", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// IdentityRegistryZeroAddress represents a ZeroAddress error raised by the IdentityRegistry contract.
type IdentityRegistryZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func IdentityRegistryZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (identityRegistry *IdentityRegistry) UnpackZeroAddressError(raw []byte) (*IdentityRegistryZeroAddress, error) {
	out := new(IdentityRegistryZeroAddress)
	if err := identityRegistry.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
