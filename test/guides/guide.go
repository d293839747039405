// Package guides runs the user guides in docs/ as a newcomer would: every shell block of a
// guide, in document order, in one bash session against a fresh `make run` environment
// (cmd/devrun/devenv: local control plane, manager with REST facade and sandbox settlement,
// sample catalogue, demo tenant), comparing what each command prints with what the guide
// shows. A guide that drifts from the code fails `make test`.
//
// # What runs
//
//   - A ```console block: every line that starts with "$ " is a command; a command goes on
//     over lines that end with "\" and over the body of a here-document (<<EOF, <<'EOF',
//     <<-EOF) up to its terminator. The lines after a command, up to the next "$ " line, are
//     what the guide says it prints (blank lines at the end do not count).
//   - A ```sh, ```bash or ```shell block: the whole block is one script. What it prints is
//     compared with the block that follows it directly (nothing but blank lines between)
//     if that block is ```json, ```text or a bare ```; otherwise it is not compared.
//   - Every other block (```yaml, ```json on its own, ...) is text for the reader.
//
// Commands run in order in one `bash` (variables such as TOKEN carry over), with stderr
// merged into stdout and stdin empty, in a working folder that looks like a checkout as the
// guides assume: .local is the environment's local folder (.local/kubeconfig,
// .local/demo-client.json), config is the repository's config folder, bin/fundsharectl is
// built. HOME is a fresh folder. The guides are written for `make run`'s defaults; the
// test's REST facade listens on a free loopback port, so "127.0.0.1:8080" in a command is
// replaced by the real address, and the real address in what a command prints by
// "127.0.0.1:8080". The guide's text is never edited.
//
// # How output is compared
//
// Both sides are normalised before they are compared line by line:
//
//   - text that is a stream of JSON values is compared as JSON (compact, keys sorted, one
//     value per line), so a guide may pretty-print what curl prints on one line;
//   - UUIDs that appear in the guide's commands (ids the reader typed) stay as they are;
//     every other UUID becomes <uuid-N>, numbered by first appearance in the block, so an
//     id the service made up matches whatever it is while the same id stays the same id;
//   - RFC 3339 times become <time>; kubectl ages (3s, 4m26s) become <age>; 0x-prefixed
//     64-digit hashes become <hash>; payment references (SBX-PAY-…, FS…, RF-…) become
//     <ref>; other loopback ports become <port>;
//   - runs of spaces and tabs become one space (kubectl's column widths follow the
//     values), and trailing blank space is dropped.
//
// An expected line that is exactly "…" matches any number of lines (including none).
//
// # Markers
//
// An HTML comment directly before a block (blank lines between are allowed) changes how
// it is treated; each marker gives a reason, shown to nobody but the maintainer:
//
//	<!-- guide: skip: needs a cluster with cert-manager -->        the block is not run
//	<!-- guide: no-compare: prints a fresh secret -->             it runs; its output is not compared
//
// A guide may set the sandbox's settlement delay for its whole run, when its reader is
// told to start `make run` with it (so that orders wait for a person to type):
//
//	<!-- guide: sandbox-settlement-delay 10m -->
//
// Without it the test uses a short delay, so orders settle quickly. Likewise a guide may
// set the order retention (--order-retention) of its environment, for a guide that shows
// orders moving to the order archive; without it, orders stay in the cluster:
//
//	<!-- guide: order-retention 30s -->
//
// Use markers sparingly: a block that is not compared is a block that may drift.
package guides

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// Step is one command of a guide and what the guide says it prints.
type Step struct {
	File    string // the guide's path, for messages
	Line    int    // 1-based line of the command's first line in the guide
	Command string // the command as the reader types it (a script for sh blocks)
	// Expected is what the guide shows; Compare says whether it is compared at all.
	Expected string
	Compare  bool
}

// Guide is a parsed guide.
type Guide struct {
	File  string
	Steps []Step
	// SandboxSettlementDelay is set by the guide's sandbox-settlement-delay marker.
	SandboxSettlementDelay time.Duration
	// OrderRetention is set by the guide's order-retention marker; 0: orders stay.
	OrderRetention time.Duration
	// Skipped lists the blocks left out by a skip marker (line: reason), for the log.
	Skipped []string
}

type fence struct {
	info   string
	start  int // line of the opening fence (1-based)
	lines  []string
	marker string // the guide marker before it, without "guide:"
	// directlyAfter: only blank lines separate this block from the previous block.
	directlyAfter bool
}

var markerRE = regexp.MustCompile(`^\s*<!--\s*guide:\s*(.*?)\s*-->\s*$`)

