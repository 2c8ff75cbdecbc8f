package app

import (
	"net"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// Attack 1 (connection flood): at server.tomcat.max-connections, Accept
// waits until a connection closes instead of taking more descriptors, and
// Close wakes it.
func TestAttackConnectionFlood(t *testing.T) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(tcp, 2, zerolog.Nop())
	accepted := make(chan net.Conn, 10)
	stopped := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				stopped <- err
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", tcp.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	_ = second
	for deadline := time.Now().Add(5 * time.Second); ln.Waits() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Accept did not wait at the limit")
		}
	}
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted at a limit of 2")
	default:
	}
	if ln.Open() != 2 {
		t.Fatalf("open %d", ln.Open())
	}
	_ = first.Close()
	third := <-accepted // the slot freed by the first
	_ = first.Close()   // a second Close frees nothing more
	if ln.Open() != 2 {
		t.Fatalf("open %d after one closed and one accepted", ln.Open())
	}
	_ = third.Close()
	_ = second.Close()
	// Close wakes an Accept waiting for a slot as well as one waiting for
	// a connection.
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-stopped; err == nil {
		t.Fatal("Accept after Close returned no error")
	}
}

func TestConnectionCap(t *testing.T) {
	for _, tt := range []struct{ configured, files, want int }{
		{8192, 0, 8192},
		{8192, 1 << 20, 8192},
		{8192, 8192 + 512, 8192},
		{8192, 1024, 512},
		{8192, 600, 300},
	} {
		if got := connectionCap(tt.configured, tt.files, zerolog.Nop()); got != tt.want {
			t.Errorf("connectionCap(%d, %d) = %d, want %d", tt.configured, tt.files, got, tt.want)
		}
	}
}
