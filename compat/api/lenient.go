package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The helpers in this file reproduce Gson's data-binding leniency (see the
// package documentation) on top of encoding/json's strict syntax. Each takes
// one raw member value; json.RawMessage values handed out by a json.Decoder
// are already syntactically valid.

// errNotObject is returned when a body that must be an object is something
// else (Gson: "Expected BEGIN_OBJECT").
var errNotObject = errors.New("expected a JSON object")

// decodeObject walks the members of a JSON object in document order and
// hands each to member. It reports present == false for an empty or
// whitespace-only document and for the literal null: Gson yields a null
// object for both, and each caller decides what null means.
func decodeObject(data []byte, member func(key string, raw json.RawMessage) error) (present bool, err error) {
	dec, present, err := openDocument(data, '{', errNotObject)
	if !present || err != nil {
		return false, err
	}
	if err := decodeMembers(dec, member); err != nil {
		return false, err
	}
	if err := expectEOF(dec); err != nil {
		return false, err
	}
	return true, nil
}

// openDocument reads the first token of a document: nothing or the literal
// null give present == false (after checking nothing follows null), the
// wanted opening delimiter gives a decoder positioned inside it, anything
// else is notIt.
func openDocument(data []byte, open json.Delim, notIt error) (dec *json.Decoder, present bool, err error) {
	dec = json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if tok == nil {
		return nil, false, expectEOF(dec)
	}
	if d, ok := tok.(json.Delim); !ok || d != open {
		return nil, false, notIt
	}
	return dec, true, nil
}

// decodeMembers reads members up to and including the closing brace.
func decodeMembers(dec *json.Decoder, member func(key string, raw json.RawMessage) error) error {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("expected a member name, got %v", tok)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("member %q: %w", key, err)
		}
		if err := member(key, raw); err != nil {
			return fmt.Errorf("member %q: %w", key, err)
		}
	}
	_, err := dec.Token() // the closing '}'
	return err
}

// decodeArray hands each element of a JSON array to elem. Like
// decodeObject it reports present == false for an empty document or null.
func decodeArray(data []byte, elem func(raw json.RawMessage) error) (present bool, err error) {
	dec, present, err := openDocument(data, '[', errors.New("expected a JSON array"))
	if !present || err != nil {
		return false, err
	}
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return false, fmt.Errorf("element %d: %w", i, err)
		}
		if err := elem(raw); err != nil {
			return false, fmt.Errorf("element %d: %w", i, err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return false, err
	}
	if err := expectEOF(dec); err != nil {
		return false, err
	}
	return true, nil
}

// expectEOF rejects trailing data after the top-level value, as Gson's
// fromJson does ("JSON document was not fully consumed").
func expectEOF(dec *json.Decoder) error {
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			return errors.New("trailing data after the JSON value")
		}
		return fmt.Errorf("trailing data after the JSON value: %w", err)
	}
	return nil
}

// isNull reports whether a raw member value is the literal null.
func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// decodeJavaInt decodes a Java int member (32-bit).
func decodeJavaInt(raw json.RawMessage) (int, error) {
	v, err := decodeInteger(raw, math.MinInt32, math.MaxInt32, "an int")
	return int(v), err
}

// decodeJavaLong decodes a Java long member.
func decodeJavaLong(raw json.RawMessage) (int64, error) {
	return decodeInteger(raw, math.MinInt64, math.MaxInt64, "a long")
}

// decodeInteger accepts a number or a string holding one; integral decimal
// forms (7005.0, 7e3) are accepted like Gson's nextInt/nextLong, which fall
// back to parsing a double and reject it when it is not a whole number in
// range. null is 0: Gson leaves a primitive field at its default.
func decodeInteger(raw json.RawMessage, lo, hi int64, what string) (int64, error) {
	raw = bytes.TrimSpace(raw)
	var text string
	switch {
	case len(raw) == 0 || isNull(raw):
		return 0, nil
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, err
		}
		text = strings.TrimSpace(text)
	case raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'):
		text = string(raw)
	default:
		return 0, fmt.Errorf("expected %s but was %s", what, abbreviate(raw))
	}
	if v, err := strconv.ParseInt(text, 10, 64); err == nil && v >= lo && v <= hi {
		return v, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	// float64(hi) rounds MaxInt64 up to 2^63, which is itself out of range.
	if err != nil || f != math.Trunc(f) || f < float64(lo) || f >= float64(hi)+1 {
		return 0, fmt.Errorf("expected %s but was %s", what, abbreviate(raw))
	}
	return int64(f), nil
}

// decodeJavaString decodes a Java String member: nil for null, the literal
// text of a number, "true"/"false" for a boolean (Gson's nextString).
func decodeJavaString(raw json.RawMessage) (*string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || isNull(raw):
		return nil, nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return &s, nil
	case raw[0] == '{' || raw[0] == '[':
		return nil, fmt.Errorf("expected a string but was %s", abbreviate(raw))
	default: // number, true, false
		s := string(raw)
		return &s, nil
	}
}

// decodeJavaBool decodes a Java boolean member; a string counts as true
// only when it equals "true" ignoring case (Boolean.parseBoolean).
func decodeJavaBool(raw json.RawMessage) (bool, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || isNull(raw):
		return false, nil
	case string(raw) == "true":
		return true, nil
	case string(raw) == "false":
		return false, nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return false, err
		}
		return strings.EqualFold(s, "true"), nil
	default:
		return false, fmt.Errorf("expected a boolean but was %s", abbreviate(raw))
	}
}

// stringOrEmpty decodes a String member where null and absent are
// indistinguishable from "" for every reader (RegistryParam).
func stringOrEmpty(raw json.RawMessage) (string, error) {
	s, err := decodeJavaString(raw)
	if s == nil {
		return "", err
	}
	return *s, err
}

// abbreviate keeps error texts short when a member holds a large value.
func abbreviate(raw []byte) string {
	const limit = 64
	if len(raw) <= limit {
		return string(raw)
	}
	return string(raw[:limit]) + "..."
}
