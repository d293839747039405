package ordercache

import (
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/klog/v2"
)

// TestTurningOffWatchListLogsNoError: the manager turns client-go's watch-list off at
// every start; it must do so without the error line client-go logs when its gates are
// replaced after they have been read ("has already been used and now it's being
// overwritten"), which every start printed.
func TestTurningOffWatchListLogsNoError(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	klog.SetLogger(funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, prefix+" "+args)
	}, funcr.Options{Verbosity: 0}))
	defer klog.ClearLogger()

	_ = clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) // read, as the scheme's registration does
	turnOffWatchList()
	if clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		t.Fatal("WatchListClient is still on")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range logged {
		if strings.Contains(l, "feature gates") {
			t.Errorf("logged: %s", l)
		}
	}
}
