package guides

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Session is one bash process that runs a guide's commands in order, so that the shell
// state (variables, the working folder) carries over from one command to the next.
type Session struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	lines    chan string
	sentinel string
	// Subst is applied to every command before it runs (the documented substitutions).
	Subst *strings.Replacer
}

// NewSession starts bash in dir with the given environment.
func NewSession(dir string, env []string) (*Session, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	s := &Session{sentinel: "__guide_step_done_" + hex.EncodeToString(b), lines: make(chan string, 1024)}
	s.cmd = exec.Command("bash", "--noprofile", "--norc")
	s.cmd.Dir, s.cmd.Env = dir, env
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	s.cmd.Stdout, s.cmd.Stderr = pw, pw
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	_ = pw.Close()
	go func() {
		defer close(s.lines)
		r := bufio.NewReaderSize(pr, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				s.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return s, nil
}

// Run runs one command and returns what it printed (stdout and stderr as a terminal
// shows them) and its exit status.
func (s *Session) Run(command string, timeout time.Duration) (string, int, error) {
	if s.Subst != nil {
		command = s.Subst.Replace(command)
	}
	// The command reads nothing but its own here-documents; the newline before the
	// sentinel ends a last line that has none.
	script := fmt.Sprintf("{\n%s\n} </dev/null\nprintf '\\n%s %%d\\n' $?\n", command, s.sentinel)
	if _, err := io.WriteString(s.stdin, script); err != nil {
		return "", -1, fmt.Errorf("bash: %w", err)
	}
	var out strings.Builder
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return out.String(), -1, fmt.Errorf("bash ended before the command finished")
			}
			if rest, found := strings.CutPrefix(line, s.sentinel+" "); found {
				code, _ := strconv.Atoi(strings.TrimSpace(rest))
				text := strings.TrimSuffix(out.String(), "\n")
				return text, code, nil
			}
			out.WriteString(line)
		case <-deadline:
			s.Close()
			return out.String(), -1, fmt.Errorf("the command did not finish within %s", timeout)
		}
	}
}

// Close ends bash and everything it started.
func (s *Session) Close() {
	_ = s.stdin.Close()
	if s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		_ = s.cmd.Wait()
	}
}

// RunSteps runs the steps of g in sh, in order, and returns a report of every step whose
// output differs from the guide's. A command that does not finish ends the run (err).
func RunSteps(g *Guide, sh *Session, norm Normalizer, timeout time.Duration, logf func(string, ...any)) (failures []string, err error) {
	for _, s := range g.Steps {
		start := time.Now()
		out, code, err := sh.Run(s.Command, timeout)
		if err != nil {
			return failures, fmt.Errorf("%s:%d: %w\n--- command\n%s\n--- printed so far\n%s", s.File, s.Line, err, s.Command, out)
		}
		if d := time.Since(start); d > 10*time.Second {
			logf("%s:%d took %s", s.File, s.Line, d.Round(time.Millisecond))
		}
		if !s.Compare {
			continue
		}
		want, got := norm.Normalize(s.Expected), norm.Normalize(out)
		if !Match(want, got) {
			failures = append(failures, Report(s, out, code, want, got))
		}
	}
	return failures, nil
}

// Report describes a step whose output differs from the guide's.
func Report(s Step, out string, code int, want, got []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: the command prints something else than the guide shows\n", s.File, s.Line)
	fmt.Fprintf(&b, "--- command\n%s\n", s.Command)
	fmt.Fprintf(&b, "--- the guide shows\n%s\n", s.Expected)
	fmt.Fprintf(&b, "--- it printed (exit status %d)\n%s\n", code, out)
	fmt.Fprintf(&b, "--- normalised, guide\n%s\n--- normalised, printed\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	return b.String()
}
