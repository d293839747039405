package apiserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Strict input (issue 24): a repeated key is refused at any depth, a charset other than
// UTF-8 is refused, and an order answers the wallet and payment method it was placed with.

// decodeAs runs decodeBody on body sent with contentType into a fresh T.
func decodeAs[T any](t *testing.T, contentType, body string) (*httptest.ResponseRecorder, validation.FieldErrors, bool) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	fe, ok := decodeBody(w, r, new(T), nil)
	return w, fe, ok
}

// errorBody decodes the error body of a refusal.
func errorBody(t *testing.T, w *httptest.ResponseRecorder) (short string, details any) {
	t.Helper()
	var body ErrorResponse
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body %s: %v", w.Body, err)
	}
	return body.Error, body.Details
}

func TestDuplicateKeyIsRefusedWith400NamingTheKeyAndItsPathAtAnyDepth(t *testing.T) {
	cases := []struct {
		name, body string
		want       map[string][]string
	}{
		{"top level", `{"side":"BUY","amount":1,"amount":2}`,
			map[string][]string{"amount": {`duplicate key "amount"`}}},
		{"top level, null first", `{"wallet_id":null,"wallet_id":"123e4567-e89b-42d3-a456-426614174000"}`,
			map[string][]string{"wallet_id": {`duplicate key "wallet_id"`}}},
		{"the same key spelled with an escape", `{"isin":"A","\u0069sin":"B"}`,
			map[string][]string{"isin": {`duplicate key "isin"`}}},
		{"nested object", `{"beneficiary":{"iban":"DE1","name":"x","iban":"DE2"}}`,
			map[string][]string{"beneficiary.iban": {`duplicate key "iban"`}}},
		{"object in an array", `{"items":[{"a":1},{"b":1,"c":[true,{"iban":1,"iban":2}]}]}`,
			map[string][]string{"items[1].c[1].iban": {`duplicate key "iban"`}}},
		{"named once however often repeated, every key named", `{"a":1,"a":2,"a":3,"b":{"c":1,"c":2}}`,
			map[string][]string{"a": {`duplicate key "a"`}, "b.c": {`duplicate key "c"`}}},
		{"an object of more keys than are compared one by one", `{` + manyKeys(40) + `,"k7":0}`,
			map[string][]string{"k7": {`duplicate key "k7"`}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, _, ok := decodeAs[OrderCreateRequest](t, "application/json", tc.body)
			if ok {
				t.Fatal("accepted")
			}
			if w.Code != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %s", w.Code, w.Body)
			}
			short, details := errorBody(t, w)
			if short != msgMalformedJSON {
				t.Fatalf("error %q", short)
			}
			got := map[string][]string{}
			raw, _ := json.Marshal(details)
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatalf("details are not field → messages: %s", w.Body)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("details %v, want %v", got, tc.want)
			}
		})
	}
}

// manyKeys is n members "k0":0 … of an object.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	return b.String()
}

func TestDuplicateKeyCheckLeavesBodiesWithoutRepeatedKeysAlone(t *testing.T) {
	for _, body := range []string{
		`{"side":"BUY","market":"PRIMARY","isin":"LU000FSHA019","amount_of_units":100,"currency":"EUR","account_id":"123e4567-e89b-42d3-a456-426614174000"}`,
		// The same key in sibling objects, in an object and its parent, and as a value.
		`{"a":{"x":1},"b":{"x":1},"x":{"x":"x"},"l":[{"x":1},{"x":2}]}`,
		`{}`, `{"e":{},"f":[]}`,
	} {
		if fe := duplicateKeys([]byte(body)); fe != nil {
			t.Errorf("%s: %v", body, fe)
		}
	}
	// Not an object, or not JSON: nothing here; the decoding reports it as before.
	for _, body := range []string{`[]`, `null`, `"a"`, `{"a":`, `{"a":1,"a"`, "\xff"} {
		if fe := duplicateKeys([]byte(body)); fe != nil {
			t.Errorf("%q: %v", body, fe)
		}
		w, _, ok := decodeAs[WalletCreateRequest](t, "application/json", body)
		if ok || w.Code != http.StatusBadRequest || strings.Contains(w.Body.String(), "duplicate") {
			t.Errorf("%q: %d %s", body, w.Code, w.Body)
		}
	}
}

func TestDuplicateKeyRefusalNeverGrowsWithTheBody(t *testing.T) {
	long := strings.Repeat("k", 5000)
	// A long key, deep in a long path, in an object repeating many keys.
	var b strings.Builder
	b.WriteString(`{"` + long + `":{"` + long + `":{`)
	for i := range 50 {
		b.WriteString(`"` + long + strconv.Itoa(i) + `":1,"` + long + strconv.Itoa(i) + `":2,`)
	}
	b.WriteString(`"z":0}}}`)
	w, _, ok := decodeAs[OrderCreateRequest](t, "application/json", b.String())
	if ok || w.Code != http.StatusBadRequest {
		t.Fatalf("status %d", w.Code)
	}
	_, details := errorBody(t, w)
	fields, _ := details.(map[string]any)
	if len(fields) != maxDuplicatesReported {
		t.Fatalf("%d keys named, want %d", len(fields), maxDuplicatesReported)
	}
	for path, msgs := range fields {
		if len(path) > maxPathEchoed+len("…") || !strings.HasPrefix(path, "…") {
			t.Fatalf("path of %d bytes: %.80s", len(path), path)
		}
		if m := msgs.([]any)[0].(string); len(m) > 100 || !strings.HasPrefix(m, `duplicate key "kkk`) {
			t.Fatalf("message %q", m)
		}
	}
	if w.Body.Len() > 4000 {
		t.Fatalf("answer of %d bytes", w.Body.Len())
	}
}

