package install

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// FuzzParse: what the strict scanner accepts, encoding/json accepts, and
// both read the same values; JSONC with its comments taken out reads as
// the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"a": [1, -2.5e3, "x\u00e9\ud83c\udf89", true, null]}`, `"\"\\\/\b\f\n\r\t"`, `[{"a":{}}]`, `01`, `1.`, `{"a":1,}`, "{\"a\":\"\x01\"}", `{"a" 1}`, "// x\n{}", "/* */[]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, err := parse([]byte(text), false)
		if err != nil {
			if se, ok := err.(*SyntaxError); !ok || se.Line < 1 || se.Col < 1 {
				t.Fatalf("error %v (%T)", err, err)
			}
		} else {
			var want any
			if err := json.Unmarshal([]byte(text), &want); err != nil {
				t.Fatalf("accepted what encoding/json refuses (%v): %q", err, text)
			}
			if got := plain(valueOf(d.root)); !reflect.DeepEqual(got, want) {
				t.Fatalf("read %#v, encoding/json %#v: %q", got, want, text)
			}
		}
		dc, err := parse([]byte(text), true)
		if err != nil {
			return
		}
		stripped := []byte(text)
		for i := len(dc.comments) - 1; i >= 0; i-- {
			c := dc.comments[i]
			stripped = splice(stripped, c.start, c.end, " ")
		}
		d2, err := parse(stripped, false)
		if err != nil || !reflect.DeepEqual(plain(valueOf(d2.root)), plain(valueOf(dc.root))) {
			t.Fatalf("without its comments %q reads otherwise: %v", stripped, err)
		}
	})
}

// plain turns a value into what encoding/json decodes into any.
func plain(v value) any {
	switch v := v.(type) {
	case obj:
		m := map[string]any{}
		for _, kv := range v {
			m[kv.k] = plain(kv.v)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	case number:
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	}
	return v
}
