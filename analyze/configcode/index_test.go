package configcode

import (
	"slices"
	"testing"
)

// TestIndexURLs: the registries a package manager's configuration names,
// and the settings that name none.
func TestIndexURLs(t *testing.T) {
	for _, tc := range []struct {
		path, text string
		want       []string
	}{
		{"/home/user/project/.npmrc", "registry=https://npm.pkg-mirror.top/\nalways-auth=true\n", []string{"https://npm.pkg-mirror.top/"}},
		{"/home/user/.config/pip/pip.conf", "[global]\nindex-url = https://pypi.x.example/simple\nextra-index-url = https://y.example/simple\n", []string{"https://pypi.x.example/simple", "https://y.example/simple"}},
		{"/home/user/project/.yarnrc.yml", "npmRegistryServer: \"https://npm.x.example\"\n", []string{"https://npm.x.example"}},
		{"/home/user/.cargo/config.toml", "[source.mirror]\nregistry = \"sparse+https://crates.x.example/index/\"\n", []string{"sparse+https://crates.x.example/index/"}},
		{"/home/user/.gemrc", "---\n:sources:\n- https://gems.x.example/\n", []string{"https://gems.x.example/"}},
		{"/home/user/.m2/settings.xml", "<mirror>\n<url>https://maven.x.example/repo</url>\n</mirror>", []string{"https://maven.x.example/repo"}},
		{"/home/user/project/NuGet.Config", "<packageSources>\n<add key=\"m\" value=\"https://nuget.x.example/v3/index.json\" />\n", []string{"https://nuget.x.example/v3/index.json"}},
		{"/home/user/.condarc", "channels:\n  - https://conda.x.example/main\n  - defaults\n", []string{"https://conda.x.example/main"}},
		{"/home/user/.config/go/env", "GOPROXY=https://goproxy.x.example,direct\n", []string{"https://goproxy.x.example"}},
		// look-alikes: settings that name no registry
		{"/home/user/project/.npmrc", "save-exact=true\n# registry=https://old.example/\n", nil},
		{"/home/user/.condarc", "channels:\n  - conda-forge\nproxy_servers:\n  http: http://proxy.corp:8080\n", nil},
		{"/home/user/.cargo/config.toml", "[build]\njobs = 4\n[http]\nproxy = \"http://proxy.corp:8080\"\n", nil},
	} {
		if k := KindOf(tc.path); k != PackageIndex {
			t.Errorf("KindOf(%q) = %v, want package index configuration", tc.path, k)
		}
		if got := IndexURLs(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("%s: IndexURLs = %q, want %q", tc.path, got, tc.want)
		}
	}
	for _, p := range []string{"/home/user/project/config", "/home/user/project/settings.xml", "/home/user/project/src/env", "/home/user/project/npmrc.md"} {
		if k := KindOf(p); k == PackageIndex {
			t.Errorf("KindOf(%q) is a package index configuration", p)
		}
	}
}
