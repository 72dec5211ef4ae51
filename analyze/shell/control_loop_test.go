package shell

import "testing"

// TestControlTextComputed: control text whose words are partly computed
// at run time (a loop variable, an argument) is judged by its verb, the
// computed part left unknown; a line whose verb is harmless stays so.
func TestControlTextComputed(t *testing.T) {
	match := []struct{ cmd, level string }{
		{`for s in app1 app2 app3 app4; do echo "disable server be_app/$s" | sudo socat stdio /run/haproxy/admin.sock; done`, "high"},
		{`for h in a b; do echo "set server be/$h state drain" | socat stdio /var/run/haproxy.sock; done`, "high"},
		{`for z in www api; do echo "update delete $z.example.com A" | nsupdate; done`, "high"},
		{`for k in a b; do echo "del $k" | nc -U /tmp/app.sock; done`, "high"},
		{`echo "set weight be_app/$SRV 50" | nc -U /var/run/haproxy.sock`, "medium"},
		{`printf "disable server be/%s\n" "$s" | socat stdio /run/haproxy/admin.sock`, "high"},
	}
	for _, m := range match {
		fs := analyzeScript(t, m.cmd)
		got, ok := levelOf(fs, RuleControlText)
		if !ok || got.String() != m.level {
			t.Errorf("%q: %s at %v (found %v), want %s; findings:%s", m.cmd, RuleControlText, got, ok, m.level, describe(fs))
		}
	}
	for _, cmd := range []string{
		`for s in app1 app2; do echo "show stat $s" | socat stdio /run/haproxy/admin.sock; done`,
		`for s in a b; do echo "enable server be/$s" | socat stdio /run/haproxy/admin.sock; done`,
		`for s in a b; do echo "ping $s" | socat - UNIX-CONNECT:/tmp/app.sock; done`,
	} {
		if _, ok := levelOf(analyzeScript(t, cmd), RuleControlText); ok {
			t.Errorf("%q: %s fired, want none", cmd, RuleControlText)
		}
	}
}
