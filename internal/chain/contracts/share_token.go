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
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"},{\"internalType\":\"address\",\"name\":\"identityRegistry_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"admin\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AccessControlBadConfirmation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"neededRole\",\"type\":\"bytes32\"}],\"name\":\"AccessControlUnauthorizedAccount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"wallets\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amounts\",\"type\":\"uint256\"}],\"name\":\"BatchLengthMismatch\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"allowance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientAllowance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"ERC20InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"approver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidApprover\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"}],\"name\":\"ERC20InvalidReceiver\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSender\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"ERC20InvalidSpender\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"appliedIn\",\"type\":\"uint256\"}],\"name\":\"EffectAlreadyApplied\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"EmptySettlement\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"EnforcedPause\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ExpectedPause\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"registry\",\"type\":\"address\"}],\"name\":\"InvalidIdentityRegistry\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"locked\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"requested\",\"type\":\"uint256\"}],\"name\":\"LockedUnits\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"NotVerified\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"bits\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"SafeCastOverflowedUintDowncast\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"SameWallet\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"max\",\"type\":\"uint256\"}],\"name\":\"TooManyLocks\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"WalletFrozen\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroRef\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"bool\",\"name\":\"frozen\",\"type\":\"bool\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"AddressFrozen\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"units\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"EffectApplied\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"appliedIn\",\"type\":\"uint256\"}],\"name\":\"EffectSkipped\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"ForcedTransfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previous\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"IdentityRegistrySet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint64\",\"name\":\"releaseTime\",\"type\":\"uint64\"}],\"name\":\"LockRemoved\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint64\",\"name\":\"releaseTime\",\"type\":\"uint64\"}],\"name\":\"Locked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Paused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"previousAdminRole\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"newAdminRole\",\"type\":\"bytes32\"}],\"name\":\"RoleAdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleGranted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleRevoked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"units\",\"type\":\"uint256\"}],\"name\":\"SecondaryTransfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Unpaused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"lost\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"replacement\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"locked\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"WalletRecovered\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"AGENT_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"DEFAULT_ADMIN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_LOCKS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"from\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"}],\"name\":\"batchBurn\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"to\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"}],\"name\":\"batchMint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"to\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"},{\"internalType\":\"uint64[]\",\"name\":\"releaseTimes\",\"type\":\"uint64[]\"}],\"name\":\"batchMintLocked\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"refs\",\"type\":\"bytes32[]\"},{\"internalType\":\"address[]\",\"name\":\"to\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"},{\"internalType\":\"uint64[]\",\"name\":\"releaseTimes\",\"type\":\"uint64[]\"}],\"name\":\"batchMintWithRefs\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"refs\",\"type\":\"bytes32[]\"},{\"internalType\":\"address[]\",\"name\":\"to\",\"type\":\"address[]\"},{\"internalType\":\"uint64[]\",\"name\":\"releaseTimes\",\"type\":\"uint64[]\"},{\"internalType\":\"uint256[]\",\"name\":\"legCounts\",\"type\":\"uint256[]\"},{\"internalType\":\"address[]\",\"name\":\"from\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"}],\"name\":\"batchSettleWithRefs\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"burn\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"address[]\",\"name\":\"from\",\"type\":\"address[]\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"}],\"name\":\"burnWithRef\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"canTransfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"}],\"name\":\"effectApplied\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"forcedTransfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"}],\"name\":\"getRoleAdmin\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"grantRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"hasRole\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"identityRegistry\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"isFrozen\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"}],\"name\":\"lockedBalanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"releaseTime\",\"type\":\"uint64\"}],\"name\":\"mintLocked\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"releaseTime\",\"type\":\"uint64\"}],\"name\":\"mintLockedWithRef\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mintWithRef\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"paused\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"lost\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"replacement\",\"type\":\"address\"}],\"name\":\"recoverWallet\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"lost\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"replacement\",\"type\":\"address\"}],\"name\":\"recoverWalletWithRef\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"callerConfirmation\",\"type\":\"address\"}],\"name\":\"renounceRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"revokeRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"frozen\",\"type\":\"bool\"}],\"name\":\"setAddressFrozen\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"registry\",\"type\":\"address\"}],\"name\":\"setIdentityRegistry\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"ref\",\"type\":\"bytes32\"},{\"internalType\":\"address[]\",\"name\":\"from\",\"type\":\"address[]\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"},{\"internalType\":\"uint64\",\"name\":\"releaseTime\",\"type\":\"uint64\"}],\"name\":\"settleWithRef\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"}],\"name\":\"unlockedBalanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"unpause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "ShareToken",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161357538038061357583398101604081905261002e916102d4565b8484600361003c83826103f8565b50600461004982826103f8565b5050506001600160a01b038216158061006957506001600160a01b038116155b156100875760405163d92e233d60e01b815260040160405180910390fd5b6100915f836100d0565b506100bc7fcab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb4276950967709826100d0565b506100c68361017d565b50505050506104b6565b5f8281526005602090815260408083206001600160a01b038516845290915281205460ff16610174575f8381526005602090815260408083206001600160a01b03861684529091529020805460ff1916600117905561012c3390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a4506001610177565b505f5b92915050565b806001600160a01b03163b5f036101b6576040516328b4083160e21b81526001600160a01b038216600482015260240160405180910390fd5b6006546040516001600160a01b0380841692610100900416907f47c658e751c7ab06879121698e750afeeb24987b5f585894621fd6db318ae0f8905f90a3600680546001600160a01b0390921661010002610100600160a81b0319909216919091179055565b634e487b7160e01b5f52604160045260245ffd5b5f82601f83011261023f575f5ffd5b81516001600160401b038111156102585761025861021c565b604051601f8201601f19908116603f011681016001600160401b03811182821017156102865761028661021c565b60405281815283820160200185101561029d575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160a01b03811681146102cf575f5ffd5b919050565b5f5f5f5f5f60a086880312156102e8575f5ffd5b85516001600160401b038111156102fd575f5ffd5b61030988828901610230565b602088015190965090506001600160401b03811115610326575f5ffd5b61033288828901610230565b945050610341604087016102b9565b925061034f606087016102b9565b915061035d608087016102b9565b90509295509295909350565b600181811c9082168061037d57607f821691505b60208210810361039b57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f8211156103f357828211156103f357805f5260205f20601f840160051c60208510156103cc57505f5b90810190601f840160051c035f5b818110156103ef575f838201556001016103da565b5050505b505050565b81516001600160401b038111156104115761041161021c565b6104258161041f8454610369565b846103a1565b6020601f821160018114610457575f83156104405750848201515b5f19600385901b1c1916600184901b1784556104af565b5f84815260208120601f198516915b828110156104865787850151825560209485019460019092019101610466565b50848210156104a357868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b6130b2806104c35f395ff3fe608060405234801561000f575f5ffd5b506004361061026a575f3560e01c8063685731071161014b578063a9059cbb116100bf578063d322934311610084578063d322934314610569578063d547741f14610571578063d937e99b14610584578063dd62ed3e14610597578063e46638e6146105cf578063e5839836146105e2575f5ffd5b8063a9059cbb1461050a578063c69c09cf1461051d578063cbf3f86114610530578063cf02262d14610543578063d3145aa414610556575f5ffd5b806384955c881161011057806384955c88146104af57806391d14854146104c257806395d89b41146104d55780639dc29fac146104dd5780639fc1d0e7146104f0578063a217fddf14610503575f5ffd5b8063685731071461044657806370a082311461045957806378228c1f146104815780637cd4d329146104945780638456cb59146104a7575f5ffd5b80632f2ff15d116101e257806342717ef1116101a757806342717ef1146103dc5780634a6cc677146103ef5780634db354661461040257806359355736146104155780635c975abb146104285780635e2b9a3a14610433575f5ffd5b80632f2ff15d1461038d578063313ce567146103a057806336568abe146103ae5780633f4ba83a146103c157806340c10f19146103c9575f5ffd5b8063134e18f411610233578063134e18f41461030057806318160ddd1461032957806322459e181461033157806323b872dd14610345578063248a9ca3146103585780632e7054d91461037a575f5ffd5b8062a411571461026e57806301ffc9a71461028357806306fdde03146102ab578063095ea7b3146102c05780630ead64c7146102d3575b5f5ffd5b61028161027c366004612867565b61060d565b005b6102966102913660046128aa565b61064a565b60405190151581526020015b60405180910390f35b6102b3610680565b6040516102a291906128d1565b6102966102ce366004612906565b610710565b6102f26102e136600461292e565b5f9081526009602052604090205490565b6040519081526020016102a2565b60065461010090046001600160a01b03166040516001600160a01b0390911681526020016102a2565b6002546102f2565b6102f25f51602061305d5f395f51905f5281565b610296610353366004612945565b610727565b6102f261036636600461292e565b5f9081526005602052604090206001015490565b6102816103883660046129c6565b61074c565b61028161039b366004612af6565b610995565b6040515f81526020016102a2565b6102816103bc366004612af6565b6109bf565b6102816109f7565b6102816103d7366004612906565b610a19565b6102816103ea366004612b20565b610a3a565b6102816103fd366004612bb8565b610ab5565b610281610410366004612c22565b610b58565b6102f2610423366004612cec565b610e30565b60065460ff16610296565b610281610441366004612d05565b610e3a565b610281610454366004612bb8565b610f0d565b6102f2610467366004612cec565b6001600160a01b03165f9081526020819052604090205490565b61029661048f366004612d7c565b610f9c565b6102966104a2366004612da4565b611091565b610281611191565b6102f26104bd366004612cec565b6111b0565b6102966104d0366004612af6565b6111dc565b6102b3611206565b6102816104eb366004612906565b611215565b6102966104fe366004612945565b611236565b6102f25f81565b610296610518366004612906565b611259565b61028161052b366004612dea565b611266565b61028161053e366004612cec565b6112f9565b610281610551366004612e1f565b611310565b610281610564366004612ebb565b61141e565b6102f2604081565b61028161057f366004612af6565b61144a565b610281610592366004612eeb565b61146e565b6102f26105a5366004612d7c565b6001600160a01b039182165f90815260016020908152604080832093909416825291909152205490565b6102966105dd366004612945565b611499565b6102966105f0366004612cec565b6001600160a01b03165f9081526007602052604090205460ff1690565b5f51602061305d5f395f51905f5261062481611626565b61062e8584611630565b61063884846116de565b610643848484611712565b5050505050565b5f6001600160e01b03198216637965db0b60e01b148061067a57506301ffc9a760e01b6001600160e01b03198316145b92915050565b60606003805461068f90612f0d565b80601f01602080910402602001604051908101604052809291908181526020018280546106bb90612f0d565b80156107065780601f106106dd57610100808354040283529160200191610706565b820191905f5260205f20905b8154815290600101906020018083116106e957829003601f168201915b5050505050905090565b5f3361071d818585611905565b5060019392505050565b5f33610734858285611912565b61073f858585611988565b60019150505b9392505050565b5f51602061305d5f395f51905f5261076381611626565b8b8a14610792576040516381b5b20760e01b8152600481018d9052602481018b90526044015b60405180910390fd5b8988146107bc576040516381b5b20760e01b8152600481018b905260248101899052604401610789565b8986146107e6576040516381b5b20760e01b8152600481018b905260248101879052604401610789565b838214610810576040516381b5b20760e01b81526004810185905260248101839052604401610789565b5f805b878110156108815788888281811061082d5761082d612f45565b905060200201355f036108535760405163261a4dfb60e21b815260040160405180910390fd5b88888281811061086557610865612f45565b90506020020135826108779190612f6d565b9150600101610813565b508085146108ac576040516381b5b20760e01b81526004810182905260248101869052604401610789565b505f5b8c811015610985575f8888838181106108ca576108ca612f45565b90506020020135905061095a8f8f848181106108e8576108e8612f45565b905060200201358e8e8581811061090157610901612f45565b90506020020160208101906109169190612cec565b8d8d8681811061092857610928612f45565b905060200201602081019061093d9190612f80565b610949855f8c8e612f99565b610955875f8c8e612f99565b6119e5565b6109668682818a612f99565b909750955061097784828188612f99565b9095509350506001016108af565b5050505050505050505050505050565b5f828152600560205260409020600101546109af81611626565b6109b98383611a6f565b50505050565b6001600160a01b03811633146109e85760405163334bd91960e11b815260040160405180910390fd5b6109f28282611b00565b505050565b5f51602061305d5f395f51905f52610a0e81611626565b610a16611b6b565b50565b5f51602061305d5f395f51905f52610a3081611626565b6109f283836116de565b5f51602061305d5f395f51905f52610a5181611626565b858314610a7b576040516381b5b20760e01b81526004810187905260248101849052604401610789565b5f869003610a9c5760405163261a4dfb60e21b815260040160405180910390fd5b610aab88888888888888611bbd565b5050505050505050565b5f51602061305d5f395f51905f52610acc81611626565b838214610af6576040516381b5b20760e01b81526004810185905260248101839052604401610789565b5f5b84811015610b5057610b48868683818110610b1557610b15612f45565b9050602002016020810190610b2a9190612cec565b858584818110610b3c57610b3c612f45565b90506020020135611d57565b600101610af8565b505050505050565b5f51602061305d5f395f51905f52610b6f81611626565b878614610b99576040516381b5b20760e01b81526004810189905260248101879052604401610789565b858414610bc3576040516381b5b20760e01b81526004810187905260248101859052604401610789565b858214610bed576040516381b5b20760e01b81526004810187905260248101839052604401610789565b5f5b86811015610e24575f8a8a83818110610c0a57610c0a612f45565b9050602002013503610c2f57604051633e90f4cd60e11b815260040160405180910390fd5b5f60095f8c8c85818110610c4557610c45612f45565b9050602002013581526020019081526020015f20549050805f14610cbb578a8a83818110610c7557610c75612f45565b905060200201357fcbcc4ef915094e2c9950ad8063cae4143971a59b5363fb80d70edbd4df3d23e082604051610cad91815260200190565b60405180910390a250610e1c565b4360095f8d8d86818110610cd157610cd1612f45565b9050602002013581526020019081526020015f20819055508a8a83818110610cfb57610cfb612f45565b905060200201357f369988e951df9a4d143a3e44d50a09d0b2f15b38d98db75b10aeccc11d556327888885818110610d3557610d35612f45565b90506020020135610d433390565b604080519283526001600160a01b0390911660208301520160405180910390a2610dab898984818110610d7857610d78612f45565b9050602002016020810190610d8d9190612cec565b888885818110610d9f57610d9f612f45565b905060200201356116de565b610e1a898984818110610dc057610dc0612f45565b9050602002016020810190610dd59190612cec565b888885818110610de757610de7612f45565b90506020020135878786818110610e0057610e00612f45565b9050602002016020810190610e159190612f80565b611712565b505b600101610bef565b50505050505050505050565b5f61067a82611d6c565b5f51602061305d5f395f51905f52610e5181611626565b838214610e7b576040516381b5b20760e01b81526004810185905260248101839052604401610789565b5f805b85811015610eb457848482818110610e9857610e98612f45565b9050602002013582610eaa9190612f6d565b9150600101610e7e565b50610ebf8782611630565b5f5b85811015610aab57610f05878783818110610ede57610ede612f45565b9050602002016020810190610ef39190612cec565b868684818110610b3c57610b3c612f45565b600101610ec1565b5f51602061305d5f395f51905f52610f2481611626565b838214610f4e576040516381b5b20760e01b81526004810185905260248101839052604401610789565b5f5b84811015610b5057610f94868683818110610f6d57610f6d612f45565b9050602002016020810190610f829190612cec565b858584818110610d9f57610d9f612f45565b600101610f50565b5f5f51602061305d5f395f51905f52610fb481611626565b826001600160a01b0316846001600160a01b031603610ff15760405163374d80bd60e01b81526001600160a01b0385166004820152602401610789565b6001600160a01b0384165f908152602081905260408120549061101386611d6c565b9050611020868684611e13565b846001600160a01b0316866001600160a01b03167f43267a6ee12107228e644c862a48c8d0ee857b6db076eb46e4809bec938ef3f3848461105e3390565b6040805193845260208401929092526001600160a01b03169082015260600160405180910390a350600195945050505050565b5f5f51602061305d5f395f51905f526110a981611626565b826001600160a01b0316846001600160a01b0316036110e65760405163374d80bd60e01b81526001600160a01b0385166004820152602401610789565b6001600160a01b0384165f908152602081905260408120549061110886611d6c565b90506111148783611630565b61111f868684611e13565b846001600160a01b0316866001600160a01b03167f43267a6ee12107228e644c862a48c8d0ee857b6db076eb46e4809bec938ef3f3848461115d3390565b6040805193845260208401929092526001600160a01b03169082015260600160405180910390a35060019695505050505050565b5f51602061305d5f395f51905f526111a881611626565b610a16611ebc565b5f6111ba82611d6c565b6001600160a01b0383165f9081526020819052604090205461067a9190612fc4565b5f9182526005602090815260408084206001600160a01b0393909316845291905290205460ff1690565b60606004805461068f90612f0d565b5f51602061305d5f395f51905f5261122c81611626565b6109f28383611d57565b5f5f51602061305d5f395f51905f5261124e81611626565b61073f858585611e13565b5f3361071d818585611988565b5f51602061305d5f395f51905f5261127d81611626565b6001600160a01b0383166112a45760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0383165f81815260076020526040808220805460ff19168615159081179091559051339391927f7fa523c84ab8d7fc5b72f08b9e46dbbf10c39e119a075b3e317002d14bc9f43691a4505050565b5f61130381611626565b61130c82611ef9565b5050565b5f51602061305d5f395f51905f5261132781611626565b858414611351576040516381b5b20760e01b81526004810187905260248101859052604401610789565b85821461137b576040516381b5b20760e01b81526004810187905260248101839052604401610789565b5f5b86811015610aab576113c188888381811061139a5761139a612f45565b90506020020160208101906113af9190612cec565b878784818110610d9f57610d9f612f45565b6114168888838181106113d6576113d6612f45565b90506020020160208101906113eb9190612cec565b8787848181106113fd576113fd612f45565b90506020020135868685818110610e0057610e00612f45565b60010161137d565b5f51602061305d5f395f51905f5261143581611626565b61143f84846116de565b6109b9848484611712565b5f8281526005602052604090206001015461146481611626565b6109b98383611b00565b5f51602061305d5f395f51905f5261148581611626565b61148f8483611630565b6109b983836116de565b5f6001600160a01b03841615806114b757506001600160a01b038316155b806114c4575060065460ff165b156114d057505f610745565b6001600160a01b0384165f9081526007602052604090205460ff168061150d57506001600160a01b0383165f9081526007602052604090205460ff165b1561151957505f610745565b60065460405163b9209e3360e01b81526001600160a01b0386811660048301526101009092049091169063b9209e3390602401602060405180830381865afa158015611567573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061158b9190612fd7565b1580611606575060065460405163b9209e3360e01b81526001600160a01b0385811660048301526101009092049091169063b9209e3390602401602060405180830381865afa1580156115e0573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906116049190612fd7565b155b1561161257505f610745565b8161161c856111b0565b1015949350505050565b610a168133611f94565b8161164e57604051633e90f4cd60e11b815260040160405180910390fd5b5f8281526009602052604090205480156116855760405163021b0bb960e41b81526004810184905260248101829052604401610789565b5f838152600960205260409020439055827f369988e951df9a4d143a3e44d50a09d0b2f15b38d98db75b10aeccc11d5563278333604080519283526001600160a01b0390911660208301520160405180910390a2505050565b6001600160a01b0382166117075760405163ec442f0560e01b81525f6004820152602401610789565b61130c5f8383611fcd565b42816001600160401b0316111580611728575081155b1561173257505050565b61173b8361216c565b6001600160a01b0383165f90815260086020526040812080549091805b8281101561180f57846001600160401b031684828154811061177c5761177c612f45565b5f918252602090912001546001600160401b0316036118075761179e86612281565b8482815481106117b0576117b0612f45565b5f91825260209091200180546008906117da908490600160401b90046001600160c01b0316612ff2565b92506101000a8154816001600160c01b0302191690836001600160c01b031602179055506001915061180f565b600101611758565b50806118b1576040821061184a5760408051635677e0eb60e11b81526001600160a01b03881660048201526024810191909152604401610789565b826040518060400160405280866001600160401b0316815260200161186e88612281565b6001600160c01b0390811690915282546001810184555f93845260209384902083519490930151909116600160401b026001600160401b03909316929092179101555b604080518681526001600160401b03861660208201526001600160a01b038816917feb70b889cfbcb8d507e59cdc8c4163505d3a4f597cb0edd649d3b13458353b5b910160405180910390a2505050505050565b6109f283838360016122b8565b6001600160a01b038381165f908152600160209081526040808320938616835292905220545f198110156109b9578181101561197a57604051637dc7a0d960e11b81526001600160a01b03841660048201526024810182905260448101839052606401610789565b6109b984848484035f6122b8565b6001600160a01b0383166119b157604051634b637e8f60e11b81525f6004820152602401610789565b6001600160a01b0382166119da5760405163ec442f0560e01b81525f6004820152602401610789565b6109f2838383611fcd565b86611a0357604051633e90f4cd60e11b815260040160405180910390fd5b5f878152600960205260409020548015611a5757877fcbcc4ef915094e2c9950ad8063cae4143971a59b5363fb80d70edbd4df3d23e082604051611a4991815260200190565b60405180910390a250611a66565b610aab8886868a87878c611bbd565b50505050505050565b5f611a7a83836111dc565b611af9575f8381526005602090815260408083206001600160a01b03861684529091529020805460ff19166001179055611ab13390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a450600161067a565b505f61067a565b5f611b0b83836111dc565b15611af9575f8381526005602090815260408083206001600160a01b0386168085529252808320805460ff1916905551339286917ff6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b9190a450600161067a565b611b7361238a565b6006805460ff191690557f5db9ee0a495bf2e6ff9c91a7834c1ba4fdd244a5e8aa4e537bd38aeae4b073aa335b6040516001600160a01b03909116815260200160405180910390a1565b5f805b86811015611bf657848482818110611bda57611bda612f45565b9050602002013582611bec9190612f6d565b9150600101611bc0565b50611c018882611630565b5f5b86811015611d4b57856001600160a01b0316888883818110611c2757611c27612f45565b9050602002016020810190611c3c9190612cec565b6001600160a01b031603611c6e5760405163374d80bd60e01b81526001600160a01b0387166004820152602401610789565b611cb7888883818110611c8357611c83612f45565b9050602002016020810190611c989190612cec565b87878785818110611cab57611cab612f45565b90506020020135611988565b856001600160a01b0316888883818110611cd357611cd3612f45565b9050602002016020810190611ce89190612cec565b6001600160a01b03168a7fbb87b9b35b469110e69d3dc5e99fb9958b8c7ed0984ce85ff2c916299e49d491888886818110611d2557611d25612f45565b90506020020135604051611d3b91815260200190565b60405180910390a4600101611c03565b50610aab858284611712565b611d6282825f6123af565b61130c82826125c0565b6001600160a01b0381165f9081526008602052604081208054825b81811015611e0b575f838281548110611da257611da2612f45565b5f918252602091829020604080518082019091529101546001600160401b038116808352600160401b9091046001600160c01b0316928201929092529150421015611e02576020810151611dff906001600160c01b031686612f6d565b94505b50600101611d87565b505050919050565b6001600160a01b038316611e3a5760405163d92e233d60e01b815260040160405180910390fd5b611e43826125f4565b611e4e8382846123af565b611e598383836126f9565b816001600160a01b0316836001600160a01b03167f31a05a6a55253f32ca1a2eae200ad7ddf38d17e9f6e0535e9a85ab4a218aeaa383611e963390565b604080519283526001600160a01b039091166020830152015b60405180910390a3505050565b611ec4612812565b6006805460ff191660011790557f62e78cea01bee320cd4e420270b5ea74000d11b0c9f74754ebdbfc544b05a258611ba03390565b806001600160a01b03163b5f03611f2e576040516328b4083160e21b81526001600160a01b0382166004820152602401610789565b6006546040516001600160a01b0380841692610100900416907f47c658e751c7ab06879121698e750afeeb24987b5f585894621fd6db318ae0f8905f90a3600680546001600160a01b0390921661010002610100600160a81b0319909216919091179055565b611f9e82826111dc565b61130c5760405163e2517d3f60e01b81526001600160a01b038216600482015260248101839052604401610789565b6001600160a01b038316611ff157611fe3612812565b611fec826125f4565b612161565b6001600160a01b0382161561216157612008612812565b6001600160a01b0383165f9081526007602052604090205460ff161561204c5760405163064b886960e51b81526001600160a01b0384166004820152602401610789565b60065460405163b9209e3360e01b81526001600160a01b0385811660048301526101009092049091169063b9209e3390602401602060405180830381865afa15801561209a573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906120be9190612fd7565b6120e65760405163b12c8f9160e01b81526001600160a01b0384166004820152602401610789565b6120ef826125f4565b6001600160a01b0383165f9081526020819052604090205480821161215f575f61211885611d6c565b90506121248183612fc4565b83111561215d5760405163c50ebcf960e01b81526001600160a01b03861660048201526024810182905260448101849052606401610789565b505b505b6109f28383836126f9565b6001600160a01b0381165f90815260086020526040812080549091805b8281101561224b575f8482815481106121a4576121a4612f45565b5f918252602091829020604080518082019091529101546001600160401b038116808352600160401b9091046001600160c01b031692820192909252915042101561224257818314612236578085848154811061220357612203612f45565b5f918252602091829020835193909201516001600160c01b0316600160401b026001600160401b03909316929092179101555b61223f83613011565b92505b50600101612189565b505b82548110156109b9578280548061226657612266613029565b5f8281526020812082015f199081019190915501905561224d565b5f6001600160c01b038211156122b4576040516306dfcc6560e41b815260c0600482015260248101839052604401610789565b5090565b6001600160a01b0384166122e15760405163e602df0560e01b81525f6004820152602401610789565b6001600160a01b03831661230a57604051634a1406b160e11b81525f6004820152602401610789565b6001600160a01b038085165f90815260016020908152604080832093871683529290522082905580156109b957826001600160a01b0316846001600160a01b03167f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9258460405161237c91815260200190565b60405180910390a350505050565b60065460ff166123ad57604051638dfc202b60e01b815260040160405180910390fd5b565b6001600160a01b0383165f90815260208190526040902054808311156123d55750505050565b6123de8461216c565b6001600160a01b0384165f90815260086020526040812090805b82548110156124425782818154811061241357612413612f45565b5f9182526020909120015461243890600160401b90046001600160c01b031683612f6d565b91506001016123f8565b505f61244e8285612fc4565b90508086116124605750505050505050565b5f61246b8288612fc4565b90505b8015610aab5783545f90859061248690600190612fc4565b8154811061249657612496612f45565b5f91825260209091200180549091506001600160401b03811690600160401b90046001600160c01b03168381111561251e5750826124d381612281565b835484906008906124f5908490600160401b90046001600160c01b031661303d565b92506101000a8154816001600160c01b0302191690836001600160c01b03160217905550612545565b8680548061252e5761252e613029565b5f8281526020812082015f19908101919091550190555b61254f8185612fc4565b604080518381526001600160401b03851660208201529195506001600160a01b038d16917fd2126e37d51be472f7f014600430be03d9a40af0369885b2ccbcfb051e9cead7910160405180910390a26001600160a01b038916156125b8576125b8898284611712565b50505061246e565b6001600160a01b0382166125e957604051634b637e8f60e11b81525f6004820152602401610789565b61130c825f83611fcd565b6001600160a01b03811661261b5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0381165f9081526007602052604090205460ff161561265f5760405163064b886960e51b81526001600160a01b0382166004820152602401610789565b60065460405163b9209e3360e01b81526001600160a01b0383811660048301526101009092049091169063b9209e3390602401602060405180830381865afa1580156126ad573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906126d19190612fd7565b610a165760405163b12c8f9160e01b81526001600160a01b0382166004820152602401610789565b6001600160a01b038316612723578060025f8282546127189190612f6d565b909155506127939050565b6001600160a01b0383165f90815260208190526040902054818110156127755760405163391434e360e21b81526001600160a01b03851660048201526024810182905260448101839052606401610789565b6001600160a01b0384165f9081526020819052604090209082900390555b6001600160a01b0382166127af576002805482900390556127cd565b6001600160a01b0382165f9081526020819052604090208054820190555b816001600160a01b0316836001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef83604051611eaf91815260200190565b60065460ff16156123ad5760405163d93c066560e01b815260040160405180910390fd5b80356001600160a01b038116811461284c575f5ffd5b919050565b80356001600160401b038116811461284c575f5ffd5b5f5f5f5f6080858703121561287a575f5ffd5b8435935061288a60208601612836565b92506040850135915061289f60608601612851565b905092959194509250565b5f602082840312156128ba575f5ffd5b81356001600160e01b031981168114610745575f5ffd5b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f5f60408385031215612917575f5ffd5b61292083612836565b946020939093013593505050565b5f6020828403121561293e575f5ffd5b5035919050565b5f5f5f60608486031215612957575f5ffd5b61296084612836565b925061296e60208501612836565b929592945050506040919091013590565b5f5f83601f84011261298f575f5ffd5b5081356001600160401b038111156129a5575f5ffd5b6020830191508360208260051b85010111156129bf575f5ffd5b9250929050565b5f5f5f5f5f5f5f5f5f5f5f5f60c08d8f0312156129e1575f5ffd5b6001600160401b038d3511156129f5575f5ffd5b612a028e8e358f0161297f565b909c509a506001600160401b0360208e01351115612a1e575f5ffd5b612a2e8e60208f01358f0161297f565b909a5098506001600160401b0360408e01351115612a4a575f5ffd5b612a5a8e60408f01358f0161297f565b90985096506001600160401b0360608e01351115612a76575f5ffd5b612a868e60608f01358f0161297f565b90965094506001600160401b0360808e01351115612aa2575f5ffd5b612ab28e60808f01358f0161297f565b90945092506001600160401b0360a08e01351115612ace575f5ffd5b612ade8e60a08f01358f0161297f565b81935080925050509295989b509295989b509295989b565b5f5f60408385031215612b07575f5ffd5b82359150612b1760208401612836565b90509250929050565b5f5f5f5f5f5f5f60a0888a031215612b36575f5ffd5b8735965060208801356001600160401b03811115612b52575f5ffd5b612b5e8a828b0161297f565b9097509550612b71905060408901612836565b935060608801356001600160401b03811115612b8b575f5ffd5b612b978a828b0161297f565b9094509250612baa905060808901612851565b905092959891949750929550565b5f5f5f5f60408587031215612bcb575f5ffd5b84356001600160401b03811115612be0575f5ffd5b612bec8782880161297f565b90955093505060208501356001600160401b03811115612c0a575f5ffd5b612c168782880161297f565b95989497509550505050565b5f5f5f5f5f5f5f5f6080898b031215612c39575f5ffd5b88356001600160401b03811115612c4e575f5ffd5b612c5a8b828c0161297f565b90995097505060208901356001600160401b03811115612c78575f5ffd5b612c848b828c0161297f565b90975095505060408901356001600160401b03811115612ca2575f5ffd5b612cae8b828c0161297f565b90955093505060608901356001600160401b03811115612ccc575f5ffd5b612cd88b828c0161297f565b999c989b5096995094979396929594505050565b5f60208284031215612cfc575f5ffd5b61074582612836565b5f5f5f5f5f60608688031215612d19575f5ffd5b8535945060208601356001600160401b03811115612d35575f5ffd5b612d418882890161297f565b90955093505060408601356001600160401b03811115612d5f575f5ffd5b612d6b8882890161297f565b969995985093965092949392505050565b5f5f60408385031215612d8d575f5ffd5b612d9683612836565b9150612b1760208401612836565b5f5f5f60608486031215612db6575f5ffd5b83359250612dc660208501612836565b9150612dd460408501612836565b90509250925092565b8015158114610a16575f5ffd5b5f5f60408385031215612dfb575f5ffd5b612e0483612836565b91506020830135612e1481612ddd565b809150509250929050565b5f5f5f5f5f5f60608789031215612e34575f5ffd5b86356001600160401b03811115612e49575f5ffd5b612e5589828a0161297f565b90975095505060208701356001600160401b03811115612e73575f5ffd5b612e7f89828a0161297f565b90955093505060408701356001600160401b03811115612e9d575f5ffd5b612ea989828a0161297f565b979a9699509497509295939492505050565b5f5f5f60608486031215612ecd575f5ffd5b612ed684612836565b925060208401359150612dd460408501612851565b5f5f5f60608486031215612efd575f5ffd5b8335925061296e60208501612836565b600181811c90821680612f2157607f821691505b602082108103612f3f57634e487b7160e01b5f52602260045260245ffd5b50919050565b634e487b7160e01b5f52603260045260245ffd5b634e487b7160e01b5f52601160045260245ffd5b8082018082111561067a5761067a612f59565b5f60208284031215612f90575f5ffd5b61074582612851565b5f5f85851115612fa7575f5ffd5b83861115612fb3575f5ffd5b5050600583901b0193919092039150565b8181038181111561067a5761067a612f59565b5f60208284031215612fe7575f5ffd5b815161074581612ddd565b6001600160c01b03818116838216019081111561067a5761067a612f59565b5f6001820161302257613022612f59565b5060010190565b634e487b7160e01b5f52603160045260245ffd5b6001600160c01b03828116828216039081111561067a5761067a612f5956fecab5a0bfe0b79d2c4b1c2e02599fa044d115b7511f9659307cb4276950967709a26469706673582212209bd864dfbcbc8f3545a954ee97ea5de50faede301a5caa3917701bc49b87653864736f6c63430008250033",
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

