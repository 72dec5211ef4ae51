package code

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"github.com/agentwarden/warden/analyze/inline"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// args are the evaluated arguments of a call.
type args struct {
	pos []value
	kw  []kwValue
}

// newArgs returns empty arguments with room for n positional ones: for one
// or two, in the same allocation (most calls have one or two).
func newArgs(n int) *args {
	if n < 1 || n > 2 {
		return &args{pos: make([]value, 0, n)}
	}
	b := new(struct {
		args
		buf [2]value
	})
	b.pos = b.buf[:0:n] // the capacity make would give
	return &b.args
}

type kwValue struct {
	name string
	v    value
}

// get returns the argument at position i or named name.
func (c *args) get(i int, name string) (value, bool) {
	if c == nil {
		return value{}, false
	}
	if i >= 0 && i < len(c.pos) {
		return c.pos[i], true
	}
	for _, kw := range c.kw {
		if kw.name == name && name != "" {
			return kw.v, true
		}
	}
	return value{}, false
}

// arg is get that returns an unknown value for a missing argument.
func (c *args) arg(i int, name string) value {
	if v, ok := c.get(i, name); ok {
		return v
	}
	return dynValue
}

func (c *args) kwarg(name string) (value, bool) { return c.get(-1, name) }

// altCount is the number of alternatives among the arguments and the
// other values given.
func (c *args) altCount(others ...value) int {
	n := altCount(others...)
	for _, v := range c.pos {
		n = max(n, len(v.alts))
	}
	for _, kw := range c.kw {
		n = max(n, len(kw.v.alts))
	}
	return n
}

// derived is an unknown value made from the arguments and others.
func (c *args) derived(others ...value) value {
	out := derived(others...)
	for _, v := range c.pos {
		out = out.with(v)
	}
	for _, kw := range c.kw {
		out = out.with(kw.v)
	}
	return out
}

// all returns every argument value.
func (c *args) all() []value {
	if c == nil {
		return nil
	}
	out := append([]value(nil), c.pos...)
	for _, kw := range c.kw {
		out = append(out, kw.v)
	}
	return out
}

// handler evaluates a call of a known function.
type handler func(a *analysis, c *args) value

// knownFuncs returns the functions the analyzer knows, by canonical
// dotted name, built on first use (handlers call back into the analyzer,
// so this is a function: a package variable would be an initialization
// cycle).
func knownFuncs() map[string]handler {
	funcsOnce.Do(func() {
		funcs = map[string]handler{}
		registerCalls(funcs)
		registerSDKs(funcs)
	})
	return funcs
}

var (
	funcsOnce sync.Once
	funcs     map[string]handler
)

