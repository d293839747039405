// Package ctrltest holds the small fakes that the controllers' glue tests share: a logger
// that records its lines, a client whose List fails, and the check that SetupWithManager
// refuses a missing dependency. Test code only: nothing the
// production binary links imports it.
package ctrltest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

// RecordingLogger returns a logger (V(1) included) that keeps every line it is given, and
// a function that returns those lines.
func RecordingLogger() (logr.Logger, func() []string) { return RecordingLoggerAt(1) }

// RecordingLoggerAt is RecordingLogger keeping only the lines up to verbosity v (0: info).
func RecordingLoggerAt(v int) (logr.Logger, func() []string) {
	var mu sync.Mutex
	var lines []string
	log := funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, prefix+" "+args)
	}, funcr.Options{Verbosity: v})
	return log, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

// FakeClient is a fake client with the project's scheme and the manager's field indexes
// (internal/index), holding objs; the kinds of status have the status subresource.
func FakeClient(t testing.TB, objs []client.Object, status ...client.Object) client.Client {
	t.Helper()
	b := fake.NewClientBuilder().WithScheme(scheme.New()).WithObjects(objs...).WithStatusSubresource(status...)
	if err := index.Register(context.Background(), fakeIndexer{b}); err != nil {
		t.Fatal(err)
	}
	return b.Build()
}

// APIServer is a fake client that reads as the API server does, not the manager's cache:
// it serves a field selector only on what the project's CRDs declare as selectableFields
// (config/crd/bases), and refuses any other, such as the cache's own indexes, with 400
// Bad Request, as the real one does.
func APIServer(t testing.TB, objs ...client.Object) client.Client {
	t.Helper()
	return apiServer(t, selectableFields(t), objs...)
}

// APIServerBefore is APIServer for an API server whose CRDs declare no selectable field
// (one that still serves an older release's CRDs during an upgrade): it refuses every
// field selector with 400 Bad Request.
func APIServerBefore(t testing.TB, objs ...client.Object) client.Client {
	t.Helper()
	return apiServer(t, nil, objs...)
}

func apiServer(t testing.TB, selectable map[string][]string, objs ...client.Object) client.Client {
	t.Helper()
	s := scheme.New()
	b := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...)
	for kind, paths := range selectable {
		obj, err := s.New(investv1.GroupVersion.WithKind(kind))
		if err != nil {
			t.Fatalf("selectable field of %s: %v", kind, err)
		}
		for _, path := range paths {
			b.WithIndex(obj.(client.Object), path, fieldValue(path))
		}
	}
	return b.WithInterceptorFuncs(interceptor.Funcs{List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
		if lo := (&client.ListOptions{}).ApplyOptions(opts); lo.FieldSelector != nil {
			kind := strings.TrimSuffix(reflect.TypeOf(list).Elem().Name(), "List")
			for _, r := range lo.FieldSelector.Requirements() {
				if !slices.Contains(selectable[kind], r.Field) {
					return apierrors.NewBadRequest(`field label not supported: "` + r.Field + `"`)
				}
			}
		}
		return c.List(ctx, list, opts...)
	}}).Build()
}

// selectableFields reads the selectableFields of the project's CRDs: kind → field paths
// as a field selector names them ("spec.isin").
func selectableFields(t testing.TB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, crd := range ProjectCRDs(t) {
		for _, v := range crd.Spec.Versions {
			for _, sf := range v.SelectableFields {
				out[crd.Spec.Names.Kind] = append(out[crd.Spec.Names.Kind], strings.TrimPrefix(sf.JSONPath, "."))
			}
		}
	}
	return out
}

// ProjectCRDs are the CRDs of config/crd/bases, as controller-gen writes them.
func ProjectCRDs(t testing.TB) []apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(controlplane.Root(), "config", "crd", "bases", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("CRDs: %v (%d files)", err, len(files))
	}
	crds := make([]apiextensionsv1.CustomResourceDefinition, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(data, &crd); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		crds = append(crds, crd)
	}
	return crds
}

// fieldValue indexes an object by the value at path, as the API server's selectable field
// does (a string or a number, as text).
func fieldValue(path string) client.IndexerFunc {
	return func(obj client.Object) []string {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return nil
		}
		v, found, err := unstructured.NestedFieldNoCopy(u, strings.Split(path, ".")...)
		if err != nil || !found {
			return nil
		}
		return []string{fmt.Sprint(v)}
	}
}

