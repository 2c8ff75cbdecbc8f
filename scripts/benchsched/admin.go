package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// admin is the admin under measurement, as a child process or in-process.
type admin interface {
	pid() int
	stop() error
}

type process struct{ a *cluster.Admin }

func (p process) pid() int    { return p.a.PID() }
func (p process) stop() error { return p.a.Terminate(30 * time.Second) }

// inProcess is app.Run in this process, so that runtime/pprof sees it.
type inProcess struct {
	cancel context.CancelFunc
	done   chan error
}

func (p inProcess) pid() int { return os.Getpid() }

func (p inProcess) stop() error {
	p.cancel()
	select {
	case err := <-p.done:
		return err
	case <-time.After(30 * time.Second):
		return fmt.Errorf("in-process admin did not stop within 30 s")
	}
}

func startAdmin(o options, args []string, logPath string) (admin, error) {
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	if !o.inProcess {
		a, err := cluster.StartAdmin(o.bin, args, out, 30*time.Second)
		if err != nil {
			return nil, err
		}
		return process{a}, nil
	}
	port, err := cluster.FreePort()
	if err != nil {
		return nil, err
	}
	all := append([]string{fmt.Sprintf("--server.port=%d", port), "--server.address=127.0.0.1"}, args...)
	cfg, err := config.Load(config.Env{Args: all, ReadFile: os.ReadFile})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	p := inProcess{cancel: cancel, done: make(chan error, 1)}
	go func() {
		p.done <- app.Run(ctx, cfg, zerolog.New(out).With().Timestamp().Logger(),
			app.Options{Ready: func(a net.Addr) { ready <- a }})
	}()
	select {
	case <-ready:
		return p, nil
	case err := <-p.done:
		cancel()
		return nil, fmt.Errorf("in-process admin: %w", err)
	case <-time.After(30 * time.Second):
		cancel()
		return nil, fmt.Errorf("in-process admin not ready within 30 s")
	}
}
