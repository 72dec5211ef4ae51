package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestScopeRemoval: a deletion of what holds everything else is critical
// on every CLI, known or not; a deletion of one thing in it stays high.
func TestScopeRemoval(t *testing.T) {
	critical := []string{
		"foo delete-namespace prod", "mycli cluster destroy main", "acme-cli databases drop customers",
		"doctl kubernetes cluster delete prod", "gcloud projects delete my-proj", "gcloud container clusters delete prod --region x",
		"aws rds delete-db-cluster --db-cluster-identifier prod", "aws eks delete-cluster --name prod", "foo delete namespace prod",
		"foo delete-account", "pscale database delete mydb --force",
	}
	high := []string{
		"gh repo delete org/app --yes", "aws dynamodb delete-table --table-name prod", "gcloud sql instances delete db",
		"foo delete-namespace-label x", "foo delete namespace-labels", "az group delete -n rg --yes", "foo delete-user db",
	}
	for _, cmd := range critical {
		if l := maxLevel(analyzeScript(t, cmd)); l != risk.Critical {
			t.Errorf("%q: %v, want critical; findings:%s", cmd, l, describe(analyzeScript(t, cmd)))
		}
	}
	for _, cmd := range high {
		if l := maxLevel(analyzeScript(t, cmd)); l != risk.High {
			t.Errorf("%q: %v, want high; findings:%s", cmd, l, describe(analyzeScript(t, cmd)))
		}
	}
	// a dry run, or a verb that empties rather than removes, is not raised
	for _, cmd := range []string{"foo delete-namespace --dry-run", "supabase db reset --linked"} {
		if l := maxLevel(analyzeScript(t, cmd)); l == risk.Critical {
			t.Errorf("%q: critical; findings:%s", cmd, describe(analyzeScript(t, cmd)))
		}
	}
}

func FuzzScopeObject(f *testing.F) {
	f.Add("foo", "delete-namespace", "prod")
	f.Add("gcloud", "projects", "delete")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		cmd := Command{Args: []string{a, b, c, "x"}, Dynamic: make([]bool, 4)}
		obj, ok := scopeObject(&cmd)
		if ok && !scopeNoun(obj) {
			t.Fatalf("scopeObject = %q, true: not a scope noun", obj)
		}
	})
}
