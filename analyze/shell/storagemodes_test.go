package shell

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestUnknownStorageMode: a storage tool warden knows, given a device in
// a mode that no row names and that is not a known read-only or
// no-action mode, gets disk.unknown_mode (high); its known modes, its
// help and its modes without a device get nothing.
func TestUnknownStorageMode(t *testing.T) {
	for _, script := range []string{
		"hdparm -Y /dev/sda", "hdparm --some-new-flag /dev/sda", "sudo hdparm -S 120 /dev/sda", "hdparm -I -Y /dev/sda", "hdparm -tY /dev/sda",
		"nvme format-new /dev/nvme0n1", "nvme vendor-op /dev/nvme0", "nvme $CMD /dev/nvme0n1",
		"cryptsetup luksAddKey /dev/sdb2", "cryptsetup luksUUID --uuid 1234 /dev/sdb2", "cryptsetup -q token import /dev/sdb2",
		"sgdisk --new-flag /dev/sda", "sgdisk -p --new-flag /dev/sda",
		"btrfs rescue zero-log /dev/sdb", "btrfs rescue super-recover /dev/sdb", "btrfs fi new-thing /dev/sdb", "btrfs newgroup /dev/sdb",
		"mdadm --misc --wait /dev/md0", "mdadm --readonly /dev/md0", "mdadm /dev/md0 --new-op",
		"zpool initialize tank /dev/sdb", "zpool new-verb tank /dev/sdb",
		"parted -s /dev/sda print newcmd", "parted /dev/sda print disk_newflag on",
		"wipefs --new-mode /dev/sdb", "tune2fs -l -O ^has_journal /dev/sdb1", "tune2fs -l $OPT /dev/sdb1",
		"cd /dev && hdparm -Y sda",
	} {
		fs := analyzeScript(t, script)
		if l, ok := levelOf(fs, RuleUnknownMode); !ok || l != risk.High {
			t.Errorf("%q: want %s high, got %s", script, RuleUnknownMode, describe(fs))
		}
		if _, ok := levelOf(fs, RuleUnknownOnDevice); ok {
			t.Errorf("%q: %s fires beside %s", script, RuleUnknownOnDevice, RuleUnknownMode)
		}
	}
	for _, script := range []string{
		// the known read-only and no-action modes
		"hdparm -I /dev/sda", "hdparm -i /dev/sda", "hdparm -g /dev/sda", "hdparm -tT /dev/sda", "hdparm -t --direct /dev/sda", "hdparm -C /dev/sda",
		"hdparm /dev/sda",
		"nvme list", "nvme smart-log /dev/nvme0", "nvme id-ctrl /dev/nvme0", "nvme id-ns /dev/nvme0n1", "nvme error-log /dev/nvme0",
		"nvme fw-log /dev/nvme0", "nvme list-ns /dev/nvme0", "nvme list-subsys /dev/nvme0n1", "nvme show-regs /dev/nvme0",
		"nvme get-feature /dev/nvme0 -f 2", "nvme get-log /dev/nvme0 --log-id=2 --log-len=512", "nvme smart-log /dev/nvme0 -o json",
		"mdadm --detail /dev/md0", "mdadm -D /dev/md0", "mdadm --examine /dev/sdb1", "mdadm -E /dev/sdb1", "mdadm --query /dev/md0",
		"mdadm -Q /dev/sdb1", "mdadm --assemble /dev/md0 /dev/sdb1 /dev/sdc1", "mdadm --detail --scan", "mdadm --monitor --scan --daemonise",
		"cryptsetup luksDump /dev/sdb2", "cryptsetup status cryptroot", "cryptsetup isLuks /dev/sdb2", "cryptsetup open /dev/sdb2 data",
		"cryptsetup luksOpen /dev/sdb2 data", "cryptsetup close data", "cryptsetup luksClose data", "cryptsetup luksUUID /dev/sdb2",
		"cryptsetup tcryptDump /dev/sdb2", "cryptsetup benchmark", "cryptsetup --type luks2 open /dev/sdb2 data",
		"cryptsetup -d /tmp/key open /dev/sdb2 data", "cryptsetup luksHeaderBackup /dev/sdb2 --header-backup-file hdr.img",
		"parted -l", "parted --list", "parted /dev/sda print", "parted -s /dev/sda unit s print free", "parted /dev/sda align-check optimal 1",
		"parted -m /dev/sda unit MiB print",
		"sgdisk -p /dev/sda", "sgdisk --print /dev/sda", "sgdisk -v /dev/sda", "sgdisk -i 1 /dev/sda", "sgdisk -b table.bak /dev/sda",
		"sgdisk --backup=table.bak /dev/sda", "sgdisk -P -d 2 /dev/sda", "sgdisk -O /dev/sda",
		"fdisk -l /dev/sda", "gdisk -l /dev/sda", "fdisk -x /dev/sda",
		"sfdisk -l /dev/sda", "sfdisk -d /dev/sda", "sfdisk --json /dev/sda", "sfdisk -V /dev/sda", "sfdisk -n /dev/sda", "sfdisk -g /dev/sda",
		"sfdisk -s /dev/sda",
		"wipefs /dev/sdb", "wipefs -n -a /dev/sdb", "wipefs --no-act --all /dev/sdb", "wipefs -J /dev/sdb",
		"btrfs subvolume list /dev/sdb", "btrfs subvolume show /dev/sdb", "btrfs filesystem df /dev/sdb", "btrfs filesystem usage /dev/sdb",
		"btrfs filesystem show /dev/sdb", "btrfs fi show /dev/sdb", "btrfs scrub status /dev/sdb", "btrfs device stats /dev/sdb",
		"btrfs inspect-internal dump-super /dev/sdb", "btrfs insp dump-tree /dev/sdb", "btrfs property get /dev/sdb label",
		"btrfs check /dev/sdb", "btrfs check --readonly /dev/sdb", "btrfs --format json filesystem show /dev/sdb",
		"badblocks -sv /dev/sdb", "e2fsck -n /dev/sda1", "e2fsck -fn /dev/sdb1", "fsck.ext4 -n /dev/sdb1", "tune2fs -l /dev/sda1",
		"mkfs.ext4 -n /dev/sdb1", "mke2fs -n /dev/sdb1", "mkfs.xfs -N /dev/sdb", "mkfs -t ext4 -n /dev/sdb1",
		"zpool status", "zpool import -d /dev/disk/by-id tank", "zpool online tank /dev/sdb", "zpool create -n tank /dev/sdb",
		// help, and unknown modes without a device
		"hdparm --help", "hdparm -Y --help /dev/sda", "nvme format-new --help /dev/nvme0n1", "cryptsetup luksAddKey --help /dev/sdb2",
		"btrfs rescue zero-log --help /dev/sdb", "mdadm --misc --wait --help /dev/md0",
		"mdadm --misc --wait md0", "btrfs rescue zero-log sdb", "zpool initialize tank sdb",
	} {
		if fs := analyzeScript(t, script); len(fs) > 0 {
			t.Errorf("%q: want no finding, got %s", script, describe(fs))
		}
	}
}