func TestDecodeBodyRefusesACharsetOtherThanUTF8With415(t *testing.T) {
	for _, ct := range []string{
		"application/json; charset=iso-8859-1", "application/json; charset=utf-16", "application/json;charset=\"latin1\"",
		"application/json; charset=utf8", "application/merge-patch+json; charset=windows-1252",
	} {
		t.Run(ct, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPatch, "/", strings.NewReader(`{}`))
			r.Header.Set("Content-Type", ct)
			w := httptest.NewRecorder()
			if _, ok := decodeBody(w, r, new(WalletUpdateRequest), nil, "application/json", "application/merge-patch+json"); ok {
				t.Fatal("accepted")
			}
			if w.Code != http.StatusUnsupportedMediaType {
				t.Fatalf("status %d, want 415", w.Code)
			}
			short, details := errorBody(t, w)
			msg, _ := details.(string)
			if short != msgUnsupportedMedia || !strings.Contains(msg, "only utf-8 is accepted") || !strings.Contains(msg, `charset "`) {
				t.Fatalf("error body %s", w.Body)
			}
		})
	}
	for _, ct := range []string{
		"application/json", "application/json; charset=utf-8", "application/json; charset=UTF-8",
		`application/json; charset="utf-8"`, "application/json;charset=Utf-8", "APPLICATION/JSON; CHARSET=UTF-8",
	} {
		t.Run(ct, func(t *testing.T) {
			w, fe, ok := decodeAs[WalletCreateRequest](t, ct, `{"chain":"polygon"}`)
			if !ok || fe != nil {
				t.Fatalf("refused: %d %s %v", w.Code, w.Body, fe)
			}
		})
	}
	// The charset is quoted back short.
	w, _, _ := decodeAs[WalletCreateRequest](t, "application/json; charset="+strings.Repeat("x", 500), `{}`)
	if w.Code != http.StatusUnsupportedMediaType || w.Body.Len() > 300 {
		t.Fatalf("%d, %d bytes", w.Code, w.Body.Len())
	}
}

func TestOrderAnswersShowTheWalletAndPaymentMethodResolvedAtPlacement(t *testing.T) {
	const named, resolved, pmd = "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"
	order := func(state investv1.OrderState, specWallet, quoteWallet, quotePMD string, quoted bool) *investv1.Order {
		o := viewOrder(investv1.SideBuy, 3, 0, false)
		o.CreationTimestamp = metav1.Now()
		o.Spec.WalletID = investv1.ObjectID(specWallet)
		o.Status.State = state
		if quoted {
			o.Spec.Quote.WalletID, o.Spec.Quote.PaymentMethodDetailsID = investv1.ObjectID(quoteWallet), investv1.ObjectID(quotePMD)
		} else {
			o.Spec.Quote = nil
		}
		return o
	}
	orNull := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	cases := []struct {
		name           string
		o              *investv1.Order
		wallet, method string
	}{
		{"placed with kubectl: nothing named, the primaries resolved", order(investv1.StateAwaitingPayment, "", resolved, pmd, true), resolved, pmd},
		{"named by the client, recorded at placement", order(investv1.StateAwaitingPayment, named, named, "", true), named, ""},
		{"completed", order(investv1.StateCompleted, "", resolved, pmd, true), resolved, pmd},
		{"cancelled", order(investv1.StateCancelled, named, named, pmd, true), named, pmd},
		{"never quoted: what the client named", order(investv1.StateCancelled, named, "", "", false), named, ""},
		{"never quoted, nothing named: null", order(investv1.StateCancelled, "", "", "", false), "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for name, view := range map[string]map[string]any{"order": asJSON(t, orderView(tc.o)), "list item": asJSON(t, orderListItemView(tc.o))} {
				if view["wallet_id"] != orNull(tc.wallet) || view["payment_method_details_id"] != orNull(tc.method) {
					t.Errorf("%s: wallet_id %v, payment_method_details_id %v; want %v, %v", name,
						view["wallet_id"], view["payment_method_details_id"], orNull(tc.wallet), orNull(tc.method))
				}
				if _, ok := view["wallet_id"]; !ok {
					t.Errorf("%s has no wallet_id", name)
				}
				if _, ok := view["payment_method_details_id"]; !ok {
					t.Errorf("%s has no payment_method_details_id", name)
				}
			}
		})
	}
}

// A typical order body (the quick start's, with a named wallet).
const benchOrderBody = `{"side":"BUY","market":"PRIMARY","isin":"LU000FSHA019","amount_of_units":100,"currency":"EUR",` +
	`"account_id":"e0a82c69-2819-556a-a0eb-1c538e2f4cc6","wallet_id":"57f7eea3-e792-525e-997e-1c4decc32589"}`

// BenchmarkDecodeOrderBody compares decoding an order body without the repeated-key
// check (decodeFields alone), with it (what decodeBody does), the check alone, and the
// whole of decodeBody (content type, reading the body) for scale.
func BenchmarkDecodeOrderBody(b *testing.B) {
	body := []byte(benchOrderBody)
	w := httptest.NewRecorder()
	b.Run("without-check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeFields(w, body, new(OrderCreateRequest), nil); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("with-check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if duplicateKeys(body) != nil {
				b.Fatal("duplicates")
			}
			if _, ok := decodeFields(w, body, new(OrderCreateRequest), nil); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("check-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if duplicateKeys(body) != nil {
				b.Fatal("duplicates")
			}
		}
	})
	b.Run("decodeBody", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPost, "/v1/orders", strings.NewReader(benchOrderBody))
			r.Header.Set("Content-Type", "application/json")
			if _, ok := decodeBody(w, r, new(OrderCreateRequest), nil); !ok {
				b.Fatal("refused")
			}
		}
	})
}
