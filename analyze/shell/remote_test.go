package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestRemoteRunners holds fleet runners (ansible, salt, pssh, pdsh,
// clush, fabric) end to end: the command they run on remote hosts is
// judged as ssh's is, and ansible's other modules by what they change.
// A level of high means at least high; below, at most that level.
func TestRemoteRunners(t *testing.T) {
	for script, want := range map[string]risk.Level{
		`ansible all -m shell -a "rm -rf /var/lib/app"`:               risk.High,
		`ansible web -m ansible.builtin.command -a "shutdown -h now"`: risk.High,
		`ansible db -b -a "dropdb orders"`:                            risk.High,
		`ansible all -m raw -a "mkfs.ext4 /dev/sdb"`:                  risk.High,
		`ansible all -m file -a "path=/srv/data state=absent"`:        risk.High,
		`ansible all -m user -a "name=bob state=absent remove=yes"`:   risk.Medium,
		`salt '*' cmd.run 'rm -rf /var/log/app'`:                      risk.High,
		`salt -G os:Ubuntu cmd.shell 'systemctl stop postgresql'`:     risk.High,
		`salt-call --local cmd.run 'rm -rf /srv/data'`:                risk.High,
		`pssh -h hosts.txt -i "rm -rf /data"`:                         risk.High,
		`parallel-ssh -H web1 -l root -i "rm -rf /var/www"`:           risk.High,
		`pdsh -w node[01-16] 'rm -rf /scratch/*'`:                     risk.High,
		`clush -a -b "rm -rf /tmp/../etc"`:                            risk.High,
		`fab -H web1,web2 -- sudo rm -rf /srv/app`:                    risk.High,
		// benign neighbours
		`ansible all -m ping`: risk.Safe,
		`ansible all -m setup -a "filter=ansible_distribution"`:    risk.Safe,
		`ansible all -a "uptime"`:                                  risk.Safe,
		`ansible web -m shell -a "df -h"`:                          risk.Safe,
		`ansible all -m copy -a "src=app.conf dest=/etc/app.conf"`: risk.Low,
		`salt '*' test.ping`:                                       risk.Low,
		`salt '*' cmd.run 'df -h'`:                                 risk.Low,
		`pssh -h hosts.txt -i uptime`:                              risk.Safe,
		`pdsh -w node[01-16] 'nvidia-smi'`:                         risk.Safe,
		`clush -w n1 -c /etc/hosts --dest /tmp`:                    risk.Safe,
		`fab deploy`:                                               risk.Safe,
	} {
		var got risk.Level
		fs := analyzeScript(t, script)
		for _, f := range fs {
			got = max(got, f.Level)
		}
		// harmful: at least high; the rest: at most want
		if want >= risk.High && got < risk.High || want < risk.High && got > want {
			t.Errorf("%s: %s, want %s;%s", script, got, want, describe(fs))
		}
	}
}
