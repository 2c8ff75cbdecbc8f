package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// usage: shots BASE OUTDIR path=name ...
func main() {
	base, out := os.Args[1], os.Args[2]
	b, err := browser.Launch("/usr/bin/chromium")
	if err != nil {
		panic(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	p, err := b.NewPage(ctx)
	if err != nil {
		panic(err)
	}
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(p.Navigate(ctx, base+"/auth/login"))
	must(p.Eval(ctx, `fetch('`+base+`/auth/doLogin', {method:'POST', headers:{'Content-Type':'application/x-www-form-urlencoded'}, body:'userName=admin&password=123456&ifRemember=on'}).then(r => r.text())`, nil))
	for _, a := range os.Args[3:] {
		path, name, _ := strings.Cut(a, "=")
		must(p.Navigate(ctx, base+path))
		time.Sleep(2500 * time.Millisecond)
		png, err := p.Screenshot(ctx)
		must(err)
		must(os.WriteFile(out+"/"+name+".png", png, 0o644))
		fmt.Println("saved", name, p.Problems())
	}
}
