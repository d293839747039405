package devdata

import (
	"path/filepath"
	"testing"

	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

func TestEverySampleShareClassGetsALocalChainToken(t *testing.T) {
	got, err := SampleShareClasses(filepath.Join(controlplane.Root(), "config", "samples", "catalogue.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := []localchain.ShareClass{
		{ISIN: "LU000FSHA019", Name: "Class A EUR Acc"},
		{ISIN: "LU000FSHI012", Name: "Class I EUR Acc"},
		{ISIN: "IE000FSHD018", Name: "Class D EUR Dis"},
		{ISIN: "LU000FSHM014", Name: "Class M EUR Acc (forward, every two minutes)"},
	}
	if len(got) != len(want) {
		t.Fatalf("share classes %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("share class %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
