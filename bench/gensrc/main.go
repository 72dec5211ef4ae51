// Command gensrc writes a deterministic tree of source-like files for
// benchmarking secrets scanners (see bench/secrets.sh).
//
// Usage:
//
//	go run ./bench/gensrc -out DIR [-mb N] [-seed S]
//
// The tree holds about N MiB of Go, Python, JavaScript, TypeScript, YAML,
// JSON, .env-style, Markdown and shell files of 4–200 KiB each in nested
// directories. The content looks like real code: identifiers, comments and
// literals that mention keys, tokens, secrets and passwords; URLs, hex
// hashes, base64 blobs and UUIDs; environment-variable references and
// documented example credentials. About one fake secret per 200 KiB is
// planted (AWS-style key pairs, ghp_ tokens with valid checksums, postgres
// URLs with passwords, password assignments and PEM private-key blocks);
// all of them are random and none is a real credential. No file or
// directory is hidden except the root .gitignore, which ignores nothing
// that is generated.
//
// The same seed and size always give byte-identical trees. DIR must not
// exist or must be empty.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

const (
	kib = 1 << 10
	mib = 1 << 20

	// secretEvery is the mean number of bytes between planted secrets.
	secretEvery = 200 * kib
)

func main() {
	out := flag.String("out", "", "directory to write the tree into; must not exist or be empty")
	mb := flag.Int("mb", 64, "approximate size of the tree in MiB")
	seed := flag.Uint64("seed", 1, "random seed; the same seed and size give the same tree")
	flag.Parse()
	if *out == "" || *mb <= 0 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	st, err := generate(*out, int64(*mb)*mib, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensrc:", err)
		os.Exit(1)
	}
	fmt.Printf("gensrc: %d files, %d bytes, %d planted secrets in %s\n", st.files, st.bytes, st.planted, *out)
}

type stats struct {
	files, planted int
	bytes          int64
}

// generate writes a tree of about size bytes under dir.
func generate(dir string, size int64, seed uint64) (stats, error) {
	var st stats
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return st, fmt.Errorf("%s: directory is not empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("# scratch files only; every generated file is tracked\n*.tmp\n*.swp\n"), 0o644); err != nil {
		return st, err
	}
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x5ec7e75))}
	used := map[string]bool{}
	var b bytes.Buffer
	for st.bytes < size {
		l := g.lang()
		name := uniquePath(used, l.path(g))
		target := l.min + g.r.IntN(l.max-l.min+1)
		if rest := size - st.bytes; rest < int64(target) {
			target = max(int(rest), l.min)
		}
		b.Reset()
		g.file(&b, l, target)
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return st, err
		}
		if err := os.WriteFile(full, b.Bytes(), 0o644); err != nil {
			return st, err
		}
		st.files++
		st.bytes += int64(b.Len())
	}
	st.planted = g.planted
	return st, nil
}

// uniquePath returns p, or p with a numeric suffix before its extension if
// p is already used, and marks the result used.
func uniquePath(used map[string]bool, p string) string {
	q := p
	ext := filepath.Ext(p)
	for i := 2; used[q]; i++ {
		q = fmt.Sprintf("%s_%d%s", strings.TrimSuffix(p, ext), i, ext)
	}
	used[q] = true
	return q
}

// A lang describes one kind of file: where it lives, how big it gets, and
// how to write its parts. unit appends one top-level construct (a function,
// a section, a document); plant appends a top-level assignment of s.
type lang struct {
	weight   int
	min, max int
	path     func(g *gen) string
	header   func(g *gen, b *bytes.Buffer)
	unit     func(g *gen, b *bytes.Buffer)
	plant    func(g *gen, b *bytes.Buffer, s secret)
	footer   func(g *gen, b *bytes.Buffer)
}

var langs = []lang{
	{weight: 24, min: 4 * kib, max: 200 * kib, path: goPath, header: goHeader, unit: goUnit, plant: goPlant},
	{weight: 16, min: 4 * kib, max: 200 * kib, path: pyPath, header: pyHeader, unit: pyUnit, plant: pyPlant},
	{weight: 10, min: 4 * kib, max: 160 * kib, path: jsPath, header: jsHeader, unit: jsUnit, plant: jsPlant},
	{weight: 10, min: 4 * kib, max: 160 * kib, path: tsPath, header: tsHeader, unit: tsUnit, plant: jsPlant},
	{weight: 10, min: 4 * kib, max: 80 * kib, path: yamlPath, header: yamlHeader, unit: yamlUnit, plant: yamlPlant},
	{weight: 7, min: 4 * kib, max: 200 * kib, path: jsonPath, header: jsonHeader, unit: jsonUnit, plant: jsonPlant, footer: jsonFooter},
	{weight: 4, min: 4 * kib, max: 24 * kib, path: envPath, header: envHeader, unit: envUnit, plant: envPlant},
	{weight: 9, min: 4 * kib, max: 120 * kib, path: mdPath, header: mdHeader, unit: mdUnit, plant: mdPlant},
	{weight: 10, min: 4 * kib, max: 100 * kib, path: shPath, header: shHeader, unit: shUnit, plant: shPlant},
}

// gen is the single source of randomness; everything written depends only
// on the sequence of calls made on it.
type gen struct {
	r       *rand.Rand
	planted int
}

func (g *gen) lang() *lang {
	total := 0
	for _, l := range langs {
		total += l.weight
	}
	n := g.r.IntN(total)
	for i := range langs {
		if n < langs[i].weight {
			return &langs[i]
		}
		n -= langs[i].weight
	}
	panic("unreachable")
}

