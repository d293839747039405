// Copyright 2026 The fundshare-operator Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package auth

import (
	"net/http"
	"strings"
	"testing"
)

// The token endpoint takes its form in UTF-8 only (RFC 6749 §4.4.2, Appendix B); another
// charset is a malformed request, answered 400 invalid_request (§5.2: OAuth has no 415).
func TestTokenEndpointRefusesACharsetOtherThanUTF8WithInvalidRequest(t *testing.T) {
	f := newTokenFixture(t)
	body := f.form("acme", f.secret).Encode()
	for _, ct := range []string{
		formType + "; charset=iso-8859-1", formType + `; charset="windows-1252"`, formType + "; charset=utf-16",
		formType + "; charset=" + strings.Repeat("x", 300),
	} {
		t.Run(ct[:min(len(ct), 60)], func(t *testing.T) {
			r := f.do(t, http.MethodPost, "/oauth2/token", ct, body, nil)
			if r.status != http.StatusBadRequest || r.body["error"] != "invalid_request" {
				t.Fatalf("got %d %s", r.status, r.raw)
			}
			if desc := r.body["error_description"]; desc != "the form body must be UTF-8: send charset=utf-8 or no charset" {
				t.Fatalf("error_description %q", desc)
			}
			if _, ok := r.body["access_token"]; ok {
				t.Fatal("a token was issued")
			}
			checkNoStore(t, r)
		})
	}
	for _, ct := range []string{formType, formType + "; charset=utf-8", formType + "; charset=UTF-8", formType + `; charset="Utf-8"`} {
		t.Run(ct, func(t *testing.T) {
			f.checkSuccess(t, f.do(t, http.MethodPost, "/oauth2/token", ct, body, nil), "tenant-acme", "acme")
		})
	}
}
