// Package audittest is the conformance suite every audit.Backend passes:
// Run appends, reads back, filters, commits concurrently, prunes and
// tampers with a backend's chain, and checks that audit.Verify names the
// first bad event of each tampering.
//
// A backend's tests call Run with a function that opens an empty chain,
// and one that tampers with it as someone who can write its database
// would (a Tamperer).
package audittest
