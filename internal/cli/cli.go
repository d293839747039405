// Package cli is the command line of fundshare-operator for platform teams and operators:
// one program with two names, `kubectl fundshare` (the kubectl plugin binary
// kubectl-fundshare, found by kubectl on PATH) and `fundsharectl` (its older name, used by
// the guides). Both mains call Run; nothing of the program lives in them.
//
// Commands that only print (tenant) or read the order archive (orders) work without a
// cluster; the operator's actions (nav, gate, ungate, wallet, dealings, windows) reach the
// API server as kubectl does: --kubeconfig, --context and -n/--namespace, with the
// kubeconfig's loading rules. "bank upload" reaches the REST facade (--server) with a
// Kubernetes token.
//
// Exit codes follow kubectl's plugins: 0 on success and for help (printed on stdout); 2 for a
// usage error (unknown command or flag, a missing or malformed value: one line on stderr);
// 1 for any other failure (one line on stderr saying what failed).
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// Version is stamped at build time (make build: -ldflags -X github.com/fundshare/fundshare-operator/internal/cli.Version=...).
var Version = "dev"

// Program is one invocation: the name the user typed and where output goes.
type Program struct {
	// Name is how the user runs the program: "kubectl fundshare" or "fundsharectl".
	Name           string
	Stdout, Stderr io.Writer
}

// command is one subcommand: its summary for the usage text and what runs it.
type command struct {
	name, summary string
	run           func(p *Program, args []string) error
}

func commands() []command {
	return []command{
		{"tenant", "print a tenant (Namespace, Secret with the client secret's hash, ApiClient)\n" +
			"              as YAML for GitOps; the client secret is printed once, to stderr", runTenant},
		{"orders", "read archived orders (moved out of the cluster by the retention controller):\n" +
			"              \"orders get\" one, \"orders list\" a tenant's, newest first", runOrders},
		{"bank", "read the bank ledger: \"bank files\" the ingested bank files, \"bank entries\"\n" +
			"              each transaction's outcome (matched, underpaid, ..., suspense),\n" +
			"              \"bank payouts\" the transfers the fund sends and their status;\n" +
			"              \"bank upload\" delivers a bank file through the REST facade (operators)", runBank},
		{"nav", "\"nav publish\": append a NAV price to a share class's NAVHistory", runNAV},
		{"gate", "close a fund's redemption gate: sell orders wait in REDEMPTION_GATED", runGate},
		{"ungate", "lift a fund's redemption gate", runUngate},
		{"wallet", "\"wallet recover\": move a lost wallet's units to another wallet of the account", runWallet},
		{"dealings", "\"dealings list\": dealings of forward-priced share classes (phase, cut-off, NAV)", runDealings},
		{"windows", "\"windows list\": matching windows of secondary markets (phase, deadline, prices, fills)", runWindows},
		{"webhooks", "\"webhooks listen\": receive and verify signed webhooks on a local address (development)", runWebhooks},
		{"version", "print the version", runVersion},
	}
}

// usage is the program's help.
func (p *Program) usage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: fundshare-operator for platform teams and operators.\n\nCommands:\n", p.Name)
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-10s  %s\n", c.name, c.summary)
	}
	fmt.Fprintf(&b, `
Commands that reach the cluster take --kubeconfig, --context and -n/--namespace as kubectl
does; reading commands take -o table|json|yaml.

Run "%s <command> --help" for the command's flags.
`, p.Name)
	return b.String()
}

// Run runs the program with args (without the program's name) and returns the exit code.
func Run(name string, args []string, stdout, stderr io.Writer) int {
	p := &Program{Name: name, Stdout: stdout, Stderr: stderr}
	return p.exit(p.dispatch(args))
}

func (p *Program) dispatch(args []string) error {
	if len(args) == 0 {
		return usageErrorf("a command is required\n\n%s", p.usage())
	}
	switch args[0] {
	case "help", "-h", "--help":
		if len(args) > 1 {
			return p.dispatch([]string{args[1], "--help"})
		}
		_, err := fmt.Fprint(p.Stdout, p.usage())
		return err
	case "--version":
		return runVersion(p, nil)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(p, args[1:])
		}
	}
	return usageErrorf("unknown command %q\n\n%s", args[0], p.usage())
}

// exit prints err on stderr and turns it into the exit code.
func (p *Program) exit(err error) int {
	var ue *usageError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(p.Stderr, "%s: %v\n", p.Name, err)
		return 2
	default:
		fmt.Fprintf(p.Stderr, "%s: %v\n", p.Name, err)
		return 1
	}
}

// usageError is a mistake in the command line: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errHelp is returned after a command printed its help: exit code 0.
var errHelp = errors.New("help printed")

// flags is a command's flag set; help is the text printed for --help above the flags.
type flags struct {
	*pflag.FlagSet
	p    *Program
	path string // "orders list"
	help string
}

func (p *Program) newFlags(path, help string) *flags {
	fs := pflag.NewFlagSet(path, pflag.ContinueOnError)
	// Parse errors and help are printed by parse, on the right stream.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SortFlags = false
	return &flags{FlagSet: fs, p: p, path: path, help: help}
}

// parse parses args: --help prints the command's help on stdout (errHelp, exit 0); a
// malformed command line is a usage error naming the command.
func (f *flags) parse(args []string) error {
	err := f.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprintf(f.p.Stdout, "%s\nFlags:\n%s", strings.ReplaceAll(f.help, "PROG", f.p.Name), f.FlagUsages())
		return errHelp
	}
	if err != nil {
		return usageErrorf("%s: %v (see %s %s --help)", f.path, err, f.p.Name, f.path)
	}
	return nil
}

// args checks the number of positional arguments.
func (f *flags) args(n int) error {
	if f.NArg() != n {
		if n == 0 {
			return usageErrorf("%s: unexpected arguments %q", f.path, f.Args())
		}
		return usageErrorf("%s: expected %d argument(s), got %q", f.path, n, f.Args())
	}
	return nil
}

// verb picks the subcommand of a command with verbs (orders get|list): a missing or unknown
// verb is a usage error, --help prints the command's help.
func (p *Program) verb(cmd, help string, args []string, verbs ...string) (string, error) {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(p.Stdout, strings.ReplaceAll(help, "PROG", p.Name))
		return "", errHelp
	}
	if len(args) == 0 {
		return "", usageErrorf("%s: a subcommand is required (%s); see %s %s --help", cmd, strings.Join(verbs, ", "), p.Name, cmd)
	}
	for _, v := range verbs {
		if args[0] == v {
			return v, nil
		}
	}
	return "", usageErrorf("%s: unknown subcommand %q (%s); see %s %s --help", cmd, args[0], strings.Join(verbs, ", "), p.Name, cmd)
}

func runVersion(p *Program, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		_, err := fmt.Fprintf(p.Stdout, "Usage: %s version\n\nPrints the version.\n", p.Name)
		return err
	}
	_, err := fmt.Fprintln(p.Stdout, Version)
	return err
}
