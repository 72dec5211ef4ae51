package shell

import (
	"fmt"
	"maps"
	"math"
	"path"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/internal/ascii"
	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// Knowledge is what warden knows about commands, as data: for each command
// its dangerous flags, subcommands and operands, and how the class of the
// paths it touches sets the level. A new command is a new row of
// commands.yaml (then go generate ./analyze/shell).
type Knowledge struct {
	// ValueFlags lists, per command, the flags that take the next word as
	// their value, so that value is not read as an operand.
	ValueFlags map[string][]string `yaml:"value_flags"`
	// Interpreters run the program text they read on stdin or from a
	// substitution; Downloaders fetch text from the network.
	Interpreters []string `yaml:"interpreters"`
	Downloaders  []string `yaml:"downloaders"`
	// Redirect judges files written by > and >>; RedirectIn, when the
	// knowledge has it, files read by <, whatever command reads them.
	Redirect   Row `yaml:"redirect"`
	RedirectIn Row `yaml:"redirect_in"`
	// SQLClients maps a database client to where its SQL stands.
	SQLClients map[string]SQLClient `yaml:"sql_clients"`
	Rows       []Row                `yaml:"commands"`

	byName map[string][]*Row
	interp map[string]bool
	down   map[string]bool
	vflags map[string]map[string]bool
	// entries caches, for each name entry was asked about, what the
	// lookups above say about it: filled as names are looked up, not for
	// every name at start (a process reads a command or two)
	mu      sync.RWMutex
	entries map[string]*entry
	// recent holds the entries entry returned last, one per slot a
	// name hashes to (see slotOf): read without the lock and the map
	recent [recentSlots]atomic.Pointer[entry]
	// lazy: rows are compiled as entry first returns them (see index)
	lazy bool
}

// maxUnknownEntries bounds the names entry caches that no table holds
// (go, echo, ./build.sh): a long-running engine sees any number of them;
// the names the tables hold are always cached, and are a bounded set.
const maxUnknownEntries = 1024

// recentSlots is the number of Knowledge.recent's slots: a power of two,
// more than the names a session of commands mostly runs.
const recentSlots = 256

// slotOf returns the slot of Knowledge.recent that holds name's entry
// (FNV-1a).
func slotOf(name string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return h & (recentSlots - 1)
}

// entry is what the knowledge says about one command name, read with one
// lookup (see Knowledge.entry) instead of one per table.
type entry struct {
	name   string          // the command name it is about
	rows   []*Row          // its rows (byName; a mkfs.* name has mkfs's)
	vflags map[string]bool // its value flags
	vmask  uint64          // the flagBit of each of its value flags
	sql    *SQLClient      // where it takes SQL; nil: no database client
	judge  judgeFunc       // its model (see semantics); nil: none
	// interp: the name without a version (interpreterName) is an
	// interpreter; down: the name is a downloader; printer and archiver:
	// it is one of printers, of archivers (effects)
	interp, down, printer, archiver bool
	// cli: how the verb grammar reads the command, and nameVerb: the
	// name carries a destructive verb (verbs.go)
	cli      cliKind
	nameVerb bool
	runtime  string // the runtime scriptCLI reads (cliRuntime); "": none
	// store: the data store client it is (datastore.go); nil: none
	store *storeClient
	// control: the control language it takes on stdin (control.go)
	control controlKind
	// sink: the kind of network client it is (exfil.go); http: the
	// kind of HTTP client (http.go)
	sink sinkKind
	http httpKind
	// known: some table holds the name (rows, value flags, a model, a
	// list): warden knows what kind of program it is
	known bool
}

// entry returns what k knows about the command name (see entry): the
// tables' answers for name, each as the lookup it replaces gives it. The
// entry is shared: it must not be modified.
// A name the tables hold is looked up in each once, then read from the
// cache: a process does not index every name the knowledge holds to read
// the one or two its script runs.
func (k *Knowledge) entry(name string) *entry {
	slot := &k.recent[slotOf(name)]
	if e := slot.Load(); e != nil && e.name == name {
		return e
	}
	k.mu.RLock()
	e, ok := k.entries[name]
	k.mu.RUnlock()
	if !ok {
		e = k.lookup(name)
	}
	slot.Store(e)
	return e
}

// lookup answers entry for a name not in the cache, and caches it.
func (k *Knowledge) lookup(name string) *entry {
	e := &entry{name: name, rows: k.byName[name], vflags: k.vflags[name], interp: k.interp[interpreterName(name)], down: k.down[name],
		printer: printers[name], archiver: archivers[name], judge: semantics(name), sink: sinkKindOf(name),
		nameVerb: nameVerb(name), runtime: cliRuntime(name), store: storeClients[name], http: httpKindOf(name),
		control: controlKindOf(name)}
	if cl, ok := k.SQLClients[name]; ok {
		e.sql = &cl
	}
	for f := range e.vflags {
		if f != "" {
			e.vmask |= flagBit(f)
		}
	}
	e.cli = kindOf(name)
	if e.interp || e.down || e.printer || e.archiver || launcher(name) {
		e.cli = cliPlain // scriptCLI still reads python manage.py flush
	}
	known := e.rows != nil || e.vflags != nil || e.sql != nil || e.judge != nil || k.interp[name] || e.down || e.printer || e.archiver
	e.known = known || e.cli != cliService || isBuiltin(name)
	if e.rows == nil && strings.HasPrefix(name, "mkfs.") {
		e.rows = k.byName["mkfs"]
	}
	k.mu.Lock()
	if k.lazy {
		for _, r := range e.rows {
			if !r.compiled {
				if err := r.compile(false); err != nil {
					k.mu.Unlock()
					panic(err) // commands.yaml is checked by tests, and knowledge_gen.go is generated from it
				}
			}
		}
	}
	if k.entries == nil {
		k.entries = map[string]*entry{}
	}
	if known || len(k.entries) < len(k.byName)+maxUnknownEntries {
		k.entries[name] = e
	}
	k.mu.Unlock()
	return e
}

// launcher reports a program whose operands are a command it runs (nice,
// parallel, fd -x): what it runs is judged as resolved, and its words are
// no subcommand path for the verb grammar (nice rm x is not a CLI named
// nice deleting x).
func launcher(name string) bool {
	switch name {
	case "find", "fd", "fdfind", "parallel", "sem":
		return true
	}
	for _, w := range wrappersOf(name) {
		if len(w.Sub) == 0 && w.Run != "none" {
			return true
		}
	}
	return false
}

// SQLClient says where a database client takes its SQL: the value of one
// of Flags, or its operands from Operand on (sqlite3 db "SQL"); stdin
// always counts. Conn lists the flags naming the host or database; Files
// the flags whose values are files of SQL it runs (psql -f).
type SQLClient struct {
	Flags   []string `yaml:"flags"`
	Operand int      `yaml:"operand"`
	Conn    []string `yaml:"conn"`
	Files   []string `yaml:"files"`
}

// Row is one piece of command knowledge.
type Row struct {
	Rule string   `yaml:"rule"`
	Cmd  []string `yaml:"cmd"`
	// Sub are the leading operands that select a subcommand (git push,
	// aws s3 rm); SubAny instead names words of which one must be among
	// the first four operands (gcloud … delete).
	Sub    []string `yaml:"sub"`
	SubAny []string `yaml:"sub_any"`
	// AnyFlag: at least one must be present; a one-letter flag also
	// matches inside a cluster (-r in -rf). NoFlag: none may be.
	AnyFlag []string `yaml:"any_flag"`
	NoFlag  []string `yaml:"no_flag"`
	// ArgMatch: some word must match this RE2 pattern. ArgExcept: a
	// word that also matches this one does not count (a registry URL on
	// localhost, or the official registry's own).
	ArgMatch  string `yaml:"arg_match"`
	ArgExcept string `yaml:"arg_except"`
	// NoArg: no word may match this RE2 pattern (kubectl delete of any
	// kind but pods). A word computed at run time is matched as written.
	NoArg string `yaml:"no_arg"`
	// Stdin: ArgMatch may match instead the text the command reads on
	// stdin, when the script shows it: a heredoc or here-string, or what
	// echo or printf pipe into it (see stdinRows). vault policy write P -
	// takes the policy there.
	Stdin bool `yaml:"stdin"`
	// Target says which words are the paths judged by ByClass:
	// operands, last (the destination of cp/mv), kv:KEY (dd's of=),
	// flag:F1,F2 (their values, @ stripped: curl -d @file), or empty;
	// names: the operands, which name things other than files (containers,
	// units), so that only "dynamic" (a set computed at run time, such as
	// $(docker ps -q)) is a class of theirs. ByClass may name the class
	// remote: a target on another machine or in a cloud store (isRemote).
	Target string `yaml:"target"`
	// Level applies when there is no target, or a target's class is
	// missing from ByClass; empty means no finding then.
	Level   string            `yaml:"level"`
	ByClass map[string]string `yaml:"by_class"`
	// Effect names the effect the row's targets undergo (write, delete,
	// delete-tree, read: see package effect) instead of ByClass: the one
	// table of effects sets the level, reversibility and lock of each
	// target by its class, as it does for every other route.
	Effect string `yaml:"effect"`
	Reason string `yaml:"reason"`
	// Reversible: the effect can be undone.
	Reversible bool `yaml:"reversible"`
	// Locked: the row's critical findings are ones no allow rule and no
	// permission mode overrides, only a person's approval of that exact
	// action (risk.Finding.Locked): critical destruction, secrets sent off
	// the machine, remote shells. Its lower levels are not locked.
	Locked bool `yaml:"locked"`
	// Match maps commands that must fire the row to the level they get;
	// NoMatch lists commands that must not fire it.
	Match   map[string]string `yaml:"match"`
	NoMatch []string          `yaml:"no_match"`

	re      *lazyre.Regexp // ArgMatch
	except  *lazyre.Regexp // ArgExcept; nil: none
	noArg   *lazyre.Regexp // NoArg; nil: none
	noNeeds *wordNeeds     // what every match of NoArg holds
	needs   *wordNeeds     // what every match of ArgMatch holds (see needsOf)
	remote  bool           // ByClass judges remote locations (see isRemote)
	eff     effect.Op      // Effect
	level   risk.Level
	byClass map[string]risk.Level
	// tkind is Target read (see targetKind); key is a kv: target's
	// key with its '=' (of=), flags a flag: target's flags
	tkind targetKind
	key   string
	flags []string
	// at is where Reason says {target} (-1: nowhere); many: more than
	// once (see reason)
	at       int
	many     bool
	compiled bool // compile ran, and the fields above are set
}

// targetKind is a row's Target, read once when the row compiles.
type targetKind uint8

const (
	targetNone     targetKind = iota // "": no target
	targetOperands                   // operands
	targetNames                      // names
	targetLast                       // last
	targetLead                       // lead
	targetSources                    // sources
	targetKV                         // kv:KEY
	targetFlag                       // flag:F1,F2
)

// commands.yaml is the source people edit; the binary holds it as Go data
// (commandsData, knowledge_gen.go) so that no process parses it at start.
//go:generate go test -run TestKnowledgeGenerated . -args -update

// LoadKnowledge parses and checks a knowledge file. Its patterns are
// compiled as it loads, so that a bad one is an error here.
func LoadKnowledge(data []byte) (*Knowledge, error) {
	k, err := decodeKnowledge(data)
	if err != nil {
		return nil, err
	}
	if err := k.index(true); err != nil {
		return nil, err
	}
	return k, nil
}

// decodeKnowledge parses a knowledge file into its rows, as written.
func decodeKnowledge(data []byte) (*Knowledge, error) {
	var k Knowledge
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&k); err != nil {
		return nil, fmt.Errorf("commands: %w", err)
	}
	return &k, nil
}

