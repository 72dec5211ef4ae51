package shell

import "mvdan.cc/sh/v3/syntax"

// visitor is what walkTree calls for each node.
type visitor interface {
	// visit is called with each node (never nil) before its children,
	// which are walked only if it returns true.
	visit(n syntax.Node) bool
}

// walkTree walks the syntax tree of n in the order syntax.Walk does,
// calling v.visit as syntax.Walk calls its function (without the calls
// with nil that end a node's children). It reads the nodes most scripts
// are made of itself, without the deferred call syntax.Walk makes at
// every node, and hands the others, with all below them, to syntax.Walk.
func walkTree(v visitor, n syntax.Node) {
	switch x := n.(type) {
	case *syntax.File, *syntax.CallExpr, *syntax.BinaryCmd, *syntax.Word, *syntax.Lit, *syntax.SglQuoted,
		*syntax.DblQuoted, *syntax.CmdSubst, *syntax.ParamExp, *syntax.Redirect, *syntax.Assign, *syntax.Subshell, *syntax.Block:
	case *syntax.Stmt:
		if len(x.Comments) > 0 {
			walkOther(v, n) // syntax.Walk orders them around the statement
			return
		}
	default:
		walkOther(v, n)
		return
	}
	if !v.visit(n) {
		return
	}
	switch x := n.(type) {
	case *syntax.File:
		walkStmts(v, x.Stmts)
		walkComments(v, x.Last)
	case *syntax.Stmt:
		if x.Cmd != nil {
			walkTree(v, x.Cmd)
		}
		for _, r := range x.Redirs {
			walkTree(v, r)
		}
	case *syntax.Redirect:
		if x.N != nil {
			walkTree(v, x.N)
		}
		walkTree(v, x.Word)
		if x.Hdoc != nil {
			walkTree(v, x.Hdoc)
		}
	case *syntax.Assign:
		if x.Name != nil {
			walkTree(v, x.Name)
		}
		if x.Value != nil {
			walkTree(v, x.Value)
		}
		if x.Index != nil {
			walkTree(v, x.Index)
		}
		if x.Array != nil {
			walkTree(v, x.Array)
		}
	case *syntax.CallExpr:
		for _, a := range x.Assigns {
			walkTree(v, a)
		}
		for _, w := range x.Args {
			walkTree(v, w)
		}
	case *syntax.BinaryCmd:
		walkTree(v, x.X)
		walkTree(v, x.Y)
	case *syntax.Subshell:
		walkStmts(v, x.Stmts)
		walkComments(v, x.Last)
	case *syntax.Block:
		walkStmts(v, x.Stmts)
		walkComments(v, x.Last)
	case *syntax.Word:
		walkParts(v, x.Parts)
	case *syntax.DblQuoted:
		walkParts(v, x.Parts)
	case *syntax.CmdSubst:
		walkStmts(v, x.Stmts)
		walkComments(v, x.Last)
	case *syntax.ParamExp:
		if x.Flags != nil {
			walkTree(v, x.Flags)
		}
		if x.Param != nil {
			walkTree(v, x.Param)
		}
		if x.NestedParam != nil {
			walkTree(v, x.NestedParam)
		}
		if x.Index != nil {
			walkTree(v, x.Index)
		}
		if x.Slice != nil {
			if x.Slice.Offset != nil {
				walkTree(v, x.Slice.Offset)
			}
			if x.Slice.Length != nil {
				walkTree(v, x.Slice.Length)
			}
		}
		if x.Repl != nil {
			if x.Repl.Orig != nil {
				walkTree(v, x.Repl.Orig)
			}
			if x.Repl.With != nil {
				walkTree(v, x.Repl.With)
			}
		}
		if x.Exp != nil && x.Exp.Word != nil {
			walkTree(v, x.Exp.Word)
		}
	}
}

func walkStmts(v visitor, stmts []*syntax.Stmt) {
	for _, s := range stmts {
		walkTree(v, s)
	}
}

func walkParts(v visitor, parts []syntax.WordPart) {
	for _, p := range parts {
		walkTree(v, p)
	}
}

func walkComments(v visitor, list []syntax.Comment) {
	for i := range list {
		walkOther(v, &list[i])
	}
}

// walkOther walks n and all below it with syntax.Walk.
func walkOther(v visitor, n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool { return n == nil || v.visit(n) })
}
