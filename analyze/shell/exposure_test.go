package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestExposure: a rule that admits every source on an admin or data store
// port, or on every port, is high on every firewall and cloud tool; another
// port medium, a web port low; a rule limited to some sources, a deny, an
// egress rule or a reply rule gives nothing.
func TestExposure(t *testing.T) {
	for cmd, want := range map[string]risk.Level{
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0":                                               risk.High,
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol -1 --cidr 0.0.0.0/0":                                                          risk.High,
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --ip-permissions IpProtocol=tcp,FromPort=3306,ToPort=3306,IpRanges=[{CidrIp=0.0.0.0/0}]": risk.High,
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --ip-permissions IpProtocol=tcp,FromPort=6379,ToPort=6379,Ipv6Ranges=[{CidrIpv6=::/0}]":  risk.High,
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 8000-9000 --cidr 0.0.0.0/0":                                        risk.High,
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 3000 --cidr 0.0.0.0/0":                                             risk.Medium,
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 443 --cidr 0.0.0.0/0":                                              risk.Low,
		"gcloud compute firewall-rules create open --allow tcp:5432 --source-ranges=0.0.0.0/0":                                                             risk.High,
		"gcloud compute firewall-rules create ssh --allow=tcp:22":                                                                                          risk.High,
		"gcloud compute firewall-rules create all --allow all --source-ranges 0.0.0.0/0":                                                                   risk.High,
		"gcloud compute firewall-rules create web --allow tcp:80,tcp:443 --source-ranges=0.0.0.0/0":                                                        risk.Low,
		"az network nsg rule create -g rg --nsg-name n -n rdp --priority 100 --destination-port-ranges 3389 --source-address-prefixes Internet":            risk.High,
		"az network nsg rule create -g rg --nsg-name n -n any --priority 100 --destination-port-ranges '*' --access Allow":                                 risk.High,
		"doctl compute firewall add-rules fw1 --inbound-rules 'protocol:tcp,ports:27017,address:0.0.0.0/0,address:::/0'":                                   risk.High,
		"hcloud firewall add-rule fw --direction in --protocol tcp --port 6443 --source-ips 0.0.0.0/0 --source-ips ::/0":                                   risk.High,
		"sudo ufw allow from any to any port 5432 proto tcp":                                                                                               risk.High,
		"ufw allow 22/tcp":                    risk.High,
		"ufw allow OpenSSH":                   risk.High,
		"ufw default allow incoming":          risk.High,
		"ufw limit ssh":                       risk.Medium,
		"ufw allow in on eth0 to any port 22": risk.High,
		"ufw allow 8000":                      risk.Medium,
		"ufw allow 'Nginx Full'":              risk.Low,
		"firewall-cmd --zone=public --add-port=6379/tcp --permanent":                                                          risk.High,
		"firewall-cmd --add-service=postgresql":                                                                               risk.High,
		`firewall-cmd --add-rich-rule='rule family="ipv4" source address="0.0.0.0/0" port port="9200" protocol="tcp" accept'`: risk.High,
		"firewall-cmd --permanent --add-service=https":                                                                        risk.Low,
		"iptables -I INPUT -j ACCEPT":                                                                                         risk.High,
		"iptables -A INPUT -p tcp --dport 2375 -j ACCEPT":                                                                     risk.High,
		"iptables -A INPUT -p tcp -m multiport --dports 80,443 -j ACCEPT":                                                     risk.Low,
		"nft add rule inet filter input tcp dport 22 accept":                                                                  risk.High,
		"nft add rule inet filter input tcp dport { 80, 443 } accept":                                                         risk.Low,
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), RuleExposure); !ok || l != want {
			t.Errorf("%q: %s %s %v, want %s", cmd, RuleExposure, l, ok, want)
		}
	}
	for _, cmd := range []string{
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 10.0.0.0/8",
		"aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 203.0.113.7/32",
		"aws ec2 revoke-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0",
		"aws ec2 describe-security-groups",
		"gcloud compute firewall-rules create ssh --allow tcp:22 --source-ranges 35.235.240.0/20",
		"gcloud compute firewall-rules create ssh --allow tcp:22 --source-tags bastion",
		"gcloud compute firewall-rules create out --direction EGRESS --allow all",
		"gcloud compute firewall-rules list",
		"az network nsg rule create -g rg --nsg-name n -n deny --priority 100 --destination-port-ranges 22 --access Deny",
		"az network nsg rule create -g rg --nsg-name n -n ssh --priority 100 --destination-port-ranges 22 --source-address-prefixes 10.0.0.0/16",
		"doctl compute firewall add-rules fw1 --inbound-rules 'protocol:tcp,ports:22,address:203.0.113.7/32'",
		"ufw allow from 203.0.113.7 to any port 22",
		"ufw allow from 10.0.0.0/8",
		"ufw allow in on lo", "ufw allow in on docker0 to any port 5432", "ufw allow in on wg0",
		"ufw deny 22", "ufw status", "ufw delete allow 22", "ufw default deny incoming", "ufw allow out 53",
		"firewall-cmd --zone=internal --add-service=ssh",
		"firewall-cmd --list-all",
		`firewall-cmd --add-rich-rule='rule family="ipv4" source address="10.0.0.0/8" port port="5432" protocol="tcp" accept'`,
		"iptables -A INPUT -s 10.0.0.0/8 -p tcp --dport 22 -j ACCEPT",
		"iptables -A INPUT -i lo -j ACCEPT",
		"iptables -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT",
		"iptables -A INPUT -p tcp --dport 22 -j DROP",
		"iptables -A INPUT -p icmp -j ACCEPT",
		"iptables -L -n",
		"nft add rule inet filter input ip saddr 10.0.0.0/8 tcp dport 22 accept",
		"nft add rule inet filter input ct state established,related accept",
		"nft list ruleset",
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), RuleExposure); ok {
			t.Errorf("%q fires %s (%s)", cmd, RuleExposure, l)
		}
	}
}
