package paths

import "strings"

// KernelControl reports a kernel control file, p absolute and cleaned: a
// file through which the kernel runs a program of the writer's choice as
// root in the host's namespaces (a cgroup v1 release_agent and the
// notify_on_release that arms it, wherever the hierarchy is mounted;
// /proc/sys/kernel/core_pattern, modprobe, hotplug and poweroff_cmd;
// /sys/kernel/uevent_helper; binfmt_misc's register), or acts on the
// machine at once (/proc/sysrq-trigger). Writing one is the classic
// container escape; reading one tells nothing secret. A host's /proc or
// /sys mounted elsewhere (/host/proc/sys/kernel/core_pattern) is one too.
func KernelControl(p string) bool {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return false
	}
	dir, base := p[:i], p[i+1:]
	switch base {
	case "release_agent", "notify_on_release":
		return true
	case "core_pattern", "modprobe", "hotplug", "poweroff_cmd":
		return dirIs(dir, "/proc/sys/kernel")
	case "uevent_helper":
		return dirIs(dir, "/sys/kernel")
	case "sysrq-trigger":
		return dirIs(dir, "/proc")
	case "register":
		return dirIs(dir, "/proc/sys/fs/binfmt_misc") || strings.HasSuffix(dir, "/binfmt_misc")
	}
	return false
}

// dirIs reports dir being d or ending in it (a host's tree mounted below
// another directory).
func dirIs(dir, d string) bool {
	return dir == d || strings.HasSuffix(dir, d)
}
