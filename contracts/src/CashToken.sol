// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title A euro settlement token: the cash leg of on-chain delivery versus payment.
/// @notice A stand-in for a regulated euro stablecoin or tokenised deposit on the local chain
/// of `make run`: the issuer (ISSUER_ROLE) mints euros against money received and burns those
/// redeemed; holders transfer freely. One token unit is one money unit of the operator
/// (decimals() is 4: 10,000 units are one euro, the micro-units of internal/money), so an
/// amount on chain and an amount in an order are the same integer.
contract CashToken is ERC20, AccessControl {
    /// @notice Holders of this role issue and redeem euros.
    bytes32 public constant ISSUER_ROLE = keccak256("ISSUER_ROLE");

    error ZeroAddress();

    constructor(string memory name_, string memory symbol_, address admin, address issuer) ERC20(name_, symbol_) {
        if (admin == address(0) || issuer == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(ISSUER_ROLE, issuer);
    }

    /// @notice Money units: 10,000 per euro.
    function decimals() public pure override returns (uint8) {
        return 4;
    }

    /// @notice Issues `amount` to `to` (money received by the issuer).
    function mint(address to, uint256 amount) external onlyRole(ISSUER_ROLE) {
        _mint(to, amount);
    }

    /// @notice Redeems `amount` the issuer holds (money paid out by the issuer).
    function burn(uint256 amount) external onlyRole(ISSUER_ROLE) {
        _burn(_msgSender(), amount);
    }
}
