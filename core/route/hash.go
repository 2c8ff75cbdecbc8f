package route

import (
	"cmp"
	"context"
	"crypto/md5"
	"encoding/binary"
	"slices"
	"strconv"
)

// virtualNodes is the number of ring points per address
// (ExecutorRouteConsistentHash.VIRTUAL_NODE_NUM in 2.4.2, routing.md §1.3).
const virtualNodes = 100

// consistentHash maps a job to an address on an md5 hash ring
// (routing.md §1.3). It is stateless: the ring is rebuilt per call, as in
// Java, so a changed list takes effect immediately.
type consistentHash struct{}

// ringPoint is one virtual node; owner indexes the address list.
type ringPoint struct {
	hash  uint32
	owner int
}

func (consistentHash) Route(_ context.Context, req Request, addresses []string) Result {
	if len(addresses) == 0 {
		return emptyList()
	}
	ring := buildRing(addresses)
	point := ringHash(strconv.Itoa(req.JobID))
	i, _ := slices.BinarySearchFunc(ring, point, func(p ringPoint, t uint32) int { return cmp.Compare(p.hash, t) })
	if i == len(ring) {
		// Past the largest point: wrap around to the smallest.
		i = 0
	}
	return Result{Code: CodeSuccess, Address: addresses[ring[i].owner]}
}

// buildRing returns the ring points of addresses in ascending hash order.
func buildRing(addresses []string) []ringPoint {
	ring := make([]ringPoint, 0, len(addresses)*virtualNodes)
	var key []byte // reused: the ring is rebuilt on every trigger
	for owner, addr := range addresses {
		key = append(append(append(key[:0], "SHARD-"...), addr...), "-NODE-"...)
		prefix := len(key)
		for i := range virtualNodes {
			key = strconv.AppendInt(key[:prefix], int64(i), 10)
			ring = append(ring, ringPoint{ringHashBytes(key), owner})
		}
	}
	return sortRing(ring)
}

// sortRing sorts points by hash and keeps one point per hash; on a
// collision the later insertion wins, as with Java's TreeMap.put. Points
// are inserted in owner order, so the highest owner is the latest (equal
// owners name the same address). It reuses the slice.
func sortRing(ring []ringPoint) []ringPoint {
	slices.SortFunc(ring, func(a, b ringPoint) int {
		return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.owner, b.owner))
	})
	out := ring[:0]
	for i, p := range ring {
		if i+1 < len(ring) && ring[i+1].hash == p.hash {
			continue
		}
		out = append(out, p)
	}
	return out
}

// ringHash is the first four md5 digest bytes of key read little-endian
// (routing.md §1.3).
func ringHash(key string) uint32 { return ringHashBytes([]byte(key)) }

func ringHashBytes(key []byte) uint32 {
	sum := md5.Sum(key)
	return binary.LittleEndian.Uint32(sum[:4])
}
