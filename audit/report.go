package audit

import (
	"fmt"
	"sort"
)

// Report is what Verify found.
type Report struct {
	// OK is true when nothing is wrong.
	OK bool
	// Events is how many events the store holds; First and Last the
	// first and last Seq of the chain (the Head's First and Seq).
	Events      int64
	First, Last int64
	// Checkpoints is how many checkpoints were read; SignedThrough the
	// highest Seq a checkpoint that matches the chain covers (with a key:
	// whose signature verifies), 0 when none does.
	Checkpoints   int
	SignedThrough int64
	// Pruned is true when the chain starts after a prune, at the anchor
	// event Anchor (First-1), which the store no longer holds.
	Pruned bool
	Anchor int64
	// FirstBad is the first Seq a problem names, 0 when OK.
	FirstBad int64
	// Problems are what is wrong, in Seq order: at most maxProblems, the
	// first ones; More counts those left out.
	Problems []Problem
	More     int
	// KeyChecked is true when signatures were checked with a public key.
	KeyChecked bool
}

// Problem is one thing wrong with a chain, at the event of Seq.
type Problem struct {
	Seq  int64
	What string
}

// maxProblems caps the problems a Report lists: a chain rewritten from
// the start has a problem at every event.
const maxProblems = 100

// add notes a problem at seq, keeping the first maxProblems in Seq order
// (problems of one Seq in the order found).
func (r *Report) add(seq int64, format string, args ...any) {
	seq = max(seq, 1) // a checkpoint of a chain cut to nothing, or worse; 0 means OK
	if r.FirstBad == 0 || seq < r.FirstBad {
		r.FirstBad = seq
	}
	i := sort.Search(len(r.Problems), func(i int) bool { return r.Problems[i].Seq > seq })
	if i == maxProblems {
		r.More++
		return
	}
	r.Problems = append(r.Problems, Problem{})
	copy(r.Problems[i+1:], r.Problems[i:])
	r.Problems[i] = Problem{Seq: seq, What: fmt.Sprintf(format, args...)}
	if len(r.Problems) > maxProblems {
		r.Problems = r.Problems[:maxProblems]
		r.More++
	}
}
