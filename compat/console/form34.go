package console

import "strings"

// Parameter binding of the 3.4.2 console (Spring 7), as its jar answers:
// a required parameter that is absent — or empty, for a number — and a
// number that does not convert are the 400 error page (failure34); a
// String given several times is their values joined with ",", for
// @RequestParam and bean properties alike ("jobDesc=&jobDesc=" filters by
// ",").

// joined is a String parameter or bean property: nil when absent, else
// every value joined with ",".
func (f form) joined(name string) *string {
	v, ok := f.vals[name]
	if !ok || len(v) == 0 {
		return nil
	}
	s := strings.Join(v, ",")
	return &s
}

// reqString is a required @RequestParam String: absent is a missingParam.
func (f form) reqString(name string) (string, error) {
	p := f.joined(name)
	if p == nil {
		return "", &missingParam{name: name}
	}
	return *p, nil
}

// idList is a required @RequestParam("ids[]") List<Integer>: one value is
// split on "," (Spring's String-to-collection conversion), several values
// are taken as they are; each item is trimmed, an empty item is null
// (nil here), another must convert. Absent is a missingParam; one empty
// value is the empty list.
func (f form) idList(name string) ([]*int, error) {
	v, ok := f.vals[name]
	if !ok || len(v) == 0 {
		return nil, &missingParam{name: name}
	}
	items := v
	if len(v) == 1 {
		if v[0] == "" {
			return []*int{}, nil
		}
		items = strings.Split(v[0], ",")
	}
	out := make([]*int, 0, len(items))
	for _, item := range items {
		if javaTrim(item) == "" {
			out = append(out, nil)
			continue
		}
		n, err := springInt(item)
		if err != nil {
			return nil, err
		}
		out = append(out, &n)
	}
	return out, nil
}

// oneID is the single id the 3.4.2 delete, start and stop endpoints take
// from "ids[]": any other count is refused with "请选择一条数据" (ok false).
// 3.4.2 fails with a NullPointerException on a single empty item; it is
// refused the same way here.
func (f form) oneID(name string) (id int, ok bool, err error) {
	ids, err := f.idList(name)
	if err != nil {
		return 0, false, err
	}
	if len(ids) != 1 || ids[0] == nil {
		return 0, false, nil
	}
	return *ids[0], true, nil
}
