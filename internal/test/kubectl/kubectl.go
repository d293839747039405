// Package kubectl runs the machine's kubectl against a suite's control plane, for the
// suites that check what users apply (test/samples, test/e2e): their one TestMain and
// the decoding of what kubectl prints. Test code only: nothing the production binary
// links imports it.
package kubectl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// timeout bounds one kubectl command; the control plane runs on two shared cores.
const timeout = 2 * time.Minute

// Suite is a started control plane with kubectl pointed at it as an administrator.
type Suite struct {
	// Env is the control plane, its direct client and its admin kubeconfig.
	Env *envtest.Environment
	// Root is the repository's folder, where kubectl runs.
	Root string
	path string
}

// Main is the body of a suite's TestMain: it finds kubectl (needed says what the suite
// needs it for), starts the environment of opts with an administrator named user, stores
// both in s, runs the tests and stops the environment. It returns the exit code.
func Main(m *testing.M, s *Suite, needed, user string, opts envtest.Options) int {
	var err error
	if s.path, err = exec.LookPath("kubectl"); err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: this suite needs kubectl on PATH (%s): %v\n", needed, err)
		return 1
	}
	opts.KubeconfigUser = user
	if s.Env, err = envtest.New(opts); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		return 1
	}
	defer func() {
		if err := s.Env.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "stop:", err)
		}
	}()
	s.Root = controlplane.Root()
	return m.Run()
}

// Run runs kubectl with args in the repository's folder, with the administrator's
// kubeconfig and stdin (nil: none), and returns what it printed.
func (s *Suite) Run(t testing.TB, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.path, append([]string{"--kubeconfig", s.Env.Kubeconfig}, args...)...) //nolint:gosec // the kubectl on PATH, with the suite's own arguments
	cmd.Dir = s.Root
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// Output is Run without stdin, its error carrying the command and what kubectl printed.
func (s *Suite) Output(t testing.TB, args ...string) ([]byte, error) {
	t.Helper()
	out, errOut, err := s.Run(t, nil, args...)
	if err != nil {
		return out, fmt.Errorf("kubectl %s: %w\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out, nil
}

// Decode reads a YAML or JSON stream of objects, as kubectl prints them or a manifest
// holds them; Lists are flattened, empty documents skipped.
func Decode(t testing.TB, data []byte) []*unstructured.Unstructured {
	t.Helper()
	dec := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(bytes.NewReader(data)), 4096)
	var objs []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return objs
			}
			t.Fatalf("decode objects: %v", err)
		}
		if len(u.Object) == 0 {
			continue
		}
		if u.IsList() {
			if err := u.EachListItem(func(o runtime.Object) error {
				objs = append(objs, o.(*unstructured.Unstructured))
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		objs = append(objs, u)
	}
}
