package shell

import (
	"strings"

	"github.com/agentwarden/warden/analyze/inline"
)

// Verbs that wipe by rebuilding (see pathVerb). hcloud server rebuild,
// doctl compute droplet-action rebuild, az vm reimage, openstack server
// rebuild, linode-cli linodes rebuild, vultr-cli server reinstall, gcloud
// compute instance-groups managed recreate-instances: each puts a fresh
// image on a machine's disk, and what the disk held is gone, as after a
// delete. So they are destructive verbs, but only of a machine, a disk or
// a volume: npm rebuild, make rebuild, docker compose up --build, cargo
// build rebuild local build outputs, and a rebuild verb whose path names
// no machine ends the path without a finding. AWS's replace-root-volume
// (aws ec2 create-replace-root-volume-task) restores a root volume to
// its launch state or a snapshot: the same wipe, spelt as a create.

// reimageVerbs are the verbs that put a fresh image on what they name.
var reimageVerbs = map[string]bool{"rebuild": true, "reimage": true, "reinstall": true, "reprovision": true,
	"reformat": true, "recreate": true, "reflash": true}

// machineNouns name what a reimage verb wipes: a machine, its disk or
// its volume.
var machineNouns = map[string]bool{"server": true, "servers": true, "instance": true, "instances": true,
	"vm": true, "vms": true, "vmss": true, "droplet": true, "droplets": true, "linode": true, "linodes": true,
	"machine": true, "machines": true, "volume": true, "volumes": true, "disk": true, "disks": true,
	"node": true, "nodes": true, "host": true, "hosts": true, "baremetal": true, "metal": true,
	"vps": true, "drive": true, "drives": true, "partition": true}

// reimageWord reads path word seg: whether it is a reimage verb (after
// modifiers), and whether it names a machine itself (recreate-instances,
// replace-root-volume). A word that is no reimage verb gives false.
func reimageWord(seg string) (isVerb, names bool) {
	if len(seg) > 64 {
		return false, false
	}
	var buf [64]byte
	low := string(inline.AppendLower(buf[:0], seg))
	if strings.Contains(low, "replace-root-volume") || strings.Contains(low, "replacerootvolume") || strings.Contains(low, "replace_root_volume") {
		return true, true
	}
	rest, first := low, true
	for rest != "" {
		tok, tail := nextToken(rest)
		if first && verbModifiers[tok] {
			rest = tail
			continue
		}
		if first {
			if !reimageVerbs[tok] {
				return false, false
			}
			isVerb, first = true, false
		} else if machineNouns[tok] {
			names = true
		}
		rest = tail
	}
	return isVerb, names
}

// machineWord reports a path word (a noun) that names a machine, a disk
// or a volume (server, droplet-action, linodes).
func machineWord(seg string) bool {
	if len(seg) > 64 {
		return false
	}
	var buf [64]byte
	return anyToken(string(inline.AppendLower(buf[:0], seg)), machineNouns)
}
