package apiserver

import (
	"github.com/google/uuid"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

// projectNamespace is the UUIDv5 namespace of every id the facade derives instead of
// drawing at random. Deriving an id from what must be unique turns a uniqueness rule into
// a name collision, which the API server refuses atomically (AlreadyExists), also for
// concurrent requests on different replicas. Never change it: ids already issued would
// stop colliding with new ones.
var projectNamespace = uuid.MustParse("8d3c5f2e-1a7b-4c9d-b6e4-0f2a9c7d5e13")

var (
	accountIDSpace = uuid.NewSHA1(projectNamespace, []byte("Account"))
	walletIDSpace  = uuid.NewSHA1(projectNamespace, []byte("Wallet"))
)

// accountName is the id of the account with externalID in tenant: a UUIDv5 of
// "<tenant>/<external_id>", so that two creations with one external_id collide.
func accountName(tenant, externalID string) string {
	return uuid.NewSHA1(accountIDSpace, []byte(tenant+"/"+externalID)).String()
}

// walletName is the id of the registration of address on account: a UUIDv5 of
// "<account_id>/<lowercase address>", so that an address registers once per account.
func walletName(accountID, address string) string {
	return uuid.NewSHA1(walletIDSpace, []byte(accountID+"/"+validation.EVMAddressKey(address))).String()
}

// newID is the id of an object with no uniqueness rule: a random UUIDv4.
func newID() string { return uuid.NewString() }
