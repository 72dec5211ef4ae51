package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestReimageVerbs: a verb that wipes a machine's disk by putting a fresh
// image on it is destructive (high); the same verbs on a local build stay
// silent or below high.
func TestReimageVerbs(t *testing.T) {
	for _, cmd := range []string{
		"hcloud server rebuild db-prod-1 --image ubuntu-24.04",
		"doctl compute droplet-action rebuild 123 --image ubuntu-24-04-x64",
		"aws ec2 create-replace-root-volume-task --instance-id i-0abc",
		"gcloud compute instance-groups managed recreate-instances mig-1 --instances vm-1",
		"az vm reimage -g rg -n vm1",
		"az vmss reimage -g rg -n ss1",
		"openstack server rebuild --image ubuntu srv1",
		"linode-cli linodes rebuild 123 --image linode/debian12",
		"vultr-cli server reinstall abc",
		"mycloud volume reformat vol-1",
	} {
		if l, rule, ok := verbLevel(t, cmd); !ok || l < risk.High {
			t.Errorf("%q: the grammar gives %s %s, want high", cmd, rule, l)
		}
	}
	for _, cmd := range []string{
		"npm rebuild", "pnpm rebuild", "yarn rebuild", "node-gyp rebuild", "make rebuild",
		"docker compose up --build", "cargo build", "go build -a", "mytool index rebuild",
		"mytool cache rebuild", "mytool --name rebuild list", "hcloud server rebuild --help",
	} {
		if l, rule, ok := verbLevel(t, cmd); ok && l >= risk.High {
			t.Errorf("%q: the grammar gives %s %s, want below high", cmd, rule, l)
		}
	}
	if l, _, _ := verbLevel(t, "vultr-cli server reinstall abc --dry-run"); l >= risk.High {
		t.Errorf("a dry run of a reinstall gives %s, want below high", l)
	}
}
