package secondary

import (
	"errors"
	"fmt"
	"math/big"
)

// SplitNet splits a SELL's net payout over its transfers (units, in the window's pairing
// order) when each transfer is paid by its own swap (cash on chain): the transfers up to
// and including the i-th are paid floor(net × their units ÷ all units), so each transfer
// gets its share rounded down, the last one the rest, and the parts add up to net exactly.
// No part is more than its units' value at the price the net came from.
func SplitNet(net int64, units []int64) ([]int64, error) {
	if net < 0 {
		return nil, fmt.Errorf("a negative net %d", net)
	}
	var total int64
	for _, u := range units {
		if u <= 0 {
			return nil, fmt.Errorf("a transfer of %d units", u)
		}
		total += u
		if total < 0 {
			return nil, errors.New("the units overflow")
		}
	}
	if total == 0 {
		return nil, errors.New("no transfer")
	}
	out := make([]int64, len(units))
	n, t := big.NewInt(net), big.NewInt(total)
	var cum, paid int64
	for i, u := range units {
		cum += u
		through := new(big.Int).Mul(n, big.NewInt(cum))
		through.Quo(through, t)
		out[i] = through.Int64() - paid
		paid = through.Int64()
	}
	return out, nil
}
