// Command warden assesses and decides on the tool calls of AI agents.
package main

import "os"

func main() {
	deferGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
