# Starts MariaDB (when not running) and creates the test user; switches the
# MariaDB suites on.
if ! mariadb -uroot -e 'SELECT 1' >/dev/null 2>&1; then
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  (mysqld_safe --skip-syslog >/tmp/ci-mysqld.log 2>&1 &)
  for _ in $(seq 1 60); do
    mariadb -uroot -e 'SELECT 1' >/dev/null 2>&1 && break
    sleep 1
  done
fi
mariadb -uroot -e 'SELECT VERSION()'
mariadb -uroot -e "CREATE USER IF NOT EXISTS 'xxl'@'127.0.0.1' IDENTIFIED BY 'xxl_pwd';
  CREATE USER IF NOT EXISTS 'xxl'@'localhost' IDENTIFIED BY 'xxl_pwd';
  GRANT ALL ON *.* TO 'xxl'@'127.0.0.1'; GRANT ALL ON *.* TO 'xxl'@'localhost'; FLUSH PRIVILEGES;"
export XXL_TEST_MYSQL_DSN='xxl:xxl_pwd@tcp(127.0.0.1:3306)/'
