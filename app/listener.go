package app

import (
	"net"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// limitListener caps the connections open at once (server.tomcat.
// max-connections). At the cap, Accept waits until a connection closes —
// Tomcat's behaviour: further clients wait in the kernel's backlog
// instead of each taking a file descriptor, so a flood of idle
// connections cannot exhaust them and stop health, registry and callbacks.
type limitListener struct {
	net.Listener
	slots   chan struct{}
	done    chan struct{}
	close   sync.Once
	open    atomic.Int64
	waits   atomic.Int64 // times Accept found every slot taken
	log     zerolog.Logger
	repeats *loglimit.Repeats
}

func newLimitListener(ln net.Listener, limit int, log zerolog.Logger) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, limit), done: make(chan struct{}),
		log: log, repeats: loglimit.NewRepeats(0, nil)}
}

// Accept waits for a free slot, then for a connection.
func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		l.waits.Add(1)
		if ok, n := l.repeats.Allow("full"); ok {
			l.log.Warn().Int("max_connections", cap(l.slots)).Int("suppressed", n).
				Msg("connection limit reached: new connections wait until one closes (server.tomcat.max-connections)")
		}
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	l.open.Add(1)
	return &limitConn{Conn: c, l: l}, nil
}

// Close stops Accept, also one waiting for a slot.
func (l *limitListener) Close() error {
	l.close.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Open is the number of connections open now.
func (l *limitListener) Open() int64 { return l.open.Load() }

// Waits counts the times a connection had to wait for a slot.
func (l *limitListener) Waits() int64 { return l.waits.Load() }

type limitConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.open.Add(-1)
		<-c.l.slots
	})
	return err
}
