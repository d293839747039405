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

// ShareTokenMetaData contains all meta data concerning the ShareToken contract.
var ShareTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"},{\"internalType\":\"address\",\"name\":\"identityRegistry_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"admin\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AccessControlBadConfirmation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"neededRole\",\"type\":\"bytes32\"}],\"name\":\"AccessControlUnauthorizedAccount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"wallets\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amounts\",\"type\":\"uint256\"}],\"name\":\"BatchLengthMismatch\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"allowance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"approver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidApprover\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidReceiver\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSender\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSpender\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"EnforcedPause\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ExpectedPause\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"registry\",\"type\":\"address\"}],\"name\":\"InvalidIdentityRegistry\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"NotVerified\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"WalletFrozen\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"bool\",\"name\":\"frozen\",\"type\":\"bool\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"AddressFrozen\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"ForcedTransfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previous\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"IdentityRegistrySet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Paused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"previousAdminRole\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"newAdminRole\",\"type\":\"bytes32\"}],\"name\":\"RoleAdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleGranted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleRevoked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Unpaused\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"AGENT_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"DEFAULT_ADMIN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"from\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"}],\"name\":\"batchBurn\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"to\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"}],\"name\":\"batchMint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"burn\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"canTransfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"forcedTransfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"}],\"name\":\"getRoleAdmin\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"grantRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"hasRole\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"identityRegistry\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"isFrozen\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"paused\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"callerConfirmation\",\"type\":\"address\"}],\"name\":\"renounceRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"revokeRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"frozen\",\"type\":\"bool\"}],\"name\":\"setAddressFrozen\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"registry\",\"type\":\"address\"}],\"name\":\"setIdentityRegistry\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"unpause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "ShareToken",
	Bin: "0x608060405234801561000f575f5ffd5b50604051611b14380380611b1483398101604081905261002e916102d4565b8484600361003c83826103f8565b50600461004982826103f8565b5050506001600160a01b038216158061006957506001600160a01b038116155b156100875760405163d92e233d60e01b815260040160405180910390fd5b6100915f836100d0565b506100bc7fcab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb4276950967709826100d0565b506100c68361017d565b50505050506104b6565b5f8281526005602090815260408083206001600160a01b038516845290915281205460ff16610174575f8381526005602090815260408083206001600160a01b03861684529091529020805460ff1916600117905561012c3390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a4506001610177565b505f5b92915050565b806001600160a01b03163b5f036101b6576040516328b4083160e21b81526001600160a01b038216600482015260240160405180910390fd5b6006546040516001600160a01b0380841692610100900416907f47c658e751c7ab06879121698e750afeeb24987b5f585894621fd6db318ae0f8905f90a3600680546001600160a01b0390921661010002610100600160a81b0319909216919091179055565b634e487b7160e01b5f52604160045260245ffd5b5f82601f83011261023f575f5ffd5b81516001600160401b038111156102585761025861021c565b604051601f8201601f19908116603f011681016001600160401b03811182821017156102865761028661021c565b60405281815283820160200185101561029d575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160a01b03811681146102cf575f5ffd5b919050565b5f5f5f5f5f60a086880312156102e8575f5ffd5b85516001600160401b038111156102fd575f5ffd5b61030988828901610230565b602088015190965090506001600160401b03811115610326575f5ffd5b61033288828901610230565b945050610341604087016102b9565b925061034f606087016102b9565b915061035d608087016102b9565b90509295509295909350565b600181811c9082168061037d57607f821691505b60208210810361039b57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f8211156103f357828211156103f357805f5260205f20601f840160051c60208510156103cc57505f5b90810190601f840160051c035f5b818110156103ef575f838201556001016103da565b5050505b505050565b81516001600160401b038111156104115761041161021c565b6104258161041f8454610369565b846103a1565b6020601f821160018114610457575f83156104405750848201515b5f19600385901b1c1916600184901b1784556104af565b5f84815260208120601f198516915b828110156104865787850151825560209485019460019092019101610466565b50848210156104a357868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b611651806104c35f395ff3fe608060405234801561000f575f5ffd5b50600436106101d1575f3560e01c806368573107116100fe578063a217fddf1161009e578063d547741f1161006e578063d547741f146103dc578063dd62ed3e146103ef578063e46638e614610427578063e58398361461043a575f5ffd5b8063a217fddf1461039c578063a9059cbb146103a3578063c69c09cf146103b6578063cbf3f861146103c9575f5ffd5b806391d14854116100d957806391d148541461035b57806395d89b411461036e5780639dc29fac146103765780639fc1d0e714610389575f5ffd5b8063685731071461031857806370a082311461032b5780638456cb5914610353575f5ffd5b8063248a9ca3116101745780633f4ba83a116101445780633f4ba83a146102df57806340c10f19146102e75780634a6cc677146102fa5780635c975abb1461030d575f5ffd5b8063248a9ca3146102875780632f2ff15d146102a9578063313ce567146102be57806336568abe146102cc575f5ffd5b8063134e18f4116101af578063134e18f41461022557806318160ddd1461024e57806322459e181461026057806323b872dd14610274575f5ffd5b806301ffc9a7146101d557806306fdde03146101fd578063095ea7b314610212575b5f5ffd5b6101e86101e3366004611324565b610465565b60405190151581526020015b60405180910390f35b61020561049b565b6040516101f4919061134b565b6101e861022036600461139b565b61052b565b60065461010090046001600160a01b03166040516001600160a01b0390911681526020016101f4565b6002545b6040519081526020016101f4565b6102525f5160206115fc5f395f51905f5281565b6101e86102823660046113c3565b610542565b6102526102953660046113fd565b5f9081526005602052604090206001015490565b6102bc6102b7366004611414565b610567565b005b6040515f81526020016101f4565b6102bc6102da366004611414565b610591565b6102bc6105c9565b6102bc6102f536600461139b565b6105eb565b6102bc610308366004611486565b61060c565b60065460ff166101e8565b6102bc610326366004611486565b6106b4565b6102526103393660046114f2565b6001600160a01b03165f9081526020819052604090205490565b6102bc61074f565b6101e8610369366004611414565b61076e565b610205610798565b6102bc61038436600461139b565b6107a7565b6101e86103973660046113c3565b6107c8565b6102525f81565b6101e86103b136600461139b565b610883565b6102bc6103c4366004611518565b610890565b6102bc6103d73660046114f2565b610923565b6102bc6103ea366004611414565b61093a565b6102526103fd36600461154d565b6001600160a01b039182165f90815260016020908152604080832093909416825291909152205490565b6101e86104353660046113c3565b61095e565b6101e86104483660046114f2565b6001600160a01b03165f9081526007602052604090205460ff1690565b5f6001600160e01b03198216637965db0b60e01b148061049557506301ffc9a760e01b6001600160e01b03198316145b92915050565b6060600380546104aa90611575565b80601f01602080910402602001604051908101604052809291908181526020018280546104d690611575565b80156105215780601f106104f857610100808354040283529160200191610521565b820191905f5260205f20905b81548152906001019060200180831161050457829003601f168201915b5050505050905090565b5f33610538818585610b00565b5060019392505050565b5f3361054f858285610b0d565b61055a858585610b83565b60019150505b9392505050565b5f8281526005602052604090206001015461058181610be0565b61058b8383610bea565b50505050565b6001600160a01b03811633146105ba5760405163334bd91960e11b815260040160405180910390fd5b6105c48282610c7b565b505050565b5f5160206115fc5f395f51905f526105e081610be0565b6105e8610ce6565b50565b5f5160206115fc5f395f51905f5261060281610be0565b6105c48383610d38565b5f5160206115fc5f395f51905f5261062381610be0565b838214610652576040516381b5b20760e01b815260048101859052602481018390526044015b60405180910390fd5b5f5b848110156106ac576106a4868683818110610671576106716115ad565b905060200201602081019061068691906114f2565b858584818110610698576106986115ad565b90506020020135610d6c565b600101610654565b505050505050565b5f5160206115fc5f395f51905f526106cb81610be0565b8382146106f5576040516381b5b20760e01b81526004810185905260248101839052604401610649565b5f5b848110156106ac57610747868683818110610714576107146115ad565b905060200201602081019061072991906114f2565b85858481811061073b5761073b6115ad565b90506020020135610d38565b6001016106f7565b5f5160206115fc5f395f51905f5261076681610be0565b6105e8610da0565b5f9182526005602090815260408084206001600160a01b0393909316845291905290205460ff1690565b6060600480546104aa90611575565b5f5160206115fc5f395f51905f526107be81610be0565b6105c48383610d6c565b5f5f5160206115fc5f395f51905f526107e081610be0565b6001600160a01b0385166108075760405163d92e233d60e01b815260040160405180910390fd5b61081084610ddd565b61081b858585610ee2565b836001600160a01b0316856001600160a01b03167f31a05a6a55253f32ca1a2eae200ad7ddf38d17e9f6e0535e9a85ab4a218aeaa3856108583390565b604080519283526001600160a01b0390911660208301520160405180910390a3506001949350505050565b5f33610538818585610b83565b5f5160206115fc5f395f51905f526108a781610be0565b6001600160a01b0383166108ce5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0383165f81815260076020526040808220805460ff19168615159081179091559051339391927f7fa523c84ab8d7fc5b72f08b9e46dbbf10c39e119a075b3e317002d14bc9f43691a4505050565b5f61092d81610be0565b61093682611008565b5050565b5f8281526005602052604090206001015461095481610be0565b61058b8383610c7b565b5f6001600160a01b038416158061097c57506001600160a01b038316155b80610989575060065460ff165b1561099557505f610560565b6001600160a01b0384165f9081526007602052604090205460ff16806109d257506001600160a01b0383165f9081526007602052604090205460ff165b156109de57505f610560565b60065460405163b9209e3360e01b81526001600160a01b0386811660048301526101009092049091169063b9209e3390602401602060405180830381865afa158015610a2c573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610a5091906115c1565b1580610acb575060065460405163b9209e3360e01b81526001600160a01b0385811660048301526101009092049091169063b9209e3390602401602060405180830381865afa158015610aa5573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610ac991906115c1565b155b15610ad757505f610560565b81610af6856001600160a01b03165f9081526020819052604090205490565b1015949350505050565b6105c483838360016110a3565b6001600160a01b038381165f908152600160209081526040808320938616835292905220545f1981101561058b5781811015610b7557604051637dc7a0d960e11b81526001600160a01b03841660048201526024810182905260448101839052606401610649565b61058b84848484035f6110a3565b6001600160a01b038316610bac57604051634b637e8f60e11b81525f6004820152602401610649565b6001600160a01b038216610bd55760405163ec442f0560e01b81525f6004820152602401610649565b6105c4838383611175565b6105e881336112a2565b5f610bf5838361076e565b610c74575f8381526005602090815260408083206001600160a01b03861684529091529020805460ff19166001179055610c2c3390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a4506001610495565b505f610495565b5f610c86838361076e565b15610c74575f8381526005602090815260408083206001600160a01b0386168085529252808320805460ff1916905551339286917ff6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b9190a4506001610495565b610cee6112db565b6006805460ff191690557f5db9ee0a495bf2e6ff9c91a7834c1ba4fdd244a5e8aa4e537bd38aeae4b073aa335b6040516001600160a01b03909116815260200160405180910390a1565b6001600160a01b038216610d615760405163ec442f0560e01b81525f6004820152602401610649565b6109365f8383611175565b6001600160a01b038216610d9557604051634b637e8f60e11b81525f6004820152602401610649565b610936825f83611175565b610da8611300565b6006805460ff191660011790557f62e78cea01bee320cd4e420270b5ea74000d11b0c9f74754ebdbfc544b05a258610d1b3390565b6001600160a01b038116610e045760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0381165f9081526007602052604090205460ff1615610e485760405163064b886960e51b81526001600160a01b0382166004820152602401610649565b60065460405163b9209e3360e01b81526001600160a01b0383811660048301526101009092049091169063b9209e3390602401602060405180830381865afa158015610e96573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610eba91906115c1565b6105e85760405163b12c8f9160e01b81526001600160a01b0382166004820152602401610649565b6001600160a01b038316610f0c578060025f828254610f0191906115dc565b90915550610f7c9050565b6001600160a01b0383165f9081526020819052604090205481811015610f5e5760405163391434e360e21b81526001600160a01b03851660048201526024810182905260448101839052606401610649565b6001600160a01b0384165f9081526020819052604090209082900390555b6001600160a01b038216610f9857600280548290039055610fb6565b6001600160a01b0382165f9081526020819052604090208054820190555b816001600160a01b0316836001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef83604051610ffb91815260200190565b60405180910390a3505050565b806001600160a01b03163b5f0361103d576040516328b4083160e21b81526001600160a01b0382166004820152602401610649565b6006546040516001600160a01b0380841692610100900416907f47c658e751c7ab06879121698e750afeeb24987b5f585894621fd6db318ae0f8905f90a3600680546001600160a01b0390921661010002610100600160a81b0319909216919091179055565b6001600160a01b0384166110cc5760405163e602df0560e01b81525f6004820152602401610649565b6001600160a01b0383166110f557604051634a1406b160e11b81525f6004820152602401610649565b6001600160a01b038085165f908152600160209081526040808320938716835292905220829055801561058b57826001600160a01b0316846001600160a01b03167f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9258460405161116791815260200190565b60405180910390a350505050565b6001600160a01b0383166111995761118b611300565b61119482610ddd565b611297565b6001600160a01b03821615611297576111b0611300565b6001600160a01b0383165f9081526007602052604090205460ff16156111f45760405163064b886960e51b81526001600160a01b0384166004820152602401610649565b60065460405163b9209e3360e01b81526001600160a01b0385811660048301526101009092049091169063b9209e3390602401602060405180830381865afa158015611242573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061126691906115c1565b61128e5760405163b12c8f9160e01b81526001600160a01b0384166004820152602401610649565b61129782610ddd565b6105c4838383610ee2565b6112ac828261076e565b6109365760405163e2517d3f60e01b81526001600160a01b038216600482015260248101839052604401610649565b60065460ff166112fe57604051638dfc202b60e01b815260040160405180910390fd5b565b60065460ff16156112fe5760405163d93c066560e01b815260040160405180910390fd5b5f60208284031215611334575f5ffd5b81356001600160e01b031981168114610560575f5ffd5b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b0381168114611396575f5ffd5b919050565b5f5f604083850312156113ac575f5ffd5b6113b583611380565b946020939093013593505050565b5f5f5f606084860312156113d5575f5ffd5b6113de84611380565b92506113ec60208501611380565b929592945050506040919091013590565b5f6020828403121561140d575f5ffd5b5035919050565b5f5f60408385031215611425575f5ffd5b8235915061143560208401611380565b90509250929050565b5f5f83601f84011261144e575f5ffd5b50813567ffffffffffffffff811115611465575f5ffd5b6020830191508360208260051b850101111561147f575f5ffd5b9250929050565b5f5f5f5f60408587031215611499575f5ffd5b843567ffffffffffffffff8111156114af575f5ffd5b6114bb8782880161143e565b909550935050602085013567ffffffffffffffff8111156114da575f5ffd5b6114e68782880161143e565b95989497509550505050565b5f60208284031215611502575f5ffd5b61056082611380565b80151581146105e8575f5ffd5b5f5f60408385031215611529575f5ffd5b61153283611380565b915060208301356115428161150b565b809150509250929050565b5f5f6040838503121561155e575f5ffd5b61156783611380565b915061143560208401611380565b600181811c9082168061158957607f821691505b6020821081036115a757634e487b7160e01b5f52602260045260245ffd5b50919050565b634e487b7160e01b5f52603260045260245ffd5b5f602082840312156115d1575f5ffd5b81516105608161150b565b8082018082111561049557634e487b7160e01b5f52601160045260245ffdfecab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb4276950967709a2646970667358221220b78c1a11404b024c44d623749842ee0096ab2bb6fd0aed55cab61b17f85de36064736f6c63430008250033",
}

