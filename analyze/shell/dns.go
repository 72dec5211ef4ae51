package shell

import (
	"encoding/json"
	"strings"

	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/risk"
)

// DNS record changes through the providers' CLIs (see webapi.SensitiveRecord
// for which records decide where a domain's mail or traffic goes): aws
// route53 change-resource-record-sets (its change batch read), gcloud dns
// record-sets create|update|delete and transaction add|remove, az network
// dns record-set TYPE …, doctl compute domain records create|update|delete,
// flarectl dns create|update|create-or-update|delete. A sensitive record
// created, changed or removed is high (dns.record_change); another record
// created or changed is medium; reads give nothing. Deletions of any
// record are high through the rows and the verb grammar already.

// dnsCLIs are the names dnsFindings reads.
var dnsCLIs = map[string]bool{"aws": true, "gcloud": true, "az": true, "doctl": true, "flarectl": true}

// dnsFindings judges command c, named name, as a DNS record change.
func dnsFindings(out []risk.Finding, c *Command, name string) []risk.Finding {
	var ok bool
	var recName, typ, content, verb string
	switch name {
	case "aws":
		if !argWord(c, "change-resource-record-sets") {
			return out
		}
		batch, has := flagValue(c, false, "--change-batch")
		if !has {
			return out
		}
		if f, ok := route53Finding(batch); ok {
			out = append(out, mayRun(f, c))
		}
		return out
	case "gcloud":
		// gcloud dns record-sets VERB [NAME] --type T --rrdatas …
		verb, ok = afterWords(c, "record-sets")
		if ok && verb == "transaction" {
			verb, ok = afterWords(c, "transaction")
			if verb == "add" || verb == "remove" {
				verb = "update"
			}
		}
		if !ok || verb != "create" && verb != "update" && verb != "delete" {
			return out
		}
		recName, _ = flagValue(c, false, "--name")
		if recName == "" {
			recName, _ = afterWords(c, verb)
		}
		typ, _ = flagValue(c, false, "--type")
		content, _ = flagValue(c, false, "--rrdatas")
	case "az":
		// az network dns record-set TYPE VERB -z ZONE -n NAME
		typ, ok = afterWords(c, "record-set")
		if !ok {
			return out
		}
		verb, _ = afterWords(c, typ)
		switch {
		case strings.HasPrefix(verb, "add") || strings.HasPrefix(verb, "set") || verb == "update" || verb == "create":
			verb = "update"
		case strings.HasPrefix(verb, "remove") || verb == "delete":
			verb = "delete"
		default:
			return out
		}
		recName, _ = flagValue(c, false, "-n", "--name", "--record-set-name")
		content, _ = flagValue(c, false, "--value", "-v", "--exchange", "--nsdname", "--cname")
	case "doctl":
		// doctl compute domain records VERB DOMAIN --record-type T --record-name N
		verb, ok = afterWords(c, "records")
		if !ok || verb != "create" && verb != "update" && verb != "delete" {
			return out
		}
		typ, _ = flagValue(c, false, "--record-type")
		recName, _ = flagValue(c, false, "--record-name")
		content, _ = flagValue(c, false, "--record-data")
		if typ == "" && verb == "delete" {
			return out // by ID: its type is not shown (the rows judge the deletion)
		}
	case "flarectl":
		verb, ok = afterWords(c, "dns")
		if !ok || verb != "create" && verb != "update" && verb != "create-or-update" && verb != "delete" {
			return out
		}
		typ, _ = flagValue(c, false, "--type")
		recName, _ = flagValue(c, false, "--name")
		content, _ = flagValue(c, false, "--content")
		if typ == "" && verb == "delete" {
			return out
		}
	default:
		return out
	}
	what := webapi.SensitiveRecord(recName, typ, content)
	f := risk.Finding{Analyzer: "shell", Rule: webapi.RuleDNSChange, Level: risk.High, Resource: "dns:" + cut(recName, 80)}
	switch {
	case what != "":
		f.Reason = "`" + cut(c.Line(), 100) + "` changes " + what + ": mail or traffic for the domain goes where the new record says, for everyone"
	case verb == "delete":
		return out // the rows and the verb grammar judge a deletion
	default:
		f.Level, f.Reversible = risk.Medium, true
		f.Reason = "`" + cut(c.Line(), 100) + "` changes a DNS record: what resolves through it goes where the new record says"
	}
	return append(out, mayRun(f, c))
}

// afterWords returns the static word after the word w among c's
// arguments.
func afterWords(c *Command, w string) (string, bool) {
	for i := 1; i+1 < len(c.Args); i++ {
		if !c.Dynamic[i] && c.Args[i] == w {
			if c.Dynamic[i+1] || strings.HasPrefix(c.Args[i+1], "-") {
				return "", false
			}
			return c.Args[i+1], true
		}
	}
	return "", false
}

// route53Finding judges a Route 53 change batch: high when it changes a
// record webapi.SensitiveRecord names; medium otherwise, and when the
// batch is in a file or cannot be read; nothing for a batch that only
// deletes ordinary records (the rows judge deletions).
func route53Finding(batch string) (risk.Finding, bool) {
	f := risk.Finding{Analyzer: "shell", Rule: webapi.RuleDNSChange, Level: risk.Medium, Reversible: true,
		Reason: "aws route53 change-resource-record-sets changes DNS records: what resolves through them goes where the new records say"}
	var b struct {
		Changes []struct {
			Action            string
			ResourceRecordSet struct {
				Name            string
				Type            string
				AliasTarget     *json.RawMessage
				ResourceRecords []struct{ Value string }
			}
		}
	}
	if len(batch) > 1<<16 || json.Unmarshal([]byte(batch), &b) != nil {
		return f, true
	}
	deletes := len(b.Changes) > 0
	for _, ch := range b.Changes {
		deletes = deletes && strings.EqualFold(ch.Action, "DELETE")
		s := ch.ResourceRecordSet
		content := ""
		for _, v := range s.ResourceRecords {
			content += v.Value + " "
		}
		typ := s.Type
		if s.AliasTarget != nil && (typ == "A" || typ == "AAAA") {
			typ = "ALIAS"
		}
		if what := webapi.SensitiveRecord(s.Name, typ, content); what != "" {
			f.Level, f.Reversible, f.Resource = risk.High, false, "dns:"+cut(s.Name, 80)
			f.Reason = "aws route53 change-resource-record-sets " + strings.ToUpper(ch.Action) + "s " + cut(s.Name, 80) + ", changing " + what +
				": mail or traffic for the domain goes where the new record says, for everyone"
			return f, true
		}
	}
	return f, !deletes // a deletion of ordinary records: the rows judge it
}
