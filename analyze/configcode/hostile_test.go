package configcode

import (
	"strings"
	"testing"
	"time"
)

// TestReadHostile: texts built to be slow or deep are read within the
// bounds, quickly (a generous wall-clock guard; the budgets are measured
// by benchmarks).
func TestReadHostile(t *testing.T) {
	inputs := map[string]string{
		"deep yaml":     strings.Repeat("[", MaxText),
		"deep json":     strings.Repeat(`{"a":`, MaxText/5),
		"anchors":       "a: &a [x, x, x, x, x, x, x, x, x]\n" + strings.Repeat("b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n", 20),
		"long line":     "run: " + strings.Repeat("x ", MaxText/2),
		"many runs":     strings.Repeat("- run: echo x\n", MaxText/14),
		"continuations": "RUN " + strings.Repeat("a \\\n", MaxText/4),
		"recipe":        "x:\n\t" + strings.Repeat("a \\\n", MaxText/4),
		"exec":          "ExecStart=" + strings.Repeat("a \\\n", MaxText/4),
		"jenkins":       strings.Repeat("sh '", MaxText/4),
		"percent":       strings.Repeat("* * * * * %", MaxText/11),
		"pairs":         strings.Repeat(`"a": "b", `, MaxText/10),
	}
	for name, text := range inputs {
		start := time.Now()
		for k := None; k <= PythonStartup; k++ {
			Read(k, text)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: %v", name, d)
		}
	}
}
