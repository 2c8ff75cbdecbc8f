package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// jobAPI starts runs through the admin's job API (docs/job-api.md), the
// way a deploy pipeline or another system would.
type jobAPI struct {
	base   string // http://127.0.0.1:PORT/xxl-job-admin/openapi/v1
	token  string
	client *http.Client
}

func newJobAPI(adminBase, token string) *jobAPI {
	return &jobAPI{base: adminBase + "/openapi/v1", token: token,
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}}}
}

// startRun starts a run of workflow id (POST /workflows/{id}/runs) and
// returns the run's id.
func (a *jobAPI) startRun(ctx context.Context, id int) (string, error) {
	var ans struct {
		Data struct{ ID int64 }
	}
	if err := a.post(ctx, "/workflows/"+strconv.Itoa(id)+"/runs", `{}`, http.StatusCreated, &ans); err != nil {
		return "", err
	}
	return strconv.FormatInt(ans.Data.ID, 10), nil
}

// trigger runs job id once with the parameter (POST /jobs/{id}/trigger).
func (a *jobAPI) trigger(ctx context.Context, id int, param string) error {
	body, _ := json.Marshal(map[string]string{"executorParam": param})
	return a.post(ctx, "/jobs/"+strconv.Itoa(id)+"/trigger", string(body), http.StatusAccepted, nil)
}

func (a *jobAPI) post(ctx context.Context, path, body string, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+path, bytes.NewReader([]byte(body)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := a.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("POST %s: %d %s", path, resp.StatusCode, bytes.TrimSpace(b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("POST %s: %w", path, err)
		}
	}
	return nil
}
