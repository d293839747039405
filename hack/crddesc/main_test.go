package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestReflowJoinsTheLinesOfAParagraph(t *testing.T) {
	in := `properties:
  iban:
    description: |-
      IBAN of the bank account. Spaces and lower case are accepted; admission stores it
      without spaces, upper case.

      The check digits are verified.
    type: string
  plain:
    description: One line stays as it is.
    type: string
`
	want := `properties:
  iban:
    description: |-
      IBAN of the bank account. Spaces and lower case are accepted; admission stores it without spaces, upper case.

      The check digits are verified.
    type: string
  plain:
    description: One line stays as it is.
    type: string
`
	got := Reflow(in)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var before, after map[string]any
	if err := yaml.Unmarshal([]byte(in), &before); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(got), &after); err != nil {
		t.Fatalf("the reflowed YAML does not parse: %v", err)
	}
	desc := after["properties"].(map[string]any)["iban"].(map[string]any)["description"].(string)
	if desc != "IBAN of the bank account. Spaces and lower case are accepted; admission stores it without spaces, upper case.\n\nThe check digits are verified." {
		t.Errorf("description %q", desc)
	}
	if Reflow(got) != got {
		t.Error("Reflow is not idempotent")
	}
}

func TestReflowKeepsListsAndCodeBlocks(t *testing.T) {
	in := "x:\n  description: |-\n    States:\n    - PLACED: the order\n      was accepted\n    - DONE\n    ```\n    a\n    b\n    ```\n    after the\n    block\n  type: string\n"
	want := "x:\n  description: |-\n    States:\n    - PLACED: the order was accepted\n    - DONE\n    ```\n    a\n    b\n    ```\n    after the block\n  type: string\n"
	if got := Reflow(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCommittedCRDsReadAsSentences: the CRDs in config/crd/bases are reflowed (make
// manifests runs crddesc), so no description breaks a sentence across lines, which is
// what kubectl explain shows.
func TestCommittedCRDsReadAsSentences(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "config", "crd", "bases", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := Reflow(string(data)); got != string(data) {
			t.Errorf("%s has descriptions with lines broken mid-paragraph: run make manifests", f)
		}
		if strings.Contains(string(data), "\r") {
			t.Errorf("%s has carriage returns", f)
		}
	}
}
