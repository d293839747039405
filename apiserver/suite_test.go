package apiserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/notify"

	"github.com/fundshare/fundshare-operator/internal/notify/egress"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
	"github.com/fundshare/fundshare-operator/internal/test/syncbuf"
)

// The REST suite runs the facade exactly as production does: a real kube-apiserver and
// etcd with the CRDs and admission webhooks, the manager built by app.NewManager and
// app.Setup (controllers, webhooks, REST on a local port), and every call made over real
// HTTP with tokens from POST /oauth2/token. Assertions about stored objects use a direct
// (uncached) client.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true, Logger: logger})
	baseURL       string
	hc            = &http.Client{Timeout: 60 * time.Second}

	// Two tenants: every test that needs isolation uses both.
	alpha, beta *tenant
	// strict is a tenant whose ApiClient opted in to tax reporting, LEI and KYC data.
	strict *tenant

	// The catalogue, shared by every tenant.
	fund, otherFund *investv1.Fund
	shareClass      *investv1.ShareClass
	otherClass      *investv1.ShareClass
	// lockedClass locks bought units for 30 days; closedClass's fund is not redeemable.
	lockedClass, closedClass *investv1.ShareClass

	// orderArchive is the order archive the facade reads (a real SQLite store);
	// archiveOrder moves an order there as the retention controller does.
	orderArchive archive.Store
	// archiveSwitch turns the archive off, as a database that stopped answering.
	archiveSwitch *archivetest.Switch
	// bankFolder is the root of the bank connector's folder that operators upload bank
	// files into (bankfiles_test.go); nothing ingests them in this suite.
	bankFolder string

	// conform checks every exchange against /openapi.json and notes secrets (conformance_test.go).
	conform *conformance
	// logs captures everything the manager and the facade log.
	logs   = &syncbuf.Buffer{}
	logger = zap.New(zap.WriteTo(io.MultiWriter(GinkgoWriter, logs)), zap.UseDevMode(true))
	// tenantNamespaces are every tenant's namespace, for the check of their Events.
	tenantNamespaces []string
)

const operatorNamespace = "fundshare-system"

func TestREST(t *testing.T) { env.Run(t, "REST facade suite", startFacade) }

// startFacade starts the manager with the REST facade on a loopback port and the order
// archive, loads the catalogue and makes the suite's tenants. After the last spec it
// stops the manager, then checks every answer against the OpenAPI document and that no
// secret reached the logs, the Events or an error body.
func startFacade() {
	GinkgoHelper()
	klog.SetLogger(logger)
	Expect(k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: operatorNamespace}})).To(Succeed())

	dir := GinkgoT().TempDir()
	st, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
	Expect(err).NotTo(HaveOccurred())
	archiveSwitch = archivetest.NewSwitch(st)
	DeferCleanup(func() { Expect(archiveSwitch.Close()).To(Succeed()) })
	orderArchive = archiveSwitch

	bankFolder = filepath.Join(dir, "bank")
	Expect(os.Mkdir(bankFolder, 0o750)).To(Succeed())
	folder, err := connector.OpenFolder(bankFolder)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(folder.Close)

	addr := loopback.FreeAddr(GinkgoT())
	baseURL = "http://" + addr
	env.Manager = env.StartManager(env.Config, apptest.Manager(app.Config{
		RESTAddr: addr, PublicBaseURL: baseURL, Namespace: operatorNamespace,
		SigningKeySecret: "fundshare-jwt-signing-key", Webhooks: true, Controllers: true,
		SandboxSettlement: -1, Archive: orderArchive,
		// Webhook receivers listen on 127.0.0.1, as in make run.
		WebhookEgress: egress.Options{AllowLoopbackHTTP: true, Timeout: 5 * time.Second}, WebhookStore: webhookStore(st),
		// Every request logged at info, so the leak check reads the access log too.
		RESTAccessLog: true,
		// Operators' uploads go into the folder; without BankFolder nothing ingests them.
		BankConnector: folder,
	}))
	DeferCleanup(func() {
		env.Manager.Stop()
		if conform != nil {
			Expect(conform.Mismatches()).To(BeEmpty(), "answers that do not match /openapi.json")
			// Secrets never in logs: the whole run's logs (shutdown included), the tenants'
			// Events and every error body the suite received.
			conform.assertNoSecretsLeaked(logs.String(), tenantNamespaces)
		}
	})
	Eventually(func() error {
		res, err := hc.Get(baseURL + "/readyz")
		if err != nil {
			return err
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("readyz: %d", res.StatusCode)
		}
		return nil
	}).WithTimeout(time.Minute).Should(Succeed())
	// From here on every answer is checked against the facade's OpenAPI document.
	conform = loadConformance(baseURL, http.DefaultTransport)
	hc.Transport = conform

	alpha = newTenant("alpha", investv1.ApiClientSpec{})
	beta = newTenant("beta", investv1.ApiClientSpec{})
	strict = newTenant("strict", investv1.ApiClientSpec{TaxReporting: true, LEIRequired: true, KYCDataRequired: true})
	loadCatalogue()
}

