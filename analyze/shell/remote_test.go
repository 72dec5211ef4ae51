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
		// access granted on every host, as usermod -aG sudo or a key in
		// authorized_keys is on one (ansible modules); states applied to
		// every minion without test=True (salt)
		`ansible all -i inventories/prod/hosts -b -m ansible.builtin.user -a 'name=svc-backup groups=sudo append=yes'`: risk.High,
		`ansible web -b -m user -a "name=eve groups=docker,adm"`:                                                       risk.High,
		`ansible all -m user -a 'name=x uid=0 non_unique=yes'`:                                                         risk.High,
		`ansible all -m authorized_key -a 'user=root key="ssh-ed25519 AAAA x"'`:                                        risk.High,
		`ansible all -b -m lineinfile -a 'path=/etc/sudoers line="bob ALL=(ALL) NOPASSWD: ALL"'`:                       risk.High,
		`ansible all -b -m copy -a "src=bob dest=/etc/sudoers.d/bob"`:                                                  risk.High,
		`salt -G 'env:prod' state.apply`:                                                                               risk.High,
		`salt '*' state.highstate`:                                                                                     risk.High,
		`salt -C 'G@role:db and G@env:prod' state.sls postgres`:                                                        risk.High,
		`sudo salt --batch-size 10 'web*' state.apply nginx`:                                                           risk.High,
		// benign neighbours
		`salt web01 state.apply nginx`:                                   risk.Medium,
		`ansible all -m user -a "name=bob groups=developers"`:            risk.Low,
		`ansible all -m authorized_key -a 'user=bob key=x state=absent'`: risk.Medium,
		`ansible all -m lineinfile -a 'path=/etc/motd line="hello"'`:     risk.Low,
		`salt '*' state.apply test=True`:                                 risk.Safe,
		`salt -G 'env:prod' state.highstate test=true`:                   risk.Safe,
		`salt '*' grains.items`:                                          risk.Safe,
		`salt '*' pkg.install nginx`:                                     risk.Low,
		`ansible all -m ping`:                                            risk.Safe,
		`ansible all -m setup -a "filter=ansible_distribution"`:          risk.Safe,
		`ansible all -a "uptime"`:                                        risk.Safe,
		`ansible web -m shell -a "df -h"`:                                risk.Safe,
		`ansible all -m copy -a "src=app.conf dest=/etc/app.conf"`:       risk.Low,
		`salt '*' test.ping`:                                             risk.Low,
		`salt '*' cmd.run 'df -h'`:                                       risk.Low,
		`pssh -h hosts.txt -i uptime`:                                    risk.Safe,
		`pdsh -w node[01-16] 'nvidia-smi'`:                               risk.Safe,
		`clush -w n1 -c /etc/hosts --dest /tmp`:                          risk.Safe,
		`fab deploy`:                                                     risk.Safe,
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

// TestLoadGenerators holds load generators aimed at a host: a heavy run
// (100 or more clients or requests a second, 100 000 requests, 10
// minutes) at another's host is net.scan_or_flood high; at a target
// warden cannot see, medium; at this machine, a private address or a
// local name, or a light run, low.
func TestLoadGenerators(t *testing.T) {
	for script, want := range map[string]risk.Level{
		`ab -n 10000000 -c 2000 https://shop.acme.com/checkout`:                      risk.High,
		`wrk -t32 -c5000 -d1h https://api.acme.com/v1/search`:                        risk.High,
		`hey -z 15m -c 50 https://api.acme.com/`:                                     risk.High,
		`siege -c 300 -t 30M https://shop.acme.com/`:                                 risk.High,
		`locust -f locustfile.py --headless -u 5000 -r 100 -H https://shop.acme.com`: risk.High,
		`bombardier -c 1000 -n 10000000 https://api.acme.com/`:                       risk.High,
		`h2load -n 1000000 -c 1000 https://api.acme.com/`:                            risk.High,
		`oha -n 200k https://203.0.113.9/`:                                           risk.High,
		`timeout 1h wrk --connections=800 --duration=1h https://www.example.org/`:    risk.High,
		`k6 run --vus 1000 --duration 30m load.js`:                                   risk.Medium,
		`echo "GET https://api.acme.com/" | vegeta attack -rate=5000 -duration=30m`:  risk.Medium,
		`ab -n 100 -c 10 http://localhost:8080/`:                                     risk.Low,
		`wrk -t4 -c400 -d10m http://127.0.0.1:3000/`:                                 risk.Low,
		`hey -n 1000000 -c 500 http://api.test/`:                                     risk.Low,
		`bombardier -c 200 -d 1h http://10.0.3.4:8080/health`:                        risk.Low,
		`ab -n 500 -c 20 https://staging.acme.com/`:                                  risk.Low,
		`wrk -t2 -c50 -d30s https://api.acme.com/`:                                   risk.Low,
		`k6 version`: risk.Low,
		`ab -V`:      risk.Low,
	} {
		var got risk.Level
		fs := analyzeScript(t, script)
		for _, f := range fs {
			got = max(got, f.Level)
		}
		if got != want && !(want == risk.Low && got < want) {
			t.Errorf("%s: %s, want %s;%s", script, got, want, describe(fs))
		}
	}
}
