// Package inline reads the short programs of other languages that a
// command line carries inline (perl -e, ruby -e, node -e, php -r, awk
// programs, sed scripts, vim's -c ':!…') and says what they do in terms
// the shell analyzer already judges.
//
// It is a token scanner, not a parser: it knows each language's strings
// (quotes, escapes, interpolation such as "$x", "#{x}", `${x}`, Perl's
// q qq qx and Ruby's %q %Q %x), its comments, and a table of the calls
// that run commands (system, exec, spawn, backticks, qx, popen …), delete
// files (unlink, rmSync, FileUtils.rm_rf, rmtree …), write files
// (writeFileSync, File.write, file_put_contents, open(F, ">f"), awk's
// print > "f") and open connections (fetch, http.request, Net::HTTP, LWP,
// fsockopen …). The literal arguments of such calls are rendered as the
// shell command lines they amount to (rm -rf PATH, : > PATH, curl URL, or
// the command line itself), which the caller hands to shell analysis; a
// piece of an argument computed at run time reads as "$WARDEN_DYNAMIC", and
// a command computed entirely at run time is a finding of its own
// (inline.dynamic_exec, high). A method of a service SDK named for the
// resource it deletes (client.deleteIndex, s3.delete_bucket, new
// DeleteBucketCommand: SDKDelete) is a finding too (inline.sdk_delete,
// high); the Python analyzer reads the same names. Files the program
// reads (readFileSync, File.read, file_get_contents, open for reading) are
// rendered as cat PATH; and since a token scanner cannot follow what is
// done with what was read, a program that reads files and also sends data
// (a request with a body or a method that sends, a URL built at run time,
// a socket) yields the pipelines that send each file there (cat PATH |
// curl --data-binary @- URL), judged as the shell judges them: a
// credential file sent out is exfiltration. An environment variable in a
// request's URL or body stays in the rendered line as ${NAME}. Scanning
// is linear in the program's size and charges the caller's budget.
package inline