// registerCalls adds the functions of Python's standard library and of
// common packages to funcs.
func registerCalls(funcs map[string]handler) {
	reg := func(h handler, names ...string) {
		for _, n := range names {
			funcs[n] = h
		}
	}
	// Paths and strings, evaluated statically.
	reg(func(a *analysis, c *args) value { return a.expanduser(c.arg(0, "path")) }, "os.path.expanduser")
	reg(func(a *analysis, c *args) value { return a.expandvars(c.arg(0, "path")) }, "os.path.expandvars")
	reg(func(a *analysis, c *args) value { return str(joinPath(c.pos)).with(c.pos...) }, "os.path.join")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "path")
		return str(cleanPath(a.absText(v))).with(v)
	}, "os.path.abspath", "os.path.realpath", "os.path.normpath")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "p")
		if s, ok := v.static(); ok {
			return str(parentDir(s))
		}
		return derived(v)
	}, "os.path.dirname")
	reg(func(a *analysis, c *args) value { return a.cwd() }, "os.getcwd", "os.getcwdb", "pathlib.Path.cwd")
	reg(func(a *analysis, c *args) value {
		if a.env.Home == "" {
			return value{k: kPath, s: dyn}
		}
		return pathVal(a.env.Home)
	}, "pathlib.Path.home")
	reg(func(a *analysis, c *args) value {
		if len(c.pos) == 0 {
			return pathVal(".")
		}
		return pathVal(joinPath(c.pos)).with(c.pos...)
	}, "pathlib.Path")
	reg(func(a *analysis, c *args) value {
		name := c.arg(0, "key")
		if s, ok := name.static(); ok {
			return a.envVar(s, c.arg(1, "default"))
		}
		return dynValue
	}, "os.getenv", "os.getenvb", "os.environ.get")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "object")
		if v.k == kPath {
			v.k = kStr
		}
		if v.k == kList { // bytes([114, 109])
			b := make([]byte, 0, len(v.items))
			for _, it := range v.items {
				n, ok := it.staticInt()
				if !ok || n < 0 || n > 255 {
					return derived(v)
				}
				b = append(b, byte(n))
			}
			return value{k: kBytes, s: string(b)}.with(v)
		}
		if v.textual() || v.k == kInt || v.k == kBool || v.k == kNone {
			return str(v.text()).with(v)
		}
		return derived(v)
	}, "str", "os.fspath", "os.fsdecode", "os.fsencode", "bytes", "bytearray")
	reg(func(a *analysis, c *args) value { return str("/tmp") }, "tempfile.gettempdir")
	reg(func(a *analysis, c *args) value { return str("/tmp/" + dyn) }, "tempfile.mkdtemp", "tempfile.mktemp")
	reg(func(a *analysis, c *args) value {
		return value{k: kList, items: []value{dynValue, str("/tmp/" + dyn)}}
	}, "tempfile.mkstemp")
	reg(func(a *analysis, c *args) value { return shlexSplit(c.arg(0, "s")) }, "shlex.split")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "split_command")
		if v.k != kList {
			return derived(v)
		}
		words := make([]string, len(v.items))
		for i, w := range v.items {
			words[i] = w.text()
		}
		return str(quoteArgv(words)).with(v)
	}, "shlex.join")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "s")
		return str(renderQuoted(v.text())).with(v)
	}, "shlex.quote", "pipes.quote")
	reg(func(a *analysis, c *args) value { return decode(c.arg(0, "s"), "base64") },
		"base64.b64decode", "base64.standard_b64decode", "base64.decodebytes", "base64.decodestring", "binascii.a2b_base64")
	reg(func(a *analysis, c *args) value { return decode(c.arg(0, "s"), "urlsafe") }, "base64.urlsafe_b64decode")
	reg(func(a *analysis, c *args) value { return decode(c.arg(0, "s"), "hex") },
		"base64.b16decode", "binascii.unhexlify", "binascii.a2b_hex", "bytes.fromhex")
	reg(func(a *analysis, c *args) value {
		enc := c.arg(1, "encoding")
		e, _ := enc.static()
		return decode(c.arg(0, "obj"), strings.ToLower(e))
	}, "codecs.decode")
	reg(func(a *analysis, c *args) value {
		if e, _ := c.arg(1, "encoding").static(); strings.HasPrefix(strings.ToLower(e), "rot") {
			return decode(c.arg(0, "obj"), "rot13") // its own inverse
		}
		return derived(c.arg(0, "obj"))
	}, "codecs.encode")
	reg(func(a *analysis, c *args) value { return decode(c.arg(0, "data"), "zlib") }, "zlib.decompress")
	reg(func(a *analysis, c *args) value { return decode(c.arg(0, "data"), "gzip") }, "gzip.decompress")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "seq")
		if s, ok := v.static(); ok && v.textual() {
			b := []byte(s)
			slices.Reverse(b)
			return value{k: v.k, s: string(b)}.with(v)
		}
		if v.k == kList {
			items := slices.Clone(v.items)
			slices.Reverse(items)
			return value{k: kList, items: items}.with(v)
		}
		return derived(v)
	}, "reversed")
	// Functions handed to threads, timers, exit handlers and executors
	// run with the arguments given along.
	reg(func(a *analysis, c *args) value {
		a.callTarget(c.arg(-1, "target"), c.arg(-1, "args"), c.arg(-1, "kwargs"))
		return value{k: kObj, s: "thread"}
	}, "threading.Thread")
	reg(func(a *analysis, c *args) value {
		a.callTarget(c.arg(1, "function"), c.arg(2, "args"), c.arg(3, "kwargs"))
		return value{k: kObj, s: "thread"}
	}, "threading.Timer")
	reg(func(a *analysis, c *args) value {
		if len(c.pos) > 0 {
			a.callTarget(c.pos[0], value{k: kList, items: c.pos[1:]}, value{})
		}
		return c.arg(0, "func")
	}, "atexit.register")
	reg(func(a *analysis, c *args) value {
		if p := c.arg(0, "file"); p.textual() {
			a.write(p, "w")
			data := c.arg(1, "arr")
			a.wrote(p, "w", &value{k: kDyn, t: data.t})
		}
		return value{k: kNone}
	}, "numpy.save", "numpy.savez", "numpy.savez_compressed", "numpy.savetxt", "cv2.imwrite", "matplotlib.pyplot.savefig",
		"imageio.imwrite", "soundfile.write", "scipy.io.savemat")
	reg(func(a *analysis, c *args) value {
		if p := c.arg(1, "f"); p.textual() {
			a.write(p, "w")
			data := c.arg(0, "obj")
			a.wrote(p, "w", &value{k: kDyn, t: data.t})
		}
		return value{k: kNone}
	}, "torch.save", "joblib.dump")
	reg(func(a *analysis, c *args) value {
		p := c.arg(0, "path_name")
		a.ranFile(p)
		if s, ok := p.static(); ok {
			if code, ok := a.written[a.env.Abs(s)]; ok {
				a.nested(code)
			}
		}
		return dynValue
	}, "runpy.run_path", "execfile")
	reg(func(a *analysis, c *args) value {
		a.ranFile(c.arg(1, "location"))
		return dynValue
	}, "importlib.util.spec_from_file_location", "importlib.machinery.SourceFileLoader", "imp.load_source",
		"importlib.machinery.SourcelessFileLoader")
	reg(func(a *analysis, c *args) value { return value{k: kObj, s: "globals"} }, "globals")
	reg(func(a *analysis, c *args) value {
		if m := c.arg(0, "object"); m.k == kRef {
			return ref(m.s + ".__dict__")
		}
		if len(c.pos) == 0 && a.scope == a.top {
			return value{k: kObj, s: "globals"}
		}
		return dynValue
	}, "vars")
	reg(func(a *analysis, c *args) value {
		if a.scope == a.top {
			return value{k: kObj, s: "globals"}
		}
		return dynValue
	}, "locals")
	reg(func(a *analysis, c *args) value {
		if n, ok := c.arg(0, "i").staticInt(); ok && n >= 0 && n < 0x110000 {
			return str(string(rune(n)))
		}
		return dynValue
	}, "chr")
	reg(func(a *analysis, c *args) value {
		obj, name := c.arg(0, "object"), c.arg(1, "name")
		if s, ok := name.static(); ok {
			return a.attr(obj, s)
		}
		return derived(obj)
	}, "getattr")
	reg(func(a *analysis, c *args) value {
		if s, ok := c.arg(0, "name").static(); ok {
			return a.refValue(s)
		}
		return dynValue
	}, "__import__", "importlib.import_module", "importlib.__import__")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "iterable")
		if v.k == kList {
			return v
		}
		return derived(v)
	}, "list", "tuple", "sorted", "set", "frozenset", "iter", "dict", "enumerate")
	reg(func(a *analysis, c *args) value {
		it := c.arg(1, "iterable")
		out := derived(it)
		if it.src != nil {
			l := *it.src
			l.selective = true
			out.src = &l
		}
		if f := c.arg(0, "function"); f.k == kFunc {
			a.invoke(f.fn(), []value{derived(it)}, nil)
		}
		return out
	}, "filter", "itertools.filterfalse")
	reg(func(a *analysis, c *args) value { return a.mapCall(c) }, "map")
	reg(func(a *analysis, c *args) value {
		var lo, hi int64
		var ok1, ok2 bool
		switch len(c.pos) {
		case 1:
			hi, ok2 = c.pos[0].staticInt()
			ok1 = true
		case 2, 3:
			lo, ok1 = c.pos[0].staticInt()
			hi, ok2 = c.pos[1].staticInt()
		}
		if ok1 && ok2 && hi > lo && len(c.pos) < 3 {
			return value{k: kObj, s: "range", n: hi - lo}
		}
		return dynValue
	}, "range", "xrange")
	for _, n := range []string{"len", "isinstance", "issubclass", "type", "id", "hash", "bool", "print", "callable", "hasattr",
		"int", "float", "abs", "round", "min", "max", "sum", "any", "all", "ord", "time.sleep", "os.path.exists", "os.path.isfile",
		"os.path.isdir", "os.path.islink", "os.path.getsize", "os.path.getmtime", "os.getpid", "os.cpu_count", "logging.info",
		"logging.debug", "logging.warning", "logging.error", "input", "help", "dir", "setattr", "delattr",
		"super", "object", "next", "divmod", "pow", "os.makedirs", "os.mkdir", "sys.exit", "exit", "quit", "os._exit"} {
		funcs[n] = func(a *analysis, c *args) value { return dynValue }
	}

	// Files.
	reg(func(a *analysis, c *args) value {
		mode, ok := c.get(1, "mode")
		if !ok {
			mode = str("r")
		}
		return a.open(c.arg(0, "file"), mode)
	}, "open", "io.open", "codecs.open", "io.FileIO")
	reg(func(a *analysis, c *args) value {
		return a.listing(a.dirArg(c, "top"), "", true)
	}, "os.walk", "os.fwalk")
	reg(func(a *analysis, c *args) value {
		return a.listing(a.dirArg(c, "path"), "", false)
	}, "os.listdir", "os.scandir")
	reg(func(a *analysis, c *args) value {
		pat := c.arg(0, "pathname")
		rec := false
		if v, ok := c.kwarg("recursive"); ok {
			rec = truthy(v) || v.k == kDyn
		}
		if !pat.textual() {
			return derived(pat)
		}
		s := pat.s
		if strings.Contains(s, dyn) {
			return a.listing(str(staticPrefix(s)), "", rec)
		}
		if !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") {
			s = "./" + s
		}
		dir, rest := globDir(s)
		if dir == "" {
			dir = "/"
		}
		return a.listing(str(dir), rest, rec && strings.Contains(rest, "**"))
	}, "glob.glob", "glob.iglob")
	reg(func(a *analysis, c *args) value { return a.osOpen(c) }, "os.open")
	reg(func(a *analysis, c *args) value { a.remove(c.arg(0, "path"), false); return value{k: kNone} },
		"os.remove", "os.unlink", "os.rmdir", "pathlib.Path.unlink", "pathlib.Path.rmdir")
	reg(func(a *analysis, c *args) value { a.remove(c.arg(0, "path"), true); return value{k: kNone} },
		"shutil.rmtree", "os.removedirs", "distutils.dir_util.remove_tree")
	reg(func(a *analysis, c *args) value {
		a.copy(c.arg(0, "src"), c.arg(1, "dst"), false)
		return c.arg(1, "dst")
	},
		"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "os.link", "distutils.dir_util.copy_tree")
	reg(func(a *analysis, c *args) value {
		a.write(c.arg(1, "dst"), "w")
		a.copied(c.arg(0, "src"), c.arg(1, "dst"), false)
		return value{k: kNone}
	}, "os.symlink")
	reg(func(a *analysis, c *args) value {
		a.copy(c.arg(0, "src"), c.arg(1, "dst"), true)
		return c.arg(1, "dst")
	},
		"shutil.move", "os.rename", "os.replace", "os.renames")
	reg(func(a *analysis, c *args) value {
		a.write(c.arg(0, "path"), "w")
		a.wrote(c.arg(0, "path"), "w", &dynValue)
		return value{k: kNone}
	}, "os.truncate")
	reg(func(a *analysis, c *args) value {
		src, dst := c.arg(0, "fsrc"), c.arg(1, "fdst")
		if dst.k == kObj && dst.s == "file" {
			a.wroteTo(dst, derived(src))
		}
		return value{k: kNone}
	}, "shutil.copyfileobj")
	reg(func(a *analysis, c *args) value { a.chmod(c.arg(0, "path"), c.arg(1, "mode")); return value{k: kNone} },
		"os.chmod", "os.lchmod")
	reg(func(a *analysis, c *args) value { a.chown(c.arg(0, "path")); return value{k: kNone} },
		"os.chown", "os.lchown", "shutil.chown")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "path")
		s, ok := v.static()
		if !ok || !v.textual() {
			s = ""
		}
		a.chdir(s)
		return value{k: kNone}
	}, "os.chdir")

	// Processes.
	reg(func(a *analysis, c *args) value { return a.subprocess(c) },
		"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output")
	reg(func(a *analysis, c *args) value { a.spawn(); return a.subprocess(c) }, "subprocess.Popen")
	reg(func(a *analysis, c *args) value {
		a.spawn()
		a.callTarget(c.arg(-1, "target"), c.arg(-1, "args"), c.arg(-1, "kwargs"))
		return value{k: kObj, s: "process"}
	}, "multiprocessing.Process", "multiprocessing.context.Process")
	reg(func(a *analysis, c *args) value {
		a.runShell(c.arg(0, "cmd"), nil)
		return derived()
	}, "os.system", "os.popen", "os.popen2", "os.popen3", "os.popen4", "subprocess.getoutput", "subprocess.getstatusoutput",
		"asyncio.create_subprocess_shell", "popen2.popen2", "popen2.popen3")
	reg(func(a *analysis, c *args) value {
		a.runArgv(c.arg(0, "argv"), nil, nil)
		return dynValue
	}, "pty.spawn")
	reg(func(a *analysis, c *args) value {
		a.spawn()
		a.runArgv(value{k: kList, items: c.pos}, nil, nil)
		return dynValue
	}, "asyncio.create_subprocess_exec")
	reg(func(a *analysis, c *args) value {
		a.runArgv(shlexSplit(c.arg(0, "command")), nil, nil)
		return dynValue
	}, "pexpect.spawn", "pexpect.run")
	for _, n := range []string{"execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "execlpe",
		"spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "posix_spawn", "posix_spawnp"} {
		name := n
		reg(func(a *analysis, c *args) value {
			if !strings.HasPrefix(name, "exec") {
				a.spawn()
			}
			a.exec(name, c)
			return dynValue
		}, "os."+n)
	}
	reg(func(a *analysis, c *args) value { a.fork(); return dynValue }, "os.fork", "os.forkpty", "pty.fork")
	reg(func(a *analysis, c *args) value {
		if fd, ok := c.arg(1, "fd2").staticInt(); !ok || fd <= 2 {
			a.dup2 = true
		}
		return dynValue
	}, "os.dup2")
	reg(func(a *analysis, c *args) value { a.kill(c.arg(0, "pid")); return value{k: kNone} }, "os.kill", "os.killpg")

	// Network.
	for _, m := range []string{"get", "head", "options", "post", "put", "patch", "delete"} {
		method := strings.ToUpper(m)
		reg(func(a *analysis, c *args) value { return a.http(method, c.arg(0, "url"), c, 1) },
			"requests."+m, "httpx."+m, "requests.api."+m)
	}
	reg(func(a *analysis, c *args) value {
		return a.http(methodArg(c, 0, "method"), c.arg(1, "url"), c, -1)
	}, "requests.request", "httpx.request", "requests.api.request")
	reg(func(a *analysis, c *args) value { return value{k: kObj, s: "requests"} },
		"requests.Session", "requests.session", "httpx.Client", "httpx.AsyncClient", "aiohttp.ClientSession")
	reg(func(a *analysis, c *args) value { return value{k: kObj, s: "urllib3"} }, "urllib3.PoolManager")
	reg(func(a *analysis, c *args) value {
		u, data := c.arg(0, "url"), c.arg(1, "data")
		if _, ok := c.get(1, "data"); !ok {
			data = value{k: kNone}
		}
		m := methodArg(c, 5, "method")
		return value{k: kObj, s: "urllib.request.Request", obj: &object{url: &u, body: &data, method: m}}.with(u, data)
	}, "urllib.request.Request")
	reg(func(a *analysis, c *args) value { return a.urlopen(c) }, "urllib.request.urlopen")
	reg(func(a *analysis, c *args) value {
		u := c.arg(0, "url")
		a.http("GET", u, nil, -1)
		if f, ok := c.get(1, "filename"); ok {
			a.write(f, "w")
			a.downloaded(u, f)
		}
		return value{k: kList, items: []value{dynValue, dynValue}}
	}, "urllib.request.urlretrieve")
	reg(func(a *analysis, c *args) value {
		u := c.arg(0, "url")
		a.http("GET", u, nil, -1)
		f, ok := c.get(1, "out")
		if !ok || f.k == kNone {
			f = dynValue
			if s := staticURL(u); s != "" {
				f = str(wgetName(s))
			}
		}
		a.write(f, "w")
		a.downloaded(u, f)
		return dynValue
	}, "wget.download")
	reg(func(a *analysis, c *args) value {
		h := c.arg(0, "host")
		u := str("http://" + h.text())
		return value{k: kObj, s: "http.client", obj: &object{url: &u}}
	}, "http.client.HTTPConnection", "http.client.HTTPSConnection", "smtplib.SMTP", "smtplib.SMTP_SSL", "ftplib.FTP", "ftplib.FTP_TLS")
	reg(func(a *analysis, c *args) value {
		a.socket = true
		return value{k: kObj, s: "socket", t: tSocket}
	}, "socket.socket", "socket.fromfd")
	reg(func(a *analysis, c *args) value {
		a.socket = true
		a.connect(c.arg(0, "address"))
		return value{k: kObj, s: "socket", t: tSocket}
	}, "socket.create_connection")

	// Databases.
	reg(func(a *analysis, c *args) value { return value{k: kObj, s: "db"} },
		"sqlite3.connect", "psycopg.connect", "pymysql.connect", "duckdb.connect", "cx_Oracle.connect", "oracledb.connect",
		"pyodbc.connect", "asyncpg.connect", "sqlalchemy.create_engine", "aiosqlite.connect", "psycopg.AsyncConnection.connect",
		"psycopg.Connection.connect", "snowflake.connector.connect", "clickhouse_driver.Client")
	reg(func(a *analysis, c *args) value {
		a.sqlText(c.arg(0, "sql"), true)
		return value{k: kObj, s: "rows", t: tDB}
	}, "pandas.read_sql", "pandas.read_sql_query")
	reg(func(a *analysis, c *args) value {
		v := c.arg(0, "text")
		a.sqlText(v, true)
		return v
	}, "sqlalchemy.text")

	// Code.
	reg(func(a *analysis, c *args) value { a.execCode(c.arg(0, "source")); return dynValue }, "exec", "eval")
	reg(func(a *analysis, c *args) value { return c.arg(0, "source") }, "compile")
	reg(func(a *analysis, c *args) value { a.deserialize(c.arg(0, "data")); return dynValue },
		"pickle.loads", "pickle.load", "marshal.loads", "marshal.load", "shelve.open", "jsonpickle.decode", "yaml.unsafe_load", "joblib.load")
}

