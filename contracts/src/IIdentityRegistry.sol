// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

/// @title The eligibility check a share token asks of its identity registry.
/// @notice Modelled on ERC-3643's IIdentityRegistry.isVerified: a wallet is verified when the
/// platform has registered it for an account whose checks (KYC) passed off-chain.
interface IIdentityRegistry {
    /// @return true when `wallet` may hold and receive share tokens.
    function isVerified(address wallet) external view returns (bool);
}