// file writes one file of at least target bytes, planting a secret after a
// unit with a probability proportional to the unit's size.
func (g *gen) file(b *bytes.Buffer, l *lang, target int) {
	l.header(g, b)
	for b.Len() < target {
		n := b.Len()
		l.unit(g, b)
		if g.r.Float64() < float64(b.Len()-n)/secretEvery {
			l.plant(g, b, g.secret())
			g.planted++
		}
	}
	if l.footer != nil {
		l.footer(g, b)
	}
}

// Vocabulary.

var (
	nouns = []string{
		"account", "address", "archive", "asset", "audit", "batch", "bucket", "cache", "catalog",
		"channel", "client", "cluster", "config", "connection", "consumer", "customer", "dataset",
		"device", "document", "endpoint", "event", "export", "feature", "file", "gateway", "group",
		"handler", "header", "index", "invoice", "job", "ledger", "limit", "listener", "manifest",
		"message", "metric", "module", "node", "notification", "order", "owner", "packet", "page",
		"partition", "payload", "payment", "permission", "pipeline", "plan", "policy", "pool",
		"profile", "project", "provider", "queue", "quota", "record", "region", "registry",
		"release", "report", "request", "resource", "response", "result", "role", "route", "rule",
		"schedule", "schema", "scope", "segment", "server", "service", "session", "shard",
		"snapshot", "source", "stream", "subscription", "target", "task", "template", "tenant",
		"ticket", "timer", "topic", "transaction", "upload", "user", "version", "volume", "webhook",
		"worker", "workspace",
	}
	// secretNouns are the words secrets scanners key on; they appear in
	// identifiers and comments far more often than real secrets do.
	secretNouns = []string{
		"key", "token", "secret", "password", "credential", "auth", "signature", "cert",
		"passphrase", "nonce", "salt", "hmac", "jwt", "oauth", "bearer", "apikey", "access",
	}
	verbs = []string{
		"add", "apply", "build", "cancel", "check", "close", "compute", "create", "decode",
		"delete", "encode", "ensure", "fetch", "find", "flush", "format", "get", "handle", "hash",
		"init", "insert", "list", "load", "lookup", "merge", "migrate", "normalize", "open",
		"parse", "patch", "publish", "read", "refresh", "register", "reload", "remove", "render",
		"resolve", "restore", "retry", "revoke", "rotate", "save", "scan", "send", "set", "sign",
		"split", "start", "stop", "sync", "update", "upload", "validate", "verify", "watch", "write",
	}
	adjectives = []string{
		"active", "cached", "current", "default", "encrypted", "expired", "external", "global",
		"internal", "latest", "local", "max", "min", "new", "old", "pending", "primary", "raw",
		"remote", "signed", "stale", "temp", "trusted", "valid",
	}
	people    = []string{"alice", "bob", "carol", "dmitri", "eve", "farah", "giulia", "hiro", "ines", "jonas"}
	services  = []string{"billing", "gateway", "identity", "ledger", "notifier", "scheduler", "search", "storage", "reports", "payments"}
	apps      = []string{"dashboard", "console", "storefront", "admin", "portal"}
	envs      = []string{"dev", "staging", "production", "sandbox"}
	hosts     = []string{"api.example.com", "auth.example.com", "internal.example.net", "storage.example.org", "registry.example.io", "hooks.example.dev", "cdn.example.com", "metrics.internal.example.net"}
	docHosts  = []string{"https://pkg.go.dev/net/http", "https://docs.python.org/3/library/hashlib.html", "https://developer.mozilla.org/en-US/docs/Web/API/fetch", "https://kubernetes.io/docs/concepts/configuration/secret/", "https://datatracker.ietf.org/doc/html/rfc6749", "https://12factor.net/config"}
	unicodes  = []string{"café", "naïve", "→", "—", "über", "señal", "日本", "✓"}
	goImports = []string{"context", "crypto/hmac", "crypto/sha256", "encoding/base64", "encoding/hex", "encoding/json", "errors", "fmt", "io", "log/slog", "net/http", "net/url", "os", "sort", "strconv", "strings", "sync", "time"}
	pyImports = []string{"os", "re", "json", "time", "hashlib", "hmac", "base64", "logging", "typing", "dataclasses", "datetime", "pathlib", "urllib.parse", "functools", "itertools"}
	jsModules = []string{"axios", "lodash", "express", "react", "zod", "date-fns", "jsonwebtoken", "uuid", "./api", "./utils", "../config", "../hooks/useAuth"}
)

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// chance reports true with probability 1/n.
func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

// words returns n words for an identifier, biased towards secret nouns.
func (g *gen) words(n int) []string {
	ws := make([]string, n)
	for i := range ws {
		switch {
		case g.chance(6):
			ws[i] = g.pick(secretNouns)
		case g.chance(5):
			ws[i] = g.pick(adjectives)
		default:
			ws[i] = g.pick(nouns)
		}
	}
	return ws
}

// funcWords returns a verb followed by one or two nouns.
func (g *gen) funcWords() []string {
	return append([]string{g.pick(verbs)}, g.words(1+g.r.IntN(2))...)
}

