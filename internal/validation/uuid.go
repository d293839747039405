package validation

import "errors"

var errObjectID = errors.New("must be a lowercase UUID such as 123e4567-e89b-12d3-a456-426614174000")

// IsLowercaseUUID reports whether s is a UUID in canonical textual form:
// 8-4-4-4-12 lowercase hexadecimal digits separated by hyphens (36 bytes).
// Any version and variant is accepted; uppercase, braces and "urn:uuid:"
// prefixes are not.
func IsLowercaseUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// ValidateObjectID checks that s is an object identifier, that is a
// lowercase canonical UUID (see IsLowercaseUUID).
func ValidateObjectID(s string) error {
	if !IsLowercaseUUID(s) {
		return errObjectID
	}
	return nil
}
