// Package protobench measures the executor-facing API end to end: HTTP
// POSTs of registry beats and callbacks into an in-process admin on a real
// database, as many executors would send them (issue 3's throughput goals:
// 20,000 registry beats/s and 10,000 callback items/s with MariaDB).
package protobench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

type target struct {
	name string
	url  func(b *testing.B) (string, string, string)
}

var targets = []target{
	{"sqlite", func(b *testing.B) (string, string, string) {
		return "jdbc:sqlite:" + filepath.Join(b.TempDir(), "x.db"), "", ""
	}},
	{"mysql", func(b *testing.B) (string, string, string) { return storetest.MySQLURL(b) }},
}

func startAdmin(b *testing.B, tg target) (string, *schema.Store) {
	url, user, pass := tg.url(b)
	base := admintest.Start(b, "--spring.datasource.url="+url, "--spring.datasource.username="+user,
		"--spring.datasource.password="+pass, "--xxl.job.accessToken=default_token",
		"--spring.datasource.hikari.maximum-pool-size=64", "--logging.level.root=warn")
	t, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		b.Fatal(err)
	}
	s, err := schema.Open(context.Background(), t, schema.PoolSettings{MaxOpen: 8})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return base, s
}

func post(b *testing.B, c *http.Client, url, body string) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", "default_token")
	resp, err := c.Do(req)
	if err != nil {
		b.Error(err)
		return
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, []byte(`{"code":200,"msg":null,"content":null}`)) {
		b.Errorf("answer %s", got)
	}
}

func client() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 10 * time.Second}
}

func beatBody(i int64) string {
	return fmt.Sprintf(`{"registryGroup":"EXECUTOR","registryKey":"bench-app","registryValue":"http://10.0.%d.%d:9999/"}`, i/250, i%250)
}

// BenchmarkRegistryBeat: each op is one /api/registry POST refreshing one of
// 1,000 registered executors (the steady state: every executor beats every
// 30 s), from 64 concurrent senders.
func BenchmarkRegistryBeat(b *testing.B) {
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			base, _ := startAdmin(b, tg)
			c := client()
			for i := int64(0); i < 1000; i++ {
				post(b, c, base+"/xxl-job-admin/api/registry", beatBody(i))
			}
			var n atomic.Int64
			b.SetParallelism(32) // × GOMAXPROCS senders
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := n.Add(1) % 1000
					post(b, c, base+"/xxl-job-admin/api/registry", beatBody(i))
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "beats/s")
		})
	}
}

// BenchmarkCallback: each op is one callback item; POSTs carry 10 items
// (executors batch results that finish together), for logs that exist.
func BenchmarkCallback(b *testing.B) {
	const perPost = 10
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			base, s := startAdmin(b, tg)
			ctx := context.Background()
			now := time.Now()
			posts := (b.N + perPost - 1) / perPost
			ids := make([]int64, posts*perPost)
			err := s.WithTx(ctx, func(tx *schema.Store) error {
				for i := range ids {
					id, err := tx.LogSave(ctx, schema.JobLog{JobGroup: 1, JobID: 1, TriggerTime: &now})
					if err != nil {
						return err
					}
					ids[i] = id
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			c := client()
			var next atomic.Int64
			b.SetParallelism(16)
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					p := next.Add(1) - 1
					if p >= int64(posts) {
						continue
					}
					var sb strings.Builder
					sb.WriteByte('[')
					for k := 0; k < perPost; k++ {
						if k > 0 {
							sb.WriteByte(',')
						}
						fmt.Fprintf(&sb, `{"logId":%d,"logDateTim":%d,"handleCode":200,"handleMsg":"ok"}`, ids[int(p)*perPost+k], now.UnixMilli())
					}
					sb.WriteByte(']')
					post(b, c, base+"/xxl-job-admin/api/callback", sb.String())
				}
			})
			elapsed := time.Since(start)
			b.ReportMetric(float64(posts*perPost)/elapsed.Seconds(), "items/s")
			b.StopTimer()
			// Every item must have been stored before its answer.
			l, err := s.LogLoad(ctx, ids[len(ids)-1])
			if err != nil || l.HandleCode != 200 {
				b.Fatalf("last log not finished: %+v %v", l, err)
			}
		})
	}
}
