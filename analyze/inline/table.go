package inline

import "strings"

// Kind is what a call does.
type Kind uint8

const (
	Run        Kind = iota + 1 // runs a command line (or an argv list)
	Delete                     // deletes a file (recursively with a recursive option)
	DeleteTree                 // deletes a directory tree
	Rmdir                      // removes an empty directory
	Write                      // writes a file (its first argument)
	Open                       // open()/fopen(): its mode decides
	Connect                    // requests its URL arguments
	Socket                     // opens a connection to its host argument
	Eval                       // evaluates program text
	Read                       // reads a file (its first argument; a URL there connects)
)

// fn is one known call: what it does, the receivers it must be called on
// (recv: "|"-separated names; "^" allows a bare call, ")" a call on a
// call's result; empty allows any), and whether its arguments are an argv
// list rather than one command line.
type fn struct {
	kind Kind
	recv string
	argv bool
}

// receiver reports whether the call at toks[i] is made on a receiver the
// entry allows.
func (f fn) receiver(toks []token, i int) bool {
	if f.recv == "" {
		return true
	}
	if i == 0 || toks[i-1].k != tPunct || (toks[i-1].text != "." && toks[i-1].text != "::" && toks[i-1].text != "->") {
		return strings.Contains("|"+f.recv+"|", "|^|")
	}
	if i < 2 {
		return false
	}
	r := toks[i-2]
	name := r.text
	if r.k == tPunct && r.text != ")" {
		return false
	}
	for _, a := range strings.Split(f.recv, "|") {
		if a == name {
			return true
		}
	}
	return false
}

