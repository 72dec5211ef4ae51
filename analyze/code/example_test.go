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
		fmt.Println(f.Rule, f.Level, f.Resource != "")
	}
	fmt.Println("for shell analysis:", c.Shell)
	// Output:
	// code.subprocess low false
	// code.recursive_delete medium true
	// for shell analysis: [rm -rf /home/user/]
}
