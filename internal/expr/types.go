package expr

import "strings"

// Kind is the category of a Type.
type Kind uint8

// The kinds of types. The zero Kind is DynKind.
const (
	DynKind Kind = iota
	NullKind
	BoolKind
	IntKind
	UintKind
	DoubleKind
	StringKind
	BytesKind
	ListKind
	MapKind
	TypeKind

	errorKind // an expression that failed to check; assignable to and from anything
	paramKind // a type parameter of an overload or an unresolved element type
	// timestampKind and durationKind exist only in the standard overload
	// tables, so that null (which CEL lets stand for either) checks as it
	// does in cel-go; no expression here can produce one.
	timestampKind
	durationKind
)

// Type is a CEL type as the checker sees it. Types are immutable.
type Type struct {
	kind   Kind
	params []*Type // list: elem; map: key, value; type: [] or [t]
	name   string  // paramKind: the parameter's name
}

// The primitive types, and dyn: any value, checked when the expression
// runs.
var (
	Dyn    = &Type{kind: DynKind}
	Null   = &Type{kind: NullKind}
	Bool   = &Type{kind: BoolKind}
	Int    = &Type{kind: IntKind}
	Uint   = &Type{kind: UintKind}
	Double = &Type{kind: DoubleKind}
	String = &Type{kind: StringKind}
	Bytes  = &Type{kind: BytesKind}

	errType       = &Type{kind: errorKind}
	typeType      = &Type{kind: TypeKind}
	timestampType = &Type{kind: timestampKind}
	durationType  = &Type{kind: durationKind}
)

// ListOf returns the type list(elem).
func ListOf(elem *Type) *Type { return &Type{kind: ListKind, params: []*Type{elem}} }

// MapOf returns the type map(key, value).
func MapOf(key, value *Type) *Type { return &Type{kind: MapKind, params: []*Type{key, value}} }

func typeOf(t *Type) *Type { return &Type{kind: TypeKind, params: []*Type{t}} }

func param(name string) *Type { return &Type{kind: paramKind, name: name} }

// Kind returns t's kind.
func (t *Type) Kind() Kind { return t.kind }

// Is reports whether t is exactly u: same kind and same parameters, so
// that dyn is not an int and list(dyn) is not list(string).
func (t *Type) Is(u *Type) bool {
	if t == u {
		return true
	}
	if t.kind != u.kind || len(t.params) != len(u.params) || t.name != u.name {
		return false
	}
	for i, p := range t.params {
		if !p.Is(u.params[i]) {
			return false
		}
	}
	return true
}

// String returns t in CEL's notation: int, list(string), map(string, dyn).
func (t *Type) String() string {
	var b strings.Builder
	t.format(&b)
	return b.String()
}

func (t *Type) format(b *strings.Builder) {
	switch t.kind {
	case DynKind:
		b.WriteString("dyn")
	case NullKind:
		b.WriteString("null_type")
	case BoolKind:
		b.WriteString("bool")
	case IntKind:
		b.WriteString("int")
	case UintKind:
		b.WriteString("uint")
	case DoubleKind:
		b.WriteString("double")
	case StringKind:
		b.WriteString("string")
	case BytesKind:
		b.WriteString("bytes")
	case ListKind:
		b.WriteString("list(")
		t.params[0].format(b)
		b.WriteString(")")
	case MapKind:
		b.WriteString("map(")
		t.params[0].format(b)
		b.WriteString(", ")
		t.params[1].format(b)
		b.WriteString(")")
	case TypeKind:
		b.WriteString("type")
		if len(t.params) > 0 {
			b.WriteString("(")
			t.params[0].format(b)
			b.WriteString(")")
		}
	case errorKind:
		b.WriteString("*error*")
	case paramKind:
		b.WriteString(t.name)
	case timestampKind:
		b.WriteString("google.protobuf.Timestamp")
	case durationKind:
		b.WriteString("google.protobuf.Duration")
	}
}

func (t *Type) isDyn() bool        { return t.kind == DynKind }
func (t *Type) isDynOrError() bool { return t.kind == DynKind || t.kind == errorKind }

// subst holds the bindings of type parameters made while checking one
// expression. An attempt that fails is rolled back.
type subst struct {
	m         map[string]*Type
	undo      []undoEntry
	recording bool
}

type undoEntry struct {
	key  string
	prev *Type
	had  bool
}

func (s *subst) add(p, to *Type) {
	if s.recording {
		prev, had := s.m[p.name]
		s.undo = append(s.undo, undoEntry{p.name, prev, had})
	}
	s.m[p.name] = to
}

func (s *subst) find(t *Type) (*Type, bool) {
	if t.kind != paramKind {
		return nil, false
	}
	r, ok := s.m[t.name]
	return r, ok
}

// attempt runs f, rolling back the bindings it made if it reports false.
func (s *subst) attempt(f func() bool) bool {
	s.recording = true
	ok := f()
	s.recording = false
	if !ok {
		for i := len(s.undo) - 1; i >= 0; i-- {
			e := s.undo[i]
			if e.had {
				s.m[e.key] = e.prev
			} else {
				delete(s.m, e.key)
			}
		}
	}
	s.undo = s.undo[:0]
	return ok
}

