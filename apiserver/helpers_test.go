package apiserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

func TestDecodeBodyNamesEveryUnknownFieldAndWrongType(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(
		`{"chain":"polygon","wallet_address":42,"is_primary":"yes","colour":"red","size":1}`))
	r.Header.Set("Content-Type", "application/json; charset=utf-8")
	w := httptest.NewRecorder()
	var req WalletCreateRequest
	fe, ok := decodeBody(w, r, &req, nil)
	if !ok {
		t.Fatalf("refused: %d %s", w.Code, w.Body)
	}
	want := validation.FieldErrors{
		"wallet_address": {"must be a string"},
		"is_primary":     {"must be a boolean"},
		"colour":         {"is not a known field"},
		"size":           {"is not a known field"},
	}
	if !reflect.DeepEqual(fe, want) {
		t.Fatalf("fe = %v, want %v", fe, want)
	}
	if deref(req.Chain) != "polygon" {
		t.Fatalf("chain = %v", req.Chain)
	}
}

func TestDecodeBodyRefusals(t *testing.T) {
	cases := []struct {
		name, contentType, body string
		status                  int
	}{
		{"no content type", "", `{}`, http.StatusUnsupportedMediaType},
		{"form", "application/x-www-form-urlencoded", `a=b`, http.StatusUnsupportedMediaType},
		{"empty", "application/json", ``, http.StatusBadRequest},
		{"syntax", "application/json", `{"a":`, http.StatusBadRequest},
		{"array", "application/json", `[]`, http.StatusBadRequest},
		{"null", "application/json", `null`, http.StatusBadRequest},
		{"trailing", "application/json", `{} {}`, http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			if tc.contentType != "" {
				r.Header.Set("Content-Type", tc.contentType)
			}
			w := httptest.NewRecorder()
			var req WalletCreateRequest
			if _, ok := decodeBody(w, r, &req, nil); ok {
				t.Fatal("accepted")
			}
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d", w.Code, tc.status)
			}
			var body ErrorResponse
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error == "" || body.Details == nil {
				t.Fatalf("error body %s", w.Body)
			}
		})
	}
}

func TestQueryNeverClampsSilently(t *testing.T) {
	cases := map[string]validation.FieldErrors{
		"":                         nil,
		"skip=0&limit=1":           nil,
		"limit=1000":               nil,
		"skip=-1":                  {"skip": {"must be at least 0"}},
		"limit=0":                  {"limit": {"must be between 1 and 1000"}},
		"limit=1001":               {"limit": {"must be between 1 and 1000"}},
		"limit=ten":                {"limit": {"must be an integer"}},
		"skip=1&skip=2":            {"skip": {"must be given at most once"}},
		"page=2":                   {"page": {"is not a known query parameter"}},
		"skip=-1&limit=5000&foo=1": {"skip": {"must be at least 0"}, "limit": {"must be between 1 and 1000"}, "foo": {"is not a known query parameter"}},
	}
	for raw, want := range cases {
		r := httptest.NewRequest(http.MethodGet, "/?"+raw, nil)
		q := parseQuery(r, pageParams...)
		p := q.page()
		if !reflect.DeepEqual(q.fe, want) {
			t.Errorf("%q: fe = %v, want %v", raw, q.fe, want)
		}
		if raw == "" && (p.skip != 0 || p.limit != 100) {
			t.Errorf("defaults = %+v", p)
		}
	}
}

func TestPaginateOrdersByCreationThenName(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(name string, at time.Time) investv1.Wallet {
		return investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(at)}}
	}
	items := []investv1.Wallet{mk("c", t0), mk("b", t0.Add(time.Second)), mk("a", t0), mk("d", t0.Add(-time.Second))}
	names := func(ws []investv1.Wallet) string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Name)
		}
		return strings.Join(out, ",")
	}
	if got := names(paginate(items, page{skip: 0, limit: 10})); got != "d,a,c,b" {
		t.Fatalf("order %s", got)
	}
	if got := names(paginate(items, page{skip: 1, limit: 2})); got != "a,c" {
		t.Fatalf("page %s", got)
	}
	if got := paginate(items, page{skip: 4, limit: 2}); len(got) != 0 {
		t.Fatalf("past the end: %v", got)
	}
}

