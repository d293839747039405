package iso20022

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func parseStatements(t *testing.T, name string) []Statement {
	t.Helper()
	s, err := ParseStatements(readFile(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func eur(units int64) int64 { return units * 100 } // cents to units

const fundIBAN = "DE89370400440532013000"

// wantNotification is camt054_v08.xml (and camt054_v02.xml) as the model reads it.
func wantNotification(m MessageType) Statement {
	day := date(2026, 3, 2)
	return Statement{
		Kind:        KindNotification,
		MessageType: m,
		MessageID:   "NTF-20260302-0001",
		CreatedAt:   time.Date(2026, 3, 2, 17, 30, 0, 0, time.UTC),
		ID:          "NTF-20260302-0001-1",
		AccountIBAN: fundIBAN,
		Currency:    "EUR",
		Entries: []Entry{
			{
				Reference: "2026030200001", EntryRef: "1", AccountServicerRef: "2026030200001",
				Amount: eur(250000), Currency: "EUR", CreditDebit: Credit, Status: StatusBooked,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/RCDT/ESCT",
				Transactions: []Transaction{{
					EndToEndID: "INV-77812", AccountServicerRef: "2026030200001-1",
					CreditorReference: "RF462026000123", Amount: eur(250000), Currency: "EUR",
					DebtorName: "Marie Dupont", DebtorIBAN: "FR1420041010050500013M02606",
					CreditorName: "Fundshare Feeder Fund SICAV", CreditorIBAN: fundIBAN,
				}},
			},
			{
				Reference: "2026030200002", EntryRef: "2", AccountServicerRef: "2026030200002",
				Amount: eur(100050), Currency: "EUR", CreditDebit: Credit, Status: StatusBooked,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/RCDT/ESCT",
				Transactions: []Transaction{{
					EndToEndID: "NOTPROVIDED", Unstructured: []string{"Subscription RF19 2026 0001 24", "thank you"},
					Amount: eur(100050), Currency: "EUR", DebtorName: "Jan de Vries", DebtorIBAN: "NL91ABNA0417164300",
				}},
			},
			{
				Reference: "2026030200003", EntryRef: "3", AccountServicerRef: "2026030200003",
				Amount: eur(75000), Currency: "EUR", CreditDebit: Credit, Status: StatusPending,
				ValueDate: date(2026, 3, 3), BankTransactionCode: "PMNT/RCDT/ESCT",
				Transactions: []Transaction{{
					EndToEndID: "E2E-PENDING-1", CreditorReference: "RF892026000125",
					Amount: eur(75000), Currency: "EUR", // the entry's: the only transaction gives none
				}},
			},
			{
				Reference: "2026030200004", EntryRef: "4", AccountServicerRef: "2026030200004",
				Amount: eur(32000), Currency: "EUR", CreditDebit: Credit, Status: StatusBooked,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/ICDT/RRTN",
				Transactions: []Transaction{{
					EndToEndID: "ord-7f3a9c2e", InstructionID: "PAYOUT-20260227-1",
					Amount: eur(32000), Currency: "EUR",
					DebtorName: "Fundshare Feeder Fund SICAV", DebtorIBAN: fundIBAN,
					CreditorName: "Luca Bianchi", CreditorIBAN: "IT60X0542811101000000123456",
					ReturnReason: "AC04", ReturnInfo: []string{"Account closed"},
				}},
			},
			{
				Reference: "2026030200005", EntryRef: "5", AccountServicerRef: "2026030200005",
				Amount: eur(4590), Currency: "EUR", CreditDebit: Credit, Status: StatusBooked, Reversal: true,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/CCRD/RIMB",
				AdditionalInfo: "Reversal of a card fee",
			},
			{
				Reference: "2026030200006", EntryRef: "6", AccountServicerRef: "2026030200006",
				Amount: eur(123456), Currency: "EUR", CreditDebit: Debit, Status: StatusBooked,
				BookingDate: time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC), ValueDate: day,
				BankTransactionCode: "PMNT/ICDT/ESCT",
				Transactions: []Transaction{
					{
						EndToEndID: "ord-1b2c3d4e", Unstructured: []string{"Redemption ord-1b2c3d4e"},
						Amount: eur(100000), Currency: "EUR", CreditorName: "Anna Schmidt", CreditorIBAN: "AT611904300234573201",
					},
					{
						EndToEndID: "ord-5f6a7b8c", Unstructured: []string{"Redemption ord-5f6a7b8c"},
						Amount: eur(23456), Currency: "EUR", CreditorName: "Pedro García", CreditorIBAN: "ES9121000418450200051332",
					},
				},
			},
		},
	}
}

func TestANotificationReadsAsTheModel(t *testing.T) {
	for _, tt := range []struct {
		file string
		m    MessageType
	}{{"camt054_v08.xml", Camt054V08}, {"camt054_v02.xml", Camt054V02}} {
		got := parseStatements(t, tt.file)
		want := []Statement{wantNotification(tt.m)}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.file, got, want)
		}
	}
}

