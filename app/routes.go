package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// pinger is what the health endpoint needs of the store.
type pinger interface {
	Ping(ctx context.Context) error
}

// routes lists the admin's HTTP surfaces under the context path: the
// executor API, the job API (/openapi/), the health probe, the metrics
// when exposed (nil: not) and the web console (which owns every other path,
// as the Java admin's controllers do).
func routes(contextPath string, api, jobAPI, console http.Handler, db pinger, warnings []string, info, metrics http.Handler, log zerolog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(contextPath+"/api/", http.StripPrefix(contextPath, api))
	mux.Handle(contextPath+"/openapi/", jobAPI)
	mux.Handle("GET "+contextPath+"/actuator/health", health(db, warnings, log))
	mux.Handle("GET "+contextPath+"/actuator/info", info)
	if metrics != nil {
		mux.Handle("GET "+contextPath+"/actuator/prometheus", metrics)
	}
	mux.Handle(contextPath+"/", console)
	if contextPath != "" {
		mux.Handle(contextPath, console)
		mux.Handle("GET /{$}", http.RedirectHandler(contextPath+"/", http.StatusFound))
	}
	return mux
}

// health answers like Spring Boot actuator's health endpoint: UP with 200
// when the database answers, DOWN with 503 otherwise. Unsafe settings are
// listed under details.warnings (they do not make the admin DOWN: a load
// balancer must not take it out for them).
func health(db pinger, warnings []string, log zerolog.Logger) http.Handler {
	details := ""
	if len(warnings) > 0 {
		b, _ := json.Marshal(map[string][]string{"warnings": warnings})
		details = `,"details":` + string(b)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		w.Header().Set("Content-Type", "application/vnd.spring-boot.actuator.v3+json")
		w.Header().Set("Cache-Control", "no-store")
		if err := db.Ping(ctx); err != nil {
			log.Warn().Err(err).Msg("health check: database unreachable")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":"DOWN"` + details + `}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":"UP"` + details + `}`))
	})
}

// info answers like Spring Boot actuator's info endpoint, with the build
// and the schema generation the database holds (the Java admins expose no
// info contributors; ours says which Java admin this one stands in for).
func info(gen schema.Generation, backend schema.Backend) http.Handler {
	b := Build()
	body, _ := json.Marshal(map[string]any{
		"build":  map[string]string{"name": "xxl-admin-go", "version": b.Version, "commit": b.Commit, "go": b.Go},
		"schema": map[string]string{"generation": gen.String(), "behaves_as": javaRelease(gen), "backend": string(backend)},
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.spring-boot.actuator.v3+json")
		_, _ = w.Write(body)
	})
}

// withPrefix gives h the whole path again where http.StripPrefix cut the
// context path off (the API handler's requests it does not route go to
// the console, which reads the context path itself).
func withPrefix(prefix string, h http.Handler) http.Handler {
	if prefix == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := new(http.Request)
		*r2 = *r
		r2.URL = new(url.URL)
		*r2.URL = *r.URL
		r2.URL.Path = prefix + r.URL.Path
		if r.URL.RawPath != "" {
			r2.URL.RawPath = prefix + r.URL.RawPath
		}
		h.ServeHTTP(w, r2)
	})
}