// Parse extracts the steps of a guide from its Markdown text.
func Parse(file string, text []byte) (*Guide, error) {
	g := &Guide{File: file}
	blocks, err := fences(file, string(text), g)
	if err != nil {
		return nil, err
	}
	for i, b := range blocks {
		kind, reason, _ := strings.Cut(b.marker, ":")
		kind, reason = strings.TrimSpace(kind), strings.TrimSpace(reason)
		switch kind {
		case "", "skip", "no-compare":
		default:
			return nil, fmt.Errorf("%s:%d: unknown guide marker %q (skip, no-compare, sandbox-settlement-delay, order-retention)", file, b.start-1, b.marker)
		}
		if kind != "" && reason == "" {
			return nil, fmt.Errorf("%s:%d: the marker %q gives no reason", file, b.start-1, b.marker)
		}
		runnable := false
		switch b.info {
		case "console", "sh", "bash", "shell":
			runnable = true
		}
		if !runnable {
			if kind != "" {
				return nil, fmt.Errorf("%s:%d: marker %q on a ```%s block, which is not run anyway", file, b.start-1, b.marker, b.info)
			}
			continue
		}
		if kind == "skip" {
			g.Skipped = append(g.Skipped, fmt.Sprintf("%s:%d: %s", file, b.start, reason))
			continue
		}
		compare := kind != "no-compare"
		if b.info == "console" {
			steps, err := consoleSteps(file, b)
			if err != nil {
				return nil, err
			}
			for _, s := range steps {
				s.Compare = s.Compare && compare
				g.Steps = append(g.Steps, s)
			}
			continue
		}
		s := Step{File: file, Line: b.start + 1, Command: strings.Join(b.lines, "\n")}
		if i+1 < len(blocks) && blocks[i+1].directlyAfter && blocks[i+1].marker == "" {
			switch blocks[i+1].info {
			case "json", "text", "":
				s.Expected, s.Compare = strings.Join(blocks[i+1].lines, "\n"), compare
			}
		}
		g.Steps = append(g.Steps, s)
	}
	return g, nil
}

func fences(file, text string, g *Guide) ([]fence, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var (
		out       []fence
		marker    string
		lastEnd   = -100 // line index after the previous block's closing fence
		onlyBlank = false
	)
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if m := markerRE.FindStringSubmatch(lines[i]); m != nil {
			if d, ok := strings.CutPrefix(m[1], "sandbox-settlement-delay "); ok {
				delay, err := time.ParseDuration(strings.TrimSpace(d))
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", file, i+1, err)
				}
				g.SandboxSettlementDelay = delay
				continue
			}
			if d, ok := strings.CutPrefix(m[1], "order-retention "); ok {
				retention, err := time.ParseDuration(strings.TrimSpace(d))
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", file, i+1, err)
				}
				if retention <= 0 {
					return nil, fmt.Errorf("%s:%d: order-retention %s: must be positive", file, i+1, retention)
				}
				g.OrderRetention = retention
				continue
			}
			marker = m[1]
			onlyBlank = false
			continue
		}
		if !strings.HasPrefix(trimmed, "```") {
			if trimmed != "" {
				if marker != "" {
					return nil, fmt.Errorf("%s:%d: the guide marker %q is not directly before a block", file, i, marker)
				}
				onlyBlank = false
			}
			continue
		}
		indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " "))]
		f := fence{info: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), start: i + 1, marker: marker}
		f.directlyAfter = onlyBlank && lastEnd >= 0
		marker = ""
		j := i + 1
		for ; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "```" {
				break
			}
			f.lines = append(f.lines, strings.TrimPrefix(lines[j], indent))
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: a block that is never closed", file, i+1)
		}
		out = append(out, f)
		i, lastEnd, onlyBlank = j, j+1, true
	}
	if marker != "" {
		return nil, fmt.Errorf("%s: the guide marker %q at the end is before no block", file, marker)
	}
	return out, nil
}

var heredocRE = regexp.MustCompile(`<<-?\s*(?:'([A-Za-z_]+)'|"([A-Za-z_]+)"|([A-Za-z_]+))`)

