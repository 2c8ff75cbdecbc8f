package alarm

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

func strp(s string) *string { return &s }

// failedEvent is a job whose trigger and handling both failed; its job
// description and group title contain markup that the mail must escape.
func failedEvent(alarmEmail *string) Event {
	return Event{
		Job: schema.JobInfo{
			ID:         1234,
			JobGroup:   3,
			JobDesc:    `Nightly <b>"report"</b> & co`,
			AlarmEmail: alarmEmail,
		},
		Group: &schema.Group{ID: 3, Title: "Demo <exec>"},
		Log: schema.JobLog{
			ID:          77,
			JobGroup:    3,
			JobID:       1234,
			TriggerCode: 500,
			TriggerMsg:  strp(`Job trigger type：Cron trigger<br><br><span style="color:#00c0ef;" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>code：500`),
			HandleCode:  502,
			HandleMsg:   strp(`handler <i>boom</i>`),
		},
	}
}

// logBuffer collects zerolog output; safe for the concurrent channels.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLogger() (zerolog.Logger, *logBuffer) {
	b := &logBuffer{}
	return zerolog.New(b), b
}

// selfSigned makes a certificate for 127.0.0.1 and a client config trusting it.
func selfSigned(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "alarm test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}}, MinVersion: tls.VersionTLS12}
	client = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return server, client
}
