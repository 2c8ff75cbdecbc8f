package mailbox

import "sync"

// Hold stops one message in DATA, before the server answers, until
// released: the sending admin is then in the middle of that mail.
type Hold struct {
	held    chan int64
	release chan struct{}
	once    sync.Once
}

// Held receives the held message's log id (Message.LogID) once it arrives.
func (h *Hold) Held() <-chan int64 { return h.held }

// Release lets the held message (or the next one, if none is held yet)
// through. Safe to call more than once.
func (h *Hold) Release() { h.once.Do(func() { close(h.release) }) }

// HoldNext arms a hold for the next message. Close releases it at the
// latest, so no session is left blocked.
func (s *Server) HoldNext() *Hold {
	h := &Hold{held: make(chan int64, 1), release: make(chan struct{})}
	s.mu.Lock()
	s.hold = h
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	return h
}

// holdIfArmed blocks a session on the armed hold, if any, and disarms it.
func (s *Server) holdIfArmed(m Message) {
	s.mu.Lock()
	h := s.hold
	s.hold = nil
	s.mu.Unlock()
	if h != nil {
		h.held <- m.LogID()
		<-h.release
	}
}
