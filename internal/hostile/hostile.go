// Package hostile holds the shell inputs built to exhaust an analyzer:
// bombs that grow exponentially when expanded, nesting far past any real
// script, and wrapper stacks past the resolver's depth. The tests of the
// shell resolver and of the engine, the fuzz targets' seeds and
// bench/hostile.sh all read them from here.
package hostile

import (
	"fmt"
	"strings"
)

// Input is one hostile script. Each ends in (or hides) a dangerous
// command, so that an answer of safe means the bomb hid it.
type Input struct {
	Name   string
	Script string
}

// tail is the command each bomb is followed by.
const tail = "; rm -rf ~"

// Inputs returns the hostile scripts.
func Inputs() []Input {
	r := strings.Repeat
	var in []Input
	add := func(name, script string) { in = append(in, Input{name, script}) }

	// variable doubling: 2^60 bytes if built
	add("double60", "a=x; "+r("a=$a$a; ", 60)+"echo $a"+tail)
	add("double60-quoted", "a=x; "+r(`a="$a$a$a$a"; `, 60)+`rm -rf "$a"`)
	add("append60", "a=xxxxxxxx; "+r("a+=$a; ", 60)+"echo $a"+tail)
	add("export-double", "export a=x; "+r("export a=$a$a; ", 60)+"echo $a"+tail)
	// replacement: every byte of a 4 KiB value replaced by the value
	add("replace", "a="+r("x", 4096)+"; b=${a//x/$a}; c=${b//x/$b}; echo $c"+tail)
	add("default-double", "a=x; "+r("a=${z:-$a$a}; ", 60)+"echo $a"+tail)
	// brace expansion
	add("brace9^10", "echo "+r("{1..9}", 10)+tail)
	add("brace-range", "echo {1..1000000000}"+tail)
	add("brace-alts", "echo "+r("{a,b,c,d}", 12)+tail)
	add("brace-words", "echo "+r("{1..4000} ", 400)+tail)
	add("brace-nested", "echo "+r("{a,", 200)+"b"+r("}", 200)+tail)
	// arithmetic
	add("arith-deep", ": $(("+r("(", 5000)+"1"+r(")", 5000)+"))"+tail)
	add("arith-pow", ": $((2**62**62)) $((9223372036854775807*9223372036854775807))"+tail)
	add("arith-many", r(": $((1+2*3-4/5%6<<7)); ", 20000)+"rm -rf ~")
	// here-strings and heredocs
	add("herestring-1MiB", `cat <<< "`+r("x", 1<<20)+`"`+tail)
	add("herestring-var", "a="+r("x", 60000)+`; cat <<< "$a$a$a$a$a$a$a$a"`+tail)
	add("heredoc-1MiB", "cat <<'EOF'\n"+r("x y z\n", 1<<18)+"EOF\nrm -rf ~")
	add("heredoc-shell-nest", nestHeredoc(60, "rm -rf ~"))
	// deep nesting of the text
	add("subst20000", "echo "+r("$(", 20000)+"x"+r(")", 20000)+tail)
	add("paren20000", r("(", 20000)+"x"+r(")", 20000)+tail)
	add("group20000", r("{ ", 20000)+"x"+r("; }", 20000)+tail)
	add("backtick-deep", "echo "+backticks(8)+tail)
	add("if20000", r("if x; then ", 20000)+"x"+r("; fi", 20000)+tail)
	add("case5000", r("case x in x) ", 5000)+"x"+r(";; esac", 5000)+tail)
	add("while5000", r("while x; do ", 5000)+"x"+r("; done", 5000)+tail)
	// loops without end, nested past any script, each read to its end by
	// the loop rules (45 s for 15,000 before they were bounded)
	add("while-true15000", "x & y >> z; "+r("while true; do ", 15000)+"x"+tail)
	add("for-forever15000", "x & y >> z; "+r("for ((;;)) do ", 15000)+"x"+tail)
	// the word for without a do after it: each read up to a do was
	// quadratic again (7 s for 240 KB)
	add("for-words40000", "x & do; "+r("for x ", 40000)+tail)
	// database clients nested in their own quoted SQL: each text was
	// checked against every host and database name (8 s for 200 KB)
	add("psql-nested20000", r("psql -c '", 20000)+"x"+tail)
	add("mysql-nested20000", r("mysql -e '", 20000)+"x"+tail)
	// find running find: each -exec's command read to the end of the line
	add("find-exec15000", r("find . -exec ", 15000)+"x"+tail)
	// a Python expression of 100,000 operators: a tree as deep as it is long
	add("python-chain100000", "python3 -c 'x = "+r("a@", 100000)+"a'"+tail)
	// a megabyte of empty Python statements: a token each, every one kept
	// (4 MB of them took 1.2 GB and 2 s before tokens were charged)
	add("python-semicolons1MiB", "python3 -c '"+r(";", 1<<20)+"'"+tail)
	add("func5000", r("f() { ", 5000)+"x"+r("; }", 5000)+tail)
	add("procsubst5000", "cat "+r("<(", 5000)+"x"+r(")", 5000)+tail)
	add("param-deep", "echo "+r("${a:-", 5000)+"x"+r("}", 5000)+tail)
	add("dquote-subst-deep", "echo "+r(`"$(`, 5000)+"x"+r(`)"`, 5000)+tail)
	add("subst250-padded", "echo "+r("$(echo "+r("p", 200)+" ", 250)+"x"+r(")", 250)+tail)
	add("hidden-by-quote", "cat <<E\n'\nE\n"+r("(", 20000)+"x"+r(")", 20000)+tail)
	add("hidden-by-ansi-quote", "echo $'\\''; "+r("(", 20000)+"x"+r(")", 20000)+"; # '"+tail)
	// width
	add("pipeline50000", r("a | ", 50000)+"rm -rf ~")
	add("commands200000", r("true; ", 200000)+"rm -rf ~")
	add("words200000", "echo "+r("'w' ", 200000)+tail)
	add("subst-wide", r("echo $(x); ", 20000)+"rm -rf ~")
	// aliases and functions that expand themselves
	add("alias-self", "alias ls='ls ls ls ls'; ls; ls; ls"+tail)
	add("func-fanout", funcFanout(40))
	add("func-big-body", "f() { "+r("rm -rf ~; ", 20000)+"}; "+r("f; ", 100))
	add("eval-deep100", r("eval ", 100)+"rm -rf ~")
	add("nice100", r("nice ", 100)+"rm -rf ~")
	add("bash-c-fanout", r("bash -c 'rm -rf ~'; ", 5000))
	return in
}

