package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTheInstallGuidesValuesTableIsGeneratedFromValuesYAML: every value of the chart has a
// "# --" comment and docs/install.md's table is what they generate (make chart-docs).
func TestTheInstallGuidesValuesTableIsGeneratedFromValuesYAML(t *testing.T) {
	root := filepath.Join("..", "..")
	if err := run(true, filepath.Join(root, "charts", "fundshare-operator", "values.yaml"), filepath.Join(root, "docs", "install.md")); err != nil {
		t.Fatal(err)
	}
}

// TestAValueWithoutADescriptionIsAnError: a leaf without "# --" fails the table.
func TestAValueWithoutADescriptionIsAnError(t *testing.T) {
	_, err := Table([]byte("a:\n  # -- documented\n  b: 1\n  c: 2\n"))
	if err == nil || !strings.Contains(err.Error(), "a.c") {
		t.Fatalf("err = %v, want a.c undocumented", err)
	}
}

// TestTheTableListsDefaultsInOneLine: scalars as written, maps and lists as JSON.
func TestTheTableListsDefaultsInOneLine(t *testing.T) {
	table, err := Table([]byte("# -- the tag\ntag: \"\"\n# -- ports\nports: [443, 6443]\n# -- r\nres:\n  cpu: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| `tag` | `\"\"` | the tag |", "| `ports` | `[443,6443]` | ports |", "| `res` | `{\"cpu\":1}` | r |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %s:\n%s", want, table)
		}
	}
}
