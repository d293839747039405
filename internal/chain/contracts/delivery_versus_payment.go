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

// DeliveryVersusPaymentTrade is an auto generated low-level Go binding around an user-defined struct.
type DeliveryVersusPaymentTrade struct {
	Sellers     []common.Address
	Units       []*big.Int
	SellerCash  []*big.Int
	Buyer       common.Address
	ReleaseTime uint64
	Fee         *big.Int
	FeeTo       common.Address
}

// DeliveryVersusPaymentMetaData contains all meta data concerning the DeliveryVersusPayment contract.
var DeliveryVersusPaymentMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"admin\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AccessControlBadConfirmation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"neededRole\",\"type\":\"bytes32\"}],\"name\":\"AccessControlUnauthorizedAccount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"}],\"name\":\"AlreadyEscrowed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"due\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"escrowed\",\"type\":\"uint256\"}],\"name\":\"CashExceedsEscrow\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"closedIn\",\"type\":\"uint256\"}],\"name\":\"EscrowClosed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"a\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"b\",\"type\":\"uint256\"}],\"name\":\"LengthMismatch\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"}],\"name\":\"NotEscrowed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ReentrancyGuardReentrantCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"SafeERC20FailedOperation\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAmount\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroRef\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"cash\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"CashEscrowed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Refunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"previousAdminRole\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"newAdminRole\",\"type\":\"bytes32\"}],\"name\":\"RoleAdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleGranted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleRevoked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"buyer\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"units\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"paidToSellers\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"fee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"returned\",\"type\":\"uint256\"}],\"name\":\"Swapped\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"AGENT_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"DEFAULT_ADMIN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"contractIERC20\",\"name\":\"cash\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"escrow\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"}],\"name\":\"escrowOf\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"cash\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"closedIn\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"}],\"name\":\"getRoleAdmin\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"grantRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"hasRole\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"}],\"name\":\"refund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"callerConfirmation\",\"type\":\"address\"}],\"name\":\"renounceRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"revokeRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"contractISecondarySettlement\",\"name\":\"share\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"address[]\",\"name\":\"sellers\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"units\",\"type\":\"uint256[]\"},{\"internalType\":\"uint256[]\",\"name\":\"sellerCash\",\"type\":\"uint256[]\"},{\"internalType\":\"address\",\"name\":\"buyer\",\"type\":\"address\"},{\"internalType\":\"uint64\",\"name\":\"releaseTime\",\"type\":\"uint64\"},{\"internalType\":\"uint256\",\"name\":\"fee\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"feeTo\",\"type\":\"address\"}],\"internalType\":\"structDeliveryVersusPayment.Trade\",\"name\":\"t\",\"type\":\"tuple\"}],\"name\":\"swap\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "DeliveryVersusPayment",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161116c38038061116c83398101604081905261002e9161018e565b60017f9b779b17422d0df92223018b32b4d1fa46e071723d6817e2486d003becc55f00556001600160a01b038216158061006f57506001600160a01b038116155b1561008d5760405163d92e233d60e01b815260040160405180910390fd5b6100975f836100ca565b506100c27fcab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb4276950967709826100ca565b5050506101bf565b5f828152602081815260408083206001600160a01b038516845290915281205460ff1661016a575f838152602081815260408083206001600160a01b03861684529091529020805460ff191660011790556101223390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a450600161016d565b505f5b92915050565b80516001600160a01b0381168114610189575f5ffd5b919050565b5f5f6040838503121561019f575f5ffd5b6101a883610173565b91506101b660208401610173565b90509250929050565b610fa0806101cc5f395ff3fe608060405234801561000f575f5ffd5b50600436106100b1575f3560e01c806336568abe1161006e57806336568abe1461016f5780637249fbb61461018257806383a265a71461019557806391d1485414610202578063a217fddf14610215578063d547741f1461021c575f5ffd5b806301ffc9a7146100b55780630267d3c9146100dd57806322459e18146100f2578063248a9ca31461012757806325f7fd37146101495780632f2ff15d1461015c575b5f5ffd5b6100c86100c3366004610cae565b61022f565b60405190151581526020015b60405180910390f35b6100f06100eb366004610ce9565b610265565b005b6101197fcab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb427695096770981565b6040519081526020016100d4565b610119610135366004610d44565b5f9081526020819052604090206001015490565b6100f0610157366004610d5b565b610518565b6100f061016a366004610d90565b6106c4565b6100f061017d366004610d90565b6106e8565b6100f0610190366004610d44565b61071b565b6101d76101a3366004610d44565b5f90815260016020819052604090912080549181015460028201546003909201546001600160a01b03938416949390911692565b604080516001600160a01b0395861681529490931660208501529183015260608201526080016100d4565b6100c8610210366004610d90565b6107e6565b6101195f81565b6100f061022a366004610d90565b61080e565b5f6001600160e01b03198216637965db0b60e01b148061025f57506301ffc9a760e01b6001600160e01b03198316145b92915050565b7fcab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb427695096770961028f81610832565b61029761083f565b5f6102a18561085a565b90505f6102af8683866108ca565b43600384015590506001600160a01b0385166342717ef1876102d18780610dbe565b6102e160808a0160608b01610e0b565b6102ee60208b018b610dbe565b6102fe60a08d0160808e01610e26565b6040518863ffffffff1660e01b81526004016103209796959493929190610e4d565b5f604051808303815f87803b158015610337575f5ffd5b505af1158015610349573d5f5f3e3d5ffd5b505f925050505b61035a8580610dbe565b9050811015610403575f6103716040870187610dbe565b8381811061038157610381610efc565b9050602002013511156103fb576103fb61039b8680610dbe565b838181106103ab576103ab610efc565b90506020020160208101906103c09190610e0b565b6103cd6040880188610dbe565b848181106103dd576103dd610efc565b60018801546001600160a01b031693926020909102013590506109d2565b600101610350565b5060a08401351561043a5761043a61042160e0860160c08701610e0b565b60018401546001600160a01b03169060a08701356109d2565b5f81836002015461044b9190610f24565b905080156104715782546001840154610471916001600160a01b039182169116836109d2565b6104816080860160608701610e0b565b6001600160a01b0316877f0e34e12dd922632823bbb80253a4cf195423891862cd260bc03d59b221fc31a96104c16104bc60208a018a610dbe565b610a07565b6104cf60a08a013587610f24565b60408051928352602083019190915260a08a0135908201526060810185905260800160405180910390a350505061051260015f516020610f4b5f395f51905f5255565b50505050565b61052061083f565b8261053e57604051633e90f4cd60e11b815260040160405180910390fd5b805f0361055e57604051631f2a200560e01b815260040160405180910390fd5b6001600160a01b0382166105855760405163d92e233d60e01b815260040160405180910390fd5b5f838152600160205260409020546001600160a01b0316156105c2576040516313f4245760e21b8152600481018490526024015b60405180910390fd5b60405180608001604052806105d43390565b6001600160a01b03908116825284811660208084019190915260408084018690525f6060948501819052888152600180845290829020865181549086166001600160a01b03199182161782559387015191810180549290951691909316179092559083015160028201559101516003909101556106636106513390565b6001600160a01b038416903084610a47565b604080516001600160a01b038416815260208101839052339185917f7917b7f2b75083150d65d58a3bd612f7fba6aa3ff58cced63c7348fd0928f040910160405180910390a36106bf60015f516020610f4b5f395f51905f5255565b505050565b5f828152602081905260409020600101546106de81610832565b6105128383610a7d565b6001600160a01b03811633146107115760405163334bd91960e11b815260040160405180910390fd5b6106bf8282610b0c565b7fcab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb427695096770961074581610832565b61074d61083f565b5f6107578361085a565b436003820155805460028201546001830154929350610783926001600160a01b039081169216906109d2565b805460028201546040519081526001600160a01b039091169084907ff552ca82e113ac3c539c3d617f29fcd19c172a0c75dad017555c9e109f7fe1839060200160405180910390a3506107e260015f516020610f4b5f395f51905f5255565b5050565b5f918252602082815260408084206001600160a01b0393909316845291905290205460ff1690565b5f8281526020819052604090206001015461082881610832565b6105128383610b0c565b61083c8133610b75565b50565b610847610bae565b60025f516020610f4b5f395f51905f5255565b5f81815260016020526040902080546001600160a01b0316610892576040516379853e4f60e11b8152600481018390526024016105b9565b6003810154156108c55760038101546040516347eee7ff60e01b81526105b9918491600401918252602082015260400190565b919050565b5f6108d86040830183610dbe565b90506108e48380610dbe565b905014610927576108f58280610dbe565b90506109046040840184610dbe565b6040516355c5b3e360e11b815260048101939093526024830152506044016105b9565b5f8260a0013511801561095157505f61094660e0840160c08501610e0b565b6001600160a01b0316145b1561096f5760405163d92e233d60e01b815260040160405180910390fd5b61097f6104bc6040840184610dbe565b61098d9060a0840135610f37565b905082600201548111156109cb5760028301546040516364e94b1560e01b8152600481018690526024810183905260448101919091526064016105b9565b9392505050565b6109df8383836001610bdf565b6106bf57604051635274afe760e01b81526001600160a01b03841660048201526024016105b9565b5f805b82811015610a4057838382818110610a2457610a24610efc565b9050602002013582610a369190610f37565b9150600101610a0a565b5092915050565b610a55848484846001610c41565b61051257604051635274afe760e01b81526001600160a01b03851660048201526024016105b9565b5f610a8883836107e6565b610b05575f838152602081815260408083206001600160a01b03861684529091529020805460ff19166001179055610abd3390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a450600161025f565b505f61025f565b5f610b1783836107e6565b15610b05575f838152602081815260408083206001600160a01b0386168085529252808320805460ff1916905551339286917ff6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b9190a450600161025f565b610b7f82826107e6565b6107e25760405163e2517d3f60e01b81526001600160a01b0382166004820152602481018390526044016105b9565b5f516020610f4b5f395f51905f5254600203610bdd57604051633ee5aeb560e01b815260040160405180910390fd5b565b60405163a9059cbb60e01b5f8181526001600160a01b038616600452602485905291602083604481808b5af1925060015f51148316610c35578383151615610c29573d5f823e3d81fd5b5f873b113d1516831692505b60405250949350505050565b6040516323b872dd60e01b5f8181526001600160a01b038781166004528616602452604485905291602083606481808c5af1925060015f51148316610c9d578383151615610c91573d5f823e3d81fd5b5f883b113d1516831692505b604052505f60605295945050505050565b5f60208284031215610cbe575f5ffd5b81356001600160e01b0319811681146109cb575f5ffd5b6001600160a01b038116811461083c575f5ffd5b5f5f5f60608486031215610cfb575f5ffd5b833592506020840135610d0d81610cd5565b9150604084013567ffffffffffffffff811115610d28575f5ffd5b840160e08187031215610d39575f5ffd5b809150509250925092565b5f60208284031215610d54575f5ffd5b5035919050565b5f5f5f60608486031215610d6d575f5ffd5b833592506020840135610d7f81610cd5565b929592945050506040919091013590565b5f5f60408385031215610da1575f5ffd5b823591506020830135610db381610cd5565b809150509250929050565b5f5f8335601e19843603018112610dd3575f5ffd5b83018035915067ffffffffffffffff821115610ded575f5ffd5b6020019150600581901b3603821315610e04575f5ffd5b9250929050565b5f60208284031215610e1b575f5ffd5b81356109cb81610cd5565b5f60208284031215610e36575f5ffd5b813567ffffffffffffffff811681146109cb575f5ffd5b87815260a06020820181905281018690525f8760c08301825b89811015610e96578235610e7981610cd5565b6001600160a01b0316825260209283019290910190600101610e66565b506001600160a01b038816604085015283810360608501528581525f91506001600160fb1b03861115610ec7575f5ffd5b8560051b80886020840137016020019150610ef09050608083018467ffffffffffffffff169052565b98975050505050505050565b634e487b7160e01b5f52603260045260245ffd5b634e487b7160e01b5f52601160045260245ffd5b8181038181111561025f5761025f610f10565b8082018082111561025f5761025f610f1056fe9b779b17422d0df92223018b32b4d1fa46e071723d6817e2486d003becc55f00a26469706673582212203906334eb399cc3d6d5c1adebfe7d2915c427d83274bfe769709f5d42fa85bac64736f6c63430008250033",
}