func title(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

func camel(ws []string) string {
	var s strings.Builder
	for i, w := range ws {
		if i == 0 {
			s.WriteString(w)
		} else {
			s.WriteString(title(w))
		}
	}
	return s.String()
}

func pascal(ws []string) string {
	var s strings.Builder
	for _, w := range ws {
		s.WriteString(title(w))
	}
	return s.String()
}

func snake(ws []string) string { return strings.Join(ws, "_") }
func upper(ws []string) string { return strings.ToUpper(snake(ws)) }
func kebab(ws []string) string { return strings.Join(ws, "-") }

const (
	alnum   = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	lower   = "abcdefghijklmnopqrstuvwxyz0123456789"
	base32  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64Body = alnum + "+/"
	pwChars = alnum + "!%*+-=?@^_~"
)

func (g *gen) chars(n int, set string) string {
	s := make([]byte, n)
	for i := range s {
		s[i] = set[g.r.IntN(len(set))]
	}
	return string(s)
}

func (g *gen) bytes(n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(g.r.Uint32())
	}
	return p
}

func (g *gen) hex(n int) string { return hex.EncodeToString(g.bytes(n)) }
func (g *gen) b64(n int) string { return base64.StdEncoding.EncodeToString(g.bytes(n)) }
func (g *gen) uuid() string {
	h := g.hex(16)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

func (g *gen) url() string {
	u := "https://" + g.pick(hosts) + "/v" + fmt.Sprint(1+g.r.IntN(3))
	for range 1 + g.r.IntN(3) {
		u += "/" + kebab(g.words(1+g.r.IntN(2)))
	}
	if g.chance(3) {
		u += "?" + snake(g.words(1)) + "=" + g.chars(6+g.r.IntN(6), lower) + "&limit=" + fmt.Sprint(10*(1+g.r.IntN(10)))
	}
	return u
}

// literal returns a string literal's content: the kinds of strings code
// really carries, several of which look like secrets at a glance.
func (g *gen) literal() string {
	switch g.r.IntN(18) {
	case 0, 12:
		return g.url()
	case 1:
		return "sha256:" + g.hex(32)
	case 2:
		return g.hex(20)
	case 3:
		return g.b64(18 + g.r.IntN(60))
	case 4:
		return g.uuid()
	case 5:
		return "/var/lib/" + g.pick(services) + "/" + snake(g.words(2)) + ".db"
	case 6:
		return g.pick(people) + "@example.com"
	case 7:
		return fmt.Sprintf("%s %s: %%v", g.pick(verbs), strings.Join(g.words(2), " "))
	case 8:
		return "${" + upper(g.words(2)) + "}"
	case 9:
		return g.pick(docHosts)
	case 10:
		return fmt.Sprintf("%d.%d.%d", g.r.IntN(4), g.r.IntN(30), g.r.IntN(20))
	case 11, 13:
		return title(strings.Join(g.funcWords(), " ")) + " failed, retrying"
	default:
		return strings.Join(g.words(2+g.r.IntN(3)), " ")
	}
}

// sentence returns one comment sentence.
func (g *gen) sentence() string {
	n, s := g.pick(nouns), g.pick(secretNouns)
	var out string
	switch g.r.IntN(10) {
	case 0:
		out = fmt.Sprintf("%s returns the %s %s for the given %s.", camel(g.funcWords()), g.pick(adjectives), s, n)
	case 1:
		out = fmt.Sprintf("TODO(%s): %s the %s once the %s is %s.", g.pick(people), g.pick(verbs), n, s, g.pick(adjectives))
	case 2:
		out = fmt.Sprintf("NOTE: the %s %s is %s before it is sent to the %s.", n, s, g.pick([]string{"hashed", "redacted", "encrypted", "signed", "validated"}), g.pick(nouns))
	case 3:
		out = fmt.Sprintf("Keep the %s out of logs and error messages; see %s.", s, g.pick(docHosts))
	case 4:
		out = fmt.Sprintf("Deprecated: use %s instead, which also checks the %s.", camel(g.funcWords()), s)
	case 5:
		out = fmt.Sprintf("The %s is read from the environment (%s), never from the %s.", s, upper(append(g.words(1), s)), g.pick(nouns))
	case 6:
		out = fmt.Sprintf("If the %s has expired we %s it and retry the %s at most %d times.", s, g.pick(verbs), n, 1+g.r.IntN(5))
	case 7:
		out = fmt.Sprintf("%s every %s in the %s, skipping %s ones.", title(g.pick(verbs)), n, g.pick(nouns), g.pick(adjectives))
	case 8:
		out = fmt.Sprintf("FIXME: %s is not safe for concurrent use by multiple %ss.", camel(g.words(2)), g.pick(nouns))
	default:
		out = fmt.Sprintf("The %s %s must match the %s, or the %s is rejected.", g.pick(adjectives), n, s, g.pick(nouns))
	}
	if g.chance(25) {
		out += " " + g.pick(unicodes)
	}
	return out
}

func (g *gen) comment(b *bytes.Buffer, indent, marker string, lines int) {
	for range lines {
		fmt.Fprintf(b, "%s%s %s\n", indent, marker, g.sentence())
	}
}

// Planted secrets.

// A secret is one or more assignments: words name the variable, which each
// language spells in its own style. A value with newlines is a PEM block.
type secret []assign

type assign struct {
	words []string
	value string
}

func (g *gen) secret() secret {
	switch g.r.IntN(5) {
	case 0:
		return secret{
			{[]string{"aws", "access", "key", "id"}, "AKIA" + g.chars(16, base32)},
			{[]string{"aws", "secret", "access", "key"}, g.chars(40, b64Body)},
		}
	case 1:
		return secret{{[]string{g.pick([]string{"github", "gh", "ci", "deploy"}), "token"}, g.githubToken()}}
	case 2:
		user := g.pick([]string{"app", "admin", "billing", "reporter", "svc"})
		return secret{{[]string{"database", "url"}, fmt.Sprintf("postgres://%s:%s@%s-db.%s:5432/%s?sslmode=require",
			user, g.chars(12+g.r.IntN(8), alnum), g.pick(services), g.pick(hosts), g.pick(services))}}
	case 3:
		return secret{{[]string{g.pick([]string{"db", "admin", "smtp", "redis", "ldap"}), "password"}, g.chars(12+g.r.IntN(10), pwChars)}}
	default:
		kind := g.pick([]string{"RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY"})
		body := g.b64(600 + g.r.IntN(600))
		var p strings.Builder
		fmt.Fprintf(&p, "-----BEGIN %s-----\n", kind)
		for len(body) > 64 {
			p.WriteString(body[:64] + "\n")
			body = body[64:]
		}
		fmt.Fprintf(&p, "%s\n-----END %s-----", body, kind)
		return secret{{[]string{g.pick([]string{"signing", "tls", "service", "deploy"}), "private", "key"}, p.String()}}
	}
}

// githubToken returns a classic personal access token shaped like a real
// one: ghp_, thirty random characters, then the CRC-32 (IEEE) of those
// thirty as six base-62 digits, so scanners that verify the checksum count
// it too.
func (g *gen) githubToken() string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	body := g.chars(30, alnum)
	sum := crc32.ChecksumIEEE([]byte(body))
	var tail [6]byte
	for i := len(tail) - 1; i >= 0; i-- {
		tail[i] = digits[sum%62]
		sum /= 62
	}
	return "ghp_" + body + string(tail[:])
}

