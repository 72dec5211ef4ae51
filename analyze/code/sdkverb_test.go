package code

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestSDKMethodNames: a method named for the service resource it deletes
// is a deletion on any client (inline.SDKDelete); collections' own
// methods and positions are not.
func TestSDKMethodNames(t *testing.T) {
	runCodeTests(t, []codeTest{
		{"elasticsearch unbound", "client.indices.delete(index='logs')", []check{has(RuleCloudDelete, risk.High)}},
		{"algolia", "from algoliasearch.search_client import SearchClient\nc = SearchClient.create('a', 'k')\nc.init_index('products').clear_objects()", []check{has(RuleCloudDelete, risk.High)}},
		{"mongo", "from pymongo import MongoClient\nMongoClient().prod.drop_collection('users')", []check{has(RuleCloudDelete, risk.High)}},
		{"redis", "import redis\nredis.Redis(host='cache').flushall()", []check{has(RuleCloudDelete, risk.High)}},
		{"typesense", "client.collections['books'].delete()\nclient.delete_collection('books')", []check{has(RuleCloudDelete, risk.High)}},
		{"dynamodb", "import boto3\nboto3.resource('dynamodb').meta.client.delete_table(TableName='orders')", []check{has(RuleCloudDelete, risk.High)}},
		{"collections", "d = {}\nd.clear()\nl = [1]\nl.remove(1)\ns = set()\ns.discard(1)\ncache.delete('k')", []check{lacks(RuleCloudDelete)}},
		{"position", "tabs.remove_index(3)", []check{lacks(RuleCloudDelete)}},
		{"reads", "client.indices.get(index='logs')\nclient.list_indices()\nclient.describe_table(TableName='t')", []check{lacks(RuleCloudDelete)}},
	})
}
