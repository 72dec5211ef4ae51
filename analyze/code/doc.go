// Package code analyzes the Python code an agent asks to run (code
// interpreter tools, IPython cells, python -c) without ever running it.
//
// It reads the code on its own tokenizer, which knows string literals
// with their prefixes (r, b, u, f, rb …), triple quotes and escapes,
// comments, line continuations and IPython's !cmd and %magic lines; words
// inside strings and comments are never taken for code, so
// print("rm -rf /") is harmless. It then walks the statements in order,
// tracking imports and their aliases (import shutil as sh, from os import
// remove), and evaluates the arguments of the calls it knows statically
// where Python would get the same answer: literals and their
// concatenation, %-formatting, f-strings, str.format and join,
// os.path.expanduser and join, pathlib.Path (home(), expanduser(), /),
// os.environ['HOME'] and os.getenv('HOME'), base64 decoding, and names
// assigned such values earlier. Anything else is unknown ("dynamic"), and
// a piece of text that is unknown stays marked as such inside a string,
// so "rm -rf " + user_input is still known to run rm -rf.
//
// What it finds:
//
//   - deletions (shutil.rmtree, os.remove, Path.unlink, and deletions in
//     loops over os.walk, Path.rglob, glob and listdir), writes (open
//     modes w a x +, write_text, shutil.copy and move), credential reads
//     and permission changes, each judged by what the path is to the user
//     (package paths): the root, home, system directories and credentials
//     are critical to delete, start-up files are persistence, a block
//     device is a raw disk, the workspace is routine, temp is harmless;
//   - processes: subprocess, os.system, os.popen, os.exec*, os.spawn*,
//     pty.spawn. A command line that is known, or known but for some
//     pieces, is added to the call's shell scripts (unknown pieces as
//     "$WARDEN_DYNAMIC"), so shell analysis judges it exactly like a Bash
//     command; a command computed entirely at run time is high;
//   - cloud and container SDKs: boto3, google-cloud-storage, docker and
//     kubernetes calls are rendered as the aws, gsutil, docker and kubectl
//     command lines they amount to and added for shell analysis too;
//     deletions through them are high on their own;
//   - SQL run through database drivers (cursor.execute, read_sql,
//     sqlalchemy.text) is added to the call's SQL for the SQL analyzer;
//   - network: requests that send data are high, and critical when what
//     they send comes from os.environ, a credential file or a database
//     (data flow is followed through variables); fetched URLs are added to
//     the call's URLs;
//   - exec and eval (the code they run is analyzed in turn when known;
//     downloaded code is remote code execution), unpickling downloaded
//     data, fork bombs, reverse shells (a socket wired to a shell through
//     os.dup2 or the standard streams), processes started in loops without
//     end, erasing shell histories or logs, ctypes and /proc/<pid>/mem.
//
// State across calls: a persistent interpreter (an IPython kernel kept
// for a whole conversation) keeps its variables, so harm can be split
// across calls. When the call has a Prior (it runs in a session), the
// module scope starts with the variables earlier calls left: a known
// value as a string that may also be read as a pathlib.Path or a number
// (its text does not say which, so str / x joins paths and x + 1 adds),
// an unknown one as unknown (but a name such as os or exec is left to its
// module or builtin), each carrying the taint of its sensitive data. The
// call's Effects then receive, in order, what the code does that later
// calls depend on: files written (with their text when it is certainly
// all known), downloaded, copied or moved, made executable, run by Python
// itself (exec of a file's text, runpy, importlib; a subprocess is shell
// analysis's), credential files read, files' data sent, deletions, the
// directory it enters; then the module variables it binds (SetPyVar,
// sorted by name), unknown where a branch, loop or handler may not bind
// them, all of them unknown after code the analysis cannot read (exec of
// unknown text, import *, %run, writes to globals()). Outside a session
// no effects are reported.
//
// What it does not do: it never executes, imports or compiles the code;
// it does not follow imports of other files, attribute assignments,
// containers mutated after they are built, or values that depend on how
// often a loop runs (the last assignment read wins; the branches of an if
// and the handlers of a try are alternatives); calls of the code's own
// functions are followed a few levels deep, and functions never called
// are read with unknown arguments. Module aliases, functions and
// downloaded data do not carry over to later calls (tool.PyValue holds
// text and sensitivity only). Python's own "~" is not expanded by
// file functions, but the analyzer reads it as the home directory (the
// intent is what matters). Code that cannot be tokenized yields a
// code.unparsable finding at Unknown, never a silent safe, and the rest
// of it is still read as well as it can be. Analysis is linear in the
// size of the code, bounded by a budget beyond which it reports
// code.too_complex at Unknown.
package code