func multiline(v string) bool { return strings.Contains(v, "\n") }

// Go.

func goPath(g *gen) string {
	svc := g.pick(services)
	file := snake(g.words(1+g.r.IntN(2))) + ".go"
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("services/%s/cmd/%s/%s", svc, svc, file)
	case 1:
		return fmt.Sprintf("services/%s/pkg/%s/%s/%s", svc, g.pick(nouns), g.pick(nouns), file)
	default:
		return fmt.Sprintf("services/%s/internal/%s/%s", svc, g.pick(nouns), file)
	}
}

func goHeader(g *gen, b *bytes.Buffer) {
	pkg := g.pick(nouns)
	fmt.Fprintf(b, "// Package %s handles %ss.\n//\n// %s\npackage %s\n\nimport (\n", pkg, pkg, g.sentence(), pkg)
	start := g.r.IntN(len(goImports) - 6)
	for _, imp := range goImports[start : start+3+g.r.IntN(4)] {
		fmt.Fprintf(b, "\t%q\n", imp)
	}
	fmt.Fprintf(b, "\n\t\"github.com/acme/platform/internal/%s\"\n)\n\n", g.pick(nouns))
}

func goUnit(g *gen, b *bytes.Buffer) {
	switch g.r.IntN(6) {
	case 0:
		name := pascal(g.words(2))
		g.comment(b, "", "//", 1+g.r.IntN(2))
		fmt.Fprintf(b, "type %s struct {\n", name)
		for range 3 + g.r.IntN(6) {
			ws := g.words(1 + g.r.IntN(2))
			typ := g.pick([]string{"string", "int", "time.Duration", "[]byte", "bool", "map[string]string", "*http.Client"})
			fmt.Fprintf(b, "\t%s %s `json:\"%s,omitempty\"`\n", pascal(ws), typ, snake(ws))
		}
		b.WriteString("}\n\n")
	case 1:
		b.WriteString("const (\n")
		for range 2 + g.r.IntN(5) {
			ws := g.words(2)
			fmt.Fprintf(b, "\t%s = %q\n", camel(ws), g.literal())
		}
		b.WriteString(")\n\n")
	default:
		ws := g.funcWords()
		recv := ""
		if g.chance(2) {
			recv = fmt.Sprintf("(s *%s) ", pascal(g.words(1)))
		}
		g.comment(b, "", "//", 1+g.r.IntN(3))
		arg := camel(g.words(1 + g.r.IntN(2)))
		fmt.Fprintf(b, "func %s%s(ctx context.Context, %s string) (*%s, error) {\n", recv, camel(ws), arg, pascal(g.words(1)))
		for range 3 + g.r.IntN(10) {
			g.goStmt(b, arg)
		}
		b.WriteString("\treturn out, nil\n}\n\n")
	}
}

