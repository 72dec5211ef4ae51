package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/secrets"
)

func newCheckURLCmd() *cobra.Command {
	var cfg netguard.Config
	cmd := &cobra.Command{
		Use:   "check-url [--resolve] URL...",
		Short: "Judge URLs with the SSRF guard (- reads one URL a line from stdin); exit 1 when any is blocked",
		Long: `check-url judges each URL as warden's SSRF guard does before any request: the scheme,
the host in every form clients accept (numeric and Unicode IP literals, IPv4 inside IPv6,
zones, user information), the names known to reach this machine, the local network or a
cloud metadata endpoint, and the lists given. Anything that cannot be parsed is blocked.

It prints one JSON line per URL, in order: {"url","allowed","reason"} and, when blocked,
"category". The exit status is 1 when any URL is blocked, 0 when none is, 2 on an error.

--resolve also resolves host names and judges every address they resolve to; a name
that does not resolve is blocked. Without it no request of any kind is made.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := netguard.New(cfg)
			if err != nil {
				return errors.New(shown(err.Error())) // it may quote a host list's URL
			}
			out := bufio.NewWriter(cmd.OutOrStdout())
			enc := json.NewEncoder(out)
			enc.SetEscapeHTML(false)
			anyBlocked := false
			check := func(u string) error {
				v := g.Check(cmd.Context(), u)
				anyBlocked = anyBlocked || !v.Allowed
				line := struct {
					URL      string            `json:"url"`
					Allowed  bool              `json:"allowed"`
					Reason   string            `json:"reason"`
					Category netguard.Category `json:"category,omitempty"`
				}{shown(u), v.Allowed, shown(v.Reason), v.Category}
				if err := enc.Encode(line); err != nil {
					return err
				}
				return out.Flush()
			}
			for _, a := range args {
				if a != "-" {
					if err := check(a); err != nil {
						return err
					}
					continue
				}
				if err := eachLine(cmd.InOrStdin(), check); err != nil {
					return err
				}
			}
			if anyBlocked {
				return exitError{1}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&cfg.ResolveDNS, "resolve", false, "resolve host names and judge every address")
	f.StringSliceVar(&cfg.AllowedHosts, "allow-host", nil, "allow only these hosts (name, *.domain, address or CIDR; repeatable)")
	f.StringSliceVar(&cfg.AllowPrivate, "allow-private", nil, "hosts or CIDRs that may be private or loopback (repeatable)")
	f.StringSliceVar(&cfg.ExtraBlockedHosts, "block", nil, "hosts or CIDRs to block besides the built-in ranges (repeatable)")
	f.StringSliceVar(&cfg.Schemes, "scheme", nil, "allowed schemes (default http,https)")
	f.BoolVar(&cfg.BlockDocumentation, "block-documentation", false, "also block the IPv4 documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24; the IPv6 ones are always blocked)")
	return cmd
}

// shown is text of a URL as check-url prints it: the password of its user
// information and any secret the detector finds (a token in the query)
// masked.
func shown(s string) string { return secrets.MaskURLPasswords(secrets.Redact(s)) }

// eachLine calls fn with each non-blank line of r, trimmed.
func eachLine(r io.Reader, fn func(string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			if err := fn(l); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	return nil
}
