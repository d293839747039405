// Command manager (cmd/main.go, where kubebuilder v4 expects the manager's entry point)
// runs the fund share operator: the controllers (leader-elected), the admission webhooks
// and the REST facade (on every replica). The wiring is the composition root's
// (cmd/manager/app), its flags one options type (cmd/manager/app/options); this file parses
// them, builds the manager and starts it. The
// +kubebuilder:scaffold markers are where `kubebuilder create api` and `create webhook`
// add a new kind's scheme registration and its controller or webhook setup.
package main

import (
	"context"
	"flag"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/options"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	fsscheme "github.com/fundshare/fundshare-operator/internal/scheme"
	// +kubebuilder:scaffold:imports
)

// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create
// +kubebuilder:rbac:groups=authorization.k8s.io,resources=subjectaccessreviews,verbs=create

var (
	// scheme is the manager's scheme: the built-in kinds and ours (internal/scheme), and
	// what kubebuilder adds in init for a new kind.
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
)

func init() {
	utilruntime.Must(fsscheme.AddToScheme(scheme))
	// +kubebuilder:scaffold:scheme
}

// version is stamped at build time (-ldflags -X main.version=...).
var version = "dev"

func main() {
	o := options.New()
	o.AddFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&o.Log)))
	log := setupLog
	if err := o.Validate(); err != nil {
		log.Error(err, "invalid flags")
		os.Exit(2)
	}
	log.Info("starting fundshare-operator", "version", version, "http2", o.EnableHTTP2)

	c := o.App
	if o.ArchiveDSN != "" {
		st, err := openArchive(o.ArchiveDSN)
		if err != nil {
			log.Error(err, "unable to open the order archive")
			os.Exit(1)
		}
		defer st.Close()
		c.Archive = st
	} else {
		log.Info("no --archive-dsn: no order archive, and done orders stay in the cluster")
	}
	mgr, err := app.NewManager(ctrl.GetConfigOrDie(), o.ManagerOptions(scheme))
	if err != nil {
		log.Error(err, "unable to create manager")
		os.Exit(1)
	}
	if err := app.Setup(mgr, c); err != nil {
		log.Error(err, "unable to set up manager")
		os.Exit(1)
	}
	// +kubebuilder:scaffold:builder
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		log.Error(err, "manager stopped with an error")
		os.Exit(1) //nolint:gocritic // the archive's connections end with the process
	}
}

// openArchive opens the order archive of a --archive-dsn value (migrating its schema).
func openArchive(dsn string) (archive.Store, error) {
	d, err := archive.ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	ctrl.Log.WithName("setup").Info("order archive", "dsn", d.String())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return sqlstore.OpenDSN(ctx, d, sqlstore.Options{})
}
