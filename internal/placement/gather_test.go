package placement

import (
	"context"
	"errors"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/scheme"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Gather is glue: these small tests use controller-runtime's fake client with the
// manager's indexes. Placement's behaviour against a real API server is tested by the
// order envtest suite (controllers/order) and the REST suite (apiserver).

// builderIndexer registers the manager's indexes on a fake client builder.
type builderIndexer struct{ b *fake.ClientBuilder }

func (bi builderIndexer) IndexField(_ context.Context, obj client.Object, field string, fn client.IndexerFunc) error {
	bi.b.WithIndex(obj, field, fn)
	return nil
}

func fakeReader(t *testing.T, funcs *interceptor.Funcs, objs ...client.Object) client.Client {
	t.Helper()
	b := fake.NewClientBuilder().WithScheme(scheme.New()).WithObjects(objs...)
	if err := index.Register(context.Background(), builderIndexer{b}); err != nil {
		t.Fatal(err)
	}
	if funcs != nil {
		b.WithInterceptorFuncs(*funcs)
	}
	return b.Build()
}

// world is placeable() as objects: the account on the API server, the rest in the cache,
// and a completed BUY of 100 units that the account holds.
func world() (order *investv1.Order, live, cache []client.Object) {
	in := placeable()
	h := in.NAVHistory.DeepCopy()
	h.Name = "ie00b4l5y983"
	bought := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Name: "bought", Namespace: "tenant"},
		Spec: investv1.OrderSpec{
			Side: investv1.SideBuy, Market: investv1.MarketPrimary, ISIN: isin, AmountOfUnits: 100, Currency: "EUR",
			AccountID: "acct", Quote: &investv1.OrderQuote{NAVPerShare: 1_000_000},
		},
		Status: investv1.OrderStatus{State: investv1.StateCompleted, History: []investv1.OrderTransition{
			{State: investv1.StateCompleted, At: metav1.NewTime(now.AddDate(-1, 0, 0))},
		}},
	}
	return in.Order, []client.Object{in.Account},
		[]client.Object{in.ShareClass, in.Fund, h, in.Wallet, in.PaymentMethodDetails, offering(25, nil, nil), bought}
}

func readers(t *testing.T, live, cache []client.Object) Readers {
	return Readers{Cache: fakeReader(t, nil, cache...), Live: fakeReader(t, nil, live...)}
}

func TestGatherReadsEverythingPlacementNeeds(t *testing.T) {
	o, live, cache := world()
	o.Spec.Side, o.Spec.CustomOfferingID = investv1.SideSell, "off1"
	in, err := Gather(context.Background(), readers(t, live, cache), o, now)
	if err != nil {
		t.Fatal(err)
	}
	for name, missing := range map[string]bool{
		"account": in.Account == nil, "share class": in.ShareClass == nil, "fund": in.Fund == nil,
		"NAV history": in.NAVHistory == nil, "custom offering": in.CustomOffering == nil,
		"wallet": in.Wallet == nil, "payment method details": in.PaymentMethodDetails == nil,
	} {
		if missing {
			t.Errorf("%s not gathered", name)
		}
	}
	if p := in.Positions[isin]; p == nil || p.Units != 100 {
		t.Errorf("positions %+v, want 100 units of %s", in.Positions, isin)
	}
	if in.Order != o || !in.Now.Equal(now) {
		t.Error("order or time not carried")
	}
}

func TestGatherReadsNoNAVForAForwardPricedOrder(t *testing.T) {
	o, live, cache := world()
	o.Spec.AmountOfUnits, o.Spec.Amount = 0, 10_000_000
	for _, obj := range cache {
		if sc, ok := obj.(*investv1.ShareClass); ok {
			sc.Spec.Dealing = &investv1.DealingTerms{Pricing: investv1.PricingForward}
		}
	}
	navRead := false
	c := fakeReader(t, &interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
		if _, ok := obj.(*investv1.NAVHistory); ok {
			navRead = true
		}
		return c.Get(ctx, key, obj, opts...)
	}}, cache...)
	in, err := Gather(context.Background(), Readers{Cache: c, Live: fakeReader(t, nil, live...)}, o, now)
	if err != nil || in.ShareClass == nil || in.Fund == nil {
		t.Fatalf("share class %v, fund %v, err %v", in.ShareClass != nil, in.Fund != nil, err)
	}
	if navRead || in.NAVHistory != nil {
		t.Fatal("a forward-priced order read the NAV history")
	}
	// The same order of a latest-priced class reads it.
	_, live, cache = world()
	navRead = false
	c = fakeReader(t, &interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
		if _, ok := obj.(*investv1.NAVHistory); ok {
			navRead = true
		}
		return c.Get(ctx, key, obj, opts...)
	}}, cache...)
	if _, err := Gather(context.Background(), Readers{Cache: c, Live: fakeReader(t, nil, live...)}, o, now); err != nil || !navRead {
		t.Fatalf("a latest-priced order: NAV read %v, err %v", navRead, err)
	}
}

