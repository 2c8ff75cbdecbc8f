package api

import "encoding/json"

// IdleBeatParam is the body of /idleBeat (§3.3).
type IdleBeatParam struct {
	JobID int `json:"jobId"`
}

// KillParam is the body of /kill (§3.5).
type KillParam struct {
	JobID int `json:"jobId"`
}

// LogParam is the body of /log (§3.6). LogDateTim (no final "e") is the
// log row's trigger_time as stored, in epoch ms.
type LogParam struct {
	LogDateTim  int64 `json:"logDateTim"`
	LogID       int64 `json:"logId"`
	FromLineNum int   `json:"fromLineNum"`
}

// UnmarshalJSON decodes leniently (package documentation).
func (p *IdleBeatParam) UnmarshalJSON(data []byte) error {
	return decodeJobID(data, &p.JobID)
}

// UnmarshalJSON decodes leniently (package documentation).
func (p *KillParam) UnmarshalJSON(data []byte) error {
	return decodeJobID(data, &p.JobID)
}

func decodeJobID(data []byte, dst *int) error {
	var id int
	present, err := decodeObject(data, func(key string, raw json.RawMessage) (err error) {
		if key == "jobId" {
			id, err = decodeJavaInt(raw)
		}
		return err
	})
	if err == nil && present {
		*dst = id
	}
	return err
}

// UnmarshalJSON decodes leniently (package documentation).
func (p *LogParam) UnmarshalJSON(data []byte) error {
	var out LogParam
	present, err := decodeObject(data, func(key string, raw json.RawMessage) (err error) {
		switch key {
		case "logDateTim":
			out.LogDateTim, err = decodeJavaLong(raw)
		case "logId":
			out.LogID, err = decodeJavaLong(raw)
		case "fromLineNum":
			out.FromLineNum, err = decodeJavaInt(raw)
		}
		return err
	})
	if err == nil && present {
		*p = out
	}
	return err
}
