// Package risk is warden's vocabulary: risk levels and scores, the proposed
// tool call (Action), the reasons found for its risk (Finding), the combined
// judgement (Assessment) and the outcome (Decision).
//
// Every other package speaks these types. A Level's zero value is Unknown, so
// a forgotten assignment can never read as Safe.
package risk
