package parsed

import (
	"context"
	"reflect"
	"testing"
)

func TestMapPointer(t *testing.T) {
	for _, m := range []map[string]any{nil, {}, {"a": 1}} {
		want := reflect.ValueOf(m).UnsafePointer()
		if got := mapPointer(m); got != want {
			t.Errorf("mapPointer(%v) = %p, want %p", m, got, want)
		}
	}
}

func TestValid(t *testing.T) {
	a, b := map[string]any{"a": 1}, map[string]any{"a": 1}
	var slot Slot
	ctx := With(context.Background(), &slot)
	if Valid(ctx, a) || Valid(context.Background(), a) {
		t.Error("Valid before Set")
	}
	slot.Set(a)
	if !Valid(ctx, a) || Valid(ctx, b) || Valid(ctx, nil) || Valid(context.Background(), a) {
		t.Error("Valid is not the identity of the slot's arguments")
	}
	slot.Set(nil)
	if Valid(ctx, a) || Valid(ctx, nil) {
		t.Error("Valid after Set(nil)")
	}
	// a context derived from one with the slot carries it
	if slot.Set(a); !Valid(context.WithValue(ctx, new(int), 1), a) {
		t.Error("a derived context lost the slot")
	}
}
