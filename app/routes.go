package app

import (
	"context"
	"net/http"
	"time"

	"github.com/rs/zerolog"
)

// pinger is what the health endpoint needs of the store.
type pinger interface {
	Ping(ctx context.Context) error
}

// routes lists every HTTP route of the admin under the context path.
func routes(contextPath string, api http.Handler, db pinger, log zerolog.Logger) http.Handler {
	mux := http.NewServeMux()
	toLogin := contextPath + "/toLogin"
	redirectToLogin := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, toLogin, http.StatusFound)
	})

	mux.Handle(contextPath+"/api/", http.StripPrefix(contextPath, api))
	mux.Handle("GET "+contextPath+"/actuator/health", health(db, log))
	mux.Handle("GET "+toLogin, loginPlaceholder())
	// Everything else is a console page behind the login: anonymous
	// visitors are sent to the login page, as the Java interceptor does.
	mux.Handle(contextPath+"/", redirectToLogin)
	if contextPath != "" {
		mux.Handle(contextPath, redirectToLogin)
		mux.Handle("GET /{$}", http.RedirectHandler(contextPath+"/", http.StatusFound))
	}
	return mux
}

// health answers like Spring Boot actuator's health endpoint: UP with 200
// when the database answers, DOWN with 503 otherwise.
func health(db pinger, log zerolog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		w.Header().Set("Content-Type", "application/vnd.spring-boot.actuator.v3+json")
		w.Header().Set("Cache-Control", "no-store")
		if err := db.Ping(ctx); err != nil {
			log.Warn().Err(err).Msg("health check: database unreachable")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":"DOWN"}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":"UP"}`))
	})
}

// loginPlaceholder stands in for the console's login page until the
// console is built; it lets operators and probes see the admin is up.
func loginPlaceholder() http.Handler {
	const page = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>xxl-admin-go</title></head>
<body><h1>xxl-admin-go</h1><p>The scheduling center is running. The web console is not available in this build yet.</p></body></html>
`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html;charset=UTF-8")
		_, _ = w.Write([]byte(page))
	})
}
