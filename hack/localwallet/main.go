// Command localwallet is an investor's wallet and the cash issuer on `make run`'s local
// chain, for the guides (docs/secondary.md, "Cash on chain on make run"): it signs what the
// operator never signs for an investor.
//
//	localwallet new-key                          a fresh key: prints {"address", "key"}
//	localwallet fund --to ADDR --cash UNITS      the admin key sends 1 ether of gas money and
//	                                             issues UNITS of the euro settlement token
//	localwallet escrow --key HEX --reference REF --amount UNITS
//	                                             approves the settlement contract and escrows
//	                                             UNITS under REF (a SECONDARY BUY's payment)
//	localwallet balance --of ADDR                the euro settlement token's balanceOf
//
// It reads the chain from .local/chain.json and the admin key from .local/chain/admin.key
// (--local-dir changes the folder). It is a development tool of the local chain only: it
// refuses any other chain id.
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
)

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "localwallet:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New("usage: localwallet new-key | fund --to ADDR --cash UNITS | escrow --key HEX --reference REF --amount UNITS | balance --of ADDR")
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	dir := fs.String("local-dir", ".local", "make run's local folder")
	to := fs.String("to", "", "fund: the address to fund")
	cash := fs.Int64("cash", 0, "fund: euro settlement token units to issue (10,000 a euro)")
	key := fs.String("key", "", "escrow: the payer's private key, hexadecimal")
	ref := fs.String("reference", "", "escrow: the order's escrow_reference")
	amount := fs.Int64("amount", 0, "escrow: the order's escrow_amount")
	of := fs.String("of", "", "balance: the address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cmd == "new-key" {
		k, err := crypto.GenerateKey()
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(map[string]string{
			"address": crypto.PubkeyToAddress(k.PublicKey).Hex(), "key": hex.EncodeToString(crypto.FromECDSA(k)),
		})
	}
	w, err := open(ctx, *dir)
	if err != nil {
		return err
	}
	defer w.eth.Close()
	switch cmd {
	case "fund":
		if !common.IsHexAddress(*to) || *cash < 0 {
			return errors.New("fund: --to must be an address and --cash not negative")
		}
		return w.fund(ctx, common.HexToAddress(*to), *cash)
	case "escrow":
		payer, err := chain.NewKeySigner(strings.TrimPrefix(*key, "0x"))
		if err != nil {
			return fmt.Errorf("escrow: --key: %w", err)
		}
		r, err := hex.DecodeString(strings.TrimPrefix(*ref, "0x"))
		if err != nil || len(r) != 32 || *amount <= 0 {
			return errors.New("escrow: --reference must be 0x and 64 hexadecimal digits and --amount positive")
		}
		return w.escrow(ctx, payer, [32]byte(r), *amount)
	case "balance":
		if !common.IsHexAddress(*of) {
			return errors.New("balance: --of must be an address")
		}
		c := contracts.NewCashToken()
		b, err := bind.Call(c.Instance(w.eth, w.info.CashToken), &bind.CallOpts{Context: ctx}, c.PackBalanceOf(common.HexToAddress(*of)), c.UnpackBalanceOf)
		if err != nil {
			return err
		}
		fmt.Println(b.String())
		return nil
	}
	return fmt.Errorf("unknown command %q", cmd)
}

type wallet struct {
	eth     *ethclient.Client
	info    localchain.Info
	chainID *big.Int
	dir     string
}

func open(ctx context.Context, dir string) (*wallet, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "chain.json")) //nolint:gosec // the developer's own make run folder (--local-dir)
	if err != nil {
		return nil, fmt.Errorf("read make run's chain.json (is make run running?): %w", err)
	}
	w := &wallet{dir: dir}
	if err := json.Unmarshal(raw, &w.info); err != nil {
		return nil, fmt.Errorf("chain.json: %w", err)
	}
	if w.info.CashToken == (common.Address{}) || w.info.Settlement == (common.Address{}) {
		return nil, errors.New("chain.json names no cash_token or settlement: restart make run")
	}
	if w.eth, err = ethclient.DialContext(ctx, w.info.RPCURL); err != nil {
		return nil, err
	}
	if w.chainID, err = chain.VerifyChainID(ctx, w.eth, chain.NetworkLocal, 0); err != nil {
		w.eth.Close()
		return nil, fmt.Errorf("only make run's local chain: %w", err)
	}
	return w, nil
}

func (w *wallet) adminSigner() (*chain.KeySigner, error) {
	raw, err := os.ReadFile(filepath.Join(w.dir, "chain", "admin.key")) //nolint:gosec // the developer's own make run folder (--local-dir)
	if err != nil {
		return nil, fmt.Errorf("the local chain's admin key: %w", err)
	}
	return chain.NewKeySigner(strings.TrimSpace(string(raw)))
}

// fund sends 1 ether of gas money to to and issues it cash units of the settlement token.
func (w *wallet) fund(ctx context.Context, to common.Address, cash int64) error {
	admin, err := w.adminSigner()
	if err != nil {
		return err
	}
	nonce, err := w.eth.PendingNonceAt(ctx, admin.Address())
	if err != nil {
		return err
	}
	tip, err := w.eth.SuggestGasTipCap(ctx)
	if err != nil {
		return err
	}
	head, err := w.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		return err
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	gas, err := admin.SignTx(ctx, types.NewTx(&types.DynamicFeeTx{
		ChainID: w.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: 21_000, To: &to,
		Value: new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil),
	}), w.chainID)
	if err != nil {
		return err
	}
	if err := w.eth.SendTransaction(ctx, gas); err != nil {
		return err
	}
	if err := w.mined(ctx, gas); err != nil {
		return err
	}
	if cash == 0 {
		return nil
	}
	c := contracts.NewCashToken()
	tx, err := bind.Transact(c.Instance(w.eth, w.info.CashToken), chain.TransactOpts(ctx, admin, w.chainID), c.PackMint(to, big.NewInt(cash)))
	if err != nil {
		return fmt.Errorf("issue cash: %w", chain.DecodeError(err))
	}
	return w.mined(ctx, tx)
}

// escrow approves the settlement contract for amount and escrows it under ref.
func (w *wallet) escrow(ctx context.Context, payer *chain.KeySigner, ref [32]byte, amount int64) error {
	c, d := contracts.NewCashToken(), contracts.NewDeliveryVersusPayment()
	tx, err := bind.Transact(c.Instance(w.eth, w.info.CashToken), chain.TransactOpts(ctx, payer, w.chainID), c.PackApprove(w.info.Settlement, big.NewInt(amount)))
	if err != nil {
		return fmt.Errorf("approve: %w", chain.DecodeError(err))
	}
	if err := w.mined(ctx, tx); err != nil {
		return err
	}
	tx, err = bind.Transact(d.Instance(w.eth, w.info.Settlement), chain.TransactOpts(ctx, payer, w.chainID), d.PackEscrow(ref, w.info.CashToken, big.NewInt(amount)))
	if err != nil {
		return fmt.Errorf("escrow: %w", chain.DecodeError(err))
	}
	if err := w.mined(ctx, tx); err != nil {
		return err
	}
	fmt.Println(tx.Hash().Hex())
	return nil
}

// mined waits (at most a minute) for tx's receipt and fails unless it succeeded.
func (w *wallet) mined(ctx context.Context, tx *types.Transaction) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	r, err := bind.WaitMined(ctx, w.eth, tx.Hash())
	if err != nil {
		return fmt.Errorf("transaction %s: %w", tx.Hash().Hex(), err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return fmt.Errorf("transaction %s reverted", tx.Hash().Hex())
	}
	return nil
}
