package api

import "encoding/json"

// LogResult is the /log payload as the executor writes it (§3.6).
// A logContent the executor left out (null) reads as "".
type LogResult struct {
	FromLineNum int    `json:"fromLineNum"`
	ToLineNum   int    `json:"toLineNum"`
	LogContent  string `json:"logContent"`
	IsEnd       bool   `json:"isEnd"`
}

// ConsoleLogResult is the shape the console relays to the browser. Jackson
// names the boolean after its getter isEnd(), so the member is "end", and
// the UI reads content.end (§3.6 trap).
type ConsoleLogResult struct {
	FromLineNum int    `json:"fromLineNum"`
	ToLineNum   int    `json:"toLineNum"`
	LogContent  string `json:"logContent"`
	End         bool   `json:"end"`
}

// Console converts to the browser shape.
func (l LogResult) Console() ConsoleLogResult {
	return ConsoleLogResult{
		FromLineNum: l.FromLineNum,
		ToLineNum:   l.ToLineNum,
		LogContent:  l.LogContent,
		End:         l.IsEnd,
	}
}

// ConsoleLog converts a /log answer to the envelope the console sends to
// the browser, keeping code and msg.
func ConsoleLog(r ReturnT[LogResult]) ReturnT[ConsoleLogResult] {
	out := ReturnT[ConsoleLogResult]{Code: r.Code, Msg: r.Msg}
	if r.Content != nil {
		c := r.Content.Console()
		out.Content = &c
	}
	return out
}

// UnmarshalJSON decodes leniently (package documentation).
func (l *LogResult) UnmarshalJSON(data []byte) error {
	var out LogResult
	present, err := decodeObject(data, func(key string, raw json.RawMessage) (err error) {
		switch key {
		case "fromLineNum":
			out.FromLineNum, err = decodeJavaInt(raw)
		case "toLineNum":
			out.ToLineNum, err = decodeJavaInt(raw)
		case "logContent":
			out.LogContent, err = stringOrEmpty(raw)
		case "isEnd":
			out.IsEnd, err = decodeJavaBool(raw)
		}
		return err
	})
	if err == nil && present {
		*l = out
	}
	return err
}
