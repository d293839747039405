package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"
	"github.com/fundshare/fundshare-operator/internal/notify/signature"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=webhookendpoints,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=webhookendpoints/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=webhookendpoints/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get

// FailingTooLong is how long every delivery to an endpoint may fail before it is disabled.
const FailingTooLong = 5 * 24 * time.Hour

const (
	// pendingBatch is how many pending deliveries a worker reads at once.
	pendingBatch = 200
	// poll is how often a worker looks at its pending deliveries without being woken.
	poll = 30 * time.Second
	// storeBackoff is the wait after the store failed.
	storeBackoff = 2 * time.Second
	// secretTTL is how long a worker signs with the secret it read before reading it again
	// (a rotation reaches the deliveries within it; the old secret stays valid 24 h).
	secretTTL = 30 * time.Second
	// responseHead is how much of an answer's body the log keeps.
	responseHead = 1 << 10
	// coalesce is how long a woken worker waits for more events before its round.
	coalesce = 25 * time.Millisecond
	// flushTimeout bounds the recording of a round's attempts.
	flushTimeout = 10 * time.Second
	// attemptWindow is how long a round's attempts wait for other workers' to share their
	// transaction.
	attemptWindow = 2 * time.Millisecond
	// pruneEvery is how often the leader prunes the log.
	pruneEvery = time.Hour
	// userAgent names the sender.
	userAgent = "fundshare-webhooks/1"
)

// Dispatcher delivers the recorded events: one worker per enabled endpoint, each sending
// its deliveries one at a time in sequence order, a subject's later events never before an
// earlier one succeeded or was given up; an endpoint that is slow, failing or hanging holds
// up only its own worker. It runs on the leader only.
type Dispatcher struct {
	// Cache lists the endpoints; Live reads their Secrets (the manager does not watch
	// Secrets); Writer writes the endpoints' status.
	Cache  client.Reader
	Live   client.Reader
	Writer client.Client
	Store  notify.Store
	// HTTP sends the requests (egress.NewClient: SSRF-safe, 15 s timeout); Egress are its
	// options, whose URL rule every request is checked against again (an endpoint admitted
	// under other options, or while admission was off, is refused here).
	HTTP   *http.Client
	Egress egress.Options
	// Recorder records webhook_endpoint.disabled events.
	Recorder *notify.Recorder
	Log      logr.Logger
	// Now is the clock; nil: time.Now.
	Now func() time.Time

	// attempts records the workers' rounds of attempts: rounds that end together share one
	// transaction, so ten busy endpoints cost one writer of the store, not ten.
	attempts notify.Group[notify.Attempt]
	mu       sync.Mutex
	workers  map[string]*worker // by endpoint UID
	ctx      context.Context
	resync   chan struct{}
}

// NeedLeaderElection: only the leader delivers.
func (d *Dispatcher) NeedLeaderElection() bool { return true }

func (d *Dispatcher) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// Start runs the workers until ctx ends.
func (d *Dispatcher) Start(ctx context.Context) error {
	d.mu.Lock()
	d.ctx = ctx
	d.workers = map[string]*worker{}
	d.attempts = notify.Group[notify.Attempt]{Window: attemptWindow, Timeout: flushTimeout,
		Write: func(ctx context.Context, made []notify.Attempt) error { return d.Store.Attempted(ctx, made...) }}
	if d.resync == nil {
		d.resync = make(chan struct{}, 1)
	}
	d.mu.Unlock()
	t := time.NewTicker(poll)
	defer t.Stop()
	lastPrune := time.Time{}
	for {
		if now := d.now(); now.Sub(lastPrune) >= pruneEvery {
			// The log keeps notify.Retention; what is older goes (never a pending delivery).
			if n, err := d.Store.Prune(ctx, now.Add(-notify.Retention)); err != nil {
				d.Log.Error(err, "prune the webhook log")
			} else {
				lastPrune = now
				if n > 0 {
					d.Log.Info("pruned the webhook log", "rows", n)
				}
			}
		}
		if err := d.sync(ctx); err != nil {
			d.Log.Error(err, "list webhook endpoints")
		}
		select {
		case <-ctx.Done():
			d.mu.Lock()
			defer d.mu.Unlock()
			for _, w := range d.workers {
				w.cancel()
			}
			for _, w := range d.workers {
				<-w.done
			}
			return nil
		case <-d.resync:
		case <-t.C:
		}
	}
}

// Resync makes the dispatcher read the endpoints again (one was created, changed or
// deleted).
func (d *Dispatcher) Resync() {
	d.mu.Lock()
	if d.resync == nil {
		d.resync = make(chan struct{}, 1)
	}
	ch := d.resync
	d.mu.Unlock()
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Wake tells every worker that new deliveries may be due (the recorder calls it).
func (d *Dispatcher) Wake() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, w := range d.workers {
		w.poke()
	}
}

