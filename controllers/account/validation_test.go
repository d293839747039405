package account_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// expectRuleMessages asserts that an admission rejection carries, on the CRD path of every
// REST field of fe, exactly the message internal/rules gives REST users for that field, so
// that kubectl and REST users read the same words.
func expectRuleMessages(err error, fe validation.FieldErrors, restFields ...string) {
	GinkgoHelper()
	Expect(err).To(HaveOccurred())
	Expect(reason(err)).To(Equal(metav1.StatusReasonInvalid), "%v", err)
	got := causes(err)
	for _, f := range restFields {
		Expect(fe).To(HaveKey(f), "internal/rules has no message for %s", f)
		path := rules.FieldPath(f).String()
		for _, msg := range fe[f] {
			Expect(got).To(HaveKeyWithValue(path, ContainElement("Invalid value: "+rules.AdmissionMessage(msg))), "field %s (REST %s)", path, f)
		}
	}
}

// withTenant sets the settings of the namespace's ApiClient (newNamespace made it) and
// waits until the manager's cache (which admission reads tenant settings from) shows them.
func withTenant(ns string, tax, lei, kyc bool) {
	GinkgoHelper()
	ac := &investv1.ApiClient{}
	Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "integrator"}, ac)).To(Succeed())
	patch := client.MergeFrom(ac.DeepCopy())
	ac.Spec.TaxReporting, ac.Spec.LEIRequired, ac.Spec.KYCDataRequired = tax, lei, kyc
	Expect(k8s.Patch(ctx, ac, patch)).To(Succeed())
	Eventually(func() investv1.ApiClientSpec {
		got := &investv1.ApiClient{}
		Expect(mgr.GetClient().Get(ctx, client.ObjectKeyFromObject(ac), got)).To(Succeed())
		return got.Spec
	}, settle, poll).Should(Equal(ac.Spec))
}

