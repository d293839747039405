package cli

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// timeout bounds a command's calls to the API server or the archive.
const timeout = time.Minute

// kubeFlags are kubectl's flags for reaching a cluster: the kubeconfig's loading rules
// ($KUBECONFIG, ~/.kube/config, or --kubeconfig), its current context or --context, and the
// context's namespace unless -n says otherwise.
type kubeFlags struct {
	kubeconfig, context, namespace string
}

// bind adds --kubeconfig and --context, and -n/--namespace when the command is
// namespaced.
func (k *kubeFlags) bind(f *flags, namespaced bool) {
	f.StringVar(&k.kubeconfig, "kubeconfig", "", "path to the kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
	f.StringVar(&k.context, "context", "", "the kubeconfig context to use (default: its current context)")
	if namespaced {
		f.StringVarP(&k.namespace, "namespace", "n", "", "the namespace (default: the kubeconfig context's namespace)")
	}
}

// clientConfig is the kubeconfig as kubectl reads it.
func (k *kubeFlags) clientConfig() clientcmd.ClientConfig {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = k.kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: k.context}
	overrides.Context.Namespace = k.namespace
	return clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
}

// ns is -n, or the context's namespace, or "default", as kubectl picks it.
func (k *kubeFlags) ns() (string, error) {
	if k.namespace != "" {
		return k.namespace, nil
	}
	ns, _, err := k.clientConfig().Namespace()
	if err != nil {
		return "", fmt.Errorf("read the kubeconfig for the namespace (or pass -n): %w", err)
	}
	return ns, nil
}

// client is a direct client of the cluster with the operator's kinds.
func (k *kubeFlags) client() (client.Client, error) {
	cfg, err := k.clientConfig().ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("read the kubeconfig: %w", err)
	}
	cfg.Timeout = timeout
	scheme := runtime.NewScheme()
	if err := investv1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, fmt.Errorf("reach the cluster at %s: %w", cfg.Host, err)
	}
	return c, nil
}

func commandContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), timeout)
}
