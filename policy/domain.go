package policy

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentwarden/warden/netguard"
)

func (r *Rule) parseDomain(spec string) error {
	d, ok := strings.CutPrefix(spec, "domain:")
	if !ok {
		return errors.New("the WebFetch specifier is domain:HOST, as in WebFetch(domain:example.com)")
	}
	d = strings.TrimSpace(d)
	pathBelow := false
	if rest, ok := strings.CutPrefix(d, "*."); ok {
		d, pathBelow = rest, true
	}
	switch {
	case d == "":
		return errors.New("empty domain")
	case strings.Contains(d, "*"):
		return errors.New("bad domain: only a leading *. label may be a wildcard")
	case strings.ContainsAny(d, "/?#@"):
		return fmt.Errorf("bad domain %q: a domain holds no scheme, path or user", d)
	}
	h, err := netguard.NormalizeHost(d)
	if err != nil {
		return fmt.Errorf("bad domain: %w", err)
	}
	r.host = h
	if pathBelow {
		r.suffix = "." + h
	}
	return nil
}

func (r *Rule) matchHost(h string) bool {
	if r.suffix != "" {
		return len(h) > len(r.suffix) && strings.HasSuffix(h, r.suffix)
	}
	return h == r.host
}

// readHosts normalizes the hosts of the call's URLs and destinations.
func (s *Subject) readHosts() {
	if s.hostsDone {
		return
	}
	s.hostsDone = true
	for _, u := range s.c.URLs {
		h, err := netguard.Hostname(u)
		if err != nil {
			h = ""
			if l := looseHost(u); l != "" {
				s.anyHosts = append(s.anyHosts, l)
			}
		} else {
			s.anyHosts = append(s.anyHosts, h)
		}
		s.urlHosts = append(s.urlHosts, h)
	}
	s.hostBy = make([]*Rule, len(s.urlHosts))
	for _, d := range s.c.Dests {
		raw := d.URL
		if raw == "" {
			raw = d.Host
		}
		if raw == "" {
			continue
		}
		h, err := netguard.Hostname(raw)
		if err != nil && d.URL == "" {
			h, err = netguard.NormalizeHost(raw)
		}
		if err != nil {
			h = looseHost(raw)
		}
		if h != "" {
			s.anyHosts = append(s.anyHosts, h)
		}
	}
}

// looseHost reads the host of a URL netguard refuses, as a browser might,
// so that deny rules still see it: a backslash is a slash, case and one
// trailing dot do not count.
func looseHost(raw string) string {
	raw = strings.ReplaceAll(strings.TrimSpace(raw), `\`, "/")
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}
