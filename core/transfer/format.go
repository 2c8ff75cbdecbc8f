package transfer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The document's name and version. Version 1 is the first; a reader
// refuses a higher version (written by a newer xxl-admin-go) instead of
// guessing, and a change that older readers would misread gets a new one.
const (
	FormatName = "xxl-admin-go/jobs"
	Version    = 1
)

// Document is an export file: executor groups and jobs, with no database
// ids — groups are named by app name and jobs refer to their children by
// identity, so a document moves between environments.
type Document struct {
	Format     string  `json:"format"`     // FormatName
	Version    int     `json:"version"`    // Version
	ExportedAt string  `json:"exportedAt"` // RFC 3339, informational
	Groups     []Group `json:"groups"`
	Jobs       []Job   `json:"jobs"`
	// Workflows are written only when there are some (and workflows are
	// on): a document without them reads as before, and a reader older
	// than the member refuses one that carries it.
	Workflows []Workflow `json:"workflows,omitempty"`
}

// Group is an executor group (xxl_job_group), identified by AppName.
type Group struct {
	AppName string `json:"appname"`
	Title   string `json:"title"`
	// AddressType is 0 for automatic registration, 1 for a manual list.
	AddressType int `json:"addressType"`
	// AddressList is a manual group's executor addresses; an automatic
	// group's list is rebuilt from live registrations and not exported.
	AddressList []string `json:"addressList"`
}

// Job is a job (xxl_job_info) with its GLUE source. Its identity is Key
// when set, else Group + ExecutorHandler + JobDesc. Nullable columns are
// pointers: null stays NULL.
type Job struct {
	Group        string  `json:"group"` // the executor group's app name
	Key          string  `json:"key,omitempty"`
	JobDesc      string  `json:"jobDesc"` // without the key marker
	Author       *string `json:"author"`
	AlarmEmail   *string `json:"alarmEmail"`
	ScheduleType string  `json:"scheduleType"`
	ScheduleConf *string `json:"scheduleConf"`
	// ScheduleTimezone is the job's own time zone (an IANA id) for CRON
	// times, written only when it has one: absent is the admin's zone. A
	// reader older than the member refuses a document that carries it.
	ScheduleTimezone       string  `json:"scheduleTimezone,omitempty"`
	MisfireStrategy        string  `json:"misfireStrategy"`
	ExecutorRouteStrategy  *string `json:"executorRouteStrategy"`
	ExecutorHandler        *string `json:"executorHandler"`
	ExecutorParam          *string `json:"executorParam"`
	ExecutorBlockStrategy  *string `json:"executorBlockStrategy"`
	ExecutorTimeout        int     `json:"executorTimeout"`
	ExecutorFailRetryCount int     `json:"executorFailRetryCount"`
	GlueType               string  `json:"glueType"`
	GlueSource             *string `json:"glueSource"`
	GlueRemark             *string `json:"glueRemark"`
	// ChildJobs are the jobs a success triggers, by identity.
	ChildJobs []Ref `json:"childJobs"`
	// Running is the job's trigger status (true: scheduled).
	Running bool `json:"running"`
}

// Ref names a job by identity: Key when set, else Group + ExecutorHandler
// + JobDesc.
type Ref struct {
	Group           string `json:"group"`
	Key             string `json:"key,omitempty"`
	ExecutorHandler string `json:"executorHandler"`
	JobDesc         string `json:"jobDesc"`
}

func (r Ref) String() string {
	if r.Key != "" {
		return fmt.Sprintf("key %q", r.Key)
	}
	return fmt.Sprintf("%s / %s / %q", r.Group, r.ExecutorHandler, r.JobDesc)
}

// Ref is the job's own identity.
func (j Job) Ref() Ref {
	handler := ""
	if j.ExecutorHandler != nil {
		handler = *j.ExecutorHandler
	}
	return Ref{Group: j.Group, Key: j.Key, ExecutorHandler: handler, JobDesc: j.JobDesc}
}

// maxDocument bounds what Decode reads (a few thousand jobs with GLUE
// sources fit easily).
const maxDocument = 64 << 20

// Decode reads a document strictly: unknown members are refused (a typo
// must not silently drop a setting), as are another format, a newer
// version and trailing data.
func Decode(r io.Reader) (Document, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxDocument+1))
	if err != nil {
		return Document{}, fmt.Errorf("read document: %w", err)
	}
	if len(b) > maxDocument {
		return Document{}, fmt.Errorf("document larger than %d MiB", maxDocument>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var d Document
	if err := dec.Decode(&d); err != nil {
		return Document{}, fmt.Errorf("not a jobs document: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Document{}, errors.New("not a jobs document: data after the document")
	}
	if d.Format != FormatName {
		return Document{}, fmt.Errorf("not a jobs document: format %q, want %q", d.Format, FormatName)
	}
	if d.Version < 1 || d.Version > Version {
		return Document{}, fmt.Errorf("jobs document version %d: this xxl-admin-go reads version %d", d.Version, Version)
	}
	return d, nil
}

// Encode writes a document as indented JSON (files are read and diffed by
// people), without HTML escaping.
func Encode(w io.Writer, d Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}
