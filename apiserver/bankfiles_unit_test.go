package apiserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"

	"github.com/fundshare/fundshare-operator/internal/bank/connector"
)

// The rules of the operator's upload (bankfiles.go, operatorauth.go) over a fake
// TokenReview/SubjectAccessReview; the REST suite (bankfiles_test.go) checks the same
// against a real API server's.

// camt054 is a minimal valid camt.054.001.08: one booked credit.
const camt054 = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>UPLOAD-NTF-1</MsgId><CreDtTm>2026-11-27T10:00:00Z</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>UPLOAD-NTF-1</Id>
      <Acct><Id><IBAN>LU280019400644750000</IBAN></Id><Ccy>EUR</Ccy></Acct>
      <Ntry>
        <Amt Ccy="EUR">123.45</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-27</Dt></BookgDt>
        <AcctSvcrRef>UPLOAD-ENTRY-1</AcctSvcrRef>
      </Ntry>
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`

// fakeReviewer authenticates the tokens it knows and allows the users it is told to.
type fakeReviewer struct {
	mu      sync.Mutex
	users   map[string]string // token → user name
	allowed map[string]bool   // user name → allowed
	err     error
	reviews int
	asked   []authzv1.ResourceAttributes
}

func (f *fakeReviewer) ReviewToken(_ context.Context, token string) (authnv1.UserInfo, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reviews++
	if f.err != nil {
		return authnv1.UserInfo{}, false, f.err
	}
	name, ok := f.users[token]
	return authnv1.UserInfo{Username: name, Groups: []string{"system:authenticated"}}, ok, nil
}

func (f *fakeReviewer) Allowed(_ context.Context, user authnv1.UserInfo, attrs authzv1.ResourceAttributes) (bool, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, attrs)
	return f.allowed[user.Username], "no RBAC rule", nil
}

func (f *fakeReviewer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reviews
}

const (
	clerkToken    = "k8s-token-of-the-bank-clerk-0123456789"
	stranger      = "k8s-token-of-someone-without-rbac-0123"
	clerk         = "system:serviceaccount:default:bank-clerk"
	strangersName = "system:serviceaccount:default:stranger"
)

// uploadServer is a facade with a bank folder, the fake reviewer (the clerk allowed, the
// stranger not) and a log kept in lines; tenantToken issues a tenant's access token.
func uploadServer(t *testing.T) (s *Server, dir string, rev *fakeReviewer, log *lines, tenantToken func(string) string) {
	t.Helper()
	s, _, issue := newTestServer(t)
	dir = t.TempDir()
	folder, err := connector.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = folder.Close() })
	rev = &fakeReviewer{
		users:   map[string]string{clerkToken: clerk, stranger: strangersName},
		allowed: map[string]bool{clerk: true},
	}
	log = &lines{}
	s.deps.BankConnector, s.operators, s.deps.Log = folder, rev, log.logger()
	return s, dir, rev, log, issue
}

func upload(s *Server, token, query, contentType string, body io.Reader) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, bankFilesPath+query, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w
}

func uploadXML(s *Server, token, query, body string) *httptest.ResponseRecorder {
	return upload(s, token, query, "application/xml", strings.NewReader(body))
}

func errorOf(t *testing.T, w *httptest.ResponseRecorder) ErrorResponse {
	t.Helper()
	var e ErrorResponse
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
		t.Fatalf("%d %s: not the error body: %v", w.Code, w.Body, err)
	}
	return e
}

func inbox(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "inbox"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestAnAllowedOperatorsFileIsDeliveredIntoTheInboxAnd202(t *testing.T) {
	s, dir, rev, _, _ := uploadServer(t)
	w := uploadXML(s, clerkToken, "?name=camt054-2026-11-27.xml", camt054)
	if w.Code != http.StatusAccepted {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var got BankFileUpload
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(camt054))
	want := BankFileUpload{Name: "camt054-2026-11-27.xml", SHA256: hex.EncodeToString(sum[:]),
		MessageType: "camt.054.001.08", MessageID: "UPLOAD-NTF-1", Size: int64(len(camt054))}
	if got != want {
		t.Fatalf("answer %+v, want %+v", got, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, "inbox", "camt054-2026-11-27.xml"))
	if err != nil || string(data) != camt054 {
		t.Fatalf("inbox file: %v, %q", err, data)
	}
	if !slices.Equal(rev.asked, []authzv1.ResourceAttributes{{Verb: "create", Group: "invest.fundshare.io", Resource: "bankfiles"}}) {
		t.Fatalf("RBAC was asked %+v", rev.asked)
	}
}

func TestAPain002IsParsedAsTheIngestionParsesIt(t *testing.T) {
	s, dir, _, _, _ := uploadServer(t)
	data, err := os.ReadFile(filepath.Join("..", "internal", "bank", "iso20022", "testdata", "pain002_v10.xml"))
	if err != nil {
		t.Fatal(err)
	}
	w := upload(s, clerkToken, "?name=pain002.xml", "text/xml; charset=utf-8", bytes.NewReader(data))
	if w.Code != http.StatusAccepted {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var got BankFileUpload
	_ = json.Unmarshal(w.Body.Bytes(), &got)
	if got.MessageType != "pain.002.001.10" || got.MessageID != "STS-20260303-0007" {
		t.Fatalf("answer %+v", got)
	}
	if !slices.Equal(inbox(t, dir), []string{"pain002.xml"}) {
		t.Fatalf("inbox/ = %v", inbox(t, dir))
	}
}

func TestWithoutANameTheFileIsNamedByTheDayAndItsDigest(t *testing.T) {
	s, dir, _, _, _ := uploadServer(t)
	s.deps.Now = func() time.Time { return time.Date(2026, 11, 27, 23, 59, 0, 0, time.FixedZone("CET", 3600)) }
	sum := sha256.Sum256([]byte(camt054))
	want := "upload-20261127-" + hex.EncodeToString(sum[:])[:16] + ".xml"
	for range 2 { // the same file again the same day: delivered once
		w := uploadXML(s, clerkToken, "", camt054)
		if w.Code != http.StatusAccepted || !strings.Contains(w.Body.String(), `"name":"`+want+`"`) {
			t.Fatalf("%d %s, want the name %s", w.Code, w.Body, want)
		}
	}
	if !slices.Equal(inbox(t, dir), []string{want}) {
		t.Fatalf("inbox/ = %v", inbox(t, dir))
	}
}

func TestTheSameFileUploadedTwiceIsDeliveredOnce(t *testing.T) {
	s, dir, _, _, _ := uploadServer(t)
	first := uploadXML(s, clerkToken, "?name=n.xml", camt054)
	second := uploadXML(s, clerkToken, "?name=n.xml", camt054)
	if first.Code != http.StatusAccepted || second.Code != http.StatusAccepted || first.Body.String() != second.Body.String() {
		t.Fatalf("first %d %s, second %d %s", first.Code, first.Body, second.Code, second.Body)
	}
	if !slices.Equal(inbox(t, dir), []string{"n.xml"}) {
		t.Fatalf("inbox/ = %v", inbox(t, dir))
	}
}

func TestADifferentFileUnderAWaitingNameIsAConflict(t *testing.T) {
	s, dir, _, _, _ := uploadServer(t)
	if w := uploadXML(s, clerkToken, "?name=n.xml", camt054); w.Code != http.StatusAccepted {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	other := strings.Replace(camt054, "123.45", "123.46", 1)
	w := uploadXML(s, clerkToken, "?name=n.xml", other)
	if w.Code != http.StatusConflict || errorOf(t, w).Error != msgConflict {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "inbox", "n.xml"))
	if string(data) != camt054 {
		t.Fatal("the waiting file was replaced")
	}
}

func TestAFileThatDoesNotParseIsRefusedWithTheParsersErrorAndNothingIsDelivered(t *testing.T) {
	s, dir, _, _, _ := uploadServer(t)
	for body, where := range map[string]string{
		strings.Replace(camt054, "<MsgId>UPLOAD-NTF-1</MsgId>", "", 1):                             "Document/BkToCstmrDbtCdtNtfctn/GrpHdr/MsgId",
		strings.Replace(camt054, "123.45", "123.456", 1):                                           "entry 1: Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]/Amt",
		`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>`: "not a well-formed XML document",
		`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"/>`:                       "not a message type and version this package reads",
		``: "the file has no root element",
	} {
		w := uploadXML(s, clerkToken, "?name=bad.xml", body)
		if w.Code != http.StatusUnprocessableEntity {
			t.Errorf("%q: %d %s", where, w.Code, w.Body)
			continue
		}
		e := errorOf(t, w)
		if d, _ := e.Details.(string); e.Error != msgInvalidBankFile || !strings.Contains(d, where) {
			t.Errorf("answer %+v, want details naming %q", e, where)
		}
	}
	if got := inbox(t, dir); len(got) != 0 {
		t.Fatalf("inbox/ = %v, want nothing delivered", got)
	}
}