// Active reports whether an endpoint receives events: not disabled by its owner nor by the
// dispatcher, and not being deleted.
func Active(ep *investv1.WebhookEndpoint) bool {
	return !ep.Spec.Disabled && ep.Status.DisabledBy == nil && ep.DeletionTimestamp.IsZero()
}

// Endpoints lists the active endpoints of every tenant, as the store fans out to them.
func Endpoints(ctx context.Context, r client.Reader) ([]notify.Endpoint, error) {
	var list investv1.WebhookEndpointList
	if err := r.List(ctx, &list); err != nil {
		return nil, err
	}
	out := make([]notify.Endpoint, 0, len(list.Items))
	for i := range list.Items {
		ep := &list.Items[i]
		if !Active(ep) {
			continue
		}
		types := make([]notify.EventType, len(ep.Spec.EventTypes))
		for j, t := range ep.Spec.EventTypes {
			types[j] = notify.EventType(t)
		}
		out = append(out, notify.Endpoint{UID: string(ep.UID), Namespace: ep.Namespace, Types: types})
	}
	return out, nil
}

// sync starts a worker for each active endpoint and stops the others'.
func (d *Dispatcher) sync(ctx context.Context) error {
	var list investv1.WebhookEndpointList
	if err := d.Cache.List(ctx, &list); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	keep := map[string]bool{}
	failing := 0
	for i := range list.Items {
		ep := list.Items[i].DeepCopy()
		if !Active(ep) {
			continue
		}
		if ep.Status.FailingSince != nil {
			failing++
		}
		uid := string(ep.UID)
		keep[uid] = true
		if w, ok := d.workers[uid]; ok {
			w.set(ep)
			continue
		}
		wctx, cancel := context.WithCancel(d.ctx)
		w := &worker{d: d, uid: uid, cancel: cancel, done: make(chan struct{}), wake: make(chan struct{}, 1),
			log: d.Log.WithValues("endpoint", ep.Namespace+"/"+ep.Name)}
		w.set(ep)
		d.workers[uid] = w
		go w.run(wctx)
	}
	failingEndpoints.Set(float64(failing))
	for uid, w := range d.workers {
		if !keep[uid] {
			w.cancel()
			delete(d.workers, uid)
		}
	}
	return nil
}

// worker delivers one endpoint's events.
type worker struct {
	d      *Dispatcher
	uid    string
	cancel context.CancelFunc
	done   chan struct{}
	wake   chan struct{}
	log    logr.Logger

	mu       sync.Mutex
	ep       *investv1.WebhookEndpoint
	keys     [][]byte
	keysRead time.Time
	keysFrom string // the Secret's name the keys were read from

	// made are the attempts of the current round, recorded when it ends (flush); only the
	// worker's goroutine touches them.
	made []notify.Attempt
}

func (w *worker) set(ep *investv1.WebhookEndpoint) {
	w.mu.Lock()
	w.ep = ep
	w.mu.Unlock()
}

func (w *worker) endpoint() *investv1.WebhookEndpoint {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ep
}

func (w *worker) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *worker) run(ctx context.Context) {
	defer close(w.done)
	for {
		wait := w.round(ctx)
		if wait == 0 {
			continue
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-w.wake:
			// Woken by new events: let the ones recorded right after join this round, so
			// that a busy stream costs a few rounds (and attempt writes) a second, not one
			// per event.
			t.Stop()
			select {
			case <-ctx.Done():
				return
			case <-time.After(coalesce):
			}
		case <-t.C:
		}
		t.Stop()
	}
}

// round sends what is due of one batch of pending deliveries and returns how long to wait
// before the next round (0: at once, there is more).
func (w *worker) round(ctx context.Context) time.Duration {
	// The round's attempts are recorded together when it ends (one transaction, not one
	// per request); one made and not recorded (a crash) is made again: at least once.
	defer w.flush(ctx)
	pending, err := w.d.Store.Pending(ctx, w.uid, pendingBatch)
	if err != nil {
		if ctx.Err() == nil {
			w.log.Error(err, "read pending deliveries")
		}
		return storeBackoff
	}
	blocked := map[string]bool{}
	wait := poll
	sent := false
	for _, dl := range pending {
		if ctx.Err() != nil {
			return storeBackoff
		}
		if blocked[dl.Event.Subject] {
			continue
		}
		now := w.d.now()
		if dl.NextAt.After(now) {
			blocked[dl.Event.Subject] = true
			wait = min(wait, dl.NextAt.Sub(now))
			continue
		}
		ok, stop := w.deliver(ctx, dl)
		sent = true
		if stop {
			return poll
		}
		if !ok {
			blocked[dl.Event.Subject] = true
		}
	}
	if sent && len(pending) == pendingBatch {
		return 0
	}
	return max(wait, 10*time.Millisecond)
}

