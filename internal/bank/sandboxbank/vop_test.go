package sandboxbank

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
)

var answerTime = time.Date(2026, 11, 27, 10, 5, 0, 0, time.UTC)

// answerVoP answers batch() with bank and returns the parsed report and the
// end-to-end ids of the debits.
func answerVoP(t *testing.T, bank Bank, reject func(iso20022.Transfer) string) ([]iso20022.TransactionStatus, []string) {
	t.Helper()
	_, report, notifName, notif, err := bank.Answer(batch(), reject, answerTime, 3)
	if err != nil {
		t.Fatal(err)
	}
	r, err := iso20022.ParsePain002(report)
	if err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, report)
	}
	var debited []string
	if notifName != "" {
		sts, err := iso20022.ParseStatements(notif)
		if err != nil {
			t.Fatalf("the notification does not parse: %v", err)
		}
		for _, e := range sts[0].Entries {
			debited = append(debited, e.Transactions[0].EndToEndID)
		}
	}
	return r.Transactions(), debited
}

// The creditors of batch(): Jan Jansen at NL91ABNA0417164300, Erika Mustermann at
// DE89370400440532013000.
const janIBAN, erikaIBAN = "NL91ABNA0417164300", "DE89370400440532013000"

func rejectErika(t iso20022.Transfer) string {
	if t.CreditorIBAN == erikaIBAN {
		return "AC04"
	}
	return ""
}

