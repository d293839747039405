package rf_test

import (
	"fmt"

	"github.com/fundshare/fundshare-operator/internal/bank/rf"
)

func ExampleNew() {
	ref, _ := rf.New("539007547034")
	printed, _ := rf.Format(ref)
	fmt.Println(ref)
	fmt.Println(printed)
	// Output:
	// RF18539007547034
	// RF18 5390 0754 7034
}

func ExampleValid() {
	fmt.Println(rf.Valid("rf18 5390 0754 7034"))
	fmt.Println(rf.Valid("RF19 5390 0754 7034"))
	// Output:
	// <nil>
	// invalid RF creditor reference: the check digits do not match
}