// fakeIndexer registers the manager's indexes on a fake client builder.
type fakeIndexer struct{ b *fake.ClientBuilder }

func (f fakeIndexer) IndexField(_ context.Context, obj client.Object, field string, fn client.IndexerFunc) error {
	f.b.WithIndex(obj, field, fn)
	return nil
}

// ReconcileLogged reconciles obj with r times times, a logger that records the lines up to
// verbosity v in the context, and returns those lines; an error of Reconcile fails t.
func ReconcileLogged(t testing.TB, r reconcile.Reconciler, obj client.Object, v, times int) []string {
	t.Helper()
	log, lines := RecordingLoggerAt(v)
	ctx := logr.NewContext(context.Background(), log)
	for range times {
		if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(obj)}); err != nil {
			t.Fatal(err)
		}
	}
	return lines()
}

// ErrCannotList is what FailingLists' List answers.
var ErrCannotList = errors.New("the cache cannot list")

// FailingLists is a client whose List always fails, as a cache that cannot list does.
func FailingLists(t *testing.T) client.Client {
	t.Helper()
	return interceptor.NewClient(fake.NewClientBuilder().WithScheme(scheme.New()).Build(), interceptor.Funcs{
		List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
			return ErrCannotList
		},
	})
}

// NoManager is a manager that panics when used: SetupWithManager must refuse a missing
// dependency before it touches the manager.
type NoManager struct{ ctrl.Manager }

// Setupper is a reconciler, or any runnable, that a manager sets up.
type Setupper interface{ SetupWithManager(ctrl.Manager) error }

// ExpectSetupRefusesNil fails t unless r's SetupWithManager refuses a nil manager, and
// refuses a manager (NoManager) when any one of the fields named deps is nil in a copy of
// r (a pointer to a struct with every dependency set): a wiring mistake fails at start-up,
// not at the first reconcile. Each case is a subtest.
func ExpectSetupRefusesNil(t *testing.T, r Setupper, deps ...string) {
	t.Helper()
	t.Run("nil manager", func(t *testing.T) {
		if err := r.SetupWithManager(nil); err == nil {
			t.Fatal("SetupWithManager accepted a nil manager")
		}
	})
	for _, dep := range deps {
		t.Run("nil "+dep, func(t *testing.T) {
			cp := reflect.New(reflect.TypeOf(r).Elem())
			cp.Elem().Set(reflect.ValueOf(r).Elem())
			field := cp.Elem().FieldByName(dep)
			if !field.IsValid() || field.IsZero() {
				t.Fatalf("%T has no dependency %s set", r, dep)
			}
			field.SetZero()
			if err := cp.Interface().(Setupper).SetupWithManager(NoManager{}); err == nil {
				t.Fatalf("SetupWithManager accepted a nil %s", dep)
			}
		})
	}
}

// ExpectLogged fails unless the lines contain each of wants.
func ExpectLogged(t testing.TB, lines []string, wants ...string) {
	t.Helper()
	got := strings.Join(lines, "\n")
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Fatalf("the log lacks %s:\n%s", want, got)
		}
	}
}

// ExpectListFailureLogged calls a map function, whose client's List fails (FailingLists),
// on obj with a recording logger in its context, and fails unless it asks for no
// reconcile and logs the List's error and obj's name: a map function cannot return the
// error, so it must log it.
func ExpectListFailureLogged(t *testing.T, mapFunc handler.MapFunc, obj client.Object) {
	t.Helper()
	log, lines := RecordingLogger()
	if reqs := mapFunc(logr.NewContext(context.Background(), log), obj); len(reqs) != 0 {
		t.Fatalf("requests = %v, want none", reqs)
	}
	ExpectLogged(t, lines(), ErrCannotList.Error(), obj.GetName())
}

// KstatusOf computes what Flux, kpt and kubectl-based tools read from obj (kstatus).
func KstatusOf(t *testing.T, obj runtime.Object) status.Status {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	res, err := status.Compute(&unstructured.Unstructured{Object: m})
	if err != nil {
		t.Fatal(err)
	}
	return res.Status
}
