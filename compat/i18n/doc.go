// Package i18n provides the Java admins' message bundles (en, zh_CN, zh_TC)
// — 2.4.2's for a 2.x database, 3.4.2's for a 3.x one — and a
// Java-MessageFormat-compatible formatter.
//
// The texts are protocol facts, not presentation: the scheduler stores them
// verbatim in xxl_job_log.trigger_msg / handle_msg and the console embeds every
// key into each page, so the bundles under bundles/ (2.4.2) and
// bundles/3.4.2/ are byte-exact copies of what Java's Properties.load
// yields for the upstream files (scheduler.md §12, console.md §11; the
// 3.4.2 ones are checked against the reference jar by TestJarBundles).
//
// Which admin's texts to use follows the database, never a setting: app
// resolves the generation from the store and calls LoadFor(major, lang);
// Load(lang) is the 2.4.2 bundle.
package i18n
