package inline

import (
	"strings"
	"sync"
)

// Service SDKs and API clients delete through methods named for what they
// delete: client.deleteIndex('prod'), algolia.clearObjects('products'),
// s3.delete_bucket(Bucket='x'), db.dropDatabase(), knex.schema.dropTable,
// new DeleteBucketCommand({...}). SDKDelete reads a method name the way
// the shell's verb grammar reads a subcommand word (split on _ and case
// changes): it deletes a service's resource when
//   - its first token (after modifiers: force, bulk, batch, hard,
//     permanently) is a destructive verb (sdkTables' verbs) and a later token
//     names a service resource (nouns): deleteIndex, delete_bucket,
//     terminate_instances, dropTable, clearObjects, deleteAllDocuments;
//   - or it is a bare destructive verb called on an attribute that names
//     a collection of such resources (collections):
//     client.indices.delete(index='logs'), admin.buckets.remove(b);
//   - or it is redis's flushall or flushdb.
//
// What is left out on purpose: a verb with no resource noun, the
// methods of the languages' own collections and of the DOM (map.delete,
// list.remove, dict.clear, set.discard, removeChild, clearTimeout,
// removeEventListener, localStorage.removeItem, classList.remove,
// deleteRow, headers.delete), whose nouns are not services' resources.
// A bare verb on a client made in the same program from a known SDK
// constructor (es = Elasticsearch(); es.delete(...)) is not read.
func SDKDelete(recv, method string) (noun string, ok bool) {
	if len(method) > 64 || len(recv) > 64 {
		return "", false
	}
	w := sdkTables()
	var buf [64]byte
	low := string(AppendLower(buf[:0], method))
	if low == "flushall" || low == "flushdb" {
		return "database", true
	}
	rest := method
	head := ""
	for rest != "" {
		tok, tail := splitToken(rest)
		t := strings.ToLower(tok)
		rest = tail
		if head == "" {
			if w.modifiers[t] {
				continue
			}
			if !w.verbs[t] {
				return "", false
			}
			head = t
			continue
		}
		if w.nouns[t] {
			return t, true
		}
	}
	if head != "" && low == head {
		r := string(AppendLower(buf[:0], recv))
		if w.collections[r] {
			return r, true
		}
	}
	return "", false
}

// sdkTables are SDKDelete's words, built on first use (nothing runs at
// package init):
//   - verbs: destructive verbs;
//   - modifiers: words before the verb (forceDelete, bulk_delete);
//   - nouns: a service's resources, what an SDK deletes by name;
//   - collections: attributes through which a client reaches a kind of
//     resource (client.indices.delete, s3.buckets.remove).
var sdkTables = sync.OnceValue(func() *sdkWords {
	return &sdkWords{
		verbs: set(`delete remove destroy drop purge truncate terminate clear wipe erase flush deregister
deprovision empty`),
		modifiers: set(`force hard bulk batch permanently permanent`),
		nouns: set(`index indices indexes bucket buckets table tables database databases db collection
collections cluster clusters instance instances volume volumes snapshot snapshots topic topics queue queues stream
streams namespace namespaces repository repositories repo repos project projects deployment deployments stack stacks
keyspace keyspaces schema schemas objects documents secret secrets`),
		collections: set(`indices indexes buckets tables databases collections clusters instances volumes
snapshots topics queues streams namespaces repositories repos projects deployments stacks keyspaces schemas secrets`),
	}
})

type sdkWords struct{ verbs, modifiers, nouns, collections map[string]bool }

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// splitToken splits the first token off a method name: up to _ or -, or
// to a change from lower to upper case (deleteIndex), or from an upper
// case run to a capitalised word (DBInstance).
func splitToken(w string) (tok, rest string) {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c == '_' || c == '-' {
			if i == 0 {
				return splitToken(w[1:])
			}
			return w[:i], w[i+1:]
		}
		if i > 0 && c >= 'A' && c <= 'Z' {
			p := w[i-1]
			if p >= 'a' && p <= 'z' || p >= '0' && p <= '9' ||
				p >= 'A' && p <= 'Z' && i+1 < len(w) && w[i+1] >= 'a' && w[i+1] <= 'z' {
				return w[:i], w[i:]
			}
		}
	}
	return w, ""
}

// AppendLower appends s to b with its ASCII letters in lower case (other
// bytes as they are), without allocating when b has room: the shell's
// verb grammar and the SDK method reader lower words this way.
func AppendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}
