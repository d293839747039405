// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
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
/// Pause stops holder transfers, secondary settlements (they follow the holder-transfer rules)
/// and issuance (mint). Burn and forcedTransfer stay open to the agent so an incident can be
/// handled while holders are stopped. (ERC-3643 pauses transfers only; this token also stops
/// mint so that no new units enter circulation while paused.)
///
/// Lock-ups: a mint may carry a release time (mintLocked, batchMintLocked), and so may a
/// secondary settlement for the units its buyer receives (settleWithRef, batchSettleWithRefs).
/// Such units are locked until block.timestamp reaches the release time; they unlock by
/// themselves, no transaction is needed. A holder transfer and each leg of a secondary
/// settlement move unlocked units only; the agent's burn takes unlocked units first, then locked
/// ones; a forced transfer moves unlocked units first, then locked ones together with their
/// locks; recoverWallet moves a whole balance with every lock. Always
/// lockedBalanceOf(w) <= balanceOf(w).
///
/// Storage and gas are bounded: a holder has at most MAX_LOCKS lock entries (one slot each).
/// Entries whose release time has passed are pruned whenever the holder's locks are written, and
/// locks with the same release time share an entry. Reading the locked balance (every holder
/// transfer, canTransfer, lockedBalanceOf) reads at most MAX_LOCKS slots; a lock that would make
/// a holder's MAX_LOCKS + 1st live entry reverts with TooManyLocks.
///
/// Effect references: every agent effect of the operator (a mint, a burn, a wallet recovery, a
/// secondary settlement) has a variant that carries a `bytes32 ref`, a reference the operator
/// derives from the record it belongs to (an order and its step, a recovery and its token); a
/// secondary settlement exists only in that form (settleWithRef, batchSettleWithRefs). The token
/// keeps the block in which each ref was applied and refuses a second use (EffectAlreadyApplied),
/// so an effect whose record was lost (the operator's store restored from an older snapshot, a
/// lost write) cannot happen twice, and EffectApplied lets the operator find the transaction
/// that applied it. A batch of mints (batchMintWithRefs) or of secondary settlements
/// (batchSettleWithRefs) carries one ref per member and skips a member whose ref was used
/// (EffectSkipped) instead of reverting, so one member applied elsewhere does not stop the
/// others.
contract ShareToken is ERC20, AccessControl, Pausable {
    /// @notice Holders of this role mint, burn, freeze, pause, force transfers and settle secondary trades.
    bytes32 public constant AGENT_ROLE = keccak256("AGENT_ROLE");

    /// @notice The most lock entries (distinct release times not yet reached) a holder may have.
    uint256 public constant MAX_LOCKS = 64;

    /// @dev `amount` units of a holder are locked while block.timestamp < `releaseTime`.
    struct Lock {
        uint64 releaseTime;
        uint192 amount;
    }

    IIdentityRegistry private _identityRegistry;
    mapping(address wallet => bool frozen) private _frozen;
    /// @dev Each holder's locks, oldest written first; may hold expired entries until the next write.
    mapping(address wallet => Lock[] locks) private _locks;
    /// @dev The block in which each effect reference was applied; 0: never.
    mapping(bytes32 ref => uint256 blockNumber) private _effects;

    /// @notice The token now asks `current` which wallets are verified.
    event IdentityRegistrySet(address indexed previous, address indexed current);
    /// @notice `wallet` was frozen (`frozen` true) or unfrozen by `agent`.
    event AddressFrozen(address indexed wallet, bool indexed frozen, address indexed agent);
    /// @notice `agent` moved `amount` units from `from` to `to` without the holder's signature.
    event ForcedTransfer(address indexed from, address indexed to, uint256 amount, address agent);
    /// @notice `amount` units of `holder` are locked until `releaseTime` (seconds since the epoch).
    event Locked(address indexed holder, uint256 amount, uint64 releaseTime);
    /// @notice A burn or forced transfer took `amount` locked units (release `releaseTime`) from `holder`.
    event LockRemoved(address indexed holder, uint256 amount, uint64 releaseTime);
    /// @notice `agent` moved the whole balance of the lost wallet `lost` (`amount` units, of which
    /// `locked` were locked, with their locks) to `replacement`.
    event WalletRecovered(
        address indexed lost,
        address indexed replacement,
        uint256 amount,
        uint256 locked,
        address agent
    );
    /// @notice One leg of the secondary settlement `ref`: `units` units moved from the seller's
    /// wallet `from` to the buyer's wallet `to` (besides its Transfer, emitted just before).
    event SecondaryTransfer(bytes32 indexed ref, address indexed from, address indexed to, uint256 units);

    /// @notice The agent effect `ref` was applied: `units` units minted, burned or moved.
    event EffectApplied(bytes32 indexed ref, uint256 units, address agent);
    /// @notice A batch member whose effect `ref` was already applied (in block `appliedIn`) was
    /// skipped: nothing was done for it.
    event EffectSkipped(bytes32 indexed ref, uint256 appliedIn);

    /// @notice The effect `ref` was already applied, in block `appliedIn`; nothing was done.
    error EffectAlreadyApplied(bytes32 ref, uint256 appliedIn);
    /// @notice An effect reference was zero.
    error ZeroRef();
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
    /// @notice A holder transfer of `requested` units from `holder`, which holds `locked` locked
    /// units, would move locked units.
    error LockedUnits(address holder, uint256 locked, uint256 requested);
    /// @notice `holder` already has `max` live lock entries.
    error TooManyLocks(address holder, uint256 max);
    /// @notice A lost wallet cannot be recovered to itself, nor a seller's units settled to the
    /// seller's own wallet.
    error SameWallet(address wallet);
    /// @notice A secondary settlement had no legs.
    error EmptySettlement();

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

    /// @notice Issues `amount` units to `to` as mint does, locked until `releaseTime` (seconds since
    /// the epoch, compared with block.timestamp). A release time already reached issues them unlocked.
    function mintLocked(address to, uint256 amount, uint64 releaseTime) external onlyRole(AGENT_ROLE) {
        _mint(to, amount);
        _addLock(to, amount, releaseTime);
    }

    /// @notice mintLocked for many wallets in one transaction; reverts whole if any one fails.
    function batchMintLocked(
        address[] calldata to,
        uint256[] calldata amounts,
        uint64[] calldata releaseTimes
    ) external onlyRole(AGENT_ROLE) {
        if (to.length != amounts.length) revert BatchLengthMismatch(to.length, amounts.length);
        if (to.length != releaseTimes.length) revert BatchLengthMismatch(to.length, releaseTimes.length);
        for (uint256 i = 0; i < to.length; ++i) {
            _mint(to[i], amounts[i]);
            _addLock(to[i], amounts[i], releaseTimes[i]);
        }
    }

    /// @notice Redeems `amount` units held by `from` (also when `from` is frozen or the token paused):
    /// its unlocked units first, then locked ones, the most recently written lock first.
    function burn(address from, uint256 amount) external onlyRole(AGENT_ROLE) {
        _burnUnlockedFirst(from, amount);
    }

    /// @notice Redeems units from many wallets in one transaction; reverts whole if any one fails.
    function batchBurn(address[] calldata from, uint256[] calldata amounts) external onlyRole(AGENT_ROLE) {
        if (from.length != amounts.length) revert BatchLengthMismatch(from.length, amounts.length);
        for (uint256 i = 0; i < from.length; ++i) {
            _burnUnlockedFirst(from[i], amounts[i]);
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
    /// Unlocked units move first; locked units move with their locks (the most recently written
    /// lock first), so they stay locked at `to` until the same release time.
    function forcedTransfer(address from, address to, uint256 amount) external onlyRole(AGENT_ROLE) returns (bool) {
        _forcedTransfer(from, to, amount);
        return true;
    }

    /// @notice Lost-key recovery (ERC-3643's recoveryAddress): moves the whole balance of `lost`,
    /// with every lock, to the verified, unfrozen wallet `replacement` in one transaction. Works
    /// while paused and when `lost` is frozen or no longer verified. Emits ForcedTransfer and
    /// WalletRecovered.
    function recoverWallet(address lost, address replacement) external onlyRole(AGENT_ROLE) returns (bool) {
        if (lost == replacement) revert SameWallet(lost);
        uint256 amount = balanceOf(lost);
        uint256 locked = _lockedBalance(lost);
        _forcedTransfer(lost, replacement, amount);
        emit WalletRecovered(lost, replacement, amount, locked, _msgSender());
        return true;
    }

    // ---- operations with effect references (agent) ----

    /// @notice mint, at most once per `ref`: reverts EffectAlreadyApplied when `ref` was used.
    function mintWithRef(bytes32 ref, address to, uint256 amount) external onlyRole(AGENT_ROLE) {
        _useRef(ref, amount);
        _mint(to, amount);
    }

    /// @notice mintLocked, at most once per `ref`: reverts EffectAlreadyApplied when `ref` was used.
    function mintLockedWithRef(
        bytes32 ref,
        address to,
        uint256 amount,
        uint64 releaseTime
    ) external onlyRole(AGENT_ROLE) {
        _useRef(ref, amount);
        _mint(to, amount);
        _addLock(to, amount, releaseTime);
    }

    /// @notice batchMintLocked with one ref per member (release time 0: unlocked). A member whose
    /// ref was already used is skipped (EffectSkipped), the others are minted; any other failure
    /// reverts the whole batch.
    function batchMintWithRefs(
        bytes32[] calldata refs,
        address[] calldata to,
        uint256[] calldata amounts,
        uint64[] calldata releaseTimes
    ) external onlyRole(AGENT_ROLE) {
        if (refs.length != to.length) revert BatchLengthMismatch(refs.length, to.length);
        if (to.length != amounts.length) revert BatchLengthMismatch(to.length, amounts.length);
        if (to.length != releaseTimes.length) revert BatchLengthMismatch(to.length, releaseTimes.length);
        for (uint256 i = 0; i < to.length; ++i) {
            if (refs[i] == bytes32(0)) revert ZeroRef();
            uint256 appliedIn = _effects[refs[i]];
            if (appliedIn != 0) {
                emit EffectSkipped(refs[i], appliedIn);
                continue;
            }
            _effects[refs[i]] = block.number;
            emit EffectApplied(refs[i], amounts[i], _msgSender());
            _mint(to[i], amounts[i]);
            _addLock(to[i], amounts[i], releaseTimes[i]);
        }
    }

    /// @notice burn or batchBurn (one wallet or several) as ONE effect, at most once per `ref`:
    /// reverts EffectAlreadyApplied when `ref` was used; all or none.
    function burnWithRef(bytes32 ref, address[] calldata from, uint256[] calldata amounts) external onlyRole(AGENT_ROLE) {
        if (from.length != amounts.length) revert BatchLengthMismatch(from.length, amounts.length);
        uint256 total = 0;
        for (uint256 i = 0; i < from.length; ++i) {
            total += amounts[i];
        }
        _useRef(ref, total);
        for (uint256 i = 0; i < from.length; ++i) {
            _burnUnlockedFirst(from[i], amounts[i]);
        }
    }

    /// @notice recoverWallet, at most once per `ref`: reverts EffectAlreadyApplied when `ref` was used.
    function recoverWalletWithRef(bytes32 ref, address lost, address replacement) external onlyRole(AGENT_ROLE) returns (bool) {
        if (lost == replacement) revert SameWallet(lost);
        uint256 amount = balanceOf(lost);
        uint256 locked = _lockedBalance(lost);
        _useRef(ref, amount);
        _forcedTransfer(lost, replacement, amount);
        emit WalletRecovered(lost, replacement, amount, locked, _msgSender());
        return true;
    }

    /// @notice Delivers one secondary-market BUY (delivery versus payment), at most once per `ref`:
    /// for each leg, moves `amounts[i]` units from the seller's wallet `from[i]` to the buyer's
    /// wallet `to` under the holder-transfer rules, not the forced-transfer ones: the token not
    /// paused, every `from[i]` and `to` verified and not frozen, `from[i]` not `to` (SameWallet),
    /// and only unlocked units of each seller (LockedUnits otherwise; ERC20InsufficientBalance
    /// when the seller holds too few). All legs or none. Reverts EffectAlreadyApplied when `ref`
    /// was used, EmptySettlement for no legs, BatchLengthMismatch when the arrays differ.
    /// A `releaseTime` after block.timestamp locks the units `to` receives until then (the buyer's
    /// lock-up); 0 or a time already reached leaves them unlocked.
    /// Emits per leg Transfer then SecondaryTransfer; EffectApplied with the units of all legs.
    function settleWithRef(
        bytes32 ref,
        address[] calldata from,
        address to,
        uint256[] calldata amounts,
        uint64 releaseTime
    ) external onlyRole(AGENT_ROLE) {
        if (from.length != amounts.length) revert BatchLengthMismatch(from.length, amounts.length);
        if (from.length == 0) revert EmptySettlement();
        _settle(ref, from, to, amounts, releaseTime);
    }

    /// @notice settleWithRef for many secondary-market BUYs in one transaction, one ref per
    /// settlement. Settlement `i` delivers to the buyer's wallet `to[i]`, with the lock-up
    /// `releaseTimes[i]` (0: unlocked), its `legCounts[i]` legs: the next `legCounts[i]` entries
    /// of `from` and `amounts`, which hold the legs of all settlements in settlement order.
    /// A settlement whose ref was already used is skipped with its legs (EffectSkipped); every
    /// other one is applied as settleWithRef applies it (the same checks; EffectApplied, per leg
    /// Transfer then SecondaryTransfer, then the buyer's Locked). Any other failure reverts the
    /// whole batch. Reverts BatchLengthMismatch when refs, to, releaseTimes and legCounts differ
    /// in length, when from and amounts do, or when the leg counts do not add up to from's
    /// length; EmptySettlement for a leg count of 0; ZeroRef for a zero ref.
    function batchSettleWithRefs(
        bytes32[] calldata refs,
        address[] calldata to,
        uint64[] calldata releaseTimes,
        uint256[] calldata legCounts,
        address[] calldata from,
        uint256[] calldata amounts
    ) external onlyRole(AGENT_ROLE) {
        if (refs.length != to.length) revert BatchLengthMismatch(refs.length, to.length);
        if (to.length != releaseTimes.length) revert BatchLengthMismatch(to.length, releaseTimes.length);
        if (to.length != legCounts.length) revert BatchLengthMismatch(to.length, legCounts.length);
        if (from.length != amounts.length) revert BatchLengthMismatch(from.length, amounts.length);
        {
            uint256 legs = 0;
            for (uint256 i = 0; i < legCounts.length; ++i) {
                if (legCounts[i] == 0) revert EmptySettlement();
                legs += legCounts[i];
            }
            if (legs != from.length) revert BatchLengthMismatch(legs, from.length);
        }
        for (uint256 i = 0; i < refs.length; ++i) {
            uint256 n = legCounts[i];
            _settleOrSkip(refs[i], to[i], releaseTimes[i], from[:n], amounts[:n]);
            // Drop the legs just settled or skipped (the stack has no room for an offset).
            from = from[n:];
            amounts = amounts[n:];
        }
    }

    // ---- views ----

    /// @notice The block in which the effect `ref` was applied; 0 when it never was.
    function effectApplied(bytes32 ref) external view returns (uint256) {
        return _effects[ref];
    }

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
        return unlockedBalanceOf(from) >= amount;
    }

    /// @notice Units of `holder` still locked now (release time not yet reached).
    function lockedBalanceOf(address holder) external view returns (uint256) {
        return _lockedBalance(holder);
    }

    /// @notice Units `holder` may transfer now: balanceOf minus lockedBalanceOf.
    function unlockedBalanceOf(address holder) public view returns (uint256) {
        return balanceOf(holder) - _lockedBalance(holder);
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
            // Holder transfers move unlocked units only. More than the balance is ERC-20's error.
            uint256 balance = balanceOf(from);
            if (value <= balance) {
                uint256 locked = _lockedBalance(from);
                if (value > balance - locked) revert LockedUnits(from, locked, value);
            }
        }
        super._update(from, to, value);
    }

    /// @dev One secondary settlement of at least one leg (from and amounts of the same length):
    /// uses `ref` (EffectApplied with the units of all legs), moves each leg under the
    /// holder-transfer rules (Transfer then SecondaryTransfer), then locks what `to` received.
    function _settle(
        bytes32 ref,
        address[] calldata from,
        address to,
        uint256[] calldata amounts,
        uint64 releaseTime
    ) private {
        uint256 total = 0;
        for (uint256 i = 0; i < from.length; ++i) {
            total += amounts[i];
        }
        _useRef(ref, total);
        for (uint256 i = 0; i < from.length; ++i) {
            if (from[i] == to) revert SameWallet(to);
            // _transfer passes _update's holder-transfer rules (pause, frozen, verified, locks).
            _transfer(from[i], to, amounts[i]);
            emit SecondaryTransfer(ref, from[i], to, amounts[i]);
        }
        _addLock(to, total, releaseTime);
    }

    /// @dev A member of batchSettleWithRefs: skipped (EffectSkipped) when `ref` was already
    /// used, otherwise settled as settleWithRef settles.
    function _settleOrSkip(
        bytes32 ref,
        address to,
        uint64 releaseTime,
        address[] calldata from,
        uint256[] calldata amounts
    ) private {
        if (ref == bytes32(0)) revert ZeroRef();
        uint256 appliedIn = _effects[ref];
        if (appliedIn != 0) {
            emit EffectSkipped(ref, appliedIn);
            return;
        }
        _settle(ref, from, to, amounts, releaseTime);
    }

    /// @dev Marks `ref` applied in this block, or reverts when it was applied before.
    function _useRef(bytes32 ref, uint256 units) private {
        if (ref == bytes32(0)) revert ZeroRef();
        uint256 appliedIn = _effects[ref];
        if (appliedIn != 0) revert EffectAlreadyApplied(ref, appliedIn);
        _effects[ref] = block.number;
        emit EffectApplied(ref, units, _msgSender());
    }

    /// @dev Burns unlocked units first, then removes the locks of the locked units it burns.
    function _burnUnlockedFirst(address from, uint256 amount) private {
        _takeLocks(from, amount, address(0));
        _burn(from, amount);
    }

    /// @dev A forced transfer: unlocked units first, then locked ones with their locks.
    function _forcedTransfer(address from, address to, uint256 amount) private {
        if (from == address(0)) revert ZeroAddress();
        _requireReceiver(to);
        _takeLocks(from, amount, to);
        // The base implementation, so the holder-transfer rules of _update do not apply.
        ERC20._update(from, to, amount);
        emit ForcedTransfer(from, to, amount, _msgSender());
    }

    /// @dev Before `amount` units leave `from` (burn or forced transfer): the part beyond its
    /// unlocked units is taken from its locks, the most recently written first, and carried to
    /// `to` (none for a burn). More than the balance is left to ERC-20's balance check.
    function _takeLocks(address from, uint256 amount, address to) private {
        uint256 balance = balanceOf(from);
        if (amount > balance) return; // reverts in ERC20._update with ERC20InsufficientBalance
        _prune(from);
        Lock[] storage locks = _locks[from];
        uint256 locked = 0;
        for (uint256 i = 0; i < locks.length; ++i) {
            locked += locks[i].amount;
        }
        uint256 unlocked = balance - locked;
        if (amount <= unlocked) return;
        uint256 need = amount - unlocked;
        while (need > 0) {
            Lock storage last = locks[locks.length - 1];
            uint64 releaseTime = last.releaseTime;
            uint256 take = last.amount;
            if (take > need) {
                take = need;
                last.amount -= SafeCast.toUint192(take);
            } else {
                locks.pop();
            }
            need -= take;
            emit LockRemoved(from, take, releaseTime);
            if (to != address(0)) _addLock(to, take, releaseTime);
        }
    }

    /// @dev Locks `amount` units of `holder` until `releaseTime`, after pruning its expired
    /// locks; a release time already reached locks nothing.
    function _addLock(address holder, uint256 amount, uint64 releaseTime) private {
        if (releaseTime <= block.timestamp || amount == 0) return;
        _prune(holder);
        Lock[] storage locks = _locks[holder];
        uint256 n = locks.length;
        // The same release time (a batch, or two mints in one block) shares an entry.
        bool merged = false;
        for (uint256 i = 0; i < n; ++i) {
            if (locks[i].releaseTime == releaseTime) {
                locks[i].amount += SafeCast.toUint192(amount);
                merged = true;
                break;
            }
        }
        if (!merged) {
            if (n >= MAX_LOCKS) revert TooManyLocks(holder, MAX_LOCKS);
            locks.push(Lock({releaseTime: releaseTime, amount: SafeCast.toUint192(amount)}));
        }
        emit Locked(holder, amount, releaseTime);
    }

    /// @dev Removes the expired locks of `holder`, keeping the others in the order written.
    function _prune(address holder) private {
        Lock[] storage locks = _locks[holder];
        uint256 n = locks.length;
        uint256 kept = 0;
        for (uint256 i = 0; i < n; ++i) {
            Lock memory l = locks[i];
            if (l.releaseTime > block.timestamp) {
                if (kept != i) locks[kept] = l;
                ++kept;
            }
        }
        while (locks.length > kept) locks.pop();
    }

    /// @dev Units of `holder` locked now.
    function _lockedBalance(address holder) private view returns (uint256 locked) {
        Lock[] storage locks = _locks[holder];
        uint256 n = locks.length;
        for (uint256 i = 0; i < n; ++i) {
            Lock memory l = locks[i];
            if (l.releaseTime > block.timestamp) locked += l.amount;
        }
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