func TestATenantTokenIsRefusedWithoutBeingSentToKubernetes(t *testing.T) {
	s, dir, rev, _, issue := uploadServer(t)
	// A valid access token of a tenant, and one of ours that no longer verifies (an
	// expired one, here a forged signature): never a Kubernetes credential.
	valid := issue("alpha")
	parts := strings.Split(valid, ".")
	broken := parts[0] + "." + parts[1] + ".AAAA"
	for _, token := range []string{valid, broken} {
		w := uploadXML(s, token, "?name=n.xml", camt054)
		if w.Code != http.StatusUnauthorized || !strings.HasPrefix(w.Header().Get("WWW-Authenticate"), "Bearer ") {
			t.Fatalf("%d %s %v", w.Code, w.Body, w.Header())
		}
		if d, _ := errorOf(t, w).Details.(string); !strings.Contains(d, "tenant") {
			t.Errorf("details %q", d)
		}
	}
	if rev.count() != 0 {
		t.Fatalf("%d TokenReviews: a tenant's token was sent to the API server", rev.count())
	}
	if len(inbox(t, dir)) != 0 {
		t.Fatal("delivered")
	}
}

func TestNoTokenAMalformedOneAndOneKubernetesDoesNotKnowAre401(t *testing.T) {
	s, _, _, _, _ := uploadServer(t)
	unsigned, err := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.RegisteredClaims{Issuer: "https://elsewhere.example"}).
		SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	for name, setAuth := range map[string]func(*http.Request){
		"none":  func(*http.Request) {},
		"basic": func(r *http.Request) { r.SetBasicAuth("clerk", "secret") },
		"empty": func(r *http.Request) { r.Header.Set("Authorization", "Bearer ") },
		"twice": func(r *http.Request) {
			r.Header.Add("Authorization", "Bearer "+clerkToken)
			r.Header.Add("Authorization", "Bearer x")
		},
		"unknown": func(r *http.Request) { r.Header.Set("Authorization", "Bearer not-a-token-kubernetes-knows") },
		"jwt":     func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+unsigned) },
	} {
		req := httptest.NewRequest(http.MethodPost, bankFilesPath, strings.NewReader(camt054))
		req.Header.Set("Content-Type", "application/xml")
		setAuth(req)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != http.StatusUnauthorized || w.Header().Get("WWW-Authenticate") == "" || errorOf(t, w).Error != msgUnauthorized {
			t.Errorf("%s: %d %s %v", name, w.Code, w.Body, w.Header())
		}
	}
}