func TestGatherReadsPositionsForSellsOnly(t *testing.T) {
	o, live, cache := world()
	in, err := Gather(context.Background(), readers(t, live, cache), o, now)
	if err != nil || in.Positions != nil {
		t.Fatalf("a buy: positions %v, err %v", in.Positions, err)
	}
}

func TestGatherReadsTheAccountFromTheAPIServer(t *testing.T) {
	o, live, cache := world()
	// The cache shows the account, the API server does not (any more): not found.
	in, err := Gather(context.Background(), Readers{Cache: fakeReader(t, nil, append(cache, live...)...), Live: fakeReader(t, nil)}, o, now)
	if err != nil || in.Account != nil || in.ShareClass != nil {
		t.Fatalf("account %v, share class %v, err %v: want nothing read past a missing account", in.Account, in.ShareClass, err)
	}
}

func TestGatherAsksTheAPIServerForWhatTheCacheDoesNotShowYet(t *testing.T) {
	o, live, cache := world()
	o.Spec.WalletID = "new"
	fresh := &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Name: "new", Namespace: "tenant"}, Spec: investv1.WalletSpec{AccountID: "acct"}}
	in, err := Gather(context.Background(), readers(t, append(live, fresh), cache), o, now)
	if err != nil || in.Wallet == nil || in.Wallet.Name != "new" {
		t.Fatalf("wallet %v, err %v: want the one only the API server shows", in.Wallet, err)
	}
}

func TestAnOrderForAShareClassTheCacheHasNotSeenYetIsGatheredFromTheAPIServer(t *testing.T) {
	o, live, cache := world()
	var lagging []client.Object // the cache has not seen the share class or its fund yet
	for _, obj := range cache {
		switch obj.(type) {
		case *investv1.ShareClass, *investv1.Fund:
			live = append(live, obj)
		default:
			lagging = append(lagging, obj)
		}
	}
	other := fixtures.ShareClass("fund1", "LU0274208692")
	in, err := Gather(context.Background(), Readers{Cache: fakeReader(t, nil, lagging...), Live: ctrltest.APIServer(t, append(live, other)...)}, o, now)
	if err != nil {
		t.Fatal(err)
	}
	if in.ShareClass == nil || in.ShareClass.Spec.ISIN != isin || in.Fund == nil || in.NAVHistory == nil {
		t.Fatalf("share class %+v, fund %v, NAV %v: want the class of %s and its fund from the API server", in.ShareClass, in.Fund != nil, in.NAVHistory != nil, isin)
	}
	if res := Decide(in); res.Err() != nil {
		t.Fatalf("refused: %v", res.Err())
	}
	// An ISIN neither knows is still not found.
	o.Spec.ISIN = other.Spec.ISIN
	in, err = Gather(context.Background(), Readers{Cache: fakeReader(t, nil, lagging...), Live: ctrltest.APIServer(t, live...)}, o, now)
	if err != nil || in.ShareClass != nil {
		t.Fatalf("share class %v, err %v: want none", in.ShareClass, err)
	}
	if res := Decide(in); res.NotFound == nil {
		t.Fatalf("an unknown ISIN: %+v, want not found", res)
	}
}

func TestGatherStopsAtAMissingShareClassOrFund(t *testing.T) {
	for name, drop := range map[string]string{"share class": "sc1", "fund": "fund1"} {
		t.Run(name, func(t *testing.T) {
			o, live, cache := world()
			var kept []client.Object
			for _, obj := range cache {
				if obj.GetName() != drop {
					kept = append(kept, obj)
				}
			}
			in, err := Gather(context.Background(), readers(t, live, kept), o, now)
			if err != nil || in.Fund != nil || in.NAVHistory != nil || in.Wallet != nil {
				t.Fatalf("fund %v, NAV %v, wallet %v, err %v", in.Fund, in.NAVHistory, in.Wallet, err)
			}
		})
	}
}

func TestGatherReturnsAFailedReadAsAnError(t *testing.T) {
	o, live, cache := world()
	boom := errors.New("etcdserver: request timed out")
	failing := fakeReader(t, &interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
		if _, ok := obj.(*investv1.Wallet); ok {
			return boom
		}
		return c.Get(ctx, key, obj, opts...)
	}}, cache...)
	if _, err := Place(context.Background(), Readers{Cache: failing, Live: fakeReader(t, nil, live...)}, o, now); !errors.Is(err, boom) {
		t.Fatalf("err %v, want %v", err, boom)
	}
}

