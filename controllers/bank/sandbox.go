package bank

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/sandboxbank"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// SandboxClosedIBAN is an account the sandbox bank of `make run` holds as closed: it
// refuses every transfer to it (pain.002 RJCT, AC04), so that a rejected payout, its stall
// and an operator's Resend can be watched (docs/payouts.md).
const SandboxClosedIBAN = "DE44500105175407324931"

// SandboxBank is the bank of the local dev run (`make run`): it pays every BUY that
// waits for its payment, after Delay, the way a customer would, quoting the order's RF
// reference from the payer's registered account, and notifies the fund as a bank does:
// a camt.054 file in the folder connector's inbox, which the Ingester then reads like any
// bank file. It is not real money; what it exercises is real: parsing, matching, the
// ledger and the evidence.
//
// It remembers what it paid in memory only. After a restart it pays the orders that
// still wait again, with the same entry references (sandboxbank derives them from the
// order), so the ledger takes the second notification for a duplicate.
type SandboxBank struct {
	// Folder is the folder connector's root; files go to its inbox/.
	Folder string
	// Client reads orders and payment methods (the cache).
	Client client.Client
	// Delay is how long an order waits for its payment before the sandbox pays it.
	Delay time.Duration
	// PollInterval is how often waiting orders are looked for; zero means
	// DefaultPollInterval.
	PollInterval time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log is the logger.
	Log logr.Logger
	// RejectIBANs are creditor accounts the sandbox bank refuses transfers to (pain.002
	// RJCT, AC04 closed account), to show what a rejected payout does.
	RejectIBANs []string
	// VerifyPayees makes the sandbox bank verify the payee of every transfer (Verification
	// of Payee) against the account holders the customers registered (their payment
	// method details) and report the result in its pain.002; RejectNoMatch refuses a
	// transfer whose name does not match instead of executing it with the warning.
	VerifyPayees, RejectNoMatch bool

	mu       sync.Mutex
	paid     map[types.UID]bool
	answered map[string]bool
	seq      uint64
}

// NeedLeaderElection makes the sandbox bank run on the leader only.
func (b *SandboxBank) NeedLeaderElection() bool { return true }

// Start pays the waiting orders every PollInterval until ctx ends.
func (b *SandboxBank) Start(ctx context.Context) error {
	interval := b.PollInterval
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := b.Pay(ctx); err != nil && ctx.Err() == nil {
			b.Log.WithName("sandbox-bank").Error(err, "the sandbox bank could not notify payments; trying again")
		}
		if _, err := b.Answer(ctx); err != nil && ctx.Err() == nil {
			b.Log.WithName("sandbox-bank").Error(err, "the sandbox bank could not answer the fund's transfer files; trying again")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Pay writes one notification per fund account and currency for the BUYs that have
// waited Delay for their payment and were not paid yet, and returns how many it paid.
func (b *SandboxBank) Pay(ctx context.Context) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.paid == nil {
		b.paid = map[types.UID]bool{}
	}
	var list investv1.OrderList
	if err := b.Client.List(ctx, &list, client.MatchingFields{index.OrderState: string(investv1.StateAwaitingPayment)}); err != nil {
		return 0, fmt.Errorf("list the orders awaiting payment: %w", err)
	}
	now := b.now()
	type account struct{ iban, currency string }
	byAccount := map[account][]sandboxbank.Payment{}
	uids := map[account][]types.UID{}
	for i := range list.Items {
		o := &list.Items[i]
		q := o.Spec.Quote
		if b.paid[o.UID] || o.Spec.Side != investv1.SideBuy || q == nil || q.PaymentDetails == nil ||
			o.Spec.CancellationRequested || !o.DeletionTimestamp.IsZero() || o.Status.Settlement.PaymentReceived != nil ||
			now.Sub(lifecycle.StartedAt(o, lifecycle.StepPaymentReceived)) < b.Delay {
			continue
		}
		due := AmountDue(o)
		if due <= 0 {
			continue
		}
		name, iban, err := b.payer(ctx, o)
		if err != nil {
			return 0, err
		}

		a := account{iban: validation.NormalizeIBAN(q.PaymentDetails.IBAN), currency: string(o.Spec.Currency)}
		byAccount[a] = append(byAccount[a], sandboxbank.Payment{
			OrderID: o.Name, Namespace: o.Namespace, Reference: q.PaymentDetails.PaymentReference,
			Amount: due, Currency: string(o.Spec.Currency), PayerName: name, PayerIBAN: iban,
		})
		uids[a] = append(uids[a], o.UID)
	}
	accounts := make([]account, 0, len(byAccount))
	for a := range byAccount {
		accounts = append(accounts, a)
	}
	sort.Slice(accounts, func(i, j int) bool {
		return accounts[i].iban+accounts[i].currency < accounts[j].iban+accounts[j].currency
	})
	paid := 0
	for _, a := range accounts {
		b.seq++
		name, data, err := sandboxbank.Notification(a.iban, a.currency, byAccount[a], now, b.seq)
		if err != nil {
			return paid, fmt.Errorf("sandbox bank: %w", err)
		}
		if err := deliver(filepath.Join(b.Folder, "inbox"), name, data); err != nil {
			return paid, err
		}
		for _, uid := range uids[a] {
			b.paid[uid] = true
		}
		paid += len(byAccount[a])
		b.Log.WithName("sandbox-bank").Info("notified payments as a camt.054", "file", name, "payments", len(byAccount[a]))
	}
	return paid, nil
}

// Answer answers every pain.001 in the outbox released at least Delay ago and not
// answered yet by this process: a pain.002 that accepts its transfers (but those to
// RejectIBANs) and a camt.054 of their debits, into the inbox. It returns how many files
// it answered. After a restart it answers the files again with the same entries (see
// sandboxbank.Answer), which the ingestion takes for duplicates.
func (b *SandboxBank) Answer(ctx context.Context) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.answered == nil {
		b.answered = map[string]bool{}
	}
	outbox := filepath.Join(b.Folder, "outbox")
	entries, err := os.ReadDir(outbox)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sandbox bank: read the outbox: %w", err)
	}
	reject := map[string]bool{}
	for _, iban := range b.RejectIBANs {
		reject[validation.NormalizeIBAN(iban)] = true
	}
	now := b.now()
	answered := 0
	var holders map[string]string
	for _, e := range entries {
		name := e.Name()
		if b.answered[name] || e.IsDir() || !strings.HasPrefix(name, "pain001-") || !strings.HasSuffix(name, ".xml") {
			continue
		}
		if err := ctx.Err(); err != nil {
			return answered, err
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < b.Delay {
			continue
		}
		data, err := os.ReadFile(filepath.Join(outbox, name))
		if err != nil {
			return answered, fmt.Errorf("sandbox bank: %w", err)
		}
		batches, err := iso20022.ParsePain001(data)
		if err != nil {
			b.answered[name] = true
			b.Log.WithName("sandbox-bank").Info("the sandbox bank ignores a file of the outbox it cannot read", "file", name, "error", err.Error())
			continue
		}
		if b.VerifyPayees && holders == nil {
			if holders, err = b.holders(ctx); err != nil {
				return answered, err
			}
		}
		bank := sandboxbank.Bank{Holders: holders, RejectNoMatch: b.RejectNoMatch}
		for _, batch := range batches {
			b.seq++
			reportName, report, notifName, notif, err := bank.Answer(batch, func(t iso20022.Transfer) string {
				if reject[validation.NormalizeIBAN(t.CreditorIBAN)] {
					return "AC04"
				}
				return ""
			}, now, b.seq)
			if err != nil {
				return answered, fmt.Errorf("sandbox bank: %w", err)
			}
			inbox := filepath.Join(b.Folder, "inbox")
			if err := deliver(inbox, reportName, report); err != nil {
				return answered, err
			}
			if notifName != "" {
				if err := deliver(inbox, notifName, notif); err != nil {
					return answered, err
				}
			}
		}
		b.answered[name] = true
		answered++
		b.Log.WithName("sandbox-bank").Info("answered a pain.001 with a pain.002 and the debits", "file", name)
	}
	return answered, nil
}

