package effect

import "github.com/agentwarden/warden/risk"

// cell is one entry of the table: the level of an operation on a target
// class, whether it can be undone, whether it is locked beyond what
// Judge derives (every critical, irreversible effect is), and what it does.
type cell struct {
	level risk.Level
	rev   bool
	lock  bool
	why   string
}

// Shorthands for the table's levels.
const (
	safe     = risk.Safe
	low      = risk.Low
	medium   = risk.Medium
	high     = risk.High
	critical = risk.Critical
)

// table is the one table that judges effects: operation × target class →
// level. Every route (shell, Python, edit tools, MCP tools) asks it, so
// the same effect gets the same level through any tool. A pair it leaves
// empty (level 0) is not judged by it. Samples of every file class are in
// Samples; TestTable holds the levels the project relies on.
//
// Calibration: a file written anywhere is medium at least (seed 004: "file
// writes, consider carefully"), below the line where the default policy
// asks; reading is what agents do, so only credentials and raw devices
// count; a removed workspace file is medium (gone for good unless
// committed), scratch space low; a cache or a build output is made again
// on its own; the filesystem root, home, system directories, credentials
// and what guards the agent are where harm is.
var table = [numOps][numTargets]cell{
	Read: {
		Temp: {safe, true, false, "reads scratch space"}, Workspace: {safe, true, false, "reads a file of the workspace"},
		Outside: {safe, true, false, "reads a file outside the workspace"}, HomeData: {safe, true, false, "reads a file in the home directory"},
		WorkspaceRoot: {safe, true, false, "reads the workspace"}, Startup: {safe, true, false, "reads a start-up file"},
		Credential: {high, true, false, "puts the secrets it holds into the agent's context"},
		Device:     {high, true, false, "reads a raw device, which exposes everything stored on it"},
		System:     {safe, true, false, "reads a system file"}, Home: {safe, true, false, "reads the home directory"},
		Root: {safe, true, false, "reads the filesystem root"}, Guard: {safe, true, false, "reads warden's own files"},
		Cache: {safe, true, false, "reads a cache"}, Dynamic: {safe, true, false, "reads a file chosen at run time"},
		Null:    {safe, true, false, "reads nothing"},
		Secret:  {medium, true, false, "puts the secrets it holds (a .env file, a private key) into the agent's context"},
		History: {safe, true, false, "reads a repository's history store"},
		Kernel:  {safe, true, false, "reads a kernel setting"},
	},
	Write: {
		Temp:          {medium, true, false, "writes scratch space"},
		Workspace:     {medium, true, false, "writes a file of the workspace"},
		Cache:         {medium, true, false, "writes a cache that tools rebuild"},
		Outside:       {medium, true, false, "writes a file outside the workspace"},
		HomeData:      {medium, true, false, "writes an entry directly in the home directory"},
		WorkspaceRoot: {medium, true, false, "writes over the workspace or a folder holding it"},
		Dynamic:       {medium, true, false, "writes a path computed at run time, which cannot be checked in advance"},
		Startup:       {high, true, false, "writes a file that runs on its own later (persistence)"},
		System:        {high, false, false, "writes into a system location, changing how the machine runs"},
		Home:          {high, false, false, "writes over a home directory"},
		Root:          {high, false, false, "writes over the filesystem root"},
		Credential:    {critical, false, false, "writes credentials, which can plant access keys or destroy them"},
		Device:        {critical, false, false, "writes a raw device, destroying its partition table or filesystem"},
		Guard:         {critical, false, false, "changes what guards the agent"},
		Null:          {safe, true, false, "writes nothing that is kept"},
		History:       {medium, false, false, "writes into a repository's history store"},
		Kernel: {critical, false, false, "writes a kernel control file, through which the kernel runs a program of the writer's choice as root on the host " +
			"(a container escape) or acts on the machine at once"},
	},
	Delete: {
		Temp:          {low, true, false, "removes a file from scratch space"},
		Cache:         {low, true, false, "removes a file that tools rebuild"},
		Workspace:     {medium, false, false, "removes a file of the workspace for good"},
		Outside:       {medium, false, false, "removes a file outside the workspace for good"},
		WorkspaceRoot: {medium, false, false, "removes the workspace or a folder holding it, if empty"},
		Dynamic:       {high, false, false, "removes a path computed at run time, which cannot be checked in advance"},
		HomeData:      {high, false, false, "removes an entry directly in the home directory"},
		Startup:       {high, false, false, "removes a start-up file"},
		Device:        {high, false, false, "removes a device node"},
		System:        {high, false, false, "removes a system file, breaking the machine"},
		Home:          {high, false, false, "removes the files directly in a home directory"},
		Root:          {high, false, false, "removes the files directly in the filesystem root"},
		Credential:    {critical, false, false, "removes credentials for good"},
		Guard:         {critical, false, false, "removes what guards the agent"},
		Null:          {safe, true, false, "removes nothing"},
		History:       {medium, false, false, "removes an empty directory of a repository's history store"},
		Kernel:        {high, false, false, "removes a kernel control file"},
	},
	DeleteTree: {
		Temp:          {low, true, false, "removes scratch space"},
		Cache:         {medium, true, false, "removes a cache or build output that tools rebuild"},
		Workspace:     {medium, false, false, "removes a folder of the workspace for good"},
		WorkspaceRoot: {high, false, false, "removes the workspace, or a folder holding it and its siblings, for good"},
		Outside:       {high, false, false, "removes a folder outside the workspace for good"},
		Startup:       {high, false, false, "removes start-up files"},
		Dynamic:       {high, false, false, "removes a tree computed at run time, which cannot be checked in advance"},
		HomeData:      {critical, false, false, "removes a top-level folder of the user's home for good"},
		Credential:    {critical, false, false, "removes credentials for good"},
		Device:        {critical, false, false, "removes devices"},
		System:        {critical, false, false, "removes system files, breaking the machine"},
		Home:          {critical, false, false, "removes a home directory and everything in it"},
		Root:          {critical, false, false, "removes the whole filesystem"},
		Guard:         {critical, false, false, "removes what guards the agent"},
		Null:          {safe, true, false, "removes nothing"},
		Kernel:        {critical, false, false, "removes kernel control files"},
		History:       {high, false, false, "removes a repository's history: the commits, branches and stashes it holds that were pushed nowhere are gone for good"},
	},
	Fetch: {
		External: {low, true, false, "fetches a resource from the network"},
		Loopback: {low, true, false, "opens a service on this machine, such as a development server"},
		Private:  {medium, true, false, "reaches the internal network"},
		Metadata: {critical, true, true, "reaches a cloud metadata endpoint, which hands out the machine's credentials"},
		Control:  {high, true, false, "reaches a control plane or secret store (Consul, Vault, etcd, the Docker or Kubernetes API), which hands out secrets or control of machines"},
	},
}

