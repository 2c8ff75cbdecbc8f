//go:build !unix

package app

// fileLimit is unknown here.
func fileLimit() int { return 0 }
