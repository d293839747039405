// Command crddesc reflows the descriptions of the generated CRDs (config/crd/bases) so that
// `kubectl explain` shows sentences, not lines broken where the Go doc comment was
// wrapped. controller-gen keeps each comment line break in a description ("\n"), and
// kubectl explain prints a description's line breaks as they are, after wrapping the text
// to its own width: every comment line became a short line mid-sentence. crddesc joins
// the lines of each paragraph with a space and keeps what a line break means: paragraph
// breaks (blank lines), list items ("- ", "* ", "1. ") and fenced code blocks. `make
// manifests` runs it after controller-gen; it is idempotent.
//
// Usage: go run ./hack/crddesc FILE...
package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: crddesc FILE...")
		os.Exit(2)
	}
	for _, path := range os.Args[1:] {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if out := Reflow(string(data)); out != string(data) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
}

var listItem = regexp.MustCompile(`^\s*([-*+]|\d+[.)])\s`)

// Reflow rewrites every block-scalar description of a YAML document (`description: |-`
// followed by its indented lines) with the lines of each paragraph joined.
func Reflow(src string) string {
	lines := strings.Split(src, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out = append(out, line)
		key := strings.TrimSpace(line)
		if key != "description: |-" && key != "description: |" && key != "- description: |-" {
			continue
		}
		keyIndent := indentOf(line)
		if strings.HasPrefix(key, "- ") {
			keyIndent += 2
		}
		j := i + 1
		var block []string
		for ; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "" {
				block = append(block, "")
				continue
			}
			if indentOf(lines[j]) <= keyIndent {
				break
			}
			block = append(block, lines[j])
		}
		trailing := 0
		for len(block) > 0 && block[len(block)-1] == "" {
			block = block[:len(block)-1]
			trailing++
		}
		if len(block) == 0 {
			continue
		}
		bodyIndent := indentOf(block[0])
		for k := range block {
			if len(block[k]) >= bodyIndent {
				block[k] = block[k][bodyIndent:]
			}
		}
		for _, t := range joinParagraphs(block) {
			if t == "" {
				out = append(out, "")
			} else {
				out = append(out, strings.Repeat(" ", bodyIndent)+t)
			}
		}
		for k := 0; k < trailing; k++ {
			out = append(out, "")
		}
		i = j - 1
	}
	return strings.Join(out, "\n")
}

// joinParagraphs joins each line to the one before it unless a line break means
// something there: a blank line, a list item, a code fence or a line inside a code block.
func joinParagraphs(text []string) []string {
	var out []string
	inCode := false
	for _, t := range text {
		fence := strings.HasPrefix(strings.TrimSpace(t), "```") || strings.HasPrefix(strings.TrimSpace(t), "~~~")
		switch {
		case fence:
			inCode = !inCode
			out = append(out, t)
			continue
		case inCode, t == "", listItem.MatchString(t), len(out) == 0:
			out = append(out, t)
			continue
		}
		prev := strings.TrimSpace(out[len(out)-1])
		if prev == "" || strings.HasPrefix(prev, "```") || strings.HasPrefix(prev, "~~~") {
			out = append(out, t)
			continue
		}
		out[len(out)-1] += " " + strings.TrimSpace(t)
	}
	return out
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
