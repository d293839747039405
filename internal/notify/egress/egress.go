// Package egress is how webhooks leave the service: the check of an endpoint's URL, the
// HTTP client deliveries are sent with, and what a delivery's answer means (Classify,
// RetryAfter, NextDelay).
//
// An endpoint's URL is chosen by an integrator, so the service must not become a way into
// the network it runs in (server-side request forgery). CheckURL refuses, when an endpoint
// is saved, URLs that are not https or that name a non-public IP address; the client's
// dialer refuses, on every connection, an address that is not public after DNS
// resolution, so a public name that resolves (or later rebinds) to 127.0.0.1, 10.0.0.1 or
// 169.254.169.254 is refused too. The client uses no proxy and follows no redirect.
package egress

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Options configures CheckURL and NewClient.
type Options struct {
	// AllowLoopbackHTTP allows loopback addresses (127.0.0.0/8, ::1 and "localhost"),
	// over http as well as https. For tests and local development only.
	AllowLoopbackHTTP bool
	// Timeout bounds a whole request, from dialing to reading the body's end;
	// DefaultTimeout when not positive.
	Timeout time.Duration
}

const (
	// DefaultTimeout is the Timeout of Options that set none.
	DefaultTimeout = 15 * time.Second
	// MaxURLLength is the longest URL CheckURL accepts, in bytes.
	MaxURLLength = 2048
)

// CheckURL returns nil when raw may be an endpoint's URL: an absolute https URL with a
// host, no user name or password, no fragment, at most MaxURLLength long, whose host,
// when an IP address, is public, and otherwise is neither localhost (nor a name under it)
// nor numeric, as "2130706433" or "127.1", which some resolvers read as IPv4 addresses.
// With AllowLoopbackHTTP, a loopback IP address or "localhost" is allowed, over http too.
// Its errors are sentences for the API's users.
//
// CheckURL cannot know the addresses a host name resolves to; the client's dialer checks
// those.
func CheckURL(raw string, opts Options) error {
	if raw == "" {
		return errors.New("the URL must not be empty")
	}
	if len(raw) > MaxURLLength {
		return errors.New("the URL must be at most " + strconv.Itoa(MaxURLLength) + " characters long")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("the URL is not valid")
	}
	if !u.IsAbs() || u.Opaque != "" {
		return errors.New("the URL must be absolute, such as https://example.com/webhooks")
	}
	if u.User != nil {
		return errors.New("the URL must not contain a user name or password")
	}
	if strings.Contains(raw, "#") {
		return errors.New("the URL must not have a fragment (#)")
	}
	host := u.Hostname()
	if host == "" {
		return errors.New("the URL must have a host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return errors.New("the URL's port must be between 1 and 65535")
		}
	}

	loopback := opts.AllowLoopbackHTTP && isLoopbackHost(host)
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && loopback:
	default:
		return errors.New("the URL must use https")
	}
	if loopback {
		return nil
	}

	if addr, err := netip.ParseAddr(host); err == nil {
		if !isPublic(addr) {
			return errors.New("the URL's host must not be a private, loopback, link-local or otherwise reserved IP address")
		}
		return nil
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return errors.New("the URL's host must not be localhost")
	}
	if looksNumeric(name) {
		// "2130706433", "0x7f.1" or "127.1": some resolvers read these as IPv4 addresses.
		return errors.New("the URL's host must be a domain name or a valid IP address")
	}
	return nil
}

// isLoopbackHost reports whether host is a loopback IP address or "localhost".
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.Unmap().IsLoopback()
}

// looksNumeric reports whether the last label of a host name is a number (decimal, or
// hexadecimal with 0x), which no top-level domain is.
func looksNumeric(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if hex, ok := strings.CutPrefix(last, "0x"); ok {
		last = hex
		if last == "" {
			return true
		}
		_, err := strconv.ParseUint(last, 16, 64)
		return err == nil || errors.Is(err, strconv.ErrRange)
	}
	if last == "" {
		return false
	}
	for _, c := range last {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isPublic reports whether addr is a public unicast address a webhook may be sent to: not
// unspecified, loopback, private (RFC 1918, unique local), shared (CGNAT 100.64.0.0/10),
// link-local, multicast, broadcast, reserved for documentation or benchmarking, or
// otherwise special-purpose, nor an IPv4-mapped or NAT64 form of such an address.
func isPublic(addr netip.Addr) bool {
	if !addr.IsValid() {
		return false
	}
	addr = addr.Unmap()
	if addr.Zone() != "" {
		return false
	}
	if addr.Is6() && nat64.Contains(addr) {
		// A NAT64 gateway reaches the IPv4 address in the last 32 bits.
		b := addr.As16()
		return isPublic(netip.AddrFrom4([4]byte(b[12:])))
	}
	if !addr.IsGlobalUnicast() || addr.IsPrivate() {
		return false
	}
	for _, p := range reserved {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// nat64 is the well-known prefix of NAT64 (RFC 6052).
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// reserved are the special-purpose ranges (IANA's IPv4 and IPv6 Special-Purpose Address
// Registries) that IsGlobalUnicast and IsPrivate do not already exclude.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (CGNAT)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation (TEST-NET-1)
	netip.MustParsePrefix("192.88.99.0/24"),  // 6to4 relay anycast (deprecated)
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation (TEST-NET-2)
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation (TEST-NET-3)
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated)
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001::/23"),       // IETF protocol assignments, Teredo
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4
	netip.MustParsePrefix("3fff::/20"),       // documentation
	netip.MustParsePrefix("5f00::/16"),       // segment routing SIDs
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}