// tenant is an API client with its namespace and a token.
type tenant struct {
	ns, clientID, secret, token string
}

// newTenant onboards an integrator as an operator would: namespace, Secret with the hash
// of the client secret, ApiClient; then logs in through the token endpoint.
func newTenant(prefix string, settings investv1.ApiClientSpec) *tenant {
	ns, err := controlplane.NewNamespace(ctx, k8s, prefix)
	Expect(err).NotTo(HaveOccurred())
	secret, err := clientsecret.New()
	Expect(err).NotTo(HaveOccurred())
	hash, err := clientsecret.Hash(secret)
	Expect(err).NotTo(HaveOccurred())
	Expect(k8s.Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "credentials"},
		Data:       map[string][]byte{"hash": []byte(hash)},
	})).To(Succeed())
	tenantNamespaces = append(tenantNamespaces, ns)
	t := &tenant{ns: ns, clientID: ns + "-client", secret: secret}
	ac := fixtures.ApiClient(ns, t.clientID, "credentials")
	ac.Spec.TaxReporting, ac.Spec.LEIRequired, ac.Spec.KYCDataRequired = settings.TaxReporting, settings.LEIRequired, settings.KYCDataRequired
	Expect(k8s.Create(ctx, ac)).To(Succeed())
	Eventually(func() int {
		r := t.login()
		if r.code == http.StatusOK {
			t.token = r.json()["access_token"].(string)
		}
		return r.code
	}).WithTimeout(30 * time.Second).Should(Equal(http.StatusOK))
	return t
}

// webhookStore is the webhook store in the archive's database (the switch turns only the
// archive off).
func webhookStore(st archive.Store) notify.Store {
	ws, ok := sqlstore.Webhooks(st)
	Expect(ok).To(BeTrue())
	return ws
}

func (t *tenant) login() response {
	form := url.Values{
		"grant_type": {"client_credentials"}, "scope": {"openid offline"},
		"client_id": {t.clientID}, "client_secret": {t.secret}, "audience": {"127.0.0.1"},
	}
	req, err := http.NewRequest(http.MethodPost, baseURL+"/oauth2/token", strings.NewReader(form.Encode()))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return do(req)
}

