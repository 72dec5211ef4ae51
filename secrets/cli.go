package secrets

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// The grammar of password-bearing command-line arguments (cli.yaml): the
// flags of known programs, the variables programs read a password from,
// and the long flags that name a credential whatever the program. The
// rule whose scanner is "cli" applies it to shell text.

// cli.yaml is the source people edit; the binary holds it as Go data
// (cliData, cli_gen.go).
//go:generate go test -run TestCLIGenerated . -args -update

// cliFlag is one password-bearing flag of a program.
type cliFlag struct {
	Names    []string `yaml:"names"`
	Attached bool     `yaml:"attached"`
	Value    string   `yaml:"value"`
}

// cliCommand is a program and its password-bearing flags.
type cliCommand struct {
	Names   []string  `yaml:"names"`
	Sub     []string  `yaml:"sub"`
	Flags   []cliFlag `yaml:"flags"`
	Match   []string  `yaml:"match"`
	NoMatch []string  `yaml:"no_match"`

	spellings []spelling
	needles   [][]byte // text one of which the command's line must hold
	// the needles start with '-' (flags): dash says one is "-" alone,
	// second marks the bytes that follow the '-' of the others
	dash   bool
	second [256]bool
}

// spelling is one name of a flag, compiled.
type spelling struct {
	name, eq string // -p; --password and --password=
	long     bool   // the value is =attached or the next word
	flag     *cliFlag
}

// cliNames is a list of names with samples (env, generic).
type cliNames struct {
	Names   []string `yaml:"names"`
	Match   []string `yaml:"match"`
	NoMatch []string `yaml:"no_match"`
}

// cliGrammar is cli.yaml, indexed.
type cliGrammar struct {
	Commands []*cliCommand `yaml:"commands"`
	Env      cliNames      `yaml:"env"`
	Generic  cliNames      `yaml:"generic"`

	byName  map[string]*cliCommand
	env     map[string]bool
	generic map[string]bool
}

var valueForms = map[string]bool{"": true, "userpass": true, "userpct": true, "usercomma": true, "passprefix": true, "last": true}

// parseCLI reads and checks a grammar in the format of cli.yaml, whose
// entries must carry samples.
func parseCLI(data []byte) (*cliGrammar, error) {
	g := &cliGrammar{}
	if err := yaml.Unmarshal(data, g); err != nil {
		return nil, fmt.Errorf("secrets: cli.yaml: %w", err)
	}
	for _, c := range g.Commands {
		if len(c.Match) == 0 {
			return nil, fmt.Errorf("secrets: cli.yaml: %v: names, flags and match samples are required", c.Names)
		}
	}
	if len(g.Env.Match) == 0 || len(g.Generic.Match) == 0 {
		return nil, fmt.Errorf("secrets: cli.yaml: env and generic need match samples")
	}
	if err := g.index(); err != nil {
		return nil, err
	}
	return g, nil
}

// builtinCLI is the grammar of cli.yaml (cliData, generated into
// cli_gen.go), indexed on first use.
var builtinCLI = sync.OnceValue(func() *cliGrammar {
	g := cliData()
	if err := g.index(); err != nil {
		panic(err) // cli.yaml is checked by tests, and cli_gen.go is generated from it
	}
	return g
})

// scanBuiltinCLI is scanCLI of the built-in grammar: the scan of a rule
// whose scanner is cli.
func scanBuiltinCLI(st *cliState, text []byte, ks, ke int) { builtinCLI().scanCLI(st, text, ks, ke) }

