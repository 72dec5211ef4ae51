package netguard

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/tool"
)

func BenchmarkCheck(b *testing.B) {
	ctx := context.Background()
	urls := []string{"https://pkg.go.dev/net/netip", "http://169.254.169.254/latest/meta-data/", "http://0x7f.1/", "http://[::ffff:a9fe:a9fe]/", "https://bücher.example/"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Default().Check(ctx, urls[i%len(urls)])
	}
}

func BenchmarkAnalyzer(b *testing.B) {
	ctx := context.Background()
	c := tool.Call{URLs: []string{"https://docs.example.com/guide?x=1"}, Dests: []tool.Dest{{URL: "http://localhost:8080/api", Via: "curl"}}}
	b.ReportAllocs()
	for b.Loop() {
		Analyzer{}.Analyze(ctx, &c)
	}
}

func BenchmarkCheckEach(b *testing.B) {
	ctx := context.Background()
	for _, u := range []string{"https://pkg.go.dev/net/netip", "http://169.254.169.254/latest/meta-data/", "http://0x7f.1/", "http://[::ffff:a9fe:a9fe]/", "https://bücher.example/"} {
		b.Run(u, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Default().Check(ctx, u)
			}
		})
	}
}
