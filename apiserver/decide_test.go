package apiserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/refusal"
)

// The pure decisions of the REST handlers, one table per rule; the handlers' I/O is
// covered by the envtest suite.

func TestDecideCancelRequestsOnceAndRefusesWhatCannotBeCancelled(t *testing.T) {
	order := func(side investv1.OrderSide, state investv1.OrderState, requested bool) *investv1.Order {
		o := &investv1.Order{Spec: investv1.OrderSpec{Side: side, CancellationRequested: requested}}
		o.Status.State = state
		return o
	}
	for name, tc := range map[string]struct {
		o          *investv1.Order
		want       cancelStep
		wantReason bool
	}{
		"a placed buy is requested":                       {order(investv1.SideBuy, investv1.StatePlaced, false), cancelRequest, false},
		"a paid buy is requested (with a refund)":         {order(investv1.SideBuy, investv1.StatePaymentReceived, false), cancelRequest, false},
		"a gated sell is requested":                       {order(investv1.SideSell, investv1.StateRedemptionGated, false), cancelRequest, false},
		"a cancellation requested before is not re-sent":  {order(investv1.SideBuy, investv1.StateAwaitingPayment, true), cancelRequested, false},
		"an executed buy is past the point of no return":  {order(investv1.SideBuy, investv1.StateExecuted, false), cancelRefuse, true},
		"a completed order is terminal":                   {order(investv1.SideSell, investv1.StateCompleted, false), cancelRefuse, true},
		"a cancelled order is terminal, requested or not": {order(investv1.SideBuy, investv1.StateCancelled, true), cancelRefuse, true},
		"a state of the other side cannot be cancelled":   {order(investv1.SideSell, investv1.StateAwaitingPayment, false), cancelRefuse, true},
	} {
		t.Run(name, func(t *testing.T) {
			got, reason := decideCancel(tc.o)
			if got != tc.want || (reason != "") != tc.wantReason {
				t.Errorf("decideCancel = %v, %q; want %v (reason: %v)", got, reason, tc.want, tc.wantReason)
			}
		})
	}
}

var (
	grOrders   = schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "orders"}
	grAccounts = schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "accounts"}
)

func TestCancelPatchFailedRetriesConflictsUntilTheLimit(t *testing.T) {
	executed := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: "o"}, Spec: investv1.OrderSpec{Side: investv1.SideBuy}}
	executed.Status.State = investv1.StateExecuted
	notCancellable := refusal.NotCancellable(executed, "the order was executed")
	conflict := apierrors.NewConflict(grOrders, "o", errors.New("the object has been modified"))
	for name, tc := range map[string]struct {
		err     error
		attempt int
		want    retryStep
	}{
		"a gone order is not found":                           {apierrors.NewNotFound(grOrders, "o"), 1, retryNotFound},
		"a conflict backs off and reads again":                {conflict, 1, retryBackOff},
		"a conflict on the last attempt gives up":             {conflict, maxWriteAttempts, retryGiveUp},
		"admission's past-the-point refusal re-reads at once": {notCancellable, 1, retryReread},
		"the last attempt gives up even then":                 {notCancellable, maxWriteAttempts, retryGiveUp},
		"any other error is answered as it is":                {apierrors.NewForbidden(grOrders, "o", errors.New("denied")), 1, retryFail},
		"a timeout is answered as it is":                      {apierrors.NewTimeoutError("slow", 1), 1, retryFail},
	} {
		t.Run(name, func(t *testing.T) {
			if got := cancelPatchFailed(tc.err, tc.attempt); got != tc.want {
				t.Errorf("cancelPatchFailed(%v, %d) = %v, want %v", tc.err, tc.attempt, got, tc.want)
			}
		})
	}
}