func consoleSteps(file string, b fence) ([]Step, error) {
	var steps []Step
	for i := 0; i < len(b.lines); {
		line := b.lines[i]
		cmd, ok := strings.CutPrefix(line, "$ ")
		if !ok {
			if strings.TrimSpace(line) == "" {
				i++
				continue
			}
			return nil, fmt.Errorf("%s:%d: output before any command in a console block (commands start with \"$ \")", file, b.start+1+i)
		}
		s := Step{File: file, Line: b.start + 1 + i, Compare: true}
		cmdLines := []string{cmd}
		i++
		for strings.HasSuffix(cmdLines[len(cmdLines)-1], "\\") && i < len(b.lines) {
			cmdLines = append(cmdLines, b.lines[i])
			i++
		}
		for _, m := range heredocRE.FindAllStringSubmatch(strings.Join(cmdLines, "\n"), -1) {
			term := m[1] + m[2] + m[3]
			for {
				if i >= len(b.lines) {
					return nil, fmt.Errorf("%s:%d: here-document %s is never ended", file, s.Line, term)
				}
				cmdLines = append(cmdLines, b.lines[i])
				i++
				if strings.TrimLeft(b.lines[i-1], "\t") == term {
					break
				}
			}
		}
		s.Command = strings.Join(cmdLines, "\n")
		var out []string
		for i < len(b.lines) && !strings.HasPrefix(b.lines[i], "$ ") {
			out = append(out, b.lines[i])
			i++
		}
		s.Expected = strings.Join(out, "\n")
		steps = append(steps, s)
	}
	return steps, nil
}

var (
	uuidRE  = regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`)
	timeRE  = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
	hashRE  = regexp.MustCompile(`\b0x[0-9a-fA-F]{64}\b`)
	refRE   = regexp.MustCompile(`\b(SBX-[A-Z]+-[A-Z0-9]+|RF[0-9]{22}|RF-[A-Z0-9-]+)\b`)
	portRE  = regexp.MustCompile(`\b(127\.0\.0\.1|localhost):\d+\b`)
	ageRE   = regexp.MustCompile(`(^|[ \t])\d+(s|m|h|d)(\d+(s|m|h))?([ \t]|$)`)
	spaceRE = regexp.MustCompile(`[ \t]+`)
)

// Normalizer turns a block of output into the form both sides are compared in.
type Normalizer struct {
	// Keep holds the UUIDs (lower case) that stay as they are: the ids the guide's
	// commands name.
	Keep map[string]bool
	// Addr is the real REST address ("127.0.0.1:41234"); it is written as DefaultAddr.
	Addr string
}

// DefaultAddr is the REST address of `make run` that the guides use.
const DefaultAddr = "127.0.0.1:8080"

// KeepIDs returns every UUID in the guide's commands.
func KeepIDs(g *Guide) map[string]bool {
	keep := map[string]bool{}
	for _, s := range g.Steps {
		for _, id := range uuidRE.FindAllString(s.Command, -1) {
			keep[strings.ToLower(id)] = true
		}
	}
	return keep
}

// Normalize returns the lines of out in comparable form.
func (n Normalizer) Normalize(out string) []string {
	if n.Addr != "" {
		out = strings.ReplaceAll(out, n.Addr, DefaultAddr)
	}
	if j, ok := canonicalJSON(out); ok {
		out = j
	}
	ids := map[string]string{}
	out = uuidRE.ReplaceAllStringFunc(out, func(id string) string {
		l := strings.ToLower(id)
		if n.Keep[l] {
			return id
		}
		if _, ok := ids[l]; !ok {
			ids[l] = fmt.Sprintf("<uuid-%d>", len(ids)+1)
		}
		return ids[l]
	})
	out = timeRE.ReplaceAllString(out, "<time>")
	out = hashRE.ReplaceAllString(out, "<hash>")
	out = refRE.ReplaceAllString(out, "<ref>")
	out = portRE.ReplaceAllStringFunc(out, func(s string) string {
		if s == DefaultAddr {
			return s
		}
		host, _, _ := strings.Cut(s, ":")
		return host + ":<port>"
	})
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		// Twice: a match consumes the blank after it, so "3s 4s" needs a second pass.
		l = ageRE.ReplaceAllString(ageRE.ReplaceAllString(l, "$1<age>$5"), "$1<age>$5")
		lines = append(lines, strings.TrimRight(spaceRE.ReplaceAllString(strings.TrimRight(l, "\r"), " "), " "))
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return lines
}

// canonicalJSON rewrites a stream of JSON values (objects or arrays) as compact JSON with
// sorted keys, one value per line.
func canonicalJSON(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var b strings.Builder
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", false
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return "", false
		}
		b.Write(buf.Bytes())
	}
	return b.String(), true
}

// Match reports whether the actual lines are what the expected lines show; an expected line
// "…" matches any number of lines.
func Match(expected, actual []string) bool {
	if len(expected) == 0 {
		return len(actual) == 0
	}
	if expected[0] == "…" {
		for k := 0; k <= len(actual); k++ {
			if Match(expected[1:], actual[k:]) {
				return true
			}
		}
		return false
	}
	return len(actual) > 0 && expected[0] == actual[0] && Match(expected[1:], actual[1:])
}
