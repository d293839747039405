package egress

import (
	"net/netip"
	"strings"
	"testing"
)

func TestCheckURLAcceptsAPublicHTTPSURL(t *testing.T) {
	for _, raw := range []string{
		"https://example.com/webhooks",
		"https://hooks.example.com:8443/a/b?tenant=1&x=%20",
		"https://example.com.",
		"https://93.184.215.14/hook",
		"https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook",
		"https://[64:ff9b::5db8:d70e]/hook", // NAT64 of 93.184.215.14
		"HTTPS://Example.COM/",
		"https://" + strings.Repeat("a", 63) + ".example.com/" + strings.Repeat("p", MaxURLLength-len("https://.example.com/")-63),
	} {
		if err := CheckURL(raw, Options{}); err != nil {
			t.Errorf("CheckURL(%q) = %v, want nil", raw, err)
		}
	}
}

func TestCheckURLRefusesWhatIsNotAPublicHTTPSURL(t *testing.T) {
	const notPublic = "must not be a private, loopback, link-local or otherwise reserved IP address"
	tests := []struct {
		raw, want string
	}{
		{"", "must not be empty"},
		{"https://example.com/" + strings.Repeat("p", MaxURLLength), "at most 2048 characters"},
		{"https://exa mple.com/", "not valid"},
		{"/webhooks", "must be absolute"},
		{"example.com/webhooks", "must be absolute"},
		{"https:example.com", "must be absolute"},
		{"https://user:pass@example.com/", "user name or password"},
		{"https://user@example.com/", "user name or password"},
		{"https://example.com/#frag", "fragment"},
		{"https://example.com/#", "fragment"},
		{"https:///webhooks", "must have a host"},
		{"https://:443/webhooks", "must have a host"},
		{"https://example.com:0/", "port"},
		{"https://example.com:70000/", "port"},
		{"http://example.com/webhooks", "must use https"},
		{"ftp://example.com/webhooks", "must use https"},
		{"http://127.0.0.1:8080/", "must use https"},
		{"http://localhost:8080/", "must use https"},
		{"https://localhost/", "must not be localhost"},
		{"https://api.localhost/", "must not be localhost"},
		{"https://2130706433/", "domain name or a valid IP address"},
		{"https://0x7f000001/", "domain name or a valid IP address"},
		{"https://127.1/", "domain name or a valid IP address"},
		{"https://127.0.0.1/", notPublic},
		{"https://169.254.169.254/latest/meta-data/", notPublic},
		{"https://10.0.0.1/", notPublic},
		{"https://172.16.0.1/", notPublic},
		{"https://192.168.1.1/", notPublic},
		{"https://100.64.0.1/", notPublic},
		{"https://0.0.0.0/", notPublic},
		{"https://0.1.2.3/", notPublic},
		{"https://255.255.255.255/", notPublic},
		{"https://224.0.0.1/", notPublic},
		{"https://192.0.2.1/", notPublic},
		{"https://198.51.100.1/", notPublic},
		{"https://203.0.113.1/", notPublic},
		{"https://198.18.0.1/", notPublic},
		{"https://[::]/", notPublic},
		{"https://[::1]/", notPublic},
		{"https://[fc00::1]/", notPublic},
		{"https://[fd12:3456::1]/", notPublic},
		{"https://[fe80::1]/", notPublic},
		{"https://[fe80::1%25eth0]/", notPublic},
		{"https://[ff02::1]/", notPublic},
		{"https://[2001:db8::1]/", notPublic},
		{"https://[::ffff:127.0.0.1]/", notPublic},
		{"https://[::ffff:10.0.0.1]/", notPublic},
		{"https://[::ffff:169.254.169.254]/", notPublic},
		{"https://[64:ff9b::a9fe:a9fe]/", notPublic}, // NAT64 of 169.254.169.254
		{"https://[::127.0.0.1]/", notPublic},
	}
	for _, tt := range tests {
		err := CheckURL(tt.raw, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckURL(%q) = %v, want an error saying %q", tt.raw, err, tt.want)
		}
	}
}

func TestCheckURLAllowsLoopbackOnlyWithTheAllowance(t *testing.T) {
	allow := Options{AllowLoopbackHTTP: true}
	for _, raw := range []string{
		"http://127.0.0.1:8080/hook",
		"http://127.8.9.10/hook",
		"https://127.0.0.1:8443/hook",
		"http://[::1]:8080/hook",
		"http://localhost:8080/hook",
		"http://LOCALHOST/hook",
		"https://localhost/hook",
	} {
		if err := CheckURL(raw, allow); err != nil {
			t.Errorf("with the allowance, CheckURL(%q) = %v, want nil", raw, err)
		}
		if err := CheckURL(raw, Options{}); err == nil {
			t.Errorf("without the allowance, CheckURL(%q) = nil, want an error", raw)
		}
	}
	// The allowance is for loopback only: http elsewhere and other non-public addresses
	// stay refused.
	for raw, want := range map[string]string{
		"http://example.com/hook":          "must use https",
		"http://10.0.0.1/hook":             "must use https",
		"https://10.0.0.1/hook":            "reserved IP address",
		"https://169.254.169.254/hook":     "reserved IP address",
		"http://api.localhost/hook":        "must use https",
		"https://user@127.0.0.1/hook":      "user name or password",
		"http://127.0.0.1:8080/hook#frag":  "fragment",
		"http://localhost.example.com/":    "must use https",
		"http://[::ffff:192.168.0.1]:80/x": "must use https",
	} {
		if err := CheckURL(raw, allow); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("with the allowance, CheckURL(%q) = %v, want an error saying %q", raw, err, want)
		}
	}
}

func TestOnlyPublicAddressesArePublic(t *testing.T) {
	tests := map[string]bool{
		"1.1.1.1":              true,
		"8.8.8.8":              true,
		"93.184.215.14":        true,
		"100.63.255.255":       true,
		"100.128.0.0":          true,
		"172.32.0.1":           true,
		"2606:4700::1111":      true,
		"::ffff:8.8.8.8":       true,
		"64:ff9b::808:808":     true,
		"0.0.0.0":              false,
		"10.255.255.255":       false,
		"100.64.0.0":           false,
		"100.127.255.255":      false,
		"127.0.0.1":            false,
		"169.254.169.254":      false,
		"172.31.255.255":       false,
		"192.0.0.8":            false,
		"192.168.0.1":          false,
		"239.255.255.250":      false,
		"240.0.0.1":            false,
		"255.255.255.255":      false,
		"::":                   false,
		"::1":                  false,
		"::ffff:127.0.0.1":     false,
		"::ffff:100.64.0.1":    false,
		"64:ff9b::7f00:1":      false,
		"64:ff9b:1::808:808":   false,
		"100::1":               false,
		"2001::1":              false,
		"2001:db8::1":          false,
		"2002:7f00:1::1":       false,
		"3fff::1":              false,
		"fc00::1":              false,
		"fe80::1":              false,
		"fe80::1%eth0":         false,
		"fec0::1":              false,
		"ff0e::1":              false,
		"fd00:ec2::254":        false,
		"2606:4700::1111%eth0": false,
	}
	for s, want := range tests {
		if got := isPublic(netip.MustParseAddr(s)); got != want {
			t.Errorf("isPublic(%s) = %v, want %v", s, got, want)
		}
	}
	if isPublic(netip.Addr{}) {
		t.Error("the zero Addr is public")
	}
}