// callNode evaluates a call expression.
func (a *analysis) callNode(n *node) value {
	fn := n.args[0]
	var recv, callee value
	method := ""
	if fn.kind == nAttr {
		recv = a.eval(fn.args[0])
		if recv.k == kRef {
			callee = a.attr(recv, fn.op)
		} else {
			method = fn.op
		}
	} else {
		callee = a.eval(fn)
	}
	c := newArgs(len(n.args) - 1)
	for _, x := range n.args[1:] {
		v := a.eval(x)
		if x.kind == nStar && v.k == kList {
			c.pos = append(c.pos, v.items...)
			continue
		}
		c.pos = append(c.pos, v)
	}
	for _, kw := range n.kws {
		v := a.eval(kw.val)
		if kw.name == "" && v.k == kDict {
			for i := 0; i+1 < len(v.items); i += 2 {
				if k, ok := v.items[i].static(); ok {
					c.kw = append(c.kw, kwValue{name: k, v: v.items[i+1]})
				}
			}
			continue
		}
		c.kw = append(c.kw, kwValue{name: kw.name, v: v})
	}
	for _, v := range c.pos {
		a.escape(v)
	}
	for _, kw := range c.kw {
		a.escape(kw.v)
	}
	if k := c.altCount(recv, callee); k > 0 {
		// Call once per alternative of the arguments, so that every
		// value a branch may have reaches the function.
		a.maybe++
		defer func() { a.maybe-- }()
		vals := make([]value, 0, k+1)
		for i := 0; i <= k; i++ {
			ci := &args{pos: make([]value, len(c.pos)), kw: make([]kwValue, len(c.kw))}
			for j, v := range c.pos {
				ci.pos[j] = pick(v, i)
			}
			for j, kw := range c.kw {
				ci.kw[j] = kwValue{name: kw.name, v: pick(kw.v, i)}
			}
			vals = append(vals, a.dispatch(pick(recv, i), method, pick(callee, i), ci))
		}
		return alternatives(vals)
	}
	return a.dispatch(recv, method, callee, c)
}

