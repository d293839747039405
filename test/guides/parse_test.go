package guides

import (
	"strings"
	"testing"
	"time"
)

const sample = "# A guide\n" + // 1
	"\n" + // 2
	"```console\n" + // 3
	"$ kubectl create -f - <<'EOF'\n" + // 4
	"name: 3f9ee490-7b8b-47d0-a6ac-cc289afb1bb2\n" + // 5
	"EOF\n" + // 6
	"created\n" + // 7
	"\n" + // 8
	"$ echo a \\\n" + // 9
	"  b\n" + // 10
	"a b\n" + // 11
	"```\n" + // 12
	"\n" + // 13
	"```sh\n" + // 14
	"echo '{\"a\": 1}'\n" + // 15
	"```\n" + // 16
	"\n" + // 17
	"```json\n" + // 18
	"{\"a\": 1}\n" + // 19
	"```\n" + // 20
	"\n" + // 21
	"```sh\n" + // 22
	"echo not compared\n" + // 23
	"```\n" + // 24
	"Response:\n" + // 25
	"```json\n" + // 26
	"{\"b\": 2}\n" + // 27
	"```\n" + // 28
	"<!-- guide: skip: needs a cluster -->\n" + // 29
	"```sh\n" + // 30
	"kubectl apply -f dist/install.yaml\n" + // 31
	"```\n" + // 32
	"<!-- guide: no-compare: prints a fresh secret -->\n" + // 33
	"\n" + // 34
	"```console\n" + // 35
	"$ openssl rand -hex 4\n" + // 36
	"0badcafe\n" + // 37
	"```\n" + // 38
	"<!-- guide: sandbox-settlement-delay 10m -->\n" + // 39
	"```yaml\n" + // 40
	"kind: Account\n" + // 41
	"```\n" // 42

func TestParseFindsCommandsOutputsAndLines(t *testing.T) {
	g, err := Parse("docs/sample.md", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{Line: 4, Command: "kubectl create -f - <<'EOF'\nname: 3f9ee490-7b8b-47d0-a6ac-cc289afb1bb2\nEOF", Expected: "created\n", Compare: true},
		{Line: 9, Command: "echo a \\\n  b", Expected: "a b", Compare: true},
		{Line: 15, Command: "echo '{\"a\": 1}'", Expected: "{\"a\": 1}", Compare: true},
		{Line: 23, Command: "echo not compared", Compare: false},
		{Line: 36, Command: "openssl rand -hex 4", Expected: "0badcafe", Compare: false},
	}
	if len(g.Steps) != len(want) {
		t.Fatalf("got %d steps, want %d: %+v", len(g.Steps), len(want), g.Steps)
	}
	for i, w := range want {
		w.File = "docs/sample.md"
		if g.Steps[i] != w {
			t.Errorf("step %d:\n got %+v\nwant %+v", i, g.Steps[i], w)
		}
	}
	if g.SandboxSettlementDelay != 10*time.Minute {
		t.Errorf("sandbox settlement delay %s, want 10m", g.SandboxSettlementDelay)
	}
	if len(g.Skipped) != 1 || !strings.Contains(g.Skipped[0], "docs/sample.md:30: needs a cluster") {
		t.Errorf("skipped %q", g.Skipped)
	}
}

func TestMarkersNeedAReasonAndABlock(t *testing.T) {
	for name, text := range map[string]string{
		"no reason":        "<!-- guide: skip -->\n```sh\necho\n```\n",
		"unknown marker":   "<!-- guide: ignore: why -->\n```sh\necho\n```\n",
		"not before block": "<!-- guide: skip: why -->\ntext\n```sh\necho\n```\n",
		"on a yaml block":  "<!-- guide: skip: why -->\n```yaml\na: b\n```\n",
		"at the end":       "```sh\necho\n```\n<!-- guide: skip: why -->\n",
		"unclosed block":   "```sh\necho\n",
		"output first":     "```console\nhello\n$ echo hello\n```\n",
		"open heredoc":     "```console\n$ cat <<EOF\nhello\n```\n",
	} {
		if _, err := Parse("docs/x.md", []byte(text)); err == nil {
			t.Errorf("%s: parsed without an error", name)
		}
	}
}

