// Package docs holds the project's documentation pages (Markdown) and no
// code. Its test checks that every relative link of README.md and
// docs/*.md leads to a file of the repository and every #anchor to a
// heading there, so moving a section between pages cannot leave a dead
// link behind.
package docs
