package secrets

import (
	"context"
	"reflect"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// TestAnalyzerOnlyReads checks that the analyzer judges the secrets the
// preparer recorded, and finds the same ones itself, writing nothing, on
// a call no preparer read.
func TestAnalyzerOnlyReads(t *testing.T) {
	call := func() *tool.Call {
		return &tool.Call{Shell: []string{"aws configure set aws_access_key_id AKIAYPWWS2K2QQDBI6S7 && echo AKIAYPWWS2K2QQDBI6S7"},
			Content: []tool.Content{{Path: ".env", Text: "AWS_ACCESS_KEY_ID=AKIAYPWWS2K2QQDBI6S7\n"}}, Cwd: "/w", Home: "/h"}
	}
	bare := call()
	fromScan, err := Analyzer{}.Analyze(context.Background(), bare)
	if err != nil {
		t.Fatal(err)
	}
	if bare.Secrets != nil || bare.SecretsFound != nil || bare.SecretsScanned {
		t.Errorf("the analyzer wrote into the call: %d secrets, scanned %v", len(bare.Secrets), bare.SecretsScanned)
	}
	if len(fromScan) != 1 {
		t.Fatalf("%d findings, want 1 (one secret, found once)", len(fromScan))
	}
	prepared := call()
	if fs, err := (Preparer{}).Prepare(context.Background(), prepared); err != nil || len(fs) != 0 {
		t.Fatalf("Prepare = %v, %v", fs, err)
	}
	if len(prepared.Secrets) != 1 || len(prepared.SecretsFound) != 1 || !prepared.SecretsScanned {
		t.Fatalf("prepared: %d secrets, %d found, scanned %v", len(prepared.Secrets), len(prepared.SecretsFound), prepared.SecretsScanned)
	}
	fromFacts, err := Analyzer{}.Analyze(context.Background(), prepared)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromFacts, fromScan) {
		t.Errorf("findings from the facts differ from a scan:\n%+v\n%+v", fromFacts, fromScan)
	}
	Collect(prepared) // scanned already: nothing added twice
	if len(prepared.Secrets) != 1 {
		t.Errorf("Collect added %d secrets to a prepared call", len(prepared.Secrets)-1)
	}
}
