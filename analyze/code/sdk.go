package code

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Cloud and container SDKs do through an API what their command-line
// tools do: boto3's delete_db_instance is `aws rds delete-db-instance`,
// docker's containers.run is `docker run`. Their calls are rendered as
// those command lines and added for shell analysis, which already knows
// which ones destroy data or escape a container; deletions are also
// findings of their own.

// registerSDKs adds the cloud and container SDKs' calls to funcs.
func registerSDKs(funcs map[string]handler) {
	reg := func(h handler, names ...string) {
		for _, n := range names {
			funcs[n] = h
		}
	}
	reg(func(a *analysis, c *args) value { return awsClient("aws:", c) }, "boto3.client", "boto3.session.Session.client")
	reg(func(a *analysis, c *args) value { return awsClient("aws-res:", c) }, "boto3.resource", "boto3.session.Session.resource")
	reg(func(a *analysis, c *args) value { return value{k: kObj, s: "aws-session"} }, "boto3.Session", "boto3.session.Session")
	reg(func(a *analysis, c *args) value { return value{k: kObj, s: "gcs"} }, "google.cloud.storage.Client", "google.cloud.storage.Client.from_service_account_json")
	reg(func(a *analysis, c *args) value { return value{k: kObj, s: "docker"} }, "docker.from_env", "docker.DockerClient", "docker.Client", "docker.APIClient")
	for _, api := range []string{"CoreV1Api", "AppsV1Api", "BatchV1Api", "RbacAuthorizationV1Api", "NetworkingV1Api", "StorageV1Api", "CustomObjectsApi"} {
		reg(func(a *analysis, c *args) value { return value{k: kObj, s: "k8s"} }, "kubernetes.client."+api)
	}
}

// awsClient makes a boto3 client or resource for the service named by the
// first argument.
func awsClient(prefix string, c *args) value {
	svc, ok := c.arg(0, "service_name").static()
	if !ok || svc == "" {
		svc = dyn
	}
	return value{k: kObj, s: prefix + svc}
}

// sdkAttr evaluates attributes of SDK objects that lead to others.
func sdkAttr(x value, name string) (value, bool) {
	switch {
	case x.s == "s3bucket" && (name == "objects" || name == "object_versions"):
		return value{k: kObj, s: "s3objects", obj: x.obj}, true
	case x.s == "docker" && name == "containers":
		return value{k: kObj, s: "docker.containers"}, true
	}
	return value{}, false
}

// sdkMethod evaluates methods of SDK objects; ok is false for objects that
// are not SDK ones.
func (a *analysis) sdkMethod(r value, m string, c *args) (value, bool) {
	switch {
	case r.s == "aws-session":
		switch m {
		case "client":
			return awsClient("aws:", c), true
		case "resource":
			return awsClient("aws-res:", c), true
		}
		return dynValue, true
	case strings.HasPrefix(r.s, "aws:"):
		a.awsCall(r.s[len("aws:"):], m, c)
		return value{k: kObj, s: "response", t: tNet}, true
	case r.s == "aws-res:s3":
		switch m {
		case "Bucket":
			name := c.arg(0, "name")
			return value{k: kObj, s: "s3bucket", obj: &object{url: &name}}, true
		case "Object":
			u := concat(concat(c.arg(0, "bucket_name"), str("/")), c.arg(1, "key"))
			return value{k: kObj, s: "s3object", obj: &object{url: &u}}, true
		}
		return dynValue, true
	case r.s == "s3bucket", r.s == "s3objects", r.s == "s3object":
		switch m {
		case "all", "filter", "limit", "page_size":
			return r, true
		case "delete", "delete_objects":
			target := concat(str("s3://"), *r.obj.url)
			switch r.s {
			case "s3bucket":
				a.cliLine("aws", "aws s3 rb "+renderShellWord(target.text())+" --force", "the S3 API")
			case "s3objects":
				a.cliLine("aws", "aws s3 rm "+renderShellWord(target.text())+" --recursive", "the S3 API")
			default:
				a.cliLine("aws", "aws s3 rm "+renderShellWord(target.text()), "the S3 API")
			}
			a.cloudDelete("Code deletes S3 data through the S3 API")
			return dynValue, true
		}
		return dynValue, true
	case r.s == "gcs":
		if m == "bucket" || m == "get_bucket" || m == "lookup_bucket" {
			name := c.arg(0, "bucket_name")
			return value{k: kObj, s: "gcsbucket", obj: &object{url: &name}}, true
		}
		return dynValue, true
	case r.s == "gcsbucket":
		switch m {
		case "blob", "get_blob":
			u := concat(concat(*r.obj.url, str("/")), c.arg(0, "blob_name"))
			return value{k: kObj, s: "gcsblob", obj: &object{url: &u}}, true
		case "delete":
			target := concat(str("gs://"), *r.obj.url)
			if f, ok := c.kwarg("force"); ok && (truthy(f) || f.k == kDyn) {
				a.cliLine("gsutil", "gsutil rm -r "+renderShellWord(target.text()), "the Cloud Storage API")
			} else {
				a.cliLine("gsutil", "gsutil rb "+renderShellWord(target.text()), "the Cloud Storage API")
			}
			a.cloudDelete("Code deletes a Cloud Storage bucket through its API")
			return dynValue, true
		case "delete_blobs", "delete_blob":
			a.cliLine("gsutil", "gsutil rm "+renderShellWord(concat(str("gs://"), *r.obj.url).text()+"/*"), "the Cloud Storage API")
			a.cloudDelete("Code deletes Cloud Storage objects through its API")
			return dynValue, true
		}
		return dynValue, true
	case r.s == "gcsblob":
		if m == "delete" {
			a.cliLine("gsutil", "gsutil rm "+renderShellWord(concat(str("gs://"), *r.obj.url).text()), "the Cloud Storage API")
			a.cloudDelete("Code deletes a Cloud Storage object through its API")
		}
		return dynValue, true
	case r.s == "docker.containers":
		if m == "run" || m == "create" {
			a.dockerRun(c)
		}
		return value{k: kObj, s: "container"}, true
	case r.s == "k8s":
		a.k8sCall(m, c)
		return dynValue, true
	}
	return value{}, false
}

