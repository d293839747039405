package apiserver_test

import (
	"errors"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// A platform team may add its own admission rules in front of the operator (a
// ValidatingAdmissionPolicy, a validating webhook). Their refusals are the caller's to
// read, never the facade's fault: 400 with the refusal's message (docs/rest-api.md).
var _ = Describe("A write refused by an admission policy that is not ours", Ordered, func() {
	var platform *tenant
	const surnameRefusal = "the platform does not accept accounts with the surname Mallory"
	const cityRefusal = "the platform does not serve Atlantis"

	BeforeAll(func() {
		platform = newTenant("policy", investv1.ApiClientSpec{})
		// Two validations, one per status a policy can answer with: Forbidden (403) and
		// the default, Invalid (422) without field causes.
		policy := &admissionv1.ValidatingAdmissionPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "platform-" + platform.ns},
			Spec: admissionv1.ValidatingAdmissionPolicySpec{
				FailurePolicy: ptr(admissionv1.Fail),
				MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionv1.RuleWithOperations{
						Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
						Rule: admissionv1.Rule{
							APIGroups: []string{investv1.GroupVersion.Group}, APIVersions: []string{"*"},
							Resources: []string{"accounts"},
						},
					},
				}}},
				Validations: []admissionv1.Validation{
					{
						Expression: `!has(object.spec.lastName) || object.spec.lastName != 'Mallory'`,
						Message:    surnameRefusal, Reason: ptr(metav1.StatusReasonForbidden),
					},
					{
						Expression: `!has(object.spec.city) || object.spec.city != 'Atlantis'`,
						Message:    cityRefusal,
					},
				},
			},
		}
		Expect(k8s.Create(ctx, policy)).To(Succeed())
		DeferCleanup(k8s.Delete, ctx, policy)
		binding := &admissionv1.ValidatingAdmissionPolicyBinding{
			ObjectMeta: metav1.ObjectMeta{Name: policy.Name},
			Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{
				PolicyName:        policy.Name,
				ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny},
				MatchResources: &admissionv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{
					MatchLabels: map[string]string{"kubernetes.io/metadata.name": platform.ns},
				}},
			},
		}
		Expect(k8s.Create(ctx, binding)).To(Succeed())
		DeferCleanup(k8s.Delete, ctx, binding)
		// The API server applies a new policy within a moment: wait until it refuses.
		Eventually(func() int {
			body := individual()
			body["last_name"] = "Mallory"
			return platform.post("/v1/accounts", body).code
		}).WithTimeout(30 * time.Second).ShouldNot(Equal(http.StatusCreated))
	})

	It("answers a refused POST with 400 and the policy's message, never 500", func() {
		body := individual()
		body["last_name"] = "Mallory"
		expectRejected(platform.post("/v1/accounts", body), surnameRefusal)
	})

	It("answers a refused PATCH with 400 and the policy's message, and changes nothing", func() {
		id := platform.newAccount()
		expectRejected(platform.patch("/v1/accounts/"+id, map[string]any{"last_name": "Mallory"}), surnameRefusal)
		Expect(storedAccount(platform.ns, id).Spec.LastName).To(Equal("Mustermann"))
	})

	It("answers a refusal with the Invalid status but no field causes with 400 too", func() {
		// What kubectl and the facade get from the API server: Invalid, and no field.
		a := fixtures.IndividualAccount(platform.ns)
		a.Spec.City = "Atlantis"
		err := k8s.Create(ctx, a)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		var status apierrors.APIStatus
		Expect(errors.As(err, &status)).To(BeTrue())
		for _, c := range status.Status().Details.Causes {
			Expect(c.Field).To(BeEmpty(), "%v", err)
		}

		body := individual()
		body["city"] = "Atlantis"
		expectRejected(platform.post("/v1/accounts", body), cityRefusal)
	})
})

// expectRejected checks a 400 Request rejected whose details quote the refusal.
func expectRejected(r response, refusal string) {
	GinkgoHelper()
	Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
	Expect(r.json()["error"]).To(Equal("Request rejected"))
	Expect(r.json()["details"]).To(ContainSubstring(refusal))
}
