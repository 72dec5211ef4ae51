package rules

// Prepare is prepare, for the external tests (bench_test.go).
var Prepare = prepare
