package shell

import (
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// RuleUnknownMode is the finding on a storage tool warden knows (its
// rows in commands.yaml judge its modes) run on a storage device in a
// mode that none of its rows names and that is not one of the modes
// known to leave the device's data alone (hdparm -Y, nvme format-new,
// cryptsetup luksAddKey, btrfs rescue zero-log). Knowing the tool is not
// knowing what this mode does to the device: it is high, as
// disk.unknown_program is for a tool warden does not know at all. Medium
// was weighed and refused: the modes these tools add are mostly ones
// that rewrite the device (a new erase, a new repair), the tool's
// destructive modes are high and critical, and a medium would let the
// default policy run the new mode unasked where an unknown program on
// the same device asks.
const RuleUnknownMode = "disk.unknown_mode"

// unknownMode is the finding that warden knows the storage tool name but
// not what c's mode of it does to the storage device dev.
func unknownMode(c *Command, name, dev string) risk.Finding {
	return mayRun(risk.Finding{Analyzer: "shell", Rule: RuleUnknownMode, Level: risk.High, Resource: "file:" + cut(dev, 200),
		Reason: "warden knows " + cut(name, 60) + " but not what this mode of it does to the storage device " + cut(dev, 60) + ", which it is given: it may overwrite what is stored there"}, c)
}

// modeRead is how a storage tool's invocation names its mode.
type modeRead uint8

const (
	// eachFlag: each flag is an action of its own (hdparm -I -Y): the
	// mode is known when every flag, each letter of a cluster, is
	// among the known ones; no flag at all is the tool's report.
	eachFlag modeRead = iota
	// anyFlag: one flag selects the mode (mdadm --detail, fdisk -l); the
	// others modify it: the mode is known when one of the known flags
	// is present.
	anyFlag
	// subWord: the first operand is the subcommand (nvme smart-log,
	// cryptsetup luksDump, zpool status).
	subWord
	// everyWord: the tool's commands are its operands, run one after
	// the other (parted /dev/sda unit s print free): the mode is known
	// when every operand but a path (the device) and a number is a known
	// word.
	everyWord
	// groupWord: the first operand names a group and, unless it is one
	// of the groups that are commands themselves (btrfs check), the
	// second the command in it (btrfs filesystem df); each may be
	// abbreviated to a prefix, as btrfs reads them.
	groupWord
)

// storageTool lists the modes of a storage tool that leave the data of
// the device it is given alone: they read or report it, map, start or
// check it without repairing, or only show what they would do.
type storageTool struct {
	read modeRead
	// known: the flags (eachFlag, anyFlag) or the subcommands
	// (subWord; for groupWord "group command" pairs and lone groups)
	// of the known modes
	known *lazySet
	// dry: flags that make any invocation a dry run (sgdisk -P, wipefs
	// -n, e2fsck -n, zpool create -n)
	dry []string
	// unless: flags that take a known subcommand out of the known modes
	// (cryptsetup luksUUID --uuid sets the UUID)
	unless map[string][]string
	// vflags: flags whose next word is their value, not an operand
	vflags *lazySet
}

// storageTools are the storage tools whose modes the disk rows of
// commands.yaml judge. Tools every mode of which a row judges or leaves
// as known are not listed: badblocks (-w, -n; the rest reads), mkfs and
// its family (the rows fire unless -n/-N is a dry run), the LVM reports.
// mdadm's --scan is no mode of its own (mdadm --stop --scan stops every
// array) and is not listed.
var storageTools = map[string]*storageTool{
	// hdparm -N alone reads the sector count (a count sets it: its row)
	"hdparm": {read: eachFlag, known: wordSet(`-I -i -g -t -T -C -H -N --direct`)},
	"sgdisk": {read: eachFlag, known: wordSet(`-p --print -v --verify -i --info -b --backup -O --print-mbr -L --list-types
		-D --display-alignment -E --end-of-largest -f --first-in-largest -F --first-aligned-in-largest -a --set-alignment`),
		dry: []string{"-P", "--pretend"}},
	"wipefs": {read: eachFlag, known: wordSet(`-J --json -O --output -p --parsable -i --noheadings -q --quiet -t --types`),
		dry: []string{"-n", "--no-act"}},
	"tune2fs":   {read: eachFlag, known: wordSet(`-l`)},
	"e2fsck":    e2fsck,
	"fsck.ext2": e2fsck,
	"fsck.ext3": e2fsck,
	"fsck.ext4": e2fsck,
	"fdisk":     {read: anyFlag, known: wordSet(`-l --list -x --list-details -V --version`)},
	"gdisk":     {read: anyFlag, known: wordSet(`-l -V --version`)},
	"cfdisk":    {read: anyFlag, known: wordSet(`-V --version`)},
	"sfdisk": {read: anyFlag, known: wordSet(`-l --list -d --dump -J --json -V --verify -s --show-size -g --show-geometry -F --list-free
		-n --no-act -v --version`)},
	"parted": {read: everyWord, known: wordSet(`print p free all list devices unit s B kB MB GB TB KiB MiB GiB TiB % cyl chs compact
		align-check opt optimal min minimal help version`), vflags: wordSet(`-a --align`)},
	"mdadm": {read: anyFlag, known: wordSet(`-D --detail -E --examine -Q --query -A --assemble -F --monitor --follow --detail-platform
		-X --examine-bitmap -V --version`)},
	"nvme": {read: subWord, known: wordSet(`list list-ns list-ctrl list-subsys show-topology smart-log id-ctrl id-ns id-ns-granularity
		id-iocs id-domain id-nvmset error-log fw-log effects-log self-test-log endurance-log supported-log-pages show-regs get-feature
		get-log get-property get-ns-id version help dsm`)}, // dsm --ad discards: its row
	"cryptsetup": {read: subWord, known: wordSet(`luksDump status isLuks open luksOpen plainOpen loopaesOpen tcryptOpen bitlkOpen
		close luksClose remove luksUUID tcryptDump bitlkDump fvault2Dump luksHeaderBackup benchmark help`),
		unless: map[string][]string{"luksUUID": {"--uuid"}},
		vflags: wordSet(`--type -M --cipher -c --key-file -d --keyfile-offset --keyfile-size -l --key-slot -S --key-size -s --hash -h
			--header --header-backup-file --pbkdf --pbkdf-memory --pbkdf-parallel --iter-time -i --uuid --label --subsystem --token-id
			--sector-size --offset -o --skip -p --size -b --timeout -t --tries -T --integrity -I --master-key-file --volume-key-file`)},
	"zpool": {read: subWord, known: wordSet(`status list iostat get history events import online scrub wait sync version help`),
		dry: []string{"-n"}, vflags: wordSet(`-o -O -R -T -d -c`)},
	"btrfs": {read: groupWord, known: wordSet(`check version help inspect-internal
		subvolume/list subvolume/show subvolume/get-default filesystem/df filesystem/usage filesystem/show filesystem/du
		scrub/status scrub/start scrub/resume scrub/cancel device/stats device/scan device/ready device/usage
		property/get property/list balance/status replace/status qgroup/show`),
		unless: map[string][]string{"check": {"--repair", "--init-csum-tree", "--init-extent-tree"}},
		vflags: wordSet(`--format --log`)},
}

// e2fsck repairs unless -n opens the filesystem read-only (its row
// judges the rest)
var e2fsck = &storageTool{read: eachFlag, known: wordSet(``), dry: []string{"-n"}}

// btrfsGroups are btrfs's command groups (and its commands that are no
// group), which it lets a prefix name.
var btrfsGroups = strings.Fields(`balance check device filesystem inspect-internal property qgroup quota receive replace rescue
restore scrub send subvolume select-super help version`)

// unknownStorageMode returns the finding that warden does not know what
// c's mode of the storage tool t, named name, does to the storage device
// c is given, when c is given a device and its mode is not a known one.
// It is asked only of commands no finding judged.
func unknownStorageMode(c *Command, t *storageTool, name string, env paths.Env) (risk.Finding, bool) {
	dev, ok := deviceOperand(c, env)
	if !ok || t.knows(c) {
		return risk.Finding{}, false
	}
	return unknownMode(c, name, dev), true
}

// knows reports whether c runs one of t's known modes.
func (t *storageTool) knows(c *Command) bool {
	var flags []string
	var ops []string
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if c.Dynamic[i] {
			if t.read == eachFlag {
				return false // a word computed at run time may be a flag: its action is not seen
			}
			ops = append(ops, a)
			continue
		}
		if a == "--" {
			ops = append(ops, c.Args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			if t.vflags != nil && t.vflags.has(a) && i+1 < len(c.Args) {
				i++
			}
			continue
		}
		ops = append(ops, a)
	}
	for _, f := range t.dry {
		if hasFlag(flags, f) {
			return true
		}
	}
	switch t.read {
	case eachFlag:
		for _, f := range flags {
			if k := strings.IndexByte(f, '='); k > 0 {
				f = f[:k]
			}
			if t.known.has(f) {
				continue
			}
			if f[1] == '-' || !isCluster(f) {
				return false
			}
			for j := 1; j < len(f); j++ {
				if !t.known.has("-" + f[j:j+1]) {
					return false
				}
			}
		}
		return true
	case anyFlag:
		for _, f := range flags {
			if k := strings.IndexByte(f, '='); k > 0 {
				f = f[:k]
			}
			if t.known.has(f) {
				return true
			}
			if f[1] != '-' && isCluster(f) {
				for j := 1; j < len(f); j++ {
					if t.known.has("-" + f[j:j+1]) {
						return true
					}
				}
			}
		}
		return false
	case subWord:
		return len(ops) > 0 && t.known.has(ops[0]) && !t.undone(ops[0], flags)
	case everyWord:
		for _, o := range ops {
			if !t.known.has(o) && !strings.HasPrefix(o, "/") && strings.Trim(o, "0123456789.") != "" {
				return false
			}
		}
		return true
	default: // groupWord
		if len(ops) == 0 {
			return false
		}
		g := btrfsGroup(ops[0])
		if g == "" {
			return false
		}
		if t.known.has(g) {
			return !t.undone(g, flags)
		}
		if len(ops) < 2 {
			return false
		}
		for k := range strings.FieldsSeq(t.known.text) {
			if p, cmd, ok := strings.Cut(k, "/"); ok && p == g && prefixOf(ops[1], cmd) {
				return true
			}
		}
		return false
	}
}

// undone reports whether one of the flags takes the known subcommand sub
// out of the known modes.
func (t *storageTool) undone(sub string, flags []string) bool {
	for _, f := range t.unless[sub] {
		if hasFlag(flags, f) {
			return true
		}
	}
	return false
}

// btrfsGroup returns the btrfs group that w names, in full or by a prefix
// of two letters or more that only it starts with; "" when none.
func btrfsGroup(w string) string {
	found := ""
	for _, g := range btrfsGroups {
		if g == w {
			return g
		}
		if prefixOf(w, g) {
			if found != "" {
				return "" // btrfs refuses an ambiguous prefix
			}
			found = g
		}
	}
	return found
}

// prefixOf reports whether w is word or a prefix of it of two letters or
// more, as btrfs lets its commands be abbreviated.
func prefixOf(w, word string) bool {
	return w == word || len(w) >= 2 && strings.HasPrefix(word, w)
}