func TestAStatementReportsEachAccountAsAStatement(t *testing.T) {
	for _, tt := range []struct {
		file string
		m    MessageType
	}{{"camt053_v08.xml", Camt053V08}, {"camt053_v02.xml", Camt053V02}} {
		got := parseStatements(t, tt.file)
		n := wantNotification(tt.m)
		first := Statement{
			Kind: KindStatement, MessageType: tt.m, MessageID: "STMT-20260302",
			CreatedAt: time.Date(2026, 3, 3, 5, 0, 0, 0, time.UTC), ID: "STMT-20260302-DE89",
			AccountIBAN: fundIBAN, Currency: "EUR",
			Entries: []Entry{n.Entries[0], n.Entries[1], n.Entries[3], n.Entries[5]},
		}
		second := Statement{
			Kind: KindStatement, MessageType: tt.m, MessageID: "STMT-20260302",
			CreatedAt: first.CreatedAt, ID: "STMT-20260302-DE02",
			AccountIBAN: "DE02120300000000202051",
			Currency:    "EUR", // no Acct/Ccy: the entries' currency
			Entries: []Entry{{
				Reference: "2026030299001", AccountServicerRef: "2026030299001",
				Amount: eur(1250), Currency: "EUR", CreditDebit: Debit, Status: StatusBooked,
				BookingDate: date(2026, 3, 2), ValueDate: date(2026, 3, 2),
				BankTransactionCode: "ACMT/MDOP/CHRG", AdditionalInfo: "Account fee February 2026",
			}},
		}
		if want := []Statement{first, second}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.file, got, want)
		}
	}
}

func TestEntriesThatAreNotBookedAreReturnedButMarked(t *testing.T) {
	s := parseStatements(t, "camt054_v08.xml")[0]
	var booked, notBooked []string
	for _, e := range s.Entries {
		if e.Booked() {
			booked = append(booked, e.Reference)
		} else {
			notBooked = append(notBooked, e.Reference)
		}
	}
	if len(booked) != 5 || !reflect.DeepEqual(notBooked, []string{"2026030200003"}) {
		t.Fatalf("booked %v, not booked %v", booked, notBooked)
	}
	for _, st := range []string{"INFO", "FUTR"} {
		doc := strings.Replace(string(readFile(t, "camt054_v08.xml")), "<Cd>PDNG</Cd>", "<Cd>"+st+"</Cd>", 1)
		s, err := ParseStatements([]byte(doc))
		if err != nil || s[0].Entries[2].Booked() || string(s[0].Entries[2].Status) != st {
			t.Errorf("status %s: %v, %+v", st, err, s)
		}
	}
}