// dispatch calls a method of recv (when method is set) or callee.
func (a *analysis) dispatch(recv value, method string, callee value, c *args) value {
	if method != "" {
		return a.method(recv, method, c)
	}
	switch callee.k {
	case kRef:
		return a.callRef(callee.s, c)
	case kFunc:
		return a.invoke(callee.fn(), c.pos, c.kw)
	}
	return c.derived(callee)
}

// callRef evaluates a call of a function known by dotted name.
func (a *analysis) callRef(name string, c *args) value {
	if h, ok := knownFuncs()[name]; ok {
		return h(a, c)
	}
	switch {
	case strings.HasPrefix(name, "pathlib.Path.") && len(c.pos) > 0:
		// Path.unlink(p) and the like: the path is the receiver.
		return a.method(c.pos[0], name[len("pathlib.Path."):], &args{pos: c.pos[1:], kw: c.kw})
	case strings.HasPrefix(name, "str.") && len(c.pos) > 0:
		return a.method(c.pos[0], name[len("str."):], &args{pos: c.pos[1:], kw: c.kw})
	case isNative(name):
		a.native(name)
	case strings.Contains(name, "."):
		// A method of a name the code does not bind here (an IPython
		// cell's earlier variable, a parameter): an unknown receiver.
		i := strings.LastIndexByte(name, '.')
		m, recv := name[i+1:], name[strings.LastIndexByte(name[:i], '.')+1:i]
		if _, byName := inline.SDKDelete("", m); !byName {
			// client.indices.delete(index='logs'): a bare verb on a
			// collection of a service's resources (a method named for
			// what it deletes is judged in method, whatever the receiver)
			a.sdkDelete(recv, m, c)
		}
		return a.method(dynValue, m, c)
	}
	return c.derived()
}

