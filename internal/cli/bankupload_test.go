package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/yaml"
)

// facadeStub answers POST /v1/operator/bank-files as the REST facade does, and keeps what
// it was sent.
type facadeStub struct {
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
	status   int
	answer   string
}

func (f *facadeStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, string(body))
	status, answer := f.status, f.answer
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, answer)
}

const accepted = `{"name":"camt054-1.xml","sha256":"` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
	`","message_type":"camt.054.001.08","message_id":"MYBANK-NTF-1","size":1234}`

// uploadFixture starts the stub and writes a bank file and a token file.
func uploadFixture(t *testing.T, status int, answer string) (stub *facadeStub, url, file, tokenFile string) {
	t.Helper()
	stub = &facadeStub{status: status, answer: answer}
	srv := httptest.NewServer(stub)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	file = filepath.Join(dir, "camt054-1.xml")
	if err := os.WriteFile(file, []byte("<Document/>"), 0o600); err != nil {
		t.Fatal(err)
	}
	tokenFile = filepath.Join(dir, "clerk.token")
	if err := os.WriteFile(tokenFile, []byte("k8s-token-of-the-clerk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return stub, srv.URL, file, tokenFile
}

func TestBankUploadPostsTheFileWithTheTokenAndPrintsTheAnswer(t *testing.T) {
	stub, url, file, tokenFile := uploadFixture(t, http.StatusAccepted, accepted)
	stdout, stderr, code := bankRun("upload", file, "--server", url+"/", "--token-file", tokenFile)
	if code != 0 || stderr != "" {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	want := "NAME TYPE MESSAGE ID SIZE SHA256\n" +
		"camt054-1.xml camt.054.001.08 MYBANK-NTF-1 1234 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
	if normalizeTable(stdout) != normalizeTable(want) {
		t.Fatalf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	if len(stub.requests) != 1 {
		t.Fatalf("%d requests", len(stub.requests))
	}
	r := stub.requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/v1/operator/bank-files" || r.URL.Query().Get("name") != "camt054-1.xml" {
		t.Errorf("request %s %s", r.Method, r.URL)
	}
	if r.Header.Get("Authorization") != "Bearer k8s-token-of-the-clerk" || r.Header.Get("Content-Type") != "application/xml" {
		t.Errorf("headers %v", r.Header)
	}
	if stub.bodies[0] != "<Document/>" {
		t.Errorf("body %q", stub.bodies[0])
	}
}

// normalizeTable collapses the table's column padding.
func normalizeTable(s string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

func TestBankUploadPrintsJSONAndYAMLWithTheNamesOfBankFiles(t *testing.T) {
	_, url, file, _ := uploadFixture(t, http.StatusAccepted, accepted)
	want := bankUpload{Name: "camt054-1.xml", SHA256: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		MessageType: "camt.054.001.08", MessageID: "MYBANK-NTF-1", Size: 1234}
	for _, format := range []string{"json", "yaml"} {
		stdout, stderr, code := bankRun("upload", file, "--server", url, "--token", "k8s-token", "-o", format)
		if code != 0 {
			t.Fatalf("-o %s: code %d, stderr %q", format, code, stderr)
		}
		var got bankUpload
		var err error
		if format == "json" {
			err = json.Unmarshal([]byte(stdout), &got)
		} else {
			err = yaml.UnmarshalStrict([]byte(stdout), &got)
		}
		if err != nil || got != want {
			t.Fatalf("-o %s: %v\n%s", format, err, stdout)
		}
		if !strings.Contains(stdout, "messageType") {
			t.Errorf("-o %s: not the names of bank files:\n%s", format, stdout)
		}
	}
}

func TestBankUploadDeliversUnderTheNameGiven(t *testing.T) {
	stub, url, file, tokenFile := uploadFixture(t, http.StatusAccepted, accepted)
	if _, stderr, code := bankRun("upload", file, "--server", url, "--token-file", tokenFile, "--name", "statement 27.11.xml"); code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if got := stub.requests[0].URL.Query().Get("name"); got != "statement 27.11.xml" {
		t.Fatalf("name %q", got)
	}
}

func TestBankUploadTakesTheServerFromTheEnvironment(t *testing.T) {
	_, url, file, tokenFile := uploadFixture(t, http.StatusAccepted, accepted)
	t.Setenv("FUNDSHARE_SERVER", url)
	if _, stderr, code := bankRun("upload", file, "--token-file", tokenFile); code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
}

func TestBankUploadSaysWhatTheFacadeRefusedAndExitsOne(t *testing.T) {
	for _, c := range []struct {
		status      int
		answer      string
		want        []string
		description string
	}{
		{http.StatusUnprocessableEntity, `{"error":"Invalid bank file","details":"camt.054.001.08: entry 1: Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]/Amt: invalid amount: it has 3 decimals"}`,
			[]string{"422 Invalid bank file", "Ntry[1]/Amt", "3 decimals"}, "a file that does not parse"},
		{http.StatusForbidden, `{"error":"Forbidden","details":"system:serviceaccount:default:intern may not create bankfiles.invest.fundshare.io"}`,
			[]string{"403 Forbidden", "may not create bankfiles"}, "RBAC"},
		{http.StatusUnauthorized, `{"error":"Unauthorized","details":"a tenant's access token is not accepted on operator routes"}`,
			[]string{"401 Unauthorized", "tenant"}, "a tenant's token"},
		{http.StatusUnprocessableEntity, `{"error":"Validation error","details":{"name":["invalid file name"]}}`,
			[]string{"422 Validation error", "name [invalid file name]"}, "field details"},
		{http.StatusNotImplemented, `{"error":"Not implemented","details":"no bank connector is configured"}`,
			[]string{"501 Not implemented", "no bank connector"}, "no bank"},
		{http.StatusBadGateway, `<html>bad gateway</html>`, []string{"502 Bad Gateway", "bad gateway"}, "a proxy's page"},
	} {
		_, url, file, tokenFile := uploadFixture(t, c.status, c.answer)
		stdout, stderr, code := bankRun("upload", file, "--server", url, "--token-file", tokenFile)
		if code != 1 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: code %d, stdout %q, stderr %q", c.description, code, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr %q lacks %q", c.description, stderr, w)
			}
		}
		if strings.Contains(stderr, "k8s-token-of-the-clerk") {
			t.Errorf("%s: the token is printed", c.description)
		}
	}
}

func TestBankUploadUsageErrors(t *testing.T) {
	stub, url, file, tokenFile := uploadFixture(t, http.StatusAccepted, accepted)
	t.Setenv("FUNDSHARE_SERVER", "")
	for _, args := range [][]string{
		{"upload", "--server", url, "--token", "t"},                                      // no file
		{"upload", file, "other.xml", "--server", url, "--token", "t"},                   // two files
		{"upload", file, "--token", "t"},                                                 // no server
		{"upload", file, "--server", "fundshare.example.com", "--token", "t"},            // not a URL
		{"upload", file, "--server", url},                                                // no token
		{"upload", file, "--server", url, "--token", "t", "--token-file", tokenFile},     // both
		{"upload", file, "--server", url, "--token", "t", "--name", "../escape.xml"},     // not a plain name
		{"upload", file, "--server", url, "--token", "t", "-o", "wide"},                  // output
		{"upload", file, "--server", url, "--token", "t", "--archive-dsn", "sqlite://x"}, // another verb's flag
	} {
		stdout, stderr, code := bankRun(args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "fundsharectl: bank upload") {
			t.Errorf("%q: code %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if len(stub.requests) != 0 {
		t.Fatalf("%d requests sent on usage errors", len(stub.requests))
	}
}

func TestBankUploadOfAMissingFileOrTokenFileFails(t *testing.T) {
	_, url, file, tokenFile := uploadFixture(t, http.StatusAccepted, accepted)
	empty := filepath.Join(t.TempDir(), "empty.token")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"upload", filepath.Join(t.TempDir(), "none.xml"), "--server", url, "--token-file", tokenFile},
		{"upload", file, "--server", url, "--token-file", filepath.Join(t.TempDir(), "none.token")},
		{"upload", file, "--server", url, "--token-file", empty},
	} {
		if _, stderr, code := bankRun(args...); code != 1 {
			t.Errorf("%q: code %d, stderr %q", args, code, stderr)
		}
	}
}

func TestBankUploadHelp(t *testing.T) {
	for _, args := range [][]string{{"bank", "upload", "--help"}, {"bank", "--help"}} {
		stdout, stderr, code := plugin(args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "kubectl fundshare bank upload FILE") {
			t.Errorf("%q: code %d, stderr %q, stdout:\n%s", args, code, stderr, stdout)
		}
	}
}
