// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IIdentityRegistry} from "./IIdentityRegistry.sol";

/// @title Registered (eligible) wallets, one registry per chain serving every share class.
/// @notice In the manner of ERC-3643's identity registry, without on-chain identity claims:
/// the platform checks the account off-chain and its agent registers the account's wallet here.
/// A registered wallet is a verified wallet.
contract IdentityRegistry is AccessControl, IIdentityRegistry {
    /// @notice Holders of this role register and remove wallets (the operator's key).
    bytes32 public constant AGENT_ROLE = keccak256("AGENT_ROLE");

    mapping(address wallet => bool registered) private _registered;

    /// @notice `wallet` became eligible; `agent` registered it.
    event WalletRegistered(address indexed wallet, address indexed agent);
    /// @notice `wallet` is no longer eligible; `agent` removed it.
    event WalletRemoved(address indexed wallet, address indexed agent);

    /// @notice An address argument was the zero address.
    error ZeroAddress();
    /// @notice `wallet` is registered already; registering twice is a caller's mistake.
    error WalletAlreadyRegistered(address wallet);
    /// @notice `wallet` is not registered, so it cannot be removed.
    error WalletNotRegistered(address wallet);

    /// @param admin configures the registry and grants roles (DEFAULT_ADMIN_ROLE).
    /// @param agent registers and removes wallets (AGENT_ROLE).
    constructor(address admin, address agent) {
        if (admin == address(0) || agent == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(AGENT_ROLE, agent);
    }

    /// @notice Makes `wallet` eligible to hold and receive every share token using this registry.
    function registerWallet(address wallet) external onlyRole(AGENT_ROLE) {
        _register(wallet);
    }

    /// @notice Registers many wallets in one transaction; reverts whole if any one fails.
    function batchRegisterWallets(address[] calldata wallets) external onlyRole(AGENT_ROLE) {
        for (uint256 i = 0; i < wallets.length; ++i) {
            _register(wallets[i]);
        }
    }

    /// @notice Takes `wallet` out: it can no longer receive or send share tokens (the agent can
    /// still burn from it or force its units to a registered wallet).
    function removeWallet(address wallet) external onlyRole(AGENT_ROLE) {
        if (!_registered[wallet]) revert WalletNotRegistered(wallet);
        _registered[wallet] = false;
        emit WalletRemoved(wallet, _msgSender());
    }

    /// @inheritdoc IIdentityRegistry
    function isVerified(address wallet) external view returns (bool) {
        return _registered[wallet];
    }

    function _register(address wallet) private {
        if (wallet == address(0)) revert ZeroAddress();
        if (_registered[wallet]) revert WalletAlreadyRegistered(wallet);
        _registered[wallet] = true;
        emit WalletRegistered(wallet, _msgSender());
    }
}
