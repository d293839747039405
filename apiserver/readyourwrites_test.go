package apiserver_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Read-your-writes: a read right after a write by this process sees the write", func() {
	It("lists a wallet immediately after registering it, and shows is_primary immediately after a PATCH (50 times)", func() {
		account := alpha.newAccount()
		path := "/v1/accounts/" + account + "/wallets"
		for i := range 50 {
			r := alpha.post(path, map[string]any{"chain": "polygon", "wallet_address": randomAddress()})
			Expect(r.code).To(Equal(http.StatusCreated), r.String())
			id := r.json()["id"].(string)
			Expect(idsOf(alpha.get(path).data())).To(ContainElement(id), "iteration %d", i)

			Expect(alpha.patch(path+"/"+id, map[string]any{"is_primary": true}).code).To(Equal(http.StatusOK))
			Expect(alpha.get(path + "/" + id).json()["is_primary"]).To(BeTrue(), "iteration %d", i)
			Expect(primaries(alpha.get(path).data())).To(ConsistOf(id), "iteration %d", i)
		}
	})

	It("reads an account immediately after creating and updating it (50 times)", func() {
		for i := range 50 {
			id := alpha.newAccount()
			Expect(alpha.get("/v1/accounts/"+id).code).To(Equal(http.StatusOK), "iteration %d", i)
			Expect(alpha.patch("/v1/accounts/"+id, map[string]any{"city": "Köln"}).code).To(Equal(http.StatusOK))
			Expect(alpha.get("/v1/accounts/" + id).json()["city"]).To(Equal("Köln"), "iteration %d", i)
		}
	})
})
