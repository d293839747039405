package apiserver

import (
	"context"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/restbench"
)

// BenchmarkBearerCheckInformerCache is the bearer check of the read path as the facade
// runs it: a real kube-apiserver, the ApiClient from an informer cache with the
// project's indexes, the client's Secret read at most every 2 s. Sub-benchmarks:
// signature and claims alone (before revocation; the ceiling of make bench), with the
// client-state check, and the state check alone. Starts its own control plane
// (KUBEBUILDER_ASSETS or bin/controlplane); not part of make test.
func BenchmarkBearerCheckInformerCache(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	env, err := envtest.New(envtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = env.Close() }()
	cfg, direct := env.Config, env.Client
	ns, err := controlplane.NewNamespace(ctx, direct, "bench")
	if err != nil {
		b.Fatal(err)
	}
	if err := direct.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "creds"},
		Data: map[string][]byte{"hash": []byte("$argon2id$bench")}}); err != nil {
		b.Fatal(err)
	}
	if err := direct.Create(ctx, fixtures.ApiClient(ns, "acme", "creds")); err != nil {
		b.Fatal(err)
	}
	informers, err := cache.New(cfg, cache.Options{Scheme: controlplane.Scheme()})
	if err != nil {
		b.Fatal(err)
	}
	if err := index.Register(ctx, informers); err != nil {
		b.Fatal(err)
	}
	go func() { _ = informers.Start(ctx) }()
	s := &ClientStore{Cache: informers, Secrets: direct, Log: logr.Discard()}
	var c auth.Client
	for c.Credentials == "" { // the cache has seen the ApiClient
		if c, err = s.LookupClient(ctx, "acme"); err != nil && ctx.Err() != nil {
			b.Fatal(err)
		}
	}
	issuer := newTestIssuer(b)
	token, _, err := issuer.IssueFor(c, "openid offline")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name   string
		states auth.ClientStates
	}{{"signature", nil}, {"signature+state", s}} {
		b.Run(bc.name, func(b *testing.B) { restbench.Bearer(b, auth.RequireBearer(issuer, bc.states), token) })
	}
	b.Run("state-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.ClientState(ctx, "acme", auth.StateMaxAge); err != nil {
				b.Fatal(err)
			}
		}
	})
}
