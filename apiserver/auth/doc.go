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

// Package auth implements API-client authentication for the fundshare REST
// facade: hashed client secrets, ES256 signing keys persisted in a Kubernetes
// Secret, issuance and strict verification of JWT access tokens, the OAuth 2.0
// client-credentials token endpoint (RFC 6749 §4.4), the JWKS document, and a
// bearer-token middleware.
//
// One API client (integrator) maps to one Kubernetes namespace, its tenant;
// the tenant is carried in every access token so that handlers never have to
// trust a tenant named by the request itself.
//
// Secrets and tokens are never written to logs or error messages by this
// package.
package auth