func (g *gen) goStmt(b *bytes.Buffer, arg string) {
	v := camel(g.words(1 + g.r.IntN(2)))
	switch g.r.IntN(10) {
	case 0:
		fmt.Fprintf(b, "\t%s := %q\n", v, g.literal())
	case 1:
		fmt.Fprintf(b, "\tif %s == \"\" {\n\t\treturn nil, errors.New(%q)\n\t}\n", arg, g.pick(nouns)+": empty "+strings.Join(g.words(1), " "))
	case 2:
		fmt.Fprintf(b, "\t%s, err := s.%s(ctx, %s)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"%s: %%w\", err)\n\t}\n", v, camel(g.funcWords()), arg, strings.Join(g.funcWords(), " "))
	case 3:
		fmt.Fprintf(b, "\t%s := os.Getenv(%q)\n", v, upper(append(g.words(1), g.pick(secretNouns))))
	case 4:
		fmt.Fprintf(b, "\treq.Header.Set(%q, \"Bearer \"+%s)\n", g.pick([]string{"Authorization", "X-Api-Key", "X-Auth-Token"}), v)
	case 5:
		fmt.Fprintf(b, "\tfor _, %s := range %ss {\n\t\tout.%s = append(out.%s, %s.%s)\n\t}\n", v, v, pascal(g.words(1)), pascal(g.words(1)), v, pascal(g.words(1)))
	case 6:
		fmt.Fprintf(b, "\tsum := sha256.Sum256([]byte(%s))\n\t%s := hex.EncodeToString(sum[:])\n", arg, v)
	case 7:
		fmt.Fprintf(b, "\tslog.Debug(%q, %q, %s)\n", strings.Join(g.funcWords(), " "), snake(g.words(1)), v)
	case 8:
		fmt.Fprintf(b, "\t%s := map[string]string{\n\t\t%q: %q,\n\t\t%q: %q,\n\t}\n", v, snake(g.words(1)), g.literal(), snake(g.words(2)), g.literal())
	default:
		g.comment(b, "\t", "//", 1)
	}
}

func goPlant(g *gen, b *bytes.Buffer, s secret) {
	for _, a := range s {
		if multiline(a.value) {
			fmt.Fprintf(b, "var %s = `%s`\n", camel(a.words), a.value)
		} else {
			fmt.Fprintf(b, "var %s = %q\n", camel(a.words), a.value)
		}
	}
	b.WriteString("\n")
}

// Python.

func pyPath(g *gen) string {
	pkg := g.pick(services)
	if g.chance(4) {
		return fmt.Sprintf("libs/python/%s/tests/test_%s.py", pkg, snake(g.words(1+g.r.IntN(2))))
	}
	return fmt.Sprintf("libs/python/%s/%s/%s.py", pkg, g.pick(nouns), snake(g.words(1+g.r.IntN(2))))
}

func pyHeader(g *gen, b *bytes.Buffer) {
	fmt.Fprintf(b, "\"\"\"%s\"\"\"\n\n", g.sentence())
	start := g.r.IntN(len(pyImports) - 6)
	for _, imp := range pyImports[start : start+2+g.r.IntN(5)] {
		fmt.Fprintf(b, "import %s\n", imp)
	}
	fmt.Fprintf(b, "from acme.%s import %s, %s\n\nlog = logging.getLogger(__name__)\n\n", g.pick(nouns), pascal(g.words(1)), snake(g.funcWords()))
}

func pyUnit(g *gen, b *bytes.Buffer) {
	indent := ""
	if g.chance(3) {
		fmt.Fprintf(b, "\nclass %s:\n    \"\"\"%s\"\"\"\n\n", pascal(g.words(2)), g.sentence())
		for range 2 + g.r.IntN(3) {
			fmt.Fprintf(b, "    %s = %q\n", snake(g.words(2)), g.literal())
		}
		indent = "    "
	}
	for range 1 + g.r.IntN(3) {
		arg := snake(g.words(1 + g.r.IntN(2)))
		self := ""
		if indent != "" {
			self = "self, "
		}
		fmt.Fprintf(b, "\n%sdef %s(%s%s, timeout=%d):\n%s    \"\"\"%s\"\"\"\n", indent, snake(g.funcWords()), self, arg, 5*(1+g.r.IntN(12)), indent, g.sentence())
		for range 2 + g.r.IntN(8) {
			v := snake(g.words(1 + g.r.IntN(2)))
			p := indent + "    "
			switch g.r.IntN(8) {
			case 0:
				fmt.Fprintf(b, "%s%s = %q\n", p, v, g.literal())
			case 1:
				fmt.Fprintf(b, "%s%s = os.environ.get(%q, \"\")\n", p, v, upper(append(g.words(1), g.pick(secretNouns))))
			case 2:
				fmt.Fprintf(b, "%sif not %s:\n%s    raise ValueError(%q)\n", p, arg, p, "missing "+strings.Join(g.words(2), " "))
			case 3:
				fmt.Fprintf(b, "%s%s = hashlib.sha256(%s.encode()).hexdigest()\n", p, v, arg)
			case 4:
				fmt.Fprintf(b, "%sheaders = {\"Authorization\": f\"Bearer {%s}\", \"X-Request-Id\": %q}\n", p, v, g.uuid())
			case 5:
				fmt.Fprintf(b, "%sfor %s in %s:\n%s    log.debug(%q, %s)\n", p, v, arg, p, strings.Join(g.funcWords(), " ")+" %s", v)
			case 6:
				fmt.Fprintf(b, "%s%s = {%q: %q, %q: %d}\n", p, v, snake(g.words(1)), g.literal(), snake(g.words(1)), g.r.IntN(10000))
			default:
				g.comment(b, p, "#", 1)
			}
		}
		fmt.Fprintf(b, "%s    return %s\n", indent, arg)
	}
}

func pyPlant(g *gen, b *bytes.Buffer, s secret) {
	b.WriteString("\n")
	for _, a := range s {
		if multiline(a.value) {
			fmt.Fprintf(b, "%s = \"\"\"%s\n\"\"\"\n", upper(a.words), a.value)
		} else {
			fmt.Fprintf(b, "%s = \"%s\"\n", upper(a.words), a.value)
		}
	}
}

// JavaScript and TypeScript.