// index checks the grammar's entries and builds its lookups.
func (g *cliGrammar) index() error {
	g.byName, g.env, g.generic = map[string]*cliCommand{}, map[string]bool{}, map[string]bool{}
	for _, c := range g.Commands {
		if len(c.Names) == 0 || len(c.Flags) == 0 {
			return fmt.Errorf("secrets: cli.yaml: %v: names and flags are required", c.Names)
		}
		for _, n := range c.Names {
			if n == "" || strings.ToLower(n) != n || g.byName[n] != nil {
				return fmt.Errorf("secrets: cli.yaml: command %q: empty, not lower case or listed twice", n)
			}
			g.byName[n] = c
		}
		for _, f := range c.Flags {
			if !valueForms[f.Value] || len(f.Names) == 0 {
				return fmt.Errorf("secrets: cli.yaml: %v: flag %v: bad value form %q", c.Names, f.Names, f.Value)
			}
			for _, n := range f.Names {
				if !strings.HasPrefix(n, "-") || len(n) < 2 {
					return fmt.Errorf("secrets: cli.yaml: %v: flag %q does not start with -", c.Names, n)
				}
			}
		}
		for i := range c.Flags {
			for _, n := range c.Flags[i].Names {
				c.spellings = append(c.spellings, spelling{name: n, eq: n + "=", long: len(n) > 2, flag: &c.Flags[i]})
				needle := n
				if c.Flags[i].Value == "last" {
					needle = "-" // in a cluster of flags (-cb)
				}
				c.needles = append(c.needles, []byte(needle))
				if needle == "-" {
					c.dash = true
				} else {
					c.second[needle[1]] = true
				}
			}
		}
	}
	for _, n := range g.Env.Names {
		if n == "" || strings.ToUpper(n) != n {
			return fmt.Errorf("secrets: cli.yaml: variable %q is not upper case", n)
		}
		g.env[n] = true
	}
	for _, n := range g.Generic.Names {
		if !strings.HasPrefix(n, "--") || strings.ToLower(n) != n {
			return fmt.Errorf("secrets: cli.yaml: generic flag %q is not a lower-case long flag", n)
		}
		g.generic[n] = true
	}
	return nil
}

// sharedKeywords are words the other rules key on already, which most
// variables and generic flags hold (PGPASSWORD, --api-key): the cli rule
// keys on them too, so that its names add no states to the prefilter's
// automaton, and reads the whole name around a hit.
var sharedKeywords = []string{"passw", "pwd", "token", "secret", "api-key", "apikey", "api_key"}

// keywords returns the grammar's prefilter words, lower case: the
// programs' names, and for each variable and generic flag a shared
// keyword it holds, or its own name. The built-in grammar's are generated
// (kwindex_gen.go: cliKeywords), so a process does not work them out.
func (g *cliGrammar) keywords() []string { return g.prefilter() }

