// Package secondary is the matching window of a share class's secondary market: the pure
// decider that, given a window (its date and the NAV of that date), the class's published
// matching policy and the orders of the window, says how many units each order deals, at
// what price and fee, which seller delivers how many units to which buyer, what becomes of
// every remainder, and what is published. It does no I/O, reads no clock and uses no
// floating point: money is integer money units (internal/money), so a window matched twice
// (after a restart, in a replay, in an audit) gives the same answer to the unit.
//
// Why a published rule: a SECONDARY order does not subscribe to or redeem from the fund;
// it matches exiting investors with incoming ones. The ELTIF Regulation (Art. 19(2a)) and
// its RTS (Commission Delegated Regulation (EU) 2024/2759, Art. 8–9) ask that such
// matching follow a policy disclosed in advance (the price, the allocation when one side
// is larger, what happens to unmatched orders) and that its outcome be published. Every
// rule below is that policy, written so that an investor can recompute their own fill.
//
// The rules (Match):
//
//   - Volume. The units matched are V = min(Σ BUY units, Σ SELL units). An empty side
//     matches nothing.
//   - Fill: the largest-remainder (Hamilton) method. Each order of a side asking T units
//     in total gets floor(units × V / T) whole units (the product is computed in 128
//     bits, it never overflows); the units the rounding down leaves over, fewer than the
//     side's orders, go one each to the orders with the largest fractional remainder
//     (units × V mod T), ties to the earlier PlacedAt, then to the smaller ID. The smaller
//     side is therefore filled whole, every fill is within one unit of its exact pro rata
//     share and never above what the order asked, and each side fills exactly V.
//   - Price. The window's NAV per share, with the fund's disclosed spread: a BUY pays
//     NAV × (10,000 + spread) / 10,000 per unit, a SELL receives NAV × (10,000 − spread)
//     / 10,000, each rounded half up to the money unit. The spread is the fund's (it is a
//     price, not a fee): with a spread the buyers pay more than the sellers receive.
//   - Fees, per filled order: gross = filled × its side's price; fee = gross × the side's
//     secondary fee rate / 10,000 rounded half up (money.Fee); a SELL is paid Net = gross
//     − fee, a BUY pays ToPay = gross + fee. An order filled nothing owes and gets nothing.
//   - Delivery versus payment. Transfers pair the filled SELLs with the filled BUYs by
//     walking both sides in priority order (PlacedAt, then ID) and moving the smaller of
//     the two open quantities each step, like merging two queues. Each order's transfers
//     add up to its fill, and there are at most (filled BUYs + filled SELLs − 1) of them.
//   - Dispositions. An order is Filled (all its units), Partial (some) or Unfilled (none).
//     Its remainder (the units not filled) is Carried to the next window when the order
//     has been carried fewer than the policy's MaxCarry windows (the carried order counts
//     WindowsCarried + 1), else Cancelled; with MaxCarry 0 every remainder is cancelled at
//     once.
//   - Publication. Published holds the date, both prices, the volume, each side's fill
//     ratio in basis points (V × 10,000 / T, rounded down; 0 for an empty side) and the
//     number of orders and units each side asked: nothing that names an order, an account
//     or a counterparty.
//
// Units are the share class's whole units. Results list BUYs then SELLs, each in priority
// order, whatever the order of the input, so the same orders always give the same Result.
package secondary