// DeliveryVersusPayment is an auto generated Go binding around an Ethereum contract.
type DeliveryVersusPayment struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *DeliveryVersusPayment) GetABI() abi.ABI {
	return c.abi
}

// NewDeliveryVersusPayment creates a new instance of DeliveryVersusPayment.
func NewDeliveryVersusPayment() *DeliveryVersusPayment {
	parsed, err := DeliveryVersusPaymentMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &DeliveryVersusPayment{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *DeliveryVersusPayment) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address admin, address agent) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) PackConstructor(admin common.Address, agent common.Address) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("", admin, agent)
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
func (deliveryVersusPayment *DeliveryVersusPayment) PackAGENTROLE() []byte {
	enc, err := deliveryVersusPayment.abi.Pack("AGENT_ROLE")
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackAGENTROLE() ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("AGENT_ROLE")
}

// UnpackAGENTROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x22459e18.
//
// Solidity: function AGENT_ROLE() view returns(bytes32)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackAGENTROLE(data []byte) ([32]byte, error) {
	out, err := deliveryVersusPayment.abi.Unpack("AGENT_ROLE", data)
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
func (deliveryVersusPayment *DeliveryVersusPayment) PackDEFAULTADMINROLE() []byte {
	enc, err := deliveryVersusPayment.abi.Pack("DEFAULT_ADMIN_ROLE")
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackDEFAULTADMINROLE() ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("DEFAULT_ADMIN_ROLE")
}

// UnpackDEFAULTADMINROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackDEFAULTADMINROLE(data []byte) ([32]byte, error) {
	out, err := deliveryVersusPayment.abi.Unpack("DEFAULT_ADMIN_ROLE", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackEscrow is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x25f7fd37.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function escrow(bytes32 ref, address cash, uint256 amount) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) PackEscrow(ref [32]byte, cash common.Address, amount *big.Int) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("escrow", ref, cash, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEscrow is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x25f7fd37.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function escrow(bytes32 ref, address cash, uint256 amount) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackEscrow(ref [32]byte, cash common.Address, amount *big.Int) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("escrow", ref, cash, amount)
}

// PackEscrowOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x83a265a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function escrowOf(bytes32 ref) view returns(address payer, address cash, uint256 amount, uint256 closedIn)
func (deliveryVersusPayment *DeliveryVersusPayment) PackEscrowOf(ref [32]byte) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("escrowOf", ref)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEscrowOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x83a265a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function escrowOf(bytes32 ref) view returns(address payer, address cash, uint256 amount, uint256 closedIn)
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackEscrowOf(ref [32]byte) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("escrowOf", ref)
}

// EscrowOfOutput serves as a container for the return parameters of contract
// method EscrowOf.
type EscrowOfOutput struct {
	Payer    common.Address
	Cash     common.Address
	Amount   *big.Int
	ClosedIn *big.Int
}

// UnpackEscrowOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x83a265a7.
//
// Solidity: function escrowOf(bytes32 ref) view returns(address payer, address cash, uint256 amount, uint256 closedIn)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackEscrowOf(data []byte) (EscrowOfOutput, error) {
	out, err := deliveryVersusPayment.abi.Unpack("escrowOf", data)
	outstruct := new(EscrowOfOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Payer = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.Cash = *abi.ConvertType(out[1], new(common.Address)).(*common.Address)
	outstruct.Amount = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.ClosedIn = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackGetRoleAdmin is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x248a9ca3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (deliveryVersusPayment *DeliveryVersusPayment) PackGetRoleAdmin(role [32]byte) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("getRoleAdmin", role)
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackGetRoleAdmin(role [32]byte) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("getRoleAdmin", role)
}

// UnpackGetRoleAdmin is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackGetRoleAdmin(data []byte) ([32]byte, error) {
	out, err := deliveryVersusPayment.abi.Unpack("getRoleAdmin", data)
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
func (deliveryVersusPayment *DeliveryVersusPayment) PackGrantRole(role [32]byte, account common.Address) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("grantRole", role, account)
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackGrantRole(role [32]byte, account common.Address) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("grantRole", role, account)
}

// PackHasRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x91d14854.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (deliveryVersusPayment *DeliveryVersusPayment) PackHasRole(role [32]byte, account common.Address) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("hasRole", role, account)
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackHasRole(role [32]byte, account common.Address) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("hasRole", role, account)
}

