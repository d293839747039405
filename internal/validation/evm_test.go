package validation

import (
	"strings"
	"testing"
)

// Test vectors from EIP-55.
var eip55Vectors = []string{
	// all caps
	"0x52908400098527886E0F7030069857D2E4169EE7",
	"0x8617E340B3D01FA5F11F306F4090FD50E238070D",
	// all lower
	"0xde709f2102306220921060314715629080e2fb77",
	"0x27b1fdb04752bbc536007a920d24acb045561c26",
	// normal
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
	"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
	"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
}

func TestEIP55Vectors(t *testing.T) {
	// The checksum of the lowercase hex digits must reproduce each vector
	// exactly (for the all-caps and all-lower vectors that holds because
	// their hashes happen to select every letter or no letter).
	for _, v := range eip55Vectors {
		if got := eip55(strings.ToLower(v[2:])); got != v {
			t.Errorf("eip55(%s) = %s, want %s", strings.ToLower(v), got, v)
		}
	}
}

func TestNormalizeEVMAddress(t *testing.T) {
	const mixed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	tests := []struct {
		name string
		in   string
		want string // canonical form; empty when an error is expected
		err  error
	}{
		{"checksummed vector", mixed, mixed, nil},
		{"checksummed vector 2", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", nil},
		{"checksummed vector 3", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", nil},
		{"checksummed vector 4", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", nil},
		{"all lower is checksummed", strings.ToLower(mixed), mixed, nil},
		{"all upper is checksummed", "0x" + strings.ToUpper(mixed[2:]), mixed, nil},
		{"digits only", "0x0000000000000000000000000000000000000000", "0x0000000000000000000000000000000000000000", nil},
		{"caps vector", "0x52908400098527886E0F7030069857D2E4169EE7", "0x52908400098527886E0F7030069857D2E4169EE7", nil},

		{"one letter lowered", "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "", errEVMChecksum},
		{"one letter raised", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "", errEVMChecksum},
		{"last letter flipped", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDB", "", errEVMChecksum},
		{"vector 2 flipped", "0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "", errEVMChecksum},

		{"empty", "", "", errEVMFormat},
		{"prefix only", "0x", "", errEVMFormat},
		{"no prefix", mixed[2:], "", errEVMFormat},
		{"no prefix 42 chars", "00" + mixed[2:], "", errEVMFormat},
		{"uppercase X", "0X" + mixed[2:], "", errEVMFormat},
		{"too short", mixed[:41], "", errEVMFormat},
		{"too long", mixed + "0", "", errEVMFormat},
		{"non-hex", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", "", errEVMFormat},
		{"leading space", " " + mixed[:41], "", errEVMFormat},
		{"trailing newline", mixed[:41] + "\n", "", errEVMFormat},
		{"non-ASCII", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1Be\u00e9d", "", errEVMFormat},
		{"ENS name", "vitalik.eth", "", errEVMFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeEVMAddress(tt.in)
			if err != tt.err {
				t.Fatalf("NormalizeEVMAddress(%q) error = %v, want %v", tt.in, err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("NormalizeEVMAddress(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalizeEVMAddressEverySingleCaseFlipFails(t *testing.T) {
	for _, v := range eip55Vectors[4:] {
		for i := 2; i < len(v); i++ {
			c := v[i]
			var flipped byte
			switch {
			case c >= 'a' && c <= 'f':
				flipped = c - 'a' + 'A'
			case c >= 'A' && c <= 'F':
				flipped = c - 'A' + 'a'
			default:
				continue
			}
			bad := v[:i] + string(flipped) + v[i+1:]
			if _, err := NormalizeEVMAddress(bad); err != errEVMChecksum {
				t.Errorf("NormalizeEVMAddress(%s) error = %v, want checksum error", bad, err)
			}
		}
	}
}

func TestEVMAddressKey(t *testing.T) {
	const mixed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	if got, want := EVMAddressKey(mixed), "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"; got != want {
		t.Fatalf("EVMAddressKey = %q, want %q", got, want)
	}
	// Every accepted spelling maps to the same canonical form and key.
	for _, in := range []string{mixed, strings.ToLower(mixed), "0x" + strings.ToUpper(mixed[2:])} {
		c, err := NormalizeEVMAddress(in)
		if err != nil {
			t.Fatal(err)
		}
		if c != mixed || EVMAddressKey(c) != EVMAddressKey(mixed) {
			t.Errorf("%s: canonical %s key %s", in, c, EVMAddressKey(c))
		}
	}
}
