package cron

import "sort"

// intSet is a small sorted set of ints standing in for the Java TreeSet
// fields; only the operations the evaluator needs are provided.
type intSet struct {
	vals []int
}

func (s *intSet) add(v int) {
	i := sort.SearchInts(s.vals, v)
	if i < len(s.vals) && s.vals[i] == v {
		return
	}
	s.vals = append(s.vals, 0)
	copy(s.vals[i+1:], s.vals[i:])
	s.vals[i] = v
}

func (s *intSet) has(v int) bool {
	i := sort.SearchInts(s.vals, v)
	return i < len(s.vals) && s.vals[i] == v
}

// ceil returns the smallest member >= v (TreeSet.tailSet(v).first()).
func (s *intSet) ceil(v int) (int, bool) {
	i := sort.SearchInts(s.vals, v)
	if i == len(s.vals) {
		return 0, false
	}
	return s.vals[i], true
}

// first mirrors TreeSet.first(), which throws on an empty set.
func (s *intSet) first() (int, error) {
	if len(s.vals) == 0 {
		return 0, errNoSuchElement()
	}
	return s.vals[0], nil
}

// last mirrors TreeSet.last(), which throws on an empty set.
func (s *intSet) last() (int, error) {
	if len(s.vals) == 0 {
		return 0, errNoSuchElement()
	}
	return s.vals[len(s.vals)-1], nil
}
