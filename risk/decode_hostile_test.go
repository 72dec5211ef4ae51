package risk

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// hostileJSON writes to b a JSON value, or something near one, of the
// shapes the decoder must decide as encoding/json does: deep nesting
// (about the limits), long strings (about the room strings share) and
// many values (about how many take makes at a time), invalid UTF-8,
// control characters, every escape and lone surrogates, duplicate keys,
// numbers at the edges of float64 and of JSON's grammar. bad is the
// chance of a byte that is not JSON's. Containers are nested depth
// deep at most, and made while b is shorter than hostileSize.
func hostileJSON(r *rand.Rand, b *strings.Builder, depth int, bad float64) {
	if b.Len() > hostileSize {
		depth = 0
	}
	if r.Float64() < bad {
		b.WriteString(hostileBad[r.IntN(len(hostileBad))])
		return
	}
	k := r.IntN(10)
	if depth > 8 {
		k = r.IntN(5) // deep: a container
	}
	switch {
	case k < 3 && depth > 0:
		b.WriteByte('{')
		n := r.IntN(12)
		if r.IntN(8) == 0 {
			n = 20 + r.IntN(100) // more members than take makes at a time
		}
		if depth > 8 {
			n = 1 + r.IntN(2) // deep, not wide
		}
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			if r.IntN(4) == 0 {
				b.WriteString(hostileKeys[r.IntN(len(hostileKeys))]) // duplicates, escaped keys
			} else {
				hostileString(r, b, bad)
			}
			b.WriteString([]string{":", " : ", "\t:\n"}[r.IntN(3)])
			hostileJSON(r, b, depth-1, bad)
		}
		b.WriteByte('}')
	case k < 5 && depth > 0:
		b.WriteByte('[')
		n := r.IntN(12)
		if r.IntN(8) == 0 {
			n = 20 + r.IntN(200)
		}
		if depth > 8 {
			n = 1 + r.IntN(2)
		}
		for i := range n {
			if i > 0 {
				b.WriteString([]string{",", " , ", ",\n"}[r.IntN(3)])
			}
			hostileJSON(r, b, depth-1, bad)
		}
		b.WriteByte(']')
	case k < 7:
		hostileString(r, b, bad)
	case k < 9:
		b.WriteString(hostileNumbers[r.IntN(len(hostileNumbers))])
	default:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	}
}

// hostileSize is about the most hostileJSON writes (the containers it
// has opened are then closed).
const hostileSize = 16 << 10

var hostileKeys = []string{`"a"`, `"a"`, `"command"`, `"comm\u0061nd"`, `"tool"`, `"arguments"`, `""`, `"\u0000"`, `"k\"ey"`, `"\ud800"`, `"é"`, `"output"`}

var hostileNumbers = []string{
	"0", "-0", "-0.0", "1", "-1", "0.1", "1e-400", "123456789012345", "1234567890123456",
	"9007199254740993", "12345678901234567890", "1E+2", "1e-2", "-12.5e3", "4.9e-324", "1.7976931348623157e308",
	"-0e0", "0.000000000000000000000000000001",
}

// hostileBad are what hostileJSON writes instead of a value, at times:
// not JSON, or not where it is.
var hostileBad = []string{"", ",", "]", "}", ":", "\x00", "\xff", "tru", "nul", "falsey", "'a'", "NaN", "Infinity", "{,}", "[,]", "[1,]", "{\"a\"}",
	"1e400", "-1e400", "1E400", "1.7976931348623159e308", // valid JSON, beyond float64
	"01", "1.", ".5", "+1", "1e", "0x10", "-", "1_0", "00", "-01", "1e+", "\"a", "1 2"}