// index checks the rows and builds the lookups; eager compiles the rows'
// patterns now rather than on first use. Not eager (the built-in
// knowledge, which the tests check as LoadKnowledge does), a row other
// than Redirect is checked and compiled when entry first returns it.
func (k *Knowledge) index(eager bool) error {
	k.lazy = !eager
	k.byName = make(map[string][]*Row, 2*len(k.Rows))
	k.interp = set(k.Interpreters)
	k.down = set(k.Downloaders)
	k.vflags = make(map[string]map[string]bool, len(k.ValueFlags))
	for name, fs := range k.ValueFlags {
		k.vflags[name] = set(fs)
	}
	rows := []*Row{&k.Redirect}
	if k.RedirectIn.Rule != "" {
		rows = append(rows, &k.RedirectIn)
	}
	for i := range k.Rows {
		rows = append(rows, &k.Rows[i])
	}
	for _, r := range rows {
		if eager || r == &k.Redirect || r == &k.RedirectIn {
			if err := r.compile(eager); err != nil {
				return err
			}
		}
		for _, c := range r.Cmd {
			k.byName[c] = append(k.byName[c], r)
		}
	}
	return nil
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func (r *Row) compile(eager bool) error {
	r.compiled = true
	if r.Rule == "" {
		return fmt.Errorf("commands: a row without rule (cmd %v)", r.Cmd)
	}
	if r.Reason == "" {
		return fmt.Errorf("commands: %s: no reason", r.Rule)
	}
	var err error
	if r.Level != "" {
		if r.level, err = parseLevel(r.Level); err != nil {
			return fmt.Errorf("commands: %s: %w", r.Rule, err)
		}
	}
	if r.Effect != "" {
		op, ok := effect.ParseOp(r.Effect)
		if !ok {
			return fmt.Errorf("commands: %s: unknown effect %q", r.Rule, r.Effect)
		}
		if _, ok := effect.Judge(op, effect.Workspace); !ok {
			return fmt.Errorf("commands: %s: the effect table does not judge %q on files", r.Rule, r.Effect)
		}
		if len(r.ByClass) > 0 || r.Level != "" || r.Target == "" || r.Locked || r.Reversible {
			return fmt.Errorf("commands: %s: an effect row takes a target, and its level, by_class, reversible and locked from the effect table", r.Rule)
		}
		r.eff = op
	}
	r.byClass = map[string]risk.Level{}
	_, r.remote = r.ByClass[remoteClass]
	for c, l := range r.ByClass {
		if !validClass(c) {
			return fmt.Errorf("commands: %s: unknown path class %q", r.Rule, c)
		}
		if r.byClass[c], err = parseLevel(l); err != nil {
			return fmt.Errorf("commands: %s: %w", r.Rule, err)
		}
	}
	switch {
	case r.ArgMatch == "":
	case eager:
		re, err := regexp.Compile(r.ArgMatch)
		if err != nil {
			return fmt.Errorf("commands: %s: %w", r.Rule, err)
		}
		r.re = lazyre.Compiled(re)
	default:
		r.re = lazyre.New(r.ArgMatch)
	}
	if r.ArgMatch != "" {
		r.needs = needsOf(r.ArgMatch)
	}
	switch {
	case r.ArgExcept == "":
	case r.ArgMatch == "":
		return fmt.Errorf("commands: %s: arg_except without arg_match", r.Rule)
	case eager:
		re, err := regexp.Compile(r.ArgExcept)
		if err != nil {
			return fmt.Errorf("commands: %s: %w", r.Rule, err)
		}
		r.except = lazyre.Compiled(re)
	default:
		r.except = lazyre.New(r.ArgExcept)
	}
	switch {
	case r.NoArg == "":
	case eager:
		re, err := regexp.Compile(r.NoArg)
		if err != nil {
			return fmt.Errorf("commands: %s: %w", r.Rule, err)
		}
		r.noArg = lazyre.Compiled(re)
	default:
		r.noArg = lazyre.New(r.NoArg)
	}
	if r.NoArg != "" {
		r.noNeeds = needsOf(r.NoArg)
	}
	switch t := r.Target; {
	case t == "":
		r.tkind = targetNone
	case t == "operands":
		r.tkind = targetOperands
	case t == "names":
		r.tkind = targetNames
	case t == "last":
		r.tkind = targetLast
	case t == "lead":
		r.tkind = targetLead
	case t == "sources":
		r.tkind = targetSources
	case strings.HasPrefix(t, "kv:"):
		r.tkind, r.key = targetKV, t[len("kv:"):]+"="
	case strings.HasPrefix(t, "flag:"):
		r.tkind, r.flags = targetFlag, strings.Split(t[len("flag:"):], ",")
	default:
		return fmt.Errorf("commands: %s: unknown target %q", r.Rule, t)
	}
	r.placeTarget()
	if r.Target != "" && len(r.byClass) == 0 && r.eff == 0 {
		return fmt.Errorf("commands: %s: a target needs by_class", r.Rule)
	}
	if r.Target == "" && r.Level == "" {
		return fmt.Errorf("commands: %s: a row without target needs a level", r.Rule)
	}
	if r.Locked && r.level != risk.Critical && !slices.Contains(slices.Collect(maps.Values(r.byClass)), risk.Critical) {
		return fmt.Errorf("commands: %s: locked applies to critical findings, and the row gives none", r.Rule)
	}
	return nil
}

func parseLevel(s string) (risk.Level, error) {
	var l risk.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return l, err
	}
	if l == risk.Unknown {
		return l, fmt.Errorf("level unknown is not a level a row can give")
	}
	return l, nil
}