func TestAUserRBACDoesNotAllowIsForbiddenEveryTime(t *testing.T) {
	s, dir, rev, _, _ := uploadServer(t)
	for i := range 2 {
		w := uploadXML(s, stranger, "?name=n.xml", camt054)
		if w.Code != http.StatusForbidden {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		e := errorOf(t, w)
		if d, _ := e.Details.(string); e.Error != msgForbidden || !strings.Contains(d, strangersName) || !strings.Contains(d, "bankfiles.invest.fundshare.io") {
			t.Fatalf("answer %+v", e)
		}
		if rev.count() != i+1 {
			t.Fatalf("%d reviews after %d requests: a denial must not be remembered", rev.count(), i+1)
		}
	}
	if len(inbox(t, dir)) != 0 {
		t.Fatal("delivered")
	}
}

func TestAnAllowedTokenIsRememberedForTenSecondsByItsHash(t *testing.T) {
	s, _, rev, _, _ := uploadServer(t)
	now := time.Now()
	s.operatorReviews.now = func() time.Time { return now }
	for i := range 3 {
		if w := uploadXML(s, clerkToken, "?name=n.xml", camt054); w.Code != http.StatusAccepted {
			t.Fatalf("%d: %d %s", i, w.Code, w.Body)
		}
	}
	if rev.count() != 1 {
		t.Fatalf("%d TokenReviews for 3 requests within 10 s, want 1", rev.count())
	}
	now = now.Add(operatorReviewTTL)
	if w := uploadXML(s, clerkToken, "?name=n.xml", camt054); w.Code != http.StatusAccepted {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if rev.count() != 2 {
		t.Fatalf("%d TokenReviews, want a new one after 10 s", rev.count())
	}
	// The binding is gone: at most 10 s later the token is refused.
	rev.mu.Lock()
	rev.allowed[clerk] = false
	rev.mu.Unlock()
	now = now.Add(operatorReviewTTL)
	if w := uploadXML(s, clerkToken, "?name=n.xml", camt054); w.Code != http.StatusForbidden {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	for k := range s.operatorReviews.entries {
		if bytes.Contains(k[:], []byte(clerkToken)) {
			t.Fatal("the cache keeps the token")
		}
	}
}

func TestTheRememberedReviewsAreBounded(t *testing.T) {
	now := time.Now()
	c := newReviewCache(func() time.Time { return now })
	for i := range maxOperatorReviews + 10 {
		c.remember(strings.Repeat("t", i+1), bankFilesAccess, "u")
	}
	if len(c.entries) != maxOperatorReviews {
		t.Fatalf("%d entries", len(c.entries))
	}
	now = now.Add(operatorReviewTTL)
	c.remember("fresh", bankFilesAccess, "u")
	if len(c.entries) != 1 {
		t.Fatalf("%d entries: the expired ones were not dropped", len(c.entries))
	}
	if _, ok := c.allowed("fresh", authzv1.ResourceAttributes{Verb: "delete", Group: "invest.fundshare.io", Resource: "bankfiles"}); ok {
		t.Fatal("a review of one access answered for another")
	}
}

func TestWhenKubernetesCannotBeAskedTheUploadIs503(t *testing.T) {
	s, _, rev, _, _ := uploadServer(t)
	rev.err = errors.New("connection refused")
	w := uploadXML(s, clerkToken, "?name=n.xml", camt054)
	if w.Code != http.StatusServiceUnavailable || errorOf(t, w).Error != msgUnavailable {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

// bareConnector is a Connector that cannot take uploads.
type bareConnector struct{ connector.Connector }

func TestWithoutABankConnectorOrOneThatTakesNoUploadsTheRouteIsNotImplemented(t *testing.T) {
	s, _, _, _, _ := uploadServer(t)
	for conn, want := range map[connector.Connector]string{nil: "no bank connector is configured", bareConnector{}: "does not accept uploads"} {
		s.deps.BankConnector = conn
		w := uploadXML(s, clerkToken, "?name=n.xml", camt054)
		e := errorOf(t, w)
		if d, _ := e.Details.(string); w.Code != http.StatusNotImplemented || !strings.Contains(d, want) {
			t.Errorf("%d %+v, want 501 saying %q", w.Code, e, want)
		}
	}
	// Authentication comes first: an unauthenticated caller learns nothing of the setup.
	if w := uploadXML(s, "", "", camt054); w.Code != http.StatusUnauthorized {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

func TestTheBodyMustBeAnXMLFileOfAtMost32MiB(t *testing.T) {
	s, dir, _, _, _ := uploadServer(t)
	for _, ct := range []string{"", "application/json", "application/octet-stream", "xml"} {
		if w := upload(s, clerkToken, "?name=n.xml", ct, strings.NewReader(camt054)); w.Code != http.StatusUnsupportedMediaType {
			t.Errorf("Content-Type %q: %d %s", ct, w.Code, w.Body)
		}
	}
	big := bytes.Repeat([]byte(" "), maxBankFileBytes+1)
	if w := upload(s, clerkToken, "?name=n.xml", "application/xml", bytes.NewReader(big)); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("declared length above the limit: %d %s", w.Code, w.Body)
	}
	// Without a declared length (chunked), the reader stops at the limit.
	if w := upload(s, clerkToken, "?name=n.xml", "application/xml", io.MultiReader(bytes.NewReader(big))); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked body above the limit: %d %s", w.Code, w.Body)
	}
	// Bodies above the facade's 1 MiB for JSON are fine here.
	padded := camt054 + "<!--" + strings.Repeat("x", 2<<20) + "-->\n"
	if w := uploadXML(s, clerkToken, "?name=padded.xml", padded); w.Code != http.StatusAccepted {
		t.Errorf("a 2 MiB file: %d %s", w.Code, w.Body)
	}
	if !slices.Equal(inbox(t, dir), []string{"padded.xml"}) {
		t.Fatalf("inbox/ = %v", inbox(t, dir))
	}
}

func TestTheNameMustBeAPlainFileNameAndTheOnlyQueryParameter(t *testing.T) {
	s, dir, _, _, _ := uploadServer(t)
	for _, q := range []string{"?name=..%2Fescape.xml", "?name=.hidden.xml", "?name=a%2Fb.xml", "?name=n.xml.part", "?name=%00.xml"} {
		w := uploadXML(s, clerkToken, q, camt054)
		if e := errorOf(t, w); w.Code != http.StatusUnprocessableEntity || e.Error != msgValidation {
			t.Errorf("%s: %d %s", q, w.Code, w.Body)
		} else if d, _ := e.Details.(map[string]any); d["name"] == nil {
			t.Errorf("%s: details %v do not name the name", q, e.Details)
		}
	}
	for _, q := range []string{"?nam=n.xml", "?name=a.xml&name=b.xml"} {
		if w := uploadXML(s, clerkToken, q, camt054); w.Code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s", q, w.Code, w.Body)
		}
	}
	if len(inbox(t, dir)) != 0 {
		t.Fatalf("inbox/ = %v", inbox(t, dir))
	}
}

func TestOperatorTokensAreNeverLogged(t *testing.T) {
	s, _, rev, log, issue := uploadServer(t)
	s.deps.AccessLog = true
	tenant := issue("alpha")
	uploadXML(s, clerkToken, "?name=n.xml", camt054)
	uploadXML(s, stranger, "?name=n.xml", camt054)
	uploadXML(s, tenant, "?name=n.xml", camt054)
	rev.err = errors.New("connection refused")
	uploadXML(s, "k8s-token-while-the-api-server-is-down-0123", "?name=n.xml", camt054)
	log.mu.Lock()
	defer log.mu.Unlock()
	all := strings.Join(log.got, "\n")
	for _, token := range []string{clerkToken, stranger, tenant, "k8s-token-while-the-api-server-is-down-0123"} {
		if strings.Contains(all, token) {
			t.Errorf("a token is in the log:\n%s", all)
		}
	}
	if !strings.Contains(all, clerk) || !strings.Contains(all, "an operator delivered a bank file") {
		t.Errorf("the delivery and its operator are not in the log:\n%s", all)
	}
}

func TestTheOperatorRouteIsNotATenantRoute(t *testing.T) {
	s, _, _, _, issue := uploadServer(t)
	// Other methods on the path, and the tenants' routes with an operator's token.
	req := httptest.NewRequest(http.MethodGet, bankFilesPath, nil)
	req.Header.Set("Authorization", "Bearer "+clerkToken)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != http.StatusMethodNotAllowed && w.Code != http.StatusNotFound && w.Code != http.StatusUnauthorized {
		t.Errorf("GET: %d %s", w.Code, w.Body)
	}
	req = httptest.NewRequest(http.MethodGet, "/v1/accounts", nil)
	req.Header.Set("Authorization", "Bearer "+clerkToken)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("an operator's token on a tenant route: %d %s", w.Code, w.Body)
	}
	req = httptest.NewRequest(http.MethodGet, "/v1/accounts", nil)
	req.Header.Set("Authorization", "Bearer "+issue("alpha"))
	w = httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		t.Errorf("a tenant's token on a tenant route: %d %s", w.Code, w.Body)
	}
}
