package shell

import (
	"strings"

	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/risk"
)

// Mass messaging through CLIs (see webapi.RuleMassSend for the APIs):
// aws sesv2 send-bulk-email, aws ses send-bulk-templated-email, aws
// pinpoint send-messages and send-users-messages, twilio api:notify:…:
// notifications:create send one message to many recipients at once:
// high. aws ses send-email and sesv2 send-email (one message) are not.

// outreachCLIs are the names outreachFindings reads.
var outreachCLIs = map[string]bool{"aws": true, "twilio": true}

// outreachFindings judges command c, named name, as a bulk send.
func outreachFindings(out []risk.Finding, c *Command, name string) []risk.Finding {
	what := ""
	switch name {
	case "aws":
		switch {
		case (argWord(c, "sesv2") || argWord(c, "ses")) && (argWord(c, "send-bulk-email") || argWord(c, "send-bulk-templated-email")):
			what = "sends an e-mail to every destination of the bulk request"
		case argWord(c, "pinpoint") && (argWord(c, "send-messages") || argWord(c, "send-users-messages")):
			what = "sends a message to every address or user of the request"
		}
	case "twilio":
		for i := 1; i < len(c.Args); i++ {
			a := strings.ToLower(c.Args[i])
			if !c.Dynamic[i] && strings.HasPrefix(a, "api:notify:") && strings.HasSuffix(a, "notifications:create") {
				what = "sends a notification to every binding or segment it names"
			}
		}
	}
	if what == "" {
		return out
	}
	for i := 1; i < len(c.Args); i++ {
		if !c.Dynamic[i] && (c.Args[i] == "--help" || c.Args[i] == "help") {
			return out
		}
	}
	return append(out, mayRun(risk.Finding{Analyzer: "shell", Rule: webapi.RuleMassSend, Level: risk.High,
		Reason: "`" + cut(c.Line(), 100) + "` " + what + ": it reaches people outside at once and cannot be called back"}, c))
}