func TestAProprietaryStatusIsNeverTakenForBooked(t *testing.T) {
	doc := strings.Replace(string(readFile(t, "camt054_v08.xml")), "<Cd>PDNG</Cd>", "<Prtry>BOOK</Prtry>", 1)
	s, err := ParseStatements([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if e := s[0].Entries[2]; e.Booked() || e.Status != "Prtry:BOOK" {
		t.Fatalf("entry 3 = %q, booked %v", e.Status, e.Booked())
	}
}

func TestDuplicateEntriesAreParsedForTheConsumerToDeduplicate(t *testing.T) {
	s := parseStatements(t, "duplicate_entries.xml")[0]
	if len(s.Entries) != 2 || !reflect.DeepEqual(s.Entries[0], s.Entries[1]) {
		t.Fatalf("entries %+v", s.Entries)
	}
}

// refused parses a file that must be refused, checks the error's kind, path and entry,
// and returns its message.
func refused(t *testing.T, data []byte, kind error, path string, entry int) string {
	t.Helper()
	s, err := ParseStatements(data)
	if s != nil {
		t.Errorf("a refused file returned %d statements", len(s))
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want an *Error", err, err)
	}
	if !errors.Is(err, kind) || e.Path != path || e.Entry != entry {
		t.Fatalf("error %q: kind %v path %q entry %d; want %v %q %d", err, e.Err, e.Path, e.Entry, kind, path, entry)
	}
	return e.Error()
}

const entry2 = "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[2]"

func TestAnAmountWithMoreThanTwoDecimalsRefusesTheWholeFile(t *testing.T) {
	msg := refused(t, readFile(t, "bad_three_decimals.xml"), ErrAmount, entry2+"/Amt", 2)
	if !strings.Contains(msg, "camt.054.001.08: entry 2: "+entry2+"/Amt: invalid amount: it has 3 decimals") {
		t.Fatalf("message %q", msg)
	}
}

func TestANegativeAmountRefusesTheWholeFile(t *testing.T) {
	refused(t, readFile(t, "bad_negative_amount.xml"), ErrAmount, entry2+"/Amt", 2)
}

func TestAMissingAmountRefusesTheWholeFile(t *testing.T) {
	refused(t, readFile(t, "bad_missing_amount.xml"), ErrMissing, entry2+"/Amt", 2)
}

func TestACurrencyThatIsNotThreeUpperCaseLettersRefusesTheWholeFile(t *testing.T) {
	refused(t, readFile(t, "bad_currency.xml"), ErrCurrency, entry2+"/Amt/@Ccy", 2)
	for _, ccy := range []string{"EURO", "EU", "E1R", ""} {
		doc := strings.Replace(string(readFile(t, "bad_currency.xml")), `Ccy="eur"`, `Ccy="`+ccy+`"`, 1)
		_, err := ParseStatements([]byte(doc))
		if !errors.Is(err, ErrCurrency) && !(ccy == "" && errors.Is(err, ErrMissing)) {
			t.Errorf("Ccy %q: %v", ccy, err)
		}
	}
}

func TestAnUnknownNamespaceRefusesTheWholeFile(t *testing.T) {
	msg := refused(t, readFile(t, "bad_unknown_namespace.xml"), ErrUnknownMessage, "Document", 0)
	if !strings.Contains(msg, `"urn:iso:std:iso:20022:tech:xsd:camt.054.001.04"`) {
		t.Fatalf("message %q does not name the namespace", msg)
	}
}

func TestAPaymentMessageIsNotAStatement(t *testing.T) {
	refused(t, readFile(t, "pain002_v10.xml"), ErrUnknownMessage, "Document", 0)
}

func TestMalformedXMLRefusesTheWholeFileAndNamesTheLine(t *testing.T) {
	msg := refused(t, readFile(t, "bad_malformed.xml"), ErrMalformed, "", 0)
	if !strings.Contains(msg, "line 85") {
		t.Fatalf("message %q does not name the line", msg)
	}
}

func TestATruncatedFileIsMalformed(t *testing.T) {
	data := readFile(t, "camt054_v08.xml")
	for _, n := range []int{0, 10, 400, len(data) / 2, len(data) - 20} {
		if _, err := ParseStatements(data[:n]); !errors.Is(err, ErrMalformed) {
			t.Errorf("first %d bytes: %v", n, err)
		}
	}
}

func TestContentAfterTheRootElementIsMalformed(t *testing.T) {
	data := append(readFile(t, "camt054_v08.xml"), "<Document/>"...)
	refused(t, data, ErrMalformed, "", 0)
	ok := append(readFile(t, "camt054_v08.xml"), "\n<!-- end -->\n"...)
	if _, err := ParseStatements(ok); err != nil {
		t.Fatalf("a trailing comment: %v", err)
	}
}

func TestADoctypeIsRefused(t *testing.T) {
	doc := strings.Replace(string(readFile(t, "camt054_v08.xml")), "<Document ", `<!DOCTYPE Document [<!ENTITY x "y">]><Document `, 1)
	refused(t, []byte(doc), ErrMalformed, "", 0)
}

func TestAnElementThatMayAppearOnceAppearingTwiceRefusesTheWholeFile(t *testing.T) {
	doc := strings.Replace(string(readFile(t, "bad_three_decimals.xml")), `<Amt Ccy="EUR">12.345</Amt>`,
		`<Amt Ccy="EUR">12.34</Amt><Amt Ccy="EUR">99.99</Amt>`, 1)
	refused(t, []byte(doc), ErrDuplicate, entry2+"/Amt", 2)
	doc = strings.Replace(string(readFile(t, "camt054_v08.xml")), "<EndToEndId>ord-5f6a7b8c</EndToEndId>",
		"<EndToEndId>ord-5f6a7b8c</EndToEndId><EndToEndId>ord-other</EndToEndId>", 1)
	refused(t, []byte(doc), ErrDuplicate, "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[6]/NtryDtls[1]/TxDtls[2]/Refs/EndToEndId", 6)
}

// mutate replaces old (which must occur) in a fixture.
func mutate(t *testing.T, file, old, new string) []byte {
	t.Helper()
	s := string(readFile(t, file))
	if !strings.Contains(s, old) {
		t.Fatalf("%s has no %q", file, old)
	}
	return []byte(strings.Replace(s, old, new, 1))
}

func TestMissingRequiredElementsRefuseTheWholeFileAndSayWhich(t *testing.T) {
	const ntry1 = "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]"
	for _, tt := range []struct {
		old, new, path string
		entry          int
	}{
		{"<MsgId>NTF-20260302-0001</MsgId>", "", "Document/BkToCstmrDbtCdtNtfctn/GrpHdr/MsgId", 0},
		{"<CreDtTm>2026-03-02T18:30:00+01:00</CreDtTm>\n    </GrpHdr>", "</GrpHdr>", "Document/BkToCstmrDbtCdtNtfctn/GrpHdr/CreDtTm", 0},
		{"<Id>NTF-20260302-0001-1</Id>", "", "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Id", 0},
		{"<IBAN>DE89370400440532013000</IBAN>\n        </Id>\n        <Ccy>", "</Id><Ccy>", "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Acct/Id/IBAN", 0},
		{"<CdtDbtInd>CRDT</CdtDbtInd>", "", ntry1 + "/CdtDbtInd", 1},
		{"<Sts>\n          <Cd>BOOK</Cd>\n        </Sts>", "", ntry1 + "/Sts", 1},
		{"<Sts>\n          <Cd>BOOK</Cd>\n        </Sts>", "<Sts></Sts>", ntry1 + "/Sts/Cd", 1},
		{`<Amt Ccy="EUR">2500.00</Amt>`, `<Amt>2500.00</Amt>`, ntry1 + "/Amt/@Ccy", 1},
		{`<Amt Ccy="EUR">2500.00</Amt>`, `<Amt Ccy="EUR"></Amt>`, ntry1 + "/Amt", 1},
	} {
		t.Run(tt.path, func(t *testing.T) {
			refused(t, mutate(t, "camt054_v08.xml", tt.old, tt.new), ErrMissing, tt.path, tt.entry)
		})
	}
}

func TestANotificationWithoutItsMessageElementIsRefused(t *testing.T) {
	data := mutate(t, "camt054_v08.xml", "BkToCstmrDbtCdtNtfctn>", "BkToCstmrStmt>")
	refused(t, []byte(strings.Replace(string(data), "BkToCstmrDbtCdtNtfctn>", "BkToCstmrStmt>", 1)), ErrMissing, "Document/BkToCstmrDbtCdtNtfctn", 0)
}

func TestAFileWithoutAccountReportsIsRefused(t *testing.T) {
	s := string(readFile(t, "camt054_v08.xml"))
	s = s[:strings.Index(s, "    <Ntfctn>")] + s[strings.Index(s, "  </BkToCstmrDbtCdtNtfctn>"):]
	refused(t, []byte(s), ErrMissing, "Document/BkToCstmrDbtCdtNtfctn/Ntfctn", 0)
}

func TestAnEntryWithoutAReferenceRefusesTheWholeFile(t *testing.T) {
	data := mutate(t, "bad_currency.xml", `Ccy="eur"`, `Ccy="EUR"`)
	data = []byte(strings.Replace(strings.Replace(string(data), "<NtryRef>2</NtryRef>", "", 1), "<AcctSvcrRef>202603020002</AcctSvcrRef>", "", 1))
	refused(t, data, ErrMissing, entry2+"/AcctSvcrRef", 2)
}

func TestTheReferenceIsAcctSvcrRefElseNtryRef(t *testing.T) {
	data := mutate(t, "camt054_v08.xml", "<AcctSvcrRef>2026030200002</AcctSvcrRef>", "")
	s, err := ParseStatements(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := s[0].Entries[1].Reference; got != "2" {
		t.Fatalf("reference %q, want the NtryRef 2", got)
	}
	if got := s[0].Entries[0].Reference; got != "2026030200001" {
		t.Fatalf("reference %q, want the AcctSvcrRef", got)
	}
}

func TestAnAccountThatIsNotAValidIBANRefusesTheWholeFile(t *testing.T) {
	data := mutate(t, "camt054_v08.xml", "<IBAN>DE89370400440532013000</IBAN>", "<IBAN>DE88370400440532013000</IBAN>")
	msg := refused(t, data, ErrInvalid, "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Acct/Id/IBAN", 0)
	if !strings.Contains(msg, "check digits") {
		t.Fatalf("message %q", msg)
	}
}

func TestValuesThatAreNotOfTheirTypeRefuseTheWholeFile(t *testing.T) {
	const ntry1 = "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]"
	for _, tt := range []struct {
		old, new, path string
		entry          int
	}{
		{"<CdtDbtInd>CRDT</CdtDbtInd>", "<CdtDbtInd>CREDIT</CdtDbtInd>", ntry1 + "/CdtDbtInd", 1},
		{"<Cd>BOOK</Cd>", "<Cd>booked</Cd>", ntry1 + "/Sts/Cd", 1},
		{"<Dt>2026-03-02</Dt>", "<Dt>02.03.2026</Dt>", ntry1 + "/BookgDt/Dt", 1},
		{"<Dt>2026-03-02</Dt>", "<Dt>2026-02-30</Dt>", ntry1 + "/BookgDt/Dt", 1},
		{"<CreDtTm>2026-03-02T18:30:00+01:00</CreDtTm>", "<CreDtTm>yesterday</CreDtTm>", "Document/BkToCstmrDbtCdtNtfctn/GrpHdr/CreDtTm", 0},
		{"<RvslInd>true</RvslInd>", "<RvslInd>yes</RvslInd>", "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[5]/RvslInd", 5},
		{"<Cd>AC04</Cd>", "<Cd>account closed</Cd>", "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[4]/NtryDtls[1]/TxDtls[1]/RtrInf/Rsn/Cd", 4},
	} {
		t.Run(tt.new, func(t *testing.T) {
			refused(t, mutate(t, "camt054_v08.xml", tt.old, tt.new), ErrInvalid, tt.path, tt.entry)
		})
	}
}

func TestDatesAndTimesInTheirOtherFormsAreRead(t *testing.T) {
	data := mutate(t, "camt054_v08.xml", "<CreDtTm>2026-03-02T18:30:00+01:00</CreDtTm>", "<CreDtTm>2026-03-02T17:30:00.123</CreDtTm>")
	data = []byte(strings.Replace(string(data), "<Dt>2026-03-02</Dt>", "<Dt>2026-03-02+01:00</Dt>", 1))
	s, err := ParseStatements(data)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 3, 2, 17, 30, 0, 123e6, time.UTC); !s[0].CreatedAt.Equal(want) {
		t.Errorf("CreatedAt %v, want %v (no offset: UTC)", s[0].CreatedAt, want)
	}
	if got := s[0].Entries[0].BookingDate; !got.Equal(date(2026, 3, 2)) {
		t.Errorf("BookingDate %v", got)
	}
}

func TestATransactionOfABatchWithoutAnAmountRefusesTheWholeFile(t *testing.T) {
	data := mutate(t, "camt054_v08.xml", `<Amt Ccy="EUR">234.56</Amt>`, "")
	refused(t, data, ErrMissing, "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[6]/NtryDtls[1]/TxDtls[2]/Amt", 6)
}

func TestTheAmountOfATransactionIsReadWhereverTheVersionPutsIt(t *testing.T) {
	// camt054_v02.xml has AmtDtls/TxAmt/Amt; InstdAmt is the fallback.
	data := mutate(t, "camt054_v02.xml", "<TxAmt>\n                <Amt Ccy=\"EUR\">234.56</Amt>\n              </TxAmt>",
		"<InstdAmt>\n                <Amt Ccy=\"EUR\">234.56</Amt>\n              </InstdAmt>")
	s, err := ParseStatements(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := s[0].Entries[5].Transactions[1].Amount; got != eur(23456) {
		t.Fatalf("amount %d", got)
	}
}

func TestTheVersionDecidesHowTheStatusIsWritten(t *testing.T) {
	// In .001.02 the status is the text of Sts; Sts/Cd there is not read.
	data := mutate(t, "camt054_v02.xml", "<Sts>BOOK</Sts>", "<Sts><Cd>BOOK</Cd></Sts>")
	refused(t, data, ErrMissing, "Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[1]/Sts", 1)
}

func TestDetectReadsTheTypeFromTheNamespace(t *testing.T) {
	for file, want := range map[string]MessageType{
		"camt054_v08.xml": Camt054V08, "camt054_v02.xml": Camt054V02,
		"camt053_v08.xml": Camt053V08, "camt053_v02.xml": Camt053V02,
		"pain002_v10.xml": Pain002V10, "pain001_sct.golden.xml": Pain001V09,
	} {
		if got, err := Detect(readFile(t, file)); err != nil || got != want {
			t.Errorf("Detect(%s) = %q, %v; want %q", file, got, err, want)
		}
	}
	if _, err := Detect([]byte(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08"/>`)); !errors.Is(err, ErrUnknownMessage) {
		t.Errorf("pacs.008: %v", err)
	}
	if _, err := Detect([]byte(`<Document/>`)); !errors.Is(err, ErrUnknownMessage) {
		t.Errorf("no namespace: %v", err)
	}
	if _, err := Detect([]byte(`<AppHdr xmlns="urn:iso:std:iso:20022:tech:xsd:head.001.001.02"/>`)); !errors.Is(err, ErrUnknownMessage) {
		t.Errorf("AppHdr: %v", err)
	}
	// A prefixed root is the same namespace.
	if got, err := Detect([]byte(`<x:Document xmlns:x="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"/>`)); err != nil || got != Camt053V02 {
		t.Errorf("prefixed: %q, %v", got, err)
	}
}

func TestWithoutAnAccountCurrencyTheStatementsCurrencyIsThatOfAllItsEntries(t *testing.T) {
	data := mutate(t, "camt054_v08.xml", "<Ccy>EUR</Ccy>", "")
	s, err := ParseStatements(data)
	if err != nil || s[0].Currency != "EUR" {
		t.Fatalf("%v, currency %q", err, s[0].Currency)
	}
	data = []byte(strings.Replace(string(data), `<Amt Ccy="EUR">45.90</Amt>`, `<Amt Ccy="CHF">45.90</Amt>`, 1))
	s, err = ParseStatements(data)
	if err != nil || s[0].Currency != "" || s[0].Entries[4].Currency != "CHF" {
		t.Fatalf("%v, currency %q", err, s[0].Currency)
	}
}

func TestEachParserReadsOnlyItsOwnMessageTypes(t *testing.T) {
	camt := readFile(t, "camt054_v08.xml")
	if _, err := ParsePain001(camt); !errors.Is(err, ErrUnknownMessage) {
		t.Errorf("ParsePain001(camt.054): %v", err)
	}
	if _, err := ParsePain002(camt); !errors.Is(err, ErrUnknownMessage) {
		t.Errorf("ParsePain002(camt.054): %v", err)
	}
	if _, err := ParseStatements(readFile(t, "pain001_sct.golden.xml")); !errors.Is(err, ErrUnknownMessage) {
		t.Errorf("ParseStatements(pain.001): %v", err)
	}
}

func TestAFileDeclaredInAnotherEncodingThanUTF8IsRefused(t *testing.T) {
	data := mutate(t, "camt054_v08.xml", `encoding="UTF-8"`, `encoding="ISO-8859-1"`)
	msg := refused(t, data, ErrMalformed, "", 0)
	if !strings.Contains(msg, "ISO-8859-1") {
		t.Fatalf("message %q does not name the encoding", msg)
	}
}

func TestTheNamespaceOfAMessageTypeEndsInIt(t *testing.T) {
	if got := Camt054V08.Namespace(); got != "urn:iso:std:iso:20022:tech:xsd:camt.054.001.08" {
		t.Fatal(got)
	}
}
