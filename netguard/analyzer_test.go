package netguard

import (
	"context"
	"strings"
	"testing"

	"net/netip"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

func TestAnalyzer(t *testing.T) {
	cases := []struct {
		name  string
		call  tool.Call
		rule  string // "" : no finding
		level risk.Level
	}{
		{"fetch metadata", tool.Call{URLs: []string{"http://169.254.169.254/latest/meta-data/"}}, RuleMetadata, risk.Critical},
		// a fetch is judged by its destination's class (package effect), as a command's
		{"fetch loopback", tool.Call{URLs: []string{"http://localhost:8080/admin"}}, RuleLocal, risk.Low},
		{"fetch dev server", tool.Call{URLs: []string{"http://127.0.0.1:5173/"}}, RuleLocal, risk.Low},
		{"fetch private", tool.Call{URLs: []string{"http://10.0.0.5/"}}, RuleInternal, risk.Medium},
		{"fetch cluster name", tool.Call{URLs: []string{"http://api.default.svc.cluster.local/"}}, RuleInternal, risk.Medium},
		{"fetch consul", tool.Call{URLs: []string{"http://0.0.0.0:8500/v1/kv/?recurse"}}, RuleControl, risk.High},
		{"curl vault", dest("http://127.0.0.1:8200/v1/secret/data/app", "curl"), RuleControl, risk.High},
		{"curl docker api", dest("http://10.0.0.7:2375/containers/json", "curl"), RuleControl, risk.High},
		{"curl dev server 8080", dest("http://localhost:8080/", "curl"), RuleLocal, risk.Low},
		{"fetch disguised loopback", tool.Call{URLs: []string{"http://0x7f000001:3000/"}}, RuleBlocked, risk.High},
		{"fetch scheme", tool.Call{URLs: []string{"gopher://127.0.0.1:6379/_FLUSHALL"}}, RuleBlocked, risk.High},
		{"fetch garbage", tool.Call{URLs: []string{"http://1.2.3.4.5/"}}, RuleBlocked, risk.High},
		{"fetch public", tool.Call{URLs: []string{"https://pkg.go.dev/net/netip"}}, RuleFetch, risk.Low},
		{"curl metadata", dest("http://169.254.169.254/latest/", "curl"), RuleMetadata, risk.Critical},
		{"nc metadata", tool.Call{Dests: []tool.Dest{{Host: "169.254.169.254", Via: "nc"}}}, RuleMetadata, risk.Critical},
		{"curl dev server", dest("http://localhost:8080/api/users", "curl"), RuleLocal, risk.Low},
		{"curl all interfaces", dest("http://0.0.0.0:8000/", "curl"), RuleLocal, risk.Low},
		{"nc local", tool.Call{Dests: []tool.Dest{{Host: "localhost", Via: "nc"}}}, RuleLocal, risk.Low},
		{"curl internal", dest("http://10.0.0.12:9200/_cat/indices", "curl"), RuleInternal, risk.Medium},
		{"curl internal name", dest("http://search.internal/", "curl"), RuleInternal, risk.Medium},
		{"curl disguised loopback", dest("http://0x7f000001:6379/", "curl"), RuleDisguised, risk.High},
		{"curl mapped", dest("http://[::ffff:10.0.0.1]/", "curl"), RuleDisguised, risk.High},
		{"curl echo DNS", dest("http://10.0.0.1.nip.io/", "curl"), RuleDisguised, risk.High},
		{"curl rebinding", dest("http://7f000001.c0a80001.rbndr.us/", "curl"), RuleDisguised, risk.High},
		{"curl lure", dest("http://docs.example.com@10.0.0.1/", "curl"), RuleDisguised, risk.High},
		{"curl gopher", dest("gopher://127.0.0.1:6379/_FLUSHALL", "curl"), RuleScheme, risk.High},
		{"curl dict", dest("dict://localhost:11211/stat", "curl"), RuleScheme, risk.High},
		{"curl file", dest("file:///etc/hostname", "curl"), "", 0},
		{"curl public", dest("https://example.com/", "curl"), RuleFetch, risk.Low},
		{"curl ftp public", dest("ftp://ftp.example.org/pub/x.tgz", "wget"), RuleFetch, risk.Low},
		{"python public", dest("https://example.com/", "python"), "", 0}, // the code analyzer's
		{"nc public", tool.Call{Dests: []tool.Dest{{Host: "203.0.113.5:9000", Via: "nc"}}}, "", 0},
		{"python metadata", dest("http://169.254.169.254/latest/", "python"), RuleMetadata, risk.Critical},
		// code URLs are also in URLs: judged once, as code
		{"python local", tool.Call{URLs: []string{"http://localhost:5000/"}, Dests: []tool.Dest{{URL: "http://localhost:5000/", Via: "python"}}}, RuleLocal, risk.Low},
	}
	for _, c := range cases {
		fs, err := Analyzer{}.Analyze(context.Background(), &c.call)
		if err != nil {
			t.Fatal(err)
		}
		if c.rule == "" {
			if len(fs) != 0 {
				t.Errorf("%s: unexpected findings %+v", c.name, fs)
			}
			continue
		}
		if len(fs) != 1 || fs[0].Rule != c.rule || fs[0].Level != c.level {
			t.Errorf("%s: findings %+v, want one %s at %s", c.name, fs, c.rule, c.level)
			continue
		}
		if fs[0].Reason == "" || fs[0].Analyzer != Name || fs[0].Resource == "" {
			t.Errorf("%s: incomplete finding %+v", c.name, fs[0])
		}
	}
}

func dest(u, via string) tool.Call { return tool.Call{Dests: []tool.Dest{{URL: u, Via: via}}} }

// The analyzer never resolves names, whatever its guard's configuration.
func TestAnalyzerDoesNotResolve(t *testing.T) {
	asked := 0
	g, err := New(Config{ResolveDNS: true, Resolver: countingResolver{&asked}})
	if err != nil {
		t.Fatal(err)
	}
	c := tool.Call{URLs: []string{"https://example.com/"}, Dests: []tool.Dest{{URL: "http://api.example.org/", Via: "curl"}}}
	fs, _ := (Analyzer{Guard: g}).Analyze(context.Background(), &c)
	for _, f := range fs {
		if f.Rule != RuleFetch {
			t.Errorf("finding %+v", f)
		}
	}
	if asked != 0 {
		t.Errorf("the analyzer resolved %d names", asked)
	}
}

type countingResolver struct{ n *int }

func (r countingResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	*r.n++
	return nil, nil
}

// Resources never show user information or a query, which may hold
// secrets.
func TestResourceHidesCredentials(t *testing.T) {
	c := dest("http://admin:hunter2@10.0.0.1/x?token=abc#f", "curl")
	fs, _ := Analyzer{}.Analyze(context.Background(), &c)
	if len(fs) != 1 || strings.Contains(fs[0].Resource, "hunter2") || strings.Contains(fs[0].Resource, "abc") || fs[0].Resource != "url:http://10.0.0.1/x" {
		t.Errorf("resource %+v", fs)
	}
}