// awsCall renders a boto3 client call as the aws command doing the same:
// s3.delete_bucket(Bucket='b') is `aws s3 delete-bucket --bucket b`.
func (a *analysis) awsCall(svc, op string, c *args) {
	if strings.HasPrefix(op, "get_paginator") || strings.HasPrefix(op, "get_waiter") || strings.HasPrefix(op, "can_paginate") || op == "close" {
		return
	}
	svcWord := svc
	if svc == "s3" {
		svcWord = "s3api" // the low-level S3 commands
	}
	var b strings.Builder
	b.WriteString("aws " + renderShellWord(svcWord) + " " + kebab(op))
	for _, kw := range c.kw {
		flag := " --" + kebab(kw.name)
		switch v := kw.v; {
		case v.k == kBool:
			if v.n != 0 {
				b.WriteString(flag)
			} else {
				b.WriteString(" --no-" + kebab(kw.name))
			}
		case v.k == kList:
			b.WriteString(flag)
			for _, it := range v.items {
				b.WriteString(" " + renderShellWord(it.text()))
			}
		case (v.textual() || v.k == kInt) && len(v.s) <= 256:
			b.WriteString(flag + " " + renderShellWord(v.text()))
		case v.textual(): // a body, not a name: it says nothing about the operation
			b.WriteString(flag + " " + dynWord)
		case v.k == kDyn:
			b.WriteString(flag + " " + dynWord)
		}
	}
	a.cliLine("aws", b.String(), "the AWS API")
	for _, verb := range []string{"delete_", "terminate_", "purge_", "destroy_"} {
		if strings.HasPrefix(op, verb) {
			a.cloudDelete("Code calls " + plainOr(svc, "an AWS service") + " " + plainOr(op, "a deletion") + " through the AWS API, destroying cloud resources")
			return
		}
	}
}

// plainOr returns s if it is safe to show, else alt.
func plainOr(s, alt string) string {
	if plainWord(s) {
		return s
	}
	return alt
}

