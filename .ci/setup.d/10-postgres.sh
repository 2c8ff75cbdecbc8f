# Starts PostgreSQL (Debian's cluster, when not running) on 127.0.0.1:5432,
# creates the test role and switches the PostgreSQL suites on.
pg_ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$pg_ver main$"; then
  pg_createcluster "$pg_ver" main >/dev/null
fi
pg_conf=/etc/postgresql/$pg_ver/main/conf.d/xxl-ci.conf
# Tests open pools of up to 20 per store, several stores at once (admin
# processes of the cluster test, parallel subtests); the default 100 is tight.
# Autovacuum off: its workers belong to the superuser, so a test role may not
# end them when it drops its database WITH (FORCE) (42501); tests need no vacuum.
if [ ! -f "$pg_conf" ]; then
  printf "listen_addresses = '127.0.0.1'\nport = 5432\nmax_connections = 400\nautovacuum = off\n" >"$pg_conf"
  pg_ctlcluster "$pg_ver" main stop >/dev/null 2>&1 || true
fi
if ! pg_lsclusters -h | grep -q "^$pg_ver *main .* online"; then
  pg_ctlcluster "$pg_ver" main start
fi
for _ in $(seq 1 60); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 1
done
su postgres -c "psql -q -v ON_ERROR_STOP=1 -d postgres" <<'SQL'
SELECT version();
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'xxl') THEN
    CREATE ROLE xxl LOGIN CREATEDB PASSWORD 'xxl_pwd';
  END IF;
END $$;
SQL
export XXL_TEST_POSTGRES_DSN='postgres://xxl:xxl_pwd@127.0.0.1:5432/postgres?sslmode=disable'