// isNative reports calls that load native code or poke at memory.
func isNative(name string) bool {
	if !strings.HasPrefix(name, "ctypes.") {
		return false
	}
	rest := name[len("ctypes."):]
	for _, p := range []string{"CDLL", "PyDLL", "WinDLL", "OleDLL", "cdll.", "pydll.", "windll.", "oledll.", "LibraryLoader",
		"memmove", "memset", "string_at", "wstring_at", "cast", "pythonapi.", "addressof", "CFUNCTYPE", "from_address"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// mapCall evaluates map(f, iterable): f runs on each item, so a deletion
// function mapped over a listing deletes its entries.
func (a *analysis) mapCall(c *args) value {
	f, it := c.arg(0, "function"), c.arg(1, "iterable")
	a.loops = append(a.loops, loop{src: it.src})
	defer func() { a.loops = a.loops[:len(a.loops)-1] }()
	var items []value
	if it.k == kList && len(it.items) <= maxUnroll {
		items = it.items
	} else {
		items = []value{derived(it)}
	}
	out := derived(it)
	for _, item := range items {
		one := &args{pos: []value{item.with(it)}}
		switch f.k {
		case kRef:
			out = out.with(a.callRef(f.s, one))
		case kFunc:
			out = out.with(a.invoke(f.fn(), one.pos, nil))
		}
	}
	out.k = kDyn
	return out
}

// invoke analyzes a call of one of the code's own functions with the
// given arguments (unknown where missing) and returns its result.
func (a *analysis) invoke(f *function, pos []value, kw []kwValue) value {
	if a.callDepth >= maxCallDepth || a.calls >= maxCalls {
		return derived(pos...) // read later with unknown arguments, if never read
	}
	f.analyzed = true
	a.calls++
	a.callDepth++
	outer, outerRet, outerCount := a.scope, a.ret, a.retCount
	a.scope = newScope(f.scope)
	for i, p := range f.params {
		v := dynValue
		if i < len(pos) {
			v = pos[i]
		} else if p.def != nil {
			v = a.eval(p.def)
		}
		for _, k := range kw {
			if k.name == p.name {
				v = k.v
			}
		}
		a.bind(p.name, v)
	}
	var ret value
	a.ret, a.retCount = &ret, 0
	if f.lambda != nil {
		ret = a.eval(f.lambda.args[0])
	} else {
		a.block(f.def.body)
	}
	a.scope, a.ret, a.retCount = outer, outerRet, outerCount
	a.callDepth--
	return ret
}

// fetchMethods are the names of methods that open what a URL names on
// objects the rows do not know (pycurl's setopt, a browser driver's get
// or goto, a scraper's Request): a URL given to one is a destination.
var fetchMethods = map[string]bool{"get": true, "post": true, "put": true, "patch": true, "head": true, "request": true, "fetch": true,
	"open": true, "urlopen": true, "setopt": true, "goto": true, "navigate": true, "download": true, "retrieve": true, "urlretrieve": true,
	"Request": true, "connect": true}

// method evaluates a method call on a value that is not a module.
func (a *analysis) method(r value, m string, c *args) value {
	switch m {
	case "append", "extend", "insert", "appendleft", "add", "write", "writelines", "put":
		a.growth(m)
	}
	if fetchMethods[m] && (r.k == kObj || r.k == kDyn) {
		for _, v := range c.pos {
			if s, ok := v.static(); ok && webURL(s) && utf8.ValidString(s) {
				if _, _, known := hostOf(s); known {
					a.dest(s)
				}
			}
		}
	}
	switch r.k {
	case kStr, kBytes:
		if r.loose && r.k == kStr && (m != "replace" || len(c.pos)+len(c.kw) == 1) {
			// A variable an earlier call left may be a pathlib.Path: str
			// has none of the methods pathMethod reads but replace.
			p := r
			p.k = kPath
			if v, ok := a.pathMethod(p, m, c); ok {
				return v
			}
		}
		if v, ok := a.strMethod(r, m, c); ok {
			return v
		}
	case kPath:
		if v, ok := a.pathMethod(r, m, c); ok {
			return v
		}
	case kObj:
		if v, ok := a.objMethod(r, m, c); ok {
			return v
		}
	case kFunc:
		if m == "__call__" {
			return a.invoke(r.fn(), c.pos, c.kw)
		}
	case kDyn:
		// An unknown receiver drawn from a directory listing is a path
		// (or a DirEntry) when pathlib methods are called on it.
		switch m {
		case "unlink", "rmdir", "rmtree", "write_text", "write_bytes", "read_text", "read_bytes", "expanduser", "resolve", "absolute", "iterdir", "rglob":
			if v, ok := a.pathMethod(r, m, c); ok {
				return v
			}
		}
	}
	switch m {
	case "to_csv", "to_json", "to_excel", "to_parquet", "to_pickle", "to_html", "to_feather", "to_hdf", "to_stata",
		"to_markdown", "to_latex", "to_xml", "to_orc", "savefig", "save", "write_image", "write_html", "to_file", "dump_to_file":
		// Libraries' own writers: df.to_csv(path), plt.savefig(path),
		// img.save(path).
		if p, ok := c.get(0, "path_or_buf"); ok && p.textual() {
			a.write(p, "w")
			a.wrote(p, "w", &value{k: kDyn, t: r.t})
		} else if p, ok := c.kwarg("fname"); ok && p.textual() {
			a.write(p, "w")
			a.wrote(p, "w", &value{k: kDyn, t: r.t})
		}
	case "execute", "executemany", "executescript", "exec_driver_sql", "mogrify":
		db := r.k == kObj && r.s == "db"
		a.sqlText(c.arg(0, "sql"), db)
		return value{k: kObj, s: "db", t: tDB}.with(r)
	case "fetchall", "fetchone", "fetchmany", "fetch", "fetchrow", "fetchval", "all", "first", "scalars", "mappings":
		if r.k == kObj && r.s == "db" || r.t&tDB != 0 {
			return derived(r).with(value{t: tDB})
		}
	case "post", "put", "patch", "delete", "get", "head":
		// client.post("https://…") on a client the analyzer does not know.
		if u, ok := c.get(0, "url"); ok {
			if s := staticPrefix(u.text()); strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
				return a.http(strings.ToUpper(m), u, c, 1)
			}
		}
	case "submit", "apply_async", "apply", "call_soon", "run_in_executor", "add_job":
		// executor.submit(fn, *args): fn runs with the arguments.
		if len(c.pos) > 0 {
			f, rest := c.pos[0], c.pos[1:]
			if m == "apply_async" || m == "apply" {
				a.callTarget(f, c.arg(1, "args"), c.arg(2, "kwds"))
				return c.derived(r)
			}
			if m == "run_in_executor" && len(rest) > 0 { // loop.run_in_executor(executor, fn, *args)
				f, rest = rest[0], rest[1:]
			}
			a.callTarget(f, value{k: kList, items: rest}, value{})
		}
	case "communicate":
		if r.k == kObj && r.s == "process" && r.obj != nil {
			if in, ok := c.get(0, "input"); ok {
				a.stdinScript(r.obj.method, in)
			}
		}
	case "connect", "connect_ex":
		if r.t&tSocket != 0 {
			a.socket = true
			a.connect(c.arg(0, "address"))
		}
	case "send", "sendall", "sendto", "sendfile", "write":
		if r.t&tSocket != 0 && len(c.pos) > 0 {
			a.sendOrFetch(a.peer, true, []value{c.pos[0]})
		}
	default:
		// client.delete_index('prod'), db.drop_collection('users'): a
		// method named for the service resource it deletes, on an object
		// no row above knows (boto3's, Docker's and Kubernetes' clients
		// are read by sdkMethod)
		a.sdkDelete("", m, c)
	}
	return c.derived(r)
}

// sdkDelete adds the finding of a service SDK's method that deletes a
// resource (inline.SDKDelete), if recv.m is one. A number as the first
// argument is a position (tabs.remove_index(3)), not a resource's name.
func (a *analysis) sdkDelete(recv, m string, c *args) {
	if len(c.pos) > 0 && c.pos[0].k == kInt {
		return
	}
	if noun, ok := inline.SDKDelete(recv, m); ok {
		a.cloudDelete("Code calls " + plainOr(m, "a method") + ", an API method that deletes a service's " + noun + "; what it deletes cannot be brought back")
	}
}

// strMethod evaluates the str and bytes methods that build text.
func (a *analysis) strMethod(r value, m string, c *args) (value, bool) {
	switch m {
	case "format", "format_map":
		return a.strFormat(r, c), true
	case "join":
		it := c.arg(0, "iterable")
		if it.textual() && !strings.Contains(it.s, dyn) && len(it.s) <= maxItems { // ''.join('abc')
			chars := make([]value, len(it.s))
			for i := range it.s {
				chars[i] = str(it.s[i : i+1])
			}
			it = value{k: kList, items: chars}.with(it)
		}
		if it.k != kList {
			return derived(r, it), true
		}
		parts := make([]string, len(it.items))
		for i, x := range it.items {
			parts[i] = textOf(x)
		}
		s := strings.Join(parts, r.s)
		if len(s) > maxText {
			return derived(r, it), true
		}
		return value{k: r.k, s: s}.with(r, it), true
	case "replace":
		old, ok1 := c.arg(0, "old").static()
		nw, ok2 := c.arg(1, "new").static()
		if ok1 && ok2 && old != "" && !strings.Contains(r.s, dyn) {
			s := strings.ReplaceAll(r.s, old, nw)
			if len(s) <= maxText {
				return value{k: r.k, s: s}.with(r), true
			}
		}
		return derived(r), true
	case "strip", "lstrip", "rstrip":
		if len(c.pos) == 0 {
			switch m {
			case "strip":
				return value{k: r.k, s: strings.TrimSpace(r.s)}.with(r), true
			case "lstrip":
				return value{k: r.k, s: strings.TrimLeft(r.s, " \t\r\n")}.with(r), true
			}
			return value{k: r.k, s: strings.TrimRight(r.s, " \t\r\n")}.with(r), true
		}
	case "lower", "casefold":
		return value{k: r.k, s: strings.ToLower(r.s)}.with(r), true
	case "upper":
		return value{k: r.k, s: strings.ToUpper(r.s)}.with(r), true
	case "encode":
		return value{k: kBytes, s: r.s}.with(r), true
	case "decode":
		if e, ok := c.arg(0, "encoding").static(); ok {
			switch strings.ToLower(e) {
			case "base64", "hex", "rot13", "rot_13":
				return decode(r, strings.ToLower(e)), true
			}
		}
		return value{k: kStr, s: r.s, bin: r.bin}.with(r), true
	case "split":
		if len(c.pos) == 0 && len(c.kw) == 0 && !strings.Contains(r.s, dyn) {
			var items []value
			for _, w := range strings.Fields(r.s) {
				items = append(items, str(w))
			}
			if len(items) <= maxItems {
				return value{k: kList, items: items}.with(r), true
			}
		}
	case "expanduser":
		return a.expanduser(r), true
	}
	return value{}, false
}

// strFormat evaluates str.format with positional and named fields.
func (a *analysis) strFormat(r value, c *args) value {
	out := value{k: r.k}.with(c.all()...).with(r)
	var b strings.Builder
	s := r.s
	auto := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '}' && i+1 < len(s) && s[i+1] == '}' {
			b.WriteByte('}')
			i++
			continue
		}
		if ch != '{' {
			b.WriteByte(ch)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return derived(r)
		}
		field := s[i+1 : i+j]
		if k := strings.IndexAny(field, "!:"); k >= 0 {
			field = field[:k]
		}
		var v value
		switch {
		case field == "":
			v = c.arg(auto, "")
			auto++
		case isDigit(field[0]):
			n := 0
			for _, d := range field {
				if d < '0' || d > '9' {
					n = -1
					break
				}
				n = n*10 + int(d-'0')
			}
			v = c.arg(n, "")
		default:
			v = c.arg(-1, field)
		}
		b.WriteString(v.text())
		i += j
		if b.Len() > maxText {
			return derived(r)
		}
	}
	out.s = b.String()
	return out
}