func jsPath(g *gen) string {
	return fmt.Sprintf("web/%s/src/%s/%s.js", g.pick(apps), g.pick(nouns), camel(g.words(1+g.r.IntN(2))))
}

func tsPath(g *gen) string {
	if g.chance(3) {
		return fmt.Sprintf("web/%s/src/components/%s/%s.ts", g.pick(apps), pascal(g.words(1)), pascal(g.words(2)))
	}
	return fmt.Sprintf("web/%s/src/%s/%s.ts", g.pick(apps), g.pick(nouns), camel(g.words(1+g.r.IntN(2))))
}

func jsHeader(g *gen, b *bytes.Buffer) {
	for range 2 + g.r.IntN(4) {
		fmt.Fprintf(b, "import { %s, %s } from '%s';\n", camel(g.funcWords()), camel(g.words(1)), g.pick(jsModules))
	}
	fmt.Fprintf(b, "\nconst %s = '%s';\n\n", upper(append(g.words(1), "url")), g.url())
}

func tsHeader(g *gen, b *bytes.Buffer) {
	jsHeader(g, b)
	fmt.Fprintf(b, "export interface %s {\n", pascal(g.words(2)))
	for range 3 + g.r.IntN(5) {
		fmt.Fprintf(b, "  %s%s: %s;\n", camel(g.words(1+g.r.IntN(2))), g.pick([]string{"", "?"}), g.pick([]string{"string", "number", "boolean", "string[]", "Date", "Record<string, string>"}))
	}
	b.WriteString("}\n\n")
}

func jsUnit(g *gen, b *bytes.Buffer) { g.jsFunc(b, false) }
func tsUnit(g *gen, b *bytes.Buffer) { g.jsFunc(b, true) }

func (g *gen) jsFunc(b *bytes.Buffer, typed bool) {
	arg, ret := camel(g.words(1+g.r.IntN(2))), ""
	sig := arg
	if typed {
		sig += ": string"
		ret = ": Promise<" + pascal(g.words(1)) + ">"
	}
	fmt.Fprintf(b, "/**\n * %s\n * @param %s %s\n */\nexport async function %s(%s, options = {})%s {\n", g.sentence(), arg, g.sentence(), camel(g.funcWords()), sig, ret)
	for range 2 + g.r.IntN(9) {
		v := camel(g.words(1 + g.r.IntN(2)))
		switch g.r.IntN(8) {
		case 0:
			fmt.Fprintf(b, "  const %s = '%s';\n", v, g.literal())
		case 1:
			fmt.Fprintf(b, "  const %s = process.env.%s ?? '';\n", v, upper(append(g.words(1), g.pick(secretNouns))))
		case 2:
			fmt.Fprintf(b, "  const res = await fetch(`%s/${%s}`, {\n    method: '%s',\n    headers: { Authorization: `Bearer ${%s}`, 'Content-Type': 'application/json' },\n  });\n", g.url(), arg, g.pick([]string{"GET", "POST", "PUT", "DELETE"}), v)
		case 3:
			fmt.Fprintf(b, "  if (!%s) {\n    throw new Error('%s');\n  }\n", arg, "missing "+strings.Join(g.words(2), " "))
		case 4:
			fmt.Fprintf(b, "  const %s = %s.map((x) => x.%s).filter(Boolean);\n", v, arg, camel(g.words(1)))
		case 5:
			fmt.Fprintf(b, "  const %s = { %s: '%s', %s: %d };\n", v, camel(g.words(1)), g.literal(), camel(g.words(1)), g.r.IntN(5000))
		case 6:
			fmt.Fprintf(b, "  console.debug('%s', %s);\n", strings.Join(g.funcWords(), " "), v)
		default:
			g.comment(b, "  ", "//", 1)
		}
	}
	fmt.Fprintf(b, "  return %s;\n}\n\n", arg)
}

func jsPlant(g *gen, b *bytes.Buffer, s secret) {
	for _, a := range s {
		if multiline(a.value) {
			fmt.Fprintf(b, "export const %s = `%s`;\n", camel(a.words), a.value)
		} else {
			fmt.Fprintf(b, "export const %s = '%s';\n", camel(a.words), a.value)
		}
	}
	b.WriteString("\n")
}

// YAML.

func yamlPath(g *gen) string {
	if g.chance(4) {
		return fmt.Sprintf("ci/workflows/%s.yml", kebab(g.funcWords()))
	}
	return fmt.Sprintf("deploy/%s/%s/%s.yaml", g.pick(envs), g.pick(services), g.pick([]string{"deployment", "service", "configmap", "values", "ingress", "cronjob"}))
}

func yamlHeader(g *gen, b *bytes.Buffer) {
	fmt.Fprintf(b, "# %s\n", g.sentence())
}

