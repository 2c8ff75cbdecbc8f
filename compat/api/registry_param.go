package api

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// RegistryParam is the body of /api/registry and /api/registryRemove
// (§2.3). Java's null and "" are both invalid there (§2.2 step 5), so the
// members are plain strings.
type RegistryParam struct {
	RegistryGroup string `json:"registryGroup"`
	RegistryKey   string `json:"registryKey"`
	RegistryValue string `json:"registryValue"`
}

// errNullBody stands for the null object Gson yields for an empty body or
// null; Java then fails with a NullPointerException (§2.2 notes).
var errNullBody = errors.New("request body is empty or null")

// DecodeRegistryParam decodes a registry body. An empty body or null is an
// error, as in Java.
func DecodeRegistryParam(data []byte) (RegistryParam, error) {
	var p RegistryParam
	present, err := decodeObject(data, p.member)
	if err != nil {
		return RegistryParam{}, err
	}
	if !present {
		return RegistryParam{}, errNullBody
	}
	return p, nil
}

// UnmarshalJSON decodes leniently (package documentation).
func (p *RegistryParam) UnmarshalJSON(data []byte) error {
	var out RegistryParam
	present, err := decodeObject(data, out.member)
	if err == nil && present {
		*p = out
	}
	return err
}

func (p *RegistryParam) member(key string, raw json.RawMessage) (err error) {
	switch key {
	case "registryGroup":
		p.RegistryGroup, err = stringOrEmpty(raw)
	case "registryKey":
		p.RegistryKey, err = stringOrEmpty(raw)
	case "registryValue":
		p.RegistryValue, err = stringOrEmpty(raw)
	}
	return err
}

// Valid is the admin's argument check (§2.2 step 5): all three values must
// contain a non-whitespace character (Spring's StringUtils.hasText).
func (p RegistryParam) Valid() bool {
	return hasText(p.RegistryGroup) && hasText(p.RegistryKey) && hasText(p.RegistryValue)
}

// Column sizes of xxl_job_registry in characters (schema.md §1:
// registry_group varchar(50), registry_key and registry_value
// varchar(255)).
const (
	MaxRegistryGroup = 50
	MaxRegistryKey   = 255
	MaxRegistryValue = 255
)

// TooLong names the first member longer than its column, or "" when all
// fit. Java leaves this to the database: MariaDB refuses the row (and Java
// only logs it), SQLite stores 10 MiB; checking here gives every backend
// the same answer, before anything is stored.
func (p RegistryParam) TooLong() string {
	for _, m := range []struct {
		name, value string
		max         int
	}{
		{"registryGroup", p.RegistryGroup, MaxRegistryGroup},
		{"registryKey", p.RegistryKey, MaxRegistryKey},
		{"registryValue", p.RegistryValue, MaxRegistryValue},
	} {
		if utf8.RuneCountInString(m.value) > m.max {
			return m.name + " is longer than " + strconv.Itoa(m.max) + " characters."
		}
	}
	return ""
}
