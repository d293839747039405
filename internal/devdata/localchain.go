package devdata

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
)

// Where the local chain's signer key goes for the manager.
const (
	// ChainSignerSecret is the Secret (in OperatorNamespace) holding the operator's chain key.
	ChainSignerSecret = "fundshare-chain-signer"
	// ChainSignerSecretKey is the Secret's data key: 64 hex characters.
	ChainSignerSecretKey = "key"
)

// LocalChainConfig configures StartLocalChain.
type LocalChainConfig struct {
	// LocalDir is `make run`'s folder: the keys go to LocalDir/chain, the description to
	// LocalDir/chain.json.
	LocalDir string
	// Catalogue is the sample catalogue: each ShareClass in it gets a token.
	Catalogue string
	// Port is the JSON-RPC port on 127.0.0.1.
	Port int
	// BlockInterval is the time between blocks.
	BlockInterval time.Duration
}

// StartLocalChain starts `make run`'s chain (see package localchain) with a token for every
// share class of the sample catalogue, writes LocalDir/chain.json and puts the operator's key
// into the Secret ChainSignerSecret for the manager's chain signer. The caller closes the chain.
func StartLocalChain(ctx context.Context, c client.Client, cfg LocalChainConfig) (*localchain.Chain, error) {
	classes, err := SampleShareClasses(cfg.Catalogue)
	if err != nil {
		return nil, err
	}
	lc, err := localchain.Start(ctx, localchain.Config{
		Dir: filepath.Join(cfg.LocalDir, "chain"), Port: cfg.Port, BlockInterval: cfg.BlockInterval, ShareClasses: classes,
	})
	if err != nil {
		return nil, err
	}
	if err := lc.WriteInfo(filepath.Join(cfg.LocalDir, "chain.json")); err != nil {
		_ = lc.Close()
		return nil, err
	}
	if err := ensureSignerSecret(ctx, c, lc.OperatorKeyHex()); err != nil {
		_ = lc.Close()
		return nil, err
	}
	return lc, nil
}

// SampleShareClasses reads the ISIN and name of every ShareClass in a catalogue file.
func SampleShareClasses(path string) ([]localchain.ShareClass, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []localchain.ShareClass
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var obj struct {
			Kind string                  `json:"kind"`
			Spec investv1.ShareClassSpec `json:"spec"`
		}
		if err := dec.Decode(&obj); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if obj.Kind == "ShareClass" {
			out = append(out, localchain.ShareClass{ISIN: string(obj.Spec.ISIN), Name: obj.Spec.Name})
		}
	}
}

// ensureSignerSecret creates or updates the signer Secret. The key is never logged.
func ensureSignerSecret(ctx context.Context, c client.Client, keyHex string) error {
	s := &corev1.Secret{}
	key := client.ObjectKey{Namespace: OperatorNamespace, Name: ChainSignerSecret}
	err := c.Get(ctx, key, s)
	switch {
	case apierrors.IsNotFound(err):
		s = &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace},
			Type:       corev1.SecretTypeOpaque,
			Data:       map[string][]byte{ChainSignerSecretKey: []byte(keyHex)},
		}
		err = c.Create(ctx, s)
	case err == nil && string(s.Data[ChainSignerSecretKey]) != keyHex:
		s.Data = map[string][]byte{ChainSignerSecretKey: []byte(keyHex)}
		err = c.Update(ctx, s)
	}
	if err != nil {
		return fmt.Errorf("chain signer secret %s: %w", key, err)
	}
	return nil
}

// AdoptLocalTokens gives each share class whose ISIN has a token on the local chain that
// token (spec.token mode Adopt), unless it has a token already. A share class whose token
// is another address (the local folder's keys were replaced while etcd's data was kept) is
// left alone and returned, so the caller can say so; its status then tells what is wrong.
func AdoptLocalTokens(ctx context.Context, c client.Client, tokens map[string]common.Address) ([]string, error) {
	var list investv1.ShareClassList
	if err := c.List(ctx, &list); err != nil {
		return nil, err
	}
	var differing []string
	for i := range list.Items {
		sc := &list.Items[i]
		addr, ok := tokens[string(sc.Spec.ISIN)]
		if !ok {
			continue
		}
		if sc.Spec.Token != nil {
			if sc.Spec.Token.Mode != investv1.TokenModeAdopt || !strings.EqualFold(sc.Spec.Token.Address, addr.Hex()) {
				differing = append(differing, string(sc.Spec.ISIN))
			}
			continue
		}
		before := sc.DeepCopy()
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: addr.Hex()}
		if err := c.Patch(ctx, sc, client.MergeFrom(before), client.FieldOwner(fieldOwner)); err != nil {
			return nil, fmt.Errorf("share class %s: adopt token %s: %w", sc.Spec.ISIN, addr.Hex(), err)
		}
	}
	return differing, nil
}
