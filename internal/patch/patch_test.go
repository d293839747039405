package patch_test

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// TestStatusReplaceWritesUnderTheOptimisticLock: a status replaced from a version someone
// else has written since is refused as stale, as a merge patch under the lock is; and an
// object without a resourceVersion (nothing to lock on) is never written.
func TestStatusReplaceWritesUnderTheOptimisticLock(t *testing.T) {
	e, err := envtest.New(envtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	ctx := context.Background()
	ns, err := controlplane.NewNamespace(ctx, e.Client, "patch")
	if err != nil {
		t.Fatal(err)
	}
	ac := fixtures.ApiClient(ns, "patch-client", "patch-secret")
	if err := e.Client.Create(ctx, ac); err != nil {
		t.Fatal(err)
	}
	read := func() *investv1.ApiClient {
		got := &investv1.ApiClient{}
		if err := e.Client.Get(ctx, client.ObjectKeyFromObject(ac), got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	mark := func(o *investv1.ApiClient, msg string) {
		meta.SetStatusCondition(&o.Status.Conditions, metav1.Condition{Type: investv1.ConditionReady, Status: metav1.ConditionTrue, Reason: "Test", Message: msg})
	}
	first, second := read(), read()
	mark(first, "first")
	if err := patch.StatusReplace(ctx, e.Client, first); err != nil {
		t.Fatalf("replace from the current version: %v", err)
	}
	mark(second, "second")
	if err := patch.StatusReplace(ctx, e.Client, second); !patch.Stale(err) {
		t.Fatalf("replace from a version written since: %v, want a conflict", err)
	}
	if c := meta.FindStatusCondition(read().Status.Conditions, investv1.ConditionReady); c == nil || c.Message != "first" {
		t.Fatalf("stored: %+v, want the first write only", c)
	}
	unlocked := read()
	unlocked.ResourceVersion = ""
	mark(unlocked, "unlocked")
	if err := patch.StatusReplace(ctx, e.Client, unlocked); err == nil {
		t.Fatal("an object without a resourceVersion was written")
	}
}