// pathMethod evaluates pathlib.Path methods.
func (a *analysis) pathMethod(r value, m string, c *args) (value, bool) {
	switch m {
	case "unlink", "rmdir":
		a.remove(r, false)
		return value{k: kNone}, true
	case "rmtree":
		a.remove(r, true)
		return value{k: kNone}, true
	case "write_text", "write_bytes":
		a.write(r, "w")
		data := c.arg(0, "data")
		if s, ok := r.static(); ok {
			a.record(a.env.Abs(s), data, false)
		}
		a.wrote(r, "w", &data)
		return dynValue, true
	case "touch", "symlink_to", "hardlink_to", "mkfifo":
		a.write(r, "a")
		if m == "symlink_to" || m == "hardlink_to" {
			a.copied(c.arg(0, "target"), r, false)
		} else {
			a.wrote(r, "a", &value{k: kStr}) // adds nothing to the file
		}
		return value{k: kNone}, true
	case "read_text", "read_bytes":
		f := a.read(r)
		if s, ok := r.static(); ok {
			if code, ok := a.written[a.env.Abs(s)]; ok {
				return value{k: kStr, s: code}.with(f), true
			}
		}
		return derived(f), true
	case "open":
		mode, ok := c.get(0, "mode")
		if !ok {
			mode = str("r")
		}
		return a.open(r, mode), true
	case "chmod", "lchmod":
		a.chmod(r, c.arg(0, "mode"))
		return value{k: kNone}, true
	case "rename", "replace":
		if r.k == kPath {
			a.copy(r, c.arg(0, "target"), true)
			return c.arg(0, "target"), true
		}
	case "expanduser":
		v := a.expanduser(r)
		v.k = kPath
		return v, true
	case "resolve", "absolute":
		if r.k == kPath {
			return pathVal(cleanPath(a.absText(r))).with(r), true
		}
	case "joinpath":
		return pathVal(joinPath(append([]value{r}, c.pos...))).with(append(c.pos, r)...), true
	case "iterdir":
		return a.listing(r, "", false), true
	case "glob":
		pat, _ := c.arg(0, "pattern").static()
		return a.listing(r, pat, strings.Contains(pat, "**")), true
	case "rglob":
		pat, _ := c.arg(0, "pattern").static()
		return a.listing(r, pat, true), true
	case "walk":
		return a.listing(r, "", true), true
	case "with_name", "with_suffix", "with_stem":
		return value{k: kPath, s: parentDir(r.s) + "/" + dyn}.with(r), true
	case "exists", "is_file", "is_dir", "is_symlink", "stat", "lstat", "samefile", "mkdir", "owner", "group":
		return dynValue, true
	}
	return value{}, false
}

