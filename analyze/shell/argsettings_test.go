package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestSettingsOnTheLine: a service CLI's arguments that switch a
// protection off, clear snapshots or write a policy that lets someone
// else in are judged by what they mean (see settingsFindings), in any
// shape; turning a protection on, dry runs, reads, creations, denials and
// service principals are not.
func TestSettingsOnTheLine(t *testing.T) {
	const (
		off    = RuleImpairDefense
		backup = "sec.backup_delete"
		grant  = ruleIAMGrant
	)
	for _, c := range []struct {
		cmd  string
		want risk.Level // 0: the rule may not fire
		rule string
	}{
		// protections off: key=value shorthand, JSON, flags, values
		{"aws dynamodb update-continuous-backups --table-name prod-users --point-in-time-recovery-specification PointInTimeRecoveryEnabled=false", risk.High, off},
		{`aws dynamodb update-continuous-backups --table-name t --point-in-time-recovery-specification '{"PointInTimeRecoveryEnabled": false}'`, risk.High, off},
		{"aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 0 --apply-immediately", risk.High, off},
		{"aws s3api put-bucket-versioning --bucket b --versioning-configuration Status=Suspended", risk.High, off},
		{`aws s3api put-bucket-logging --bucket b --bucket-logging-status '{"LoggingEnabled": false}'`, risk.High, off},
		{`acme-cloud stream update s1 --logging-configuration '{"Enabled": false, "Level": "ERROR"}'`, risk.High, off},
		{"aws guardduty update-detector --detector-id x --no-enable", risk.High, off},
		{"gcloud sql instances patch prod --no-backup", risk.High, off},
		{"gcloud container clusters update c1 --no-enable-logging", risk.High, off},
		{"xcloud db update prod --disable-audit-logging", risk.High, off},
		{"xcloud account update --mfa-required=false", risk.High, off},
		{"sudo aws rds modify-db-cluster --db-cluster-identifier c --backup-retention-period 0", risk.High, off},
		{"aws dynamodb update-continuous-backups --table-name t --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true", 0, off},
		{"aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 7", 0, off},
		{"aws rds create-db-instance --db-instance-identifier dev --backup-retention-period 0", 0, off},
		{"aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 0 --dry-run", 0, off},
		{"aws s3api put-bucket-versioning --bucket b --versioning-configuration Status=Enabled", 0, off},
		{"aws guardduty update-detector --detector-id x --enable", 0, off},
		{"xcloud widget update w1 --no-enable", 0, off},
		{"gcloud sql instances describe prod", 0, off},
		{"gcloud sql instances patch prod --backup-start-time 02:00", 0, off},
		{"aws s3 ls s3://b --no-verify-ssl", 0, off},
		{`acme-cloud stream update s1 --logging-configuration '{"Enabled": true, "Level": 0}'`, 0, off},
		{"acme-cloud stream update s1 --logging-configuration Level=0", 0, off},
		// snapshots and backups cleared
		{"nodetool -h cass-prod-1 clearsnapshot --all", risk.High, backup},
		{"nodetool clearsnapshot", risk.High, backup},
		{"acmectl purge-backups --all", risk.High, backup},
		{"nodetool -h cass-prod-1 clearsnapshot -t before-upgrade", risk.Medium, backup},
		{"nodetool -h cass-prod-1 listsnapshots", 0, backup},
		{"nodetool -h cass-prod-1 snapshot -t before-upgrade", 0, backup},
		// policies and grants that let others in
		{`aws secretsmanager put-resource-policy --secret-id prod/db/master --resource-policy '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::999988887777:root"},"Action":"secretsmanager:GetSecretValue","Resource":"*"}]}'`, risk.High, grant},
		{`aws kms put-key-policy --key-id k --policy-name default --policy '{"Statement":[{"Effect":"Allow","Principal":{"AWS":"999988887777"},"Action":"kms:Decrypt","Resource":"*"}]}'`, risk.High, grant},
		{`aws ecr set-repository-policy --repository-name r --policy-text '{"Statement":{"Effect":"Allow","Principal":{"AWS":["arn:aws:iam::999988887777:role/ci"]},"Action":"ecr:*"}}'`, risk.High, grant},
		{`aws sqs set-queue-attributes --queue-url q --attributes Policy='{"Statement":[]}'`, 0, grant},
		{"aws kms create-grant --key-id k --grantee-principal arn:aws:iam::999988887777:root --operations Decrypt", risk.High, grant},
		{"aws lambda add-permission --function-name f --statement-id s --action lambda:InvokeFunction --principal 999988887777", risk.High, grant},
		{`aws iam put-role-policy --role-name r --policy-name p --policy-document '{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}'`, risk.High, grant},
		{`aws secretsmanager put-resource-policy --secret-id s --resource-policy '{"Statement":[{"Effect":"Deny","Principal":{"AWS":"arn:aws:iam::999988887777:root"},"Action":"secretsmanager:*","Resource":"*"}]}'`, 0, grant},
		{`aws ecr set-repository-policy --repository-name r --policy-text '{"Statement":[{"Effect":"Allow","Principal":{"Service":"codebuild.amazonaws.com"},"Action":["ecr:BatchGetImage"]}]}'`, 0, grant},
		{"aws lambda add-permission --function-name f --statement-id s --action lambda:InvokeFunction --principal s3.amazonaws.com", 0, grant},
		{"aws secretsmanager get-resource-policy --secret-id prod/db/master", 0, grant},
	} {
		fs := analyzeScript(t, c.cmd)
		l, ok := levelOf(fs, c.rule)
		switch {
		case c.want == 0 && ok:
			t.Errorf("%q: %s fires at %s; findings:%s", c.cmd, c.rule, l, describe(fs))
		case c.want != 0 && (!ok || l != c.want):
			t.Errorf("%q: %s at %v (%v), want %s; findings:%s", c.cmd, c.rule, l, ok, c.want, describe(fs))
		}
	}
}

// TestSplicedBody: a JSON body with a value spliced in at run time is read
// as written, so its literal keys count: a downtime of every scope is
// high whatever its computed end; one monitor's stays medium, as does a
// body that is all expansion (the path mutes).
func TestSplicedBody(t *testing.T) {
	const rule = "http.impair_defenses"
	for _, c := range []struct {
		cmd  string
		want risk.Level
	}{
		{`curl -X POST https://api.datadoghq.com/api/v1/downtime -H "DD-API-KEY: $K" -d '{"scope":["*"],"message":"m","end":'$(($(date +%s)+2592000))'}'`, risk.High},
		{`curl -X POST https://api.datadoghq.com/api/v1/downtime -d '{"scope":["host:web1"],"monitor_id":1,"end":'$(($(date +%s)+3600))'}'`, risk.Medium},
		{`curl -X POST https://api.datadoghq.com/api/v1/downtime -d "$BODY"`, risk.Medium},
	} {
		fs := analyzeScript(t, c.cmd)
		l, ok := levelOf(fs, rule)
		if c.want == 0 && ok || c.want != 0 && (!ok || l != c.want) {
			t.Errorf("%q: %s at %v (%v), want %v; findings:%s", c.cmd, rule, l, ok, c.want, describe(fs))
		}
	}
}
