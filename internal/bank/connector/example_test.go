package connector_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/fundshare/fundshare-operator/internal/bank/connector"
)

// A consumer's loop: recover at start, then claim, work and finish every file.
func ExampleFolder() {
	dir, err := os.MkdirTemp("", "bank")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	folder, err := connector.OpenFolder(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer folder.Close()
	// The transfer agent delivers a file.
	if err := os.WriteFile(filepath.Join(dir, "inbox", "camt054.xml"), []byte("<Document/>"), 0o600); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	if _, err := folder.Recover(ctx); err != nil {
		log.Fatal(err)
	}
	for {
		c, err := folder.Claim(ctx)
		if errors.Is(err, connector.ErrInboxEmpty) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d bytes\n", c.Name, len(c.Data))
		// Parse, apply (deduplicating by content), then:
		if err := folder.Processed(ctx, c); err != nil {
			log.Fatal(err)
		}
	}
	already, err := folder.Release(ctx, "PAYOUT-20260302-1.xml", []byte("<Document/>"))
	fmt.Println(already, err)
	already, err = folder.Release(ctx, "PAYOUT-20260302-1.xml", []byte("<Document/>"))
	fmt.Println(already, err)
	// Output:
	// camt054.xml: 11 bytes
	// false <nil>
	// true <nil>
}
