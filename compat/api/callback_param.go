package api

import "encoding/json"

// HandleCallbackParam is one element of the /api/callback array (§2.5).
// The JSON name logDateTim really lacks its final "e".
type HandleCallbackParam struct {
	LogID      int64   `json:"logId"`
	LogDateTim int64   `json:"logDateTim"`
	HandleCode int     `json:"handleCode"`
	HandleMsg  *string `json:"handleMsg,omitempty"`
}

// DecodeCallbackParams decodes a callback body. An empty body, null and []
// all give an empty list: Java answers success for them (§2.2 notes).
// A null element is skipped — a deliberate divergence: Java's worker aborts
// at a null element and silently drops the rest of the POST (§2.5 step 3),
// which can only lose results.
func DecodeCallbackParams(data []byte) ([]HandleCallbackParam, error) {
	var out []HandleCallbackParam
	_, err := decodeArray(data, func(raw json.RawMessage) error {
		var p HandleCallbackParam
		present, err := decodeObject(raw, p.member)
		if err != nil || !present {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UnmarshalJSON decodes leniently (package documentation).
func (p *HandleCallbackParam) UnmarshalJSON(data []byte) error {
	var out HandleCallbackParam
	present, err := decodeObject(data, out.member)
	if err == nil && present {
		*p = out
	}
	return err
}

func (p *HandleCallbackParam) member(key string, raw json.RawMessage) (err error) {
	switch key {
	case "logId":
		p.LogID, err = decodeJavaLong(raw)
	case "logDateTim":
		p.LogDateTim, err = decodeJavaLong(raw)
	case "handleCode":
		p.HandleCode, err = decodeJavaInt(raw)
	case "handleMsg":
		p.HandleMsg, err = decodeJavaString(raw)
	}
	return err
}
