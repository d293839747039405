package outbox

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

// After Send, a reconciler waits while the outbox cannot sign, reads the object again
// after a stale record, fails on any other unrecorded send, and goes on once the
// transaction is recorded, logging a failed broadcast (Track broadcasts it again).
func TestAReconcilerStopsOnlyWhenSendRecordedNothing(t *testing.T) {
	recorded := &investv1.ChainTransaction{Nonce: 7, Attempts: []investv1.ChainTransactionAttempt{{Hash: "0x" + strings.Repeat("ab", 32)}}}
	conflict := apierrors.NewConflict(schema.GroupResource{Group: "invest.fundshare.io", Resource: "orders"}, "o", errors.New("changed"))
	refused := errors.New("connection refused")
	for _, tc := range []struct {
		name    string
		tx      *investv1.ChainTransaction
		err     error
		res     ctrl.Result
		stop    bool
		wantErr string
		logged  bool
	}{
		{name: "cannot sign yet", err: ErrNotSynced, res: ctrl.Result{RequeueAfter: time.Second}, stop: true},
		{name: "chain behind the records", err: ErrChainBehind, res: ctrl.Result{RequeueAfter: time.Second}, stop: true},
		{name: "record refused as stale", err: conflict, res: ctrl.Result{RequeueAfter: patch.ConflictRetry}, stop: true},
		{name: "nothing recorded", err: refused, stop: true, wantErr: "send the batch: connection refused"},
		{name: "recorded, broadcast failed", tx: recorded, err: refused, logged: true},
		{name: "recorded and broadcast", tx: recorded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log, lines := ctrltest.RecordingLogger()
			res, stop, err := Unsent(logr.NewContext(t.Context(), log), tc.tx, tc.err, "the batch")
			if res != tc.res || stop != tc.stop {
				t.Errorf("result %+v, stop %v; want %+v, %v", res, stop, tc.res, tc.stop)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr || !errors.Is(err, tc.err)):
				t.Errorf("error %v, want %q wrapping %v", err, tc.wantErr, tc.err)
			}
			logged := strings.Contains(strings.Join(lines(), "\n"), "broadcast failed")
			if logged != tc.logged {
				t.Errorf("broadcast failure logged: %v, want %v (%q)", logged, tc.logged, lines())
			}
		})
	}
}
