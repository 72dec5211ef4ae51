package code

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// BenchmarkPrepare analyzes each Python code of the corpus once per
// iteration; ns/op divided by codes/op is the time per snippet.
func BenchmarkPrepare(b *testing.B) {
	codes := corpusCodes(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, code := range codes {
			if _, err := (Preparer{}).Prepare(ctx, py(code)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(codes)), "codes/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
}

// BenchmarkPrepareSession is BenchmarkPrepare in a conversation: the
// interpreter holds variables and the effects are reported.
func BenchmarkPrepareSession(b *testing.B) {
	codes := corpusCodes(b)
	ctx := context.Background()
	prior := &tool.Prior{PyVars: map[string]tool.PyValue{
		"target": {Text: "build", Known: true}, "base": {Text: "http://169.254.169.254", Known: true}, "env": {Sensitive: "environment"}}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, code := range codes {
			c := py(code)
			c.Prior = prior
			if _, err := (Preparer{}).Prepare(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(codes)), "codes/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
}
