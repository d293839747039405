package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fundshare/fundshare-operator/internal/notify/signature"
)

const webhooksHelp = `Usage: PROG webhooks listen [--addr HOST:PORT] [--secret-file FILE] [--count N] [--json]

Receives webhooks as an integrator's endpoint does, for local development and the guides:
it verifies each delivery's Standard Webhooks signature (headers webhook-id,
webhook-timestamp, webhook-signature) with the endpoint's secret and refuses one that does
not verify or is more than 5 minutes old (400); it answers 204 to the others, ignores a
webhook-id it has seen before (deliveries are at least once), and prints one line per
event: its type, the object's id and its status (or the ISIN and date of a NAV). --json
prints each event's payload instead. The secret (whsec_...) is read from --secret-file, or
from the environment variable FUNDSHARE_WEBHOOK_SECRET, never from the command line. It
stops after --count events, or on Ctrl-C.
`

// secretEnv holds the signing secret when no --secret-file is given.
const secretEnv = "FUNDSHARE_WEBHOOK_SECRET" //nolint:gosec // the name of the variable, not a secret

// runWebhooks runs "webhooks listen".
func runWebhooks(p *Program, args []string) error {
	if _, err := p.verb("webhooks", webhooksHelp, args, "listen"); err != nil {
		return err
	}
	f := p.newFlags("webhooks listen", webhooksHelp)
	addr := f.String("addr", "127.0.0.1:9000", "where to listen")
	secretFile := f.String("secret-file", "", "a file holding the endpoint's secret (default: $"+secretEnv+")")
	count := f.Int("count", 0, "stop after this many events (0: run until Ctrl-C)")
	asJSON := f.Bool("json", false, "print each event's payload as one JSON line")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	raw := os.Getenv(secretEnv)
	if *secretFile != "" {
		b, err := os.ReadFile(*secretFile)
		if err != nil {
			return fmt.Errorf("webhooks listen: read the secret: %w", err)
		}
		raw = strings.TrimSpace(string(b))
	}
	if raw == "" {
		return usageErrorf("webhooks listen: no secret: give --secret-file or set %s", secretEnv)
	}
	key, err := signature.ParseSecret(raw)
	if err != nil {
		return fmt.Errorf("webhooks listen: the secret: %w", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("webhooks listen: %w", err)
	}
	l := &listener{keys: [][]byte{key}, out: p.Stdout, json: *asJSON, count: *count, seen: map[string]bool{}, done: make(chan struct{})}
	srv := &http.Server{Handler: l, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		select {
		case <-ctx.Done():
		case <-l.done:
		}
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("webhooks listen: %w", err)
	}
	return nil
}

// listener is the receiver of "webhooks listen".
type listener struct {
	keys  [][]byte
	out   io.Writer
	json  bool
	count int

	mu     sync.Mutex
	seen   map[string]bool
	events int
	done   chan struct{}
}

func (l *listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	if err := signature.Verify(l.keys, r.Header, body, time.Now(), 0); err != nil {
		http.Error(w, "refused: "+err.Error(), http.StatusBadRequest)
		return
	}
	var ev struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // prices print as the integers they are
	if err := dec.Decode(&ev); err != nil {
		http.Error(w, "not a JSON event", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent)
	l.mu.Lock()
	defer l.mu.Unlock()
	id := r.Header.Get(signature.HeaderID)
	if l.seen[id] || (l.count > 0 && l.events >= l.count) {
		return
	}
	l.seen[id] = true
	l.events++
	if l.json {
		fmt.Fprintf(l.out, "%s\n", body)
	} else {
		fmt.Fprintln(l.out, describeEvent(ev.Type, ev.Data))
	}
	if l.count > 0 && l.events == l.count {
		close(l.done)
	}
}

// describeEvent is the line printed for an event: its type, then what it is about.
func describeEvent(typ string, data map[string]any) string {
	field := func(k string) string {
		if v, ok := data[k]; ok && v != nil {
			return fmt.Sprint(v)
		}
		return ""
	}
	switch {
	case strings.HasPrefix(typ, "order."):
		return strings.Join([]string{typ, field("id"), field("status")}, " ")
	case typ == "nav.published":
		return strings.Join([]string{typ, field("isin"), field("date"), field("price")}, " ")
	default:
		return strings.TrimSpace(strings.Join([]string{typ, field("id"), field("reason")}, " "))
	}
}