// objMethod evaluates methods of objects made by known calls.
func (a *analysis) objMethod(r value, m string, c *args) (value, bool) {
	if v, ok := a.sdkMethod(r, m, c); ok {
		return v, true
	}
	switch r.s {
	case "environ":
		switch m {
		case "get", "setdefault":
			if s, ok := c.arg(0, "key").static(); ok {
				return a.envVar(s, c.arg(1, "default")), true
			}
			return dynValue, true
		case "copy", "items", "keys", "values":
			return value{k: kObj, s: "environ-copy", t: tEnviron}, true
		}
	case "requests":
		switch m {
		case "get", "head", "options", "post", "put", "patch", "delete":
			return a.http(strings.ToUpper(m), c.arg(0, "url"), c, 1), true
		case "request":
			return a.http(methodArg(c, 0, "method"), c.arg(1, "url"), c, -1), true
		}
	case "urllib3":
		if m == "request" || m == "urlopen" {
			return a.http(methodArg(c, 0, "method"), c.arg(1, "url"), c, -1), true
		}
	case "http.client":
		if r.obj == nil || r.obj.url == nil {
			break
		}
		switch m {
		case "request":
			meth := methodArg(c, 0, "method")
			u := *r.obj.url
			if p, ok := c.get(1, "url"); ok {
				u = concat(u, p)
			}
			body, ok := c.get(2, "body")
			if ok && body.k != kNone && (meth == "" || meth == "GET") {
				meth = "POST"
			}
			return a.http(meth, u, c, 2), true
		case "sendmail", "send_message", "storbinary", "storlines":
			a.http("POST", *r.obj.url, c, -1)
			return dynValue, true
		case "getresponse":
			return value{k: kObj, s: "response", t: tNet}, true
		}
	case "globals":
		switch m {
		case "get", "keys", "items", "values", "copy", "__contains__", "__getitem__":
			return derived(r), true
		}
		a.forget = true // update, setdefault, pop …: the module's names change
		return dynValue, true
	case "db":
		switch m {
		case "cursor", "connect", "begin", "engine", "connection", "raw_connection", "acquire":
			return r, true
		}
	case "file":
		switch m {
		case "read", "readlines", "readline", "read_text", "read_bytes", "__iter__":
			if r.obj != nil && r.obj.url != nil {
				if code, ok := a.written[r.obj.url.s]; ok {
					return value{k: kStr, s: code}.with(r), true
				}
			}
			return derived(r), true
		case "write", "writelines":
			data := c.arg(0, "s")
			if r.obj != nil && r.obj.url != nil {
				a.record(r.obj.url.s, data, true)
			}
			if m == "writelines" {
				data = derived(data) // the lines, joined: not read item by item
			}
			a.wroteTo(r, data)
			return dynValue, true
		case "close", "flush", "__enter__", "__exit__", "readable", "writable", "name", "closed":
		default:
			a.escape(r) // seek, truncate, fileno …: what ends up written is not followed
		}
	}
	return value{}, false
}

