package inline

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestSDKDelete holds service SDK methods that delete a resource and
// their neighbours: the languages' own collections, the DOM, positions.
func TestSDKDelete(t *testing.T) {
	for _, tt := range []struct {
		recv, method string
		want         bool
	}{
		{"client", "deleteIndex", true}, {"algolia", "clearObjects", true}, {"s3", "delete_bucket", true},
		{"ec2", "terminate_instances", true}, {"meta", "drop_table", true}, {"db", "dropDatabase", true},
		{"schema", "dropTable", true}, {"r", "flushall", true}, {"r", "flushDb", true}, {"index", "deleteAllDocuments", true},
		{"rds", "DeleteDBCluster", true}, {"sm", "forceDeleteSecret", true}, {"indices", "delete", true},
		{"client", "delete_collection", true}, {"admin", "deleteTopics", true}, {"buckets", "remove", true},
		// neighbours
		{"document", "removeChild", false}, {"window", "clearTimeout", false}, {"m", "delete", false},
		{"l", "remove", false}, {"d", "clear", false}, {"s", "discard", false}, {"localStorage", "removeItem", false},
		{"classList", "remove", false}, {"el", "removeEventListener", false}, {"table", "deleteRow", false},
		{"headers", "delete", false}, {"cache", "delete", false}, {"indices", "get", false}, {"client", "listIndices", false},
		{"client", "createIndex", false}, {"indices", "clear_cache", false}, {"client", "describe_table", false},
		{"ctx", "clearRect", false}, {"client", "deleteUser", false}, {"os", "remove", false},
	} {
		if _, got := SDKDelete(tt.recv, tt.method); got != tt.want {
			t.Errorf("%s.%s: %v, want %v", tt.recv, tt.method, got, tt.want)
		}
	}
}

// TestScanSDKDelete reads SDK deletions in programs of every language
// Scan reads calls of, and none in their benign neighbours.
func TestScanSDKDelete(t *testing.T) {
	for _, tt := range []struct {
		lang, src string
		want      bool
	}{
		{"js", `const client = algoliasearch('app','key'); client.deleteIndex('prod');`, true},
		{"js", `algolia.clearObjects('products')`, true},
		{"js", `await s3.send(new DeleteBucketCommand({Bucket: 'x'}))`, true},
		{"js", `client.indices.delete({index: 'logs'})`, true},
		{"js", `await knex.schema.dropTable('users')`, true},
		{"ruby", `client.delete_index("prod")`, true},
		{"php", `$client->deleteIndex("prod");`, true},
		{"perl", `$es->indices->delete(index => "logs")`, true},
		{"js", `document.body.removeChild(el); clearTimeout(t); m.delete('k'); s.clear()`, false},
		{"js", `console.log("client.deleteIndex('prod')")`, false},
		{"js", `tabs.removeIndex(2)`, false},
		{"js", `function deleteIndex(x) {}`, false},
		{"js", `const f = client.deleteIndex`, false},
		{"ruby", `h.delete(:a); a.clear`, false},
	} {
		res := Scan(tt.lang, tt.src, nil)
		got := false
		for _, f := range res.Findings {
			if f.Rule == RuleSDKDelete && f.Level == risk.High {
				got = true
			}
		}
		if got != tt.want {
			t.Errorf("%s %q: %v, want %v (%v)", tt.lang, tt.src, got, tt.want, res.Findings)
		}
	}
}

// FuzzSDKDelete: any receiver and method name are read without a panic,
// and a finding always names one of the tables' nouns.
func FuzzSDKDelete(f *testing.F) {
	for _, s := range []string{"deleteIndex", "delete_", "_", "DBInstance", "flushall", "ÄdeleteIndex", "delete__bucket"} {
		f.Add("indices", s)
	}
	f.Fuzz(func(t *testing.T, recv, method string) {
		noun, ok := SDKDelete(recv, method)
		if ok && noun == "" {
			t.Fatalf("%q.%q: a deletion without a noun", recv, method)
		}
	})
}