// PackMAXLOCKS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd3229343.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_LOCKS() view returns(uint256)
func (shareToken *ShareToken) PackMAXLOCKS() []byte {
	enc, err := shareToken.abi.Pack("MAX_LOCKS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXLOCKS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd3229343.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_LOCKS() view returns(uint256)
func (shareToken *ShareToken) TryPackMAXLOCKS() ([]byte, error) {
	return shareToken.abi.Pack("MAX_LOCKS")
}

// UnpackMAXLOCKS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd3229343.
//
// Solidity: function MAX_LOCKS() view returns(uint256)
func (shareToken *ShareToken) UnpackMAXLOCKS(data []byte) (*big.Int, error) {
	out, err := shareToken.abi.Unpack("MAX_LOCKS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
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

// PackBatchMintLocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcf02262d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function batchMintLocked(address[] to, uint256[] amounts, uint64[] releaseTimes) returns()
func (shareToken *ShareToken) PackBatchMintLocked(to []common.Address, amounts []*big.Int, releaseTimes []uint64) []byte {
	enc, err := shareToken.abi.Pack("batchMintLocked", to, amounts, releaseTimes)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBatchMintLocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcf02262d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function batchMintLocked(address[] to, uint256[] amounts, uint64[] releaseTimes) returns()
func (shareToken *ShareToken) TryPackBatchMintLocked(to []common.Address, amounts []*big.Int, releaseTimes []uint64) ([]byte, error) {
	return shareToken.abi.Pack("batchMintLocked", to, amounts, releaseTimes)
}

// PackBatchMintWithRefs is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4db35466.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function batchMintWithRefs(bytes32[] refs, address[] to, uint256[] amounts, uint64[] releaseTimes) returns()
func (shareToken *ShareToken) PackBatchMintWithRefs(refs [][32]byte, to []common.Address, amounts []*big.Int, releaseTimes []uint64) []byte {
	enc, err := shareToken.abi.Pack("batchMintWithRefs", refs, to, amounts, releaseTimes)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBatchMintWithRefs is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4db35466.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function batchMintWithRefs(bytes32[] refs, address[] to, uint256[] amounts, uint64[] releaseTimes) returns()
func (shareToken *ShareToken) TryPackBatchMintWithRefs(refs [][32]byte, to []common.Address, amounts []*big.Int, releaseTimes []uint64) ([]byte, error) {
	return shareToken.abi.Pack("batchMintWithRefs", refs, to, amounts, releaseTimes)
}

// PackBatchSettleWithRefs is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e7054d9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function batchSettleWithRefs(bytes32[] refs, address[] to, uint64[] releaseTimes, uint256[] legCounts, address[] from, uint256[] amounts) returns()
func (shareToken *ShareToken) PackBatchSettleWithRefs(refs [][32]byte, to []common.Address, releaseTimes []uint64, legCounts []*big.Int, from []common.Address, amounts []*big.Int) []byte {
	enc, err := shareToken.abi.Pack("batchSettleWithRefs", refs, to, releaseTimes, legCounts, from, amounts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBatchSettleWithRefs is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e7054d9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function batchSettleWithRefs(bytes32[] refs, address[] to, uint64[] releaseTimes, uint256[] legCounts, address[] from, uint256[] amounts) returns()
func (shareToken *ShareToken) TryPackBatchSettleWithRefs(refs [][32]byte, to []common.Address, releaseTimes []uint64, legCounts []*big.Int, from []common.Address, amounts []*big.Int) ([]byte, error) {
	return shareToken.abi.Pack("batchSettleWithRefs", refs, to, releaseTimes, legCounts, from, amounts)
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

// PackBurnWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5e2b9a3a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function burnWithRef(bytes32 ref, address[] from, uint256[] amounts) returns()
func (shareToken *ShareToken) PackBurnWithRef(ref [32]byte, from []common.Address, amounts []*big.Int) []byte {
	enc, err := shareToken.abi.Pack("burnWithRef", ref, from, amounts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBurnWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5e2b9a3a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function burnWithRef(bytes32 ref, address[] from, uint256[] amounts) returns()
func (shareToken *ShareToken) TryPackBurnWithRef(ref [32]byte, from []common.Address, amounts []*big.Int) ([]byte, error) {
	return shareToken.abi.Pack("burnWithRef", ref, from, amounts)
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

// PackEffectApplied is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0ead64c7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function effectApplied(bytes32 ref) view returns(uint256)
func (shareToken *ShareToken) PackEffectApplied(ref [32]byte) []byte {
	enc, err := shareToken.abi.Pack("effectApplied", ref)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEffectApplied is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0ead64c7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function effectApplied(bytes32 ref) view returns(uint256)
func (shareToken *ShareToken) TryPackEffectApplied(ref [32]byte) ([]byte, error) {
	return shareToken.abi.Pack("effectApplied", ref)
}

// UnpackEffectApplied is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0ead64c7.
//
// Solidity: function effectApplied(bytes32 ref) view returns(uint256)
func (shareToken *ShareToken) UnpackEffectApplied(data []byte) (*big.Int, error) {
	out, err := shareToken.abi.Unpack("effectApplied", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
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

// PackLockedBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x59355736.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function lockedBalanceOf(address holder) view returns(uint256)
func (shareToken *ShareToken) PackLockedBalanceOf(holder common.Address) []byte {
	enc, err := shareToken.abi.Pack("lockedBalanceOf", holder)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLockedBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x59355736.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function lockedBalanceOf(address holder) view returns(uint256)
func (shareToken *ShareToken) TryPackLockedBalanceOf(holder common.Address) ([]byte, error) {
	return shareToken.abi.Pack("lockedBalanceOf", holder)
}

// UnpackLockedBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x59355736.
//
// Solidity: function lockedBalanceOf(address holder) view returns(uint256)
func (shareToken *ShareToken) UnpackLockedBalanceOf(data []byte) (*big.Int, error) {
	out, err := shareToken.abi.Unpack("lockedBalanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
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

// PackMintLocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd3145aa4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mintLocked(address to, uint256 amount, uint64 releaseTime) returns()
func (shareToken *ShareToken) PackMintLocked(to common.Address, amount *big.Int, releaseTime uint64) []byte {
	enc, err := shareToken.abi.Pack("mintLocked", to, amount, releaseTime)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMintLocked is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd3145aa4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mintLocked(address to, uint256 amount, uint64 releaseTime) returns()
func (shareToken *ShareToken) TryPackMintLocked(to common.Address, amount *big.Int, releaseTime uint64) ([]byte, error) {
	return shareToken.abi.Pack("mintLocked", to, amount, releaseTime)
}

// PackMintLockedWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00a41157.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mintLockedWithRef(bytes32 ref, address to, uint256 amount, uint64 releaseTime) returns()
func (shareToken *ShareToken) PackMintLockedWithRef(ref [32]byte, to common.Address, amount *big.Int, releaseTime uint64) []byte {
	enc, err := shareToken.abi.Pack("mintLockedWithRef", ref, to, amount, releaseTime)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMintLockedWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00a41157.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mintLockedWithRef(bytes32 ref, address to, uint256 amount, uint64 releaseTime) returns()
func (shareToken *ShareToken) TryPackMintLockedWithRef(ref [32]byte, to common.Address, amount *big.Int, releaseTime uint64) ([]byte, error) {
	return shareToken.abi.Pack("mintLockedWithRef", ref, to, amount, releaseTime)
}

// PackMintWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd937e99b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mintWithRef(bytes32 ref, address to, uint256 amount) returns()
func (shareToken *ShareToken) PackMintWithRef(ref [32]byte, to common.Address, amount *big.Int) []byte {
	enc, err := shareToken.abi.Pack("mintWithRef", ref, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMintWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd937e99b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mintWithRef(bytes32 ref, address to, uint256 amount) returns()
func (shareToken *ShareToken) TryPackMintWithRef(ref [32]byte, to common.Address, amount *big.Int) ([]byte, error) {
	return shareToken.abi.Pack("mintWithRef", ref, to, amount)
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

// PackRecoverWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x78228c1f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function recoverWallet(address lost, address replacement) returns(bool)
func (shareToken *ShareToken) PackRecoverWallet(lost common.Address, replacement common.Address) []byte {
	enc, err := shareToken.abi.Pack("recoverWallet", lost, replacement)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRecoverWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x78228c1f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function recoverWallet(address lost, address replacement) returns(bool)
func (shareToken *ShareToken) TryPackRecoverWallet(lost common.Address, replacement common.Address) ([]byte, error) {
	return shareToken.abi.Pack("recoverWallet", lost, replacement)
}

// UnpackRecoverWallet is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x78228c1f.
//
// Solidity: function recoverWallet(address lost, address replacement) returns(bool)
func (shareToken *ShareToken) UnpackRecoverWallet(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("recoverWallet", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackRecoverWalletWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7cd4d329.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function recoverWalletWithRef(bytes32 ref, address lost, address replacement) returns(bool)
func (shareToken *ShareToken) PackRecoverWalletWithRef(ref [32]byte, lost common.Address, replacement common.Address) []byte {
	enc, err := shareToken.abi.Pack("recoverWalletWithRef", ref, lost, replacement)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRecoverWalletWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7cd4d329.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function recoverWalletWithRef(bytes32 ref, address lost, address replacement) returns(bool)
func (shareToken *ShareToken) TryPackRecoverWalletWithRef(ref [32]byte, lost common.Address, replacement common.Address) ([]byte, error) {
	return shareToken.abi.Pack("recoverWalletWithRef", ref, lost, replacement)
}

// UnpackRecoverWalletWithRef is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7cd4d329.
//
// Solidity: function recoverWalletWithRef(bytes32 ref, address lost, address replacement) returns(bool)
func (shareToken *ShareToken) UnpackRecoverWalletWithRef(data []byte) (bool, error) {
	out, err := shareToken.abi.Unpack("recoverWalletWithRef", data)
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

// PackSettleWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x42717ef1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settleWithRef(bytes32 ref, address[] from, address to, uint256[] amounts, uint64 releaseTime) returns()
func (shareToken *ShareToken) PackSettleWithRef(ref [32]byte, from []common.Address, to common.Address, amounts []*big.Int, releaseTime uint64) []byte {
	enc, err := shareToken.abi.Pack("settleWithRef", ref, from, to, amounts, releaseTime)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettleWithRef is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x42717ef1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settleWithRef(bytes32 ref, address[] from, address to, uint256[] amounts, uint64 releaseTime) returns()
func (shareToken *ShareToken) TryPackSettleWithRef(ref [32]byte, from []common.Address, to common.Address, amounts []*big.Int, releaseTime uint64) ([]byte, error) {
	return shareToken.abi.Pack("settleWithRef", ref, from, to, amounts, releaseTime)
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

// PackUnlockedBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x84955c88.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unlockedBalanceOf(address holder) view returns(uint256)
func (shareToken *ShareToken) PackUnlockedBalanceOf(holder common.Address) []byte {
	enc, err := shareToken.abi.Pack("unlockedBalanceOf", holder)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnlockedBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x84955c88.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unlockedBalanceOf(address holder) view returns(uint256)
func (shareToken *ShareToken) TryPackUnlockedBalanceOf(holder common.Address) ([]byte, error) {
	return shareToken.abi.Pack("unlockedBalanceOf", holder)
}

// UnpackUnlockedBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x84955c88.
//
// Solidity: function unlockedBalanceOf(address holder) view returns(uint256)
func (shareToken *ShareToken) UnpackUnlockedBalanceOf(data []byte) (*big.Int, error) {
	out, err := shareToken.abi.Unpack("unlockedBalanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
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

// ShareTokenEffectApplied represents a EffectApplied event raised by the ShareToken contract.
type ShareTokenEffectApplied struct {
	Ref   [32]byte
	Units *big.Int
	Agent common.Address
	Raw   *types.Log // Blockchain specific contextual infos
}

const ShareTokenEffectAppliedEventName = "EffectApplied"

// ContractEventName returns the user-defined event name.
func (ShareTokenEffectApplied) ContractEventName() string {
	return ShareTokenEffectAppliedEventName
}

// UnpackEffectAppliedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EffectApplied(bytes32 indexed ref, uint256 units, address agent)
func (shareToken *ShareToken) UnpackEffectAppliedEvent(log *types.Log) (*ShareTokenEffectApplied, error) {
	event := "EffectApplied"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenEffectApplied)
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

// ShareTokenEffectSkipped represents a EffectSkipped event raised by the ShareToken contract.
type ShareTokenEffectSkipped struct {
	Ref       [32]byte
	AppliedIn *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const ShareTokenEffectSkippedEventName = "EffectSkipped"

// ContractEventName returns the user-defined event name.
func (ShareTokenEffectSkipped) ContractEventName() string {
	return ShareTokenEffectSkippedEventName
}

// UnpackEffectSkippedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EffectSkipped(bytes32 indexed ref, uint256 appliedIn)
func (shareToken *ShareToken) UnpackEffectSkippedEvent(log *types.Log) (*ShareTokenEffectSkipped, error) {
	event := "EffectSkipped"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenEffectSkipped)
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

// ShareTokenLockRemoved represents a LockRemoved event raised by the ShareToken contract.
type ShareTokenLockRemoved struct {
	Holder      common.Address
	Amount      *big.Int
	ReleaseTime uint64
	Raw         *types.Log // Blockchain specific contextual infos
}

const ShareTokenLockRemovedEventName = "LockRemoved"

// ContractEventName returns the user-defined event name.
func (ShareTokenLockRemoved) ContractEventName() string {
	return ShareTokenLockRemovedEventName
}

// UnpackLockRemovedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event LockRemoved(address indexed holder, uint256 amount, uint64 releaseTime)
func (shareToken *ShareToken) UnpackLockRemovedEvent(log *types.Log) (*ShareTokenLockRemoved, error) {
	event := "LockRemoved"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenLockRemoved)
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

// ShareTokenLocked represents a Locked event raised by the ShareToken contract.
type ShareTokenLocked struct {
	Holder      common.Address
	Amount      *big.Int
	ReleaseTime uint64
	Raw         *types.Log // Blockchain specific contextual infos
}

const ShareTokenLockedEventName = "Locked"

// ContractEventName returns the user-defined event name.
func (ShareTokenLocked) ContractEventName() string {
	return ShareTokenLockedEventName
}

// UnpackLockedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Locked(address indexed holder, uint256 amount, uint64 releaseTime)
func (shareToken *ShareToken) UnpackLockedEvent(log *types.Log) (*ShareTokenLocked, error) {
	event := "Locked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenLocked)
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

// ShareTokenSecondaryTransfer represents a SecondaryTransfer event raised by the ShareToken contract.
type ShareTokenSecondaryTransfer struct {
	Ref   [32]byte
	From  common.Address
	To    common.Address
	Units *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const ShareTokenSecondaryTransferEventName = "SecondaryTransfer"

// ContractEventName returns the user-defined event name.
func (ShareTokenSecondaryTransfer) ContractEventName() string {
	return ShareTokenSecondaryTransferEventName
}

// UnpackSecondaryTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SecondaryTransfer(bytes32 indexed ref, address indexed from, address indexed to, uint256 units)
func (shareToken *ShareToken) UnpackSecondaryTransferEvent(log *types.Log) (*ShareTokenSecondaryTransfer, error) {
	event := "SecondaryTransfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenSecondaryTransfer)
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

// ShareTokenWalletRecovered represents a WalletRecovered event raised by the ShareToken contract.
type ShareTokenWalletRecovered struct {
	Lost        common.Address
	Replacement common.Address
	Amount      *big.Int
	Locked      *big.Int
	Agent       common.Address
	Raw         *types.Log // Blockchain specific contextual infos
}

const ShareTokenWalletRecoveredEventName = "WalletRecovered"

// ContractEventName returns the user-defined event name.
func (ShareTokenWalletRecovered) ContractEventName() string {
	return ShareTokenWalletRecoveredEventName
}

// UnpackWalletRecoveredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WalletRecovered(address indexed lost, address indexed replacement, uint256 amount, uint256 locked, address agent)
func (shareToken *ShareToken) UnpackWalletRecoveredEvent(log *types.Log) (*ShareTokenWalletRecovered, error) {
	event := "WalletRecovered"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != shareToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(ShareTokenWalletRecovered)
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
	if bytes.Equal(raw[:4], shareToken.abi.Errors["EffectAlreadyApplied"].ID.Bytes()[:4]) {
		return shareToken.UnpackEffectAlreadyAppliedError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["EmptySettlement"].ID.Bytes()[:4]) {
		return shareToken.UnpackEmptySettlementError(raw[4:])
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
	if bytes.Equal(raw[:4], shareToken.abi.Errors["LockedUnits"].ID.Bytes()[:4]) {
		return shareToken.UnpackLockedUnitsError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["NotVerified"].ID.Bytes()[:4]) {
		return shareToken.UnpackNotVerifiedError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["SafeCastOverflowedUintDowncast"].ID.Bytes()[:4]) {
		return shareToken.UnpackSafeCastOverflowedUintDowncastError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["SameWallet"].ID.Bytes()[:4]) {
		return shareToken.UnpackSameWalletError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["TooManyLocks"].ID.Bytes()[:4]) {
		return shareToken.UnpackTooManyLocksError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["WalletFrozen"].ID.Bytes()[:4]) {
		return shareToken.UnpackWalletFrozenError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return shareToken.UnpackZeroAddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], shareToken.abi.Errors["ZeroRef"].ID.Bytes()[:4]) {
		return shareToken.UnpackZeroRefError(raw[4:])
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

// ShareTokenEffectAlreadyApplied represents a EffectAlreadyApplied error raised by the ShareToken contract.
type ShareTokenEffectAlreadyApplied struct {
	Ref       [32]byte
	AppliedIn *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error EffectAlreadyApplied(bytes32 ref, uint256 appliedIn)
func ShareTokenEffectAlreadyAppliedErrorID() common.Hash {
	return common.HexToHash("0x21b0bb903eec441196f08f06324a7f0247a4c79b5bc57be2aa37057a053cfbee")
}

// UnpackEffectAlreadyAppliedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error EffectAlreadyApplied(bytes32 ref, uint256 appliedIn)
func (shareToken *ShareToken) UnpackEffectAlreadyAppliedError(raw []byte) (*ShareTokenEffectAlreadyApplied, error) {
	out := new(ShareTokenEffectAlreadyApplied)
	if err := shareToken.abi.UnpackIntoInterface(out, "EffectAlreadyApplied", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenEmptySettlement represents a EmptySettlement error raised by the ShareToken contract.
type ShareTokenEmptySettlement struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error EmptySettlement()
func ShareTokenEmptySettlementErrorID() common.Hash {
	return common.HexToHash("0x986937ec98838af146eb4b30b5c656a654735bc89121acd66a89b7e539965d2d")
}

// UnpackEmptySettlementError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error EmptySettlement()
func (shareToken *ShareToken) UnpackEmptySettlementError(raw []byte) (*ShareTokenEmptySettlement, error) {
	out := new(ShareTokenEmptySettlement)
	if err := shareToken.abi.UnpackIntoInterface(out, "EmptySettlement", raw); err != nil {
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

// ShareTokenLockedUnits represents a LockedUnits error raised by the ShareToken contract.
type ShareTokenLockedUnits struct {
	Holder    common.Address
	Locked    *big.Int
	Requested *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error LockedUnits(address holder, uint256 locked, uint256 requested)
func ShareTokenLockedUnitsErrorID() common.Hash {
	return common.HexToHash("0xc50ebcf993fc5f525ee229b4e48ccea60c720fa99b754adc6bb30e81255cdfec")
}

// UnpackLockedUnitsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error LockedUnits(address holder, uint256 locked, uint256 requested)
func (shareToken *ShareToken) UnpackLockedUnitsError(raw []byte) (*ShareTokenLockedUnits, error) {
	out := new(ShareTokenLockedUnits)
	if err := shareToken.abi.UnpackIntoInterface(out, "LockedUnits", raw); err != nil {
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

// ShareTokenSafeCastOverflowedUintDowncast represents a SafeCastOverflowedUintDowncast error raised by the ShareToken contract.
type ShareTokenSafeCastOverflowedUintDowncast struct {
	Bits  uint8
	Value *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SafeCastOverflowedUintDowncast(uint8 bits, uint256 value)
func ShareTokenSafeCastOverflowedUintDowncastErrorID() common.Hash {
	return common.HexToHash("0x6dfcc6503a32754ce7a89698e18201fc5294fd4aad43edefee786f88423b1a12")
}

// UnpackSafeCastOverflowedUintDowncastError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SafeCastOverflowedUintDowncast(uint8 bits, uint256 value)
func (shareToken *ShareToken) UnpackSafeCastOverflowedUintDowncastError(raw []byte) (*ShareTokenSafeCastOverflowedUintDowncast, error) {
	out := new(ShareTokenSafeCastOverflowedUintDowncast)
	if err := shareToken.abi.UnpackIntoInterface(out, "SafeCastOverflowedUintDowncast", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenSameWallet represents a SameWallet error raised by the ShareToken contract.
type ShareTokenSameWallet struct {
	Wallet common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SameWallet(address wallet)
func ShareTokenSameWalletErrorID() common.Hash {
	return common.HexToHash("0x374d80bd46545ab22dac4fc7f84194d6ba50a5e2dd1e925bc28234b25b2b75d8")
}

// UnpackSameWalletError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SameWallet(address wallet)
func (shareToken *ShareToken) UnpackSameWalletError(raw []byte) (*ShareTokenSameWallet, error) {
	out := new(ShareTokenSameWallet)
	if err := shareToken.abi.UnpackIntoInterface(out, "SameWallet", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ShareTokenTooManyLocks represents a TooManyLocks error raised by the ShareToken contract.
type ShareTokenTooManyLocks struct {
	Holder common.Address
	Max    *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TooManyLocks(address holder, uint256 max)
func ShareTokenTooManyLocksErrorID() common.Hash {
	return common.HexToHash("0xacefc1d694c0aa4db91ea30e059057ae7af797718ba19d0c983211aeff59a056")
}

// UnpackTooManyLocksError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TooManyLocks(address holder, uint256 max)
func (shareToken *ShareToken) UnpackTooManyLocksError(raw []byte) (*ShareTokenTooManyLocks, error) {
	out := new(ShareTokenTooManyLocks)
	if err := shareToken.abi.UnpackIntoInterface(out, "TooManyLocks", raw); err != nil {
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

// ShareTokenZeroRef represents a ZeroRef error raised by the ShareToken contract.
type ShareTokenZeroRef struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroRef()
func ShareTokenZeroRefErrorID() common.Hash {
	return common.HexToHash("0x7d21e99a8efbe9dbad0cfdc788ace58f3a65d66ee77135ee620e207eb1be1ecf")
}

// UnpackZeroRefError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroRef()
func (shareToken *ShareToken) UnpackZeroRefError(raw []byte) (*ShareTokenZeroRef, error) {
	out := new(ShareTokenZeroRef)
	if err := shareToken.abi.UnpackIntoInterface(out, "ZeroRef", raw); err != nil {
		return nil, err
	}
	return out, nil
}
