package apiserver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// An operator's upload: POST /v1/operator/bank-files against the real API server's
// TokenReview and SubjectAccessReview, with ServiceAccount tokens the API server signs
// (envtest configures kube-apiserver's service-account signing key and issuer) and the
// example role of config/rbac/bank_operator_role.yaml bound by a ClusterRoleBinding.
var _ = Describe("An operator's upload of a bank file", func() {
	var ns string
	BeforeEach(func() { ns = env.NewNamespace("bank-operator") })

	It("refuses a tenant's OAuth access token with 401, and delivers nothing", func() {
		name := ns + ".xml"
		r := uploadBankFile(alpha.token, name, notification(ns))
		Expect(r.code).To(Equal(http.StatusUnauthorized), r.String())
		Expect(r.header.Get("WWW-Authenticate")).To(HavePrefix("Bearer "))
		Expect(r.json()["details"]).To(ContainSubstring("tenant"))
		Expect(inboxFile(name)).To(BeEmpty())
	})

	It("refuses a token the Kubernetes API server does not authenticate with 401", func() {
		for _, token := range []string{"", "not-a-token-the-api-server-knows", strings.Repeat("x", 40)} {
			r := uploadBankFile(token, ns+".xml", notification(ns))
			Expect(r.code).To(Equal(http.StatusUnauthorized), r.String())
			Expect(r.header.Get("WWW-Authenticate")).To(HavePrefix("Bearer "))
		}
		Expect(inboxFile(ns + ".xml")).To(BeEmpty())
	})

	It("refuses a ServiceAccount that RBAC does not allow to create bankfiles with 403", func() {
		token := serviceAccountToken(ns, "intern")
		r := uploadBankFile(token, ns+".xml", notification(ns))
		Expect(r.code).To(Equal(http.StatusForbidden), r.String())
		Expect(r.json()["details"]).To(ContainSubstring("system:serviceaccount:" + ns + ":intern"))
		Expect(r.json()["details"]).To(ContainSubstring("bankfiles.invest.fundshare.io"))
		Expect(inboxFile(ns + ".xml")).To(BeEmpty())
	})

	It("delivers the file of a ServiceAccount bound to the bank operator role into the inbox: 202", func() {
		token := bankClerk(ns)
		name := ns + ".xml"
		file := notification(ns)
		var r response
		// RBAC's authorizer sees the new binding within moments.
		Eventually(func() int {
			r = uploadBankFile(token, name, file)
			return r.code
		}).WithTimeout(30 * time.Second).WithPolling(200 * time.Millisecond).Should(Equal(http.StatusAccepted))
		sum := sha256.Sum256([]byte(file))
		Expect(r.json()).To(Equal(map[string]any{
			"name": name, "sha256": hex.EncodeToString(sum[:]), "message_type": "camt.054.001.08",
			"message_id": "NTF-" + ns, "size": float64(len(file)),
		}))
		Expect(inboxFile(name)).To(Equal(file))
	})

	It("refuses a file that does not parse with 422 naming where, and delivers nothing", func() {
		token := bankClerk(ns)
		name := ns + ".xml"
		bad := strings.Replace(notification(ns), "123.45", "123.456", 1)
		var r response
		Eventually(func() int {
			r = uploadBankFile(token, name, bad)
			return r.code
		}).WithTimeout(30 * time.Second).WithPolling(200 * time.Millisecond).Should(Equal(http.StatusUnprocessableEntity))
		Expect(r.json()["error"]).To(Equal("Invalid bank file"))
		Expect(r.json()["details"]).To(And(
			ContainSubstring("camt.054.001.08"), ContainSubstring("entry 1"),
			ContainSubstring("Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]/Amt"), ContainSubstring("invalid amount")))
		Expect(inboxFile(name)).To(BeEmpty())
	})

	It("delivers the same file uploaded twice once", func() {
		token := bankClerk(ns)
		name := ns + ".xml"
		file := notification(ns)
		var first response
		Eventually(func() int {
			first = uploadBankFile(token, name, file)
			return first.code
		}).WithTimeout(30 * time.Second).WithPolling(200 * time.Millisecond).Should(Equal(http.StatusAccepted))
		second := uploadBankFile(token, name, file)
		Expect(second.code).To(Equal(http.StatusAccepted), second.String())
		Expect(second.json()).To(Equal(first.json()))
		Expect(inboxNames(ns)).To(ConsistOf(name))
		// A different file under the waiting name is refused; the first stays.
		other := uploadBankFile(token, name, strings.Replace(file, "123.45", "123.46", 1))
		Expect(other.code).To(Equal(http.StatusConflict), other.String())
		Expect(inboxFile(name)).To(Equal(file))
	})
})

