// Package i18n provides the Java admin 2.4.2's message bundles (en, zh_CN,
// zh_TC) and a Java-MessageFormat-compatible formatter.
//
// The texts are protocol facts, not presentation: the scheduler stores them
// verbatim in xxl_job_log.trigger_msg / handle_msg and the console embeds every
// key into each page, so the bundles under bundles/ are byte-exact copies of
// what Java's Properties.load yields for the upstream files (scheduler.md §12,
// console.md §11).
package i18n
