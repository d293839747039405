// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {IIdentityRegistry} from "./IIdentityRegistry.sol";

/// @title The units of one share class of a fund, as a permissioned ERC-20 token.
/// @notice In the manner of ERC-3643 (T-REX): units move only between wallets the identity
/// registry verifies and that are not frozen, while the token is not paused. The agent (the
/// operator's key) issues and redeems units, freezes wallets, pauses the token and forces
/// transfers to recover units from a lost wallet; the admin configures the token and its roles.
///
/// One token unit is one share-class unit: decimals() is 0 and balanceOf(wallet) is the number
/// of units held through that wallet.
///
/// Pause stops holder transfers and issuance (mint). Burn and forcedTransfer stay open to the
/// agent so an incident can be handled while holders are stopped. (ERC-3643 pauses transfers
/// only; this token also stops mint so that no new units enter circulation while paused.)
contract ShareToken is ERC20, AccessControl, Pausable {
    /// @notice Holders of this role mint, burn, freeze, pause and force transfers.
    bytes32 public constant AGENT_ROLE = keccak256("AGENT_ROLE");

    IIdentityRegistry private _identityRegistry;
    mapping(address wallet => bool frozen) private _frozen;

    /// @notice The token now asks `current` which wallets are verified.
    event IdentityRegistrySet(address indexed previous, address indexed current);
    /// @notice `wallet` was frozen (`frozen` true) or unfrozen by `agent`.
    event AddressFrozen(address indexed wallet, bool indexed frozen, address indexed agent);
    /// @notice `agent` moved `amount` units from `from` to `to` without the holder's signature.
    event ForcedTransfer(address indexed from, address indexed to, uint256 amount, address agent);

    /// @notice An address argument was the zero address.
    error ZeroAddress();
    /// @notice `registry` has no code, so it cannot be an identity registry.
    error InvalidIdentityRegistry(address registry);
    /// @notice `wallet` is not verified by the identity registry.
    error NotVerified(address wallet);
    /// @notice `wallet` is frozen.
    error WalletFrozen(address wallet);
    /// @notice A batch's arrays differ in length.
    error BatchLengthMismatch(uint256 wallets, uint256 amounts);

    /// @param name_ the share class's name.
    /// @param symbol_ the token's symbol (for example the share class's ISIN).
    /// @param identityRegistry_ the registry of verified wallets.
    /// @param admin configures the token and grants roles (DEFAULT_ADMIN_ROLE).
    /// @param agent operates the token (AGENT_ROLE).
    constructor(
        string memory name_,
        string memory symbol_,
        address identityRegistry_,
        address admin,
        address agent
    ) ERC20(name_, symbol_) {
        if (admin == address(0) || agent == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(AGENT_ROLE, agent);
        _setIdentityRegistry(identityRegistry_);
    }

    /// @notice Whole units only: a token unit is a share-class unit.
    function decimals() public pure override returns (uint8) {
        return 0;
    }

    // ---- configuration (admin) ----

    /// @notice Points the token at another identity registry.
    function setIdentityRegistry(address registry) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setIdentityRegistry(registry);
    }

    /// @notice The registry that decides which wallets are verified.
    function identityRegistry() external view returns (address) {
        return address(_identityRegistry);
    }

    // ---- operations (agent) ----

    /// @notice Issues `amount` units to the verified, unfrozen wallet `to`. Not while paused.
    function mint(address to, uint256 amount) external onlyRole(AGENT_ROLE) {
        _mint(to, amount);
    }

    /// @notice Issues units to many wallets in one transaction; reverts whole if any one fails.
    function batchMint(address[] calldata to, uint256[] calldata amounts) external onlyRole(AGENT_ROLE) {
        if (to.length != amounts.length) revert BatchLengthMismatch(to.length, amounts.length);
        for (uint256 i = 0; i < to.length; ++i) {
            _mint(to[i], amounts[i]);
        }
    }

    /// @notice Redeems `amount` units held by `from` (also when `from` is frozen or the token paused).
    function burn(address from, uint256 amount) external onlyRole(AGENT_ROLE) {
        _burn(from, amount);
    }

    /// @notice Redeems units from many wallets in one transaction; reverts whole if any one fails.
    function batchBurn(address[] calldata from, uint256[] calldata amounts) external onlyRole(AGENT_ROLE) {
        if (from.length != amounts.length) revert BatchLengthMismatch(from.length, amounts.length);
        for (uint256 i = 0; i < from.length; ++i) {
            _burn(from[i], amounts[i]);
        }
    }

    /// @notice Freezes (`frozen` true) or unfreezes `wallet`: a frozen wallet neither sends nor receives.
    function setAddressFrozen(address wallet, bool frozen) external onlyRole(AGENT_ROLE) {
        if (wallet == address(0)) revert ZeroAddress();
        _frozen[wallet] = frozen;
        emit AddressFrozen(wallet, frozen, _msgSender());
    }

    /// @notice Stops holder transfers and mint.
    function pause() external onlyRole(AGENT_ROLE) {
        _pause();
    }

    /// @notice Lets holder transfers and mint resume.
    function unpause() external onlyRole(AGENT_ROLE) {
        _unpause();
    }

    /// @notice Moves `amount` units from `from` to the verified, unfrozen wallet `to` without the
    /// holder's signature: recovery of units from a lost or compromised wallet. Works while the
    /// token is paused and when `from` is frozen or no longer verified.
    function forcedTransfer(address from, address to, uint256 amount) external onlyRole(AGENT_ROLE) returns (bool) {
        if (from == address(0)) revert ZeroAddress();
        _requireReceiver(to);
        // The base implementation, so the holder-transfer rules of _update do not apply.
        ERC20._update(from, to, amount);
        emit ForcedTransfer(from, to, amount, _msgSender());
        return true;
    }

    // ---- views ----

    /// @notice Whether `wallet` is frozen.
    function isFrozen(address wallet) external view returns (bool) {
        return _frozen[wallet];
    }

    /// @notice Whether `from` may transfer `amount` units to `to` now (ERC-3643's compliance check):
    /// exactly when transfer(to, amount) sent by `from` would succeed.
    function canTransfer(address from, address to, uint256 amount) external view returns (bool) {
        if (from == address(0) || to == address(0) || paused()) return false;
        if (_frozen[from] || _frozen[to]) return false;
        if (!_identityRegistry.isVerified(from) || !_identityRegistry.isVerified(to)) return false;
        return balanceOf(from) >= amount;
    }

    // ---- rules ----

    /// @dev Every balance change passes here. Mint needs an unpaused token and a verified, unfrozen
    /// receiver; a holder transfer also needs a verified, unfrozen sender; burn is the agent's.
    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0)) {
            _requireNotPaused();
            _requireReceiver(to);
        } else if (to != address(0)) {
            _requireNotPaused();
            if (_frozen[from]) revert WalletFrozen(from);
            if (!_identityRegistry.isVerified(from)) revert NotVerified(from);
            _requireReceiver(to);
        }
        super._update(from, to, value);
    }

    function _requireReceiver(address to) private view {
        if (to == address(0)) revert ZeroAddress();
        if (_frozen[to]) revert WalletFrozen(to);
        if (!_identityRegistry.isVerified(to)) revert NotVerified(to);
    }

    function _setIdentityRegistry(address registry) private {
        if (registry.code.length == 0) revert InvalidIdentityRegistry(registry);
        emit IdentityRegistrySet(address(_identityRegistry), registry);
        _identityRegistry = IIdentityRegistry(registry);
    }
}