func TestAccountUpdateFailedNamesTheTakenExternalIDAndRetriesConflicts(t *testing.T) {
	duplicate := invalid("Account", "a", field.ErrorList{field.Duplicate(field.NewPath("spec", "externalID"), "cust-1")})
	otherDuplicate := invalid("Account", "a", field.ErrorList{field.Duplicate(field.NewPath("spec", "lei"), "x")})
	conflict := apierrors.NewConflict(grAccounts, "a", errors.New("the object has been modified"))
	for name, tc := range map[string]struct {
		err     error
		attempt int
		want    retryStep
	}{
		"an external_id taken meanwhile is a duplicate":             {duplicate, 1, retryDuplicate},
		"a duplicate of another field is answered as it is":         {otherDuplicate, 1, retryFail},
		"a conflict backs off and reads again":                      {conflict, 1, retryBackOff},
		"a conflict on the last attempt is answered as it is (409)": {conflict, maxWriteAttempts, retryFail},
		"a gone account is not found":                               {apierrors.NewNotFound(grAccounts, "a"), 1, retryNotFound},
		"any other error is answered as it is":                      {apierrors.NewForbidden(grAccounts, "a", errors.New("denied")), 1, retryFail},
	} {
		t.Run(name, func(t *testing.T) {
			if got := accountUpdateFailed(tc.err, tc.attempt); got != tc.want {
				t.Errorf("accountUpdateFailed(%v, %d) = %v, want %v", tc.err, tc.attempt, got, tc.want)
			}
		})
	}
}

func TestOrderListPageMergesNewestFirstCountsAnOrderOnceAndCursorsOnlyWhenMoreFollow(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	order := func(name string, minute int) investv1.Order {
		return investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: "t", Name: name, CreationTimestamp: metav1.NewTime(at.Add(time.Duration(minute) * time.Minute))}}
	}
	// Newest first, as liveOrders and archivedOrders return them; "c" is in both.
	live := []investv1.Order{order("e", 5), order("c", 3), order("a", 1)}
	archived := []investv1.Order{order("d", 4), order("c", 3), order("b", 2)}
	ids := func(l OrderList) []string {
		var out []string
		for _, item := range l.Data {
			out = append(out, item.ID)
		}
		return out
	}
	for name, tc := range map[string]struct {
		p          page
		want       []string
		wantCursor string // the id the cursor continues after; "" for none
	}{
		"the first page":                   {page{skip: 0, limit: 2}, []string{"e", "d"}, "d"},
		"skip within the merged sequence":  {page{skip: 2, limit: 2}, []string{"c", "b"}, "b"},
		"the last page has no cursor":      {page{skip: 3, limit: 2}, []string{"b", "a"}, ""},
		"everything on one page":           {page{skip: 0, limit: 10}, []string{"e", "d", "c", "b", "a"}, ""},
		"a skip past the end is empty, []": {page{skip: 9, limit: 2}, []string{}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			got := orderListPage(live, archived, tc.p)
			if got.Data == nil {
				t.Fatal("Data is nil: an empty page must be written as []")
			}
			if g := ids(got); !slices.Equal(g, tc.want) && !(len(g) == 0 && len(tc.want) == 0) {
				t.Errorf("page %+v = %v, want %v", tc.p, g, tc.want)
			}
			if tc.wantCursor == "" {
				if got.NextCursor != "" {
					t.Errorf("next_cursor %q on the last page", got.NextCursor)
				}
				return
			}
			pos, err := archive.DecodeCursor(got.NextCursor)
			if err != nil || pos.ID != tc.wantCursor {
				t.Errorf("next_cursor = %q (%+v, %v), want one after %s", got.NextCursor, pos, err, tc.wantCursor)
			}
		})
	}
}

