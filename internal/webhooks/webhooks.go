// Package webhooks holds the admission webhooks: defaulting (canonical forms) and
// validation with field-level errors for kubectl and GitOps users, using the same rules
// (internal/rules) as the REST facade. Reads go to the manager's cache; an object that the
// cache does not show yet is looked up once more on the API server, since GitOps tools
// apply an account and its wallets in one go.
package webhooks

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/fundshare/fundshare-operator/internal/notify/egress"

	"github.com/ethereum/go-ethereum"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/tenant"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// reader finds objects in the cache first and on the API server when the cache does not
// have them yet.
type reader struct {
	cache client.Reader
	live  client.Reader
	// archive holds the orders that left the cluster (holdings count them); nil: none.
	archive history.Archive
	// chain reads the share tokens' balances (a wallet's deletion); nil: no chain.
	chain   ethereum.ContractCaller
	chainID int64
	// now is the clock of order admission; nil: time.Now.
	now func() time.Time
	// egress are the rules of webhook endpoint URLs.
	egress egress.Options
}

// tenant is r for the lookups of internal/tenant.
func (r reader) tenant() tenant.Readers { return tenant.Readers{Cache: r.cache, Live: r.live} }

// Option configures Setup.
type Option func(*reader)

// WithClock sets the clock order admission reads (a forward order's dealing date and
// cut-off); default time.Now.
func WithClock(now func() time.Time) Option { return func(r *reader) { r.now = now } }

// WithArchive makes the checks that need an account's holdings (a sell's placement, an
// account's deletion) count its archived orders too.
func WithArchive(a history.Archive) Option { return func(r *reader) { r.archive = a } }

// WithChain makes the wallet webhook read the share tokens on chain chainID through c: a
// wallet that holds units of any share class's token there cannot be deleted.
func WithChain(c ethereum.ContractCaller, chainID int64) Option {
	return func(r *reader) { r.chain, r.chainID = c, chainID }
}

// WithEgress sets the rules of webhook endpoint URLs (egress.Options.AllowLoopbackHTTP for
// make run and tests); the default allows https to public addresses only.
func WithEgress(o egress.Options) Option { return func(r *reader) { r.egress = o } }

// Setup registers every webhook with the manager's webhook server. claimNamespace holds
// the cluster-wide uniqueness claims (client ids): the operator's namespace, or
// DefaultClaimNamespace when empty.
func Setup(mgr ctrl.Manager, claimNamespace string, opts ...Option) error {
	if claimNamespace == "" {
		claimNamespace = DefaultClaimNamespace
	}
	r := reader{cache: mgr.GetClient(), live: mgr.GetAPIReader()}
	for _, o := range opts {
		o(&r)
	}
	mgr.GetWebhookServer().Register(TenancyPath, &admission.Webhook{Handler: &tenancyWebhook{r: r}})
	mgr.GetWebhookServer().Register(OrderStatusPath, admission.WithValidator[*investv1.Order](mgr.GetScheme(), orderStatusWebhook{}))
	a := &accountWebhook{r: r, c: mgr.GetClient()}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.Account{}).WithDefaulter(a).WithValidator(a).Complete(); err != nil {
		return err
	}
	w := &walletWebhook{r: r, c: mgr.GetClient()}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.Wallet{}).WithDefaulter(w).WithValidator(w).Complete(); err != nil {
		return err
	}
	p := &paymentMethodWebhook{r}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.PaymentMethodDetails{}).WithDefaulter(p).WithValidator(p).Complete(); err != nil {
		return err
	}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.ShareClass{}).WithValidator(&shareClassWebhook{r}).Complete(); err != nil {
		return err
	}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.NAVHistory{}).WithValidator(&navHistoryWebhook{r}).Complete(); err != nil {
		return err
	}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.ApiClient{}).WithValidator(&apiClientWebhook{r: r, c: mgr.GetClient(), claimNamespace: claimNamespace}).Complete(); err != nil {
		return err
	}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.WalletRecovery{}).WithValidator(&walletRecoveryWebhook{r}).Complete(); err != nil {
		return err
	}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.WebhookEndpoint{}).WithValidator(&webhookEndpointWebhook{r}).Complete(); err != nil {
		return err
	}
	if err := ctrl.NewWebhookManagedBy(mgr, &investv1.BankDecision{}).WithDefaulter(bankDecisionWebhook{}).Complete(); err != nil {
		return err
	}
	now := r.now
	if now == nil {
		now = time.Now
	}
	o := &orderWebhook{r: r, now: now}
	return ctrl.NewWebhookManagedBy(mgr, &investv1.Order{}).WithDefaulter(o).WithValidator(o).Complete()
}