func TestWithoutHoldersTheAnswerIsByteForByteAsBeforeAndReportsNoVoP(t *testing.T) {
	// The golden files were written by Answer before the sandbox verified payees.
	wantReport, err := os.ReadFile(filepath.Join("testdata", "answer_pain002.golden.xml"))
	if err != nil {
		t.Fatal(err)
	}
	wantNotif, err := os.ReadFile(filepath.Join("testdata", "answer_camt054.golden.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bank := range []Bank{{}, {RejectNoMatch: true}} {
		_, report, _, notif, err := bank.Answer(batch(), rejectErika, answerTime, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(report, wantReport) || !bytes.Equal(notif, wantNotif) {
			t.Fatalf("%+v: the answer changed:\n%s\n%s", bank, report, notif)
		}
	}
	_, report, _, notif, err := Answer(batch(), rejectErika, answerTime, 3)
	if err != nil || !bytes.Equal(report, wantReport) || !bytes.Equal(notif, wantNotif) {
		t.Fatalf("Answer changed: %v\n%s", err, report)
	}
}

func TestAnIBANWithoutAHolderIsAMatch(t *testing.T) {
	txs, debited := answerVoP(t, Bank{Holders: map[string]string{}}, nil)
	for _, tx := range txs {
		if tx.Status != iso20022.StatusAccepted || tx.VoP != iso20022.VoPMatch || tx.VoPName != "" || len(tx.Reasons) != 0 {
			t.Fatalf("%+v", tx)
		}
	}
	if len(debited) != 2 {
		t.Fatalf("debited %v", debited)
	}
}

func TestANameEqualIgnoringCaseAndSpacesIsAMatch(t *testing.T) {
	txs, _ := answerVoP(t, Bank{Holders: map[string]string{janIBAN: "JAN  JANSEN", erikaIBAN: "erika mustermann"}}, nil)
	for _, tx := range txs {
		if tx.VoP != iso20022.VoPMatch || tx.VoPName != "" {
			t.Fatalf("%+v", tx)
		}
	}
}

func TestACloseNameIsACloseMatchWithTheHoldersNameAndIsExecuted(t *testing.T) {
	txs, debited := answerVoP(t, Bank{RejectNoMatch: true, Holders: map[string]string{
		janIBAN:   "Jansen, Jan",
		erikaIBAN: " Erika Mustermann-Groß ",
	}}, nil)
	want := iso20022.TransactionStatus{
		OriginalEndToEndID: batch().Transfers[0].EndToEndID, Status: "ACCP", VoP: iso20022.VoPCloseMatch, VoPName: "Jansen, Jan",
	}
	if !reflect.DeepEqual(txs[0], want) {
		t.Fatalf("\n got %+v\nwant %+v", txs[0], want)
	}
	if len(debited) != 1 || debited[0] != want.OriginalEndToEndID {
		t.Fatalf("debited %v, want the close match's transfer only", debited)
	}
	// "Erika Mustermann" and "Erika Mustermann-Groß" are not close: "mustermanngross".
	if txs[1].VoP != iso20022.VoPNoMatch || txs[1].Status != "RJCT" {
		t.Fatalf("%+v", txs[1])
	}
}

func TestAnotherNameIsNoMatchAndIsExecutedAnywayUnlessRejectNoMatch(t *testing.T) {
	holders := map[string]string{erikaIBAN: "Max Mustermann"}
	txs, debited := answerVoP(t, Bank{Holders: holders}, nil)
	if tx := txs[1]; tx.Status != "ACCP" || tx.VoP != iso20022.VoPNoMatch || tx.VoPName != "" || len(tx.Reasons) != 0 {
		t.Fatalf("advisory: %+v", tx)
	}
	if len(debited) != 2 {
		t.Fatalf("advisory: debited %v, want both", debited)
	}
}

func TestWithRejectNoMatchANoMatchIsRejectedWithItsReasonAndTheResultAndNotDebited(t *testing.T) {
	txs, debited := answerVoP(t, Bank{RejectNoMatch: true, Holders: map[string]string{erikaIBAN: "Max Mustermann"}}, nil)
	want := iso20022.TransactionStatus{
		OriginalEndToEndID: batch().Transfers[1].EndToEndID, Status: "RJCT", VoP: iso20022.VoPNoMatch,
		Reasons: []iso20022.StatusReason{{Code: NoMatchReasonCode, AdditionalInfo: []string{noMatchInfo}}},
	}
	if !reflect.DeepEqual(txs[1], want) {
		t.Fatalf("\n got %+v\nwant %+v", txs[1], want)
	}
	if txs[0].VoP != iso20022.VoPMatch || txs[0].Status != "ACCP" {
		t.Fatalf("the other transfer: %+v", txs[0])
	}
	if len(debited) != 1 || debited[0] != batch().Transfers[0].EndToEndID {
		t.Fatalf("debited %v", debited)
	}
}

func TestARejectCodePrevailsAndTheResultIsStillReported(t *testing.T) {
	txs, _ := answerVoP(t, Bank{RejectNoMatch: true, Holders: map[string]string{erikaIBAN: "Max Mustermann"}}, rejectErika)
	if tx := txs[1]; tx.Status != "RJCT" || tx.VoP != iso20022.VoPNoMatch || len(tx.Reasons) != 1 || tx.Reasons[0].Code != "AC04" {
		t.Fatalf("%+v", tx)
	}
}

func TestHoldersAreLookedUpByTheNormalizedIBAN(t *testing.T) {
	txs, _ := answerVoP(t, Bank{Holders: map[string]string{"de89 3704 0044 0532 0130 00": "Max Mustermann"}}, nil)
	if txs[1].VoP != iso20022.VoPNoMatch {
		t.Fatalf("the print-form IBAN was not found: %+v", txs[1])
	}
}

func TestAnEmptyHolderNameOrTheSameAccountTwiceIsInvalid(t *testing.T) {
	for _, holders := range []map[string]string{
		{erikaIBAN: " "},
		{erikaIBAN: "Erika Mustermann", "DE89 3704 0044 0532 0130 00": "Erika Mustermann"},
	} {
		if _, _, _, _, err := (Bank{Holders: holders}).Answer(batch(), nil, answerTime, 1); !errors.Is(err, ErrInvalid) {
			t.Errorf("%v: err = %v, want ErrInvalid", holders, err)
		}
	}
}

func TestMatchNameFollowsItsRules(t *testing.T) {
	for _, tt := range []struct{ name, holder, want string }{
		// Equal ignoring case and white space: a match.
		{"Jan Jansen", "Jan Jansen", iso20022.VoPMatch},
		{"JAN JANSEN", "jan  jansen", iso20022.VoPMatch},
		{"JanJansen", "Jan Jansen", iso20022.VoPMatch},
		{"Søren Østergaard", "SØREN ØSTERGAARD", iso20022.VoPMatch},
		// Equal without accents and punctuation, in any word order: a close match.
		{"Soren Ostergaard", "Søren Østergaard", iso20022.VoPCloseMatch},
		{"Mustermann, Erika", "Erika Mustermann", iso20022.VoPCloseMatch},
		{"O'Brien Sean", "Sean OBrien", iso20022.VoPCloseMatch},
		{"Groß Anna", "Anna Gross", iso20022.VoPCloseMatch},
		{"José Núñez", "Nunez Jose", iso20022.VoPCloseMatch},
		// One edit apart: a close match.
		{"Jan Janssen", "Jan Jansen", iso20022.VoPCloseMatch},
		{"Erika Musterman", "Erika Mustermann", iso20022.VoPCloseMatch},
		{"Mueller Hans", "Hans Müller", iso20022.VoPCloseMatch},
		{"Meier-Schulz Eva", "Eva Meier Schulz", iso20022.VoPCloseMatch},
		{"Jan Jonsen", "Jan Jansen", iso20022.VoPCloseMatch},
		// Anything else: no match.
		{"Max Mustermann", "Erika Mustermann", iso20022.VoPNoMatch},
		{"Jan Jensenn", "Jan Jansen", iso20022.VoPNoMatch},
		{"Fund Holding SA", "Jan Jansen", iso20022.VoPNoMatch},
		{"...", "Jan Jansen", iso20022.VoPNoMatch},
		{"Jan Jansen", "--", iso20022.VoPNoMatch},
	} {
		if got := MatchName(tt.name, tt.holder); got != tt.want {
			t.Errorf("MatchName(%q, %q) = %s, want %s", tt.name, tt.holder, got, tt.want)
		}
		if got := MatchName(tt.holder, tt.name); got != tt.want {
			t.Errorf("MatchName(%q, %q) = %s, want %s (it is symmetric)", tt.holder, tt.name, got, tt.want)
		}
	}
}

func TestOneEditApartIsOneAdditionRemovalOrReplacement(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"abc", "abc", false}, {"abc", "abd", true}, {"abc", "xbc", true}, {"abc", "abcd", true},
		{"abc", "ab", true}, {"abc", "bc", true}, {"", "a", true}, {"", "", false}, {"abc", "acb", false},
		{"abc", "a", false}, {"ä", "a", true}, {"abcd", "abdd", true}, {"abcd", "badc", false},
	} {
		if got := oneEditApart(tt.a, tt.b); got != tt.want {
			t.Errorf("oneEditApart(%q, %q) = %v", tt.a, tt.b, got)
		}
		if got := oneEditApart(tt.b, tt.a); got != tt.want {
			t.Errorf("oneEditApart(%q, %q) = %v", tt.b, tt.a, got)
		}
	}
}
