package trigger

import (
	"slices"
	"sync"
)

// msgCache keeps, per job, the last trigger_msg a Flow wrote and the key
// it was rendered from. A job's every fire usually shows the same message
// — the same group, route, address and answer — and rendering it anew
// cost about 2 µs and six allocations per trigger; a hit costs a
// comparison. The text depends on nothing but the key (the message is
// built from it, msgKey.message), the layout and the bundle, and the last
// two are fixed per Flow.
type msgCache struct {
	shards [msgShards]msgShard
}

const (
	// msgShards spreads the senders (up to 300 at once) over locks.
	msgShards = 64
	// msgShardJobs bounds a shard; a full one starts over. 64 × 1,024
	// jobs of about 700 bytes each (the key and a text) are at most 45 MiB.
	msgShardJobs = 1024
)

type msgShard struct {
	mu sync.Mutex
	m  map[int]*msgEntry
}

// msgEntry is never changed once cached, only replaced.
type msgEntry struct {
	key  msgKey
	text *string
}

// msgKey is everything trigger_msg shows, as values. The registry list is
// shared, not copied: the lists come from the group cache or a request's
// own override, and nothing writes to them.
type msgKey struct {
	msgFields
	registry []string
}

// msgFields are the comparable part of msgKey: message's members, each
// pointer as the value behind it and whether it is set.
type msgFields struct {
	typ         Type
	admin       string
	addressType int
	registryNil bool
	routeTitle  string
	shard       shard
	hasShard    bool
	blockTitle  string
	timeout     int
	failRetry   int
	routeMsg    string
	hasRun      bool
	runAddress  string
	runCode     int
	hasRunMsg   bool
	runMsg      string
	hasHandler  bool
	handler     string
	hasParam    bool
	param       string
}

func (k *msgKey) equal(o *msgKey) bool {
	return k.msgFields == o.msgFields && slices.Equal(k.registry, o.registry)
}

// setRun records the /run outcome at address.
func (k *msgKey) setRun(address string, code int, msg *string) {
	k.hasRun, k.runAddress, k.runCode = true, address, code
	k.hasRunMsg = msg != nil
	if msg != nil {
		k.runMsg = *msg
	}
}

// setTexts records handler and param (nil prints "null").
func (k *msgKey) setTexts(handler, param *string) {
	k.hasHandler, k.hasParam = handler != nil, param != nil
	if handler != nil {
		k.handler = *handler
	}
	if param != nil {
		k.param = *param
	}
}

// message is the message k stands for.
func (k *msgKey) message() message {
	m := message{Type: k.typ, AdminAddress: k.admin, AddressType: k.addressType, Registry: k.registry,
		RouteTitle: k.routeTitle, BlockTitle: k.blockTitle, Timeout: k.timeout, FailRetry: k.failRetry,
		RouteMsg: k.routeMsg}
	if k.hasShard {
		sh := k.shard
		m.Shard = &sh
	}
	if k.hasRun {
		m.Run = &runOutcome{Address: k.runAddress, Code: k.runCode}
		if k.hasRunMsg {
			msg := k.runMsg
			m.Run.Msg = &msg
		}
	}
	if k.hasHandler {
		h := k.handler
		m.Handler = &h
	}
	if k.hasParam {
		p := k.param
		m.Param = &p
	}
	return m
}

// get returns the trigger_msg cached for job when its key is k, else nil
// (always nil without a cache).
func (c *msgCache) get(job int, k *msgKey) *string {
	if c == nil {
		return nil
	}
	sh := &c.shards[uint(job)%msgShards]
	sh.mu.Lock()
	e := sh.m[job]
	sh.mu.Unlock()
	if e != nil && e.key.equal(k) {
		return e.text
	}
	return nil
}

// put caches text as job's trigger_msg for k and returns it.
func (c *msgCache) put(job int, k *msgKey, text string) *string {
	if c == nil {
		return &text
	}
	sh := &c.shards[uint(job)%msgShards]
	e := &msgEntry{key: *k, text: &text}
	sh.mu.Lock()
	if sh.m == nil || len(sh.m) >= msgShardJobs {
		sh.m = make(map[int]*msgEntry)
	}
	sh.m[job] = e
	sh.mu.Unlock()
	return e.text
}
