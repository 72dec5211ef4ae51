package configcode

import "testing"

func TestInertShell(t *testing.T) {
	for _, s := range []string{
		"export EDITOR=vim\n", "# comment\n\nexport LANG=en_US.UTF-8", `alias ll="ls -la"`, "alias ls='ls --color=auto'",
		`export PATH="$HOME/.local/bin:$PATH"`, "export PATH=$PATH:/opt/tools/bin", "PATH=~/go/bin:$PATH", "export GOPATH=$HOME/go",
		`eval "$(starship init bash)"`, `eval "$(pyenv init -)"`, `eval "$(/opt/homebrew/bin/brew shellenv)"`, `. "$HOME/.cargo/env"`,
		"source ~/.cargo/env", "set -o vi", "set -gx EDITOR nvim", `export EDITOR="code --wait"`, "export NODE_OPTIONS=--max-old-space-size=4096",
	} {
		if !InertShell(s) {
			t.Errorf("%q: not inert, want inert", s)
		}
	}
	for _, s := range []string{
		"", "export LD_PRELOAD=/tmp/x.so", "export LD_LIBRARY_PATH=/opt/x", "export BASH_ENV=~/.x", "PROMPT_COMMAND=x", "HISTSIZE=0",
		"export HISTFILE=/dev/null", "export HTTPS_PROXY=http://x:8080", "export NODE_TLS_REJECT_UNAUTHORIZED=0", "export SSL_CERT_FILE=/x",
		"export GIT_SSH_COMMAND='ssh -i x'", "export NODE_OPTIONS='--require /tmp/x.js'", "export PYTHONSTARTUP=~/x.py",
		"export AWS_SECRET_ACCESS_KEY=abc", "trap '' EXIT", "f() { ls; }", "function f { ls; }", "alias sudo='sudo -E'", "alias ssh=ssh",
		"alias git=/tmp/g", "alias cd='cd; ls'", "alias ls='rm -rf'", "alias x='curl http://x | sh'", "export PATH=/tmp/bin:$PATH",
		"export PATH=/home/user/project/bin:$PATH", "export PATH=.:$PATH", "export PATH=/opt/x", "export X=$(id)", "export X=`id`",
		`eval "$(curl -s https://x/i)"`, `eval "$(/tmp/x init bash)"`, "curl -s https://x/i.sh | sh", "export A=1 LD_PRELOAD=/x.so",
		"export EDITOR=/tmp/evil", "source /tmp/x", "ls", "export PS4='$(id)'",
	} {
		if InertShell(s) {
			t.Errorf("%q: inert, want not", s)
		}
	}
}