// hostileString writes a string: plain, escaped, long, or broken.
func hostileString(r *rand.Rand, b *strings.Builder, bad float64) {
	b.WriteByte('"')
	n := r.IntN(12)
	switch r.IntN(6) {
	case 0:
		n = textMax/2 - 2 + r.IntN(5) // about the longest string that shares
	case 1:
		n = r.IntN(3 * textMax)
	}
	for range n {
		switch k := r.IntN(40); {
		case k < 30:
			b.WriteByte("abc /-_.~$'\t"[r.IntN(11)])
		case k < 36:
			b.WriteString([]string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\u20ac`, `\ud83d\ude00`,
				`\ud800`, `\udc00`, `\ud800\u0041`, `\u0000`, `\uFFFD`, `\uDBFF\uDFFF`, "é", "€", "😀", "\u2028"}[r.IntN(21)])
		case k < 38 && r.Float64() < 4*bad:
			b.WriteString([]string{"\xff", "\xc3", "\xed\xa0\x80", "\x00", "\x1f", `\x`, `\u12G4`, `\u`, `\'`}[r.IntN(9)])
		default:
			b.WriteByte('a')
		}
	}
	if r.Float64() > bad/4 {
		b.WriteByte('"')
	}
}

// TestDecodeHostile holds the decoder to encoding/json on generated
// hostile input: ParseObject and ParseLine to the slow way (see
// checkParseObject), and what decodeObject decides to what json.Unmarshal
// makes of it, also once the input is overwritten and the garbage
// collector has run (the values are the decoder's own, not the input's,
// and its shared arrays live as long as they do).
func TestDecodeHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 4))
	decided, valid := 0, 0
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := range n {
		var b strings.Builder
		b.WriteString(`{"tool":`)
		hostileString(r, &b, 0)
		b.WriteString(`,"arguments":`)
		bad := 0.0
		if i%2 == 1 {
			bad = 0.002
		}
		depth := 4
		switch i % 7 {
		case 0:
			depth = 62 + r.IntN(4) // about DefaultLimits.MaxDepth
		case 1:
			depth = 510 + r.IntN(4) // about the decoder's own limit
		}
		hostileJSON(r, &b, depth, bad)
		if r.IntN(4) == 0 {
			b.WriteString(`,"session_id":`)
			hostileString(r, &b, bad)
		}
		b.WriteString("}")
		data := []byte(b.String())
		checkParseObject(t, data)

		var want map[string]any
		werr := json.Unmarshal(data, &want)
		if werr == nil {
			valid++
		}
		obj, ok := decodeObject(data, 0)
		if !ok {
			continue
		}
		decided++
		if werr != nil {
			t.Fatalf("%.200q: decodeObject accepted what encoding/json refuses: %v", data, werr)
		}
		for j := range data {
			data[j] = 'x'
		}
		if i%10 == 0 {
			runtime.GC()
		}
		if !sameJSON(obj, want) {
			t.Fatalf("case %d: decodeObject made\n %.300v\nencoding/json\n %.300v", i, fmt.Sprint(obj), fmt.Sprint(want))
		}
	}
	// the generator made both kinds, and the decoder decided most of the
	// valid ones (the rest nest past its limit)
	t.Logf("of %d inputs, %d valid JSON, %d decided", n, valid, decided)
	if valid < n*2/5 || decided < valid*2/3 || decided > valid {
		t.Fatalf("of %d inputs, %d valid JSON, %d decided: the generator does not make what it should", n, valid, decided)
	}
}

// TestBoxed: the values the decoder boxes in its shared arrays are what
// any(v) makes of v to every reader of an any (comparison, type switch,
// reflection, encoding), and an array's elements have no room beyond
// them: an append to one array copies it, and changes no other value.
func TestBoxed(t *testing.T) {
	d := decoder{}
	for _, want := range []any{"ls -la", "é\x00", 1.5, -0.0, 1e300, []any{"a", 1.0, nil}, []any{}} {
		var got any
		switch x := want.(type) {
		case string:
			got = d.boxString(x)
		case float64:
			got = d.boxNumber(x)
		case []any:
			got = d.boxArray(x)
		}
		runtime.GC()
		if fmt.Sprintf("%T %#v", got, got) != fmt.Sprintf("%T %#v", want, want) || !reflect.DeepEqual(got, want) {
			t.Errorf("boxed %#v is %#v", want, got)
		}
		if _, ok := want.([]any); !ok && got != want {
			t.Errorf("boxed %#v != %#v", got, want)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if string(gj) != string(wj) {
			t.Errorf("boxed %#v encodes to %s, want %s", want, gj, wj)
		}
	}
	obj, ok := decodeObject([]byte(`{"a":[1,"x"],"b":["y",2],"c":"z"}`), 0)
	if !ok {
		t.Fatal("not decided")
	}
	a := obj["a"].([]any)
	if len(a) != cap(a) {
		t.Fatalf("an array has room beyond its elements: len %d, cap %d", len(a), cap(a))
	}
	_ = append(a, "more")
	if b := obj["b"].([]any); !reflect.DeepEqual(b, []any{"y", 2.0}) || obj["c"] != "z" {
		t.Fatalf("an append to one array changed the others: %#v", obj)
	}
}

// TestHex4 holds hex4 to strconv.ParseUint: every byte at each of the
// four places among digits, and too short.
func TestHex4(t *testing.T) {
	for at := range 4 {
		for c := range 256 {
			b := []byte("a0F9")
			b[at] = byte(c)
			want := -1
			if n, err := strconv.ParseUint(string(b), 16, 16); err == nil {
				want = int(n)
			}
			if got := hex4(b); got != want {
				t.Fatalf("hex4(%q) = %d, want %d", b, got, want)
			}
		}
	}
	if got := hex4([]byte("abc")); got != -1 {
		t.Fatalf("hex4 of three digits = %d", got)
	}
}

// TestBlank holds blank to strings.TrimSpace: every byte alone and
// before others, and Unicode's white space.
func TestBlank(t *testing.T) {
	var cases []string
	for c := range 256 {
		cases = append(cases, string(rune(c)), string([]byte{byte(c)}), string([]byte{byte(c), 'x'}), string([]byte{byte(c), ' '}))
	}
	cases = append(cases, "", " \t\n\v\f\r", "\u0085", "\u00a0 ", "\u2028\u3000", "\u3000x", "\xc2", "x ")
	for _, s := range cases {
		if got, want := blank(s), strings.TrimSpace(s) == ""; got != want {
			t.Fatalf("blank(%q) = %v, want %v", s, got, want)
		}
	}
}