// historyClass is the by_class key of a workspace path inside a
// repository's .git, for the rows that judge it apart from the
// workspace's other folders (rsync --delete into .git/).
const historyClass = "history"

// outputClass is the by_class key of a workspace folder that holds a
// build's or a preview's output (dist/, build/, preview/static/), which
// the build makes again, for the rows that judge it apart.
const outputClass = "output"

// buildOutput reports whether the path p (within the workspace) has a
// component that names a build or preview output folder.
func buildOutput(p string) bool {
	for _, c := range strings.Split(p, "/") {
		switch c {
		case "dist", "build", "out", "public", "static", "preview", "_site", "site", "www", "target", "_build", ".next", ".output", "storybook-static":
			return true
		}
	}
	return false
}

func validClass(c string) bool {
	if c == "dynamic" || c == remoteClass || c == historyClass || c == outputClass {
		return true
	}
	for i := paths.Temp; i <= paths.Cache; i++ {
		if i.String() == c {
			return true
		}
	}
	return false
}

// DefaultKnowledge returns the built-in command knowledge (commands.yaml),
// indexed on first use; each row's pattern compiles when it first runs.
func DefaultKnowledge() *Knowledge { return defaultKnowledge() }

var defaultKnowledge = sync.OnceValue(func() *Knowledge {
	k := commandsData()
	if err := k.index(false); err != nil {
		panic(err) // commands.yaml is checked by tests, and knowledge_gen.go is generated from it
	}
	return k
})

