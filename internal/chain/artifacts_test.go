package chain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"

	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// The repository's contracts/ folder, from this package's folder.
const contractsDir = "../../contracts"

// compilerRecord is contracts/build/compiler.json, written by contracts/compile.js.
type compilerRecord struct {
	Solc                  string            `json:"solc"`
	OpenzeppelinContracts string            `json:"openzeppelinContracts"`
	SHA256                map[string]string `json:"sha256"`
}

func readCompilerRecord(t *testing.T) compilerRecord {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(contractsDir, "build", "compiler.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec compilerRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// Without node: the committed build must be of the committed sources and lock file. (The
// full check, recompiling with the pinned solc-js, is `make contracts-check`.)
func TestCommittedBuildIsOfTheCommittedSources(t *testing.T) {
	rec := readCompilerRecord(t)
	sources, err := filepath.Glob(filepath.Join(contractsDir, "src", "*.sol"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range sources {
		want = append(want, "src/"+filepath.Base(s))
	}
	want = append(want, "package-lock.json")
	sort.Strings(want)
	var recorded []string
	for k := range rec.SHA256 {
		recorded = append(recorded, k)
	}
	sort.Strings(recorded)
	if strings.Join(want, " ") != strings.Join(recorded, " ") {
		t.Fatalf("contracts/build/compiler.json records %v, the repository has %v: run make contracts", recorded, want)
	}
	for name, sum := range rec.SHA256 {
		raw, err := os.ReadFile(filepath.Join(contractsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		got := sha256.Sum256(raw)
		if hex.EncodeToString(got[:]) != sum {
			t.Errorf("contracts/%s changed since contracts/build was made: run make contracts and commit", name)
		}
	}
	if !strings.HasPrefix(rec.Solc, "0.8.37+") || rec.OpenzeppelinContracts != "5.7.0" {
		t.Errorf("built with solc %s and OpenZeppelin %s; docs/tokens.md states 0.8.37 and 5.7.0", rec.Solc, rec.OpenzeppelinContracts)
	}
}

func TestBindingsCarryTheCommittedABIAndBytecode(t *testing.T) {
	for name, md := range map[string]*bind.MetaData{
		"CashToken":             &contracts.CashTokenMetaData,
		"DeliveryVersusPayment": &contracts.DeliveryVersusPaymentMetaData,
		"IdentityRegistry":      &contracts.IdentityRegistryMetaData,
		"ShareToken":            &contracts.ShareTokenMetaData,
	} {
		abiFile, err := os.ReadFile(filepath.Join(contractsDir, "build", name+".abi"))
		if err != nil {
			t.Fatal(err)
		}
		binFile, err := os.ReadFile(filepath.Join(contractsDir, "build", name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if md.Bin != "0x"+string(binFile) {
			t.Errorf("%s: the bindings' bytecode is not contracts/build/%s.bin: run make contracts", name, name)
		}
		// abigen embeds the ABI with white space removed.
		if md.ABI != strings.Join(strings.Fields(string(abiFile)), "") {
			t.Errorf("%s: the bindings' ABI is not contracts/build/%s.abi: run make contracts", name, name)
		}
	}
}
