// Command gen writes each hostile input (package hostile) as a Bash tool
// call, one JSON file per input, into the directory it is given; it
// prints the files' names.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentwarden/warden/internal/hostile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	for _, in := range hostile.Inputs() {
		data, err := json.Marshal(map[string]any{"tool": "Bash", "arguments": map[string]any{"command": in.Script}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		name := filepath.Join(os.Args[1], in.Name+".json")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(name)
	}
}
