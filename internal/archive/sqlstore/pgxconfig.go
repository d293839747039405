package sqlstore

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fundshare/fundshare-operator/internal/archive"
)

// pgx5Config parses a PostgreSQL URL; the error never repeats it (it may hold a password).
func pgx5Config(url string, opts Options) (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%w: the postgres DSN %s does not parse", archive.ErrInvalid, archive.RedactURL(url))
	}
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > opts.OpTimeout {
		cfg.ConnectTimeout = opts.OpTimeout
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if _, set := cfg.RuntimeParams["application_name"]; !set {
		cfg.RuntimeParams["application_name"] = "fundshare-order-archive"
	}
	// A statement the server works on for longer than a store call may wait is cancelled
	// by the server too.
	if _, set := cfg.RuntimeParams["statement_timeout"]; !set {
		cfg.RuntimeParams["statement_timeout"] = fmt.Sprint((opts.OpTimeout + time.Second).Milliseconds())
	}
	return cfg, nil
}
