package rules

import (
	"testing"
)

// checkInstall fails t when eachInstall finds other matches in s than
// regexp finds of installCmd's pattern, or goes on after fn returns
// false.
func checkInstall(t *testing.T, s string) {
	t.Helper()
	checkScanner(t, "eachInstall", s, func(s string, fn func([]int) bool) {
		eachInstall(s, func(loc [4]int) bool { return fn(loc[:]) })
	}, installCmd().unanchored().FindAllStringSubmatchIndex(s, -1))
}

// installCmd is installExpr as a matcher, the reference eachInstall
// is held to.
var installCmd = lazyMatcher(installExpr)

// installTexts are edges of installCmd's pattern.
var installTexts = []string{"", "pip install x", "PIP INSTALL X", "pip3 install x", "pip3.12 install x", "pip. install x", "pip3x install x",
	"xpip install x", "_pip install x", "-pip install x", "épip install x", "pip  install  x", "pip\tinstall\nx", "pip install\n", "pip install \n",
	"pip install  \n", "pip install \t\n", "pip install \n\t", "pip install  ;", "pip install ", "pip install", "pip installx y", "pip i x",
	"pip add x", "pip inſtall x", "pip inſtall\xc5 x", "pip ADD x", "pip i", "pip i ", "pip i  ", "pip ii x", "uv pip install x", "uv  pip install x",
	"uvpip install x", "uv pip3 install x", "uv\npip\ni\nx", "poetry add x", "pnpm add x", "pnpm i x", "npm i x;npm i y", "yarn add x|yarn add y",
	"npm i x && npm i y", "npm i x\nnpm i y", "npm i x &npm i y", "pip install -r requirements.txt", "pip install reqeusts; echo",
	"bash -c 'pip install x'", "npm i \xff\xfe", "pip install pip install x", "pip install npm i x", "npm  i  \n  y", "pip \u212a", "yarn install",
	"PnPm I x", "pip\x0binstall x", "pip\finstall\fx", "pip\rinstall\r\r", "pip install \r\n;", "pip install\t \t"}

// TestEachInstall holds eachInstall to regexp on installTexts and the
// corpora's texts.
func TestEachInstall(t *testing.T) {
	for _, s := range append(installTexts, corpusTexts(t)...) {
		checkInstall(t, s)
	}
}

// FuzzEachInstall holds eachInstall to regexp on any text.
func FuzzEachInstall(f *testing.F) {
	for _, s := range installTexts {
		f.Add(s)
	}
	f.Fuzz(checkInstall)
}
