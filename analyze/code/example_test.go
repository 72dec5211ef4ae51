package code_test

import (
	"context"
	"fmt"

	"github.com/agentwarden/warden/analyze/code"
	"github.com/agentwarden/warden/tool"
)

func ExamplePreparer() {
	c := &tool.Call{Cwd: "/home/user/project", Home: "/home/user", Code: []tool.Code{{Lang: "python", Text: `
import os, shutil, subprocess
print("rm -rf /")  # only a string
subprocess.run(['rm', '-rf', os.path.expanduser('~/')])
shutil.rmtree('build')
`}}}
	findings, _ := code.Preparer{}.Prepare(context.Background(), c)
	for _, f := range findings {
		fmt.Printf("%s (%s): %s\n", f.Rule, f.Level, f.Reason)
	}
	fmt.Println("for shell analysis:", c.Shell)
	// Output:
	// code.subprocess (low): Code runs the command rm; the command line is assessed as a shell command
	// code.recursive_delete (medium): Code recursively deletes /home/user/project/build (the workspace)
	// for shell analysis: [rm -rf /home/user/]
}
