package jobs

import "strings"

// keyedTexts reads the service's i18n keys from the bundle of either Java
// admin. The service names its texts with 2.4.2's keys; 3.4.2 renamed a
// few of them (every "…_unvalid" is "…_invalid", "system_lengh_limit" is
// "system_length_limit") and kept the rest. A key the bundle lacks is
// tried under its 3.4.2 name, so the same code writes 2.4.2's texts with
// 2.4.2's bundle and 3.4.2's with 3.4.2's.
type keyedTexts struct{ Texts }

// renamed342 is the 3.4.2 name of a 2.4.2 key, or "" when it kept its name.
func renamed342(key string) string {
	if key == "system_lengh_limit" {
		return "system_length_limit"
	}
	if stem, ok := strings.CutSuffix(key, "_unvalid"); ok {
		return stem + "_invalid"
	}
	return ""
}

// Text is the bundle's text of key, or of its 3.4.2 name when the bundle
// has no key by the first name (Bundle.Text answers an unknown key with
// the key itself).
func (k keyedTexts) Text(key string) string {
	v := k.Texts.Text(key)
	if v != key {
		return v
	}
	if alt := renamed342(key); alt != "" {
		if w := k.Texts.Text(alt); w != alt {
			return w
		}
	}
	return v
}
