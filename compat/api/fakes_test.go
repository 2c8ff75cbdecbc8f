package api

import (
	"context"
	"sync"
)

// fakeStore records what reached Registry and Callbacks.
type fakeStore struct {
	mu         sync.Mutex
	registered []RegistryParam
	removed    []RegistryParam
	callbacks  [][]HandleCallbackParam
	err        error
	panicMsg   string
	// release, when set, blocks every call until it is closed, ignoring
	// the context; finished is closed when such a call returns.
	release  chan struct{}
	finished chan struct{}
}

func (f *fakeStore) hold() error {
	if f.panicMsg != "" {
		panic(f.panicMsg)
	}
	if f.release != nil {
		<-f.release
		defer close(f.finished)
	}
	return f.err
}

func (f *fakeStore) Registry(_ context.Context, p RegistryParam) error {
	if err := f.hold(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.registered = append(f.registered, p)
	return nil
}

func (f *fakeStore) RegistryRemove(_ context.Context, p RegistryParam) error {
	if err := f.hold(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removed = append(f.removed, p)
	return nil
}

func (f *fakeStore) Callback(_ context.Context, items []HandleCallbackParam) error {
	if err := f.hold(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.callbacks = append(f.callbacks, items)
	return nil
}

func (f *fakeStore) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.registered) + len(f.removed) + len(f.callbacks)
}

// successBody is a 2.x success answer.
var successBody = ReturnTEnvelope.success()