// deliver makes one attempt of dl. ok: it succeeded; stop: the endpoint was disabled (or
// the worker is stopping), send nothing more.
func (w *worker) deliver(ctx context.Context, dl notify.Delivery) (ok, stop bool) {
	ep := w.endpoint()
	a := notify.Attempt{EndpointUID: w.uid, EventID: dl.Event.ID, EventType: dl.Event.Type, Number: dl.Attempts + 1, At: w.d.now()}
	resp, err := w.send(ctx, ep, dl.Event, a.At)
	a.Latency = w.d.now().Sub(a.At)
	if ctx.Err() != nil {
		return false, true // stopping: the attempt is not recorded and is made again
	}
	verdict := egress.Retry
	var retryAfter time.Duration
	var hasRetryAfter bool
	if err != nil {
		a.Error = err.Error()
	} else {
		a.StatusCode, a.ResponseHead = resp.status, resp.head
		verdict = egress.Classify(resp.status)
		retryAfter, hasRetryAfter = egress.RetryAfter(resp.header, a.At)
	}
	switch verdict {
	case egress.Success:
		a.Outcome = notify.Succeeded
	case egress.Gone:
		a.Outcome = notify.Disabled
	default:
		delay, more := egress.NextDelay(a.Number, rand.Float64)
		if hasRetryAfter && more {
			delay = retryAfter
		}
		if more {
			a.Outcome, a.NextAt = notify.Retrying, a.At.Add(delay)
		} else {
			a.Outcome = notify.Failed
		}
	}
	attemptsTotal.WithLabelValues(string(a.Outcome)).Inc()
	if a.Outcome == notify.Succeeded && a.Number == 1 {
		deliveryLatency.Observe(w.d.now().Sub(dl.Event.OccurredAt).Seconds())
	}
	w.made = append(w.made, a)
	switch a.Outcome {
	case notify.Succeeded:
		w.succeeded(ctx, ep, a.At)
		return true, false
	case notify.Disabled:
		w.disable(ctx, ep, "Gone", fmt.Sprintf("the endpoint answered %d Gone to event %s", a.StatusCode, a.EventID))
		return false, true
	}
	return false, w.failed(ctx, ep, a)
}

// flush records the attempts made since the last flush. It outlives a stopping worker's
// context by a few seconds, so that a graceful stop sends nothing twice.
func (w *worker) flush(ctx context.Context) {
	if len(w.made) == 0 {
		return
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flushTimeout)
	defer cancel()
	if err := w.d.attempts.Do(fctx, w.made...); err != nil && !errors.Is(err, notify.ErrNotFound) {
		// Made but not recorded: they are made again (at least once).
		w.log.Error(err, "record delivery attempts", "attempts", len(w.made))
	}
	w.made = w.made[:0]
}

// answer is what the worker keeps of a response.
type answer struct {
	status int
	header http.Header
	head   string
}

func (w *worker) send(ctx context.Context, ep *investv1.WebhookEndpoint, e notify.Event, at time.Time) (*answer, error) {
	if err := egress.CheckURL(ep.Spec.URL, w.d.Egress); err != nil {
		return nil, fmt.Errorf("the endpoint's URL is refused: %w", err)
	}
	keys, err := w.secret(ctx, ep)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.Spec.URL, bytes.NewReader(e.Payload))
	if err != nil {
		return nil, fmt.Errorf("the endpoint's URL: %w", err)
	}
	req.Header = signature.Headers(keys, e.ID, at, e.Payload)
	req.Header.Set("User-Agent", userAgent)
	resp, err := w.d.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	head, _ := io.ReadAll(io.LimitReader(resp.Body, responseHead))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return &answer{status: resp.StatusCode, header: resp.Header, head: strings.ToValidUTF8(string(head), string(utf8.RuneError))}, nil
}

// secret returns the signing keys of the endpoint: its secret, and the previous one while
// a rotation's overlap lasts.
func (w *worker) secret(ctx context.Context, ep *investv1.WebhookEndpoint) ([][]byte, error) {
	w.mu.Lock()
	if w.keys != nil && w.keysFrom == ep.Spec.SecretRef.Name && w.d.now().Sub(w.keysRead) < secretTTL {
		keys := w.keys
		w.mu.Unlock()
		return keys, nil
	}
	w.mu.Unlock()
	var s corev1.Secret
	if err := w.d.Live.Get(ctx, client.ObjectKey{Namespace: ep.Namespace, Name: ep.Spec.SecretRef.Name}, &s); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("the signing secret %s/%s does not exist", ep.Namespace, ep.Spec.SecretRef.Name)
		}
		return nil, fmt.Errorf("read the signing secret: %w", err)
	}
	keys, err := SigningKeys(&s, w.d.now())
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	w.keys, w.keysRead, w.keysFrom = keys, w.d.now(), ep.Spec.SecretRef.Name
	w.mu.Unlock()
	return keys, nil
}

