package api

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Result codes of ReturnT (executor-protocol.md §1.2). The admin's API only
// produces these two; executors also report 502 in callbacks (§2.5).
const (
	CodeSuccess = 200
	CodeFail    = 500
)

// ReturnT is xxl-job's response envelope (§1.2). Msg and Content are
// pointers because Java distinguishes null; T is string for every call but
// /log, whose payload is a [LogResult].
//
// Marshalling is Jackson-style, the form the admin writes: all three
// members present, nil as null. Unmarshalling is Gson-lenient (package
// documentation) and reads the payload from "content", falling back to
// "data" when content is absent or null: 3.3+ executors answer with the
// xxl-tool envelope {code,msg,data} (§5.2).
type ReturnT[T any] struct {
	Code    int     `json:"code"`
	Msg     *string `json:"msg"`
	Content *T      `json:"content"`
}

// Success is ReturnT.SUCCESS: code 200, no msg, no content.
func Success[T any]() ReturnT[T] { return ReturnT[T]{Code: CodeSuccess} }

// Fail is a code-500 ReturnT carrying msg.
func Fail[T any](msg string) ReturnT[T] { return ReturnT[T]{Code: CodeFail, Msg: &msg} }

// OK reports success the way every admin-side caller judges it: code == 200.
func (r ReturnT[T]) OK() bool { return r.Code == CodeSuccess }

// MsgText is the msg as Java string concatenation prints it: "null" when
// absent. Trigger logs embed it this way (§3.4: "msg null → printed as null").
func (r ReturnT[T]) MsgText() string {
	if r.Msg == nil {
		return "null"
	}
	return *r.Msg
}

// UnmarshalJSON decodes leniently; null leaves r unchanged, per the
// encoding/json convention.
func (r *ReturnT[T]) UnmarshalJSON(data []byte) error {
	out, present, err := decodeReturnT[T](data)
	if err != nil {
		return err
	}
	if present {
		*r = out
	}
	return nil
}

// The plain successes executors answer: 2.x's ReturnT.SUCCESS as Gson
// writes it (null msg left out), with msg null, and 3.x's full envelope.
const (
	successCode           = `{"code":200}`
	successCodeMsg        = `{"code":200,"msg":null}`
	successCodeMsgContent = `{"code":200,"msg":null,"content":null}`
)

// errNoReturnT marks a body that holds no ReturnT at all (empty,
// whitespace or null).
var errNoReturnT = errors.New("no ReturnT object in the body")

// DecodeReturnT decodes an executor's answer. Unlike UnmarshalJSON, an
// empty, whitespace-only or null body is an error: Java's client yields no
// object there and its callers then fail with a null-pointer error (§3.1);
// treating it as a failed call is the documented divergence.
func DecodeReturnT[T any](data []byte) (ReturnT[T], error) {
	// The answer of nearly every /run, /beat and /idleBeat: a plain
	// success, decoded thousands of times a second on a busy admin.
	switch string(data) {
	case successCode, successCodeMsg, successCodeMsgContent:
		return ReturnT[T]{Code: CodeSuccess}, nil
	}
	out, present, err := decodeReturnT[T](data)
	if err != nil {
		return ReturnT[T]{}, err
	}
	if !present {
		return ReturnT[T]{}, errNoReturnT
	}
	return out, nil
}

func decodeReturnT[T any](data []byte) (ReturnT[T], bool, error) {
	var (
		out          ReturnT[T]
		content, alt json.RawMessage
		memberErr    error
	)
	present, err := decodeObject(data, func(key string, raw json.RawMessage) error {
		switch key {
		case "code":
			out.Code, memberErr = decodeJavaInt(raw)
		case "msg":
			out.Msg, memberErr = decodeJavaString(raw)
		case "content":
			content = raw
		case "data":
			alt = raw
		default:
			return nil
		}
		return memberErr
	})
	if err != nil || !present {
		return ReturnT[T]{}, present, err
	}
	if len(content) == 0 || isNull(content) {
		content = alt
	}
	if out.Content, err = decodePayload[T](content); err != nil {
		return ReturnT[T]{}, true, fmt.Errorf("content: %w", err)
	}
	return out, true, nil
}

// decodePayload decodes the content member; a string payload gets Gson's
// string leniency, other payload types decode with their own rules.
func decodePayload[T any](raw json.RawMessage) (*T, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	v := new(T)
	if s, ok := any(v).(*string); ok {
		p, err := decodeJavaString(raw)
		if err != nil || p == nil {
			return nil, err
		}
		*s = *p
		return v, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, err
	}
	return v, nil
}
