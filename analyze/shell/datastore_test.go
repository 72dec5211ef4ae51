package shell

import "testing"

// TestDataStores checks the judgement of key-value and document store
// commands: each sample gets its rule at the stated level (the highest
// finding of that rule), and the benign neighbours get no finding of it.
func TestDataStores(t *testing.T) {
	match := []struct{ cmd, rule, level string }{
		{"redis-cli FLUSHALL", "db.kv_command", "critical"},
		{"redis-cli -h cache -p 6380 flushdb", "db.kv_command", "critical"},
		{"valkey-cli -n 2 FLUSHDB ASYNC", "db.kv_command", "critical"},
		{"echo FLUSHALL | redis-cli", "db.kv_command", "critical"},
		{"redis-cli <<'EOF'\nSELECT 1\nFLUSHDB\nEOF", "db.kv_command", "critical"},
		{"redis-cli CONFIG SET dir /root/.ssh", "db.kv_command", "high"},
		{"keydb-cli config rewrite", "db.kv_command", "high"},
		{"redis-cli -a pw SHUTDOWN NOSAVE", "db.kv_command", "high"},
		{"redis-cli replicaof 203.0.113.9 6379", "db.kv_command", "high"},
		{"redis-cli MODULE LOAD /tmp/x.so", "db.kv_command", "high"},
		{"redis-cli DEL session:1", "db.kv_command", "medium"},
		{"redis-cli -h prod-cache del session:1", "db.kv_command", "medium"}, // one key: not a mass deletion
		{"redis-cli --scan --pattern 'user:*' | xargs redis-cli del", "db.kv_command", "high"},
		{"redis-cli -h prod-cache --scan --pattern 'sess:*' | xargs redis-cli -h prod-cache unlink", "db.kv_command", "critical"},
		{"redis-cli -h redis.prod.internal FLUSHALL", "db.kv_command", "critical"},
		{"redis-cli -h redis.prod.internal CONFIG SET dbfilename x", "db.kv_command", "critical"},
		{"mongosh --eval 'db.dropDatabase()'", "db.document_command", "critical"},
		{"mongo prod --eval 'db.users.deleteMany({})'", "db.document_command", "critical"},
		{"mongosh app --eval 'db.users.deleteMany({})'", "db.document_command", "high"},
		{"mongosh app --eval 'db.users.remove( { } )'", "db.document_command", "high"},
		{"mongosh app --eval 'db.sessions.drop()'", "db.document_command", "high"},
		{"mongosh app --eval='db.dropAllUsers()'", "db.document_command", "high"},
		{"mongosh app --eval 'db.users.deleteMany({age: {$lt: 18}})'", "db.document_command", "medium"},
		{"mongosh mongodb://db.example.com/app <<'EOF'\nuse app\ndb.orders.updateMany({}, {$set: {paid: true}})\nEOF", "db.document_command", "high"},
		{"sudo -u mongodb mongosh --host prod-mongo --eval 'db.logs.drop()'", "db.document_command", "critical"},
		// database commands run through adminCommand / runCommand
		{"mongosh mongodb://db:27017/admin --eval 'db.adminCommand({shutdown: 1, force: true})'", "db.document_command", "high"},
		{`mongosh --quiet --eval 'db.getSiblingDB("admin").runCommand({"shutdown": 1})'`, "db.document_command", "high"},
		{"mongosh --eval 'db.adminCommand(\"shutdown\")'", "db.document_command", "high"},
		{"mongosh app --eval 'db.runCommand({dropDatabase: 1})'", "db.document_command", "critical"},
		{"mongosh --eval 'db.adminCommand({replSetReconfig: cfg, force: true})'", "db.document_command", "high"},
		{"mongosh --eval 'rs.conf(); db.adminCommand({replSetReconfig: cfg})'", "db.document_command", "medium"},
		{"mongosh --eval 'db.adminCommand({removeShard: \"shard0002\"})'", "db.document_command", "high"},
		{"mongosh --eval 'db.getSiblingDB(\"admin\").shutdownServer({force: true})'", "db.document_command", "high"},
	}
	for _, m := range match {
		fs := analyzeScript(t, m.cmd)
		got, ok := levelOf(fs, m.rule)
		if !ok || got.String() != m.level {
			t.Errorf("%q: %s at %v (found %v), want %s; findings:%s", m.cmd, m.rule, got, ok, m.level, describe(fs))
		}
	}
	noMatch := []string{
		"redis-cli GET session:1",
		"redis-cli KEYS 'user:*'",
		"redis-cli --scan --pattern 'user:*'",
		"redis-cli -h cache INFO keyspace",
		"redis-cli CONFIG GET maxmemory",
		"redis-cli PING",
		"redis-cli SET k v",
		"redis-cli -p 6379 monitor",
		"echo flushall > notes.txt",
		"grep -r FLUSHALL docs/",
		"mongosh --eval 'db.users.find({})'",
		"mongosh app --eval 'db.users.countDocuments({})'",
		"mongosh --eval 'db.stats()'",
		"mongosh --eval 'db.adminCommand({listDatabases: 1})'",
		"mongosh --eval 'db.adminCommand({getParameter: 1, featureCompatibilityVersion: 1})'",
		"mongosh --eval 'db.runCommand({serverStatus: 1})'",
		"mongosh --eval 'db.adminCommand({replSetGetStatus: 1})'",
		"mongodump --db app --out backup/",
		"git log --grep dropDatabase",
	}
	for _, cmd := range noMatch {
		fs := analyzeScript(t, cmd)
		for _, r := range []string{"db.kv_command", "db.document_command"} {
			if l, ok := levelOf(fs, r); ok {
				t.Errorf("%q: %s fires at %s; findings:%s", cmd, r, l, describe(fs))
			}
		}
	}
}

