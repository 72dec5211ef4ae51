package paths

import "strings"

// Served reports a path below a folder that web servers and static sites
// publish as it is: a web root (/var/www, /srv/www, /usr/share/nginx/html),
// or a project's public/, public_html/, static/, www/, htdocs/, wwwroot/
// or webroot/ (not one inside node_modules or a vendored package). A
// relative path is read by its folders' names. Build outputs (dist/,
// build/) and docs/ are not read as served: a build overwrites them, and
// docs/ is most often sources. Whatever is written there can be fetched by
// whoever reaches the site.
func Served(p string) bool {
	if strings.HasPrefix(p, "/var/www/") || strings.HasPrefix(p, "/srv/www/") || strings.HasPrefix(p, "/usr/share/nginx/html/") {
		return true
	}
	dir := "/" + p[:max(strings.LastIndexByte(p, '/'), 0)]
	if strings.Contains(dir, "/node_modules/") || strings.Contains(dir, "/vendor/") || strings.Contains(dir, "/site-packages/") {
		return false
	}
	for w := range strings.SplitSeq(dir, "/") {
		switch w {
		case "public", "public_html", "static", "www", "htdocs", "wwwroot", "webroot":
			return true
		}
	}
	return false
}
