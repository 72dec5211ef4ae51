// Package expr is warden's implementation of the subset of CEL (the
// Common Expression Language) that policy and rule conditions use: its
// syntax, type checking and evaluation, meaning what cel-go v0.33 means,
// without cel-go's dependencies (protobuf, ANTLR) or their start-up cost.
//
// Supported: null, bool, int, uint (1u), double, string (with every CEL
// escape, raw r"…" and triple-quoted forms) and bytes (b"…") literals;
// lists and maps; variables, including dotted names (action.tool); field
// selection and indexing of maps and lists (args.x, args["x"], list[0],
// args.`a-b`); ! and unary -; * / % + -, with int and uint overflow,
// division and modulo by zero as errors; + on strings, bytes and lists;
// < <= > >= == != across int, uint and double as CEL compares them; in
// on lists and maps; && and || absorbing errors when the other side
// decides (false && error is false); ?:; size, startsWith, endsWith,
// contains, matches (RE2, Go's regexp), int, uint, double, string, bool,
// bytes, type, dyn, the type names (int, list, …); and the macros has,
// all, exists, exists_one, map (with and without a filter) and filter.
//
// Not supported, and refused when an expression is compiled: timestamps
// and durations, protobuf messages and types, optional syntax (.?, [?]),
// and the cel-go extension libraries.
//
// Values come from an Activation as Go values, those encoding/json
// decodes among them: a JSON number is a double, equal to the int it
// holds (args.count == 3) but not added to one. A macro over a map from
// the activation visits its keys in sorted order, over a map literal in
// writing order, so that an expression means the same on every run.
//
// Compile checks an expression against an Env's declarations, as cel-go's
// type checker does: an unknown name, a function without a matching
// overload, or a constant that cannot convert (int("x"), a regular
// expression that does not compile) is an *Error with its line and
// column. Nesting is bounded when parsing, and every evaluation by a cost
// limit, so that no expression and no input makes one panic, hang or
// allocate without bound.
package expr
