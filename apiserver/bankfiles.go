package apiserver

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// POST /v1/operator/bank-files: an operator's upload of a bank file (a camt.054, camt.053
// or pain.002 the bank sent by another way than the connector), put into the bank
// connector's inbound queue as if the bank had delivered it. Operators only
// (operatorauth.go): never a tenant. The file is parsed first, as the ingestion parses it
// (controllers/bank: iso20022.Detect, then ParsePain002 or ParseStatements), and a file
// that does not parse is refused with the parser's error, naming where; nothing is
// delivered then. The connector must implement connector.Uploader (the folder does).

// bankFilesPath is the route's path; limitBody leaves its body to the handler, which
// allows a bank file's size.
const bankFilesPath = "/v1/operator/bank-files"

// maxBankFileBytes bounds an uploaded bank file (32 MiB, a camt.054 of some 5,000
// entries; the folder itself reads files of up to 64 MiB).
const maxBankFileBytes = 32 << 20

// bankFileMediaTypes are the Content-Types of an upload.
var bankFileMediaTypes = []string{"application/xml", "text/xml"}

// Short messages of the upload's error bodies.
const (
	msgInvalidBankFile = "Invalid bank file"
	msgNotImplemented  = "Not implemented"
)

// BankFileUpload is the answer to an operator's upload.
type BankFileUpload struct {
	Name        string `json:"name"`
	SHA256      string `json:"sha256" openapi:"pattern=^[0-9a-f]{64}$"`
	MessageType string `json:"message_type"`
	MessageID   string `json:"message_id"`
	Size        int64  `json:"size"`
}

func (s *Server) uploadBankFile(w http.ResponseWriter, r *http.Request) {
	user, ok := s.authorizeOperator(w, r, bankFilesAccess)
	if !ok {
		return
	}
	// As strictQuery does for the tenants' routes, after the token is checked (the route's
	// one parameter, as openapi.go documents it).
	if fe := checkQuery(r.URL.RawQuery, []string{"name"}); !fe.Empty() {
		writeValidation(w, fe)
		return
	}
	if s.deps.BankConnector == nil {
		writeError(w, http.StatusNotImplemented, msgNotImplemented,
			"no bank connector is configured (the manager runs without --bank-folder): there is no inbox to deliver into")
		return
	}
	up, ok := s.deps.BankConnector.(connector.Uploader)
	if !ok {
		writeError(w, http.StatusNotImplemented, msgNotImplemented,
			fmt.Sprintf("the configured bank connector (%T) does not accept uploads", s.deps.BankConnector))
		return
	}
	name := r.URL.Query().Get("name")
	if name != "" {
		if err := connector.CheckName(name); err != nil {
			var fe validation.FieldErrors
			fe.Add("name", err.Error())
			writeValidation(w, fe)
			return
		}
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || !contains(bankFileMediaTypes, mt) {
		writeError(w, http.StatusUnsupportedMediaType, msgUnsupportedMedia,
			"Content-Type must be "+strings.Join(bankFileMediaTypes, " or ")+": the body is the bank file")
		return
	}
	data, ok := readBankFile(w, r)
	if !ok {
		return
	}
	messageType, messageID, err := parseBankFile(data)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, msgInvalidBankFile, err.Error())
		return
	}
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	if name == "" {
		name = "upload-" + s.deps.Now().UTC().Format("20060102") + "-" + digest[:16] + ".xml"
	}
	in, err := up.Deliver(r.Context(), name, data)
	switch {
	case errors.Is(err, connector.ErrConflict):
		writeError(w, http.StatusConflict, msgConflict,
			fmt.Sprintf("a different file named %q waits in the bank inbox and is kept; upload under another name (?name=)", name))
		return
	case errors.Is(err, connector.ErrInvalidName):
		var fe validation.FieldErrors
		fe.Add("name", err.Error())
		writeValidation(w, fe)
		return
	case err != nil:
		s.writeAPIError(w, r, fmt.Errorf("deliver an uploaded bank file: %w", err), nil)
		return
	}
	s.deps.Log.Info("an operator delivered a bank file into the bank inbox", "request_id", requestIDFrom(r.Context()),
		"user", user, "name", in.Name, "sha256", digest, "size", len(data), "message_type", messageType, "message_id", messageID)
	writeJSON(w, http.StatusAccepted, BankFileUpload{
		Name: in.Name, SHA256: digest, MessageType: messageType, MessageID: messageID, Size: int64(len(data)),
	})
}

// readBankFile reads the body, at most maxBankFileBytes (413 beyond); it answers and
// returns false when it cannot.
func readBankFile(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	tooLarge := func() {
		writeError(w, http.StatusRequestEntityTooLarge, msgTooLarge,
			fmt.Sprintf("a bank file must not be larger than %d bytes (32 MiB)", maxBankFileBytes))
	}
	if r.ContentLength > maxBankFileBytes {
		tooLarge()
		return nil, false
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBankFileBytes))
	if err != nil {
		if _, isTooLarge := errors.AsType[*http.MaxBytesError](err); isTooLarge {
			tooLarge()
			return nil, false
		}
		writeError(w, http.StatusBadRequest, msgRejected, "the request body could not be read")
		return nil, false
	}
	return data, true
}

// parseBankFile parses a bank file as the ingestion does (controllers/bank): a pain.002
// status report by ParsePain002, anything else by ParseStatements (camt.054, camt.053).
// The error is the parser's, naming the message type, the element path and the entry.
func parseBankFile(data []byte) (messageType, messageID string, err error) {
	if mt, derr := iso20022.Detect(data); derr == nil && mt == iso20022.Pain002V10 {
		report, err := iso20022.ParsePain002(data)
		if err != nil {
			return "", "", err
		}
		return string(mt), report.MessageID, nil
	}
	statements, err := iso20022.ParseStatements(data)
	if err != nil {
		return "", "", err
	}
	// ParseStatements returns at least one statement, each with the file's header.
	return string(statements[0].MessageType), statements[0].MessageID, nil
}