// assignable reports whether a value of type t1 may stand where t2 is
// wanted, binding type parameters as it goes (kept only on success).
func (s *subst) assignable(t1, t2 *Type) bool {
	return s.attempt(func() bool { return s.isAssignable(t1, t2) })
}

func (s *subst) assignableList(l1, l2 []*Type) bool {
	return s.attempt(func() bool { return s.isAssignableList(l1, l2) })
}

func (s *subst) isAssignableList(l1, l2 []*Type) bool {
	if len(l1) != len(l2) {
		return false
	}
	for i, t := range l1 {
		if !s.isAssignable(t, l2[i]) {
			return false
		}
	}
	return true
}

// isAssignable is the unification of CEL's type checker: dyn and error
// match anything, null only null, dyn and the (phantom) time types, type
// parameters bind on first use and widen towards dyn.
func (s *subst) isAssignable(t1, t2 *Type) bool {
	if t2.kind == paramKind {
		valid, hasSub := s.validSubstitution(t1, t2)
		if valid {
			return true
		}
		if hasSub {
			return false
		}
	}
	if t1.kind == paramKind {
		valid, _ := s.validSubstitution(t2, t1)
		return valid
	}
	if t1.isDynOrError() || t2.isDynOrError() {
		return true
	}
	if t1.kind == NullKind {
		return nullable(t2)
	}
	if t2.kind == NullKind {
		return nullable(t1)
	}
	switch t1.kind {
	case TypeKind:
		if t2.kind != TypeKind {
			return false
		}
		if len(t1.params) == 0 || len(t2.params) == 0 {
			return len(t2.params) == 0
		}
		from, to := t1.params[0], t2.params[0]
		if hasParam(from) || hasParam(to) {
			return s.isAssignable(from, to)
		}
		// Concrete types are coassignable: type(1) == type("a") checks.
		return true
	case ListKind, MapKind:
		return t1.kind == t2.kind && s.isAssignableList(t1.params, t2.params)
	default:
		return t1.kind == t2.kind
	}
}

func nullable(t *Type) bool {
	switch t.kind {
	case NullKind, DynKind, timestampKind, durationKind:
		return true
	}
	return false
}

func hasParam(t *Type) bool {
	if t.kind == paramKind {
		return true
	}
	for _, p := range t.params {
		if hasParam(p) {
			return true
		}
	}
	return false
}

// validSubstitution reports whether p (a parameter), or what it is bound
// to, can stand for t, and whether p was bound already.
func (s *subst) validSubstitution(t, p *Type) (valid, hasSub bool) {
	if t.kind == p.kind && t.Is(p) {
		return true, true
	}
	if sub, ok := s.find(p); ok {
		if t.kind == sub.kind && t.Is(sub) {
			return true, true
		}
		if s.isAssignable(t, sub) {
			general := mostGeneral(t, sub)
			if s.notReferencedIn(p, general) {
				s.add(p, general)
			}
			return true, true
		}
		return false, true
	}
	if s.notReferencedIn(p, t) {
		s.add(p, t)
		return true, false
	}
	return false, false
}

// notReferencedIn is the occurs check: p does not appear in within.
func (s *subst) notReferencedIn(p, within *Type) bool {
	if p.Is(within) {
		return false
	}
	switch within.kind {
	case paramKind:
		sub, ok := s.find(within)
		if !ok {
			return true
		}
		return s.notReferencedIn(p, sub)
	case ListKind, MapKind, TypeKind:
		for _, q := range within.params {
			if !s.notReferencedIn(p, q) {
				return false
			}
		}
	}
	return true
}

// mostGeneral returns the less specific of two types known to unify.
func mostGeneral(t1, t2 *Type) *Type {
	if lessSpecific(t1, t2) {
		return t1
	}
	return t2
}

func lessSpecific(t1, t2 *Type) bool {
	if t1.kind == DynKind || t1.kind == paramKind {
		return true
	}
	if t2.kind == DynKind || t2.kind == paramKind {
		return false
	}
	if t1.kind != t2.kind {
		return false
	}
	switch t1.kind {
	case ListKind:
		return lessSpecific(t1.params[0], t2.params[0])
	case MapKind:
		return lessSpecific(t1.params[0], t2.params[0]) && lessSpecific(t1.params[1], t2.params[1])
	case TypeKind:
		if len(t1.params) > 0 && len(t2.params) > 0 {
			return lessSpecific(t1.params[0], t2.params[0])
		}
		return len(t1.params) == 0
	}
	return t1.Is(t2)
}

// substitute replaces bound type parameters by their bindings, and
// unbound ones by dyn when final.
func (s *subst) substitute(t *Type, final bool) *Type {
	if sub, ok := s.find(t); ok {
		return s.substitute(sub, final)
	}
	switch t.kind {
	case paramKind:
		if final {
			return Dyn
		}
	case ListKind:
		return ListOf(s.substitute(t.params[0], final))
	case MapKind:
		return MapOf(s.substitute(t.params[0], final), s.substitute(t.params[1], final))
	case TypeKind:
		if len(t.params) > 0 {
			return typeOf(s.substitute(t.params[0], final))
		}
	}
	return t
}
