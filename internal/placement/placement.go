// Package placement prices an order and checks it at placement, for the order admission
// webhook (kubectl) and POST /v1/orders (REST) alike: the account, share class, fund,
// wallet and payment method exist in the tenant and belong to the account; the currency
// is the share class's; a PRIMARY SELL needs a redeemable fund and enough unlocked units;
// the quote comes from the latest NAV with integer money (internal/money).
//
// Place is Gather, which does every read into an Input, then Decide, a pure function of
// that Input, so that each rule is table-tested without an API server (like lifecycle.Next).
package placement

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// NotFoundError says that the order names an account or share class that does not exist
// (REST answers 404 "<Resource> not found").
type NotFoundError struct {
	Resource string // "Account" or "Share class"
	ID       string
	Field    string // the REST field that named it
}

func (e *NotFoundError) Error() string { return e.Resource + " not found: " + e.ID }

// RuleError is a business rule refusing the order (REST answers 400).
type RuleError struct {
	Code    string // short: "Insufficient holdings", "Shares locked", "Fund not redeemable"
	Message string
	Field   string // the REST field it is about
}

func (e *RuleError) Error() string { return e.Code + ": " + e.Message }

// CodeNotRedeemable refuses a PRIMARY SELL of a fund that is not redeemable.
const CodeNotRedeemable = "Fund not redeemable"

// CodeNotTradeable refuses a SECONDARY order of a fund that is not tradeable.
const CodeNotTradeable = "Fund not tradeable"

// Readers are where placement reads: the cache, and the API server for objects the cache
// may not show yet (created a moment ago).
type Readers struct {
	Cache client.Reader
	Live  client.Reader
	// Archive holds the orders that left the cluster; a sell's holdings count them. Nil:
	// no archive.
	Archive history.Archive
}

func (r Readers) live() client.Reader {
	if r.Live != nil {
		return r.Live
	}
	return r.Cache
}

func (r Readers) get(ctx context.Context, key client.ObjectKey, obj client.Object) error {
	err := r.Cache.Get(ctx, key, obj)
	if apierrors.IsNotFound(err) && r.Live != nil {
		err = r.Live.Get(ctx, key, obj)
	}
	return err
}

// Result is a priced order, or why it cannot be placed: field errors (422), a not-found
// reference (404) or a business rule (400).
type Result struct {
	Quote    *investv1.OrderQuote
	Fields   validation.FieldErrors
	NotFound *NotFoundError
	Rule     *RuleError
}

// Err folds the refusal into one error, nil when the order can be placed.
func (r Result) Err() error {
	switch {
	case r.NotFound != nil:
		return r.NotFound
	case !r.Fields.Empty():
		return fieldsError(r.Fields)
	case r.Rule != nil:
		return r.Rule
	}
	return nil
}

type fieldsError validation.FieldErrors

func (f fieldsError) Error() string {
	var parts []string
	for k, msgs := range f {
		parts = append(parts, k+": "+strings.Join(msgs, "; "))
	}
	return strings.Join(parts, ", ")
}

// PaymentReference is the reference a buyer quotes in the transfer, as SEPA's structured
// creditor reference (RmtInf/Strd/CdtrRefInf/Ref): an ISO 11649 RF reference, "RF", two
// mod-97 check digits and a payload of 20 digits, the first 16 hex digits of the order's
// UUID written in decimal (zero-padded), 24 characters in all. It is unique to the order
// as its UUID's first 64 bits are, every mistyped digit or swapped pair of neighbours is
// caught by the check digits, and the payload has no letters (a letter mistyped for a
// digit can slip past the check: the reference avoids them). An order name that is not a
// UUID gives the first 64 bits of its SHA-256 instead.
func PaymentReference(orderName string) string {
	digits := strings.ReplaceAll(orderName, "-", "")
	var n uint64
	var err error
	if len(digits) >= 16 {
		n, err = strconv.ParseUint(digits[:16], 16, 64)
	}
	if len(digits) < 16 || err != nil {
		sum := sha256.Sum256([]byte(orderName))
		n = binary.BigEndian.Uint64(sum[:8])
	}
	ref, err := rf.New(fmt.Sprintf("%020d", n))
	if err != nil {
		panic("placement: 20 digits are an RF payload: " + err.Error()) // cannot happen
	}
	return ref
}

// Place checks the order and prices it at now: Gather reads, Decide decides. A non-nil
// error is an internal failure.
func Place(ctx context.Context, r Readers, o *investv1.Order, now time.Time) (Result, error) {
	in, err := Gather(ctx, r, o, now)
	if err != nil {
		return Result{}, err
	}
	return Decide(in), nil
}

// Latest is the newest price of a history, or nil.
func Latest(h *investv1.NAVHistory) *investv1.NAVPrice {
	var latest *investv1.NAVPrice
	for i := range h.Spec.Prices {
		if latest == nil || h.Spec.Prices[i].Date > latest.Date {
			latest = &h.Spec.Prices[i]
		}
	}
	return latest
}

// IsRefusal reports whether err is a refusal of the order rather than an internal error.
func IsRefusal(err error) bool {
	var nf *NotFoundError
	var re *RuleError
	var fe fieldsError
	return errors.As(err, &nf) || errors.As(err, &re) || errors.As(err, &fe)
}
