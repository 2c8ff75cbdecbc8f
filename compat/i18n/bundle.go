package i18n

import (
	"embed"
	"fmt"
	"maps"
)

//go:embed bundles/*.properties
var bundleFiles embed.FS

// DefaultLang is the bundle used when xxl.job.i18n is anything but one of the
// supported names (config.md §2.4).
const DefaultLang = "zh_CN"

// Bundle is one language's immutable key → text table; safe for concurrent use.
type Bundle struct {
	lang  string
	texts map[string]string
}

// Load parses the embedded bundle for lang ("en", "zh_CN" or "zh_TC", matched
// case-sensitively like the Java admin); any other value yields zh_CN. Each call
// parses the file again, so callers keep the result.
func Load(lang string) *Bundle {
	switch lang {
	case "en", "zh_CN", "zh_TC":
	default:
		lang = DefaultLang
	}
	data, err := bundleFiles.ReadFile("bundles/message_" + lang + ".properties")
	if err != nil {
		// The three files are compiled in; reaching this is a build defect.
		panic(fmt.Errorf("i18n: embedded bundle %s: %w", lang, err))
	}
	texts, err := parseProperties(string(data))
	if err != nil {
		panic(fmt.Errorf("i18n: embedded bundle %s: %w", lang, err))
	}
	return &Bundle{lang: lang, texts: texts}
}

// Lang is the bundle actually loaded (after the zh_CN fallback).
func (b *Bundle) Lang() string { return b.lang }

// Text is the raw value of key, without MessageFormat processing (the admin
// reads most keys this way). An unknown key yields the key itself, so a typo
// shows up in the output instead of as an empty string or a panic.
func (b *Bundle) Text(key string) string {
	if v, ok := b.texts[key]; ok {
		return v
	}
	return key
}

// Format renders the value of key as java.text.MessageFormat.format does
// (see FormatPattern); an unknown key is formatted as the pattern itself.
func (b *Bundle) Format(key string, args ...any) string {
	return FormatPattern(b.Text(key), args...)
}

// All returns a copy of every key and value, for pages that embed the whole
// bundle (console.md §8).
func (b *Bundle) All() map[string]string {
	return maps.Clone(b.texts)
}
