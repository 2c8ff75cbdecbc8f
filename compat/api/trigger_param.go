package api

import "encoding/json"

// TriggerParam is the body of /run (§3.4). Member order is Java's field
// order, which Gson keeps (recording admin_client_probe); the pointer
// members are the ones whose column may be NULL, left out when nil as Gson
// leaves out nulls. GlueType is always sent because xxl_job_info.glue_type
// is NOT NULL. Note executorParams is plural.
type TriggerParam struct {
	JobID                 int     `json:"jobId"`
	ExecutorHandler       *string `json:"executorHandler,omitempty"`
	ExecutorParams        *string `json:"executorParams,omitempty"`
	ExecutorBlockStrategy *string `json:"executorBlockStrategy,omitempty"`
	ExecutorTimeout       int     `json:"executorTimeout"`
	LogID                 int64   `json:"logId"`
	LogDateTime           int64   `json:"logDateTime"`
	GlueType              string  `json:"glueType"`
	GlueSource            *string `json:"glueSource,omitempty"`
	GlueUpdatetime        int64   `json:"glueUpdatetime"`
	BroadcastIndex        int     `json:"broadcastIndex"`
	BroadcastTotal        int     `json:"broadcastTotal"`
}

// UnmarshalJSON decodes leniently (package documentation). A null or
// missing glueType reads as "".
func (p *TriggerParam) UnmarshalJSON(data []byte) error {
	var out TriggerParam
	present, err := decodeObject(data, out.member)
	if err == nil && present {
		*p = out
	}
	return err
}

func (p *TriggerParam) member(key string, raw json.RawMessage) (err error) {
	switch key {
	case "jobId":
		p.JobID, err = decodeJavaInt(raw)
	case "executorHandler":
		p.ExecutorHandler, err = decodeJavaString(raw)
	case "executorParams":
		p.ExecutorParams, err = decodeJavaString(raw)
	case "executorBlockStrategy":
		p.ExecutorBlockStrategy, err = decodeJavaString(raw)
	case "executorTimeout":
		p.ExecutorTimeout, err = decodeJavaInt(raw)
	case "logId":
		p.LogID, err = decodeJavaLong(raw)
	case "logDateTime":
		p.LogDateTime, err = decodeJavaLong(raw)
	case "glueType":
		p.GlueType, err = stringOrEmpty(raw)
	case "glueSource":
		p.GlueSource, err = decodeJavaString(raw)
	case "glueUpdatetime":
		p.GlueUpdatetime, err = decodeJavaLong(raw)
	case "broadcastIndex":
		p.BroadcastIndex, err = decodeJavaInt(raw)
	case "broadcastTotal":
		p.BroadcastTotal, err = decodeJavaInt(raw)
	}
	return err
}