func loadCatalogue() {
	fund = fixtures.Fund()
	otherFund = fixtures.Fund()
	otherFund.Spec.Name, otherFund.Spec.Abbreviation = "European Infrastructure Income Feeder", "EIIF"
	otherFund.Spec.BaseCurrency, otherFund.Spec.RiskScore = "USD", 4
	seven := intstr.FromInt32(7)
	otherFund.Spec.RecommendedHoldingDuration = &seven
	otherFund.Spec.Documents = nil
	otherFund.Spec.PaymentDetails = nil
	otherFund.Spec.RedemptionGate = &investv1.RedemptionGate{Active: true, Reason: "quarter-end"}
	Expect(k8s.Create(ctx, fund)).To(Succeed())
	Expect(k8s.Create(ctx, otherFund)).To(Succeed())
	shareClass = fixtures.ShareClass(fund.Name, fixtures.ISIN)
	otherClass = fixtures.ShareClass(otherFund.Name, fixtures.OtherISIN)
	otherClass.Spec.Name, otherClass.Spec.Abbreviation, otherClass.Spec.Currency = "Class I USD Dist", "I-USD", "USD"
	otherClass.Spec.ServicingFee = nil
	Expect(k8s.Create(ctx, shareClass)).To(Succeed())
	Expect(k8s.Create(ctx, otherClass)).To(Succeed())
	vol := int64(1500)
	Expect(k8s.Create(ctx, fixtures.NAVHistory(fixtures.ISIN, "EUR",
		investv1.NAVPrice{Date: "2025-01-31", NAVPerShare: 1_000_000},
		investv1.NAVPrice{Date: "2025-03-31", NAVPerShare: 1_030_000, ChangePercentage: 100, Volume: &vol},
		investv1.NAVPrice{Date: "2025-02-28", NAVPerShare: 1_020_000, ChangePercentage: -50},
	))).To(Succeed())

	lockedFund, closedFund := fixtures.Fund(), fixtures.Fund()
	lockedFund.Spec.Name, lockedFund.Spec.Abbreviation = "Venture Lock-up Feeder", "VLF"
	closedFund.Spec.Name, closedFund.Spec.Abbreviation, closedFund.Spec.Redeemable = "Closed-end Credit Feeder", "CCF", false
	Expect(k8s.Create(ctx, lockedFund)).To(Succeed())
	Expect(k8s.Create(ctx, closedFund)).To(Succeed())
	lockedClass = fixtures.ShareClass(lockedFund.Name, "DE0007164600")
	lockedClass.Spec.Name, lockedClass.Spec.Abbreviation, lockedClass.Spec.LockUp = "Class L EUR Acc", "L-EUR", 30
	closedClass = fixtures.ShareClass(closedFund.Name, "US88160R1014")
	closedClass.Spec.Name, closedClass.Spec.Abbreviation = "Class C EUR Acc", "C-EUR"
	Expect(k8s.Create(ctx, lockedClass)).To(Succeed())
	Expect(k8s.Create(ctx, closedClass)).To(Succeed())
	for _, isin := range []string{"DE0007164600", "US88160R1014"} {
		Expect(k8s.Create(ctx, fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2025-03-31", NAVPerShare: 1_000_000}))).To(Succeed())
	}
	Eventually(func() int {
		return len(alpha.get("/v1/share-classes").json()["data"].([]any))
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(BeNumerically(">=", 4))
}

// response is what a call answered.
type response struct {
	code   int
	header http.Header
	body   []byte
}

func (r response) json() map[string]any {
	var m map[string]any
	ExpectWithOffset(1, json.Unmarshal(r.body, &m)).To(Succeed(), "body: %s", r.body)
	return m
}

// details is the details object of a validation error.
func (r response) details() map[string]any {
	d, ok := r.json()["details"].(map[string]any)
	ExpectWithOffset(1, ok).To(BeTrue(), "details is not an object: %s", r.body)
	return d
}

func (r response) data() []map[string]any {
	var out struct {
		Data []map[string]any `json:"data"`
	}
	ExpectWithOffset(1, json.Unmarshal(r.body, &out)).To(Succeed(), "body: %s", r.body)
	ExpectWithOffset(1, out.Data).NotTo(BeNil(), "data must be an array: %s", r.body)
	return out.Data
}

func (r response) String() string { return fmt.Sprintf("%d %s", r.code, r.body) }

func do(req *http.Request) response {
	res, err := hc.Do(req)
	ExpectWithOffset(2, err).NotTo(HaveOccurred())
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	ExpectWithOffset(2, err).NotTo(HaveOccurred())
	return response{code: res.StatusCode, header: res.Header, body: body}
}

// call sends a request; body is sent as is when it is a string, as JSON otherwise.
func call(method, path, token string, body any) response {
	return do(newJSONRequest(method, path, token, body))
}

// newJSONRequest builds the request call sends.
func newJSONRequest(method, path, token string, body any) *http.Request {
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = strings.NewReader(s)
		} else {
			b, err := json.Marshal(body)
			ExpectWithOffset(1, err).NotTo(HaveOccurred())
			rd = bytes.NewReader(b)
		}
	}
	req, err := http.NewRequest(method, baseURL+path, rd)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

func get(path, token string) response { return call(http.MethodGet, path, token, nil) }

func (t *tenant) get(path string) response { return call(http.MethodGet, path, t.token, nil) }
func (t *tenant) post(path string, body any) response {
	return call(http.MethodPost, path, t.token, body)
}
func (t *tenant) patch(path string, body any) response {
	return call(http.MethodPatch, path, t.token, body)
}

// individual is a create-account body valid for every tenant.
func individual() map[string]any {
	return map[string]any{
		"type": "individual", "external_id": "cust-" + controlplane.NewID()[:13],
		"country": "DE", "city": "Berlin", "line1": "Unter den Linden 1", "postal_code": "10117",
		"first_name": "Erika", "last_name": "Mustermann", "birthdate": "1964-08-12",
		"place_of_birth": "Berlin", "tin": "12345678901", "tax_residencies": "DE",
	}
}

// business is a create-account body valid for every tenant.
func business() map[string]any {
	return map[string]any{
		"type": "business", "external_id": "biz-" + controlplane.NewID()[:13],
		"country": "LU", "city": "Luxembourg", "line1": "2 Boulevard Royal", "postal_code": "2449",
		"business_name": "Example Holdings S.A.", "lei": fixtures.LEI, "tax_id": "LU12345678",
		"tax_residencies": "LU",
	}
}

// newAccount creates an individual account through REST and returns its id.
func (t *tenant) newAccount() string {
	r := t.post("/v1/accounts", individual())
	ExpectWithOffset(1, r.code).To(Equal(http.StatusCreated), r.String())
	return r.json()["id"].(string)
}

// newWallet registers an address on the account and returns the wallet's id.
func (t *tenant) newWallet(accountID, address string) string {
	r := t.post("/v1/accounts/"+accountID+"/wallets", map[string]any{"chain": "polygon", "wallet_address": address})
	ExpectWithOffset(1, r.code).To(Equal(http.StatusCreated), r.String())
	return r.json()["id"].(string)
}

// newPaymentMethod adds SEPA details and returns their id.
func (t *tenant) newPaymentMethod(accountID string) string {
	r := t.post("/v1/accounts/"+accountID+"/payment-method-details",
		map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "Erika Mustermann"})
	ExpectWithOffset(1, r.code).To(Equal(http.StatusCreated), r.String())
	return r.json()["id"].(string)
}

// randomAddress is a fresh EVM address in lower case (no checksum to satisfy).
func randomAddress() string {
	return "0x" + strings.ReplaceAll(controlplane.NewID()+controlplane.NewID(), "-", "")[:40]
}

// storedAccount reads the account from the API server.
func storedAccount(ns, id string) *investv1.Account {
	var a investv1.Account
	ExpectWithOffset(1, k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: id}, &a)).To(Succeed())
	return &a
}

