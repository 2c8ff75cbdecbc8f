package trigger

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// TestGroupCacheTTL: a group is reused for groupTTL, then reloaded; a
// missing group is remembered as missing for as long.
func TestGroupCacheTTL(t *testing.T) {
	s := openSQLite(t)
	ctx := context.Background()
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newGroupCache(s, func() time.Time { return now })
	g, registry, err := c.load(ctx, 1)
	if err != nil || g.AppName != "xxl-job-executor-sample" || registry != nil {
		t.Fatalf("load: %+v %v %v", g, registry, err)
	}
	g.AddressList = schema.Ptr("http://new:1/")
	if _, err := s.GroupUpdate(ctx, g); err != nil {
		t.Fatal(err)
	}
	now = now.Add(groupTTL - time.Millisecond)
	if got, registry, _ := c.load(ctx, 1); got.AddressList != nil || registry != nil {
		t.Fatalf("reloaded within the TTL: %v", *got.AddressList)
	}
	now = now.Add(time.Millisecond)
	got, registry, _ := c.load(ctx, 1)
	if got.AddressList == nil || *got.AddressList != "http://new:1/" || !slices.Equal(registry, []string{"http://new:1/"}) {
		t.Fatalf("not reloaded after the TTL: %v %v", got.AddressList, registry)
	}
	if _, _, err := c.load(ctx, 999); !errors.Is(err, schema.ErrNotFound) {
		t.Fatalf("missing group: %v", err)
	}
}
