package api

import (
	"bytes"
	"encoding/json"
)

// gsonJSON encodes a request body byte-for-byte as the Java admin's Gson
// does (recording admin_client_probe). Member order and null omission come
// from the struct definitions; encoding/json already escapes <, >, &,
// U+2028 and U+2029 like Gson's HTML-safe writer, and the two characters
// it leaves alone, = and ', are escaped here. They can only occur inside
// string literals of encoding/json output, so a byte replace is exact.
func gsonJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(b, '=') >= 0 {
		b = bytes.ReplaceAll(b, []byte("="), []byte(`\u003d`))
	}
	if bytes.IndexByte(b, '\'') >= 0 {
		b = bytes.ReplaceAll(b, []byte("'"), []byte(`\u0027`))
	}
	return b, nil
}