// TestExhaustion checks the unbounded writers: each sample gets
// res.unbounded_write at high, and the bounded neighbours do not.
func TestExhaustion(t *testing.T) {
	for _, cmd := range []string{
		"yes > /tmp/fill",
		"yes 'AAAA' >> big.log",
		"cat /dev/zero > zeros.bin",
		"cat /dev/urandom > ~/noise",
		"dd if=/dev/zero of=big bs=1M",
		"sudo dd if=/dev/urandom of=/var/tmp/x bs=4M status=progress",
		"dd if=/dev/zero bs=1M > fill.img",
		"fallocate -l 1T big.img",
		"fallocate --length=500G /var/tmp/x",
		"pv /dev/zero > /tmp/z",
		"dd if=/dev/zero of=big bs=1G count=100",
		"dd if=/dev/zero of=/var/tmp/f bs=1M count=100000",
		"yes | head -c 100G > big",
		"head --bytes=1T /dev/urandom > noise",
		"head -c100G /dev/zero > z",
	} {
		fs := analyzeScript(t, cmd)
		if l, ok := levelOf(fs, exhaustRule); !ok || l.String() != "high" {
			t.Errorf("%q: %s at %v (%v), want high; findings:%s", cmd, exhaustRule, l, ok, describe(fs))
		}
	}
	for _, cmd := range []string{
		"yes | head -n 5",
		"yes | apt-get install foo",
		"yes > /dev/null",
		"dd if=/dev/zero of=disk.img bs=1M count=10",
		"dd if=/dev/urandom of=key.bin bs=32 count=1",
		"dd if=image.iso of=out.img",
		"head -c 1M /dev/urandom > r.bin",
		"dd if=/dev/zero of=disk.img bs=1G count=8",
		"dd if=/dev/zero of=/dev/null bs=1G count=1000",
		"dd if=/dev/zero bs=1G count=100 | wc -c",
		"head -c 100G /dev/zero | wc -c",
		"head -c 10G /dev/zero > ten.img",
		"cat /dev/urandom | head -c 32 | base64",
		"fallocate -l 100M swap.img",
		"fallocate -l 2G /swapfile",
		"truncate -s 1T sparse.img",
		"cat notes.txt > copy.txt",
	} {
		fs := analyzeScript(t, cmd)
		if l, ok := levelOf(fs, exhaustRule); ok {
			t.Errorf("%q: %s fires at %s; findings:%s", cmd, exhaustRule, l, describe(fs))
		}
	}
	for s, want := range map[string]int64{"1T": 1 << 40, "500G": 500 << 30, "10MB": 10e6, "3KiB": 3 << 10, "12": 12, "1Q": -1, "": -1, "G": -1} {
		n, ok := parseSize(s)
		if (want < 0) == ok || ok && n != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", s, n, ok, want)
		}
	}
}
