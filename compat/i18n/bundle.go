package i18n

import (
	"embed"
	"fmt"
	"maps"
)

//go:embed bundles/*.properties bundles/3.4.2/*.properties bundles/ours/*.properties
var bundleFiles embed.FS

// DefaultLang is the bundle used when xxl.job.i18n is anything but one of the
// supported names (config.md §2.4).
const DefaultLang = "zh_CN"

// The admin versions whose bundles are embedded: Load and LoadFor(2, …)
// give 2.4.2's, LoadFor(3, …) 3.4.2's.
const (
	Version2 = "2.4.2"
	Version3 = "3.4.2"
)

// Bundle is one language's immutable key → text table; safe for concurrent use.
type Bundle struct {
	lang    string
	version string
	texts   map[string]string
}

// Load parses the embedded 2.4.2 bundle for lang ("en", "zh_CN" or "zh_TC",
// matched case-sensitively like the Java admin); any other value yields
// zh_CN. It is LoadFor(2, lang). Each call parses the file again, so
// callers keep the result.
func Load(lang string) *Bundle {
	return load(Version2, "bundles/", lang)
}

// LoadFor parses the bundle of the Java admin that owns a database of the
// given schema generation (compat/schema.Generation's major version, as
// app resolves it from store.Generation()): 3 gives the 3.4.2 admin's texts
// (244 keys: *_unvalid renamed *_invalid, system_lengh_limit renamed
// system_length_limit, the dataTable_* keys gone, tab_* and more added,
// admin_version 3.4.2), any other major the 2.4.2 admin's (251 keys), as
// Load. lang falls back to zh_CN as in Load. A console or job that renders
// for a 3.x database calls LoadFor(3, lang).
func LoadFor(major int, lang string) *Bundle {
	if major == 3 {
		return load(Version3, "bundles/3.4.2/", lang)
	}
	return Load(lang)
}

func load(version, dir, lang string) *Bundle {
	switch lang {
	case "en", "zh_CN", "zh_TC":
	default:
		lang = DefaultLang
	}
	data, err := bundleFiles.ReadFile(dir + "message_" + lang + ".properties")
	if err != nil {
		// The files are compiled in; reaching this is a build defect.
		panic(fmt.Errorf("i18n: embedded bundle %s %s: %w", version, lang, err))
	}
	texts, err := parseProperties(string(data))
	if err != nil {
		panic(fmt.Errorf("i18n: embedded bundle %s %s: %w", version, lang, err))
	}
	return &Bundle{lang: lang, version: version, texts: texts}
}

// Lang is the bundle actually loaded (after the zh_CN fallback).
func (b *Bundle) Lang() string { return b.lang }

// Version is the Java admin release whose texts the bundle holds: Version2
// or Version3.
func (b *Bundle) Version() string { return b.version }

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