func yamlUnit(g *gen, b *bytes.Buffer) {
	svc := g.pick(services)
	fmt.Fprintf(b, "---\napiVersion: apps/v1\nkind: %s\nmetadata:\n  name: %s-%s\n  labels:\n    app: %s\n    version: \"%s\"\n  annotations:\n    checksum/config: %s\nspec:\n  replicas: %d\n  template:\n    spec:\n      containers:\n        - name: %s\n          image: registry.example.io/%s@sha256:%s\n          env:\n",
		g.pick([]string{"Deployment", "StatefulSet", "CronJob", "ConfigMap"}), svc, kebab(g.words(1)), svc, g.literal(), g.hex(32), 1+g.r.IntN(6), svc, svc, g.hex(32))
	for range 2 + g.r.IntN(8) {
		name := upper(g.words(2))
		switch g.r.IntN(4) {
		case 0:
			fmt.Fprintf(b, "            - name: %s\n              valueFrom:\n                secretKeyRef:\n                  name: %s-%s\n                  key: %s\n", name, svc, g.pick(secretNouns), snake(g.words(1)))
		case 1:
			fmt.Fprintf(b, "            - name: %s\n              value: \"${{ secrets.%s }}\"\n", name, upper(append(g.words(1), g.pick(secretNouns))))
		default:
			fmt.Fprintf(b, "            - name: %s\n              value: %q\n", name, g.literal())
		}
	}
	fmt.Fprintf(b, "          resources:\n            limits:\n              cpu: %dm\n              memory: %dMi\n", 100*(1+g.r.IntN(10)), 64*(1+g.r.IntN(16)))
	if g.chance(3) {
		b.WriteString("# " + g.sentence() + "\n")
	}
}

func yamlPlant(g *gen, b *bytes.Buffer, s secret) {
	b.WriteString("---\n")
	for _, a := range s {
		if multiline(a.value) {
			fmt.Fprintf(b, "%s: |\n  %s\n", snake(a.words), strings.ReplaceAll(a.value, "\n", "\n  "))
		} else {
			fmt.Fprintf(b, "%s: \"%s\"\n", snake(a.words), a.value)
		}
	}
}

// JSON.

func jsonPath(g *gen) string {
	if g.chance(2) {
		return fmt.Sprintf("services/%s/testdata/%s.json", g.pick(services), snake(g.words(2)))
	}
	return fmt.Sprintf("web/%s/fixtures/%s.json", g.pick(apps), kebab(g.words(2)))
}

func jsonHeader(g *gen, b *bytes.Buffer) {
	fmt.Fprintf(b, "{\n  \"$schema\": \"%s\",\n  \"version\": \"%s\",\n  \"items\": [\n", g.url(), g.literal())
}

// jsonSep writes the comma that separates array elements, if one is due.
func jsonSep(b *bytes.Buffer) {
	if !bytes.HasSuffix(b.Bytes(), []byte("[\n")) {
		b.WriteString(",\n")
	}
}

func jsonUnit(g *gen, b *bytes.Buffer) {
	jsonSep(b)
	fmt.Fprintf(b, "    {\n      \"id\": \"%s\",\n      \"createdAt\": \"20%02d-%02d-%02dT%02d:%02d:%02dZ\"", g.uuid(), 18+g.r.IntN(8), 1+g.r.IntN(12), 1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60))
	for range 3 + g.r.IntN(8) {
		k := camel(g.words(1 + g.r.IntN(2)))
		switch g.r.IntN(5) {
		case 0:
			fmt.Fprintf(b, ",\n      %q: %d", k, g.r.IntN(100000))
		case 1:
			fmt.Fprintf(b, ",\n      %q: %t", k, g.chance(2))
		case 2:
			fmt.Fprintf(b, ",\n      %q: [%q, %q]", k, g.pick(nouns), g.pick(nouns))
		default:
			fmt.Fprintf(b, ",\n      %q: %q", k, g.literal())
		}
	}
	b.WriteString("\n    }")
}

func jsonPlant(g *gen, b *bytes.Buffer, s secret) {
	jsonSep(b)
	fmt.Fprintf(b, "    {\n      \"id\": \"%s\"", g.uuid())
	for _, a := range s {
		fmt.Fprintf(b, ",\n      \"%s\": \"%s\"", camel(a.words), strings.ReplaceAll(a.value, "\n", `\n`))
	}
	b.WriteString("\n    }")
}

func jsonFooter(g *gen, b *bytes.Buffer) { b.WriteString("\n  ]\n}\n") }

// .env-style configuration.

func envPath(g *gen) string {
	if g.chance(3) {
		return fmt.Sprintf("config/%s.env", g.pick(envs))
	}
	return fmt.Sprintf("deploy/%s/%s/%s.env", g.pick(envs), g.pick(services), g.pick([]string{"app", "runtime", "worker", "example"}))
}

func envHeader(g *gen, b *bytes.Buffer) {
	fmt.Fprintf(b, "# %s\n# %s\n\n", g.sentence(), g.sentence())
}

func envUnit(g *gen, b *bytes.Buffer) {
	fmt.Fprintf(b, "# --- %s ---\n", strings.Join(g.words(2), " "))
	for range 3 + g.r.IntN(8) {
		k := upper(g.words(2))
		switch g.r.IntN(16) {
		case 0, 4:
			fmt.Fprintf(b, "%s=%d\n", k, g.r.IntN(65536))
		case 1:
			fmt.Fprintf(b, "%s_%s=${%s}\n", k, strings.ToUpper(g.pick(secretNouns)), upper(g.words(2)))
		case 2, 5, 6:
			fmt.Fprintf(b, "%s=%s\n", k, g.url())
		case 3:
			fmt.Fprintf(b, "# %s=changeme\n", upper(append(g.words(1), "password")))
		default:
			fmt.Fprintf(b, "%s=\"%s\"\n", k, g.literal())
		}
	}
	b.WriteString("\n")
}

func envPlant(g *gen, b *bytes.Buffer, s secret) {
	for _, a := range s {
		if multiline(a.value) {
			fmt.Fprintf(b, "%s=\"%s\"\n", upper(a.words), strings.ReplaceAll(a.value, "\n", `\n`))
		} else {
			fmt.Fprintf(b, "%s=%s\n", upper(a.words), a.value)
		}
	}
	b.WriteString("\n")
}