func TestParseOrderListQueryNamesEveryBadParameter(t *testing.T) {
	for name, tc := range map[string]struct {
		query     string
		wantField []string
		check     func(t *testing.T, q orderListQuery)
	}{
		"no parameters: no filter, the first page of 100": {"", nil, func(t *testing.T, q orderListQuery) {
			if !q.filter.empty() || q.cursor != nil || q.page != (page{skip: 0, limit: defaultLimit}) {
				t.Errorf("got %+v", q)
			}
		}},
		"filters are read; the ISIN in any case": {"side=SELL&isin=lu000fsha019&account_id=123E4567-E89B-42D3-A456-426614174000", nil, func(t *testing.T, q orderListQuery) {
			want := orderFilter{side: "SELL", isin: "LU000FSHA019", accountID: "123e4567-e89b-42d3-a456-426614174000"}
			if q.filter != want {
				t.Errorf("filter %+v, want %+v", q.filter, want)
			}
		}},
		"a cursor this list returned is read": {"cursor=" + archive.EncodeCursor(archive.Position{Created: time.Unix(1, 0).UTC(), ID: "x"}), nil, func(t *testing.T, q orderListQuery) {
			if q.cursor == nil || q.cursor.ID != "x" {
				t.Errorf("cursor %+v", q.cursor)
			}
		}},
		"every bad parameter is named": {"side=HOLD&currency=eur&cursor=nope&limit=0&colour=red", []string{"side", "currency", "cursor", "limit", "colour"}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			q, fe := parseOrderListQuery(httptest.NewRequest("GET", "/v1/orders?"+tc.query, nil))
			var fields []string
			for f := range fe {
				fields = append(fields, f)
			}
			slices.Sort(fields)
			want := slices.Clone(tc.wantField)
			slices.Sort(want)
			if !slices.Equal(fields, want) {
				t.Errorf("fields with messages %v, want %v (%v)", fields, want, fe)
			}
			if tc.check != nil {
				tc.check(t, q)
			}
		})
	}
}

// Rule: a write refused by admission that is not ours (a platform's policy or webhook) is
// the caller's to read: 422 with its field causes, else 400 Request rejected quoting it;
// never 500. Reads are never refused by admission, so their errors stay 500. (The
// envtest suite refuses writes with a real ValidatingAdmissionPolicy: policy_test.go.)
func TestWriteAPIErrorAnswersRefusalsThatAreNotOurs(t *testing.T) {
	s, _, _ := newTestServer(t)
	withCauses := apierrors.NewForbidden(grAccounts, "a", errors.New("admission webhook \"kyc.platform.example\" denied the request: no"))
	withCauses.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.city", Message: "is not served"}}
	policyInvalid := invalid("Account", "a", nil)
	policyInvalid.ErrStatus.Message = "ValidatingAdmissionPolicy 'p' with binding 'p' denied request: no Atlantis"
	for name, tc := range map[string]struct {
		method   string
		err      error
		code     int
		body     ErrorResponse
		anything bool // details not compared (a request id)
	}{
		"a policy's Forbidden on a POST": {http.MethodPost, apierrors.NewForbidden(grAccounts, "a", errors.New("ValidatingAdmissionPolicy 'p' with binding 'p' denied request: no Mallory")),
			http.StatusBadRequest, ErrorResponse{Error: msgRejected, Details: `accounts.invest.fundshare.io "a" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'p' denied request: no Mallory`}, false},
		"a policy's Invalid without causes on a PATCH": {http.MethodPatch, policyInvalid,
			http.StatusBadRequest, ErrorResponse{Error: msgRejected, Details: "ValidatingAdmissionPolicy 'p' with binding 'p' denied request: no Atlantis"}, false},
		"a webhook's refusal naming a field": {http.MethodPatch, withCauses,
			http.StatusUnprocessableEntity, ErrorResponse{Error: msgValidation, Details: map[string]any{"city": []any{"is not served"}}}, false},
		"a RequestEntityTooLarge refusal on a DELETE": {http.MethodDelete, apierrors.NewRequestEntityTooLargeError("the policy limits the size"),
			http.StatusBadRequest, ErrorResponse{Error: msgRejected}, true},
		"our own refusal answers our message alone": {http.MethodPost, refusal.Forbidden("accounts", "a", errors.New("the account has live orders")),
			http.StatusBadRequest, ErrorResponse{Error: msgRejected}, true},
		"a Forbidden on a read stays ours (500)": {http.MethodGet, apierrors.NewForbidden(grAccounts, "a", errors.New("RBAC")),
			http.StatusInternalServerError, ErrorResponse{Error: msgInternal}, true},
	} {
		t.Run(name, func(t *testing.T) {
			w := httptest.NewRecorder()
			s.writeAPIError(w, httptest.NewRequest(tc.method, "/v1/accounts", nil), tc.err, nil)
			var got ErrorResponse
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("%d %s: %v", w.Code, w.Body, err)
			}
			if w.Code != tc.code || got.Error != tc.body.Error || !tc.anything && !reflect.DeepEqual(got.Details, tc.body.Details) {
				t.Errorf("%d %s, want %d %+v", w.Code, w.Body, tc.code, tc.body)
			}
		})
	}
}