// nestHeredoc nests cmd in n shells reading heredocs.
func nestHeredoc(n int, cmd string) string {
	s := cmd
	for i := range n {
		d := fmt.Sprintf("E%d", i)
		s = "bash <<'" + d + "'\n" + s + "\n" + d
	}
	return s
}

// backticks nests x in n backquoted substitutions, each level escaping
// the one inside.
func backticks(n int) string {
	s := "x"
	for range n {
		s = "`echo " + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(s) + "`"
	}
	return s
}

// funcFanout defines n functions each calling the one before twice: 2^n
// calls if all were followed.
func funcFanout(n int) string {
	var b strings.Builder
	b.WriteString("f0() { rm -rf ~; }; ")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "f%d() { f%d; f%d; }; ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "f%d", n-1)
	return b.String()
}

// Wrap wraps cmd in n layers of the wrapper kind: a program that runs its
// arguments (nice, env, nohup, "timeout 5", exec), "eval", "bash -c"
// (quoted, so practical only for small n) or "heredoc" (a shell reading a
// heredoc).
func Wrap(kind, cmd string, n int) string {
	switch kind {
	case "bash -c":
		for range n {
			cmd = "bash -c '" + strings.ReplaceAll(cmd, "'", `'\''`) + "'"
		}
		return cmd
	case "heredoc":
		return nestHeredoc(n, cmd)
	}
	return strings.Repeat(kind+" ", n) + cmd
}