func invalid(kind, name string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(investv1.GroupVersion.WithKind(kind).GroupKind(), name, errs)
}

// accountExists adds a NotFound cause on spec.accountID when the owning account is not
// an account of the namespace (tenant.Account, the lookup REST uses too).
func accountExists(ctx context.Context, r reader, namespace string, id investv1.ObjectID, errs *field.ErrorList) error {
	if id == "" {
		return nil
	}
	_, err := tenant.Account(ctx, r.tenant(), namespace, string(id))
	switch {
	case tenant.IsAccountNotFound(err):
		*errs = append(*errs, field.NotFound(field.NewPath("spec", "accountID"), string(id)))
	case err != nil:
		return err
	}
	return nil
}

// liveOrders lists the non-terminal orders whose index value (key) matches, for deletion
// protection. The cache may not show an order placed a moment ago, so when it shows none
// the API server is asked (confirmedOrders): a deletion must never get past an order the
// cache has not seen yet.
func liveOrders(ctx context.Context, r reader, namespace, indexName string, key func(*investv1.Order) string, value string) ([]string, error) {
	var list investv1.OrderList
	if err := r.cache.List(ctx, &list, client.InNamespace(namespace), client.MatchingFields{indexName: value}); err != nil {
		return nil, err
	}
	names := liveNames(list.Items)
	if len(names) > 0 {
		return names, nil
	}
	items, err := confirmedOrders(ctx, r, namespace, func(o *investv1.Order) bool { return key(o) == value })
	if err != nil {
		return nil, err
	}
	return liveNames(items), nil
}

func liveNames(orders []investv1.Order) []string {
	var names []string
	for i := range orders {
		if !orders[i].Status.State.Terminal() {
			names = append(names, fmt.Sprintf("%s (%s)", orders[i].Name, stateOf(&orders[i])))
		}
	}
	return names
}

// confirmPageSize bounds each page of confirmedOrders' list.
const confirmPageSize = 500

// confirmedOrders reads the namespace's orders that match from the API server (a
// consistent list, page by page), for the deletion checks that the cache allowed. Only
// deletions pay for it, and only when the cache found nothing to refuse them for.
func confirmedOrders(ctx context.Context, r reader, namespace string, match func(*investv1.Order) bool) ([]investv1.Order, error) {
	if r.live == nil {
		return nil, nil
	}
	var out []investv1.Order
	opts := []client.ListOption{client.InNamespace(namespace), client.Limit(confirmPageSize)}
	for {
		var page investv1.OrderList
		if err := r.live.List(ctx, &page, opts...); err != nil {
			return nil, err
		}
		for i := range page.Items {
			if match(&page.Items[i]) {
				out = append(out, page.Items[i])
			}
		}
		if page.Continue == "" {
			return out, nil
		}
		opts = []client.ListOption{client.InNamespace(namespace), client.Limit(confirmPageSize), client.Continue(page.Continue)}
	}
}

func stateOf(o *investv1.Order) investv1.OrderState {
	if o.Status.State == "" {
		return investv1.StatePlaced
	}
	return o.Status.State
}

// refuseDeletion answers a deletion of an object that live orders refer to.
func refuseDeletion(resource, name string, orders []string) error {
	if len(orders) == 0 {
		return nil
	}
	const shown = 5
	more := ""
	if len(orders) > shown {
		more = fmt.Sprintf(" and %d more", len(orders)-shown)
		orders = orders[:shown]
	}
	return refusal.Forbidden(resource, name,
		fmt.Errorf("it is used by order %s%s, which is not terminal; cancel or complete the order first", strings.Join(orders, ", "), more))
}

func fromRules(fe validation.FieldErrors) field.ErrorList { return rules.ToFieldErrors(fe) }