// holders are the account holders of the IBANs the customers registered, as the sandbox
// bank knows them for its Verification of Payee (the first registration of an IBAN wins).
func (b *SandboxBank) holders(ctx context.Context) (map[string]string, error) {
	var list investv1.PaymentMethodDetailsList
	if err := b.Client.List(ctx, &list); err != nil {
		return nil, fmt.Errorf("sandbox bank: list the payment methods: %w", err)
	}
	holders := map[string]string{}
	for _, p := range list.Items {
		iban := validation.NormalizeIBAN(p.Spec.IBAN)
		if _, seen := holders[iban]; !seen && validation.ValidateIBAN(iban) == nil && strings.TrimSpace(p.Spec.AccountHolderName) != "" {
			holders[iban] = p.Spec.AccountHolderName
		}
	}
	return holders, nil
}

// payer is the holder and IBAN of the customer's bank account the order names, else the
// sandbox's own payer.
func (b *SandboxBank) payer(ctx context.Context, o *investv1.Order) (name, iban string, err error) {
	id := o.Spec.Quote.PaymentMethodDetailsID
	if id == "" {
		id = o.Spec.PaymentMethodDetailsID
	}
	if id == "" {
		return SandboxPayerName, SandboxPayerIBAN, nil
	}
	var p investv1.PaymentMethodDetails
	if err := b.Client.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: string(id)}, &p); err != nil {
		if client.IgnoreNotFound(err) == nil {
			return SandboxPayerName, SandboxPayerIBAN, nil
		}
		return "", "", fmt.Errorf("read the payment method of %s/%s: %w", o.Namespace, o.Name, err)
	}
	return p.Spec.AccountHolderName, validation.NormalizeIBAN(p.Spec.IBAN), nil
}

// The payer of a sandbox payment for an order that names no payment method of its
// customer: a customer may pay from any account; the RF reference names the order.
const (
	SandboxPayerName = "Sandbox payer"
	SandboxPayerIBAN = "NL91ABNA0417164300"
)

func (b *SandboxBank) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

// deliver puts a file into the inbox as a bank's transfer agent does: written under a
// temporary name the connector does not offer, synced, then renamed. name must be one
// path element; the inbox is opened as an os.Root, so nothing is written outside it.
func deliver(inbox, name string, data []byte) error {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return fmt.Errorf("deliver %q: not a plain file name", name)
	}
	if err := os.MkdirAll(inbox, 0o750); err != nil {
		return err
	}
	root, err := os.OpenRoot(inbox)
	if err != nil {
		return err
	}
	defer func() { _ = root.Close() }()
	tmp := "." + name + ".tmp"
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := root.Rename(tmp, name); err != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("deliver %s: %w", name, err)
	}
	return nil
}

// SetupSandbox adds the sandbox bank to the manager.
func SetupSandbox(mgr ctrl.Manager, b *SandboxBank) error {
	if b.Folder == "" {
		return errors.New("sandbox bank: no folder")
	}
	if b.Client == nil {
		b.Client = mgr.GetClient()
	}
	if b.Log.GetSink() == nil {
		b.Log = mgr.GetLogger()
	}
	return mgr.Add(b)
}
