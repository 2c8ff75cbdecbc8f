package javaexec

import (
	"net"
	"strconv"
	"testing"
)

func TestFreePortIsBindable(t *testing.T) {
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatalf("FreePort returned %d, which cannot be bound: %v", port, err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}
