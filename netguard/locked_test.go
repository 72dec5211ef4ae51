package netguard

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// TestMetadataLocked: a cloud-metadata finding, by any route, is locked
// (no allow rule or mode opens it); the guard's other findings are not.
func TestMetadataLocked(t *testing.T) {
	for i, c := range []tool.Call{
		{URLs: []string{"http://169.254.169.254/latest/meta-data/iam/security-credentials/"}},
		{URLs: []string{"http://metadata.google.internal/computeMetadata/v1/"}},
		dest("http://169.254.169.254/latest/", "curl"),
		dest("http://[fd00:ec2::254]/latest/", "python"),
		{Dests: []tool.Dest{{Host: "169.254.169.254", Via: "nc"}}},
		{URLs: []string{"http://localhost:8080/admin"}},
		dest("http://10.0.0.12:9200/", "curl"),
		dest("http://0x7f000001:6379/", "curl"),
	} {
		fs, err := Analyzer{}.Analyze(context.Background(), &c)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 || (i < 5) != (fs[0].Rule == RuleMetadata) {
			t.Errorf("%+v: findings %+v", c, fs)
		}
		for _, f := range fs {
			if f.Locked != (f.Rule == RuleMetadata) {
				t.Errorf("%+v: %s locked %v", c, f.Rule, f.Locked)
			}
		}
	}
}
