package apiserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func transfersOf(accountID string) string { return "/v1/accounts/" + accountID + "/transfers" }

// recordTransfer creates a Transfer of the account as the transfer indexer would.
func recordTransfer(ns, accountID, walletID, walletAddress, counterparty string, dir investv1.TransferDirection, units, block, logIndex int64) string {
	GinkgoHelper()
	tx := fmt.Sprintf("0x%064x", block*1000+logIndex)
	name := fmt.Sprintf("%s-%d-%s", tx[2:], logIndex, strings.ToLower(string(dir)))
	t := &investv1.Transfer{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
			Labels: map[string]string{investv1.LabelAccount: accountID, investv1.LabelISIN: "LU0274208692"}},
		Spec: investv1.TransferSpec{
			AccountID: investv1.ObjectID(accountID), ISIN: "LU0274208692", Units: units, Direction: dir,
			WalletID: investv1.ObjectID(walletID), WalletAddress: walletAddress, CounterpartyAddress: counterparty,
			Token: "0x00000000000000000000000000000000000000aa", TransactionHash: tx, LogIndex: logIndex,
			BlockNumber: block, BlockHash: fmt.Sprintf("0x%064x", block), BlockTime: metav1.NewTime(time.Unix(1_700_000_000+block, 0)),
		},
	}
	Expect(k8s.Create(ctx, t)).To(Succeed())
	return name
}

var _ = Describe("Transfers", func() {
	It("GET /transfers lists an account's on-chain transfers newest first (block, then log index), paged, naming only the counterparty's address", func() {
		account, other := alpha.newAccount(), beta.newAccount()
		mine, theirs := common.HexToAddress(randomAddress()).Hex(), common.HexToAddress(randomAddress()).Hex()
		wallet := alpha.newWallet(account, mine)
		theirWallet := beta.newWallet(other, theirs)
		oldest := recordTransfer(alpha.ns, account, wallet, mine, theirs, investv1.TransferIn, 30, 5, 0)
		middle := recordTransfer(alpha.ns, account, wallet, mine, theirs, investv1.TransferOut, 10, 7, 1)
		newest := recordTransfer(alpha.ns, account, wallet, mine, theirs, investv1.TransferOut, 5, 7, 3)
		recordTransfer(beta.ns, other, theirWallet, theirs, mine, investv1.TransferOut, 30, 5, 0)

		var items []map[string]any
		Eventually(func(g Gomega) {
			r := alpha.get(transfersOf(account))
			g.Expect(r.code).To(Equal(http.StatusOK), r.String())
			items = r.data()
			g.Expect(items).To(HaveLen(3))
		}).WithTimeout(30 * time.Second).Should(Succeed())
		Expect([]any{items[0]["id"], items[1]["id"], items[2]["id"]}).To(Equal([]any{newest, middle, oldest}))
		Expect(items[2]).To(Equal(map[string]any{
			"id": oldest, "isin": "LU0274208692", "units": 30.0, "direction": "IN", "wallet_id": wallet, "wallet_address": mine,
			"counterparty_address": theirs, "transaction_hash": fmt.Sprintf("0x%064x", 5000), "block_number": 5.0,
			"timestamp": time.Unix(1_700_000_005, 0).UTC().Format(time.RFC3339),
		}))
		body := alpha.get(transfersOf(account)).String()
		Expect(body).NotTo(ContainSubstring(other), "never the other tenant's account")
		Expect(body).NotTo(ContainSubstring(theirWallet), "never the other tenant's wallet")

		By("paging with skip and limit")
		page := alpha.get(transfersOf(account) + "?skip=1&limit=1").data()
		Expect(page).To(HaveLen(1))
		Expect(page[0]["id"]).To(Equal(middle))
		Expect(alpha.get(transfersOf(account) + "?skip=3").data()).To(BeEmpty())

		By("the receiver's tenant sees its own side")
		Eventually(func() []map[string]any { return beta.get(transfersOf(other)).data() }).WithTimeout(30 * time.Second).Should(HaveLen(1))
		theirSide := beta.get(transfersOf(other)).data()[0]
		Expect(theirSide["direction"]).To(Equal("OUT"))
		Expect(theirSide["counterparty_address"]).To(Equal(mine))
		Expect(beta.get(transfersOf(other)).String()).NotTo(ContainSubstring(account))

		By("the portfolio counts them: 30 in, 15 out")
		Eventually(func(g Gomega) {
			r := alpha.get("/v1/accounts/" + account + "/portfolio")
			g.Expect(r.code).To(Equal(http.StatusOK), r.String())
			positions := r.json()["positions"].([]any)
			g.Expect(positions).To(HaveLen(1))
			p := positions[0].(map[string]any)
			g.Expect(p).To(HaveKeyWithValue("units", 15.0))
			g.Expect(p).To(HaveKeyWithValue("redeemable", 15.0))
			g.Expect(p).To(HaveKeyWithValue("transferred_in_units", 30.0))
			g.Expect(p).To(HaveKeyWithValue("transferred_out_units", 15.0))
		}).WithTimeout(30 * time.Second).Should(Succeed())
	})

	It("GET /transfers of another tenant's account, or an unknown one, is 404 Account not found", func() {
		theirs := beta.newAccount()
		for _, id := range []string{theirs, fixturesID()} {
			r := alpha.get(transfersOf(id))
			Expect(r.code).To(Equal(http.StatusNotFound), r.String())
			Expect(r.json()["error"]).To(Equal("Account not found"))
		}
	})

	It("GET /transfers is strict about its query: unknown parameters and bad paging are 422", func() {
		account := alpha.newAccount()
		Expect(alpha.get(transfersOf(account)).data()).To(BeEmpty())
		alpha.refuseQuery(transfersOf(account), "direction=IN", "direction")
		alpha.refuseQuery(transfersOf(account), "limit=0", "limit")
		alpha.refuseQuery(transfersOf(account), "skip=-1", "skip")
	})
})
