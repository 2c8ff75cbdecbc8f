package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
)

// executor is the fake executor of the benchmark: a minimal HTTP/1.1
// server that answers every call with success and records each /run's job
// and log id with the time its request line arrived. It shares the box with
// the admin and MariaDB, so it is kept cheap — a few microseconds a call,
// where a net/http server with a JSON decoder took about as much CPU as the
// admin's own trigger — and the same for the Java admin and ours.
type executor struct {
	ln net.Listener
	wg sync.WaitGroup

	mu    sync.Mutex
	fires []cluster.Fire
	conns map[net.Conn]bool
}

// answer is the ReturnT success the Java executor sends.
const answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: 23\r\n\r\n{\"code\":200,\"msg\":null}"

func startExecutor() (*executor, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e := &executor{ln: ln, fires: make([]cluster.Fire, 0, 1<<20), conns: map[net.Conn]bool{}}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			e.mu.Lock()
			e.conns[c] = true
			e.mu.Unlock()
			e.wg.Add(1)
			go func() {
				defer e.wg.Done()
				e.serve(c)
				e.mu.Lock()
				delete(e.conns, c)
				e.mu.Unlock()
			}()
		}
	}()
	return e, nil
}

// address is the executor address as stored in a group's address_list.
func (e *executor) address() string { return "http://" + e.ln.Addr().String() + "/" }

// serve answers the requests of one keep-alive connection.
func (e *executor) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReaderSize(c, 8<<10)
	bw := bufio.NewWriterSize(c, 512)
	var body []byte
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		at := time.Now()
		run := bytes.Contains(line, []byte("/run "))
		length, closing := 0, false
		for {
			h, err := br.ReadSlice('\n')
			if err != nil {
				return
			}
			if len(bytes.TrimSpace(h)) == 0 {
				break
			}
			k, v, ok := bytes.Cut(h, []byte(":"))
			if !ok {
				continue
			}
			v = bytes.TrimSpace(v)
			switch {
			case bytes.EqualFold(k, []byte("Content-Length")):
				length, _ = strconv.Atoi(string(v))
			case bytes.EqualFold(k, []byte("Connection")) && bytes.EqualFold(v, []byte("close")):
				closing = true
			}
		}
		if cap(body) < length {
			body = make([]byte, length)
		}
		body = body[:length]
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		if run {
			e.record(body, at)
		}
		if _, err := bw.WriteString(answer); err != nil || bw.Flush() != nil || closing {
			return
		}
	}
}

// record notes a /run from its body's jobId, logId and logDateTime. The
// trigger time lets duplicates be counted per trigger second (ours sends
// the planned second, Java the moment it wrote the log row) instead of per
// second of receipt, where a late fire of one second and the on-time fire
// of the next would look like two fires of one second.
func (e *executor) record(body []byte, at time.Time) {
	f := cluster.Fire{JobID: int(number(body, `"jobId":`)), LogID: number(body, `"logId":`), At: at}
	if ms := number(body, `"logDateTime":`); ms > 0 {
		f.Trigger = time.UnixMilli(ms)
	}
	e.mu.Lock()
	e.fires = append(e.fires, f)
	e.mu.Unlock()
}

// number reads the integer after key in a JSON body, 0 when absent.
func number(body []byte, key string) int64 {
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		return 0
	}
	var n int64
	for _, c := range body[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// Fires returns a copy of the fires received so far.
func (e *executor) Fires() []cluster.Fire {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]cluster.Fire(nil), e.fires...)
}

// Count is the number of fires received so far.
func (e *executor) Count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.fires)
}

// Close stops the server and its connections.
func (e *executor) Close() {
	e.ln.Close()
	e.mu.Lock()
	for c := range e.conns {
		c.Close()
	}
	e.mu.Unlock()
	e.wg.Wait()
}
