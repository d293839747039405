package webhooks

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// TestACashLegNamesThreeValidAddresses: admission refuses, field by field, a cash leg
// whose address has a bad EIP-55 checksum or is the zero address, and a cash token that is
// the settlement contract itself.
func TestACashLegNamesThreeValidAddresses(t *testing.T) {
	path := field.NewPath("spec", "secondary", "cashOnChain")
	good := investv1.CashOnChain{Settlement: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		CashToken: "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359", FeeCollector: "0x000000000000000000000000000000000000fee5"}
	if errs := validateCashOnChain(&good, path); len(errs) != 0 {
		t.Fatalf("a good cash leg: %v", errs)
	}
	for _, tc := range []struct {
		name  string
		edit  func(*investv1.CashOnChain)
		field string
		says  string
	}{
		{"a bad checksum", func(c *investv1.CashOnChain) { c.Settlement = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }, "spec.secondary.cashOnChain.settlement", "checksum"},
		{"the zero address", func(c *investv1.CashOnChain) { c.FeeCollector = "0x0000000000000000000000000000000000000000" }, "spec.secondary.cashOnChain.feeCollector", "zero address"},
		{"the settlement contract as cash", func(c *investv1.CashOnChain) { c.CashToken = strings.ToLower(c.Settlement) }, "spec.secondary.cashOnChain.cashToken", "must not be the settlement contract"},
	} {
		c := good
		tc.edit(&c)
		errs := validateCashOnChain(&c, path)
		if len(errs) != 1 || errs[0].Field != tc.field || !strings.Contains(errs[0].Detail, tc.says) {
			t.Errorf("%s: %v, want one error on %s saying %q", tc.name, errs, tc.field, tc.says)
		}
	}
}
