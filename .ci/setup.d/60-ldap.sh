# Starts an OpenLDAP slapd of our own (not the system's: its own config,
# database and pid file in a temporary directory) on loopback ports, with
# the users and groups of core/signin/testdata/directory.ldif and a
# self-signed certificate for StartTLS and LDAPS, and switches the LDAP
# sign-in suite on.
ldap_dir=${XXL_LDAP_DIR:-/tmp/xxl-ldap}
ldap_port=${XXL_LDAP_PORT:-3389}
ldaps_port=$((ldap_port + 1))
mkdir -p "$ldap_dir/db"
# A slapd this script started before (same directory) is stopped first.
old_pid=$(cat "$ldap_dir/slapd.pid" 2>/dev/null || true)
if [ -n "$old_pid" ] && kill -0 "$old_pid" 2>/dev/null; then
  kill "$old_pid"
  for _ in $(seq 1 100); do kill -0 "$old_pid" 2>/dev/null || break; sleep 0.1; done
fi
rm -rf "$ldap_dir/db" && mkdir -p "$ldap_dir/db"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1,DNS:localhost \
  -keyout "$ldap_dir/key.pem" -out "$ldap_dir/cert.pem" 2>/dev/null
cat >"$ldap_dir/slapd.conf" <<CONF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload ppolicy
pidfile $ldap_dir/slapd.pid
TLSCertificateFile $ldap_dir/cert.pem
TLSCertificateKeyFile $ldap_dir/key.pem
database mdb
suffix "dc=example,dc=org"
rootdn "cn=root,dc=example,dc=org"
rootpw root-secret
directory $ldap_dir/db
overlay ppolicy
ppolicy_default "cn=default,ou=policies,dc=example,dc=org"
ppolicy_use_lockout
access to attrs=userPassword by anonymous auth by * none
access to * by users read by * none
CONF
slapadd -f "$ldap_dir/slapd.conf" -l core/signin/testdata/directory.ldif >/dev/null
slapd -f "$ldap_dir/slapd.conf" -h "ldap://127.0.0.1:$ldap_port/ ldaps://127.0.0.1:$ldaps_port/"
for _ in $(seq 1 50); do
  ldapsearch -x -H "ldap://127.0.0.1:$ldap_port" -D cn=reader,dc=example,dc=org -w reader-secret \
    -b dc=example,dc=org -s base dn >/dev/null 2>&1 && break
  sleep 0.1
done
export XXL_TEST_LDAP="ldap://127.0.0.1:$ldap_port"
export XXL_TEST_LDAPS="ldaps://127.0.0.1:$ldaps_port"
export XXL_TEST_LDAP_CA="$ldap_dir/cert.pem"