// invalid is the API server's 422 refusal of the object name of kind, with errs as its
// causes.
func invalid(kind, name string, errs field.ErrorList) *apierrors.StatusError {
	return apierrors.NewInvalid(investv1.GroupVersion.WithKind(kind).GroupKind(), name, errs)
}

func TestAPIServerCausesMapBackToRESTFields(t *testing.T) {
	errs := rules.ToFieldErrors(validation.FieldErrors{
		"wallet_address": {"must be 0x followed by 40 hexadecimal digits"},
		"birthdate":      {"is not a real calendar day"},
	})
	errs = append(errs, field.TooLong(field.NewPath("spec", "city"), "x", 100))
	err := invalid("Account", "x", errs)
	got := causesToFields(err, nil)
	want := validation.FieldErrors{
		"wallet_address": {"must be 0x followed by 40 hexadecimal digits"},
		"dob_day":        {"is not a real calendar day"},
		"city":           {"Too long: may not be more than 100 bytes"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := causesToFields(err, birthdateRenames)["birthdate"]; len(got) != 1 {
		t.Fatalf("renamed: %v", causesToFields(err, birthdateRenames))
	}
}

func TestCauseMessageDropsTheEchoedValue(t *testing.T) {
	cases := map[string]string{
		`Invalid value: "0xAB": must be 0x followed by 40 hexadecimal digits`:     "must be 0x followed by 40 hexadecimal digits",
		`Invalid value: null: must be a valid IBAN`:                               "must be a valid IBAN",
		`Invalid value: "a\"b: c": msg`:                                           "msg",
		`Invalid value: 42: must be at most 31`:                                   "must be at most 31",
		`Required value`:                                                          "Required value",
		`Unsupported value: "x": supported values: "polygon"`:                     `Unsupported value: "x": supported values: "polygon"`,
		`Invalid value: "string": spec.country in body should match '^[A-Z]{2}$'`: `spec.country in body should match '^[A-Z]{2}$'`,
		`Invalid value: "no detail"`:                                              `Invalid value: "no detail"`,
	}
	for in, want := range cases {
		if got := causeMessage(metav1.StatusCause{Message: in}); got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
}

func TestDerivedIDsAreStableLowercaseUUIDs(t *testing.T) {
	a := walletName("0d9e8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	b := walletName("0d9e8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
	if a != b || !validation.IsLowercaseUUID(a) {
		t.Fatalf("wallet ids %s, %s", a, b)
	}
	if accountName("t1", "x") == accountName("t2", "x") || !validation.IsLowercaseUUID(accountName("t1", "x")) {
		t.Fatal("account ids must differ per tenant and be lowercase UUIDs")
	}
}

func TestAdmissionDuplicateOfTheAddressIsRecognised(t *testing.T) {
	d := field.Duplicate(field.NewPath("spec", "walletAddress"), "0xabc")
	d.Detail = "Wallet already registered as wallet x"
	err := invalid("Wallet", "w", field.ErrorList{d})
	if !hasCause(err, metav1.CauseTypeFieldValueDuplicate, "spec.walletAddress") {
		t.Fatal("duplicate cause not recognised")
	}
	if hasCause(err, metav1.CauseTypeFieldValueDuplicate, "spec.externalID") {
		t.Fatal("recognised on the wrong field")
	}
}

// Rule: a too-long field names only that field: the API server's extra cause without a
// field ("some validation rules were not checked ...", field "<nil>") is dropped.
func TestTooLongCauseNamesOnlyTheField(t *testing.T) {
	errs := field.ErrorList{
		field.TooLong(field.NewPath("spec", "city"), "x", 100),
		field.Invalid(nil, "", "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
	}
	err := invalid("Account", "x", errs)
	got := causesToFields(err, nil)
	if len(got) != 1 || len(got["city"]) != 1 {
		t.Fatalf("got %v, want only city", got)
	}
}