// notification is a camt.054.001.08 with one booked credit, its message id and entry
// reference made from id.
func notification(id string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>NTF-` + id + `</MsgId><CreDtTm>2026-11-27T10:00:00Z</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>NTF-` + id + `</Id>
      <Acct><Id><IBAN>LU280019400644750000</IBAN></Id><Ccy>EUR</Ccy></Acct>
      <Ntry>
        <Amt Ccy="EUR">123.45</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-27</Dt></BookgDt>
        <AcctSvcrRef>ENTRY-` + id + `</AcctSvcrRef>
      </Ntry>
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`
}

// uploadBankFile posts file as an operator with token (none when empty) under name.
func uploadBankFile(token, name, file string) response {
	GinkgoHelper()
	req, err := http.NewRequest(http.MethodPost, baseURL+"/v1/operator/bank-files?name="+name, strings.NewReader(file))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/xml")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(req)
}

// serviceAccountToken creates the ServiceAccount ns/name and returns a token of it, as
// `kubectl create token` does (a TokenRequest).
func serviceAccountToken(ns, name string) string {
	GinkgoHelper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	Expect(k8s.Create(ctx, sa)).To(Succeed())
	tr := &authnv1.TokenRequest{Spec: authnv1.TokenRequestSpec{ExpirationSeconds: ptr(int64(600))}}
	Expect(k8s.SubResource("token").Create(ctx, sa, tr)).To(Succeed())
	Expect(tr.Status.Token).NotTo(BeEmpty())
	return tr.Status.Token
}

// bankClerk is the token of the ServiceAccount ns/bank-clerk, bound to the example role
// of config/rbac/bank_operator_role.yaml.
func bankClerk(ns string) string {
	GinkgoHelper()
	data, err := os.ReadFile(filepath.Join(controlplane.Root(), "config", "rbac", "bank_operator_role.yaml"))
	Expect(err).NotTo(HaveOccurred())
	var role rbacv1.ClusterRole
	Expect(yaml.UnmarshalStrict(data, &role)).To(Succeed())
	if err := k8s.Create(ctx, &role); err != nil && !apierrors.IsAlreadyExists(err) {
		Expect(err).NotTo(HaveOccurred())
	}
	token := serviceAccountToken(ns, "bank-clerk")
	Expect(k8s.Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: ns + "-bank-clerk"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: "bank-clerk"}},
	})).To(Succeed())
	return token
}

// inboxFile is what the bank folder's inbox holds under name, empty when nothing.
func inboxFile(name string) string {
	GinkgoHelper()
	data, err := os.ReadFile(filepath.Join(bankFolder, "inbox", name))
	if os.IsNotExist(err) {
		return ""
	}
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

// inboxNames lists the inbox's files whose name contains s, hidden ones included.
func inboxNames(s string) []string {
	GinkgoHelper()
	entries, err := os.ReadDir(filepath.Join(bankFolder, "inbox"))
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, e := range entries {
		if strings.Contains(e.Name(), s) {
			out = append(out, e.Name())
		}
	}
	return out
}
