// Command minimal is the yardstick of bench/startup.sh: the least a hook
// process does. It reads one JSON line from stdin, decodes it, and writes
// one JSON line.
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func main() {
	line, err := bufio.NewReader(os.Stdin).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		os.Exit(1)
	}
	var action map[string]any
	if err := json.Unmarshal(line, &action); err != nil {
		os.Exit(1)
	}
	out, _ := json.Marshal(map[string]any{"level": "low", "decision": "allow", "tool": action["tool"]})
	os.Stdout.Write(append(out, '\n'))
}
