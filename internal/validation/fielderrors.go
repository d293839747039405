package validation

// FieldErrors collects validation messages per field for REST responses,
// for example {"iban": ["must be a valid IBAN: check digits do not match"]}.
// The zero value (nil map) is ready to use through a pointer.
type FieldErrors map[string][]string

// Add records msg for field.
func (fe *FieldErrors) Add(field, msg string) {
	if *fe == nil {
		*fe = make(FieldErrors)
	}
	(*fe)[field] = append((*fe)[field], msg)
}

// AddErr records err.Error() for field; a nil err is ignored.
func (fe *FieldErrors) AddErr(field string, err error) {
	if err == nil {
		return
	}
	fe.Add(field, err.Error())
}

// Empty reports whether no message has been recorded.
func (fe FieldErrors) Empty() bool {
	return len(fe) == 0
}
