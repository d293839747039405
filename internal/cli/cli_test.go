package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// run runs the program under its old name, as the guides run it.
func run(args []string, stdout, stderr io.Writer) int {
	return Run("fundsharectl", args, stdout, stderr)
}

// runBoth runs args under both names and returns the plugin's stdout, stderr and code.
func plugin(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := Run("kubectl fundshare", args, &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

func TestHelpGoesToStdoutAndExitsZero(t *testing.T) {
	for _, args := range [][]string{
		{"-h"}, {"--help"}, {"help"}, {"help", "orders"},
		{"tenant", "--help"}, {"tenant", "-h"},
		{"orders", "--help"}, {"orders", "get", "--help"}, {"orders", "list", "-h"},
		{"nav", "--help"}, {"nav", "publish", "--help"},
		{"gate", "--help"}, {"ungate", "--help"},
		{"wallet", "--help"}, {"wallet", "recover", "--help"},
		{"dealings", "--help"}, {"dealings", "list", "--help"},
		{"windows", "--help"}, {"windows", "list", "--help"},
		{"version", "--help"},
	} {
		stdout, stderr, code := plugin(args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "kubectl fundshare") {
			t.Errorf("%q: code %d, stderr %q, stdout:\n%s", args, code, stderr, stdout)
		}
	}
}

func TestUsageErrorsGoToStderrAndExitTwo(t *testing.T) {
	for _, args := range [][]string{
		nil, {"tenants"}, {"orders"}, {"orders", "find"}, {"orders", "list", "--nope"},
		{"orders", "list", "--archive-dsn", "sqlite:///tmp/x.db", "-n", "acme", "-o", "wide"},
		{"nav"}, {"nav", "publish", "--isin", "XS0000000001"}, {"dealings", "list", "-o", "xml"},
		{"windows"}, {"windows", "show"}, {"windows", "list", "-o", "xml"}, {"windows", "list", "extra"},
		{"gate"}, {"wallet", "recover", "-n", "acme", "--account", "a"},
	} {
		stdout, stderr, code := plugin(args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "kubectl fundshare: ") {
			t.Errorf("%q: code %d, stdout %q, stderr:\n%s", args, code, stdout, stderr)
		}
	}
}

func TestVersion(t *testing.T) {
	if stdout, _, code := plugin("version"); code != 0 || strings.TrimSpace(stdout) != Version {
		t.Errorf("version: code %d, %q", code, stdout)
	}
}
