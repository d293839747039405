package transfer_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// BenchmarkTransfersIndexed is the transfer row of `make bench`: benchTransfers holder
// transfers among benchHolders registered wallets (each of an account of its own, in one
// namespace), mined on go-ethereum's simulated chain, then one indexer round from the
// token's first block (2,000 blocks per eth_getLogs, 2 confirmations) against a real
// control plane. Reported: transfers/s (chain events indexed per second: each writes two
// Transfer objects, the sender's Out and the receiver's In) and objects/s.
func BenchmarkTransfersIndexed(b *testing.B) {
	const benchHolders, benchTransfers = 8, 300
	e, err := envtest.New(envtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		k := e.Client
		ns, err := controlplane.NewNamespace(ctx, k, "transfer-bench")
		if err != nil {
			b.Fatal(err)
		}
		c := chaintest.New(b)
		body := fmt.Sprintf("XS%09d", rand.IntN(1_000_000_000))
		d, err := validation.ISINCheckDigit(body)
		if err != nil {
			b.Fatal(err)
		}
		isin := body + string(d)
		sc := fixtures.ShareClass(controlplane.NewID(), isin)
		if err := k.Create(ctx, sc); err != nil {
			b.Fatal(err)
		}
		sc.Status.Token = &investv1.ShareClassTokenStatus{Address: c.Token.Hex(), ChainID: c.ChainID.Int64()}
		meta.SetStatusCondition(&sc.Status.Conditions, metav1.Condition{Type: "TokenReady", Status: metav1.ConditionTrue, Reason: "Adopted", Message: "bench"})
		if err := k.Status().Update(ctx, sc); err != nil {
			b.Fatal(err)
		}
		keys := c.Investors(benchHolders)
		for _, key := range keys {
			a := fixtures.IndividualAccount(ns)
			if err := k.Create(ctx, a); err != nil {
				b.Fatal(err)
			}
			if err := k.Create(ctx, fixtures.Wallet(ns, a.Name, key.Address().Hex())); err != nil {
				b.Fatal(err)
			}
			c.Register(key.Address())
			c.Mint(c.Token, key.Address(), 1_000_000)
		}
		for j := range benchTransfers {
			from, to := keys[j%benchHolders], keys[(j+1+j/benchHolders)%benchHolders]
			if from == to {
				to = keys[(j+2)%benchHolders]
			}
			c.Send(from, c.Token, c.TokenABI.PackTransfer(to.Address(), big.NewInt(int64(1+j%7))))
		}
		c.Commit(2)
		x := &transfer.Indexer{Client: k, Live: k, Chain: c.Client, Confirmations: 2, Log: logr.Discard()}
		b.StartTimer()
		start := time.Now()
		if err := x.Round(ctx); err != nil {
			b.Fatal(err)
		}
		elapsed := time.Since(start)
		b.StopTimer()
		var list investv1.TransferList
		if err := k.List(ctx, &list, client.InNamespace(ns)); err != nil {
			b.Fatal(err)
		}
		if len(list.Items) != 2*benchTransfers {
			b.Fatalf("%d Transfer objects, want %d", len(list.Items), 2*benchTransfers)
		}
		b.Logf("%d transfers (%d objects) indexed in %v", benchTransfers, len(list.Items), elapsed)
		b.ReportMetric(float64(benchTransfers)/elapsed.Seconds(), "transfers/s")
		b.ReportMetric(float64(len(list.Items))/elapsed.Seconds(), "objects/s")
		if err := k.Delete(ctx, sc); err != nil {
			b.Fatal(err)
		}
	}
}
