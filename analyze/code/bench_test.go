package code

import (
	"context"
	"testing"
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