// SigningKeys are the keys a Secret of an endpoint signs with at now: its secret, then
// the previous one until its expiry.
func SigningKeys(s *corev1.Secret, now time.Time) ([][]byte, error) {
	key, err := signature.ParseSecret(string(s.Data[investv1.WebhookSecretKey]))
	if err != nil {
		return nil, fmt.Errorf("the signing secret %s/%s, key %q: %w", s.Namespace, s.Name, investv1.WebhookSecretKey, err)
	}
	keys := [][]byte{key}
	if prev := s.Data[investv1.WebhookPreviousSecretKey]; len(prev) > 0 {
		until, err := time.Parse(time.RFC3339, string(s.Data[investv1.WebhookPreviousSecretExpiresKey]))
		if err == nil && now.Before(until) {
			if old, err := signature.ParseSecret(string(prev)); err == nil {
				keys = append(keys, old)
			}
		}
	}
	return keys, nil
}

// succeeded clears the endpoint's run of failures. The time of the last success is
// written at most once a minute, so that a busy endpoint costs no write per event.
func (w *worker) succeeded(ctx context.Context, ep *investv1.WebhookEndpoint, at time.Time) {
	st := ep.Status
	if st.FailingSince == nil && st.LastSuccessAt != nil && at.Sub(st.LastSuccessAt.Time) < time.Minute {
		return
	}
	w.patchStatus(ctx, ep, func(s *investv1.WebhookEndpointStatus) {
		s.FailingSince = nil
		s.LastSuccessAt = &metav1.Time{Time: at}
	})
}

// failed notes a failed attempt: the run of failures starts, or, when it has lasted
// FailingTooLong, the endpoint is disabled (stop).
func (w *worker) failed(ctx context.Context, ep *investv1.WebhookEndpoint, a notify.Attempt) (stop bool) {
	if since := ep.Status.FailingSince; since != nil {
		if a.At.Sub(since.Time) >= FailingTooLong {
			w.disable(ctx, ep, "FailingTooLong", fmt.Sprintf("every delivery failed since %s; the last: %s",
				since.UTC().Format(time.RFC3339), describe(a)))
			return true
		}
		return false
	}
	w.patchStatus(ctx, ep, func(s *investv1.WebhookEndpointStatus) { s.FailingSince = &metav1.Time{Time: a.At} })
	return false
}

func describe(a notify.Attempt) string {
	if a.StatusCode != 0 {
		return fmt.Sprintf("answered %d", a.StatusCode)
	}
	return a.Error
}

// disable marks the endpoint disabled by the dispatcher and tells the tenant's other
// endpoints (webhook_endpoint.disabled). It works on the dispatcher's context, not the
// worker's: the status write makes the dispatcher stop this worker.
func (w *worker) disable(_ context.Context, ep *investv1.WebhookEndpoint, reason, message string) {
	w.d.mu.Lock()
	ctx := w.d.ctx
	w.d.mu.Unlock()
	at := w.d.now()
	if !w.patchStatus(ctx, ep, func(s *investv1.WebhookEndpointStatus) {
		s.DisabledBy = &investv1.WebhookDisabled{Reason: reason, At: metav1.Time{Time: at}, Message: truncate(message, 1024)}
	}) {
		return
	}
	disabledTotal.WithLabelValues(reason).Inc()
	w.log.Info("webhook endpoint disabled", "reason", reason, "message", message)
	if w.d.Recorder != nil {
		e := notify.EndpointDisabledEvent(ep, reason, at)
		if err := w.d.Recorder.Record(ctx, "webhookendpoint/"+string(ep.UID), []notify.Event{e}); err != nil {
			w.log.Error(err, "record webhook_endpoint.disabled")
		}
	}
	w.d.Resync()
}

// patchStatus merges change into the endpoint's status; it reports whether the write
// succeeded. The worker's copy follows.
func (w *worker) patchStatus(ctx context.Context, ep *investv1.WebhookEndpoint, change func(*investv1.WebhookEndpointStatus)) bool {
	next := ep.DeepCopy()
	change(&next.Status)
	if err := w.d.Writer.Status().Patch(ctx, next, client.MergeFrom(ep)); err != nil {
		if !apierrors.IsNotFound(err) {
			w.log.Error(err, "write the webhook endpoint's status")
		}
		return false
	}
	w.set(next)
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
