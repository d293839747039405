// Package validation holds the input validators shared by the Kubernetes
// admission webhooks and the REST handlers of the fund-share service, so that
// kubectl users and REST users read exactly the same messages.
//
// Conventions:
//
//   - Every validator returns a plain Go error (nil when the value is valid).
//     Its Error() text is a short, user-facing English message that does NOT
//     name the field, for example "must be a valid IBAN: check digits do not
//     match". The caller prefixes its own field path ("spec.iban" in a
//     Kubernetes field.ErrorList, "iban" in a REST FieldErrors map).
//   - Messages never echo the offending input back. Only values that come
//     from the validator's own tables or from small computed numbers (such as
//     an expected length) may appear in a message.
//   - Normalize* functions turn user input into the canonical stored form;
//     the corresponding Validate* functions check that canonical form. Callers
//     normalize first, validate second, and store the normalized value.
//
// The package is pure Go, has no I/O and keeps no state apart from read-only
// lookup tables, so every function is safe for concurrent use.
package validation