// walletsOf and pmdOf are the collections of an account's children.
func walletsOf(accountID string) string { return "/v1/accounts/" + accountID + "/wallets" }
func pmdOf(accountID string) string     { return "/v1/accounts/" + accountID + "/payment-method-details" }

// refuseQuery checks that the tenant's GET path?query answers 422 Validation error naming
// the query parameter field.
func (t *tenant) refuseQuery(path, query, field string) {
	GinkgoHelper()
	r := t.get(path + "?" + query)
	Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
	Expect(r.json()["error"]).To(Equal("Validation error"))
	Expect(r.details()).To(HaveKey(field))
}

// concurrently makes the n calls call(0) … call(n-1) at once and returns their answers,
// answers[i] that of call(i).
func concurrently(n int, call func(i int) response) []response {
	answers := make([]response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer GinkgoRecover()
			answers[i] = call(i)
		})
	}
	wg.Wait()
	return answers
}

// expectInvalid checks a 422 Validation error whose details carry, for each field of
// want, exactly the messages given (any messages for a field mapped to nil).
func expectInvalid(r response, want map[string][]string) {
	GinkgoHelper()
	Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
	Expect(r.json()["error"]).To(Equal("Validation error"), r.String())
	for field, messages := range want {
		if messages == nil {
			Expect(r.details()).To(HaveKey(field), r.String())
			continue
		}
		Expect(r.details()).To(HaveKeyWithValue(field, ConsistOf(messages)), r.String())
	}
}