// Samples are, for each file target, paths of that class (resolved with
// the working directory /home/user/project and home /home/user), and for
// each network target, URLs: the table's own must-hold samples, checked
// by TestSamples against paths.Classify and the routes' tests.
var Samples = map[Target][]string{
	Temp:          {"/tmp/x", "/var/tmp/cache/y", "/dev/shm/z", "/var/folders/zz/abc/T/x"},
	Workspace:     {"/home/user/project/a.txt", "/home/user/project/build/out.o", "/home/user/project/node_modules/x"},
	Outside:       {"/srv/www/index.html", "/home/user/Documents/report.txt", "/opt/app/data/x"},
	HomeData:      {"/home/user/Documents", "/home/user/notes.txt"},
	WorkspaceRoot: {"/home/user/project"},
	Startup:       {"/home/user/.bashrc", "/etc/profile.d/x.sh", "/home/user/.config/pip/pip.conf"},
	Credential:    {"/home/user/.ssh/id_rsa", "/home/user/.aws/credentials", "/etc/shadow"},
	Device:        {"/dev/sda", "/dev/nvme0n1"},
	System:        {"/etc/hosts", "/usr/bin/python3", "/var/lib/postgresql"},
	Home:          {"/home/user", "/home", "/root"},
	Root:          {"/"},
	Guard:         {"/home/user/.config/warden/policy.yaml", "/home/user/project/.claude/settings.json"},
	Cache:         {"/home/user/.cache", "/home/user/.npm/_cacache", "/home/user/other/node_modules"},
	Null:          {"/dev/null", "/dev/stderr"},
	Loopback:      {"http://localhost:3000/", "http://127.0.0.1:8080/api"},
	Private:       {"http://10.0.0.5/admin", "http://192.168.1.1/"},
	Metadata:      {"http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/computeMetadata/v1/"},
	External:      {"https://example.com/", "https://203.0.113.5/x"},
	Secret:        {"/home/user/project/.env", "/home/user/project/certs/server.key", "/tmp/id_ed25519"},
	History:       {"/home/user/project/.git", "/home/user/project/.git/objects", "/srv/repos/app/.hg", "/home/user/other/.svn"},
	Kernel: {"/proc/sys/kernel/core_pattern", "/sys/kernel/uevent_helper", "/proc/sysrq-trigger", "/sys/fs/cgroup/rdma/release_agent",
		"/tmp/cgrp/x/notify_on_release", "/proc/sys/fs/binfmt_misc/register", "/host/proc/sys/kernel/core_pattern"},
	Control: {"http://0.0.0.0:8500/v1/kv/?recurse", "http://127.0.0.1:8200/v1/secret/data/app", "http://10.0.0.7:2375/containers/json"},
}