func TestNormalizeIgnoresIdsTimesAgesHashesReferencesPortsAndSpacing(t *testing.T) {
	n := Normalizer{Keep: map[string]bool{"cab9f598-fe78-4c87-aa87-8a1e50d265e3": true}, Addr: "127.0.0.1:41234"}
	got := n.Normalize("\nNAME                                   AGE\n" +
		"cab9f598-fe78-4c87-aa87-8a1e50d265e3   3s\n" +
		"0D6B3F3C-4A59-4B8E-9A55-2F7F1D2C9E10\t4m26s\n" +
		"0d6b3f3c-4a59-4b8e-9a55-2f7f1d2c9e10 9e0a2c1b-0000-4000-8000-000000000000\n" +
		"at 2026-11-22T06:50:52Z and 2026-11-22T06:50:52.123+01:00 see http://127.0.0.1:41234/v1 and https://127.0.0.1:9443\n" +
		"tx 0x98902e4c9ed3238fcd4071e71c7913fd82af32a5c71dd194faadadfd8644c52f SBX-PAY-FOUX46KPNLLF RF8610834051056554170873   \r\n\n")
	want := []string{
		"NAME AGE",
		"cab9f598-fe78-4c87-aa87-8a1e50d265e3 <age>",
		"<uuid-1> <age>",
		"<uuid-1> <uuid-2>",
		"at <time> and <time> see http://127.0.0.1:8080/v1 and https://127.0.0.1:<port>",
		"tx <hash> <ref> <ref>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNormalizeComparesJSONAsJSON(t *testing.T) {
	n := Normalizer{}
	pretty := n.Normalize("{\n  \"b\": [1, 2],\n  \"a\": \"x\"\n}\n{\"c\": null}")
	compact := n.Normalize(`{"a":"x","b":[1,2]}{"c":null}`)
	if strings.Join(pretty, "\n") != strings.Join(compact, "\n") || len(compact) != 2 {
		t.Errorf("pretty %q, compact %q", pretty, compact)
	}
	if got := n.Normalize(`{"a": 1} trailing text`); len(got) != 1 || got[0] != `{"a": 1} trailing text` {
		t.Errorf("text that is not only JSON is compared as text: %q", got)
	}
}

func TestMatchEllipsisLineMatchesAnyLines(t *testing.T) {
	for _, c := range []struct {
		want, got []string
		ok        bool
	}{
		{[]string{"a", "…", "z"}, []string{"a", "z"}, true},
		{[]string{"a", "…", "z"}, []string{"a", "b", "c", "z"}, true},
		{[]string{"a", "…", "z"}, []string{"a", "b"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
		{[]string{"…"}, nil, true},
		{nil, []string{"x"}, false},
	} {
		if Match(c.want, c.got) != c.ok {
			t.Errorf("Match(%q, %q) = %v", c.want, c.got, !c.ok)
		}
	}
}

// TestADriftedGuideFails runs two small guides in a real bash session: the one that shows
// what its commands print passes, and the drifted one fails with a report that names the
// guide, the line, the command, what the guide shows and what was printed.
func TestADriftedGuideFails(t *testing.T) {
	good := "```console\n$ GREETING=hello\n\n$ echo \"$GREETING, world\" $(uuidfake)\nhello, world 3f9ee490-7b8b-47d0-a6ac-cc289afb1bb2\n```\n" +
		"```sh\nprintf '{\"port\": \"127.0.0.1:8080\"}'\n```\n```json\n{\"port\": \"127.0.0.1:8080\"}\n```\n"
	drifted := "```console\n$ GREETING=hello\n\n$ echo \"$GREETING, world\"\nhello, guide\n```\n"
	run := func(text string) []string {
		g, err := Parse("docs/drift.md", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		sh, err := NewSession(t.TempDir(), append(minimalEnv(), "HOME="+t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		defer sh.Close()
		// A stand-in for a command that prints a fresh id, and the documented address
		// substitution: the guide says 127.0.0.1:8080, the session runs on 127.0.0.1:1234.
		if _, _, err := sh.Run("uuidfake() { echo 0d6b3f3c-4a59-4b8e-9a55-2f7f1d2c9e10; }", time.Minute); err != nil {
			t.Fatal(err)
		}
		sh.Subst = strings.NewReplacer(DefaultAddr, "127.0.0.1:1234")
		failures, err := RunSteps(g, sh, Normalizer{Keep: KeepIDs(g), Addr: "127.0.0.1:1234"}, time.Minute, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		return failures
	}
	if f := run(good); len(f) != 0 {
		t.Fatalf("the guide that matches failed:\n%s", strings.Join(f, "\n"))
	}
	f := run(drifted)
	if len(f) != 1 {
		t.Fatalf("the drifted guide gave %d failures, want 1: %q", len(f), f)
	}
	for _, want := range []string{"docs/drift.md:4:", "echo \"$GREETING, world\"", "hello, guide", "hello, world"} {
		if !strings.Contains(f[0], want) {
			t.Errorf("the report does not name %q:\n%s", want, f[0])
		}
	}
}

func TestACommandThatHangsEndsTheRun(t *testing.T) {
	g, err := Parse("docs/hang.md", []byte("```console\n$ sleep 30\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := NewSession(t.TempDir(), minimalEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if _, err := RunSteps(g, sh, Normalizer{}, 500*time.Millisecond, t.Logf); err == nil || !strings.Contains(err.Error(), "docs/hang.md:2") {
		t.Errorf("err = %v, want a timeout naming docs/hang.md:2", err)
	}
}

func TestParseReadsTheOrderRetentionMarker(t *testing.T) {
	g, err := Parse("docs/sample.md", []byte("<!-- guide: order-retention 30s -->\n```sh\necho hi\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g.OrderRetention != 30*time.Second || len(g.Steps) != 1 {
		t.Fatalf("order retention %s, %d steps; want 30s and the block", g.OrderRetention, len(g.Steps))
	}
	g, err = Parse("docs/sample.md", []byte("```sh\necho hi\n```\n"))
	if err != nil || g.OrderRetention != 0 {
		t.Fatalf("without the marker: retention %s (%v), want 0: orders stay", g.OrderRetention, err)
	}
	for _, bad := range []string{"soon", "0s", "-1m"} {
		if _, err := Parse("docs/sample.md", []byte("<!-- guide: order-retention "+bad+" -->\n```sh\necho hi\n```\n")); err == nil {
			t.Errorf("order-retention %s: parsed, want an error", bad)
		}
	}
}