// TestStorageModesKeepRows: the commands the disk rows of commands.yaml
// name as must-not-match samples are the tools' other modes: none of
// them is an unknown mode but the ones listed here, which no row judges
// and which do more than read (a key slot added), and none of the rows'
// must-match samples gets it beside the row's finding.
func TestStorageModesKeepRows(t *testing.T) {
	unlisted := map[string]bool{
		"cryptsetup luksAddKey /dev/sdb2": true,
	}
	n := 0
	for _, r := range yamlKnowledge(t).Rows {
		if !strings.HasPrefix(r.Rule, "disk.") {
			continue
		}
		for _, script := range r.NoMatch {
			n++
			_, ok := levelOf(analyzeScript(t, script), RuleUnknownMode)
			if ok != unlisted[script] {
				t.Errorf("%q (a sample of %s): %s fires: %v, want %v", script, r.Rule, RuleUnknownMode, ok, unlisted[script])
			}
		}
		for script := range r.Match {
			if _, ok := levelOf(analyzeScript(t, script), RuleUnknownMode); ok {
				t.Errorf("%q (a sample of %s): %s fires beside the row", script, r.Rule, RuleUnknownMode)
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d disk samples: the rows moved?", n)
	}
	// a listed tool that lost its rows is no longer known: the finding of
	// an unknown program on a device (disk.unknown_program) speaks for it
	for name := range storageTools {
		if e := DefaultKnowledge().entry(name); !e.known || e.rows == nil {
			t.Errorf("%s: listed among the storage tools, but no row of commands.yaml judges it", name)
		}
	}
}