var _ = Describe("Validation through the API server (kubectl path)", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	Context("wallet address", func() {
		It("accepts an all-lowercase or all-uppercase address and stores it in its EIP-55 form", func() {
			acct := fixtures.IndividualAccount(ns)
			create(acct)
			lower := fixtures.Wallet(ns, acct.Name, strings.ToLower(fixtures.Address))
			create(lower)
			upper := fixtures.Wallet(ns, acct.Name, "0x"+strings.ToUpper(fixtures.OtherAddr[2:]))
			create(upper)

			stored := &investv1.Wallet{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(lower), stored)).To(Succeed())
			Expect(stored.Spec.WalletAddress).To(Equal(fixtures.Address))
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(upper), stored)).To(Succeed())
			Expect(stored.Spec.WalletAddress).To(Equal(fixtures.OtherAddr))
			Expect(stored.Spec.Chain).To(Equal(investv1.ChainPolygon))
		})

		It("rejects a mixed-case address whose EIP-55 checksum fails, on spec.walletAddress", func() {
			acct := fixtures.IndividualAccount(ns)
			create(acct)
			bad := "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // one letter's case flipped
			w := fixtures.Wallet(ns, acct.Name, bad)
			err := k8s.Create(ctx, w)

			fe := rules.Wallet(&w.Spec)
			Expect(fe["wallet_address"]).To(Equal([]string{"mixed-case address fails its EIP-55 checksum"}))
			expectRuleMessages(err, fe, "wallet_address")
			Expect(causes(err)).To(HaveKey("spec.walletAddress"))
		})
	})

	Context("IBAN and account holder", func() {
		It("accepts an IBAN with spaces and lowercase letters and stores it normalized", func() {
			acct := fixtures.IndividualAccount(ns)
			create(acct)
			p := fixtures.PaymentMethodDetails(ns, acct.Name, "de89 3704 0044 0532 0130 00")
			p.Spec.Type = ""
			create(p)

			stored := &investv1.PaymentMethodDetails{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(p), stored)).To(Succeed())
			Expect(stored.Spec.IBAN).To(Equal(fixtures.IBAN))
			Expect(stored.Spec.Type).To(Equal(investv1.PaymentMethodSEPA))
		})

		DescribeTable("rejects an invalid IBAN on spec.iban with the rules' message",
			func(iban, want string) {
				acct := fixtures.IndividualAccount(ns)
				create(acct)
				p := fixtures.PaymentMethodDetails(ns, acct.Name, iban)
				err := k8s.Create(ctx, p)

				normalized := p.DeepCopy()
				normalized.Spec.IBAN = validation.NormalizeIBAN(iban)
				fe := rules.PaymentMethodDetails(&normalized.Spec)
				Expect(fe["iban"]).To(Equal([]string{want}))
				expectRuleMessages(err, fe, "iban")
			},
			Entry("bad check digits", "DE88 3704 0044 0532 0130 00", "must be a valid IBAN: check digits do not match"),
			Entry("unknown country", "XX89370400440532013000", "must be a valid IBAN: unknown country code"),
			Entry("wrong length for the country", "DE8937040044053201300", "must be a valid IBAN: IBANs from DE have 22 characters, not 21"),
		)

		It("rejects an account holder name longer than 70 characters on spec.accountHolderName", func() {
			acct := fixtures.IndividualAccount(ns)
			create(acct)
			p := fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN)
			p.Spec.AccountHolderName = strings.Repeat("A", 71)
			err := k8s.Create(ctx, p)
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
			// The CRD's maxLength (the same limit) answers before admission does, so the
			// words are the API server's, not internal/rules' "must be at most 70 characters".
			Expect(causes(err)).To(HaveKey("spec.accountHolderName"))
			Expect(rules.PaymentMethodDetails(&p.Spec)["account_holder_name"]).To(Equal([]string{"must be at most 70 characters"}))

			p.Spec.AccountHolderName = strings.Repeat("Ä", 70) // 70 characters, 140 bytes
			p.Name = controlplane.NewID()
			Expect(k8s.Create(ctx, p)).To(Succeed())
		})
	})

	Context("account type", func() {
		It("rejects an individual account without names, birth data and place of birth, with field paths", func() {
			a := fixtures.IndividualAccount(ns)
			a.Spec.FirstName, a.Spec.LastName, a.Spec.PlaceOfBirth = "", "", ""
			a.Spec.DobDay, a.Spec.DobMonth, a.Spec.DobYear = 0, 0, 0
			err := k8s.Create(ctx, a)

			fe := rules.Account(&a.Spec, rules.TenantSettings{}, time.Now())
			expectRuleMessages(err, fe, "first_name", "last_name", "place_of_birth", "birthdate")
			Expect(causes(err)).To(HaveKey("spec.firstName"))
			Expect(causes(err)).To(HaveKey("spec.lastName"))
			Expect(causes(err)).To(HaveKey("spec.placeOfBirth"))
			Expect(causes(err)).To(HaveKeyWithValue("spec.dobDay",
				ContainElement("Invalid value: date of birth is required (dobDay, dobMonth, dobYear)")))
		})

		It("rejects a business account without business_name", func() {
			a := fixtures.BusinessAccount(ns)
			a.Spec.BusinessName = ""
			err := k8s.Create(ctx, a)
			fe := rules.Account(&a.Spec, rules.TenantSettings{}, time.Now())
			expectRuleMessages(err, fe, "business_name")
			Expect(causes(err)).To(HaveKeyWithValue("spec.businessName", ContainElement("Invalid value: is required")))
		})

		It("rejects an individual account with business fields", func() {
			a := fixtures.IndividualAccount(ns)
			a.Spec.BusinessName, a.Spec.LEI, a.Spec.TaxID = "Example Holdings S.A.", fixtures.LEI, "LU12345678"
			err := k8s.Create(ctx, a)
			fe := rules.Account(&a.Spec, rules.TenantSettings{}, time.Now())
			expectRuleMessages(err, fe, "business_name", "lei", "tax_id")
			Expect(causes(err)).To(HaveKeyWithValue("spec.lei", ContainElement("Invalid value: is only for business accounts")))
		})

		It("rejects an impossible date of birth (31 February)", func() {
			a := fixtures.IndividualAccount(ns)
			a.Spec.DobDay, a.Spec.DobMonth, a.Spec.DobYear = 31, 2, 1990
			err := k8s.Create(ctx, a)
			fe := rules.Account(&a.Spec, rules.TenantSettings{}, time.Now())
			Expect(fe["birthdate"]).To(Equal([]string{"is not a real calendar day"}))
			expectRuleMessages(err, fe, "birthdate")

			// The same on update of a valid account.
			ok := fixtures.IndividualAccount(ns)
			create(ok)
			patch := client.MergeFrom(ok.DeepCopy())
			ok.Spec.DobDay, ok.Spec.DobMonth = 31, 2
			expectRuleMessages(k8s.Patch(ctx, ok, patch), fe, "birthdate")
		})
	})

	Context("tenant settings (ApiClient)", func() {
		It("tax reporting requires tin and tax_residencies of an individual", func() {
			withTenant(ns, true, false, false)
			a := fixtures.IndividualAccount(ns)
			a.Spec.TIN, a.Spec.TaxResidencies = "", ""
			err := k8s.Create(ctx, a)
			expectRuleMessages(err, rules.Account(&a.Spec, rules.TenantSettings{TaxReporting: true}, time.Now()), "tin", "tax_residencies")
			Expect(causes(err)).To(HaveKey("spec.tin"))
			Expect(causes(err)).To(HaveKey("spec.taxResidencies"))

			create(fixtures.IndividualAccount(ns))
		})

		It("tax reporting requires tax_id and tax_residencies of a business", func() {
			withTenant(ns, true, false, false)
			a := fixtures.BusinessAccount(ns)
			a.Spec.TaxID, a.Spec.TaxResidencies = "", ""
			err := k8s.Create(ctx, a)
			expectRuleMessages(err, rules.Account(&a.Spec, rules.TenantSettings{TaxReporting: true}, time.Now()), "tax_id", "tax_residencies")
			Expect(causes(err)).To(HaveKey("spec.taxID"))

			create(fixtures.BusinessAccount(ns))
		})

		It("LEI required requires a valid LEI of a business, and rejects bad check digits", func() {
			withTenant(ns, false, true, false)
			settings := rules.TenantSettings{LEIRequired: true}

			missing := fixtures.BusinessAccount(ns)
			missing.Spec.LEI = ""
			expectRuleMessages(k8s.Create(ctx, missing), rules.Account(&missing.Spec, settings, time.Now()), "lei")

			bad := fixtures.BusinessAccount(ns)
			bad.Spec.LEI = fixtures.LEI[:18] + "13"
			fe := rules.Account(&bad.Spec, settings, time.Now())
			Expect(fe["lei"]).To(Equal([]string{"must be a valid LEI: check digits do not match"}))
			expectRuleMessages(k8s.Create(ctx, bad), fe, "lei")

			create(fixtures.BusinessAccount(ns))
		})

		It("KYC data required requires the address fields", func() {
			withTenant(ns, false, false, true)
			a := fixtures.IndividualAccount(ns)
			a.Spec.Country, a.Spec.City, a.Spec.Line1, a.Spec.PostalCode = "", "", "", ""
			err := k8s.Create(ctx, a)
			expectRuleMessages(err, rules.Account(&a.Spec, rules.TenantSettings{KYCDataRequired: true}, time.Now()),
				"country", "city", "line1", "postal_code")
			Expect(causes(err)).To(HaveKey("spec.postalCode"))

			// Without the setting the same account is fine.
			other := newNamespace()
			a.Namespace = other
			create(a)
		})

		It("after the tenant tightens its settings, an existing account can still be labelled and get a primary wallet; what an update breaks is refused", func() {
			legacy := fixtures.IndividualAccount(ns)
			legacy.Spec.City, legacy.Spec.Line1, legacy.Spec.PostalCode = "", "", ""
			create(legacy)
			w := fixtures.Wallet(ns, legacy.Name, fixtures.Address)
			create(w)
			withTenant(ns, false, false, true)

			merge := func(body string) error {
				return k8s.Patch(ctx, legacy.DeepCopy(), client.RawPatch("application/merge-patch+json", []byte(body)))
			}
			Expect(merge(`{"metadata":{"labels":{"team":"retail"}}}`)).To(Succeed())
			Expect(merge(fmt.Sprintf(`{"spec":{"primaryWallet":%q}}`, w.Name))).To(Succeed())
			Eventually(func() []string { return primaryWallets(ns, legacy.Name) }, settle, poll).Should(Equal([]string{w.Name}))

			err := merge(`{"spec":{"firstName":""}}`)
			Expect(causes(err)).To(Equal(map[string][]string{"spec.firstName": {"Invalid value: is required"}}))
			Expect(merge(`{"spec":{"city":"Berlin","line1":"Unter den Linden 1","postalCode":"10117"}}`)).To(Succeed())
		})
	})

	Context("external_id", func() {
		It("rejects a duplicate external_id in one namespace and accepts it in another", func() {
			first := fixtures.IndividualAccount(ns)
			create(first)
			// Admission looks for duplicates in the manager's cache: wait until it shows the
			// first account (see the race spec in uniqueness_test.go).
			Eventually(func() error {
				return mgr.GetClient().Get(ctx, client.ObjectKeyFromObject(first), &investv1.Account{})
			}, settle, poll).Should(Succeed())

			dup := fixtures.IndividualAccount(ns)
			dup.Spec.ExternalID = first.Spec.ExternalID
			err := k8s.Create(ctx, dup)
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
			Expect(causes(err)).To(HaveKeyWithValue("spec.externalID", ContainElement(`Duplicate value: "`+first.Spec.ExternalID+`"`)))

			elsewhere := fixtures.IndividualAccount(newNamespace())
			elsewhere.Spec.ExternalID = first.Spec.ExternalID
			create(elsewhere)
		})
	})

	Context("owning account", func() {
		It("rejects a wallet or payment method details for an account that does not exist, on spec.accountID", func() {
			missing := controlplane.NewID()
			err := k8s.Create(ctx, fixtures.Wallet(ns, missing, fixtures.Address))
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
			Expect(causes(err)).To(HaveKeyWithValue("spec.accountID", ContainElement(`Not found: "`+missing+`"`)))

			err = k8s.Create(ctx, fixtures.PaymentMethodDetails(ns, missing, fixtures.IBAN))
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
			Expect(causes(err)).To(HaveKeyWithValue("spec.accountID", ContainElement(`Not found: "`+missing+`"`)))
		})

		It("accepts a wallet applied right after its account (admission falls back to the API server)", func() {
			acct := fixtures.IndividualAccount(ns)
			create(acct)
			create(fixtures.Wallet(ns, acct.Name, fixtures.Address))
			create(fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN))
		})
	})
})