// UnpackHasRole is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackHasRole(data []byte) (bool, error) {
	out, err := deliveryVersusPayment.abi.Unpack("hasRole", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7249fbb6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refund(bytes32 ref) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) PackRefund(ref [32]byte) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("refund", ref)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7249fbb6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refund(bytes32 ref) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackRefund(ref [32]byte) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("refund", ref)
}

// PackRenounceRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x36568abe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) PackRenounceRole(role [32]byte, callerConfirmation common.Address) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("renounceRole", role, callerConfirmation)
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackRenounceRole(role [32]byte, callerConfirmation common.Address) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("renounceRole", role, callerConfirmation)
}

// PackRevokeRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd547741f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) PackRevokeRole(role [32]byte, account common.Address) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("revokeRole", role, account)
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackRevokeRole(role [32]byte, account common.Address) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("revokeRole", role, account)
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (deliveryVersusPayment *DeliveryVersusPayment) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("supportsInterface", interfaceId)
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
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := deliveryVersusPayment.abi.Unpack("supportsInterface", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0267d3c9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function swap(bytes32 ref, address share, (address[],uint256[],uint256[],address,uint64,uint256,address) t) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) PackSwap(ref [32]byte, share common.Address, t DeliveryVersusPaymentTrade) []byte {
	enc, err := deliveryVersusPayment.abi.Pack("swap", ref, share, t)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0267d3c9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function swap(bytes32 ref, address share, (address[],uint256[],uint256[],address,uint64,uint256,address) t) returns()
func (deliveryVersusPayment *DeliveryVersusPayment) TryPackSwap(ref [32]byte, share common.Address, t DeliveryVersusPaymentTrade) ([]byte, error) {
	return deliveryVersusPayment.abi.Pack("swap", ref, share, t)
}

// DeliveryVersusPaymentCashEscrowed represents a CashEscrowed event raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentCashEscrowed struct {
	Ref    [32]byte
	Payer  common.Address
	Cash   common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const DeliveryVersusPaymentCashEscrowedEventName = "CashEscrowed"

// ContractEventName returns the user-defined event name.
func (DeliveryVersusPaymentCashEscrowed) ContractEventName() string {
	return DeliveryVersusPaymentCashEscrowedEventName
}

// UnpackCashEscrowedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event CashEscrowed(bytes32 indexed ref, address indexed payer, address cash, uint256 amount)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackCashEscrowedEvent(log *types.Log) (*DeliveryVersusPaymentCashEscrowed, error) {
	event := "CashEscrowed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != deliveryVersusPayment.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DeliveryVersusPaymentCashEscrowed)
	if len(log.Data) > 0 {
		if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range deliveryVersusPayment.abi.Events[event].Inputs {
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

// DeliveryVersusPaymentRefunded represents a Refunded event raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentRefunded struct {
	Ref    [32]byte
	Payer  common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const DeliveryVersusPaymentRefundedEventName = "Refunded"

// ContractEventName returns the user-defined event name.
func (DeliveryVersusPaymentRefunded) ContractEventName() string {
	return DeliveryVersusPaymentRefundedEventName
}

// UnpackRefundedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Refunded(bytes32 indexed ref, address indexed payer, uint256 amount)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackRefundedEvent(log *types.Log) (*DeliveryVersusPaymentRefunded, error) {
	event := "Refunded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != deliveryVersusPayment.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DeliveryVersusPaymentRefunded)
	if len(log.Data) > 0 {
		if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range deliveryVersusPayment.abi.Events[event].Inputs {
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

// DeliveryVersusPaymentRoleAdminChanged represents a RoleAdminChanged event raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentRoleAdminChanged struct {
	Role              [32]byte
	PreviousAdminRole [32]byte
	NewAdminRole      [32]byte
	Raw               *types.Log // Blockchain specific contextual infos
}

const DeliveryVersusPaymentRoleAdminChangedEventName = "RoleAdminChanged"

// ContractEventName returns the user-defined event name.
func (DeliveryVersusPaymentRoleAdminChanged) ContractEventName() string {
	return DeliveryVersusPaymentRoleAdminChangedEventName
}

// UnpackRoleAdminChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackRoleAdminChangedEvent(log *types.Log) (*DeliveryVersusPaymentRoleAdminChanged, error) {
	event := "RoleAdminChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != deliveryVersusPayment.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DeliveryVersusPaymentRoleAdminChanged)
	if len(log.Data) > 0 {
		if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range deliveryVersusPayment.abi.Events[event].Inputs {
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

// DeliveryVersusPaymentRoleGranted represents a RoleGranted event raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentRoleGranted struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const DeliveryVersusPaymentRoleGrantedEventName = "RoleGranted"

// ContractEventName returns the user-defined event name.
func (DeliveryVersusPaymentRoleGranted) ContractEventName() string {
	return DeliveryVersusPaymentRoleGrantedEventName
}

// UnpackRoleGrantedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackRoleGrantedEvent(log *types.Log) (*DeliveryVersusPaymentRoleGranted, error) {
	event := "RoleGranted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != deliveryVersusPayment.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DeliveryVersusPaymentRoleGranted)
	if len(log.Data) > 0 {
		if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range deliveryVersusPayment.abi.Events[event].Inputs {
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

// DeliveryVersusPaymentRoleRevoked represents a RoleRevoked event raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentRoleRevoked struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const DeliveryVersusPaymentRoleRevokedEventName = "RoleRevoked"

// ContractEventName returns the user-defined event name.
func (DeliveryVersusPaymentRoleRevoked) ContractEventName() string {
	return DeliveryVersusPaymentRoleRevokedEventName
}

// UnpackRoleRevokedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackRoleRevokedEvent(log *types.Log) (*DeliveryVersusPaymentRoleRevoked, error) {
	event := "RoleRevoked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != deliveryVersusPayment.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DeliveryVersusPaymentRoleRevoked)
	if len(log.Data) > 0 {
		if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range deliveryVersusPayment.abi.Events[event].Inputs {
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

// DeliveryVersusPaymentSwapped represents a Swapped event raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentSwapped struct {
	Ref           [32]byte
	Buyer         common.Address
	Units         *big.Int
	PaidToSellers *big.Int
	Fee           *big.Int
	Returned      *big.Int
	Raw           *types.Log // Blockchain specific contextual infos
}

const DeliveryVersusPaymentSwappedEventName = "Swapped"

// ContractEventName returns the user-defined event name.
func (DeliveryVersusPaymentSwapped) ContractEventName() string {
	return DeliveryVersusPaymentSwappedEventName
}

// UnpackSwappedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Swapped(bytes32 indexed ref, address indexed buyer, uint256 units, uint256 paidToSellers, uint256 fee, uint256 returned)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackSwappedEvent(log *types.Log) (*DeliveryVersusPaymentSwapped, error) {
	event := "Swapped"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != deliveryVersusPayment.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DeliveryVersusPaymentSwapped)
	if len(log.Data) > 0 {
		if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range deliveryVersusPayment.abi.Events[event].Inputs {
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
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["AccessControlBadConfirmation"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackAccessControlBadConfirmationError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["AccessControlUnauthorizedAccount"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackAccessControlUnauthorizedAccountError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["AlreadyEscrowed"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackAlreadyEscrowedError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["CashExceedsEscrow"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackCashExceedsEscrowError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["EscrowClosed"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackEscrowClosedError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["LengthMismatch"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackLengthMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["NotEscrowed"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackNotEscrowedError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["ReentrancyGuardReentrantCall"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackReentrancyGuardReentrantCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["SafeERC20FailedOperation"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackSafeERC20FailedOperationError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackZeroAddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["ZeroAmount"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackZeroAmountError(raw[4:])
	}
	if bytes.Equal(raw[:4], deliveryVersusPayment.abi.Errors["ZeroRef"].ID.Bytes()[:4]) {
		return deliveryVersusPayment.UnpackZeroRefError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// DeliveryVersusPaymentAccessControlBadConfirmation represents a AccessControlBadConfirmation error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentAccessControlBadConfirmation struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlBadConfirmation()
func DeliveryVersusPaymentAccessControlBadConfirmationErrorID() common.Hash {
	return common.HexToHash("0x6697b23232a647058342c0724fe7c415cab25915b54e5dbc03f233173d37b41c")
}

// UnpackAccessControlBadConfirmationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlBadConfirmation()
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackAccessControlBadConfirmationError(raw []byte) (*DeliveryVersusPaymentAccessControlBadConfirmation, error) {
	out := new(DeliveryVersusPaymentAccessControlBadConfirmation)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "AccessControlBadConfirmation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentAccessControlUnauthorizedAccount represents a AccessControlUnauthorizedAccount error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentAccessControlUnauthorizedAccount struct {
	Account    common.Address
	NeededRole [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func DeliveryVersusPaymentAccessControlUnauthorizedAccountErrorID() common.Hash {
	return common.HexToHash("0xe2517d3fbfae6f8515ef5ff1ccedc3933ab0cbbda0b492c06eb54ad10ef03b3e")
}

// UnpackAccessControlUnauthorizedAccountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackAccessControlUnauthorizedAccountError(raw []byte) (*DeliveryVersusPaymentAccessControlUnauthorizedAccount, error) {
	out := new(DeliveryVersusPaymentAccessControlUnauthorizedAccount)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "AccessControlUnauthorizedAccount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentAlreadyEscrowed represents a AlreadyEscrowed error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentAlreadyEscrowed struct {
	Ref [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AlreadyEscrowed(bytes32 ref)
func DeliveryVersusPaymentAlreadyEscrowedErrorID() common.Hash {
	return common.HexToHash("0x4fd0915c4d14ff523434066ba63ddbdf47f052c30510bd992edac4202ebc8c85")
}

// UnpackAlreadyEscrowedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AlreadyEscrowed(bytes32 ref)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackAlreadyEscrowedError(raw []byte) (*DeliveryVersusPaymentAlreadyEscrowed, error) {
	out := new(DeliveryVersusPaymentAlreadyEscrowed)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "AlreadyEscrowed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentCashExceedsEscrow represents a CashExceedsEscrow error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentCashExceedsEscrow struct {
	Ref      [32]byte
	Due      *big.Int
	Escrowed *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error CashExceedsEscrow(bytes32 ref, uint256 due, uint256 escrowed)
func DeliveryVersusPaymentCashExceedsEscrowErrorID() common.Hash {
	return common.HexToHash("0x64e94b1549ab6ec4a1b4510dcd3ba925d162aebe59389c1004f068f646e38d3f")
}

// UnpackCashExceedsEscrowError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error CashExceedsEscrow(bytes32 ref, uint256 due, uint256 escrowed)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackCashExceedsEscrowError(raw []byte) (*DeliveryVersusPaymentCashExceedsEscrow, error) {
	out := new(DeliveryVersusPaymentCashExceedsEscrow)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "CashExceedsEscrow", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentEscrowClosed represents a EscrowClosed error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentEscrowClosed struct {
	Ref      [32]byte
	ClosedIn *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error EscrowClosed(bytes32 ref, uint256 closedIn)
func DeliveryVersusPaymentEscrowClosedErrorID() common.Hash {
	return common.HexToHash("0x47eee7ff87f395f46e8318f96d55f71b28b1f4798ec5440d7781b1a8ca0715cc")
}

// UnpackEscrowClosedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error EscrowClosed(bytes32 ref, uint256 closedIn)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackEscrowClosedError(raw []byte) (*DeliveryVersusPaymentEscrowClosed, error) {
	out := new(DeliveryVersusPaymentEscrowClosed)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "EscrowClosed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentLengthMismatch represents a LengthMismatch error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentLengthMismatch struct {
	A *big.Int
	B *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error LengthMismatch(uint256 a, uint256 b)
func DeliveryVersusPaymentLengthMismatchErrorID() common.Hash {
	return common.HexToHash("0xab8b67c6893c59617ef3ba4b4b942e9791f2572db2fdb32028356532f3b7396a")
}

// UnpackLengthMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error LengthMismatch(uint256 a, uint256 b)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackLengthMismatchError(raw []byte) (*DeliveryVersusPaymentLengthMismatch, error) {
	out := new(DeliveryVersusPaymentLengthMismatch)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "LengthMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentNotEscrowed represents a NotEscrowed error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentNotEscrowed struct {
	Ref [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotEscrowed(bytes32 ref)
func DeliveryVersusPaymentNotEscrowedErrorID() common.Hash {
	return common.HexToHash("0xf30a7c9ef5084b95e16b8d12bfc2a4ed6c1d6b29396da137abd5d3856f5a8c06")
}

// UnpackNotEscrowedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotEscrowed(bytes32 ref)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackNotEscrowedError(raw []byte) (*DeliveryVersusPaymentNotEscrowed, error) {
	out := new(DeliveryVersusPaymentNotEscrowed)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "NotEscrowed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentReentrancyGuardReentrantCall represents a ReentrancyGuardReentrantCall error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentReentrancyGuardReentrantCall struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ReentrancyGuardReentrantCall()
func DeliveryVersusPaymentReentrancyGuardReentrantCallErrorID() common.Hash {
	return common.HexToHash("0x3ee5aeb571de7fc460830b4d0017439a1ca56fb0bc39062227ade4fe4a24c1ca")
}

// UnpackReentrancyGuardReentrantCallError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ReentrancyGuardReentrantCall()
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackReentrancyGuardReentrantCallError(raw []byte) (*DeliveryVersusPaymentReentrancyGuardReentrantCall, error) {
	out := new(DeliveryVersusPaymentReentrancyGuardReentrantCall)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "ReentrancyGuardReentrantCall", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentSafeERC20FailedOperation represents a SafeERC20FailedOperation error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentSafeERC20FailedOperation struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SafeERC20FailedOperation(address token)
func DeliveryVersusPaymentSafeERC20FailedOperationErrorID() common.Hash {
	return common.HexToHash("0x5274afe73c98b4749fc91ffae6b7b574e7842cb2144a159e9377a5f20b32edf9")
}

// UnpackSafeERC20FailedOperationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SafeERC20FailedOperation(address token)
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackSafeERC20FailedOperationError(raw []byte) (*DeliveryVersusPaymentSafeERC20FailedOperation, error) {
	out := new(DeliveryVersusPaymentSafeERC20FailedOperation)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "SafeERC20FailedOperation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentZeroAddress represents a ZeroAddress error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func DeliveryVersusPaymentZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackZeroAddressError(raw []byte) (*DeliveryVersusPaymentZeroAddress, error) {
	out := new(DeliveryVersusPaymentZeroAddress)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentZeroAmount represents a ZeroAmount error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentZeroAmount struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAmount()
func DeliveryVersusPaymentZeroAmountErrorID() common.Hash {
	return common.HexToHash("0x1f2a2005cb66a8e145327e8814e243a0996aec9bfe1e15a495778b1236dbd485")
}

// UnpackZeroAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAmount()
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackZeroAmountError(raw []byte) (*DeliveryVersusPaymentZeroAmount, error) {
	out := new(DeliveryVersusPaymentZeroAmount)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "ZeroAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DeliveryVersusPaymentZeroRef represents a ZeroRef error raised by the DeliveryVersusPayment contract.
type DeliveryVersusPaymentZeroRef struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroRef()
func DeliveryVersusPaymentZeroRefErrorID() common.Hash {
	return common.HexToHash("0x7d21e99a8efbe9dbad0cfdc788ace58f3a65d66ee77135ee620e207eb1be1ecf")
}

// UnpackZeroRefError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroRef()
func (deliveryVersusPayment *DeliveryVersusPayment) UnpackZeroRefError(raw []byte) (*DeliveryVersusPaymentZeroRef, error) {
	out := new(DeliveryVersusPaymentZeroRef)
	if err := deliveryVersusPayment.abi.UnpackIntoInterface(out, "ZeroRef", raw); err != nil {
		return nil, err
	}
	return out, nil
}