func TestPlaceIsGatherThenDecide(t *testing.T) {
	for name, mod := range map[string]func(o *investv1.Order){
		"placeable":           func(*investv1.Order) {},
		"unknown account":     func(o *investv1.Order) { o.Spec.AccountID = "nobody" },
		"unknown ISIN":        func(o *investv1.Order) { o.Spec.ISIN = otherISIN },
		"wrong currency":      func(o *investv1.Order) { o.Spec.Currency = "USD" },
		"offering":            func(o *investv1.Order) { o.Spec.CustomOfferingID = "off1" },
		"sell of too many":    func(o *investv1.Order) { o.Spec.Side, o.Spec.AmountOfUnits = investv1.SideSell, 101 },
		"sell of what's held": func(o *investv1.Order) { o.Spec.Side, o.Spec.AmountOfUnits = investv1.SideSell, 100 },
	} {
		t.Run(name, func(t *testing.T) {
			o, live, cache := world()
			mod(o)
			r := readers(t, live, cache)
			got, err := Place(context.Background(), r, o, now)
			if err != nil {
				t.Fatal(err)
			}
			in, err := Gather(context.Background(), r, o, now)
			if err != nil {
				t.Fatal(err)
			}
			if want := Decide(in); !reflect.DeepEqual(got, want) {
				t.Fatalf("Place %+v, Decide(Gather) %+v", got, want)
			}
		})
	}
}

// TestPlaceAnswers pins Place's answers end to end through the readers (the same
// answers as before placement was split into Gather and Decide).
func TestPlaceAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(o *investv1.Order)
		want func(t *testing.T, res Result)
	}{
		{"placeable", func(*investv1.Order) {}, func(t *testing.T, res Result) {
			if q := placed(t, res); q.GrossValue != 40_000_000 || q.FeeAmount != 200_000 || q.WalletID != "w1" || q.PaymentMethodDetailsID != "p1" {
				t.Fatalf("quote %+v", q)
			}
		}},
		{"unknown account", func(o *investv1.Order) { o.Spec.AccountID = "nobody" }, func(t *testing.T, res Result) {
			notFound(t, res, NotFoundError{Resource: "Account", ID: "nobody", Field: "account_id"})
		}},
		{"invalid ISIN", func(o *investv1.Order) { o.Spec.ISIN = "XX" }, func(t *testing.T, res Result) {
			if _, ok := res.Fields["isin"]; !ok || len(res.Fields) != 1 {
				t.Fatalf("fields %v", res.Fields)
			}
		}},
		{"unknown ISIN", func(o *investv1.Order) { o.Spec.ISIN = otherISIN }, func(t *testing.T, res Result) {
			notFound(t, res, NotFoundError{Resource: "Share class", ID: string(otherISIN), Field: "isin"})
		}},
		{"offering", func(o *investv1.Order) { o.Spec.CustomOfferingID = "off1" }, func(t *testing.T, res Result) {
			if q := placed(t, res); q.FeeSource != investv1.FeeSourceOffering || q.FeeRate != 25 {
				t.Fatalf("quote %+v", q)
			}
		}},
		{"unknown offering and wallet", func(o *investv1.Order) { o.Spec.CustomOfferingID, o.Spec.WalletID = "nope", "nope" }, func(t *testing.T, res Result) {
			refusedOn(t, res, validation.FieldErrors{"custom_offering_id": {"no custom offering with this id exists"}, "wallet_id": {"does not exist"}})
		}},
		{"sell of too many", func(o *investv1.Order) { o.Spec.Side, o.Spec.AmountOfUnits = investv1.SideSell, 101 }, func(t *testing.T, res Result) {
			refusedByRule(t, res, RuleError{Code: "Insufficient holdings", Message: "101 units of IE00B4L5Y983 requested, 100 held and not reserved", Field: "amount_of_units"})
		}},
		{"sell of what's held", func(o *investv1.Order) { o.Spec.Side, o.Spec.AmountOfUnits = investv1.SideSell, 100 }, func(t *testing.T, res Result) {
			if q := placed(t, res); q.FeeRate != 100 || q.PaymentDetails != nil {
				t.Fatalf("quote %+v", q)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, live, cache := world()
			tc.mod(o)
			res, err := Place(context.Background(), readers(t, live, cache), o, now)
			if err != nil {
				t.Fatal(err)
			}
			tc.want(t, res)
		})
	}
}