// Markdown.

func mdPath(g *gen) string {
	if g.chance(3) {
		return fmt.Sprintf("services/%s/README.md", g.pick(services))
	}
	return fmt.Sprintf("docs/%s/%s.md", g.pick([]string{"runbooks", "design", "guides", "adr"}), kebab(g.words(2)))
}

func mdHeader(g *gen, b *bytes.Buffer) {
	fmt.Fprintf(b, "# %s\n\n%s %s\n\n", title(strings.Join(g.words(3), " ")), g.sentence(), g.sentence())
}

func mdUnit(g *gen, b *bytes.Buffer) {
	fmt.Fprintf(b, "## %s\n\n", title(strings.Join(g.funcWords(), " ")))
	for range 1 + g.r.IntN(3) {
		for range 2 + g.r.IntN(4) {
			b.WriteString(g.sentence() + " ")
		}
		fmt.Fprintf(b, "See [the %s docs](%s).\n\n", g.pick(nouns), g.pick(docHosts))
	}
	switch g.r.IntN(4) {
	case 0:
		fmt.Fprintf(b, "```sh\nexport %s=\"<your-%s>\"\ncurl -sS -H \"Authorization: Bearer $%s\" %s\n```\n\n", upper(append(g.words(1), "token")), g.pick(secretNouns), upper(append(g.words(1), "token")), g.url())
	case 1:
		b.WriteString("| name | type | description |\n|---|---|---|\n")
		for range 3 + g.r.IntN(5) {
			fmt.Fprintf(b, "| `%s` | %s | %s |\n", snake(g.words(2)), g.pick([]string{"string", "int", "bool", "duration"}), g.sentence())
		}
		b.WriteString("\n")
	case 2:
		fmt.Fprintf(b, "For example, with the documented AWS example key `AKIAIOSFODNN7EXAMPLE` and checksum `%s`:\n\n```yaml\n%s: %s\n%s: %s\n```\n\n", g.hex(32), snake(g.words(2)), g.literal(), snake(g.words(2)), g.literal())
	default:
		fmt.Fprintf(b, "- %s\n- %s\n- %s\n\n", g.sentence(), g.sentence(), g.sentence())
	}
}

func mdPlant(g *gen, b *bytes.Buffer, s secret) {
	b.WriteString("```\n")
	for _, a := range s {
		if multiline(a.value) {
			b.WriteString(a.value + "\n")
		} else {
			fmt.Fprintf(b, "%s=%s\n", upper(a.words), a.value)
		}
	}
	b.WriteString("```\n\n")
}

// Shell.

func shPath(g *gen) string {
	return fmt.Sprintf("scripts/%s/%s.sh", g.pick([]string{"ci", "ops", "dev", "release", "db"}), kebab(g.funcWords()))
}

func shHeader(g *gen, b *bytes.Buffer) {
	tok := upper(append(g.words(1), "token"))
	fmt.Fprintf(b, "#!/usr/bin/env bash\n# %s\nset -euo pipefail\n\n: \"${%s:?set %s}\"\nBASE_URL=\"${BASE_URL:-%s}\"\n\n", g.sentence(), tok, tok, g.url())
}

func shUnit(g *gen, b *bytes.Buffer) {
	g.comment(b, "", "#", 1+g.r.IntN(2))
	fmt.Fprintf(b, "%s() {\n", snake(g.funcWords()))
	for range 2 + g.r.IntN(8) {
		v := snake(g.words(1 + g.r.IntN(2)))
		switch g.r.IntN(7) {
		case 0:
			fmt.Fprintf(b, "\tlocal %s=\"%s\"\n", v, g.literal())
		case 1:
			fmt.Fprintf(b, "\tcurl -fsS -H \"Authorization: Bearer ${%s}\" \"${BASE_URL}/%s\" -o \"/tmp/%s.json\"\n", upper(append(g.words(1), "token")), kebab(g.words(2)), v)
		case 2:
			fmt.Fprintf(b, "\tif [[ -z \"${%s:-}\" ]]; then\n\t\techo \"missing %s\" >&2\n\t\treturn 1\n\tfi\n", upper(append(g.words(1), g.pick(secretNouns))), strings.Join(g.words(2), " "))
		case 3:
			fmt.Fprintf(b, "\techo \"%s\" | sha256sum | cut -c1-16\n", g.literal())
		case 4:
			fmt.Fprintf(b, "\tfor f in \"$@\"; do\n\t\tjq -r '.%s // empty' \"$f\"\n\tdone\n", camel(g.words(2)))
		case 5:
			fmt.Fprintf(b, "\tkubectl -n %s get secret %s-%s -o jsonpath='{.data.%s}' | base64 -d\n", g.pick(envs), g.pick(services), g.pick(secretNouns), snake(g.words(1)))
		default:
			g.comment(b, "\t", "#", 1)
		}
	}
	b.WriteString("}\n\n")
}

func shPlant(g *gen, b *bytes.Buffer, s secret) {
	for _, a := range s {
		if multiline(a.value) {
			fmt.Fprintf(b, "cat > \"/tmp/%s.pem\" <<'EOF'\n%s\nEOF\n", kebab(a.words), a.value)
		} else {
			fmt.Fprintf(b, "export %s=\"%s\"\n", upper(a.words), a.value)
		}
	}
	b.WriteString("\n")
}
