package schema

import (
	"context"
	"reflect"
	"testing"
	"time"
)

const heartbeatTimeout = 90 * time.Second // RegistryConfig.DEAD_TIMEOUT

func registryRows(t *testing.T, s *Store) string {
	t.Helper()
	return *rawString(t, s, "SELECT CAST(count(1) AS CHAR) FROM xxl_job_registry")
}

// TestRegistryDeadAndAlive covers findDead/findAll (schema.md §4.6): a row
// exactly at now-timeout is neither dead nor alive, NULL is neither.
func TestRegistryDeadAndAlive(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := at(s, 2024, 6, 1, 12, 0, 0)
		mustNoErr(t, s.RegistrySave(ctx, "EXECUTOR", "app", "http://alive:9999/", now.Add(-89*time.Second)))
		mustNoErr(t, s.RegistrySave(ctx, "EXECUTOR", "app", "http://edge:9999/", now.Add(-90*time.Second)))
		mustNoErr(t, s.RegistrySave(ctx, "EXECUTOR", "app", "http://dead:9999/", now.Add(-91*time.Second)))
		rawExec(t, s, "INSERT INTO xxl_job_registry (registry_group, registry_key, registry_value, update_time) VALUES ('EXECUTOR', 'app', 'http://null:9999/', NULL)")

		alive, err := s.RegistryFindAll(ctx, heartbeatTimeout, now)
		mustNoErr(t, err)
		if len(alive) != 1 {
			t.Fatalf("RegistryFindAll = %+v, want only alive", alive)
		}
		ut := now.Add(-89 * time.Second)
		assertRow(t, alive[0], Registry{ID: alive[0].ID, RegistryGroup: "EXECUTOR", RegistryKey: "app",
			RegistryValue: "http://alive:9999/", UpdateTime: &ut})

		dead, err := s.RegistryFindDead(ctx, heartbeatTimeout, now)
		mustNoErr(t, err)
		if len(dead) != 1 {
			t.Fatalf("RegistryFindDead = %v, want one", dead)
		}
		n, err := s.RegistryRemoveDead(ctx, dead)
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("RegistryRemoveDead = %d", n)
		}
		if n, err := s.RegistryRemoveDead(ctx, nil); n != 0 || err != nil {
			t.Errorf("RegistryRemoveDead(nil) = %d, %v", n, err)
		}
		if got := registryRows(t, s); got != "3" {
			t.Errorf("%s rows left, want 3", got)
		}
		// One second later the edge row is dead too.
		dead, err = s.RegistryFindDead(ctx, heartbeatTimeout, now.Add(time.Second))
		mustNoErr(t, err)
		if len(dead) != 1 {
			t.Errorf("a second later: dead = %v, want the edge row", dead)
		}
	})
}

// TestRegistryUpsert covers the heartbeat's update-then-insert: a second
// heartbeat in the same second writes an unchanged update_time, which must
// still count as matched (found rows, schema.md §3) and not insert twice.
func TestRegistryUpsert(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := at(s, 2024, 6, 1, 12, 0, 0)
		inserted, err := s.RegistryUpsert(ctx, "EXECUTOR", "app", "http://a:9999/", now)
		mustNoErr(t, err)
		if !inserted {
			t.Errorf("first upsert did not insert")
		}
		for _, ts := range []time.Time{now, now.Add(400 * time.Millisecond), now.Add(30 * time.Second)} {
			inserted, err = s.RegistryUpsert(ctx, "EXECUTOR", "app", "http://a:9999/", ts)
			mustNoErr(t, err)
			if inserted {
				t.Errorf("upsert at %s inserted a duplicate", ts)
			}
		}
		if got := registryRows(t, s); got != "1" {
			t.Fatalf("%s registry rows, want 1", got)
		}
		n, err := s.RegistryUpdate(ctx, "EXECUTOR", "app", "http://a:9999/", now.Add(30*time.Second))
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("unchanged RegistryUpdate = %d, want 1 matched", n)
		}
		all, err := s.RegistryFindAll(ctx, heartbeatTimeout, now.Add(time.Minute))
		mustNoErr(t, err)
		want := now.Add(30 * time.Second)
		if len(all) != 1 || !all[0].UpdateTime.Equal(want) {
			t.Errorf("after refresh: %+v, want update_time %s", all, want)
		}

		// Another address or key is another row.
		inserted, err = s.RegistryUpsert(ctx, "EXECUTOR", "app", "http://b:9999/", now)
		mustNoErr(t, err)
		if !inserted {
			t.Errorf("new address not inserted")
		}
		n, err = s.RegistryDelete(ctx, "EXECUTOR", "app", "http://a:9999/")
		mustNoErr(t, err)
		if n != 1 {
			t.Errorf("RegistryDelete = %d", n)
		}
		all, err = s.RegistryFindAll(ctx, heartbeatTimeout, now)
		mustNoErr(t, err)
		var values []string
		for _, r := range all {
			values = append(values, r.RegistryValue)
		}
		if !reflect.DeepEqual(values, []string{"http://b:9999/"}) {
			t.Errorf("left: %v", values)
		}
	})
}

// TestRegistryRemoveByKey: removing a 3.x group removes every registration
// of its appname, live or dead, and nothing of other appnames or of the
// ADMIN group.
func TestRegistryRemoveByKey(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := at(s, 2024, 6, 1, 12, 0, 0)
		mustNoErr(t, s.RegistrySave(ctx, "EXECUTOR", "app", "http://a:9999/", now))
		mustNoErr(t, s.RegistrySave(ctx, "EXECUTOR", "app", "http://dead:9999/", now.Add(-time.Hour)))
		mustNoErr(t, s.RegistrySave(ctx, "EXECUTOR", "other", "http://b:9999/", now))
		mustNoErr(t, s.RegistrySave(ctx, "ADMIN", "app", "http://c:9999/", now))
		n, err := s.RegistryRemoveByKey(ctx, "EXECUTOR", "app")
		mustNoErr(t, err)
		if n != 2 {
			t.Errorf("removed %d rows, want 2", n)
		}
		if got := registryRows(t, s); got != "2" {
			t.Errorf("%s rows left, want 2", got)
		}
	})
}