// calls are, per language, the calls Scan knows.
var calls = map[string]map[string]fn{
	"perl": {
		"system": {kind: Run, recv: "^|CORE"}, "exec": {kind: Run, recv: "^|CORE"},
		"open": {kind: Open, recv: "^|CORE"}, "open3": {kind: Run, argv: true}, "open2": {kind: Run, argv: true},
		"unlink": {kind: Delete, recv: "^|CORE"}, "rmtree": {kind: DeleteTree}, "remove_tree": {kind: DeleteTree},
		"rmdir":    {kind: Rmdir, recv: "^|CORE"},
		"getstore": {kind: Connect}, "get": {kind: Connect}, "mirror": {kind: Connect}, "post": {kind: Connect},
		"head": {kind: Connect}, "request": {kind: Connect}, "delete": {kind: Connect}, "put": {kind: Connect}, "patch": {kind: Connect},
		"new":       {kind: Socket, recv: "INET|IP|INET6|SSL"},
		"eval":      {kind: Eval, recv: "^"},
		"read_file": {kind: Read, recv: "^|File::Slurp"}, "read_text": {kind: Read, recv: "^|File::Slurper"},
	},
	"ruby": {
		"system": {kind: Run, recv: "^|Kernel"}, "exec": {kind: Run, recv: "^|Kernel|Process"},
		"spawn": {kind: Run, recv: "^|Kernel|Process", argv: true},
		"popen": {kind: Run, recv: "IO|Open3"}, "capture2": {kind: Run, recv: "Open3"}, "capture2e": {kind: Run, recv: "Open3"},
		"capture3": {kind: Run, recv: "Open3"}, "popen2": {kind: Run, recv: "Open3"}, "popen3": {kind: Run, recv: "Open3"},
		"popen2e": {kind: Run, recv: "Open3"}, "pipeline": {kind: Run, recv: "Open3"},
		"open":  {kind: Open, recv: "^|Kernel|File|IO"},
		"rm_rf": {kind: DeleteTree}, "rm_r": {kind: DeleteTree}, "remove_dir": {kind: DeleteTree},
		"remove_entry": {kind: DeleteTree}, "remove_entry_secure": {kind: DeleteTree}, "rmtree": {kind: DeleteTree},
		"rm": {kind: Delete, recv: "FileUtils|FU"}, "rm_f": {kind: Delete, recv: "FileUtils|FU"}, "remove": {kind: Delete, recv: "FileUtils|FU"},
		"delete": {kind: Delete, recv: "File|Dir"}, "unlink": {kind: Delete, recv: "File|Dir"},
		"rmdir": {kind: Rmdir, recv: "Dir|FileUtils"},
		"write": {kind: Write, recv: "File|IO"}, "binwrite": {kind: Write, recv: "File|IO"},
		"get": {kind: Connect, recv: "HTTP"}, "get_response": {kind: Connect, recv: "HTTP"}, "post": {kind: Connect, recv: "HTTP"},
		"post_form": {kind: Connect, recv: "HTTP"}, "URI": {kind: Connect, recv: "^"},
		"new":  {kind: Socket, recv: "TCPSocket|UDPSocket|Socket"},
		"eval": {kind: Eval, recv: "^|Kernel"},
		"read": {kind: Read, recv: "File|IO"}, "binread": {kind: Read, recv: "File|IO"}, "readlines": {kind: Read, recv: "File|IO"},
		"foreach": {kind: Read, recv: "File|IO"},
	},
	"php": {
		"system": {kind: Run}, "exec": {kind: Run}, "shell_exec": {kind: Run}, "passthru": {kind: Run},
		"popen": {kind: Run}, "proc_open": {kind: Run}, "pcntl_exec": {kind: Run, argv: true},
		"unlink": {kind: Delete}, "rmdir": {kind: Rmdir},
		"file_put_contents": {kind: Write}, "fopen": {kind: Open},
		"fsockopen": {kind: Socket}, "pfsockopen": {kind: Socket}, "stream_socket_client": {kind: Socket},
		"curl_init": {kind: Connect}, "file_get_contents": {kind: Read}, "fopen_url": {kind: Connect},
		"file": {kind: Read, recv: "^"}, "readfile": {kind: Read},
		"eval": {kind: Eval}, "assert": {kind: Eval},
	},
	"js": {
		"exec": {kind: Run, recv: "^|child_process|cp|childProcess|proc|)"}, "execSync": {kind: Run},
		"spawn": {kind: Run, recv: "^|child_process|cp|childProcess|proc|)|Bun", argv: true}, "spawnSync": {kind: Run, argv: true},
		"execFile": {kind: Run, argv: true}, "execFileSync": {kind: Run, argv: true}, "fork": {kind: Run, recv: "child_process|cp|childProcess|)", argv: true},
		"Command": {kind: Run, recv: "Deno", argv: true}, "run": {kind: Run, recv: "Deno", argv: true},
		"unlinkSync": {kind: Delete}, "unlink": {kind: Delete, recv: "fs|fsp|promises|fse|)|Deno"},
		"rmSync": {kind: Delete}, "rm": {kind: Delete, recv: "fs|fsp|promises|fse|)"},
		"rmdirSync": {kind: Delete}, "rmdir": {kind: Delete, recv: "fs|fsp|promises|fse|)"},
		"remove": {kind: Delete, recv: "fse|fs|Deno|)"}, "removeSync": {kind: DeleteTree}, "emptyDirSync": {kind: DeleteTree},
		"rimraf": {kind: DeleteTree, recv: "^"}, "sync": {kind: DeleteTree, recv: "rimraf|del"},
		"writeFileSync": {kind: Write}, "writeFile": {kind: Write}, "appendFileSync": {kind: Write}, "appendFile": {kind: Write},
		"createWriteStream": {kind: Write}, "writeTextFile": {kind: Write}, "writeTextFileSync": {kind: Write}, "outputFileSync": {kind: Write},
		"fetch": {kind: Connect}, "get": {kind: Connect, recv: "http|https|axios|got|needle|request|)"},
		"request": {kind: Connect, recv: "^|http|https|axios|got|)"}, "post": {kind: Connect, recv: "axios|got|needle|request|ky|superagent|)"}, "axios": {kind: Connect, recv: "^"}, "Request": {kind: Connect, recv: "^"},
		"delete":  {kind: Connect, recv: "axios|got|needle|request|ky|superagent|client|api|instance|)"},
		"put":     {kind: Connect, recv: "axios|got|needle|request|ky|superagent|client|api|instance|)"},
		"patch":   {kind: Connect, recv: "axios|got|needle|request|ky|superagent|client|api|instance|)"},
		"connect": {kind: Socket, recv: "net|tls"}, "createConnection": {kind: Socket, recv: "net|tls"},
		"eval": {kind: Eval, recv: "^"}, "Function": {kind: Eval, recv: "^"},
		"readFileSync": {kind: Read}, "readFile": {kind: Read, recv: "fs|fsp|promises|fse|)|Deno"}, "createReadStream": {kind: Read},
		"readTextFile": {kind: Read}, "readTextFileSync": {kind: Read}, "readFileStr": {kind: Read},
		"readJsonSync": {kind: Read}, "readJson": {kind: Read, recv: "fse|fs|)"}, "file": {kind: Read, recv: "Bun"},
	},
	"awk": {
		"system": {kind: Run, recv: "^"},
	},
	"lua": {
		"execute": {kind: Run, recv: "os"}, "popen": {kind: Run, recv: "io"},
		"remove": {kind: Delete, recv: "os"}, "open": {kind: Open, recv: "io"}, "lines": {kind: Read, recv: "io"},
	},
	"ex": {
		"system": {kind: Run, recv: "^"}, "systemlist": {kind: Run, recv: "^"}, "job_start": {kind: Run, recv: "^", argv: true},
		"termopen": {kind: Run, recv: "^"}, "jobstart": {kind: Run, recv: "^"}, "delete": {kind: Delete, recv: "^"},
	},
}
