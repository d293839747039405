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

// CashTokenMetaData contains all meta data concerning the CashToken contract.
var CashTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"},{\"internalType\":\"address\",\"name\":\"admin\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"issuer\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AccessControlBadConfirmation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"neededRole\",\"type\":\"bytes32\"}],\"name\":\"AccessControlUnauthorizedAccount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"allowance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"approver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidApprover\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidReceiver\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSender\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSpender\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"previousAdminRole\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"newAdminRole\",\"type\":\"bytes32\"}],\"name\":\"RoleAdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleGranted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleRevoked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DEFAULT_ADMIN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"ISSUER_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"burn\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"}],\"name\":\"getRoleAdmin\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"grantRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"hasRole\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"callerConfirmation\",\"type\":\"address\"}],\"name\":\"renounceRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"revokeRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "CashToken",
	Bin: "0x608060405234801561000f575f5ffd5b50604051610f9b380380610f9b83398101604081905261002e9161022b565b8383600361003c838261033f565b506004610049828261033f565b5050506001600160a01b038216158061006957506001600160a01b038116155b156100875760405163d92e233d60e01b815260040160405180910390fd5b6100915f836100c6565b506100bc7f114e74f6ea3bd819998f78687bfcb11b140da08e9b7d222fa9c1f1ba1f2aa122826100c6565b50505050506103fd565b5f8281526005602090815260408083206001600160a01b038516845290915281205460ff1661016a575f8381526005602090815260408083206001600160a01b03861684529091529020805460ff191660011790556101223390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a450600161016d565b505f5b92915050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610196575f5ffd5b81516001600160401b038111156101af576101af610173565b604051601f8201601f19908116603f011681016001600160401b03811182821017156101dd576101dd610173565b6040528181528382016020018510156101f4575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160a01b0381168114610226575f5ffd5b919050565b5f5f5f5f6080858703121561023e575f5ffd5b84516001600160401b03811115610253575f5ffd5b61025f87828801610187565b602087015190955090506001600160401b0381111561027c575f5ffd5b61028887828801610187565b93505061029760408601610210565b91506102a560608601610210565b905092959194509250565b600181811c908216806102c457607f821691505b6020821081036102e257634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561033a578282111561033a57805f5260205f20601f840160051c602085101561031357505f5b90810190601f840160051c035f5b81811015610336575f83820155600101610321565b5050505b505050565b81516001600160401b0381111561035857610358610173565b61036c8161036684546102b0565b846102e8565b6020601f82116001811461039e575f83156103875750848201515b5f19600385901b1c1916600184901b1784556103f6565b5f84815260208120601f198516915b828110156103cd57878501518255602094850194600190920191016103ad565b50848210156103ea57868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b610b918061040a5f395ff3fe608060405234801561000f575f5ffd5b506004361061011c575f3560e01c806340c10f19116100a957806395d89b411161006e57806395d89b4114610276578063a217fddf1461027e578063a9059cbb14610285578063d547741f14610298578063dd62ed3e146102ab575f5ffd5b806340c10f19146101ee57806342966c681461020157806370a082311461021457806382aefa241461023c57806391d1485414610263575f5ffd5b806323b872dd116100ef57806323b872dd14610182578063248a9ca3146101955780632f2ff15d146101b7578063313ce567146101cc57806336568abe146101db575f5ffd5b806301ffc9a71461012057806306fdde0314610148578063095ea7b31461015d57806318160ddd14610170575b5f5ffd5b61013361012e3660046109a2565b6102e3565b60405190151581526020015b60405180910390f35b610150610319565b60405161013f91906109d0565b61013361016b366004610a20565b6103a9565b6002545b60405190815260200161013f565b610133610190366004610a48565b6103c0565b6101746101a3366004610a82565b5f9081526005602052604090206001015490565b6101ca6101c5366004610a99565b6103e3565b005b6040516004815260200161013f565b6101ca6101e9366004610a99565b61040d565b6101ca6101fc366004610a20565b610445565b6101ca61020f366004610a82565b610479565b610174610222366004610ac3565b6001600160a01b03165f9081526020819052604090205490565b6101747f114e74f6ea3bd819998f78687bfcb11b140da08e9b7d222fa9c1f1ba1f2aa12281565b610133610271366004610a99565b6104b1565b6101506104db565b6101745f81565b610133610293366004610a20565b6104ea565b6101ca6102a6366004610a99565b6104f7565b6101746102b9366004610adc565b6001600160a01b039182165f90815260016020908152604080832093909416825291909152205490565b5f6001600160e01b03198216637965db0b60e01b148061031357506301ffc9a760e01b6001600160e01b03198316145b92915050565b60606003805461032890610b04565b80601f016020809104026020016040519081016040528092919081815260200182805461035490610b04565b801561039f5780601f106103765761010080835404028352916020019161039f565b820191905f5260205f20905b81548152906001019060200180831161038257829003601f168201915b5050505050905090565b5f336103b681858561051b565b5060019392505050565b5f336103cd858285610528565b6103d88585856105a3565b506001949350505050565b5f828152600560205260409020600101546103fd81610600565b610407838361060d565b50505050565b6001600160a01b03811633146104365760405163334bd91960e11b815260040160405180910390fd5b610440828261069e565b505050565b7f114e74f6ea3bd819998f78687bfcb11b140da08e9b7d222fa9c1f1ba1f2aa12261046f81610600565b6104408383610709565b7f114e74f6ea3bd819998f78687bfcb11b140da08e9b7d222fa9c1f1ba1f2aa1226104a381610600565b6104ad338361073d565b5050565b5f9182526005602090815260408084206001600160a01b0393909316845291905290205460ff1690565b60606004805461032890610b04565b5f336103b68185856105a3565b5f8281526005602052604090206001015461051181610600565b610407838361069e565b6104408383836001610771565b6001600160a01b038381165f908152600160209081526040808320938616835292905220545f19811015610407578181101561059557604051637dc7a0d960e11b81526001600160a01b038416600482015260248101829052604481018390526064015b60405180910390fd5b61040784848484035f610771565b6001600160a01b0383166105cc57604051634b637e8f60e11b81525f600482015260240161058c565b6001600160a01b0382166105f55760405163ec442f0560e01b81525f600482015260240161058c565b610440838383610843565b61060a8133610969565b50565b5f61061883836104b1565b610697575f8381526005602090815260408083206001600160a01b03861684529091529020805460ff1916600117905561064f3390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a4506001610313565b505f610313565b5f6106a983836104b1565b15610697575f8381526005602090815260408083206001600160a01b0386168085529252808320805460ff1916905551339286917ff6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b9190a4506001610313565b6001600160a01b0382166107325760405163ec442f0560e01b81525f600482015260240161058c565b6104ad5f8383610843565b6001600160a01b03821661076657604051634b637e8f60e11b81525f600482015260240161058c565b6104ad825f83610843565b6001600160a01b03841661079a5760405163e602df0560e01b81525f600482015260240161058c565b6001600160a01b0383166107c357604051634a1406b160e11b81525f600482015260240161058c565b6001600160a01b038085165f908152600160209081526040808320938716835292905220829055801561040757826001600160a01b0316846001600160a01b03167f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9258460405161083591815260200190565b60405180910390a350505050565b6001600160a01b03831661086d578060025f8282546108629190610b3c565b909155506108dd9050565b6001600160a01b0383165f90815260208190526040902054818110156108bf5760405163391434e360e21b81526001600160a01b0385166004820152602481018290526044810183905260640161058c565b6001600160a01b0384165f9081526020819052604090209082900390555b6001600160a01b0382166108f957600280548290039055610917565b6001600160a01b0382165f9081526020819052604090208054820190555b816001600160a01b0316836001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8360405161095c91815260200190565b60405180910390a3505050565b61097382826104b1565b6104ad5760405163e2517d3f60e01b81526001600160a01b03821660048201526024810183905260440161058c565b5f602082840312156109b2575f5ffd5b81356001600160e01b0319811681146109c9575f5ffd5b9392505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b0381168114610a1b575f5ffd5b919050565b5f5f60408385031215610a31575f5ffd5b610a3a83610a05565b946020939093013593505050565b5f5f5f60608486031215610a5a575f5ffd5b610a6384610a05565b9250610a7160208501610a05565b929592945050506040919091013590565b5f60208284031215610a92575f5ffd5b5035919050565b5f5f60408385031215610aaa575f5ffd5b82359150610aba60208401610a05565b90509250929050565b5f60208284031215610ad3575f5ffd5b6109c982610a05565b5f5f60408385031215610aed575f5ffd5b610af683610a05565b9150610aba60208401610a05565b600181811c90821680610b1857607f821691505b602082108103610b3657634e487b7160e01b5f52602260045260245ffd5b50919050565b8082018082111561031357634e487b7160e01b5f52601160045260245ffdfea264697066735822122097f2eff21ca5b0f9313e91b881639083dbc4f845eec95d41c5dfcfe5e17cfb1564736f6c63430008250033",
}

