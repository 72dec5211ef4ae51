// Package parsed lets warden's own commands tell the engine that the
// action it checks is one risk.ParseLine returned, valid, so that the
// engine does not walk its arguments again to validate them (Validate).
// Only the module's own code can say so: a library caller's actions are
// always validated, whatever it did to them after decoding.
package parsed

import (
	"context"
	"unsafe"
)

// Slot names the arguments of the action a caller is about to check, an
// action risk.ParseLine returned without error under the engine's own
// limits and that nothing changed since: one slot per goroutine that
// checks, set before each check (see Set).
type Slot struct{ args unsafe.Pointer }

// key is the key of the slot in a context: a pointer, compared as one
// (a struct{} key is compared by the runtime's efaceeq, in a call).
var key = new(byte)

// With returns ctx carrying slot, for the checks of one goroutine.
func With(ctx context.Context, slot *Slot) context.Context {
	return context.WithValue(ctx, key, slot)
}

// Set makes slot name args, the arguments of the action checked next
// (see Slot); Set(nil) names none.
func (s *Slot) Set(args map[string]any) { s.args = mapPointer(args) }

// Valid reports whether ctx carries a slot that names args, not nil: the
// arguments of an action that its caller says is valid (see Slot).
func Valid(ctx context.Context, args map[string]any) bool {
	if args == nil {
		return false
	}
	s, ok := ctx.Value(key).(*Slot)
	return ok && s.args == mapPointer(args)
}

// mapPointer returns the identity of the map m: a map value is a
// pointer to the runtime's map (what reflect.Value.UnsafePointer returns
// of it, TestMapPointer), nil for a nil map.
func mapPointer(m map[string]any) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&m))
}
