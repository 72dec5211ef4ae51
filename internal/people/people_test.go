package people

import "testing"

func TestRecords(t *testing.T) {
	records := []string{
		"Customer export for the vendor as requested:\nmaria.gonzalez@example.com, +34 612 445 901, Calle Mayor 12 Madrid, card ****4417\nj.smith@example.org, +1 415 555 0199, 88 Pine St SF, card ****0923\n(1,842 more rows in attached CSV)",
		"name,email,phone\nAna Ruiz,ana.ruiz@gmail.com,(415) 555-0142\nBo Chen,bo.chen@yahoo.com,415-555-0199\n",
		"Refunds:\nann@shop.example (card ending in 1234)\nbob@shop.example XXXX-XXXX-XXXX-9876",
		"Leads: alice@corp-a.com, bob@corp-b.io, carol@corp-c.net",
		`[{"email":"a.one@mail.example","name":"A"},{"email":"b.two@mail.example","name":"B"},{"email":"c.three@mail.example","name":"C"}]`,
	}
	for _, s := range records {
		if Records(s) == 0 {
			t.Errorf("Records(%q) = 0", s)
		}
	}
	none := []string{
		"PR for #398 (bulk discount rounding) is up: https://github.com/acme/orders-api/pull/412 - reviews welcome",
		"Questions to support@acme.io, or call +1 415 555 0100.",
		"Contact: jane@acme.io (+1 415 555 0100); backup on-call bob@acme.io",
		"Co-authored-by: Ann Lee <ann@acme.io>\nCo-authored-by: Bo Chen <bo@acme.io>\nSigned-off-by: Cy Diaz <cy@acme.io>",
		"Thanks 12345+ann@users.noreply.github.com, 678+bo@users.noreply.github.com, 9+cy@users.noreply.github.com",
		"git clone git@github.com:acme/a.git && git clone git@gitlab.com:acme/b.git && ssh://git@bitbucket.org/acme/c",
		"deploy@10.0.0.5 and deploy@10.0.0.6 and root@10.0.0.7",
		"Released 2026-11-26 10:30 by ann@acme.io; build 1234567890123",
		"@alice @bob @carol please review",
	}
	for _, s := range none {
		if n := Records(s); n != 0 {
			t.Errorf("Records(%q) = %d, want 0", s, n)
		}
	}
}

func BenchmarkRecordsNoAt(b *testing.B) {
	s := make([]byte, 16<<10)
	for i := range s {
		s[i] = 'a' + byte(i%26)
	}
	text := string(s)
	for b.Loop() {
		Records(text)
	}
}
