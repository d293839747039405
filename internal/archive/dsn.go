package archive

import (
	"flag"
	"fmt"
	"net/url"
	"strings"
)

// Backend is the kind of database behind a store.
type Backend string

// The backends.
const (
	// BackendSQLite is the embedded store: a SQLite file, no server (pure Go, no cgo).
	BackendSQLite Backend = "sqlite"
	// BackendPostgres is PostgreSQL (or a Postgres-compatible engine) through pgx.
	BackendPostgres Backend = "postgres"
)

// DSN is a parsed --archive-dsn value.
type DSN struct {
	Backend Backend
	// Path is the SQLite database file (BackendSQLite).
	Path string
	// URL is the PostgreSQL connection URL as given (BackendPostgres); it may hold a
	// password: log String(), never URL.
	URL string
}

// ParseDSN reads a data source name:
//
//	sqlite:///var/lib/fundshare/archive.db   an absolute path
//	sqlite://.local/archive.db               a path relative to the working directory
//	postgres://user:password@host:5432/db?sslmode=verify-full   (or postgresql://)
//
// Errors never repeat the value (it may hold a password).
func ParseDSN(s string) (DSN, error) {
	switch {
	case strings.HasPrefix(s, "sqlite://"):
		path := strings.TrimPrefix(s, "sqlite://")
		if path == "" || strings.ContainsAny(path, "?#") {
			return DSN{}, fmt.Errorf("%w: a sqlite DSN is sqlite://<path to the database file>, without query or fragment", ErrInvalid)
		}
		return DSN{Backend: BackendSQLite, Path: path}, nil
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return DSN{}, fmt.Errorf("%w: a postgres DSN is postgres://user:password@host:port/database?options", ErrInvalid)
		}
		return DSN{Backend: BackendPostgres, URL: s}, nil
	}
	return DSN{}, fmt.Errorf("%w: the archive DSN must start with sqlite:// or postgres://", ErrInvalid)
}

// String is the DSN with any password replaced by "xxxxx": safe to log.
func (d DSN) String() string {
	switch d.Backend {
	case BackendSQLite:
		return "sqlite://" + d.Path
	case BackendPostgres:
		return RedactURL(d.URL)
	}
	return ""
}

// RedactURL returns a connection URL with its password (in the user info or a password
// query parameter) replaced by "xxxxx"; a value that does not parse is replaced whole.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "<unparsable DSN>"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// FlagDSN is the name of the command-line flag of the archive's DSN.
const FlagDSN = "archive-dsn"

// BindDSNFlag registers --archive-dsn on fs, defaulting to def, and returns where the
// value lands.
func BindDSNFlag(fs *flag.FlagSet, def string) *string {
	p := new(string)
	BindDSNFlagVar(fs, p, def)
	return p
}

// BindDSNFlagVar registers --archive-dsn on fs, defaulting to def, writing to p.
func BindDSNFlagVar(fs *flag.FlagSet, p *string, def string) {
	fs.StringVar(p, FlagDSN, def, "the order archive: sqlite://<file> (embedded, no server) or "+
		"postgres://user:password@host:port/db?sslmode=... (see docs/archive.md); the password is never logged")
}
