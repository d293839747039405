// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @dev The share token's secondary settlement (ShareToken.settleWithRef).
interface ISecondarySettlement {
    function settleWithRef(
        bytes32 ref,
        address[] calldata from,
        address to,
        uint256[] calldata amounts,
        uint64 releaseTime
    ) external;
}

/// @title Delivery versus payment of secondary-market trades in one transaction.
/// @notice Nothing moves before it is paid for. A buyer first escrows the cash of its BUY here
/// (escrow: the BUY's payment, under the BUY's reference). The agent (the operator's key) then
/// settles the BUY with swap: in one transaction the share token moves the units from the
/// sellers' wallets to the buyer's under its holder-transfer rules (this contract is an agent
/// of the share token), each seller is paid from the escrow, the fee goes to the fund, and what
/// the fill did not use goes back to the payer. When any leg fails (a frozen or unverified
/// wallet, locked units, a seller short of units) the whole swap reverts: no unit and no euro
/// moved, the cash stays in escrow. A BUY cancelled before its swap gets its escrow back
/// (refund). Each reference is escrowed once and settled or refunded once; the share token
/// refuses a second settlement under the same reference too.
contract DeliveryVersusPayment is AccessControl, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice Holders of this role swap and refund.
    bytes32 public constant AGENT_ROLE = keccak256("AGENT_ROLE");

    /// @notice The cash of one BUY held here.
    struct Escrow {
        address payer;
        IERC20 cash;
        uint256 amount;
        /// @dev 0 while held; the block in which it was swapped or refunded.
        uint256 closedIn;
    }

    mapping(bytes32 ref => Escrow escrow) private _escrows;

    event CashEscrowed(bytes32 indexed ref, address indexed payer, address cash, uint256 amount);
    event Swapped(bytes32 indexed ref, address indexed buyer, uint256 units, uint256 paidToSellers, uint256 fee, uint256 returned);
    event Refunded(bytes32 indexed ref, address indexed payer, uint256 amount);

    error ZeroAddress();
    error ZeroRef();
    error ZeroAmount();
    error AlreadyEscrowed(bytes32 ref);
    error NotEscrowed(bytes32 ref);
    error EscrowClosed(bytes32 ref, uint256 closedIn);
    error LengthMismatch(uint256 a, uint256 b);
    error CashExceedsEscrow(bytes32 ref, uint256 due, uint256 escrowed);

    constructor(address admin, address agent) {
        if (admin == address(0) || agent == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(AGENT_ROLE, agent);
    }

    /// @notice Escrows `amount` of `cash` from the sender (who approved this contract for it) as
    /// the payment of the BUY `ref`. Once per ref.
    function escrow(bytes32 ref, IERC20 cash, uint256 amount) external nonReentrant {
        if (ref == bytes32(0)) revert ZeroRef();
        if (amount == 0) revert ZeroAmount();
        if (address(cash) == address(0)) revert ZeroAddress();
        if (_escrows[ref].payer != address(0)) revert AlreadyEscrowed(ref);
        _escrows[ref] = Escrow({payer: _msgSender(), cash: cash, amount: amount, closedIn: 0});
        cash.safeTransferFrom(_msgSender(), address(this), amount);
        emit CashEscrowed(ref, _msgSender(), address(cash), amount);
    }

    /// @notice One BUY's trade: `units[i]` share units from `sellers[i]`, who is paid
    /// `sellerCash[i]`, to `buyer` (locked until `releaseTime` when it is ahead), and `fee` to
    /// `feeTo`.
    struct Trade {
        address[] sellers;
        uint256[] units;
        uint256[] sellerCash;
        address buyer;
        uint64 releaseTime;
        uint256 fee;
        address feeTo;
    }

    /// @notice Settles the BUY `ref` against its escrow, all or nothing: the units of `t` move
    /// to the buyer on `share`, the sellers and the fee are paid from the escrow, and the rest of
    /// the escrow goes back to the payer.
    function swap(bytes32 ref, ISecondarySettlement share, Trade calldata t) external onlyRole(AGENT_ROLE) nonReentrant {
        Escrow storage e = _open(ref);
        uint256 due = _due(ref, e, t);
        e.closedIn = block.number;
        // The delivery leg: the share token checks every wallet and reverts the whole swap.
        share.settleWithRef(ref, t.sellers, t.buyer, t.units, t.releaseTime);
        // The payment legs.
        for (uint256 i = 0; i < t.sellers.length; ++i) {
            if (t.sellerCash[i] > 0) e.cash.safeTransfer(t.sellers[i], t.sellerCash[i]);
        }
        if (t.fee > 0) e.cash.safeTransfer(t.feeTo, t.fee);
        uint256 rest = e.amount - due;
        if (rest > 0) e.cash.safeTransfer(e.payer, rest);
        emit Swapped(ref, t.buyer, _sum(t.units), due - t.fee, t.fee, rest);
    }

    /// @notice Gives the escrow of the BUY `ref` back to its payer (the BUY was cancelled).
    function refund(bytes32 ref) external onlyRole(AGENT_ROLE) nonReentrant {
        Escrow storage e = _open(ref);
        e.closedIn = block.number;
        e.cash.safeTransfer(e.payer, e.amount);
        emit Refunded(ref, e.payer, e.amount);
    }

    /// @notice The escrow of `ref`: its payer (zero when none), cash token, amount and the block
    /// in which it was swapped or refunded (0 while held).
    function escrowOf(bytes32 ref) external view returns (address payer, address cash, uint256 amount, uint256 closedIn) {
        Escrow storage e = _escrows[ref];
        return (e.payer, address(e.cash), e.amount, e.closedIn);
    }

    /// @dev What the trade pays out of the escrow: the sellers' cash and the fee, checked.
    function _due(bytes32 ref, Escrow storage e, Trade calldata t) private view returns (uint256 due) {
        if (t.sellers.length != t.sellerCash.length) revert LengthMismatch(t.sellers.length, t.sellerCash.length);
        if (t.fee > 0 && t.feeTo == address(0)) revert ZeroAddress();
        due = t.fee + _sum(t.sellerCash);
        if (due > e.amount) revert CashExceedsEscrow(ref, due, e.amount);
    }

    function _sum(uint256[] calldata xs) private pure returns (uint256 total) {
        for (uint256 i = 0; i < xs.length; ++i) {
            total += xs[i];
        }
    }

    function _open(bytes32 ref) private view returns (Escrow storage e) {
        e = _escrows[ref];
        if (e.payer == address(0)) revert NotEscrowed(ref);
        if (e.closedIn != 0) revert EscrowClosed(ref, e.closedIn);
    }
}
