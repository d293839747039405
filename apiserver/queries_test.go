package apiserver_test

import (
	. "github.com/onsi/ginkgo/v2"
)

// Every list's query parameters in one table: the paging every list refuses with 422
// (never clamping it), then each list's own filters.
var _ = Describe("List query parameters", func() {
	var account string // the wallets list's account
	BeforeEach(func() {
		if account == "" {
			account = alpha.buyer()
		}
	})
	lists := []struct {
		name string
		path func(account string) string
	}{
		{"accounts", func(string) string { return "/v1/accounts" }},
		{"wallets", walletsOf},
		{"funds", func(string) string { return "/v1/funds" }},
		{"orders", func(string) string { return "/v1/orders" }},
	}
	var entries []TableEntry
	for _, l := range lists {
		for _, p := range [][3]string{
			{"skip below 0", "skip=-1", "skip"}, {"limit 0", "limit=0", "limit"},
			{"limit over 1000", "limit=1001", "limit"}, {"limit not a number", "limit=all", "limit"},
		} {
			entries = append(entries, Entry(l.name+": "+p[0], l.path, p[1], p[2]))
		}
	}
	filters := map[string][][3]string{
		"accounts": {{"unknown account_type", "account_type=trust", "account_type"}, {"unknown parameter", "sort=name", "sort"}},
		"wallets":  {{"is_primary not a boolean", "is_primary=maybe", "is_primary"}},
		"funds": {{"base_currency lower case", "base_currency=eur", "base_currency"}, {"base_currency too long", "base_currency=EURO", "base_currency"},
			{"risk_score 0", "risk_score=0", "risk_score"}, {"risk_score 11", "risk_score=11", "risk_score"}, {"risk_score text", "risk_score=high", "risk_score"}},
		"orders": {{"side not an enum value", "side=buy", "side"}, {"market not an enum value", "market=OTC", "market"},
			{"order_status not a status", "order_status=DONE", "order_status"}, {"account_type not a type", "account_type=person", "account_type"},
			{"account_id not a UUID", "account_id=acc-1", "account_id"}, {"currency not three uppercase letters", "currency=eur", "currency"},
			{"an unknown parameter", "status=PLACED", "status"}},
	}
	for _, l := range lists {
		for _, f := range filters[l.name] {
			entries = append(entries, Entry(l.name+": "+f[0], l.path, f[1], f[2]))
		}
	}
	DescribeTable("every list refuses out-of-range paging and bad filters with 422 naming the parameter (never clamps)",
		func(path func(account string) string, query, field string) {
			alpha.refuseQuery(path(account), query, field)
		},
		entries)
})
