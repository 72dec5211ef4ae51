package audit_test

import (
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/audit/audittest"
)

func TestMemoryConformance(t *testing.T) {
	audittest.Run(t,
		func(*testing.T) audit.Backend { return audit.NewMemory() },
		func(_ *testing.T, b audit.Backend) audittest.Tamperer {
			return audit.MemoryTamperer{M: b.(*audit.Memory)}
		})
}
