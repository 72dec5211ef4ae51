package shell

import "testing"

// TestRestoreOverSystem: a backup restored, or an archive extracted, over
// the root, the home directory or an operating-system tree is high; into
// a fresh folder, or software unpacked below /usr/local or /opt, it is
// not.
func TestRestoreOverSystem(t *testing.T) {
	for _, cmd := range []string{
		"sudo restic -r s3:s3.amazonaws.com/acme-restic restore latest --target / --overwrite always",
		"restic -r /srv/restic restore latest --target=/etc",
		"restic restore latest --target ~",
		"restic restore latest -t /var/lib/postgresql",
		"cd / && borg extract /backup::latest",
		"cd / && sudo tar xzf /tmp/backup.tgz",
		"sudo tar -xzf backup.tgz -C /",
		"tar --extract -f etc.tar --directory=/etc",
		"sudo unzip -o backup.zip -d /",
		"kopia snapshot restore k123 /",
		"duplicity restore s3://bucket/host /",
		"cd / && 7z x b.7z",
		"sudo 7z x b.7z -o/usr",
		"cd / && cpio -idmv < backup.cpio",
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), RuleRestoreOverSystem); !ok || l.String() != "high" {
			t.Errorf("%q: %s %s (fired %v), want high", cmd, RuleRestoreOverSystem, l, ok)
		}
	}
	for _, cmd := range []string{
		"restic -r /b restore latest --target /tmp/restore",
		"restic -r /b restore latest --target ./restore-test",
		"borg extract /backup::latest",
		"tar -xzf backup.tgz -C /tmp/x",
		"unzip -o x.zip -d ./out",
		"sudo tar -C /usr/local -xzf go1.22.linux-amd64.tar.gz",
		"tar xzf node.tar.xz -C /opt",
		"cd / && tar czf /tmp/b.tgz etc",
		"cd / && tar tzf /tmp/b.tgz",
		"cd / && unzip -l x.zip",
		"7z x b.7z -o/tmp/x",
		"tar xf x.tar",
		"restic snapshots",
		"kopia snapshot list",
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), RuleRestoreOverSystem); ok {
			t.Errorf("%q: %s %s, want none", cmd, RuleRestoreOverSystem, l)
		}
	}
}
