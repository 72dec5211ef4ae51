// Package shell reads shell scripts the way bash does, on a real parser
// (mvdan.cc/sh/v3/syntax), without running anything.
//
// Resolve walks every simple command of a script — inside pipelines,
// lists, subshells, $( ), functions, loops and conditionals — and resolves
// its words statically where bash would: quote removal (r”m, \rm),
// ANSI-C strings ($'\x72m'), brace expansion, ~ and $HOME, and variables
// assigned literally earlier in the same script (d=/; rm -rf $d). Words it
// cannot resolve (command substitutions, unknown variables) are kept as
// written and marked dynamic. Shells run with -c and eval are parsed in
// turn, to a bounded depth, and wrappers such as sudo, env, nohup,
// timeout and xargs are unwrapped, so the command that will actually run
// is seen. The programs that run programs are data (wrappers.yaml: each
// row's option grammar, where its command or script starts, and samples
// a test checks); the inline programs of other languages they carry
// (perl -e, node -e, awk '…', vim -c ':!…', python -c) are read by their
// analyzer (packages inline and code) and what they run is resolved in
// turn. A program warden knows neither as a command nor as a wrapper,
// whose first operand names one, may run it: that command is judged too.
package shell
