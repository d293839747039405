// Command clientgen generates a Go client (types and client, oapi-codegen's
// `-generate types,client` with default settings otherwise) from an OpenAPI document:
//
//	go run . -package fundshare -o client.go openapi.json
//
// It is its own module so that oapi-codegen's dependencies (a newer kin-openapi among
// them) stay out of the operator's go.mod; apiserver's TestOpenAPIDocumentGeneratesACompilingGoClient
// runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/util"

	// The runtime the generated code imports, pinned here (go.mod, go.sum) for the
	// module the test compiles the client in.
	_ "github.com/oapi-codegen/runtime"
	_ "github.com/oapi-codegen/runtime/types"
)

func main() {
	pkg := flag.String("package", "client", "package name of the generated code")
	out := flag.String("o", "client.go", "file to write")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: clientgen [-package name] [-o file] openapi.json")
		os.Exit(2)
	}
	doc, err := util.LoadSwagger(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "clientgen: load:", err)
		os.Exit(1)
	}
	code, err := codegen.Generate(doc, codegen.Configuration{
		PackageName: *pkg,
		Generate:    codegen.GenerateOptions{Models: true, Client: true},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "clientgen: generate:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, []byte(code), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "clientgen:", err)
		os.Exit(1)
	}
}