// CashToken is an auto generated Go binding around an Ethereum contract.
type CashToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *CashToken) GetABI() abi.ABI {
	return c.abi
}

// NewCashToken creates a new instance of CashToken.
func NewCashToken() *CashToken {
	parsed, err := CashTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &CashToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *CashToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_, address admin, address issuer) returns()
func (cashToken *CashToken) PackConstructor(name_ string, symbol_ string, admin common.Address, issuer common.Address) []byte {
	enc, err := cashToken.abi.Pack("", name_, symbol_, admin, issuer)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDEFAULTADMINROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa217fddf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (cashToken *CashToken) PackDEFAULTADMINROLE() []byte {
	enc, err := cashToken.abi.Pack("DEFAULT_ADMIN_ROLE")
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
func (cashToken *CashToken) TryPackDEFAULTADMINROLE() ([]byte, error) {
	return cashToken.abi.Pack("DEFAULT_ADMIN_ROLE")
}

// UnpackDEFAULTADMINROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (cashToken *CashToken) UnpackDEFAULTADMINROLE(data []byte) ([32]byte, error) {
	out, err := cashToken.abi.Unpack("DEFAULT_ADMIN_ROLE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackISSUERROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82aefa24.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function ISSUER_ROLE() view returns(bytes32)
func (cashToken *CashToken) PackISSUERROLE() []byte {
	enc, err := cashToken.abi.Pack("ISSUER_ROLE")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackISSUERROLE is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82aefa24.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function ISSUER_ROLE() view returns(bytes32)
func (cashToken *CashToken) TryPackISSUERROLE() ([]byte, error) {
	return cashToken.abi.Pack("ISSUER_ROLE")
}

// UnpackISSUERROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x82aefa24.
//
// Solidity: function ISSUER_ROLE() view returns(bytes32)
func (cashToken *CashToken) UnpackISSUERROLE(data []byte) ([32]byte, error) {
	out, err := cashToken.abi.Unpack("ISSUER_ROLE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (cashToken *CashToken) PackAllowance(owner common.Address, spender common.Address) []byte {
	enc, err := cashToken.abi.Pack("allowance", owner, spender)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (cashToken *CashToken) TryPackAllowance(owner common.Address, spender common.Address) ([]byte, error) {
	return cashToken.abi.Pack("allowance", owner, spender)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (cashToken *CashToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := cashToken.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (cashToken *CashToken) PackApprove(spender common.Address, value *big.Int) []byte {
	enc, err := cashToken.abi.Pack("approve", spender, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (cashToken *CashToken) TryPackApprove(spender common.Address, value *big.Int) ([]byte, error) {
	return cashToken.abi.Pack("approve", spender, value)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (cashToken *CashToken) UnpackApprove(data []byte) (bool, error) {
	out, err := cashToken.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (cashToken *CashToken) PackBalanceOf(account common.Address) []byte {
	enc, err := cashToken.abi.Pack("balanceOf", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (cashToken *CashToken) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return cashToken.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (cashToken *CashToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := cashToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x42966c68.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function burn(uint256 amount) returns()
func (cashToken *CashToken) PackBurn(amount *big.Int) []byte {
	enc, err := cashToken.abi.Pack("burn", amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x42966c68.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function burn(uint256 amount) returns()
func (cashToken *CashToken) TryPackBurn(amount *big.Int) ([]byte, error) {
	return cashToken.abi.Pack("burn", amount)
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() pure returns(uint8)
func (cashToken *CashToken) PackDecimals() []byte {
	enc, err := cashToken.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() pure returns(uint8)
func (cashToken *CashToken) TryPackDecimals() ([]byte, error) {
	return cashToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (cashToken *CashToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := cashToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackGetRoleAdmin is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x248a9ca3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (cashToken *CashToken) PackGetRoleAdmin(role [32]byte) []byte {
	enc, err := cashToken.abi.Pack("getRoleAdmin", role)
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
func (cashToken *CashToken) TryPackGetRoleAdmin(role [32]byte) ([]byte, error) {
	return cashToken.abi.Pack("getRoleAdmin", role)
}

// UnpackGetRoleAdmin is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (cashToken *CashToken) UnpackGetRoleAdmin(data []byte) ([32]byte, error) {
	out, err := cashToken.abi.Unpack("getRoleAdmin", data)
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
func (cashToken *CashToken) PackGrantRole(role [32]byte, account common.Address) []byte {
	enc, err := cashToken.abi.Pack("grantRole", role, account)
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
func (cashToken *CashToken) TryPackGrantRole(role [32]byte, account common.Address) ([]byte, error) {
	return cashToken.abi.Pack("grantRole", role, account)
}

// PackHasRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x91d14854.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (cashToken *CashToken) PackHasRole(role [32]byte, account common.Address) []byte {
	enc, err := cashToken.abi.Pack("hasRole", role, account)
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
func (cashToken *CashToken) TryPackHasRole(role [32]byte, account common.Address) ([]byte, error) {
	return cashToken.abi.Pack("hasRole", role, account)
}

// UnpackHasRole is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (cashToken *CashToken) UnpackHasRole(data []byte) (bool, error) {
	out, err := cashToken.abi.Unpack("hasRole", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (cashToken *CashToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := cashToken.abi.Pack("mint", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (cashToken *CashToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return cashToken.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (cashToken *CashToken) PackName() []byte {
	enc, err := cashToken.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (cashToken *CashToken) TryPackName() ([]byte, error) {
	return cashToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (cashToken *CashToken) UnpackName(data []byte) (string, error) {
	out, err := cashToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackRenounceRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x36568abe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (cashToken *CashToken) PackRenounceRole(role [32]byte, callerConfirmation common.Address) []byte {
	enc, err := cashToken.abi.Pack("renounceRole", role, callerConfirmation)
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
func (cashToken *CashToken) TryPackRenounceRole(role [32]byte, callerConfirmation common.Address) ([]byte, error) {
	return cashToken.abi.Pack("renounceRole", role, callerConfirmation)
}

// PackRevokeRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd547741f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (cashToken *CashToken) PackRevokeRole(role [32]byte, account common.Address) []byte {
	enc, err := cashToken.abi.Pack("revokeRole", role, account)
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
func (cashToken *CashToken) TryPackRevokeRole(role [32]byte, account common.Address) ([]byte, error) {
	return cashToken.abi.Pack("revokeRole", role, account)
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (cashToken *CashToken) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := cashToken.abi.Pack("supportsInterface", interfaceId)
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
func (cashToken *CashToken) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return cashToken.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (cashToken *CashToken) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := cashToken.abi.Unpack("supportsInterface", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (cashToken *CashToken) PackSymbol() []byte {
	enc, err := cashToken.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (cashToken *CashToken) TryPackSymbol() ([]byte, error) {
	return cashToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (cashToken *CashToken) UnpackSymbol(data []byte) (string, error) {
	out, err := cashToken.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (cashToken *CashToken) PackTotalSupply() []byte {
	enc, err := cashToken.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (cashToken *CashToken) TryPackTotalSupply() ([]byte, error) {
	return cashToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (cashToken *CashToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := cashToken.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (cashToken *CashToken) PackTransfer(to common.Address, value *big.Int) []byte {
	enc, err := cashToken.abi.Pack("transfer", to, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (cashToken *CashToken) TryPackTransfer(to common.Address, value *big.Int) ([]byte, error) {
	return cashToken.abi.Pack("transfer", to, value)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (cashToken *CashToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := cashToken.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (cashToken *CashToken) PackTransferFrom(from common.Address, to common.Address, value *big.Int) []byte {
	enc, err := cashToken.abi.Pack("transferFrom", from, to, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (cashToken *CashToken) TryPackTransferFrom(from common.Address, to common.Address, value *big.Int) ([]byte, error) {
	return cashToken.abi.Pack("transferFrom", from, to, value)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (cashToken *CashToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := cashToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// CashTokenApproval represents a Approval event raised by the CashToken contract.
type CashTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const CashTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (CashTokenApproval) ContractEventName() string {
	return CashTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (cashToken *CashToken) UnpackApprovalEvent(log *types.Log) (*CashTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashTokenApproval)
	if len(log.Data) > 0 {
		if err := cashToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashToken.abi.Events[event].Inputs {
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

// CashTokenRoleAdminChanged represents a RoleAdminChanged event raised by the CashToken contract.
type CashTokenRoleAdminChanged struct {
	Role              [32]byte
	PreviousAdminRole [32]byte
	NewAdminRole      [32]byte
	Raw               *types.Log // Blockchain specific contextual infos
}

const CashTokenRoleAdminChangedEventName = "RoleAdminChanged"

// ContractEventName returns the user-defined event name.
func (CashTokenRoleAdminChanged) ContractEventName() string {
	return CashTokenRoleAdminChangedEventName
}

// UnpackRoleAdminChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (cashToken *CashToken) UnpackRoleAdminChangedEvent(log *types.Log) (*CashTokenRoleAdminChanged, error) {
	event := "RoleAdminChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashTokenRoleAdminChanged)
	if len(log.Data) > 0 {
		if err := cashToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashToken.abi.Events[event].Inputs {
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

// CashTokenRoleGranted represents a RoleGranted event raised by the CashToken contract.
type CashTokenRoleGranted struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const CashTokenRoleGrantedEventName = "RoleGranted"

// ContractEventName returns the user-defined event name.
func (CashTokenRoleGranted) ContractEventName() string {
	return CashTokenRoleGrantedEventName
}

// UnpackRoleGrantedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (cashToken *CashToken) UnpackRoleGrantedEvent(log *types.Log) (*CashTokenRoleGranted, error) {
	event := "RoleGranted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashTokenRoleGranted)
	if len(log.Data) > 0 {
		if err := cashToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashToken.abi.Events[event].Inputs {
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

// CashTokenRoleRevoked represents a RoleRevoked event raised by the CashToken contract.
type CashTokenRoleRevoked struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const CashTokenRoleRevokedEventName = "RoleRevoked"

// ContractEventName returns the user-defined event name.
func (CashTokenRoleRevoked) ContractEventName() string {
	return CashTokenRoleRevokedEventName
}

// UnpackRoleRevokedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (cashToken *CashToken) UnpackRoleRevokedEvent(log *types.Log) (*CashTokenRoleRevoked, error) {
	event := "RoleRevoked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashTokenRoleRevoked)
	if len(log.Data) > 0 {
		if err := cashToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashToken.abi.Events[event].Inputs {
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

// CashTokenTransfer represents a Transfer event raised by the CashToken contract.
type CashTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const CashTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (CashTokenTransfer) ContractEventName() string {
	return CashTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (cashToken *CashToken) UnpackTransferEvent(log *types.Log) (*CashTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != cashToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(CashTokenTransfer)
	if len(log.Data) > 0 {
		if err := cashToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range cashToken.abi.Events[event].Inputs {
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
func (cashToken *CashToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], cashToken.abi.Errors["AccessControlBadConfirmation"].ID.Bytes()[:4]) {
		return cashToken.UnpackAccessControlBadConfirmationError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["AccessControlUnauthorizedAccount"].ID.Bytes()[:4]) {
		return cashToken.UnpackAccessControlUnauthorizedAccountError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["ERC20InsufficientAllowance"].ID.Bytes()[:4]) {
		return cashToken.UnpackERC20InsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["ERC20InsufficientBalance"].ID.Bytes()[:4]) {
		return cashToken.UnpackERC20InsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["ERC20InvalidApprover"].ID.Bytes()[:4]) {
		return cashToken.UnpackERC20InvalidApproverError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["ERC20InvalidReceiver"].ID.Bytes()[:4]) {
		return cashToken.UnpackERC20InvalidReceiverError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["ERC20InvalidSender"].ID.Bytes()[:4]) {
		return cashToken.UnpackERC20InvalidSenderError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["ERC20InvalidSpender"].ID.Bytes()[:4]) {
		return cashToken.UnpackERC20InvalidSpenderError(raw[4:])
	}
	if bytes.Equal(raw[:4], cashToken.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return cashToken.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// CashTokenAccessControlBadConfirmation represents a AccessControlBadConfirmation error raised by the CashToken contract.
type CashTokenAccessControlBadConfirmation struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlBadConfirmation()
func CashTokenAccessControlBadConfirmationErrorID() common.Hash {
	return common.HexToHash("0x6697b23232a647058342c0724fe7c415cab25915b54e5dbc03f233173d37b41c")
}

// UnpackAccessControlBadConfirmationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlBadConfirmation()
func (cashToken *CashToken) UnpackAccessControlBadConfirmationError(raw []byte) (*CashTokenAccessControlBadConfirmation, error) {
	out := new(CashTokenAccessControlBadConfirmation)
	if err := cashToken.abi.UnpackIntoInterface(out, "AccessControlBadConfirmation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenAccessControlUnauthorizedAccount represents a AccessControlUnauthorizedAccount error raised by the CashToken contract.
type CashTokenAccessControlUnauthorizedAccount struct {
	Account    common.Address
	NeededRole [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func CashTokenAccessControlUnauthorizedAccountErrorID() common.Hash {
	return common.HexToHash("0xe2517d3fbfae6f8515ef5ff1ccedc3933ab0cbbda0b492c06eb54ad10ef03b3e")
}

// UnpackAccessControlUnauthorizedAccountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func (cashToken *CashToken) UnpackAccessControlUnauthorizedAccountError(raw []byte) (*CashTokenAccessControlUnauthorizedAccount, error) {
	out := new(CashTokenAccessControlUnauthorizedAccount)
	if err := cashToken.abi.UnpackIntoInterface(out, "AccessControlUnauthorizedAccount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenERC20InsufficientAllowance represents a ERC20InsufficientAllowance error raised by the CashToken contract.
type CashTokenERC20InsufficientAllowance struct {
	Spender   common.Address
	Allowance *big.Int
	Needed    *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)
func CashTokenERC20InsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0xfb8f41b23e99d2101d86da76cdfa87dd51c82ed07d3cb62cbc473e469dbc75c3")
}

// UnpackERC20InsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)
func (cashToken *CashToken) UnpackERC20InsufficientAllowanceError(raw []byte) (*CashTokenERC20InsufficientAllowance, error) {
	out := new(CashTokenERC20InsufficientAllowance)
	if err := cashToken.abi.UnpackIntoInterface(out, "ERC20InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenERC20InsufficientBalance represents a ERC20InsufficientBalance error raised by the CashToken contract.
type CashTokenERC20InsufficientBalance struct {
	Sender  common.Address
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)
func CashTokenERC20InsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xe450d38cd8d9f7d95077d567d60ed49c7254716e6ad08fc9872816c97e0ffec6")
}

// UnpackERC20InsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)
func (cashToken *CashToken) UnpackERC20InsufficientBalanceError(raw []byte) (*CashTokenERC20InsufficientBalance, error) {
	out := new(CashTokenERC20InsufficientBalance)
	if err := cashToken.abi.UnpackIntoInterface(out, "ERC20InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenERC20InvalidApprover represents a ERC20InvalidApprover error raised by the CashToken contract.
type CashTokenERC20InvalidApprover struct {
	Approver common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidApprover(address approver)
func CashTokenERC20InvalidApproverErrorID() common.Hash {
	return common.HexToHash("0xe602df05cc75712490294c6c104ab7c17f4030363910a7a2626411c6d3118847")
}

// UnpackERC20InvalidApproverError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidApprover(address approver)
func (cashToken *CashToken) UnpackERC20InvalidApproverError(raw []byte) (*CashTokenERC20InvalidApprover, error) {
	out := new(CashTokenERC20InvalidApprover)
	if err := cashToken.abi.UnpackIntoInterface(out, "ERC20InvalidApprover", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenERC20InvalidReceiver represents a ERC20InvalidReceiver error raised by the CashToken contract.
type CashTokenERC20InvalidReceiver struct {
	Receiver common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidReceiver(address receiver)
func CashTokenERC20InvalidReceiverErrorID() common.Hash {
	return common.HexToHash("0xec442f055133b72f3b2f9f0bb351c406b178527de2040a7d1feb4e058771f613")
}

// UnpackERC20InvalidReceiverError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidReceiver(address receiver)
func (cashToken *CashToken) UnpackERC20InvalidReceiverError(raw []byte) (*CashTokenERC20InvalidReceiver, error) {
	out := new(CashTokenERC20InvalidReceiver)
	if err := cashToken.abi.UnpackIntoInterface(out, "ERC20InvalidReceiver", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenERC20InvalidSender represents a ERC20InvalidSender error raised by the CashToken contract.
type CashTokenERC20InvalidSender struct {
	Sender common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidSender(address sender)
func CashTokenERC20InvalidSenderErrorID() common.Hash {
	return common.HexToHash("0x96c6fd1edd0cd6ef7ff0ecc0facdf53148dc0048b57fe58af65755250a7a96bd")
}

// UnpackERC20InvalidSenderError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidSender(address sender)
func (cashToken *CashToken) UnpackERC20InvalidSenderError(raw []byte) (*CashTokenERC20InvalidSender, error) {
	out := new(CashTokenERC20InvalidSender)
	if err := cashToken.abi.UnpackIntoInterface(out, "ERC20InvalidSender", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenERC20InvalidSpender represents a ERC20InvalidSpender error raised by the CashToken contract.
type CashTokenERC20InvalidSpender struct {
	Spender common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidSpender(address spender)
func CashTokenERC20InvalidSpenderErrorID() common.Hash {
	return common.HexToHash("0x94280d62c347d8d9f4d59a76ea321452406db88df38e0c9da304f58b57b373a2")
}

// UnpackERC20InvalidSpenderError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidSpender(address spender)
func (cashToken *CashToken) UnpackERC20InvalidSpenderError(raw []byte) (*CashTokenERC20InvalidSpender, error) {
	out := new(CashTokenERC20InvalidSpender)
	if err := cashToken.abi.UnpackIntoInterface(out, "ERC20InvalidSpender", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// CashTokenZeroAddress represents a ZeroAddress error raised by the CashToken contract.
type CashTokenZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func CashTokenZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (cashToken *CashToken) UnpackZeroAddressError(raw []byte) (*CashTokenZeroAddress, error) {
	out := new(CashTokenZeroAddress)
	if err := cashToken.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
