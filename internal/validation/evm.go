package validation

import (
	"errors"
	"strings"

	"golang.org/x/crypto/sha3"
)

var (
	errEVMFormat   = errors.New("must be 0x followed by 40 hexadecimal digits")
	errEVMChecksum = errors.New("mixed-case address fails its EIP-55 checksum")
)

// evmHexLen is the number of hexadecimal digits in an EVM address (20 bytes).
const evmHexLen = 40

// NormalizeEVMAddress validates a wallet address for an EVM chain such as
// polygon and returns its canonical form.
//
// The address must be "0x" followed by exactly 40 hexadecimal digits. If the
// hex part is all lowercase or all uppercase it carries no checksum and is
// accepted as is; if it mixes cases it must match its EIP-55 checksum
// (Keccak-256 of the lowercase hex digits decides which letters are
// uppercase). The canonical form returned is the EIP-55 checksummed
// spelling, so the same address written in any accepted case maps to the
// same string. Use EVMAddressKey for case-insensitive uniqueness keys.
func NormalizeEVMAddress(s string) (string, error) {
	if len(s) != 2+evmHexLen || s[0] != '0' || s[1] != 'x' {
		return "", errEVMFormat
	}
	hexPart := s[2:]
	hasLower, hasUpper := false, false
	for i := 0; i < len(hexPart); i++ {
		c := hexPart[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			hasLower = true
		case c >= 'A' && c <= 'F':
			hasUpper = true
		default:
			return "", errEVMFormat
		}
	}
	canonical := eip55(strings.ToLower(hexPart))
	if hasLower && hasUpper && canonical != s {
		return "", errEVMChecksum
	}
	return canonical, nil
}

// EVMAddressKey returns the lowercase form of a canonical EVM address, for use
// as a case-insensitive uniqueness key (index, map key, label value).
func EVMAddressKey(canonical string) string {
	return strings.ToLower(canonical)
}

// eip55 returns "0x" followed by the EIP-55 checksummed spelling of lowerHex,
// which must be 40 lowercase hexadecimal digits.
func eip55(lowerHex string) string {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(lowerHex))
	sum := h.Sum(nil)

	out := make([]byte, 2+len(lowerHex))
	out[0], out[1] = '0', 'x'
	for i := 0; i < len(lowerHex); i++ {
		c := lowerHex[i]
		// Nibble i of the hash: high nibble of byte i/2 for even i.
		nibble := sum[i/2]
		if i%2 == 0 {
			nibble >>= 4
		}
		nibble &= 0x0f
		if c >= 'a' && c <= 'f' && nibble >= 8 {
			c -= 'a' - 'A'
		}
		out[2+i] = c
	}
	return string(out)
}
