package configcode

import (
	"path"
	"strings"
)

// indexKind returns PackageIndex for the files that say where a package
// manager installs from: .npmrc, .yarnrc(.yml), pip.conf and pip.ini,
// Cargo's config(.toml) under .cargo, .gemrc, Maven's settings.xml,
// NuGet.Config, .condarc, .bunfig.toml and Go's env file.
func indexKind(p, base, dir string) Kind {
	switch base {
	case ".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", ".gemrc", ".condarc", "condarc", "bunfig.toml", ".bunfig.toml", "uv.toml":
		return PackageIndex
	case "npmrc":
		if dir == "/etc" || strings.HasSuffix(dir, "/etc") {
			return PackageIndex
		}
	case "config", "config.toml":
		if path.Base(dir) == ".cargo" {
			return PackageIndex
		}
	case "settings.xml":
		if path.Base(dir) == ".m2" || path.Base(dir) == "conf" {
			return PackageIndex
		}
	case "NuGet.Config", "nuget.config", "NuGet.config":
		return PackageIndex
	case "env":
		if strings.HasSuffix(dir, "/go") {
			return PackageIndex
		}
	}
	return None
}

// IndexURLs returns the URLs that text, a PackageIndex file's content,
// names as where packages come from: the values of the registry and index
// settings (registry=, index-url, extra-index-url, find-links,
// npmRegistryServer, Cargo's registry and index, GOPROXY), a gemrc's and
// condarc's sources and channels, a Maven mirror's url and a NuGet
// source's value.
func IndexURLs(text string) []string {
	var out []string
	inList := false // under a YAML key whose items are sources
	for line := range strings.Lines(text) {
		l := strings.TrimSpace(line)
		low := strings.ToLower(l)
		if low == "" || low[0] == '#' || low[0] == ';' {
			continue
		}
		if strings.HasSuffix(low, ":") && !strings.Contains(low, "://") {
			k := strings.TrimLeft(strings.TrimSuffix(low, ":"), ":")
			inList = k == "sources" || k == "channels" || k == "default_channels"
			continue
		}
		if !strings.Contains(low, "://") {
			continue
		}
		take := inList && strings.HasPrefix(low, "- ")
		if !take {
			for _, k := range []string{"registry", "index-url", "extra-index-url", "find-links", "npmregistryserver", "index", "goproxy",
				"channel_alias", "--source", "<url>", "<add ", "url", "default-index", "source"} {
				if strings.HasPrefix(low, k) || strings.HasPrefix(strings.TrimLeft(low, "\"'"), k) {
					take = true
					break
				}
			}
		}
		if !take {
			continue
		}
		for rest := l; ; {
			i := strings.Index(rest, "://")
			if i < 0 {
				break
			}
			s := i
			for s > 0 && isSchemeByte(rest[s-1]) {
				s--
			}
			e := i + 3
			for e < len(rest) && !strings.ContainsRune(" \t\"'<>,|", rune(rest[e])) {
				e++
			}
			if s < i {
				out = append(out, rest[s:e])
			}
			rest = rest[e:]
		}
	}
	return out
}

func isSchemeByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '+' || b == '.' || b == '-'
}
