package apiserver

import (
	"encoding/json"
	"reflect"
)

// presentOrNull is a response field that only some objects have and that may be null on
// those: absent when not Present (json omitzero), else the value or null. The OpenAPI
// document shows it optional and nullable (openapi.go). Forward-priced orders use it for
// their contract note (confirmation), so that a latest-priced order's answer stays as it
// always was.
type presentOrNull[T any] struct {
	Present bool
	Value   *T
}

// present is a field that is there, null when v is nil.
func present[T any](v *T) presentOrNull[T] { return presentOrNull[T]{Present: true, Value: v} }

// IsZero lets json omitzero leave an absent field out.
func (p presentOrNull[T]) IsZero() bool { return !p.Present }

// MarshalJSON writes the value, or null.
func (p presentOrNull[T]) MarshalJSON() ([]byte, error) { return json.Marshal(p.Value) }

// UnmarshalJSON reads the value, or null; either way the field is present.
func (p *presentOrNull[T]) UnmarshalJSON(b []byte) error {
	p.Present = true
	p.Value = nil
	if string(b) == "null" {
		return nil
	}
	p.Value = new(T)
	return json.Unmarshal(b, p.Value)
}

// openAPIValueType is the type the document shows for the field.
func (presentOrNull[T]) openAPIValueType() reflect.Type { return reflect.TypeFor[T]() }

// optionalNullable is implemented by presentOrNull, for openapi.go.
type optionalNullable interface{ openAPIValueType() reflect.Type }