// ShareToken is an auto generated Go binding around an Ethereum contract.
type ShareToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ShareToken) GetABI() abi.ABI {
	return c.abi
}

// NewShareToken creates a new instance of ShareToken.
func NewShareToken() *ShareToken {
	parsed, err := ShareTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ShareToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ShareToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_, address identityRegistry_, address admin, address agent) returns()
func (shareToken *ShareToken) PackConstructor(name_ string, symbol_ string, identityRegistry_ common.Address, admin common.Address, agent common.Address) []byte {
	enc, err := shareToken.abi.Pack("", name_, symbol_, identityRegistry_, admin, agent)
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
func (shareToken *ShareToken) PackAGENTROLE() []byte {
	enc, err := shareToken.abi.Pack("AGENT_ROLE")
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
func (shareToken *ShareToken) TryPackAGENTROLE() ([]byte, error) {
	return shareToken.abi.Pack("AGENT_ROLE")
}

// UnpackAGENTROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x22459e18.
//
// Solidity: function AGENT_ROLE() view returns(bytes32)
func (shareToken *ShareToken) UnpackAGENTROLE(data []byte) ([32]byte, error) {
	out, err := shareToken.abi.Unpack("AGENT_ROLE", data)
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
func (shareToken *ShareToken) PackDEFAULTADMINROLE() []byte {
	enc, err := shareToken.abi.Pack("DEFAULT_ADMIN_ROLE")
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
func (shareToken *ShareToken) TryPackDEFAULTADMINROLE() ([]byte, error) {
	return shareToken.abi.Pack("DEFAULT_ADMIN_ROLE")
}

// UnpackDEFAULTADMINROLE is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (shareToken *ShareToken) UnpackDEFAULTADMINROLE(data []byte) ([32]byte, error) {
	out, err := shareToken.abi.Unpack("DEFAULT_ADMIN_ROLE", data)
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
func (shareToken *ShareToken) PackAllowance(owner common.Address, spender common.Address) []byte {
	enc, err := shareToken.abi.Pack("allowance", owner, spender)
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
func (shareToken *ShareToken) TryPackAllowance(owner common.Address, spender common.Address) ([]byte, error) {
	return shareToken.abi.Pack("allowance", owner, spender)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (shareToken *ShareToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := shareToken.abi.Unpack("allowance", data)
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
func (shareToken *ShareToken) PackApprove(spender common.Address, value *big.Int) []byte {
	enc, err := shareToken.abi.Pack("approve", spender, value)
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
func (shareToken *ShareToken) TryPackApprove(spender common.Address, value *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("approve", spender, value)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (shareToken *ShareToken) UnpackApprove(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("approve", data)
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
func (shareToken *ShareToken) PackBalanceOf(account common.Address) []byte {
	enc, err := shareToken.abi.Pack("balanceOf", account)
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
func (shareToken *ShareToken) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return shareToken.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (shareToken *ShareToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := shareToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackBatchBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4a6cc677.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function batchBurn(address[] from, uint256[] amounts) returns()
func (shareToken *ShareToken) PackBatchBurn(from []common.Address, amounts []*big.Int) []byte {
	enc, err := shareToken.abi.Pack("batchBurn", from, amounts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBatchBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4a6cc677.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function batchBurn(address[] from, uint256[] amounts) returns()
func (shareToken *ShareToken) TryPackBatchBurn(from []common.Address, amounts []*big.Int) ([]byte, error) {
	return shareToken.abi.Pack("batchBurn", from, amounts)
}

// PackBatchMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x68573107.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function batchMint(address[] to, uint256[] amounts) returns()
func (shareToken *ShareToken) PackBatchMint(to []common.Address, amounts []*big.Int) []byte {
	enc, err := shareToken.abi.Pack("batchMint", to, amounts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBatchMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x68573107.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function batchMint(address[] to, uint256[] amounts) returns()
func (shareToken *ShareToken) TryPackBatchMint(to []common.Address, amounts []*big.Int) ([]byte, error) {
	return shareToken.abi.Pack("batchMint", to, amounts)
}

// PackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9dc29fac.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function burn(address from, uint256 amount) returns()
func (shareToken *ShareToken) PackBurn(from common.Address, amount *big.Int) []byte {
	enc, err := shareToken.abi.Pack("burn", from, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9dc29fac.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function burn(address from, uint256 amount) returns()
func (shareToken *ShareToken) TryPackBurn(from common.Address, amount *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("burn", from, amount)
}

// PackCanTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe46638e6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function canTransfer(address from, address to, uint256 amount) view returns(bool)
func (shareToken *ShareToken) PackCanTransfer(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := shareToken.abi.Pack("canTransfer", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCanTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe46638e6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function canTransfer(address from, address to, uint256 amount) view returns(bool)
func (shareToken *ShareToken) TryPackCanTransfer(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("canTransfer", from, to, amount)
}

// UnpackCanTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe46638e6.
//
// Solidity: function canTransfer(address from, address to, uint256 amount) view returns(bool)
func (shareToken *ShareToken) UnpackCanTransfer(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("canTransfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() pure returns(uint8)
func (shareToken *ShareToken) PackDecimals() []byte {
	enc, err := shareToken.abi.Pack("decimals")
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
func (shareToken *ShareToken) TryPackDecimals() ([]byte, error) {
	return shareToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (shareToken *ShareToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := shareToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackForcedTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9fc1d0e7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function forcedTransfer(address from, address to, uint256 amount) returns(bool)
func (shareToken *ShareToken) PackForcedTransfer(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := shareToken.abi.Pack("forcedTransfer", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackForcedTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9fc1d0e7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function forcedTransfer(address from, address to, uint256 amount) returns(bool)
func (shareToken *ShareToken) TryPackForcedTransfer(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("forcedTransfer", from, to, amount)
}

// UnpackForcedTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9fc1d0e7.
//
// Solidity: function forcedTransfer(address from, address to, uint256 amount) returns(bool)
func (shareToken *ShareToken) UnpackForcedTransfer(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("forcedTransfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackGetRoleAdmin is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x248a9ca3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (shareToken *ShareToken) PackGetRoleAdmin(role [32]byte) []byte {
	enc, err := shareToken.abi.Pack("getRoleAdmin", role)
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
func (shareToken *ShareToken) TryPackGetRoleAdmin(role [32]byte) ([]byte, error) {
	return shareToken.abi.Pack("getRoleAdmin", role)
}

// UnpackGetRoleAdmin is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (shareToken *ShareToken) UnpackGetRoleAdmin(data []byte) ([32]byte, error) {
	out, err := shareToken.abi.Unpack("getRoleAdmin", data)
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
func (shareToken *ShareToken) PackGrantRole(role [32]byte, account common.Address) []byte {
	enc, err := shareToken.abi.Pack("grantRole", role, account)
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
func (shareToken *ShareToken) TryPackGrantRole(role [32]byte, account common.Address) ([]byte, error) {
	return shareToken.abi.Pack("grantRole", role, account)
}

// PackHasRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x91d14854.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (shareToken *ShareToken) PackHasRole(role [32]byte, account common.Address) []byte {
	enc, err := shareToken.abi.Pack("hasRole", role, account)
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
func (shareToken *ShareToken) TryPackHasRole(role [32]byte, account common.Address) ([]byte, error) {
	return shareToken.abi.Pack("hasRole", role, account)
}

// UnpackHasRole is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (shareToken *ShareToken) UnpackHasRole(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("hasRole", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIdentityRegistry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x134e18f4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function identityRegistry() view returns(address)
func (shareToken *ShareToken) PackIdentityRegistry() []byte {
	enc, err := shareToken.abi.Pack("identityRegistry")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIdentityRegistry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x134e18f4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function identityRegistry() view returns(address)
func (shareToken *ShareToken) TryPackIdentityRegistry() ([]byte, error) {
	return shareToken.abi.Pack("identityRegistry")
}

// UnpackIdentityRegistry is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x134e18f4.
//
// Solidity: function identityRegistry() view returns(address)
func (shareToken *ShareToken) UnpackIdentityRegistry(data []byte) (common.Address, error) {
	out, err := shareToken.abi.Unpack("identityRegistry", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackIsFrozen is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe5839836.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isFrozen(address wallet) view returns(bool)
func (shareToken *ShareToken) PackIsFrozen(wallet common.Address) []byte {
	enc, err := shareToken.abi.Pack("isFrozen", wallet)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsFrozen is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe5839836.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isFrozen(address wallet) view returns(bool)
func (shareToken *ShareToken) TryPackIsFrozen(wallet common.Address) ([]byte, error) {
	return shareToken.abi.Pack("isFrozen", wallet)
}

// UnpackIsFrozen is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe5839836.
//
// Solidity: function isFrozen(address wallet) view returns(bool)
func (shareToken *ShareToken) UnpackIsFrozen(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("isFrozen", data)
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
func (shareToken *ShareToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := shareToken.abi.Pack("mint", to, amount)
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
func (shareToken *ShareToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (shareToken *ShareToken) PackName() []byte {
	enc, err := shareToken.abi.Pack("name")
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
func (shareToken *ShareToken) TryPackName() ([]byte, error) {
	return shareToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (shareToken *ShareToken) UnpackName(data []byte) (string, error) {
	out, err := shareToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackPause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8456cb59.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pause() returns()
func (shareToken *ShareToken) PackPause() []byte {
	enc, err := shareToken.abi.Pack("pause")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8456cb59.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pause() returns()
func (shareToken *ShareToken) TryPackPause() ([]byte, error) {
	return shareToken.abi.Pack("pause")
}

// PackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function paused() view returns(bool)
func (shareToken *ShareToken) PackPaused() []byte {
	enc, err := shareToken.abi.Pack("paused")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function paused() view returns(bool)
func (shareToken *ShareToken) TryPackPaused() ([]byte, error) {
	return shareToken.abi.Pack("paused")
}

// UnpackPaused is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5c975abb.
//
// Solidity: function paused() view returns(bool)
func (shareToken *ShareToken) UnpackPaused(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("paused", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackRenounceRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x36568abe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (shareToken *ShareToken) PackRenounceRole(role [32]byte, callerConfirmation common.Address) []byte {
	enc, err := shareToken.abi.Pack("renounceRole", role, callerConfirmation)
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
func (shareToken *ShareToken) TryPackRenounceRole(role [32]byte, callerConfirmation common.Address) ([]byte, error) {
	return shareToken.abi.Pack("renounceRole", role, callerConfirmation)
}

// PackRevokeRole is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd547741f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (shareToken *ShareToken) PackRevokeRole(role [32]byte, account common.Address) []byte {
	enc, err := shareToken.abi.Pack("revokeRole", role, account)
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
func (shareToken *ShareToken) TryPackRevokeRole(role [32]byte, account common.Address) ([]byte, error) {
	return shareToken.abi.Pack("revokeRole", role, account)
}

// PackSetAddressFrozen is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc69c09cf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setAddressFrozen(address wallet, bool frozen) returns()
func (shareToken *ShareToken) PackSetAddressFrozen(wallet common.Address, frozen bool) []byte {
	enc, err := shareToken.abi.Pack("setAddressFrozen", wallet, frozen)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetAddressFrozen is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc69c09cf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setAddressFrozen(address wallet, bool frozen) returns()
func (shareToken *ShareToken) TryPackSetAddressFrozen(wallet common.Address, frozen bool) ([]byte, error) {
	return shareToken.abi.Pack("setAddressFrozen", wallet, frozen)
}

// PackSetIdentityRegistry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcbf3f861.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setIdentityRegistry(address registry) returns()
func (shareToken *ShareToken) PackSetIdentityRegistry(registry common.Address) []byte {
	enc, err := shareToken.abi.Pack("setIdentityRegistry", registry)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetIdentityRegistry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcbf3f861.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setIdentityRegistry(address registry) returns()
func (shareToken *ShareToken) TryPackSetIdentityRegistry(registry common.Address) ([]byte, error) {
	return shareToken.abi.Pack("setIdentityRegistry", registry)
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (shareToken *ShareToken) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := shareToken.abi.Pack("supportsInterface", interfaceId)
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
func (shareToken *ShareToken) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return shareToken.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (shareToken *ShareToken) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("supportsInterface", data)
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
func (shareToken *ShareToken) PackSymbol() []byte {
	enc, err := shareToken.abi.Pack("symbol")
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
func (shareToken *ShareToken) TryPackSymbol() ([]byte, error) {
	return shareToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (shareToken *ShareToken) UnpackSymbol(data []byte) (string, error) {
	out, err := shareToken.abi.Unpack("symbol", data)
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
func (shareToken *ShareToken) PackTotalSupply() []byte {
	enc, err := shareToken.abi.Pack("totalSupply")
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
func (shareToken *ShareToken) TryPackTotalSupply() ([]byte, error) {
	return shareToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (shareToken *ShareToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := shareToken.abi.Unpack("totalSupply", data)
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
func (shareToken *ShareToken) PackTransfer(to common.Address, value *big.Int) []byte {
	enc, err := shareToken.abi.Pack("transfer", to, value)
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
func (shareToken *ShareToken) TryPackTransfer(to common.Address, value *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("transfer", to, value)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (shareToken *ShareToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("transfer", data)
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
func (shareToken *ShareToken) PackTransferFrom(from common.Address, to common.Address, value *big.Int) []byte {
	enc, err := shareToken.abi.Pack("transferFrom", from, to, value)
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
func (shareToken *ShareToken) TryPackTransferFrom(from common.Address, to common.Address, value *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("transferFrom", from, to, value)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (shareToken *ShareToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackUnpause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f4ba83a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unpause() returns()
func (shareToken *ShareToken) PackUnpause() []byte {
	enc, err := shareToken.abi.Pack("unpause")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnpause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f4ba83a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unpause() returns()
func (shareToken *ShareToken) TryPackUnpause() ([]byte, error) {
	return shareToken.abi.Pack("unpause")
}

// ShareTokenAddressFrozen represents a AddressFrozen event raised by the ShareToken contract.
type ShareTokenAddressFrozen struct {
	Wallet common.Address
	Frozen bool
	Agent  common.Address
	Raw    *types.Log // Blockchain specific contextual infos
}

const ShareTokenAddressFrozenEventName = "AddressFrozen"

// ContractEventName returns the user-defined event name.
func (ShareTokenAddressFrozen) ContractEventName() string {
	return ShareTokenAddressFrozenEventName
}

// UnpackAddressFrozenEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AddressFrozen(address indexed wallet, bool indexed frozen, address indexed agent)
func (shareToken *ShareToken) UnpackAddressFrozenEvent(log *types.Log) (*ShareTokenAddressFrozen, error) {
	event := "AddressFrozen"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenAddressFrozen)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenApproval represents a Approval event raised by the ShareToken contract.
type ShareTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const ShareTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (ShareTokenApproval) ContractEventName() string {
	return ShareTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (shareToken *ShareToken) UnpackApprovalEvent(log *types.Log) (*ShareTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenApproval)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenForcedTransfer represents a ForcedTransfer event raised by the ShareToken contract.
type ShareTokenForcedTransfer struct {
	From   common.Address
	To     common.Address
	Amount *big.Int
	Agent  common.Address
	Raw    *types.Log // Blockchain specific contextual infos
}

const ShareTokenForcedTransferEventName = "ForcedTransfer"

// ContractEventName returns the user-defined event name.
func (ShareTokenForcedTransfer) ContractEventName() string {
	return ShareTokenForcedTransferEventName
}

// UnpackForcedTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event ForcedTransfer(address indexed from, address indexed to, uint256 amount, address agent)
func (shareToken *ShareToken) UnpackForcedTransferEvent(log *types.Log) (*ShareTokenForcedTransfer, error) {
	event := "ForcedTransfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenForcedTransfer)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenIdentityRegistrySet represents a IdentityRegistrySet event raised by the ShareToken contract.
type ShareTokenIdentityRegistrySet struct {
	Previous common.Address
	Current  common.Address
	Raw      *types.Log // Blockchain specific contextual infos
}

const ShareTokenIdentityRegistrySetEventName = "IdentityRegistrySet"

// ContractEventName returns the user-defined event name.
func (ShareTokenIdentityRegistrySet) ContractEventName() string {
	return ShareTokenIdentityRegistrySetEventName
}

// UnpackIdentityRegistrySetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event IdentityRegistrySet(address indexed previous, address indexed current)
func (shareToken *ShareToken) UnpackIdentityRegistrySetEvent(log *types.Log) (*ShareTokenIdentityRegistrySet, error) {
	event := "IdentityRegistrySet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenIdentityRegistrySet)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenPaused represents a Paused event raised by the ShareToken contract.
type ShareTokenPaused struct {
	Account common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const ShareTokenPausedEventName = "Paused"

// ContractEventName returns the user-defined event name.
func (ShareTokenPaused) ContractEventName() string {
	return ShareTokenPausedEventName
}

// UnpackPausedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Paused(address account)
func (shareToken *ShareToken) UnpackPausedEvent(log *types.Log) (*ShareTokenPaused, error) {
	event := "Paused"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenPaused)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenRoleAdminChanged represents a RoleAdminChanged event raised by the ShareToken contract.
type ShareTokenRoleAdminChanged struct {
	Role              [32]byte
	PreviousAdminRole [32]byte
	NewAdminRole      [32]byte
	Raw               *types.Log // Blockchain specific contextual infos
}

const ShareTokenRoleAdminChangedEventName = "RoleAdminChanged"

// ContractEventName returns the user-defined event name.
func (ShareTokenRoleAdminChanged) ContractEventName() string {
	return ShareTokenRoleAdminChangedEventName
}

// UnpackRoleAdminChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (shareToken *ShareToken) UnpackRoleAdminChangedEvent(log *types.Log) (*ShareTokenRoleAdminChanged, error) {
	event := "RoleAdminChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenRoleAdminChanged)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenRoleGranted represents a RoleGranted event raised by the ShareToken contract.
type ShareTokenRoleGranted struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const ShareTokenRoleGrantedEventName = "RoleGranted"

// ContractEventName returns the user-defined event name.
func (ShareTokenRoleGranted) ContractEventName() string {
	return ShareTokenRoleGrantedEventName
}

// UnpackRoleGrantedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (shareToken *ShareToken) UnpackRoleGrantedEvent(log *types.Log) (*ShareTokenRoleGranted, error) {
	event := "RoleGranted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenRoleGranted)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenRoleRevoked represents a RoleRevoked event raised by the ShareToken contract.
type ShareTokenRoleRevoked struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const ShareTokenRoleRevokedEventName = "RoleRevoked"

// ContractEventName returns the user-defined event name.
func (ShareTokenRoleRevoked) ContractEventName() string {
	return ShareTokenRoleRevokedEventName
}

// UnpackRoleRevokedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (shareToken *ShareToken) UnpackRoleRevokedEvent(log *types.Log) (*ShareTokenRoleRevoked, error) {
	event := "RoleRevoked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenRoleRevoked)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenTransfer represents a Transfer event raised by the ShareToken contract.
type ShareTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const ShareTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (ShareTokenTransfer) ContractEventName() string {
	return ShareTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (shareToken *ShareToken) UnpackTransferEvent(log *types.Log) (*ShareTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenTransfer)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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

// ShareTokenUnpaused represents a Unpaused event raised by the ShareToken contract.
type ShareTokenUnpaused struct {
	Account common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const ShareTokenUnpausedEventName = "Unpaused"

// ContractEventName returns the user-defined event name.
func (ShareTokenUnpaused) ContractEventName() string {
	return ShareTokenUnpausedEventName
}

// UnpackUnpausedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Unpaused(address account)
func (shareToken *ShareToken) UnpackUnpausedEvent(log *types.Log) (*ShareTokenUnpaused, error) {
	event := "Unpaused"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenUnpaused)
	if len(log.Data) > 0 {
		if err := shareToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range shareToken.abi.Events[event].Inputs {
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
func (shareToken *ShareToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], shareToken.abi.Errors["AccessControlBadConfirmation"].ID.Bytes()[:4]) {
		return shareToken.UnpackAccessControlBadConfirmationError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["AccessControlUnauthorizedAccount"].ID.Bytes()[:4]) {
		return shareToken.UnpackAccessControlUnauthorizedAccountError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["BatchLengthMismatch"].ID.Bytes()[:4]) {
		return shareToken.UnpackBatchLengthMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ERC20InsufficientAllowance"].ID.Bytes()[:4]) {
		return shareToken.UnpackERC20InsufficientAllowanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ERC20InsufficientBalance"].ID.Bytes()[:4]) {
		return shareToken.UnpackERC20InsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ERC20InvalidApprover"].ID.Bytes()[:4]) {
		return shareToken.UnpackERC20InvalidApproverError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ERC20InvalidReceiver"].ID.Bytes()[:4]) {
		return shareToken.UnpackERC20InvalidReceiverError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ERC20InvalidSender"].ID.Bytes()[:4]) {
		return shareToken.UnpackERC20InvalidSenderError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ERC20InvalidSpender"].ID.Bytes()[:4]) {
		return shareToken.UnpackERC20InvalidSpenderError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["EnforcedPause"].ID.Bytes()[:4]) {
		return shareToken.UnpackEnforcedPauseError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ExpectedPause"].ID.Bytes()[:4]) {
		return shareToken.UnpackExpectedPauseError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["InvalidIdentityRegistry"].ID.Bytes()[:4]) {
		return shareToken.UnpackInvalidIdentityRegistryError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["NotVerified"].ID.Bytes()[:4]) {
		return shareToken.UnpackNotVerifiedError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["WalletFrozen"].ID.Bytes()[:4]) {
		return shareToken.UnpackWalletFrozenError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return shareToken.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// ShareTokenAccessControlBadConfirmation represents a AccessControlBadConfirmation error raised by the ShareToken contract.
type ShareTokenAccessControlBadConfirmation struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlBadConfirmation()
func ShareTokenAccessControlBadConfirmationErrorID() common.Hash {
	return common.HexToHash("0x6697b23232a647058342c0724fe7c415cab25915b54e5dbc03f233173d37b41c")
}

// UnpackAccessControlBadConfirmationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlBadConfirmation()
func (shareToken *ShareToken) UnpackAccessControlBadConfirmationError(raw []byte) (*ShareTokenAccessControlBadConfirmation, error) {
	out := new(ShareTokenAccessControlBadConfirmation)
	if err := shareToken.abi.UnpackIntoInterface(out, "AccessControlBadConfirmation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenAccessControlUnauthorizedAccount represents a AccessControlUnauthorizedAccount error raised by the ShareToken contract.
type ShareTokenAccessControlUnauthorizedAccount struct {
	Account    common.Address
	NeededRole [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func ShareTokenAccessControlUnauthorizedAccountErrorID() common.Hash {
	return common.HexToHash("0xe2517d3fbfae6f8515ef5ff1ccedc3933ab0cbbda0b492c06eb54ad10ef03b3e")
}

// UnpackAccessControlUnauthorizedAccountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)
func (shareToken *ShareToken) UnpackAccessControlUnauthorizedAccountError(raw []byte) (*ShareTokenAccessControlUnauthorizedAccount, error) {
	out := new(ShareTokenAccessControlUnauthorizedAccount)
	if err := shareToken.abi.UnpackIntoInterface(out, "AccessControlUnauthorizedAccount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenBatchLengthMismatch represents a BatchLengthMismatch error raised by the ShareToken contract.
type ShareTokenBatchLengthMismatch struct {
	Wallets *big.Int
	Amounts *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BatchLengthMismatch(uint256 wallets, uint256 amounts)
func ShareTokenBatchLengthMismatchErrorID() common.Hash {
	return common.HexToHash("0x81b5b207f4ceee88a305d93332dfd817c8615ec6ddd3c8ac2066f79411ad6c78")
}

// UnpackBatchLengthMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BatchLengthMismatch(uint256 wallets, uint256 amounts)
func (shareToken *ShareToken) UnpackBatchLengthMismatchError(raw []byte) (*ShareTokenBatchLengthMismatch, error) {
	out := new(ShareTokenBatchLengthMismatch)
	if err := shareToken.abi.UnpackIntoInterface(out, "BatchLengthMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenERC20InsufficientAllowance represents a ERC20InsufficientAllowance error raised by the ShareToken contract.
type ShareTokenERC20InsufficientAllowance struct {
	Spender   common.Address
	Allowance *big.Int
	Needed    *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)
func ShareTokenERC20InsufficientAllowanceErrorID() common.Hash {
	return common.HexToHash("0xfb8f41b23e99d2101d86da76cdfa87dd51c82ed07d3cb62cbc473e469dbc75c3")
}

// UnpackERC20InsufficientAllowanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)
func (shareToken *ShareToken) UnpackERC20InsufficientAllowanceError(raw []byte) (*ShareTokenERC20InsufficientAllowance, error) {
	out := new(ShareTokenERC20InsufficientAllowance)
	if err := shareToken.abi.UnpackIntoInterface(out, "ERC20InsufficientAllowance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenERC20InsufficientBalance represents a ERC20InsufficientBalance error raised by the ShareToken contract.
type ShareTokenERC20InsufficientBalance struct {
	Sender  common.Address
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)
func ShareTokenERC20InsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xe450d38cd8d9f7d95077d567d60ed49c7254716e6ad08fc9872816c97e0ffec6")
}

// UnpackERC20InsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)
func (shareToken *ShareToken) UnpackERC20InsufficientBalanceError(raw []byte) (*ShareTokenERC20InsufficientBalance, error) {
	out := new(ShareTokenERC20InsufficientBalance)
	if err := shareToken.abi.UnpackIntoInterface(out, "ERC20InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenERC20InvalidApprover represents a ERC20InvalidApprover error raised by the ShareToken contract.
type ShareTokenERC20InvalidApprover struct {
	Approver common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidApprover(address approver)
func ShareTokenERC20InvalidApproverErrorID() common.Hash {
	return common.HexToHash("0xe602df05cc75712490294c6c104ab7c17f4030363910a7a2626411c6d3118847")
}

// UnpackERC20InvalidApproverError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidApprover(address approver)
func (shareToken *ShareToken) UnpackERC20InvalidApproverError(raw []byte) (*ShareTokenERC20InvalidApprover, error) {
	out := new(ShareTokenERC20InvalidApprover)
	if err := shareToken.abi.UnpackIntoInterface(out, "ERC20InvalidApprover", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenERC20InvalidReceiver represents a ERC20InvalidReceiver error raised by the ShareToken contract.
type ShareTokenERC20InvalidReceiver struct {
	Receiver common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidReceiver(address receiver)
func ShareTokenERC20InvalidReceiverErrorID() common.Hash {
	return common.HexToHash("0xec442f055133b72f3b2f9f0bb351c406b178527de2040a7d1feb4e058771f613")
}

// UnpackERC20InvalidReceiverError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidReceiver(address receiver)
func (shareToken *ShareToken) UnpackERC20InvalidReceiverError(raw []byte) (*ShareTokenERC20InvalidReceiver, error) {
	out := new(ShareTokenERC20InvalidReceiver)
	if err := shareToken.abi.UnpackIntoInterface(out, "ERC20InvalidReceiver", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenERC20InvalidSender represents a ERC20InvalidSender error raised by the ShareToken contract.
type ShareTokenERC20InvalidSender struct {
	Sender common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidSender(address sender)
func ShareTokenERC20InvalidSenderErrorID() common.Hash {
	return common.HexToHash("0x96c6fd1edd0cd6ef7ff0ecc0facdf53148dc0048b57fe58af65755250a7a96bd")
}

// UnpackERC20InvalidSenderError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidSender(address sender)
func (shareToken *ShareToken) UnpackERC20InvalidSenderError(raw []byte) (*ShareTokenERC20InvalidSender, error) {
	out := new(ShareTokenERC20InvalidSender)
	if err := shareToken.abi.UnpackIntoInterface(out, "ERC20InvalidSender", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenERC20InvalidSpender represents a ERC20InvalidSpender error raised by the ShareToken contract.
type ShareTokenERC20InvalidSpender struct {
	Spender common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ERC20InvalidSpender(address spender)
func ShareTokenERC20InvalidSpenderErrorID() common.Hash {
	return common.HexToHash("0x94280d62c347d8d9f4d59a76ea321452406db88df38e0c9da304f58b57b373a2")
}

// UnpackERC20InvalidSpenderError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ERC20InvalidSpender(address spender)
func (shareToken *ShareToken) UnpackERC20InvalidSpenderError(raw []byte) (*ShareTokenERC20InvalidSpender, error) {
	out := new(ShareTokenERC20InvalidSpender)
	if err := shareToken.abi.UnpackIntoInterface(out, "ERC20InvalidSpender", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenEnforcedPause represents a EnforcedPause error raised by the ShareToken contract.
type ShareTokenEnforcedPause struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error EnforcedPause()
func ShareTokenEnforcedPauseErrorID() common.Hash {
	return common.HexToHash("0xd93c0665d6c96d04a8f174024fc4ddd66c250604aff22bbec808de86dd3637e3")
}

// UnpackEnforcedPauseError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error EnforcedPause()
func (shareToken *ShareToken) UnpackEnforcedPauseError(raw []byte) (*ShareTokenEnforcedPause, error) {
	out := new(ShareTokenEnforcedPause)
	if err := shareToken.abi.UnpackIntoInterface(out, "EnforcedPause", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenExpectedPause represents a ExpectedPause error raised by the ShareToken contract.
type ShareTokenExpectedPause struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ExpectedPause()
func ShareTokenExpectedPauseErrorID() common.Hash {
	return common.HexToHash("0x8dfc202bcfe9a735b559bee70674422512bc5c30f687046ae8778315fb81da44")
}

// UnpackExpectedPauseError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ExpectedPause()
func (shareToken *ShareToken) UnpackExpectedPauseError(raw []byte) (*ShareTokenExpectedPause, error) {
	out := new(ShareTokenExpectedPause)
	if err := shareToken.abi.UnpackIntoInterface(out, "ExpectedPause", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenInvalidIdentityRegistry represents a InvalidIdentityRegistry error raised by the ShareToken contract.
type ShareTokenInvalidIdentityRegistry struct {
	Registry common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidIdentityRegistry(address registry)
func ShareTokenInvalidIdentityRegistryErrorID() common.Hash {
	return common.HexToHash("0xa2d020c4cf93433e3fd9007f1147743139b98013275e1cbb000362f909857384")
}

// UnpackInvalidIdentityRegistryError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidIdentityRegistry(address registry)
func (shareToken *ShareToken) UnpackInvalidIdentityRegistryError(raw []byte) (*ShareTokenInvalidIdentityRegistry, error) {
	out := new(ShareTokenInvalidIdentityRegistry)
	if err := shareToken.abi.UnpackIntoInterface(out, "InvalidIdentityRegistry", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenNotVerified represents a NotVerified error raised by the ShareToken contract.
type ShareTokenNotVerified struct {
	Wallet common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotVerified(address wallet)
func ShareTokenNotVerifiedErrorID() common.Hash {
	return common.HexToHash("0xb12c8f9186e31202c7c765e500d829e58c3f7c2ebc3b7d21e4cd8542b2a31442")
}

// UnpackNotVerifiedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotVerified(address wallet)
func (shareToken *ShareToken) UnpackNotVerifiedError(raw []byte) (*ShareTokenNotVerified, error) {
	out := new(ShareTokenNotVerified)
	if err := shareToken.abi.UnpackIntoInterface(out, "NotVerified", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenWalletFrozen represents a WalletFrozen error raised by the ShareToken contract.
type ShareTokenWalletFrozen struct {
	Wallet common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WalletFrozen(address wallet)
func ShareTokenWalletFrozenErrorID() common.Hash {
	return common.HexToHash("0xc9710d20bdbf99ca92a03644a5a8f85ea6badb387ff0abca08eebdfbff50b77f")
}

// UnpackWalletFrozenError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WalletFrozen(address wallet)
func (shareToken *ShareToken) UnpackWalletFrozenError(raw []byte) (*ShareTokenWalletFrozen, error) {
	out := new(ShareTokenWalletFrozen)
	if err := shareToken.abi.UnpackIntoInterface(out, "WalletFrozen", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenZeroAddress represents a ZeroAddress error raised by the ShareToken contract.
type ShareTokenZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func ShareTokenZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (shareToken *ShareToken) UnpackZeroAddressError(raw []byte) (*ShareTokenZeroAddress, error) {
	out := new(ShareTokenZeroAddress)
	if err := shareToken.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
