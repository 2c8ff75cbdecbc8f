// Command xxl-admin-go is the scheduling center: a drop-in replacement for
// the Java xxl-job admin.
package main

import (
	"os"

	"github.com/xxl-admin-go/xxl-admin-go/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:], os.Stdout, os.Stderr))
}
