package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestControlText checks the judgement of control text fed to nsupdate
// and to daemons' UNIX sockets: each sample gets svc.control_command at
// the stated level, and the benign neighbours get none of it.
func TestControlText(t *testing.T) {
	match := []struct{ cmd, level string }{
		{`printf 'server ns1.example.com\nzone example.com\nupdate delete www.example.com A\nsend\n' | nsupdate -k /etc/bind/K.key`, "high"},
		{`nsupdate -l <<< 'update delete old.example.com'`, "high"},
		{"nsupdate <<'EOF'\nzone example.com\nupdate delete mail.example.com MX\nsend\nEOF", "high"},
		{`echo -e "update add www.example.com 300 A 10.0.0.1\nsend" | nsupdate`, "medium"},
		{`echo "disable server be_app/app1" | sudo socat stdio /var/run/haproxy.sock`, "high"},
		{`echo "shutdown sessions server be_app/app2" | socat stdio unix-connect:/run/haproxy/admin.sock`, "high"},
		{`echo "set server be_app/app1 state maint" | nc -U /var/run/haproxy.sock`, "high"},
		{`echo "set weight be_app/app1 0" | socat - UNIX-CONNECT:/run/haproxy/admin.sock`, "high"},
		{`echo "show info; del map /etc/haproxy/hosts.map #1" | socat stdio /run/haproxy.sock`, "high"},
		{`echo "set weight be_app/app1 50" | nc -U /var/run/haproxy.sock`, "medium"},
		{`echo "clear counters" | socat stdio /var/run/haproxy.sock`, "low"},
		{`echo "flush_all" | nc -U /var/run/memcached.sock`, "high"},
		{`printf 'kill worker-3\n' | socat - UNIX-CONNECT:/run/app/control.sock`, "medium"},
		{`bash -c 'echo "disable frontend www" | socat stdio /var/run/haproxy.sock'`, "high"},
	}
	for _, m := range match {
		fs := analyzeScript(t, m.cmd)
		got, ok := levelOf(fs, RuleControlText)
		if !ok || got.String() != m.level {
			t.Errorf("%q: %s at %v (found %v), want %s; findings:%s", m.cmd, RuleControlText, got, ok, m.level, describe(fs))
		}
	}
	noMatch := []string{
		`echo "show stat" | socat stdio /var/run/haproxy.sock`,
		`echo "show servers state; show info" | socat - UNIX-CONNECT:/run/haproxy/admin.sock`,
		`echo "enable server be_app/app1" | socat stdio /var/run/haproxy.sock`,
		`echo 'ping' | socat - UNIX-CONNECT:/tmp/app.sock`,
		`echo "delete everything" | nc example.com 80`, // no socket: a network peer, judged as such
		`echo "update delete x" > notes.txt`,
		`nsupdate -k K.key changes.txt`,
		`echo stats | nc localhost 11211`,
		`socat TCP-LISTEN:8080,fork UNIX-CONNECT:/run/app.sock`,
	}
	for _, cmd := range noMatch {
		if fs := analyzeScript(t, cmd); len(fs) > 0 {
			if _, ok := levelOf(fs, RuleControlText); ok {
				t.Errorf("%q must not get %s; findings:%s", cmd, RuleControlText, describe(fs))
			}
		}
	}
}

// TestUnixSocketNoHost checks that nc -U names a local socket, not a
// host the network guard would judge.
func TestUnixSocketNoHost(t *testing.T) {
	for _, cmd := range []string{"nc -U /var/run/haproxy.sock", "ncat --unixsock /tmp/x.sock", "nc -Uv /run/a.sock"} {
		for _, f := range analyzeScript(t, cmd) {
			if f.Level > risk.Low {
				t.Errorf("%q: %s %s: %s", cmd, f.Rule, f.Level, f.Reason)
			}
		}
	}
}
