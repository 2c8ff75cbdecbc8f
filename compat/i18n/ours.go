package i18n

import (
	"fmt"
	"maps"
)

// Ours are the texts of pages no Java admin has (the workflow pages), in
// files of our own (bundles/ours/workflow_<lang>.properties) with keys
// that Java's bundles lack: the Java bundles stay byte for byte what the
// Java admins ship, and the pages that exist in Java keep embedding
// exactly their bundle.

// Ours is the texts of our own pages in lang, with Load's zh_CN fallback.
func Ours(lang string) map[string]string {
	switch lang {
	case "en", "zh_CN", "zh_TC":
	default:
		lang = DefaultLang
	}
	data, err := bundleFiles.ReadFile("bundles/ours/workflow_" + lang + ".properties")
	if err != nil {
		panic(fmt.Errorf("i18n: embedded bundle of ours %s: %w", lang, err))
	}
	texts, err := parseProperties(string(data))
	if err != nil {
		panic(fmt.Errorf("i18n: embedded bundle of ours %s: %w", lang, err))
	}
	return texts
}

// WithOurs is the bundle's texts with Ours(lang) added (a page of ours
// embeds both).
func (b *Bundle) WithOurs() map[string]string {
	out := maps.Clone(b.texts)
	maps.Copy(out, Ours(b.lang))
	return out
}
