package apiserver

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// clientUse compiles against the generated client: a program a client author would write
// (token, then a fund by id with its 404), so the names generators give the operations
// and schemas are part of what is checked.
const clientUse = `package fundshare

import (
	"context"
	"fmt"
	"net/http"

	openapi_types "github.com/oapi-codegen/runtime/types"
)

func Use(ctx context.Context, base, id, secret string, fund openapi_types.UUID) (string, error) {
	c, err := NewClientWithResponses(base)
	if err != nil {
		return "", err
	}
	tok, err := c.CreateAccessTokenWithFormdataBodyWithResponse(ctx, CreateAccessTokenFormdataRequestBody{
		GrantType: "client_credentials", ClientId: &id, ClientSecret: &secret, Audience: base,
	})
	if err != nil || tok.JSON200 == nil {
		return "", fmt.Errorf("token: %v", err)
	}
	f, err := c.GetFundWithResponse(ctx, fund, func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+tok.JSON200.AccessToken)
		return nil
	})
	switch {
	case err != nil:
		return "", err
	case f.JSON404 != nil:
		return "", fmt.Errorf("%s: %v", f.JSON404.Error, f.JSON404.Details)
	case f.JSON200 == nil:
		return "", fmt.Errorf("status %d", f.StatusCode())
	}
	return f.JSON200.Abbreviation, nil
}
`

// The served document is what client generators accept: oapi-codegen (types and client,
// its default settings otherwise, the version pinned in hack/openapi/tools/go.mod) makes a
// Go client from GET /openapi.json, and that client compiles and vets in a module of its
// own with the runtime pinned beside it. It runs from its own module (go run) so that
// oapi-codegen's newer kin-openapi does not replace the one this module validates with.
func TestOpenAPIDocumentGeneratesACompilingGoClient(t *testing.T) {
	s, _, _ := newTestServer(t)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if w.Code != http.StatusOK {
		t.Fatalf("GET /openapi.json: %d", w.Code)
	}
	tools, err := filepath.Abs(filepath.Join("..", "hack", "openapi", "tools"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	docFile, pkg := filepath.Join(dir, "openapi.json"), filepath.Join(dir, "client")
	if err := os.WriteFile(docFile, w.Body.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	goCmd := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
		return string(out)
	}
	goCmd(tools, "run", ".", "-package", "fundshare", "-o", filepath.Join(pkg, "client.go"), docFile)

	// The module of the client: the runtime of the tools module, at its version, with
	// its go.sum, so nothing is resolved anew.
	mod, err := os.ReadFile(filepath.Join(tools, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/oapi-codegen/runtime (v\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("hack/openapi/tools/go.mod pins no github.com/oapi-codegen/runtime")
	}
	sum, err := os.ReadFile(filepath.Join(tools, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/fundshareclient\n\ngo 1.26.0\n\nrequire github.com/oapi-codegen/runtime " + string(m[1]) + "\n",
		"go.sum": string(sum),
		"use.go": clientUse,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goCmd(pkg, "mod", "tidy")
	goCmd(pkg, "build", "./...")
	goCmd(pkg, "vet", "./...")
}

// The document follows the rules linters apply by default (make openapi-lint runs them):
// nullable only beside a type, no path ending in a slash, every operation tagged with a
// tag the document declares and described, unique operationIds, a contact.
func TestOpenAPIDocumentFollowsTheLintersRules(t *testing.T) {
	s, _, _ := newTestServer(t)
	doc := loadOpenAPI(t, s)
	if doc.Info.Contact == nil || doc.Info.Contact.Name == "" {
		t.Error("info.contact missing")
	}
	tags := map[string]bool{}
	for _, tag := range doc.Tags {
		tags[tag.Name] = tag.Description != ""
	}
	ids := map[string]string{}
	for path, item := range doc.Paths.Map() {
		if path != "/" && strings.HasSuffix(path, "/") {
			t.Errorf("path %s ends with a slash", path)
		}
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.Description == "" || op.Summary == "" {
				t.Errorf("%s: no summary or description", where)
			}
			if len(op.Tags) != 1 || !tags[op.Tags[0]] {
				t.Errorf("%s: tags %v not declared (with a description) in the document", where, op.Tags)
			}
			if prev, dup := ids[op.OperationID]; dup || op.OperationID == "" {
				t.Errorf("%s: operationId %q empty or also on %s", where, op.OperationID, prev)
			}
			ids[op.OperationID] = where
		}
	}
	var visit func(where string, ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool)
	visit = func(where string, ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		seen[ref.Value] = true
		v := ref.Value
		if v.Nullable && (v.Type == nil || len(*v.Type) == 0) {
			t.Errorf("%s: nullable without a type", where)
		}
		for name, p := range v.Properties {
			visit(where+"."+name, p, seen)
		}
		for i, list := range []openapi3.SchemaRefs{v.AllOf, v.OneOf, v.AnyOf} {
			for j, r := range list {
				visit(where+"/"+[]string{"allOf", "oneOf", "anyOf"}[i]+"/"+string(rune('0'+j)), r, seen)
			}
		}
		visit(where+"[]", v.Items, seen)
		visit(where+"{}", v.AdditionalProperties.Schema, seen)
	}
	for name, ref := range doc.Components.Schemas {
		visit(name, ref, map[*openapi3.Schema]bool{})
	}
}
