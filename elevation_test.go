package warden

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// The elevation property: sudo is judged by what it runs, plus a medium
// finding for the elevation itself. Running any command of the corpora
// through sudo, doas or su -c never lowers its level, and running a
// harmless one gives at most medium; the exceptions are what elevation
// itself makes dangerous, each its own finding (an interactive root shell,
// a package installed as root).

// elevations wrap a command line in an elevator. simple is set for those
// that only take one simple command (sudo CMD): a pipeline or a list is
// wrapped by the others alone.
var elevations = []struct {
	name   string
	simple bool
	wrap   func(string) string
}{
	{"sudo", true, func(s string) string { return "sudo " + s }},
	{"sudo -u root -E --", true, func(s string) string { return "sudo -u root -E -- " + s }},
	{"doas", true, func(s string) string { return "doas " + s }},
	{"sudo bash -c", false, func(s string) string { return "sudo bash -c " + shQuote(s) }},
	{"doas sh -c", false, func(s string) string { return "doas sh -c " + shQuote(s) }},
	{"su -c", false, func(s string) string { return "su -c " + shQuote(s) }},
	{"sudo -s", false, func(s string) string { return "sudo -s " + shQuote(s) }},
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// simpleCommand reports a command line that is one simple command: no
// list, pipeline, redirection, substitution or assignment in front.
func simpleCommand(s string) bool {
	if strings.ContainsAny(s, ";&|<>`$()\n{}") {
		return false
	}
	f := strings.Fields(s)
	return len(f) > 0 && !strings.Contains(f[0], "=")
}

// startsWithAssignment reports a command line whose first word is
// NAME=value.
func startsWithAssignment(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	name, _, ok := strings.Cut(f[0], "=")
	return ok && name != "" && !strings.ContainsAny(name, "-/$'\"")
}

// corpusCommands are the Bash command lines of testdata/actions.jsonl and
// testdata/peers/dcg-dev.jsonl, by label.
func corpusCommands(t *testing.T) (harmful, benign []string) {
	t.Helper()
	for _, name := range []string{"testdata/actions.jsonl", "testdata/peers/dcg-dev.jsonl"} {
		h, b := corpusFile(t, name)
		harmful, benign = append(harmful, h...), append(benign, b...)
	}
	return harmful, benign
}

func corpusFile(t *testing.T, name string) (harmful, benign []string) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var it struct {
			Tool      string `json:"tool"`
			Label     string `json:"label"`
			Arguments struct {
				Command any `json:"command"`
			} `json:"arguments"`
		}
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			t.Fatal(err)
		}
		cmd, ok := it.Arguments.Command.(string)
		if it.Tool != "Bash" || !ok || cmd == "" {
			continue
		}
		if it.Label == "harmful" {
			harmful = append(harmful, cmd)
		} else {
			benign = append(benign, cmd)
		}
	}
	return harmful, benign
}

// ownSamples are commands beyond the corpus, with what wrapping them must
// give at most (harmless ones) or at least (their own level).
var elevationSamples = []string{
	"ls -la /var/log", "systemctl restart nginx", "journalctl -u nginx --since today", "cat /etc/nginx/nginx.conf",
	"lsof -i :8080", "ss -tlnp", "docker ps -a", "tail -n 100 /var/log/syslog", "nginx -t", "du -sh /var/lib/docker",
	"chown -R user:user ./build", "kill 4242", "rm -rf /tmp/build-cache", "mkdir -p /srv/app/logs",
}

func TestElevationNeverLowersTheLevel(t *testing.T) {
	e := newEngine(t, WithHome("/home/user"), WithCwd("/home/user/project"), WithoutSessions())
	ctx := context.Background()
	level := func(cmd string) (risk.Level, []string) {
		t.Helper()
		as, _, err := e.Check(ctx, bash(cmd))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return as.Level, ruleIDs(as)
	}
	harmful, benign := corpusCommands(t)
	benign = append(benign, elevationSamples...)
	for _, base := range append(harmful, benign...) {
		want, _ := level(base)
		if want == risk.Unknown {
			continue
		}
		if plain, _ := level("bash -c " + shQuote(base)); plain == risk.Unknown || plain < want {
			// a nested shell alone loses it already: a gap of the
			// wrapping property (TestWrappingNeverLowersTheLevel), not
			// of elevation
			t.Logf("bash -c lowers %q from %s to %s", base, want, plain)
			continue
		}
		harmless := want <= risk.Medium
		for _, el := range elevations {
			if el.simple && !simpleCommand(base) {
				continue
			}
			if el.name == "sudo -s" && startsWithAssignment(base) {
				continue // sudo takes a leading NAME=value word for its environment, and opens a shell
			}
			wrapped := el.wrap(base)
			got, ids := level(wrapped)
			if got == risk.Unknown || got < want {
				t.Errorf("%s lowered %q from %s to %s\nfindings: %v", el.name, base, want, got, ids)
				continue
			}
			if harmless && got > risk.Medium && !elevationMakesIt(ids) {
				t.Errorf("%s raised harmless %q from %s to %s\nfindings: %v", el.name, base, want, got, ids)
			}
		}
	}
}

// elevationMakesIt reports findings that elevation itself makes high: a
// root shell, software installed as root.
func elevationMakesIt(ids []string) bool {
	return slices.ContainsFunc(ids, func(id string) bool {
		return strings.HasPrefix(id, "priv.root_shell=") || strings.HasPrefix(id, "priv.system_install=")
	})
}

func TestElevationJudgedByWhatItRuns(t *testing.T) {
	e := newEngine(t, WithHome("/home/user"), WithCwd("/home/user/project"), WithoutSessions())
	for _, tc := range []struct {
		cmd  string
		want risk.Level
	}{
		{"sudo ls -la", risk.Medium},
		{"doas cat /var/log/nginx/error.log", risk.Medium},
		{"sudo -u www-data php artisan cache:clear", risk.Medium},
		{"su -c 'systemctl status nginx'", risk.Medium},
		{"run0 systemctl restart nginx", risk.Medium},
		{"sudo rm -rf /", risk.Critical},
		{"doas rm -rf /home/user", risk.Critical},
		{"sudo tee /etc/hosts < hosts.new", risk.High},
		{"sudo cp payload /usr/local/bin/ls", risk.High},
		{"sudo -u postgres psql -c 'DROP DATABASE customers'", risk.Critical},
		{"sudo -i", risk.High},
		{"sudo -s", risk.High},
		{"sudo su -", risk.High},
		{"sudo bash", risk.High},
		{"doas -s", risk.High},
		{"su", risk.High},
		{"sudo -iu postgres", risk.High},
		{"sudo find . -exec /bin/sh \\; -quit", risk.High},
		{"sudo apt-get install -y nmap", risk.High},
	} {
		as, _, err := e.Check(context.Background(), bash(tc.cmd))
		if err != nil {
			t.Fatal(err)
		}
		if as.Level != tc.want {
			t.Errorf("%s: %s, want %s (%v)", tc.cmd, as.Level, tc.want, ruleIDs(as))
		}
	}
}