// words splits a command's arguments (after its name) into flags and
// operands, skipping the values of the command's value flags.
type words struct {
	flags    []string
	operands []int // indices into args
}

func (k *Knowledge) split(name string, c Command) words {
	return splitInto(words{}, k.vflags[name], &c)
}

// splitInto is split, with the command's value flags vf (see entry),
// reusing the room of w's lists.
func splitInto(w words, vf map[string]bool, c *Command) words {
	return splitMasked(w, vf, ^uint64(0), c)
}

// split is splitInto with e's value flags, of which a word whose
// flagBit is not in e.vmask is none: their table is not asked about it.
func (e *entry) split(w words, c *Command) words {
	return splitMasked(w, e.vflags, e.vmask, c)
}

// flagBit is the bit of a non-empty flag word in a mask of flags: its
// last byte and its length, hashed.
func flagBit(f string) uint64 {
	return 1 << ((uint(f[len(f)-1]) + 3*uint(len(f))) & 63)
}

// splitMasked is splitInto, the table vf asked only about a flag whose
// flagBit is in mask, which holds those of vf's flags.
func splitMasked(w words, vf map[string]bool, mask uint64, c *Command) words {
	w.flags, w.operands = w.flags[:0], w.operands[:0]
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" {
			for j := i + 1; j < len(c.Args); j++ {
				w.operands = append(w.operands, j)
			}
			break
		}
		if len(a) > 1 && a[0] == '-' && !c.Dynamic[i] {
			w.flags = append(w.flags, a)
			if mask&flagBit(a) != 0 && vf[a] && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		w.operands = append(w.operands, i)
	}
	return w
}

