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

// routes lists the admin's HTTP surfaces under the context path: the
// executor API, the job API (/openapi/), the health probe and the web
// console (which owns every other path, as the Java admin's controllers do).
func routes(contextPath string, api, jobAPI, console http.Handler, db pinger, log zerolog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(contextPath+"/api/", http.StripPrefix(contextPath, api))
	mux.Handle(contextPath+"/openapi/", jobAPI)
	mux.Handle("GET "+contextPath+"/actuator/health", health(db, log))
	mux.Handle(contextPath+"/", console)
	if contextPath != "" {
		mux.Handle(contextPath, console)
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