// prefilter works out keywords(), in the order of the grammar's entries.
func (g *cliGrammar) prefilter() []string {
	var out, programs []string
	seen := map[string]bool{}
	for _, c := range g.Commands {
		programs = append(programs, c.Names...)
	}
	// the shortest name first: a program whose name holds others' keys
	// on the shortest of them
	shortest := slices.Clone(programs)
	slices.SortStableFunc(shortest, func(a, b string) int { return len(a) - len(b) })
	for _, n := range slices.Concat(g.Env.Names, g.Generic.Names, programs) {
		k := strings.ToLower(n)
		for _, w := range sharedKeywords {
			if strings.Contains(k, w) {
				k = w
				break
			}
		}
		// a program whose name holds another's (mysqldump, unzip) keys
		// on the shorter name: fewer states for the automaton
		for _, m := range shortest {
			if len(m) >= len(k) {
				break
			}
			if strings.Contains(k, m) {
				k = m
				break
			}
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// Bounds of the tokenizer: the words of one command read after a keyword.
const (
	cliMaxBytes = 4 << 10
	cliMaxWords = 64
	cliMaxValue = 256 // the longest password or token taken
)

// cliWord is one word of a command line: its span in the text, its text
// with quotes and escapes removed, and the text offset of each byte (nil
// for a plain word, whose text is its span).
type cliWord struct {
	s, e   int
	text   []byte
	pos    []int
	dyn    bool // holds an expansion ($, `) outside single quotes
	quoted bool
}

// at returns the text offset of byte k of the word's text.
func (w *cliWord) at(k int) int {
	if w.pos == nil {
		return w.s + k
	}
	return w.pos[k]
}

// endsCommand reports a byte that ends a command outside quotes.
func endsCommand(c byte) bool {
	return c == '\n' || c == ';' || c == '|' || c == '&' || c == ')' || c == '`'
}

// continuation returns the length of the backslash and line break that
// b starts with (a command going on on the next line), or 0.
func continuation(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == '\\' && b[1] == '\n':
		return 2
	case len(b) >= 3 && b[0] == '\\' && b[1] == '\r' && b[2] == '\n':
		return 3
	}
	return 0
}

// readWord reads the word at text[i:] (i within limit) and returns it and
// where it ends. A plain word (no quotes, no escapes) is not copied.
func readWord(text []byte, i, limit int) (cliWord, int) {
	w := cliWord{s: i}
	plain := true
	add := func(at int) {
		if plain {
			return
		}
		w.text = append(w.text, text[at])
		w.pos = append(w.pos, at)
	}
	unplain := func(at int) {
		if plain {
			plain = false
			n := at - w.s
			w.text = append(make([]byte, 0, n+32), text[w.s:at]...)
			w.pos = make([]int, n, n+32)
			for k := range w.pos {
				w.pos[k] = w.s + k
			}
		}
	}
	for i < limit {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || endsCommand(c) && c != '`':
			goto done
		case c == '\'':
			unplain(i)
			w.quoted = true
			i++
			for i < limit && text[i] != '\'' {
				add(i)
				i++
			}
			i++
		case c == '"':
			unplain(i)
			w.quoted = true
			i++
			for i < limit && text[i] != '"' {
				if text[i] == '\\' && i+1 < limit && strings.IndexByte("\"\\$`", text[i+1]) >= 0 {
					i++
				} else if text[i] == '$' || text[i] == '`' {
					w.dyn = true
				}
				add(i)
				i++
			}
			i++
		case c == '\\':
			if n := continuation(text[i:limit]); n > 0 {
				goto done // the word ends where the line goes on
			}
			unplain(i)
			if i+1 < limit {
				add(i + 1)
			}
			i += 2
		default:
			if c == '$' || c == '`' {
				w.dyn = true
			}
			add(i)
			i++
		}
	}
done:
	i = min(i, limit)
	w.e = i
	if plain {
		w.text = text[w.s:i]
	}
	return w, i
}

// readWords appends to ws the words of the command that goes on at
// text[i:], up to n of them, and returns them, where reading stopped and
// whether the command ends there (; | & newline, a redirection or the
// text's end) rather than at limit or n words.
func (g *cliGrammar) readWords(ws []cliWord, text []byte, i, limit, n int) ([]cliWord, int, bool) {
	for ; n > 0; n-- {
		for i < limit {
			if text[i] == ' ' || text[i] == '\t' || text[i] == '\r' {
				i++
			} else if n := continuation(text[i:limit]); n > 0 {
				i += n
			} else {
				break
			}
		}
		if i >= limit {
			return ws, i, i >= len(text)
		}
		if endsCommand(text[i]) || text[i] == '<' || text[i] == '>' {
			return ws, i, true
		}
		w, next := readWord(text, i, limit)
		if len(w.text) > 0 && (w.text[0] >= '0' && w.text[0] <= '9') && bytes.ContainsAny(w.text, "<>") {
			return ws, i, true // 2>file
		}
		if !w.quoted && w.pos == nil && g.byName[string(w.text)] != nil {
			// another known program: its own keyword reads its words (and
			// a program named over and over is read once)
			return ws, i, true
		}
		ws, i = append(ws, w), next
	}
	return ws, i, false
}

// cliState is what the scanner keeps across the keywords of one text: the
// words of the last command read, so that a keyword met among them (a
// program named in another's arguments, or many times over) reuses them
// and each word is read once.
type cliState struct {
	found *[][2]int // the spans of the secrets found: &spans once set
	// spans, in spanBuf while they are few: in the state's allocation
	spans   [][2]int
	spanBuf [2][2]int
	words   []cliWord
	end     int  // where reading them stopped
	done    bool // at the command's end
}

// wordsAfter returns up to cliMaxWords words of the command after the
// keyword that ends at ke.
func (g *cliGrammar) wordsAfter(st *cliState, text []byte, ke, limit int) []cliWord {
	if n := len(st.words); n > 0 && ke > st.words[0].s && ke <= st.end {
		j := sort.Search(n, func(k int) bool { return st.words[k].e >= ke })
		if j < n && st.words[j].e == ke {
			st.words = st.words[j+1:] // the keyword's word and those before are done with
			if !st.done && len(st.words) < cliMaxWords {
				st.words, st.end, st.done = g.readWords(st.words, text, st.end, max(limit, st.end), cliMaxWords-len(st.words))
			}
			return st.words[:min(len(st.words), cliMaxWords)]
		}
		if j < n && st.words[j].s < ke {
			// inside a word read (a quoted command: sh -c 'mysql -pPW'):
			// the command it holds ends with the word
			ws, _, _ := g.readWords(nil, text, ke, min(limit, st.words[j].e), cliMaxWords)
			return ws
		}
	}
	st.words, st.end, st.done = g.readWords(st.words[:0:0], text, ke, limit, cliMaxWords)
	return st.words
}

// cmdBoundary reports a byte that may come just before a program's or a
// variable's name: the start of a word or of a path's last part.
func cmdBoundary(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '(' || c == '`' ||
		c == '\'' || c == '"' || c == '/' || c == '{'
}

// scanCLI finds the passwords of the command-line construct whose keyword
// is text[ks:ke], and adds the span of each to st.found.
func (g *cliGrammar) scanCLI(st *cliState, text []byte, ks, ke int) {
	emit := st.found
	if ke >= len(text) {
		return
	}
	// the program whose name holds the keyword (mysql in mysqldump)
	ps, pe := ks, ke
	for ps > 0 && ke-ps < 32 && progByte(text[ps-1]) {
		ps--
	}
	for pe < len(text) && pe-ks < 32 && progByte(text[pe]) {
		pe++
	}
	// the map after the bytes around the name: most keywords are inside
	// a word that is no command's
	if pe < len(text) && (ps == 0 || cmdBoundary(text[ps-1])) && (text[pe] == ' ' || text[pe] == '\t') &&
		!(ps > 1 && text[ps-1] == '/' && text[ps-2] == '/') { // not a URL's host
		if c := g.byName[string(text[ps:pe])]; c != nil {
			if limit := min(len(text), pe+cliMaxBytes); c.mayHold(text[pe:limit]) {
				g.command(c, string(text[ps:pe]), g.wordsAfter(st, text, pe, limit), emit)
			}
		}
	}
	// the variable (NAME=value) or the generic flag (--name value) whose
	// name holds the keyword
	is, ie := ks, ke
	for is > 0 && ke-is < 64 && (isAlnum(text[is-1]) || text[is-1] == '_') {
		is--
	}
	for ie < len(text) && ie-ks < 64 && (isAlnum(text[ie]) || text[ie] == '_') {
		ie++
	}
	if ie < len(text) && text[ie] == '=' && g.env[string(text[is:ie])] && (is == 0 || cmdBoundary(text[is-1]) || text[is-1] == '=') {
		w, we := readWord(text, ie+1, min(len(text), ie+1+cliMaxValue+1))
		g.value(w, 0, "", func(v string, q bool) bool {
			if !cliSecret(v, q) {
				return false
			}
			prog, ws := envCommand(text, is, we)
			return !localTrivial(v, prog, ws)
		}, emit)
		return
	}
	fs, fe := ks, ke
	for fs > 0 && ke-fs < 64 && (isLowerAlnum(text[fs-1]) || text[fs-1] == '-') {
		fs--
	}
	for fe < len(text) && fe-ks < 64 && (isLowerAlnum(text[fe]) || text[fe] == '-') {
		fe++
	}
	if fe >= len(text) || fs == 0 || text[fs-1] != ' ' && text[fs-1] != '\t' || !g.generic[string(text[fs:fe])] { // the map last: most keywords are not a flag's
		return
	}
	switch text[fe] {
	case '=':
		w, _ := readWord(text, fe+1, min(len(text), fe+1+cliMaxValue+1))
		g.value(w, 0, "", genericSecret, emit)
	case ' ', '\t':
		if ws, _, _ := g.readWords(nil, text, fe, min(len(text), fe+cliMaxValue+64), 1); len(ws) > 0 {
			g.value(ws[0], 0, "", genericSecret, emit)
		}
	}
}

// progByte reports a byte of a program's name.
func progByte(b byte) bool { return isLowerAlnum(b) || b == '-' || b == '_' || b == '.' }

func isLowerAlnum(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }

// mayHold reports whether the rest of the line after the program's name
// holds one of its flags: the words are read only then (and always when
// the line goes on, with a backslash or past 512 bytes).
func (c *cliCommand) mayHold(rest []byte) bool {
	n := bytes.IndexByte(rest[:min(len(rest), 512)], '\n')
	if n < 0 && len(rest) > 512 {
		return true // a long line: read (once) as words
	}
	if n >= 0 {
		rest = bytes.TrimSuffix(rest[:n], []byte{'\r'})
		if bytes.HasSuffix(rest, []byte{'\\'}) {
			return true // the command goes on
		}
	}
	return c.holdsNeedle(rest)
}

// holdsNeedle reports whether rest holds one of c's needles. Each starts
// with '-' (index refuses a flag that does not): only the places of a
// '-' are compared, and at those only a needle whose second byte
// follows, where searching rest for each needle read the whole of rest
// as many times as the command has flags (TestHoldsNeedle).
func (c *cliCommand) holdsNeedle(rest []byte) bool {
	for i := bytes.IndexByte(rest, '-'); i >= 0; {
		if c.dash {
			return true
		}
		if i+1 < len(rest) && c.second[rest[i+1]] {
			for _, nd := range c.needles {
				if bytes.HasPrefix(rest[i:], nd) {
					return true
				}
			}
		}
		j := bytes.IndexByte(rest[i+1:], '-')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// command finds the passwords in the words after a known program's name.
func (g *cliGrammar) command(c *cliCommand, prog string, ws []cliWord, emit *[][2]int) {
	cliSecret := func(v string, q bool) bool { return cliSecret(v, q) && !localTrivial(v, prog, ws) }
	sawSub := len(c.Sub) == 0
	last := false
	var positional []int
	for i := 0; i < len(ws); i++ {
		t := string(ws[i].text)
		if t == "--" {
			break
		}
		if !strings.HasPrefix(t, "-") {
			positional = append(positional, i)
			if !sawSub && contains(c.Sub, t) {
				sawSub = true
			}
			continue
		}
		if !sawSub {
			continue
		}
		for _, sp := range c.spellings {
			f, n := sp.flag, sp.name
			switch {
			case t == n && f.Value == "last":
				last = true
			case t == n && !f.Attached:
				if i+1 < len(ws) && !bytes.HasPrefix(ws[i+1].text, []byte("-")) {
					g.value(ws[i+1], 0, f.Value, cliSecret, emit)
					i++
				}
			case sp.long && strings.HasPrefix(t, sp.eq):
				g.value(ws[i], len(sp.eq), f.Value, cliSecret, emit)
			case !sp.long && f.Value != "last" && len(t) > len(n) && strings.HasPrefix(t, n) && !strings.HasPrefix(t, "--"):
				g.value(ws[i], len(n), f.Value, cliSecret, emit)
			case !sp.long && f.Value == "last" && cluster(t, n[1]):
				last = true
			}
		}
	}
	if last && len(positional) >= 2 {
		g.value(ws[positional[len(positional)-1]], 0, "", cliSecret, emit)
	}
}

// cluster reports a cluster of short flags (-cbB) that holds flag f.
func cluster(t string, f byte) bool {
	if len(t) < 2 || t[0] != '-' || t[1] == '-' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if !(t[i] >= 'a' && t[i] <= 'z' || t[i] >= 'A' && t[i] <= 'Z') {
			return false
		}
	}
	return strings.IndexByte(t[1:], f) >= 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// value finds the password in w.text[off:] as form says and emits its span
// when accept takes it.
func (g *cliGrammar) value(w cliWord, off int, form string, accept func(v string, quoted bool) bool, emit *[][2]int) {
	if w.dyn || off >= len(w.text) || len(w.text)-off > cliMaxValue {
		return // a reference, nothing, or text too long to be a password
	}
	v := w.text[off:]
	sep := byte(0)
	switch form {
	case "userpass":
		sep = ':'
	case "userpct":
		sep = '%'
	case "usercomma":
		sep = ','
	case "passprefix":
		if !strings.HasPrefix(string(v), "pass:") {
			return
		}
		off += len("pass:")
	}
	if sep != 0 {
		i := strings.IndexByte(string(v), sep)
		if i < 0 {
			return // a user alone: the program prompts
		}
		off += i + 1
	}
	if off >= len(w.text) || !accept(string(w.text[off:]), w.quoted) {
		return
	}
	*emit = append(*emit, [2]int{w.at(off), w.at(len(w.text)-1) + 1})
}

// cliSecret accepts the value of a known program's password flag or
// variable: anything but a placeholder, a reference or a flag.
func cliSecret(v string, _ bool) bool {
	return len(v) >= 3 && !strings.HasPrefix(v, "-") && !placeholder(v) && !cliPlaceholder(v)
}

// genericSecret accepts the value of a generic credential flag of an
// unknown program: it must read as a password.
func genericSecret(v string, quoted bool) bool {
	return !strings.HasPrefix(v, "-") && !cliPlaceholder(v) && password(candidate{secret: v, quoted: quoted})
}

var cliPlaceholders = words("password passwd pass pwd secret token apikey api_key api-key changeit changeme mypassword yourpassword " +
	"mytoken yourtoken mysecret key value")

// cliPlaceholder reports a word that names a password rather than being
// one: a placeholder word, or a name in capitals (PASSWORD, API_TOKEN).
func cliPlaceholder(v string) bool {
	if inLower(cliPlaceholders, v) {
		return true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// A well-known default password (postgres, root, admin …, or the user's
// own name) given to a service on this machine is a fixture's, not a
// secret: anyone who can run the command can read the local default too.
// The same password to any other host, or a password that is not one of
// these, stays a secret (TestLocalDefaultPassword).

// defaultPasswords are the passwords services and tutorials ship with.
var defaultPasswords = words("postgres postgresql password passwd pass root toor admin administrator test testing tester secret " +
	"changeme changeit example dev develop development local localhost mysql mariadb redis mongo mongodb guest default demo " +
	"user sa app 123456 1234 12345678 qwerty letmein")

// localByDefault are the clients that, told no host, connect to a server
// on this machine (a unix socket or localhost).
var localByDefault = words("psql pg_dump pg_dumpall pg_restore pg_isready createdb dropdb createuser vacuumdb reindexdb clusterdb " +
	"mysql mysqldump mysqladmin mysqlimport mysqlshow mysqlcheck mysqlpump mysqlsh mariadb mariadb-dump mariadb-admin " +
	"mariadb-import mariadb-check redis-cli mongosh mongo mongodump mongorestore mongoexport mongoimport mongostat mongotop " +
	"cqlsh clickhouse-client clickhouse influx")

// localHost reports a host that is this machine: localhost, a loopback
// address or a unix socket's path, with or without a port.
func localHost(h string) bool {
	h = strings.ToLower(strings.Trim(h, "'\""))
	if strings.HasPrefix(h, "/") || strings.HasPrefix(h, "%2f") {
		return true // a unix socket
	}
	if strings.HasPrefix(h, "[") {
		if i := strings.IndexByte(h, ']'); i > 0 {
			h = h[1:i]
		}
	} else if strings.Count(h, ":") == 1 {
		h = h[:strings.IndexByte(h, ':')]
	}
	switch {
	case h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "::1" || h == "0:0:0:0:0:0:0:1":
		return true
	case strings.HasPrefix(h, "127.") && strings.Count(h, ".") == 3:
		return true
	}
	return false
}

// hostFlags are the flags whose value names the server a client talks to.
var hostFlags = words("-h --host --hostname -H --server -S")

// userFlags are the flags whose value names the user a client logs in as.
var userFlags = words("-u -U --user --username --login -l")

// envCommand returns the program and the words of the command whose
// variable assignment spans text[is:we]: the words before it and after it,
// the program being the first word after it that assigns no variable.
func envCommand(text []byte, is, we int) (string, []cliWord) {
	s := is
	for s > 0 && !endsCommand(text[s-1]) && is-s < cliMaxBytes {
		s--
	}
	var ws []cliWord
	prog := ""
	read := func(i, limit int) {
		for len(ws) < cliMaxWords {
			for i < limit && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
				i++
			}
			if i >= limit || endsCommand(text[i]) || text[i] == '<' || text[i] == '>' {
				return
			}
			w, next := readWord(text, i, limit)
			if next <= i {
				return
			}
			ws = append(ws, w)
			i = next
		}
	}
	read(s, is)
	n := len(ws)
	read(we, min(len(text), we+cliMaxBytes))
	for _, w := range ws[n:] {
		t := string(w.text)
		if k := strings.IndexByte(t, '='); k > 0 && !strings.HasPrefix(t, "-") || t == "env" {
			continue
		}
		prog = t[strings.LastIndexByte(t, '/')+1:]
		break
	}
	return prog, ws
}

// localTrivial reports whether password v, given in the command whose
// words are ws (its program prog, "" when not known), is a default
// password sent to this machine: every host the words name is local,
// and, when they name none, the program connects locally by default.
func localTrivial(v, prog string, ws []cliWord) bool {
	if len(v) > 32 {
		return false
	}
	trivial := inLower(defaultPasswords, v)
	hosts, local := 0, true
	note := func(h string) {
		hosts++
		if !localHost(h) {
			local = false
		}
	}
	for i := 0; i < len(ws); i++ {
		w := &ws[i]
		t := string(w.text)
		next := func() (string, bool) {
			if i+1 < len(ws) && !ws[i+1].dyn {
				return string(ws[i+1].text), true
			}
			return "", false
		}
		switch {
		case hostFlags[t]:
			if h, ok := next(); ok {
				note(h)
				i++
			} else {
				local = false // a host not known here
			}
			continue
		case userFlags[t]:
			if u, ok := next(); ok && strings.EqualFold(u, v) {
				trivial = true
			}
			continue
		}
		if w.dyn && (strings.Contains(t, "://") || strings.Contains(t, "@") || strings.Contains(strings.ToUpper(t), "HOST")) {
			local = false // a destination chosen at run time
			continue
		}
		if k := strings.IndexByte(t, '='); k > 0 && strings.HasPrefix(t, "-") {
			name, val := t[:k], t[k+1:]
			if hostFlags[name] {
				note(val)
			} else if userFlags[name] && strings.EqualFold(val, v) {
				trivial = true
			}
			continue
		}
		if len(t) > 2 && t[0] == '-' && t[1] != '-' {
			switch t[1] {
			case 'h':
				if prog != "" && strings.HasPrefix(prog, "m") { // mysql -hdb
					note(t[2:])
				}
			case 'u', 'U':
				if strings.EqualFold(t[2:], v) {
					trivial = true
				}
			}
			continue
		}
		if k := strings.IndexByte(t, '='); k > 0 && strings.HasSuffix(strings.ToUpper(t[:k]), "HOST") {
			note(t[k+1:]) // PGHOST=db
			continue
		}
		if k := strings.Index(t, "://"); k > 0 {
			rest := t[k+3:]
			if e := strings.IndexAny(rest, "/?#"); e >= 0 {
				rest = rest[:e]
			}
			if a := strings.LastIndexByte(rest, '@'); a >= 0 {
				if u, _, ok := strings.Cut(rest[:a], ":"); ok && strings.EqualFold(u, v) {
					trivial = true
				}
				rest = rest[a+1:]
			}
			note(rest)
			continue
		}
		if a := strings.LastIndexByte(t, '@'); a > 0 && !strings.HasPrefix(t, "-") {
			note(t[a+1:]) // ssh user@host
			continue
		}
		if u, _, ok := strings.Cut(t, ":"); ok && strings.EqualFold(u, v) { // curl -u user:user
			trivial = true
		}
		if strings.HasPrefix(t, "host=") || strings.Contains(t, " host=") {
			for _, f := range strings.Fields(t) {
				if h, ok := strings.CutPrefix(f, "host="); ok {
					note(h)
				}
			}
		}
	}
	if !trivial || !local {
		return false
	}
	return hosts > 0 || localByDefault[prog]
}
