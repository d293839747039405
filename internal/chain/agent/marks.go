package agent

import (
	"context"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
)

// The outbox's reservation mark (outbox.Marks) is a ConfigMap in the operator's namespace,
// in etcd beside the records it guards, so that an etcd restore rewinds both together.
const (
	// MarkReservedKey holds the nonce below which every nonce the outbox signed lies.
	MarkReservedKey = "reserved"
	// MarkAlarmKey holds the latched records-behind alarm; a person removes it once the
	// orders of tokens without effect references are reconciled (docs/tokens.md).
	MarkAlarmKey = "recordsBehind"
)

// MarkName is the ConfigMap of the mark of signer on chainID.
func MarkName(signer common.Address, chainID int64) string {
	return "fundshare-chain-outbox-" + strings.ToLower(strings.TrimPrefix(signer.Hex(), "0x")) + "-" + strconv.FormatInt(chainID, 10)
}

// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;create;update

// ConfigMapMarks keeps the mark in a ConfigMap, read uncached.
type ConfigMapMarks struct {
	Reader    client.Reader // uncached (the manager's API reader)
	Writer    client.Client
	Namespace string
	Name      string
}

// Load implements outbox.Marks.
func (c ConfigMapMarks) Load(ctx context.Context) (outbox.Mark, bool, error) {
	cm := &corev1.ConfigMap{}
	if err := c.Reader.Get(ctx, client.ObjectKey{Namespace: c.Namespace, Name: c.Name}, cm); err != nil {
		if apierrors.IsNotFound(err) {
			return outbox.Mark{}, false, nil
		}
		return outbox.Mark{}, false, err
	}
	n, err := strconv.ParseUint(cm.Data[MarkReservedKey], 10, 64)
	if err != nil {
		return outbox.Mark{}, false, err
	}
	return outbox.Mark{Reserved: n, Alarm: cm.Data[MarkAlarmKey]}, true, nil
}

// Save implements outbox.Marks. An alarm a person removed since the outbox loaded it is
// not written back: Save keeps only what the outbox sets anew.
func (c ConfigMapMarks) Save(ctx context.Context, m outbox.Mark) error {
	cm := &corev1.ConfigMap{}
	err := c.Reader.Get(ctx, client.ObjectKey{Namespace: c.Namespace, Name: c.Name}, cm)
	if apierrors.IsNotFound(err) {
		cm = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: c.Namespace, Name: c.Name, Labels: map[string]string{"app.kubernetes.io/managed-by": "fundshare-operator"}},
			Data:       markData(m),
		}
		return c.Writer.Create(ctx, cm)
	}
	if err != nil {
		return err
	}
	cm.Data = markData(m)
	return c.Writer.Update(ctx, cm) // optimistic: a concurrent change fails and is retried
}

func markData(m outbox.Mark) map[string]string {
	d := map[string]string{MarkReservedKey: strconv.FormatUint(m.Reserved, 10)}
	if m.Alarm != "" {
		d[MarkAlarmKey] = m.Alarm
	}
	return d
}
