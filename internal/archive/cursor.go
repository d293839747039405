package archive

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Position is a place in the newest-first order of List: an order's creation time (whole
// seconds) and id. A page that starts after a Position holds the orders that come
// strictly after it: created earlier, or created in the same second with a smaller id.
type Position struct {
	Created time.Time
	ID      string
}

// After reports whether an order created at created with id comes after p in List's
// newest-first order (the test the stores apply in SQL), for callers that merge archived
// orders with live ones in the same order.
func (p Position) After(created time.Time, id string) bool {
	c, pc := created.Unix(), p.Created.Unix()
	return c < pc || (c == pc && id < p.ID)
}

// cursorVersion prefixes every cursor, so that the encoding may change later while old
// cursors are still refused with ErrInvalid instead of misread.
const cursorVersion = "a1"

// EncodeCursor returns the opaque cursor of a page that starts after p. List returns such
// cursors as Page.Next; callers that merge live and archived orders may build one from
// the last order they answered with.
func EncodeCursor(p Position) string {
	raw := cursorVersion + "." + strconv.FormatInt(p.Created.Unix(), 10) + "." + p.ID
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// DecodeCursor reads a cursor of EncodeCursor; ErrInvalid when it is not one.
func DecodeCursor(cursor string) (Position, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return Position{}, fmt.Errorf("%w: the cursor is not one this store issued", ErrInvalid)
	}
	parts := strings.SplitN(string(raw), ".", 3)
	if len(parts) != 3 || parts[0] != cursorVersion || parts[2] == "" {
		return Position{}, fmt.Errorf("%w: the cursor is not one this store issued", ErrInvalid)
	}
	secs, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return Position{}, fmt.Errorf("%w: the cursor is not one this store issued", ErrInvalid)
	}
	return Position{Created: time.Unix(secs, 0).UTC(), ID: parts[2]}, nil
}