// hasFlag reports whether f is among flags: a long flag exactly or as
// --flag=value, a one-letter flag alone or inside a cluster (-rf), and a
// one-dash word flag (find -delete) exactly.
func hasFlag(flags []string, f string) bool {
	long := strings.HasPrefix(f, "--")
	for _, g := range flags {
		switch {
		case g == f:
			return true
		case long:
			if hasValue(g, f) {
				return true
			}
		case len(f) == 2 && len(g) > 2 && g[1] != '-' && isCluster(g):
			if strings.IndexByte(g[1:], f[1]) >= 0 {
				return true
			}
		}
	}
	return false
}

// cutLong splits a long option written with its value (--flag=value)
// into the flag and the value; ok is false for any other word.
func cutLong(a string) (flag, value string, ok bool) {
	if !strings.HasPrefix(a, "--") {
		return a, "", false
	}
	k := strings.IndexByte(a, '=')
	if k < 0 {
		return a, "", false
	}
	return a[:k], a[k+1:], true
}

// hasValue reports whether word a is flag or key f with a value
// attached: f=value.
func hasValue(a, f string) bool {
	return len(a) > len(f) && a[len(f)] == '=' && a[:len(f)] == f
}

// isCluster reports whether a flag word is a cluster of one-letter flags.
func isCluster(g string) bool {
	for i := 1; i < len(g); i++ {
		c := g[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// match reports whether row r applies to command c named name, and the
// words it targets; c is not modified.
func (k *Knowledge) match(r *Row, name string, c *Command, w words) (targets []int, ok bool) {
	ops := w.operands
	if len(r.Sub) > 0 {
		if len(ops) < len(r.Sub) {
			return nil, false
		}
		for i, s := range r.Sub {
			if c.Args[ops[i]] != s {
				return nil, false
			}
		}
		ops = ops[len(r.Sub):]
	}
	if len(r.SubAny) > 0 {
		found := false
		for i := 0; i < len(ops) && i < 4 && !found; i++ {
			for _, s := range r.SubAny {
				if c.Args[ops[i]] == s {
					found = true
					ops = ops[i+1:]
					break
				}
			}
		}
		if !found {
			return nil, false
		}
	}
	if len(r.AnyFlag) > 0 {
		found := false
		for _, f := range r.AnyFlag {
			if hasFlag(w.flags, f) {
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	for _, f := range r.NoFlag {
		if hasFlag(w.flags, f) {
			return nil, false
		}
	}
	if r.noArg != nil {
		for i := 1; i < len(c.Args); i++ {
			if mayMatch(c.Args[i], r.noNeeds) && r.noArg.MatchString(c.Args[i]) {
				return nil, false
			}
		}
	}
	if r.re != nil {
		found := false
		for i := 1; i < len(c.Args); i++ {
			// a word that holds none of the strings every match holds
			// is not run through the pattern
			if mayMatch(c.Args[i], r.needs) && r.re.MatchString(c.Args[i]) && !r.excepted(c.Args[i]) {
				found = true
				break
			}
		}
		if !found && r.Stdin {
			for _, rd := range c.Redirs {
				if rd.Stdin() && !rd.Dynamic && mayMatch(rd.Target, r.needs) && r.re.MatchString(rd.Target) && !r.excepted(rd.Target) {
					found = true
					break
				}
			}
		}
		if !found {
			return nil, false
		}
	}
	switch r.tkind {
	case targetOperands, targetNames:
		return ops, true
	case targetLead:
		for i := 1; i < len(c.Args); i++ {
			if a := c.Args[i]; strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break
			}
			targets = append(targets, i)
		}
		return targets, true
	case targetSources:
		if len(ops) > 1 {
			return ops[:len(ops)-1], true
		}
		return nil, true
	case targetLast:
		if len(ops) > 1 {
			return ops[len(ops)-1:], true
		}
		return nil, true
	case targetKV:
		for i := 1; i < len(c.Args); i++ {
			if strings.HasPrefix(c.Args[i], r.key) { // key=value
				targets = append(targets, i)
			}
		}
		return targets, true
	case targetFlag:
		for _, f := range r.flags {
			for i := 1; i < len(c.Args); i++ {
				a := c.Args[i]
				if (a == f || len(f) == 2 && f[0] == '-' && f[1] != '-' && len(a) > 2 && a[len(a)-1] == f[1] && a[1] != '-' && isCluster(a)) && i+1 < len(c.Args) {
					targets = append(targets, i+1) // -o FILE, or -sSLo FILE: the cluster's last flag takes it
				} else if hasValue(a, f) {
					targets = append(targets, -i) // value after '='
				}
			}
		}
		return targets, true
	}
	return nil, true
}

// excepted reports whether a word ArgMatch matched matches ArgExcept, and
// so does not count.
func (r *Row) excepted(w string) bool {
	return r.except != nil && r.except.MatchString(w)
}

// stdinRows judges command i of cmds by its rows that read stdin (Row.Stdin)
// with the text echo or printf pipe into it, or cat its heredoc, given as
// a here-string: the rows see a heredoc or here-string on the command
// itself (match).
func (k *Knowledge) stdinRows(out []risk.Finding, cmds []Command, i int, env paths.Env) []risk.Finding {
	c := &cmds[i]
	if len(c.Args) == 0 || c.Dynamic[0] {
		return out
	}
	name := commandName(c.Args[0])
	e := k.entry(name)
	for _, r := range e.rows {
		if !r.Stdin {
			continue
		}
		for _, j := range c.Inputs {
			text, ok := shown(cmds[j])
			if in := cmds[j]; !ok && len(in.Args) == 1 && !in.Dynamic[0] && commandName(in.Args[0]) == "cat" {
				text, ok = stdinDoc(in) // cat <<EOF | vault policy write p -
			}
			if !ok {
				continue
			}
			fc := *c
			fc.Redirs = append(slices.Clip(c.Redirs), Redirect{Op: "<<<", Target: text})
			if t, ok := k.match(r, name, &fc, e.split(words{}, &fc)); ok {
				if f, ok := r.judge(&fc, t, env); ok {
					out = append(out, mayRun(f, c))
				}
			}
		}
	}
	return out
}

// maxNeeds bounds the strings requiredOf returns: past them, a word is
// run through the pattern without a test.
const maxNeeds = 32

// maxClass bounds the characters of a class requiredOf spells out.
const maxClass = 16

// requiredOf returns strings, lower-cased ASCII, one of which every match
// of the RE2 pattern src holds (matched without regard to ASCII case), or
// nil when it finds none (a pattern that matches the empty word, one
// made of classes only) or src does not parse.
func requiredOf(src string) []string {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(re)
}

// required is requiredOf for the parsed pattern re.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		b := make([]byte, 0, len(re.Rune))
		for _, c := range re.Rune {
			if c >= utf8.RuneSelf {
				return nil // its case variants may be other bytes
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, byte(c))
		}
		if len(b) == 0 {
			return nil
		}
		return []string{string(b)}
	case syntax.OpCharClass:
		// a small class of ASCII characters: one of them
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if c >= utf8.RuneSelf || len(out) == maxClass {
					return nil
				}
				if s := string(rune(ascii.Lower(byte(c)))); !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
		return out
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		// every part is matched: the best part's strings serve, the
		// one whose shortest string is longest
		var best []string
		for _, sub := range re.Sub {
			if l := required(sub); l != nil && (best == nil || shortest(l) > shortest(best)) {
				best = l
			}
		}
		return best
	case syntax.OpAlternate:
		// one branch is matched: one of any branch's strings
		var out []string
		for _, sub := range re.Sub {
			l := required(sub)
			if l == nil || len(out)+len(l) > maxNeeds {
				return nil
			}
			out = append(out, l...)
		}
		return out
	}
	return nil
}

// shortest is the length of the shortest of list.
func shortest(list []string) int {
	n := len(list[0])
	for _, s := range list[1:] {
		n = min(n, len(s))
	}
	return n
}

// wordNeeds are the strings one of which every match of a pattern holds
// (requiredOf), with the bytes they start with: a word is read once,
// whatever their number, and at each byte only the strings that start
// with it are tried.
type wordNeeds struct {
	list  []string  // lower-case ASCII, none empty, in the order of their first bytes
	first [4]uint64 // bit b: some string starts with byte b
	// at: list[at[b]:at[b+1]] are the strings that start with byte b,
	// for b a first byte of one (see first)
	at [utf8.RuneSelf + 1]uint8
}

// needsOf returns what every match of the RE2 pattern src holds, or nil
// when requiredOf knows nothing.
func needsOf(src string) *wordNeeds {
	list, ok := argNeeds(src) // commands.yaml's, found when generated
	if !ok {
		list = requiredOf(src)
	}
	if list == nil || len(list) > math.MaxUint8 {
		return nil
	}
	n := &wordNeeds{list: make([]string, len(list))}
	// the list ordered by first byte, counted: at[b+1] counts the
	// strings that start with b, then (summed) where those that start
	// after b begin; mayMatch reads at only from the least first byte
	// to one past the greatest, lo and hi
	lo, hi := byte(utf8.RuneSelf), byte(0)
	for _, s := range list {
		if s[0] >= utf8.RuneSelf {
			return nil // not lower-case ASCII: no test
		}
		n.first[s[0]>>6] |= 1 << (s[0] & 63)
		n.at[s[0]+1]++
		lo, hi = min(lo, s[0]), max(hi, s[0])
	}
	for b := int(lo) + 1; b <= int(hi)+1; b++ {
		n.at[b] += n.at[b-1]
	}
	next := n.at // where the next string that starts with b goes
	for _, s := range list {
		n.list[next[s[0]]] = s
		next[s[0]]++
	}
	return n
}

// mayMatch reports whether word w may hold a match of a pattern whose
// every match holds one of n's strings (nil: none known), without regard
// to ASCII case: a word with a byte beyond ASCII (which case folding may
// read as an ASCII letter: K is k) always may.
func mayMatch(w string, n *wordNeeds) bool {
	if n == nil {
		return true
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return true
		}
		c = ascii.Lower(c)
		if n.first[c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		for _, s := range n.list[n.at[c]:n.at[c+1]] {
			if ascii.HasPrefixFold(w[i:], s) {
				return true
			}
		}
	}
	return false
}

// target returns the path a target index names, and whether it is dynamic.
func (r *Row) target(c *Command, i int) (string, bool) {
	if i < 0 {
		a := c.Args[-i]
		v := a[strings.IndexByte(a, '=')+1:]
		return strings.TrimPrefix(v, "@"), c.Dynamic[-i]
	}
	a := c.Args[i]
	switch r.tkind {
	case targetKV:
		a = a[len(r.key):]
	case targetFlag:
		a = strings.TrimPrefix(a, "@")
	}
	return a, c.Dynamic[i]
}

// judge applies row r to its targets and returns the finding, if any.
func (r *Row) judge(c *Command, targets []int, env paths.Env) (risk.Finding, bool) {
	if r.eff != 0 {
		return r.judgeEffect(c, targets, env)
	}
	best, bestPath, bestFile, found := risk.Level(0), "", false, false
	consider := func(l risk.Level, p string, file bool) {
		if !found || l > best {
			best, bestPath, bestFile, found = l, p, file, true
		}
	}
	for _, i := range targets {
		p, dyn := r.target(c, i)
		class, abs, file := "dynamic", p, true
		relative := !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~")
		switch {
		case dyn:
			file = r.tkind != targetNames
		case r.tkind == targetNames:
			class, file = "", false // a name (a container, a unit), not a path
		case r.remote && isRemote(p):
			class, file = remoteClass, false
		case !(relative && c.DirDynamic):
			here := runsIn(*c, env) // relative to where an earlier cd went
			abs = here.Abs(p)
			of := abs // the directory whose contents p names, when it does
			if cp := paths.Contents(p); cp != p {
				of = here.Abs(cp)
			}
			class = env.ClassifyAbs(of).String()
			if r.tkind == targetLead && class == "outside" && tempRoot(of) && findNarrowed(c) {
				// find's start points: what it deletes lies below them,
				// and below a temporary directory's root, only the files
				// its tests pick, is scratch (find /tmp -name '*.pyc'
				// -delete); all of it (find /tmp -delete) is not
				class = "temp"
			}
			if class == "workspace" {
				if _, ok := r.byClass[historyClass]; ok && strings.Contains(of+"/", "/.git/") {
					class = historyClass // the repository's store, for the rows that name it
				} else if _, ok := r.byClass[outputClass]; ok && buildOutput(strings.TrimPrefix(of, env.Cwd)) {
					class = outputClass
				}
			}
		}
		if l, ok := r.byClass[class]; ok {
			consider(l, abs, file)
		} else if r.Level != "" {
			consider(r.level, abs, file)
		}
	}
	if len(targets) == 0 && r.Level != "" {
		consider(r.level, "", false)
	}
	if !found {
		return risk.Finding{}, false
	}
	f := risk.Finding{Analyzer: "shell", Rule: r.Rule, Level: best, Reversible: r.Reversible, Reason: r.reason(bestPath),
		Locked: r.Locked && best == risk.Critical}
	if bestPath != "" && bestFile {
		f.Resource = "file:" + bestPath
	}
	return f, true
}

// tempRoot reports whether the absolute path p is a temporary
// directory's root (/tmp, /var/tmp/): what it holds is temp, itself not.
func tempRoot(p string) bool {
	p = strings.TrimSuffix(p, "/")
	return p != "" && !paths.InTemp(p) && paths.InTemp(p+"/x")
}

// findNarrowed reports whether find command c picks the files it acts on
// by name, path, age or size: not everything below its start points.
func findNarrowed(c *Command) bool {
	for i := 1; i < len(c.Args); i++ {
		if c.Dynamic[i] {
			continue
		}
		switch c.Args[i] {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname":
			if i+1 < len(c.Args) && !c.Dynamic[i+1] && strings.Trim(c.Args[i+1], "*.") != "" {
				return true // a pattern that is not everything (*, .*)
			}
		case "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-newermt", "-anewer", "-cnewer", "-size", "-used":
			return true
		}
	}
	return false
}

// remoteClass is the class of a location on another machine or in a
// cloud store (see isRemote), for rows whose by_class names it: a sync
// that deletes there is not a deletion in the workspace.
const remoteClass = "remote"

// isRemote reports whether a command word names a location on another
// machine the way rsync, scp, rclone and the cloud storage CLIs write
// one: a URL (s3://b/k, gs://b, sftp://h/p), host:path or user@host:path
// (rsync's host::module too), or an rclone remote (remote:path, src:).
// A path that starts with /, . or ~ is local, as is a word with a slash
// before its first colon (./a:b, dir/a:b).
func isRemote(p string) bool {
	i := strings.IndexByte(p, ':')
	if i <= 0 || p[0] == '/' || p[0] == '.' || p[0] == '~' {
		return false
	}
	for j := 0; j < i; j++ {
		c := p[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '@' || c == '+' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// judgeEffect is judge for a row whose targets undergo an effect: each
// target's class (dynamic when bash computes it) is judged by the effect
// table, and the finding is the worst target's.
func (r *Row) judgeEffect(c *Command, targets []int, env paths.Env) (risk.Finding, bool) {
	var best effect.Verdict
	bestPath, found := "", false
	for _, i := range targets {
		p, dyn := r.target(c, i)
		if !dyn && (isRemote(p) || p == "-") {
			continue // another machine's file (rsync host:path), or stdout: not a local file
		}
		t, abs := effect.Dynamic, p
		relative := !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~")
		if !dyn && !(relative && c.DirDynamic) {
			here := runsIn(*c, env) // relative to where an earlier cd went
			if r.eff == effect.Read && quietRead(here, p) {
				continue // judged safe, as the table would judge it
			}
			abs = here.Abs(p)
			of := abs // the directory whose contents p names, when it does
			if cp := paths.Contents(p); cp != p {
				of = here.Abs(cp)
			}
			if r.eff == effect.Read {
				t = effect.Reading(env, of)
			} else {
				t = effect.File(env, of)
			}
		}
		v, ok := effect.JudgeFile(r.eff, t, effect.Glob(p))
		if ok && v.Finds() && (!found || v.Level > best.Level) {
			best, bestPath, found = v, abs, true
		}
	}
	if !found {
		return risk.Finding{}, false
	}
	f := risk.Finding{Analyzer: "shell", Rule: r.Rule, Level: best.Level, Reversible: best.Reversible, Locked: best.Locked,
		Reason: r.reason(bestPath)}
	if bestPath != "" {
		f.Resource = "file:" + bestPath
	}
	return f, true
}

// quietRead reports, without resolving or classifying it, that reading
// the file the static, local path word p names in env finds nothing:
// judgeEffect's Read target of it would be one the effect table judges
// safe. That holds for a path that is no credential (AbsCredential
// tells most apart without joining them), whose base name names no
// secrets or shell history (effect.ReadingOf: its base name is p's last
// component when that is a name), and that is not a device: no device
// is reached without "dev" in p, the working directory or the home,
// whose words are all an absolute path is made of when env has no
// links. False: not known so; judgeEffect resolves and classifies it.
// The table is asked once (readQuiet) whether every other target of a
// read is safe: a change to it turns this path off.
func quietRead(env paths.Env, p string) bool {
	if len(env.Links) > 0 || !strings.HasPrefix(env.Cwd, "/") || !readQuiet() {
		return false
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch {
	case base == "" || base == "." || base == ".." || base == "~":
		return false // not a name: the base name of the path is another word's
	case strings.IndexByte(p, '*') >= 0 || strings.IndexByte(p, '?') >= 0:
		return false // a glob may name a directory's contents (paths.Contents)
	case strings.Contains(p, "dev") || strings.Contains(env.Cwd, "dev") || strings.Contains(env.Home, "dev"):
		return false // a device may be read
	case effect.HistoryFile(base) || paths.SecretName(base):
		return false
	}
	_, cred := env.AbsCredential(p)
	return !cred
}

// readQuiet reports whether the effect table judges a read safe for
// every target but a credential, a device and a file of secrets (see
// quietRead).
var readQuiet = sync.OnceValue(func() bool {
	for t := effect.Target(1); t.String() != "target(?)"; t++ {
		if t == effect.Credential || t == effect.Device || t == effect.Secret {
			continue
		}
		if v, ok := effect.Judge(effect.Read, t); ok && v.Finds() {
			return false
		}
	}
	return true
})

// placeTarget finds where r's Reason names its target, for reason.
func (r *Row) placeTarget() {
	r.at = strings.Index(r.Reason, "{target}")
	r.many = r.at >= 0 && strings.Contains(r.Reason[r.at+len("{target}"):], "{target}")
}

// reason is r's Reason naming target (see placeTarget, which compile
// ran): every {target} replaced by it, " {target}" dropped when it is "".
func (r *Row) reason(target string) string {
	i := r.at
	switch {
	case i < 0:
		return r.Reason
	case r.many:
	case target != "":
		return r.Reason[:i] + target + r.Reason[i+len("{target}"):] // one target: one string built
	case i == 0 || r.Reason[i-1] != ' ':
		return r.Reason // no " {target}" to drop
	default:
		return r.Reason[:i-1] + r.Reason[i+len("{target}"):]
	}
	if target == "" {
		return strings.ReplaceAll(r.Reason, " {target}", "")
	}
	return strings.ReplaceAll(r.Reason, "{target}", target)
}

// commandName is the command's name as rows know it: the base name of
// its first word (/bin/rm is rm). interpreterName also drops versions.
func commandName(arg string) string {
	if arg != "" && strings.IndexByte(arg, '/') < 0 {
		return arg // its own base name, as path.Base has it
	}
	return path.Base(arg)
}
