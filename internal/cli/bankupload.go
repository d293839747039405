package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fundshare/fundshare-operator/internal/bank/connector"
)

// bankUploadHelp describes "bank upload".
const bankUploadHelp = `Usage:
  PROG bank upload FILE --server URL (--token TOKEN | --token-file PATH) [--name NAME] [-o table|json|yaml]

Uploads a bank file (a camt.054, camt.053 or pain.002 that the bank sent another way than
through the bank connector: by e-mail, on its portal) to the REST facade's operator route,
POST /v1/operator/bank-files. The facade parses it as the bank ingestion does and puts it
into the bank connector's inbox as if the bank had delivered it; the ingestion reads it at
its next poll (see docs/bank.md). A file that does not parse is refused with the parser's
error, saying where, and nothing is delivered.

The route is for the fund's operators, never for tenants: the token is a Kubernetes token
whose user RBAC allows to create bankfiles.invest.fundshare.io (the bank operator role,
config/rbac/bank_operator_role.yaml), such as a ServiceAccount's:

  kubectl create token bank-clerk -n NAMESPACE > clerk.token
  PROG bank upload camt053-2026-11-27.xml --server https://fundshare.example.com --token-file clerk.token

--token-file keeps the token off the command line (and out of the shell's history).
--server defaults to $FUNDSHARE_SERVER. The file is delivered under its own name, or
--name (a plain file name); the same file uploaded again under the same name is delivered
once, and a different file under the name of one still waiting is refused.
`

// serverEnv names the environment variable --server defaults to.
const serverEnv = "FUNDSHARE_SERVER"

// bankUploadPath is the facade's operator route for uploads.
const bankUploadPath = "/v1/operator/bank-files"

// bankUpload is the facade's answer as -o json|yaml prints it (the names of "bank files").
type bankUpload struct {
	Name        string `json:"name"`
	SHA256      string `json:"sha256"`
	MessageType string `json:"messageType"`
	MessageID   string `json:"messageId"`
	Size        int64  `json:"size"`
}

// runBankUpload runs "bank upload"; args start with "upload".
func runBankUpload(p *Program, args []string) error {
	const path = "bank upload"
	f := p.newFlags(path, bankUploadHelp)
	server := f.String("server", os.Getenv(serverEnv), "the REST facade's base URL, e.g. https://fundshare.example.com (default $"+serverEnv+")")
	token := f.String("token", "", "a Kubernetes bearer token of the operator (kubectl create token SERVICEACCOUNT)")
	tokenFile := f.String("token-file", "", "a file holding the token instead (kept off the command line)")
	name := f.String("name", "", "deliver the file under this name (default: the file's own name)")
	var o output
	o.bind(f, "table")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := f.args(1); err != nil {
		return err
	}
	if err := o.validate(path); err != nil {
		return err
	}
	base, err := serverURL(*server)
	if err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	switch {
	case *token != "" && *tokenFile != "":
		return usageErrorf("%s: give --token or --token-file, not both", path)
	case *token == "" && *tokenFile == "":
		return usageErrorf("%s: a Kubernetes token is required: --token-file PATH (e.g. from kubectl create token SERVICEACCOUNT) or --token", path)
	}
	file := f.Arg(0)
	if *name == "" {
		*name = filepath.Base(file)
	}
	if err := connector.CheckName(*name); err != nil {
		return usageErrorf("%s: --name: %v (a plain file name)", path, err)
	}
	bearer := strings.TrimSpace(*token)
	if *tokenFile != "" {
		data, err := os.ReadFile(*tokenFile)
		if err != nil {
			return fmt.Errorf("%s: read the token: %w", path, err)
		}
		bearer = strings.TrimSpace(string(data))
		if bearer == "" {
			return fmt.Errorf("%s: the token file %s is empty", path, *tokenFile)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}

	ctx, cancel := commandContext()
	defer cancel()
	u := base + bankUploadPath + "?name=" + url.QueryEscape(*name)
	// The URL is the operator's own --server: the command's purpose is to call it.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data)) //nolint:gosec // G704: the user's chosen server
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("Authorization", "Bearer "+bearer)
	res, err := (&http.Client{Timeout: timeout}).Do(req) //nolint:gosec // G704: the user's chosen server
	if err != nil {
		return fmt.Errorf("%s: reach the REST facade at %s: %w", path, base, err)
	}
	defer func() { _ = res.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s: read the answer: %w", path, err)
	}
	if res.StatusCode != http.StatusAccepted {
		return fmt.Errorf("%s: the REST facade refused %s: %s", path, file, refusal(res.StatusCode, body))
	}
	var a struct {
		Name        string `json:"name"`
		SHA256      string `json:"sha256"`
		MessageType string `json:"message_type"`
		MessageID   string `json:"message_id"`
		Size        int64  `json:"size"`
	}
	if err := json.Unmarshal(body, &a); err != nil || a.Name == "" {
		return fmt.Errorf("%s: the REST facade answered 202 with an unexpected body: %s", path, snippet(body))
	}
	up := bankUpload(a)
	if o.format != "table" {
		return o.encode(p.Stdout, up)
	}
	return table(p.Stdout, "NAME\tTYPE\tMESSAGE ID\tSIZE\tSHA256",
		[]string{strings.Join([]string{up.Name, dash(up.MessageType), dash(up.MessageID), fmt.Sprint(up.Size), up.SHA256}, "\t")})
}

// serverURL checks --server: an http or https URL with a host, no query; it returns it
// without a trailing slash.
func serverURL(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("--server is required (the REST facade's base URL), or set $%s", serverEnv)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--server %q: an http or https base URL, e.g. https://fundshare.example.com", s)
	}
	return strings.TrimSuffix(s, "/"), nil
}

// refusal is the status and the facade's error body ({error, details}) as one line; any
// other body (a proxy's page) is quoted in part.
func refusal(status int, body []byte) string {
	var e struct {
		Error   string `json:"error"`
		Details any    `json:"details"`
	}
	head := fmt.Sprintf("%d %s", status, http.StatusText(status))
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
		if len(bytes.TrimSpace(body)) == 0 {
			return head
		}
		return head + ": " + snippet(body)
	}
	msg := fmt.Sprintf("%d %s", status, e.Error)
	switch d := e.Details.(type) {
	case string:
		if d != "" {
			msg += ": " + d
		}
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(d)) {
			parts = append(parts, fmt.Sprintf("%s %v", k, d[k]))
		}
		msg += ": " + strings.Join(parts, "; ")
	}
	return msg
}

// snippet is the start of a body as printable text.
func snippet(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	return fmt.Sprintf("%q", s)
}
