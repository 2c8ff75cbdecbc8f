package api

import (
	"encoding/json"
	"errors"
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
