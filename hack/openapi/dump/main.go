// Command dump writes the OpenAPI document that GET /openapi.json serves, built without a
// server, for the linters of make openapi-lint and for client generators:
//
//	go run ./hack/openapi/dump -o bin/openapi.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/fundshare/fundshare-operator/apiserver"
)

func main() {
	out := flag.String("o", "-", "file to write (- for standard output)")
	base := flag.String("public-base-url", "http://localhost:8080", "the facade's public base URL, as the manager's flag of that name")
	flag.Parse()
	var doc bytes.Buffer
	if err := json.Indent(&doc, apiserver.OpenAPIDocumentJSON(*base), "", "  "); err != nil {
		fmt.Fprintln(os.Stderr, "dump:", err)
		os.Exit(1)
	}
	doc.WriteByte('\n')
	var err error
	if *out == "-" {
		_, err = os.Stdout.Write(doc.Bytes())
	} else {
		err = os.WriteFile(*out, doc.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dump:", err)
		os.Exit(1)
	}
}