// decode evaluates a static decoding (base64, hex, rot13) of a string.
func decode(v value, how string) value {
	s, ok := v.static()
	if !ok {
		return derived(v)
	}
	var out []byte
	var err error
	switch how {
	case "base64", "base_64", "base-64":
		clean := strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, s)
		out, err = base64.StdEncoding.DecodeString(clean)
		if err != nil {
			out, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(clean, "="))
		}
	case "urlsafe":
		out, err = base64.URLEncoding.DecodeString(s)
		if err != nil {
			out, err = base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
		}
	case "hex":
		out, err = hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	case "zlib", "gzip":
		var r io.ReadCloser
		if how == "zlib" {
			r, err = zlib.NewReader(bytes.NewReader([]byte(s)))
		} else {
			r, err = gzip.NewReader(bytes.NewReader([]byte(s)))
		}
		if err == nil {
			out, err = io.ReadAll(io.LimitReader(r, maxText+1))
			r.Close()
			if len(out) > maxText {
				return derived(v)
			}
		}
	case "rot13", "rot_13", "rot-13":
		b := []byte(s)
		for i, c := range b {
			switch {
			case c >= 'a' && c <= 'z':
				b[i] = 'a' + (c-'a'+13)%26
			case c >= 'A' && c <= 'Z':
				b[i] = 'A' + (c-'A'+13)%26
			}
		}
		return value{k: v.k, s: string(b)}.with(v)
	default:
		return derived(v)
	}
	if err != nil {
		return derived(v)
	}
	return value{k: kBytes, s: string(out), bin: true}.with(v)
}

// shlexSplit splits a command line as shlex.split does (POSIX mode);
// unknown pieces stay inside the word they appear in.
func shlexSplit(v value) value {
	if v.k == kList {
		return v
	}
	if !v.textual() {
		return derived(v)
	}
	var items []value
	var b strings.Builder
	inWord := false
	s := v.s
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				items = append(items, str(b.String()))
				b.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return derived(v)
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
				i++
			}
			if i >= len(s) {
				return derived(v)
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			b.WriteByte(s[i])
		default:
			inWord = true
			b.WriteByte(c)
		}
	}
	if inWord {
		items = append(items, str(b.String()))
	}
	if len(items) > maxItems {
		return derived(v)
	}
	return value{k: kList, items: items}.with(v)
}
