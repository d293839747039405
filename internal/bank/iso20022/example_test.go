package iso20022_test

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// A consumer of a notification takes the booked credits and matches them by their RF
// reference; pending entries wait for a later file.
func ExampleParseStatements() {
	data, err := os.ReadFile("testdata/camt054_v08.xml")
	if err != nil {
		panic(err)
	}
	statements, err := iso20022.ParseStatements(data)
	if err != nil {
		fmt.Println("refused:", err) // the whole file: nothing was booked from it
		return
	}
	for _, s := range statements {
		for _, e := range s.Entries {
			if !e.Booked() || e.CreditDebit != iso20022.Credit || e.Reversal {
				continue
			}
			for _, tx := range e.Transactions {
				if rf.Valid(tx.CreditorReference) == nil {
					fmt.Println(e.Reference, tx.CreditorReference, money.Format(tx.Amount, tx.Currency))
				}
			}
		}
	}
	// Output:
	// 2026030200001 RF462026000123 2500.0000 EUR
}

// A payout of 123.4567 EUR cannot be paid: bank files carry cents.
func ExampleWritePain001() {
	batch := &iso20022.Batch{
		MessageID:              "PAYOUT-20260302-1",
		CreatedAt:              time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC),
		DebtorName:             "Fundshare Feeder Fund SICAV",
		DebtorIBAN:             "DE89370400440532013000",
		RequestedExecutionDate: time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC),
		Transfers: []iso20022.Transfer{{
			EndToEndID: "ord-1b2c3d4e", Amount: 1_234_567, Currency: "EUR",
			CreditorName: "Anna Schmidt", CreditorIBAN: "AT611904300234573201",
			CreditorReference: "RF042026000200",
		}},
	}
	_, err := iso20022.WritePain001(batch)
	fmt.Println(err)

	batch.Transfers[0].Amount = 1_234_500 // 123.45 EUR
	out, err := iso20022.WritePain001(batch)
	fmt.Println(err, bytes.Count(out, []byte("<CtrlSum>123.45</CtrlSum>")))
	// Output:
	// pain.001.001.09: Transfers[1].Amount: invalid amount: the amount has more than 2 decimals
	// <nil> 2
}