// kebab turns snake_case or CamelCase into the aws CLI's kebab-case:
// DBInstanceIdentifier is db-instance-identifier.
func kebab(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_':
			b.WriteByte('-')
		case c >= 'A' && c <= 'Z':
			if i > 0 && s[i-1] != '_' {
				prevLower := s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= '0' && s[i-1] <= '9'
				nextLower := i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z'
				prevUpper := s[i-1] >= 'A' && s[i-1] <= 'Z'
				if prevLower || prevUpper && nextLower {
					b.WriteByte('-')
				}
			}
			b.WriteByte(c + 'a' - 'A')
		case isNameByte(c):
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dockerRun renders docker's containers.run as `docker run`.
func (a *analysis) dockerRun(c *args) {
	var b strings.Builder
	b.WriteString("docker run")
	if v, ok := c.kwarg("privileged"); ok && (truthy(v) || v.k == kDyn) {
		b.WriteString(" --privileged")
	}
	for _, k := range []string{"pid_mode", "network_mode", "ipc_mode", "userns_mode", "uts_mode"} {
		if v, ok := c.kwarg(k); ok && v.textual() {
			b.WriteString(" --" + strings.TrimSuffix(k, "_mode") + "=" + renderShellWord(v.text()))
		}
	}
	if v, ok := c.kwarg("cap_add"); ok && v.k == kList {
		for _, it := range v.items {
			b.WriteString(" --cap-add " + renderShellWord(it.text()))
		}
	}
	if v, ok := c.kwarg("devices"); ok && v.k == kList {
		for _, it := range v.items {
			b.WriteString(" --device " + renderShellWord(it.text()))
		}
	}
	if v, ok := c.kwarg("volumes"); ok {
		switch v.k {
		case kList:
			for _, it := range v.items {
				b.WriteString(" -v " + renderShellWord(it.text()))
			}
		case kDict:
			for i := 0; i+1 < len(v.items); i += 2 {
				host, spec := v.items[i], v.items[i+1]
				bind := dynValue
				if spec.k == kDict {
					for j := 0; j+1 < len(spec.items); j += 2 {
						if k, _ := spec.items[j].static(); k == "bind" {
							bind = spec.items[j+1]
						}
					}
				} else if spec.textual() {
					bind = spec
				}
				b.WriteString(" -v " + renderShellWord(host.text()+":"+bind.text()))
			}
		}
	}
	b.WriteString(" " + renderShellWord(c.arg(0, "image").text()))
	if cmd, ok := c.get(1, "command"); ok {
		switch {
		case cmd.k == kList:
			for _, it := range cmd.items {
				b.WriteString(" " + renderShellWord(it.text()))
			}
		case cmd.textual():
			b.WriteString(" " + renderScript(cmd.s))
		}
	}
	a.cliLine("docker", b.String(), "the Docker API")
}

// k8sCall renders kubernetes client deletions as kubectl delete.
func (a *analysis) k8sCall(m string, c *args) {
	kind, ns := "", false
	switch {
	case strings.HasPrefix(m, "delete_collection_namespaced_"):
		kind, ns = m[len("delete_collection_namespaced_"):], true
	case strings.HasPrefix(m, "delete_namespaced_"):
		kind, ns = m[len("delete_namespaced_"):], true
	case strings.HasPrefix(m, "delete_"):
		kind = m[len("delete_"):]
	default:
		return
	}
	line := "kubectl delete " + kebab(kind)
	if !strings.HasPrefix(m, "delete_collection") {
		line += " " + renderShellWord(c.arg(0, "name").text())
	} else {
		line += " --all"
	}
	if ns {
		pos := 1
		if strings.HasPrefix(m, "delete_collection") {
			pos = 0
		}
		line += " -n " + renderShellWord(c.arg(pos, "namespace").text())
	}
	a.cliLine("kubectl", line, "the Kubernetes API")
	a.cloudDelete("Code deletes Kubernetes " + plainOr(kind, "resources") + " through the Kubernetes API")
}

// cliLine adds the command line an SDK call amounts to, for shell analysis.
func (a *analysis) cliLine(prog, line, api string) {
	line = validText(line)
	a.appendTo(&a.call.Shell, line)
	a.add(risk.Finding{Rule: RuleCloudAPI, Level: risk.Low, Reversible: true,
		Reason: "Code calls " + api + "; the call is assessed as the equivalent " + prog + " command"})
}

func (a *analysis) cloudDelete(reason string) {
	a.add(risk.Finding{Rule: RuleCloudDelete, Level: risk.High, Reason: reason})
}

// tamperTargets are files whose truncation or removal erases traces.
var tamperHome = []string{".bash_history", ".zsh_history", ".history", ".python_history", ".node_repl_history",
	".mysql_history", ".psql_history", ".sqlite_history", ".lesshst", ".local/share/fish/fish_history"}

// tampers reports an absolute path whose loss hides what happened: shell
// histories and system logs.
func tampers(p, home string) bool {
	if strings.HasPrefix(p, "/var/log/") || p == "/var/log" {
		return true
	}
	if home != "" && strings.HasPrefix(p, home+"/") {
		return slices.Contains(tamperHome, p[len(home)+1:])
	}
	return false
}
